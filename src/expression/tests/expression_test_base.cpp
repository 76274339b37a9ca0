// Helpers of the expression tests (see expression_test_base.h).
#include "expression_test_base.h"

namespace eddy::expression::testing {

LogicalTypePtr type(std::string_view text) { return parseLogicalType(text); }

vector::Chunk chunkOf(std::string_view rowType, const std::vector<Row>& rows) {
  return vector::rowsToChunk(rows, parseLogicalType(rowType));
}

ExpressionPtr col(const vector::Chunk& chunk, int index) {
  return column(index, chunk.rowType()->getFields()[index].type);
}

std::string evaluate(const ExpressionPtr& expression, const vector::Chunk& chunk) {
  ExpressionEvaluator evaluator({expression});
  function::EvaluationContext context;
  std::vector<vector::Vector> results;
  evaluator.evaluate(chunk, results, context);
  EXPECT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].size(), chunk.size());
  EXPECT_TRUE(*results[0].type() == *expression->type())
      << results[0].type()->asSummaryString() << " vs. " << expression->type()->asSummaryString();
  std::string printed = "[";
  for (int64_t row = 0; row < results[0].size(); ++row) {
    if (row > 0) printed += ", ";
    printed += results[0].valueAt(row).toString();
  }
  return printed + "]";
}

std::string evaluateScalar(const ExpressionPtr& expression) {
  vector::Chunk chunk = chunkOf("ROW<unused INT>", {Row::of(0)});
  std::string printed = evaluate(expression, chunk);
  return printed.substr(1, printed.size() - 2);
}

ExpressionPtr decimalLiteral(std::string_view text) { return literal(Decimal::fromString(text)); }

}  // namespace eddy::expression::testing
