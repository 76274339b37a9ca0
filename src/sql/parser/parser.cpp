// The SQL parser's entry points (parser.h): each call parses its text with a Parser of its own
// (recursive_descent_parser.h, whose opening comment maps the grammar's sections to files), so
// the functions keep no state between calls.
#include "sql/parser/parser.h"

#include "sql/parser/recursive_descent_parser.h"

namespace eddy::sql {
namespace detail {

std::vector<StatementPtr> Parser::parseScript() {
  std::vector<StatementPtr> statements;
  while (true) {
    while (acceptSymbol(";")) {
    }
    if (atEnd()) break;
    statements.push_back(parseStatementWithText());
    if (atEnd()) break;
    expectStatementEnd();
  }
  return statements;
}

StatementPtr Parser::parseSingleStatement() {
  StatementPtr statement = parseStatementWithText();
  acceptSymbol(";");
  if (!atEnd()) {
    note("<EOF>");
    failExpected();
  }
  return statement;
}

ExpressionPtr Parser::parseSingleExpression() {
  ExpressionPtr expression = parseExpression();
  if (!atEnd()) {
    note("<EOF>");
    failExpected();
  }
  return expression;
}

}  // namespace detail

std::vector<StatementPtr> parseScript(std::string_view sql) {
  return detail::Parser(sql).parseScript();
}

StatementPtr parseStatement(std::string_view sql) {
  return detail::Parser(sql).parseSingleStatement();
}

ExpressionPtr parseExpression(std::string_view sql) {
  return detail::Parser(sql).parseSingleExpression();
}

}  // namespace eddy::sql
