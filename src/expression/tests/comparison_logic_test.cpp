// Comparisons across types, IS [NOT] DISTINCT FROM, three-valued AND/OR/NOT truth tables and
// the IS predicates.
#include "expression_test_base.h"

namespace eddy::expression::testing {
namespace {

TEST(ComparisonTest, NumericsCompareAfterWidening) {
  auto chunk = chunkOf("ROW<a INT, b DOUBLE, c DECIMAL(10, 2), d BIGINT>",
                       {Row::of(1, 1.0, Decimal::fromString("1.00"), int64_t{2}),
                        Row::of(2, 1.5, Decimal::fromString("500.01"), int64_t{2}),
                        Row::of(nullptr, 3.0, nullptr, int64_t{0})});
  EXPECT_EQ(evaluate(fn("=", {col(chunk, 0), col(chunk, 1)}), chunk), "[true, false, null]");
  EXPECT_EQ(evaluate(fn("<", {col(chunk, 0), col(chunk, 3)}), chunk), "[true, false, null]");
  EXPECT_EQ(evaluate(fn("=", {col(chunk, 2), col(chunk, 0)}), chunk), "[true, false, null]");
  auto greater = fn(">", {col(chunk, 2), decimalLiteral("500.00")});
  EXPECT_EQ(greater->toString(), ">($2, 500.00)");
  EXPECT_EQ(evaluate(greater, chunk), "[false, true, null]");
  EXPECT_EQ(evaluate(fn(">=", {col(chunk, 2), decimalLiteral("1.0")}), chunk),
            "[true, true, null]");
  EXPECT_EQ(evaluate(fn("<>", {col(chunk, 3), lit(2)}), chunk), "[false, false, true]");
  EXPECT_EQ(evaluate(fn("<=", {col(chunk, 1), lit(1.5)}), chunk), "[true, true, false]");
  EXPECT_EQ(fn("=", {lit(1), lit(2)})->type()->asSummaryString(), "BOOLEAN NOT NULL");
  EXPECT_EQ(fn("=", {col(chunk, 3), lit(2)})->type()->asSummaryString(), "BOOLEAN");
}

TEST(ComparisonTest, StringsDatesBooleans) {
  auto chunk = chunkOf("ROW<s STRING, d DATE, t TIMESTAMP(3), b BOOLEAN>",
                       {Row::of("apple", LocalDate::of(2021, 8, 21),
                                LocalDateTime::of(2021, 8, 21, 0, 0), true),
                        Row::of("banana", LocalDate::of(2021, 8, 22),
                                LocalDateTime::of(2021, 8, 21, 13, 0), false)});
  EXPECT_EQ(evaluate(fn("<", {col(chunk, 0), lit("b")}), chunk), "[true, false]");
  EXPECT_EQ(evaluate(fn("=", {col(chunk, 0), lit("apple")}), chunk), "[true, false]");
  EXPECT_EQ(evaluate(fn("=", {col(chunk, 1), col(chunk, 2)}), chunk), "[true, false]");
  EXPECT_EQ(evaluate(fn(">", {col(chunk, 2), lit(LocalDateTime::of(2021, 8, 21, 12, 0))}), chunk),
            "[false, true]");
  EXPECT_EQ(evaluate(fn(">", {col(chunk, 3), lit(false)}), chunk), "[true, false]");
  EXPECT_EQ(messageOf([&] { fn("=", {col(chunk, 0), lit(1)}); }),
            "Cannot apply '=' to arguments of type '<VARCHAR(2147483647)> = <INT>'. Supported "
            "form(s): '<COMPARABLE_TYPE> = <COMPARABLE_TYPE>'");
}

TEST(ComparisonTest, DistinctFromTreatsNullsAsValues) {
  auto chunk = chunkOf("ROW<a INT, b INT>", {Row::of(1, 1), Row::of(1, 2), Row::of(nullptr, 1),
                                             Row::of(nullptr, nullptr)});
  auto distinct = fn("IS DISTINCT FROM", {col(chunk, 0), col(chunk, 1)});
  EXPECT_EQ(distinct->type()->asSummaryString(), "BOOLEAN NOT NULL");
  EXPECT_EQ(evaluate(distinct, chunk), "[false, true, true, false]");
  EXPECT_EQ(evaluate(fn("IS NOT DISTINCT FROM", {col(chunk, 0), col(chunk, 1)}), chunk),
            "[true, false, false, true]");
  EXPECT_EQ(evaluate(fn("=", {col(chunk, 0), col(chunk, 1)}), chunk), "[true, false, null, null]");
}

// Every pair of TRUE, FALSE, NULL.
vector::Chunk truthTable() {
  std::vector<Row> rows;
  for (Value a : {Value(true), Value(false), Value()}) {
    for (Value b : {Value(true), Value(false), Value()}) rows.push_back(Row::of(a, b));
  }
  return chunkOf("ROW<a BOOLEAN, b BOOLEAN>", rows);
}

TEST(LogicTest, ThreeValuedTruthTables) {
  auto chunk = truthTable();
  auto a = col(chunk, 0), b = col(chunk, 1);
  EXPECT_EQ(evaluate(fn("AND", {a, b}), chunk),
            "[true, false, null, false, false, false, null, false, null]");
  EXPECT_EQ(evaluate(fn("OR", {a, b}), chunk),
            "[true, true, true, true, false, null, true, null, null]");
  EXPECT_EQ(evaluate(fn("NOT", {a}), chunk),
            "[false, false, false, true, true, true, null, null, null]");
  EXPECT_EQ(evaluate(fn("IS TRUE", {b}), chunk),
            "[true, false, false, true, false, false, true, false, false]");
  EXPECT_EQ(evaluate(fn("IS NOT TRUE", {b}), chunk),
            "[false, true, true, false, true, true, false, true, true]");
  EXPECT_EQ(evaluate(fn("IS FALSE", {b}), chunk),
            "[false, true, false, false, true, false, false, true, false]");
  EXPECT_EQ(evaluate(fn("IS NOT FALSE", {b}), chunk),
            "[true, false, true, true, false, true, true, false, true]");
  EXPECT_EQ(evaluate(fn("IS NULL", {b}), chunk),
            "[false, false, true, false, false, true, false, false, true]");
  EXPECT_EQ(evaluate(fn("IS NOT NULL", {a}), chunk),
            "[true, true, true, true, true, true, false, false, false]");
  EXPECT_EQ(fn("IS NULL", {a})->toString(), "IS NULL($0)");
  EXPECT_EQ(fn("IS NULL", {a})->type()->asSummaryString(), "BOOLEAN NOT NULL");
}

TEST(LogicTest, ConstantsAndNullLiterals) {
  auto chunk = truthTable();
  EXPECT_EQ(evaluate(fn("AND", {col(chunk, 0), nullLiteral()}), chunk),
            "[null, null, null, false, false, false, null, null, null]");
  EXPECT_EQ(evaluate(fn("OR", {lit(true), col(chunk, 1)}), chunk),
            "[true, true, true, true, true, true, true, true, true]");
  EXPECT_EQ(messageOf([&] { fn("AND", {col(chunk, 0), lit(1)}); }),
            "Cannot apply 'AND' to arguments of type '<BOOLEAN> AND <INT>'. Supported form(s): "
            "'<BOOLEAN> AND <BOOLEAN>'");
  EXPECT_EQ(messageOf([&] { fn("NOT", {lit(1)}); }),
            "Cannot apply 'NOT' to arguments of type 'NOT<INT>'. Supported form(s): "
            "'NOT<BOOLEAN>'");
}

TEST(LogicTest, AndDoesNotEvaluateTheRightSideWhereTheLeftIsFalse) {
  auto chunk = chunkOf("ROW<a INT, b INT>", {Row::of(10, 2), Row::of(10, 0), Row::of(3, 1)});
  auto guarded = fn("AND", {fn("<>", {col(chunk, 1), lit(0)}),
                            fn(">", {fn("/", {col(chunk, 0), col(chunk, 1)}), lit(4)})});
  EXPECT_EQ(evaluate(guarded, chunk), "[true, false, false]");
  auto either = fn("OR", {fn("=", {col(chunk, 1), lit(0)}),
                          fn(">", {fn("/", {col(chunk, 0), col(chunk, 1)}), lit(4)})});
  EXPECT_EQ(evaluate(either, chunk), "[true, true, false]");
}

}  // namespace
}  // namespace eddy::expression::testing
