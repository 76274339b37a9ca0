// CASE (searched and simple), COALESCE, NULLIF, IF, IN, BETWEEN: types, values, laziness.
#include "expression_test_base.h"

namespace eddy::expression::testing {
namespace {

vector::Chunk numbers() {
  return chunkOf("ROW<a INT, b INT, s STRING>", {Row::of(1, 10, "x"), Row::of(2, 0, nullptr),
                                                 Row::of(nullptr, 5, "z"), Row::of(4, nullptr, "w")});
}

TEST(ConditionalTest, SearchedCaseMergesTypesAndIsLazy) {
  auto chunk = numbers();
  auto a = col(chunk, 0), b = col(chunk, 1);
  auto expression = caseWhen({fn("=", {b, lit(0)}), fn(">", {a, lit(1)})},
                             {lit(-1), fn("/", {a, b})}, decimalLiteral("0.5"));
  EXPECT_EQ(expression->type()->asSummaryString(), "DECIMAL(11, 1)");
  EXPECT_EQ(expression->toString(),
            "CASE(=($1, 0), CAST(-1 AS DECIMAL(11, 1)), >($0, 1), CAST(/($0, $1) AS DECIMAL(11, "
            "1)), CAST(0.5 AS DECIMAL(11, 1)))");
  // Row 1 would divide by zero if its THEN branch ran on every row.
  EXPECT_EQ(evaluate(expression, chunk), "[0.5, -1.0, 0.5, null]");
  auto noElse = caseWhen({fn(">", {a, lit(1)})}, {lit("big")}, nullptr);
  EXPECT_EQ(noElse->type()->asSummaryString(), "CHAR(3)");
  EXPECT_EQ(evaluate(noElse, chunk), "[null, big, null, big]");
  EXPECT_EQ(messageOf([&] { caseWhen({fn(">", {a, lit(1)})}, {lit("x")}, lit(1)); }),
            "Illegal mixing of types in CASE or COALESCE statement");
}

TEST(ConditionalTest, SimpleCaseIfNullIf) {
  auto chunk = numbers();
  auto a = col(chunk, 0);
  auto simple = simpleCase(a, {lit(1), lit(2)}, {lit("one"), lit("two")}, lit("many"));
  // CHAR(3) results widen to CHAR(4) and are padded, as in Flink.
  EXPECT_EQ(evaluate(simple, chunk), "[one , two , many, many]");
  EXPECT_EQ(simple->type()->asSummaryString(), "CHAR(4) NOT NULL");
  EXPECT_EQ(evaluate(ifThenElse(fn("IS NULL", {a}), lit(0), a), chunk), "[1, 2, 0, 4]");
  auto nullif = nullIf(a, lit(2));
  EXPECT_EQ(nullif->type()->asSummaryString(), "INT");
  EXPECT_EQ(evaluate(nullif, chunk), "[1, null, null, 4]");
}

TEST(ConditionalTest, CoalesceTakesTheFirstNonNull) {
  auto chunk = numbers();
  auto a = col(chunk, 0), b = col(chunk, 1);
  auto both = coalesce({a, b});
  EXPECT_EQ(both->type()->asSummaryString(), "INT");
  EXPECT_EQ(both->toString(), "COALESCE($0, $1)");
  EXPECT_EQ(evaluate(both, chunk), "[1, 2, 5, 4]");
  auto withDefault = coalesce({col(chunk, 2), lit("none")});
  EXPECT_EQ(withDefault->type()->asSummaryString(), "STRING NOT NULL");
  EXPECT_EQ(evaluate(withDefault, chunk), "[x, none, z, w]");
  auto widened = coalesce({a, lit(int64_t{-1})});
  EXPECT_EQ(widened->type()->asSummaryString(), "BIGINT NOT NULL");
  EXPECT_EQ(evaluate(widened, chunk), "[1, 2, -1, 4]");
  // The second argument is never evaluated where the first is not NULL.
  auto lazy = coalesce({b, fn("/", {lit(1), fn("-", {b, b})})});
  EXPECT_EQ(evaluate(lazy, chunk), "[10, 0, 5, null]");
}

TEST(ConditionalTest, InAndBetween) {
  auto chunk = numbers();
  auto a = col(chunk, 0);
  EXPECT_EQ(evaluate(in(a, {lit(1), lit(4)}), chunk), "[true, false, null, true]");
  EXPECT_EQ(evaluate(in(a, {lit(1), nullLiteral()}), chunk), "[true, null, null, null]");
  EXPECT_EQ(evaluate(in(a, {lit(1), lit(4)}, true), chunk), "[false, true, null, false]");
  // A list of constants is one set lookup; one value stays `=`; other lists are ORs of `=`.
  EXPECT_EQ(in(a, {lit(1), lit(4)})->toString(), "IN($0, 1, 4)");
  EXPECT_EQ(in(a, {lit(4)})->toString(), "=($0, 4)");
  EXPECT_EQ(in(a, {lit(1), a})->toString(), "OR(=($0, 1), =($0, $0))");
  EXPECT_EQ(evaluate(in(a, {lit(1), a}), chunk), "[true, true, null, true]");
  EXPECT_EQ(evaluate(between(a, lit(2), lit(4)), chunk), "[false, true, null, true]");
  EXPECT_EQ(evaluate(between(a, lit(2), lit(4), true), chunk), "[true, false, null, false]");
  EXPECT_EQ(between(a, lit(2), lit(4))->toString(), "AND(>=($0, 2), <=($0, 4))");
}

}  // namespace
}  // namespace eddy::expression::testing
