// The evaluator: several expressions over one chunk, pass-through columns, selection vectors
// with NULL predicates, constant folding, executor fast paths and large chunks.
#include "expression_test_base.h"

namespace eddy::expression::testing {
namespace {

TEST(EvaluatorTest, EvaluatesAllExpressionsOverTheChunk) {
  auto chunk = chunkOf("ROW<a INT, b STRING>", {Row::of(1, "x"), Row::of(nullptr, "y")});
  ExpressionEvaluator evaluator({col(chunk, 1), fn("+", {col(chunk, 0), lit(1)}), lit(7)});
  function::EvaluationContext context;
  std::vector<vector::Vector> results;
  evaluator.evaluate(chunk, results, context);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].valueAt(1), Value("y"));
  EXPECT_EQ(results[1].valueAt(0), Value(2));
  EXPECT_TRUE(results[1].isNull(1));
  EXPECT_EQ(results[2].valueAt(1), Value(7));
  EXPECT_EQ(results[2].type()->asSummaryString(), "INT NOT NULL");
}

// RAND(seed) keeps its generator in the evaluation context: it continues from chunk to chunk
// with one context (one operator instance) and starts again with another (java.util.Random(1)).
TEST(EvaluatorTest, PerCallStateLivesInTheEvaluationContext) {
  auto chunk = chunkOf("ROW<a INT>", {Row::of(1), Row::of(2)});
  ExpressionEvaluator evaluator({fn("RAND", {lit(1)})});
  function::EvaluationContext first;
  function::EvaluationContext second;
  std::vector<vector::Vector> results;
  evaluator.evaluate(chunk, results, first);
  EXPECT_EQ(results[0].valueAt(0), Value(0.7308781907032909));
  EXPECT_EQ(results[0].valueAt(1), Value(0.41008081149220166));
  evaluator.evaluate(chunk, results, first);
  EXPECT_EQ(results[0].valueAt(0), Value(0.20771484130971707));
  evaluator.evaluate(chunk, results, second);
  EXPECT_EQ(results[0].valueAt(0), Value(0.7308781907032909));
}

TEST(EvaluatorTest, SelectTrueSkipsFalseAndNull) {
  auto chunk = chunkOf("ROW<a INT>", {Row::of(5), Row::of(nullptr), Row::of(1), Row::of(9)});
  ExpressionEvaluator evaluator({});
  function::EvaluationContext context;
  auto predicate = fn(">", {col(chunk, 0), lit(2)});
  EXPECT_EQ(evaluator.selectTrue(predicate, chunk, context), (std::vector<int32_t>{0, 3}));
  EXPECT_EQ(evaluator.selectTrue(lit(true), chunk, context), (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(evaluator.selectTrue(literal(Value(), type("BOOLEAN")), chunk, context),
            (std::vector<int32_t>{}));
  EXPECT_EQ(evaluator.selectTrue(fn("IS NULL", {col(chunk, 0)}), chunk, context),
            (std::vector<int32_t>{1}));
}

TEST(EvaluatorTest, ConstantFolding) {
  EXPECT_EQ(ExpressionEvaluator::evaluateConstant(fn("*", {lit(6), lit(7)})), Value(42));
  EXPECT_EQ(ExpressionEvaluator::evaluateConstant(fn("UPPER", {lit("a")})), Value("A"));
  EXPECT_EQ(ExpressionEvaluator::evaluateConstant(fn("+", {lit(1), nullLiteral()})), Value());
  EXPECT_EQ(ExpressionEvaluator::evaluateConstant(column(0, type("INT"))), std::nullopt);
  EXPECT_EQ(ExpressionEvaluator::evaluateConstant(fn("/", {lit(1), lit(0)})), std::nullopt);
  EXPECT_EQ(ExpressionEvaluator::evaluateConstant(cast(lit("12"), type("INT"))), Value(12));
}

TEST(EvaluatorTest, NullFastPathAndNullSlowPathAgreeOnLargeChunks) {
  std::vector<Row> rows;
  for (int i = 0; i < 1000; ++i) {
    rows.push_back(i % 7 == 0 ? Row::of(nullptr, i) : Row::of(i, i));
  }
  auto chunk = chunkOf("ROW<a INT, b INT NOT NULL>", rows);
  auto expression = fn(">", {fn("+", {fn("*", {col(chunk, 0), lit(2)}), col(chunk, 1)}), lit(100)});
  ExpressionEvaluator evaluator({expression});
  function::EvaluationContext context;
  std::vector<int32_t> selected = evaluator.selectTrue(expression, chunk, context);
  std::vector<int32_t> expected;
  for (int i = 0; i < 1000; ++i) {
    if (i % 7 != 0 && i * 3 > 100) expected.push_back(i);
  }
  EXPECT_EQ(selected, expected);
  auto noNulls = fn("*", {col(chunk, 1), col(chunk, 1)});
  std::string printed = evaluate(noNulls, chunk);
  EXPECT_EQ(printed.substr(0, 16), "[0, 1, 4, 9, 16,");
}

TEST(EvaluatorTest, ResultsKeepStringsInRowOrderAcrossCaseBranches) {
  auto chunk = chunkOf("ROW<a INT, s STRING>",
                       {Row::of(1, "one"), Row::of(2, "two"), Row::of(3, nullptr), Row::of(4, "four")});
  auto expression = caseWhen({fn("=", {fn("%", {col(chunk, 0), lit(2)}), lit(0)})},
                             {fn("UPPER", {col(chunk, 1)})}, fn("CONCAT", {col(chunk, 1), lit("!")}));
  EXPECT_EQ(evaluate(expression, chunk), "[one!, TWO, null, FOUR]");
}

}  // namespace
}  // namespace eddy::expression::testing
