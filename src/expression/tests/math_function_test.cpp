// Math functions: types (ROUND of DECIMAL by its literal digits), exact values, NULLs.
#include "expression_test_base.h"

namespace eddy::expression::testing {
namespace {

TEST(MathFunctionTest, AbsSignCeilFloor) {
  auto chunk = chunkOf("ROW<i INT, d DOUBLE, m DECIMAL(5, 2)>",
                       {Row::of(-3, -2.5, Decimal::fromString("-2.50")),
                        Row::of(4, 2.1, Decimal::fromString("2.01")),
                        Row::of(nullptr, nullptr, nullptr)});
  EXPECT_EQ(evaluate(fn("ABS", {col(chunk, 0)}), chunk), "[3, 4, null]");
  EXPECT_EQ(evaluate(fn("ABS", {col(chunk, 2)}), chunk), "[2.50, 2.01, null]");
  EXPECT_EQ(evaluate(fn("SIGN", {col(chunk, 1)}), chunk), "[-1.0, 1.0, null]");
  EXPECT_EQ(evaluate(fn("SIGN", {col(chunk, 2)}), chunk), "[-1.00, 1.00, null]");
  EXPECT_EQ(evaluate(fn("CEIL", {col(chunk, 1)}), chunk), "[-2.0, 3.0, null]");
  EXPECT_EQ(evaluate(fn("FLOOR", {col(chunk, 1)}), chunk), "[-3.0, 2.0, null]");
  auto ceil = fn("CEILING", {col(chunk, 2)});
  EXPECT_EQ(ceil->type()->asSummaryString(), "DECIMAL(5, 0)");
  EXPECT_EQ(evaluate(ceil, chunk), "[-2, 3, null]");
  EXPECT_EQ(evaluate(fn("FLOOR", {col(chunk, 2)}), chunk), "[-3, 2, null]");
  EXPECT_EQ(evaluate(fn("FLOOR", {col(chunk, 0)}), chunk), "[-3, 4, null]");
}

TEST(MathFunctionTest, RoundAndTruncate) {
  auto m = decimalLiteral("12.345");
  auto round = fn("ROUND", {m, lit(2)});
  EXPECT_EQ(round->type()->asSummaryString(), "DECIMAL(5, 2) NOT NULL");
  EXPECT_EQ(evaluateScalar(round), "12.35");
  EXPECT_EQ(evaluateScalar(fn("ROUND", {decimalLiteral("-12.345"), lit(2)})), "-12.35");
  EXPECT_EQ(evaluateScalar(fn("ROUND", {m, lit(0)})), "12");
  EXPECT_EQ(evaluateScalar(fn("ROUND", {m, lit(-1)})), "10");
  EXPECT_EQ(evaluateScalar(fn("ROUND", {m})), "12");
  EXPECT_EQ(evaluateScalar(fn("ROUND", {m, lit(5)})), "12.345");
  EXPECT_EQ(evaluateScalar(fn("TRUNCATE", {m, lit(2)})), "12.34");
  EXPECT_EQ(evaluateScalar(fn("ROUND", {lit(2.675), lit(2)})), "2.68");
  EXPECT_EQ(evaluateScalar(fn("ROUND", {lit(-2.5)})), "-3.0");
  EXPECT_EQ(evaluateScalar(fn("TRUNCATE", {lit(2.675), lit(2)})), "2.67");
  EXPECT_EQ(evaluateScalar(fn("ROUND", {lit(1250), lit(-2)})), "1300");
  EXPECT_EQ(evaluateScalar(fn("TRUNCATE", {lit(1299), lit(-2)})), "1200");
}

TEST(MathFunctionTest, DoubleFunctions) {
  EXPECT_EQ(evaluateScalar(fn("POWER", {lit(2), lit(10)})), "1024.0");
  EXPECT_EQ(evaluateScalar(fn("POW", {lit(2.0), lit(0.5)})), "1.4142135623730951");
  EXPECT_EQ(evaluateScalar(fn("SQRT", {lit(16)})), "4.0");
  EXPECT_EQ(evaluateScalar(fn("LN", {lit(1)})), "0.0");
  EXPECT_EQ(evaluateScalar(fn("LN", {lit(-1)})), "NaN");
  EXPECT_EQ(evaluateScalar(fn("LOG10", {lit(1000)})), "3.0");
  EXPECT_EQ(evaluateScalar(fn("LOG2", {lit(8)})), "3.0");
  EXPECT_EQ(evaluateScalar(fn("LOG", {lit(2), lit(8)})), "3.0");
  EXPECT_EQ(evaluateScalar(fn("EXP", {lit(0)})), "1.0");
  EXPECT_EQ(evaluateScalar(fn("PI", {})), "3.141592653589793");
  EXPECT_EQ(fn("PI", {})->type()->asSummaryString(), "DOUBLE NOT NULL");
  auto chunk = chunkOf("ROW<x DOUBLE>", {Row::of(4.0), Row::of(nullptr)});
  EXPECT_EQ(evaluate(fn("SQRT", {col(chunk, 0)}), chunk), "[2.0, null]");
  EXPECT_EQ(evaluate(fn("+", {fn("PI", {}), col(chunk, 0)}), chunk),
            "[7.141592653589793, null]");
  EXPECT_EQ(messageOf([] { fn("SQRT", {lit("x")}); }),
            "Cannot apply 'SQRT' to arguments of type 'SQRT(<CHAR(1)>)'. Supported form(s): "
            "'SQRT(<NUMERIC>)'");
}

}  // namespace
}  // namespace eddy::expression::testing
