// Arithmetic: result types (Flink's widening and DECIMAL rules), exact values over chunks with
// NULLs, integer wrap-around and truncating division, runtime errors, bad signatures.
#include "expression_test_base.h"

namespace eddy::expression::testing {
namespace {

TEST(ArithmeticTest, IntegersWidenAndPropagateNull) {
  auto chunk = chunkOf("ROW<a INT, b BIGINT, c TINYINT NOT NULL>",
                       {Row::of(1, int64_t{10}, int8_t{3}), Row::of(nullptr, int64_t{20}, int8_t{4}),
                        Row::of(7, nullptr, int8_t{5})});
  auto plus = fn("+", {col(chunk, 0), col(chunk, 1)});
  EXPECT_EQ(plus->type()->asSummaryString(), "BIGINT");
  EXPECT_EQ(plus->toString(), "+(CAST($0 AS BIGINT), $1)");
  EXPECT_EQ(evaluate(plus, chunk), "[11, null, null]");
  auto times = fn("*", {col(chunk, 2), lit(2)});
  EXPECT_EQ(times->type()->asSummaryString(), "INT NOT NULL");
  EXPECT_EQ(evaluate(times, chunk), "[6, 8, 10]");
  EXPECT_EQ(evaluate(fn("-", {col(chunk, 0)}), chunk), "[-1, null, -7]");
  EXPECT_EQ(evaluate(fn("-", {lit(100), col(chunk, 0)}), chunk), "[99, null, 93]");
}

TEST(ArithmeticTest, IntegerDivisionTruncatesAndModuloKeepsTheDividendSign) {
  auto chunk = chunkOf("ROW<a INT, b INT>", {Row::of(7, 2), Row::of(-7, 2), Row::of(7, -2),
                                             Row::of(nullptr, 0)});
  auto divide = fn("/", {col(chunk, 0), col(chunk, 1)});
  EXPECT_EQ(divide->type()->asSummaryString(), "INT");
  EXPECT_EQ(evaluate(divide, chunk), "[3, -3, -3, null]");
  EXPECT_EQ(evaluate(fn("%", {col(chunk, 0), col(chunk, 1)}), chunk), "[1, -1, 1, null]");
  EXPECT_EQ(evaluate(fn("MOD", {col(chunk, 0), col(chunk, 1)}), chunk), "[1, -1, 1, null]");
}

TEST(ArithmeticTest, IntegersWrapLikeJava) {
  EXPECT_EQ(evaluateScalar(fn("+", {lit(2147483647), lit(1)})), "-2147483648");
  EXPECT_EQ(evaluateScalar(fn("+", {lit(int8_t{127}), lit(int8_t{1})})), "-128");
  EXPECT_EQ(evaluateScalar(fn("/", {lit(int64_t{INT64_MIN}), lit(int64_t{-1})})),
            "-9223372036854775808");
}

TEST(ArithmeticTest, DivisionByZeroNamesTheFunction) {
  auto chunk = chunkOf("ROW<a INT, b INT>", {Row::of(1, 1), Row::of(1, 0)});
  EXPECT_EQ(messageOf([&] { evaluate(fn("/", {col(chunk, 0), col(chunk, 1)}), chunk); }),
            "Division by zero in '/'.");
  EXPECT_EQ(messageOf([&] { evaluate(fn("MOD", {col(chunk, 0), col(chunk, 1)}), chunk); }),
            "Division by zero in 'MOD'.");
  // A NULL row is never divided.
  auto nulls = chunkOf("ROW<a INT, b INT>", {Row::of(nullptr, 0)});
  EXPECT_EQ(evaluate(fn("/", {col(nulls, 0), col(nulls, 1)}), nulls), "[null]");
  // DOUBLE follows IEEE.
  EXPECT_EQ(evaluateScalar(fn("/", {lit(1.0), lit(0.0)})), "Infinity");
  EXPECT_EQ(evaluateScalar(fn("/", {lit(0.0), lit(0.0)})), "NaN");
}

TEST(ArithmeticTest, ApproximateTypes) {
  auto chunk = chunkOf("ROW<f FLOAT, d DOUBLE, i INT, m DECIMAL(10, 2)>",
                       {Row::of(1.5f, 0.25, 3, Decimal::fromString("1.10"))});
  EXPECT_EQ(fn("+", {col(chunk, 0), col(chunk, 2)})->type()->asSummaryString(), "FLOAT");
  EXPECT_EQ(fn("+", {col(chunk, 0), col(chunk, 1)})->type()->asSummaryString(), "DOUBLE");
  EXPECT_EQ(fn("*", {col(chunk, 3), col(chunk, 0)})->type()->asSummaryString(), "DOUBLE");
  EXPECT_EQ(evaluate(fn("+", {col(chunk, 0), col(chunk, 2)}), chunk), "[4.5]");
  EXPECT_EQ(evaluate(fn("*", {col(chunk, 3), col(chunk, 1)}), chunk), "[0.275]");
}

TEST(ArithmeticTest, DecimalTypesFollowFlink) {
  auto chunk = chunkOf("ROW<a DECIMAL(10, 2), b DECIMAL(5, 3), i INT>",
                       {Row::of(Decimal::fromString("12.34"), Decimal::fromString("1.005"), 3),
                        Row::of(nullptr, Decimal::fromString("-2.500"), 4)});
  auto a = col(chunk, 0), b = col(chunk, 1), i = col(chunk, 2);
  EXPECT_EQ(fn("+", {a, b})->type()->asSummaryString(), "DECIMAL(12, 3)");
  EXPECT_EQ(fn("-", {a, b})->type()->asSummaryString(), "DECIMAL(12, 3)");
  EXPECT_EQ(fn("*", {a, b})->type()->asSummaryString(), "DECIMAL(15, 5)");
  EXPECT_EQ(fn("/", {a, b})->type()->asSummaryString(), "DECIMAL(19, 8)");
  EXPECT_EQ(fn("%", {a, b})->type()->asSummaryString(), "DECIMAL(5, 3)");
  EXPECT_EQ(fn("+", {a, i})->type()->asSummaryString(), "DECIMAL(13, 2)");
  EXPECT_EQ(evaluate(fn("+", {a, b}), chunk), "[13.345, null]");
  EXPECT_EQ(evaluate(fn("-", {a, b}), chunk), "[11.335, null]");
  EXPECT_EQ(evaluate(fn("*", {a, b}), chunk), "[12.40170, null]");
  EXPECT_EQ(evaluate(fn("/", {a, b}), chunk), "[12.27860697, null]");
  EXPECT_EQ(evaluate(fn("%", {a, b}), chunk), "[0.280, null]");
  EXPECT_EQ(evaluate(fn("*", {b, i}), chunk), "[3.015, -10.000]");
  EXPECT_EQ(evaluate(fn("-", {b}), chunk), "[-1.005, 2.500]");
}

TEST(ArithmeticTest, DecimalPrecisionIsCappedAndScaleReduced) {
  auto chunk = chunkOf("ROW<a DECIMAL(38, 10), b DECIMAL(38, 10)>",
                       {Row::of(Decimal::fromString("2.5"), Decimal::fromString("4"))});
  auto times = fn("*", {col(chunk, 0), col(chunk, 1)});
  EXPECT_EQ(times->type()->asSummaryString(), "DECIMAL(38, 6)");
  EXPECT_EQ(evaluate(times, chunk), "[10.000000]");
  auto divide = fn("/", {col(chunk, 0), col(chunk, 1)});
  EXPECT_EQ(divide->type()->asSummaryString(), "DECIMAL(38, 6)");
  EXPECT_EQ(evaluate(divide, chunk), "[0.625000]");
  EXPECT_EQ(fn("+", {col(chunk, 0), col(chunk, 1)})->type()->asSummaryString(),
            "DECIMAL(38, 9)");
}

TEST(ArithmeticTest, DecimalDivisionRoundsHalfUpAndOverflowIsNull) {
  EXPECT_EQ(evaluateScalar(fn("/", {decimalLiteral("2"), decimalLiteral("3")})), "0.666667");
  EXPECT_EQ(evaluateScalar(fn("/", {decimalLiteral("-2"), decimalLiteral("3")})), "-0.666667");
  EXPECT_EQ(messageOf([] { evaluateScalar(fn("/", {decimalLiteral("2"), decimalLiteral("0")})); }),
            "Division by zero in '/'.");
  auto big = literal(Decimal::fromString("99999999999999999999999999999999999999"),
                     type("DECIMAL(38, 0)"));
  EXPECT_EQ(evaluateScalar(fn("+", {big, big})), "null");
}

TEST(ArithmeticTest, BadSignaturesGiveCalciteMessages) {
  auto chunk = chunkOf("ROW<s STRING, b BOOLEAN>", {Row::of("x", true)});
  EXPECT_EQ(messageOf([&] { fn("+", {col(chunk, 0), lit(1)}); }),
            "Cannot apply '+' to arguments of type '<VARCHAR(2147483647)> + <INT>'. Supported "
            "form(s): '<NUMERIC> + <NUMERIC>'\n'+<NUMERIC>'");
  EXPECT_EQ(messageOf([&] { fn("*", {col(chunk, 1), lit(2)}); }),
            "Cannot apply '*' to arguments of type '<BOOLEAN> * <INT>'. Supported form(s): "
            "'<NUMERIC> * <NUMERIC>'");
  EXPECT_EQ(messageOf([&] { fn("MOD", {lit(1.5), lit(2)}); }),
            "Cannot apply 'MOD' to arguments of type 'MOD(<DOUBLE>, <INT>)'. Supported form(s): "
            "'MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)'");
  EXPECT_EQ(messageOf([&] { fn("FOO", {lit(1)}); }),
            "No match found for function signature FOO(<INT>)");
}

}  // namespace
}  // namespace eddy::expression::testing
