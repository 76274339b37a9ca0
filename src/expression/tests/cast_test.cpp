// CAST and TRY_CAST: numeric conversions, Flink's string forms, parsing, DECIMAL rounding and
// overflow, temporal casts, round trips and the messages of unsupported and failing casts.
#include "expression_test_base.h"

namespace eddy::expression::testing {
namespace {

std::string castScalar(const Value& value, std::string_view target) {
  return evaluateScalar(cast(lit(value), type(target)));
}
std::string tryCastScalar(const Value& value, std::string_view target) {
  return evaluateScalar(tryCast(lit(value), type(target)));
}

TEST(CastTest, NumericToString) {
  EXPECT_EQ(castScalar(true, "STRING"), "TRUE");
  EXPECT_EQ(castScalar(false, "STRING"), "FALSE");
  EXPECT_EQ(castScalar(42, "STRING"), "42");
  EXPECT_EQ(castScalar(1.0, "STRING"), "1.0");
  EXPECT_EQ(castScalar(0.1, "STRING"), "0.1");
  EXPECT_EQ(castScalar(1e7, "STRING"), "1.0E7");
  EXPECT_EQ(castScalar(1.234e-5, "STRING"), "1.234E-5");
  EXPECT_EQ(castScalar(-123456.789, "STRING"), "-123456.789");
  EXPECT_EQ(castScalar(1.1f, "STRING"), "1.1");
  EXPECT_EQ(castScalar(Decimal::fromString("10.50"), "STRING"), "10.50");
  EXPECT_EQ(castScalar(Decimal::fromString("0.0000001"), "STRING"), "0.0000001");
  EXPECT_EQ(castScalar(Decimal::fromString("-0.05"), "STRING"), "-0.05");
  EXPECT_EQ(castScalar(12345, "VARCHAR(3)"), "123");
  EXPECT_EQ(castScalar(12, "CHAR(4)"), "12  ");
}

TEST(CastTest, TemporalToStringUsesSqlForms) {
  EXPECT_EQ(castScalar(LocalDate::of(2021, 8, 21), "STRING"), "2021-08-21");
  EXPECT_EQ(evaluateScalar(cast(literal(LocalTime::of(13, 0), type("TIME(0)")), type("STRING"))),
            "13:00:00");
  EXPECT_EQ(evaluateScalar(cast(literal(LocalDateTime::of(2021, 8, 21, 13, 0), type("TIMESTAMP(0)")),
                                type("STRING"))),
            "2021-08-21 13:00:00");
  EXPECT_EQ(evaluateScalar(cast(literal(LocalDateTime::of(2021, 8, 21, 13, 0, 5, 500'000'000),
                                        type("TIMESTAMP(3)")),
                                type("STRING"))),
            "2021-08-21 13:00:05.500");
}

TEST(CastTest, StringToNumbers) {
  EXPECT_EQ(castScalar(" 42 ", "INT"), "42");
  EXPECT_EQ(castScalar("-7", "BIGINT"), "-7");
  EXPECT_EQ(castScalar("1.9", "INT"), "1");
  EXPECT_EQ(castScalar("1.5e3", "DOUBLE"), "1500.0");
  EXPECT_EQ(castScalar("NaN", "DOUBLE"), "NaN");
  EXPECT_EQ(castScalar("3.14159", "DECIMAL(5, 2)"), "3.14");
  EXPECT_EQ(castScalar("2.345", "DECIMAL(5, 2)"), "2.35");
  EXPECT_EQ(castScalar("yes", "BOOLEAN"), "true");
  EXPECT_EQ(castScalar("FALSE", "BOOLEAN"), "false");
  EXPECT_EQ(tryCastScalar("abc", "INT"), "null");
  EXPECT_EQ(tryCastScalar("128", "TINYINT"), "null");
  EXPECT_EQ(tryCastScalar("maybe", "BOOLEAN"), "null");
  EXPECT_EQ(messageOf([] { castScalar("abc", "INT"); }),
            "CAST('abc' AS INT) failed: 'abc' is not a valid INT.");
  EXPECT_EQ(messageOf([] { castScalar("12x", "DECIMAL(5, 2)"); }),
            "CAST('12x' AS DECIMAL(5, 2)) failed: '12x' is not a valid DECIMAL(5, 2) value.");
}

TEST(CastTest, NumericConversions) {
  EXPECT_EQ(castScalar(300, "TINYINT"), "44");  // Java's narrowing keeps the low bits
  EXPECT_EQ(castScalar(3.99, "INT"), "3");
  EXPECT_EQ(castScalar(-3.99, "INT"), "-3");
  EXPECT_EQ(castScalar(1e20, "INT"), "2147483647");
  EXPECT_EQ(castScalar(1e20, "BIGINT"), "9223372036854775807");
  EXPECT_EQ(castScalar(Decimal::fromString("-12.99"), "INT"), "-12");
  EXPECT_EQ(castScalar(Decimal::fromString("12.345"), "DECIMAL(4, 2)"), "12.35");
  EXPECT_EQ(castScalar(Decimal::fromString("-12.345"), "DECIMAL(4, 2)"), "-12.35");
  EXPECT_EQ(castScalar(Decimal::fromString("12.5"), "DOUBLE"), "12.5");
  EXPECT_EQ(castScalar(0.1, "DECIMAL(3, 2)"), "0.10");
  EXPECT_EQ(castScalar(7, "DECIMAL(5, 2)"), "7.00");
  EXPECT_EQ(castScalar(7, "BOOLEAN"), "true");
  EXPECT_EQ(castScalar(true, "INT"), "1");
  EXPECT_EQ(tryCastScalar(Decimal::fromString("123.45"), "DECIMAL(4, 2)"), "null");
  EXPECT_EQ(tryCastScalar(12345, "DECIMAL(4, 2)"), "null");
  EXPECT_EQ(messageOf([] { castScalar(Decimal::fromString("123.45"), "DECIMAL(4, 2)"); }),
            "CAST(123.45 AS DECIMAL(4, 2)) failed: the value does not fit DECIMAL(4, 2).");
}

TEST(CastTest, StringToTemporalAndBack) {
  EXPECT_EQ(castScalar("2021-08-21", "DATE"), "2021-08-21");
  EXPECT_EQ(castScalar("13:00:05", "TIME(0)"), "13:00:05");
  EXPECT_EQ(castScalar("2021-08-21 13:00:00", "TIMESTAMP(3)"), "2021-08-21T13:00");
  EXPECT_EQ(castScalar("2021-08-21", "TIMESTAMP(3)"), "2021-08-21T00:00");
  EXPECT_EQ(castScalar("2021-08-21 13:00:00.123456", "TIMESTAMP(3)"), "2021-08-21T13:00:00.123");
  EXPECT_EQ(tryCastScalar("2021-13-45", "DATE"), "null");
  EXPECT_EQ(messageOf([] { castScalar("noon", "TIME(0)"); }),
            "CAST('noon' AS TIME(0)) failed: 'noon' is not a valid TIME(0).");
  EXPECT_EQ(evaluateScalar(cast(lit(LocalDateTime::of(2021, 8, 21, 13, 30)), type("DATE"))),
            "2021-08-21");
  EXPECT_EQ(evaluateScalar(cast(lit(LocalDate::of(2021, 8, 21)), type("TIMESTAMP(3)"))),
            "2021-08-21T00:00");
}

TEST(CastTest, RoundTripsThroughStrings) {
  auto chunk = chunkOf("ROW<i INT, d DOUBLE, m DECIMAL(10, 3), t TIMESTAMP(6), b BOOLEAN>",
                       {Row::of(-17, 2.5e-4, Decimal::fromString("-1.250"),
                                LocalDateTime::of(2021, 8, 21, 13, 0, 0, 123456000), true),
                        Row::of(nullptr, nullptr, nullptr, nullptr, nullptr)});
  for (int column = 0; column < 5; ++column) {
    auto original = col(chunk, column);
    auto roundTrip = cast(cast(original, type("STRING")), original->type());
    EXPECT_EQ(evaluate(roundTrip, chunk), evaluate(original, chunk)) << column;
  }
  EXPECT_EQ(evaluate(cast(col(chunk, 3), type("STRING")), chunk),
            "[2021-08-21 13:00:00.123456, null]");
}

TEST(CastTest, TypesAndMessages) {
  auto chunk = chunkOf("ROW<a INT NOT NULL, b BOOLEAN>", {Row::of(1, true)});
  EXPECT_EQ(cast(col(chunk, 0), type("BIGINT"))->type()->asSummaryString(), "BIGINT NOT NULL");
  EXPECT_EQ(tryCast(col(chunk, 0), type("BIGINT"))->type()->asSummaryString(), "BIGINT");
  EXPECT_EQ(cast(col(chunk, 0), type("BIGINT"))->toString(), "CAST($0 AS BIGINT)");
  EXPECT_EQ(tryCast(col(chunk, 0), type("STRING"))->toString(),
            "TRY_CAST($0 AS VARCHAR(2147483647))");
  EXPECT_EQ(messageOf([&] { cast(col(chunk, 1), type("DATE")); }),
            "Cast function cannot convert value of type BOOLEAN to type DATE");
  EXPECT_EQ(evaluateScalar(cast(nullLiteral(), type("INT"))), "null");
}

}  // namespace
}  // namespace eddy::expression::testing
