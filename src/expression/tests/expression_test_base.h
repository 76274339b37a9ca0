// Helpers of the expression tests: chunks from rows, evaluation of one expression into printed
// values ("[1, null, 3]"), and shorthands for building expressions.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "eddy/exceptions.h"
#include "eddy/row.h"
#include "eddy/types/logical_type.h"
#include "expression/bound_expression.h"
#include "expression/expression_evaluator.h"
#include "vector/chunk.h"

namespace eddy::expression::testing {

/// parseLogicalType shorthand.
LogicalTypePtr type(std::string_view text);
/// A chunk of `rowType` (e.g. "ROW<a INT, b STRING>") holding `rows`.
vector::Chunk chunkOf(std::string_view rowType, const std::vector<Row>& rows);
/// $index of the chunk's column type.
ExpressionPtr col(const vector::Chunk& chunk, int index);
/// The values of `expression` over `chunk`, printed as "[v0, v1, ...]" (Value::toString).
std::string evaluate(const ExpressionPtr& expression, const vector::Chunk& chunk);
/// The value of an expression without column references over one row, printed.
std::string evaluateScalar(const ExpressionPtr& expression);
/// The message of the exception `action` throws ("" when none).
template <typename Action>
std::string messageOf(Action&& action) {
  try {
    action();
  } catch (const EddyException& error) {
    return error.what();
  }
  return "";
}
/// call() shorthand.
inline ExpressionPtr fn(std::string_view name, std::vector<ExpressionPtr> arguments) {
  return call(name, std::move(arguments));
}
inline ExpressionPtr lit(const Value& value) { return literal(value); }
/// A DECIMAL literal from its text ("10.50" is DECIMAL(4, 2)).
ExpressionPtr decimalLiteral(std::string_view text);

}  // namespace eddy::expression::testing
