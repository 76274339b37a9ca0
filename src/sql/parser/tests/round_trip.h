// The round-trip check every parser test uses: parse, print with unparse(), parse the printed
// text again and require the same print (so the two trees are equal up to positions).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "eddy/exceptions.h"
#include "sql/parser/parser.h"
#include "sql/parser/unparse.h"

namespace eddy::sql::testing {

/// The normalized text of one statement; fails the test if it does not round-trip.
inline std::string roundTripStatement(std::string_view sql) {
  StatementPtr statement = parseStatement(sql);
  std::string printed = unparse(*statement);
  std::string reprinted;
  try {
    reprinted = unparse(*parseStatement(printed));
  } catch (const SqlParseException& error) {
    ADD_FAILURE() << "printed text does not parse: " << printed << "\n" << error.what();
  }
  EXPECT_EQ(reprinted, printed) << "round trip of " << sql;
  return printed;
}

/// The normalized text of one expression; fails the test if it does not round-trip.
inline std::string roundTripExpression(std::string_view sql) {
  ExpressionPtr expression = parseExpression(sql);
  std::string printed = unparse(*expression);
  std::string reprinted;
  try {
    reprinted = unparse(*parseExpression(printed));
  } catch (const SqlParseException& error) {
    ADD_FAILURE() << "printed text does not parse: " << printed << "\n" << error.what();
  }
  EXPECT_EQ(reprinted, printed) << "round trip of " << sql;
  return printed;
}

/// The message of the SqlParseException `parse` throws, or "<no error>".
template <typename Parse>
std::string errorOf(Parse&& parse) {
  try {
    parse();
  } catch (const SqlParseException& error) {
    return error.what();
  }
  return "<no error>";
}

inline std::string statementError(std::string_view sql) {
  return errorOf([&] { parseStatement(sql); });
}

inline std::string expressionError(std::string_view sql) {
  return errorOf([&] { parseExpression(sql); });
}

}  // namespace eddy::sql::testing
