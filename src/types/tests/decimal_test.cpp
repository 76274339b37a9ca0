// Decimal: parsing, HALF_UP rescaling, equality, and Java BigDecimal printing.
#include "eddy/types/decimal.h"

#include <gtest/gtest.h>

#include "eddy/exceptions.h"

namespace eddy {
namespace {

TEST(DecimalTest, PrintsAsBigDecimal) {
  EXPECT_EQ(Decimal::fromString("10.00").toString(), "10.00");
  EXPECT_EQ(Decimal::fromString("-0.5").toString(), "-0.5");
  EXPECT_EQ(Decimal::fromString(".5").toString(), "0.5");
  EXPECT_EQ(Decimal::fromString("0").toString(), "0");
  EXPECT_EQ(Decimal::fromString("0.000001").toString(), "0.000001");
  EXPECT_EQ(Decimal::fromString("0.0000001").toString(), "1E-7");
  EXPECT_EQ(Decimal::fromString("0.00000012").toString(), "1.2E-7");
  EXPECT_EQ(Decimal::fromString("1.5E+3").toString(), "1500");
  EXPECT_EQ(Decimal::fromString("1.5e-2").toString(), "0.015");
  EXPECT_EQ(Decimal::fromUnscaled(12345, 5, 2).toString(), "123.45");
  EXPECT_EQ(Decimal::fromUnscaled(-5, 3, 3).toString(), "-0.005");
  EXPECT_EQ(Decimal().toString(), "0");
  EXPECT_EQ(Decimal::fromString("99999999999999999999999999999999999999").toString(),
            "99999999999999999999999999999999999999");
}

TEST(DecimalTest, ParsingDerivesPrecisionAndScale) {
  Decimal value = Decimal::fromString("10.00");
  EXPECT_EQ(value.precision(), 4);
  EXPECT_EQ(value.scale(), 2);
  EXPECT_EQ(value.unscaledValue(), 1000);
  EXPECT_EQ(Decimal::fromString("0.05").precision(), 2);
  Decimal declared = Decimal::fromString("10.5", 12, 2);
  EXPECT_EQ(declared.toString(), "10.50");
  EXPECT_EQ(declared.precision(), 12);
}

TEST(DecimalTest, RescaleRoundsHalfUpAndDetectsOverflow) {
  EXPECT_EQ(Decimal::fromString("2.345").rescale(10, 2)->toString(), "2.35");
  EXPECT_EQ(Decimal::fromString("-2.345").rescale(10, 2)->toString(), "-2.35");
  EXPECT_EQ(Decimal::fromString("2.344").rescale(10, 2)->toString(), "2.34");
  EXPECT_EQ(Decimal::fromString("7").rescale(5, 3)->toString(), "7.000");
  EXPECT_FALSE(Decimal::fromString("123.45").rescale(4, 2).has_value());
  EXPECT_FALSE(Decimal::fromString("99.5").rescale(2, 0).has_value());
  EXPECT_DOUBLE_EQ(Decimal::fromString("10.25").toDouble(), 10.25);
}

TEST(DecimalTest, EqualityIsBigDecimalEquals) {
  EXPECT_EQ(Decimal::fromString("10.5"), Decimal::fromString("10.5", 20, 1));
  EXPECT_NE(Decimal::fromString("10.5"), Decimal::fromString("10.50"));
  EXPECT_EQ(Decimal::fromString("10.5").compareTo(Decimal::fromString("10.50")),
            std::strong_ordering::equal);
  EXPECT_EQ(Decimal::fromString("-1.5").compareTo(Decimal::fromString("1.25")),
            std::strong_ordering::less);
  EXPECT_EQ(Decimal::fromString("10.5").hash(), Decimal::fromString("10.5", 20, 1).hash());
}

TEST(DecimalTest, InvalidInputThrows) {
  try {
    Decimal::fromString("1.2.3");
    FAIL() << "expected an exception";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(), "Invalid decimal literal '1.2.3'.");
  }
  EXPECT_THROW(Decimal::fromString(""), ValidationException);
  EXPECT_THROW(Decimal::fromString("abc"), ValidationException);
  EXPECT_THROW(Decimal::fromString("999999999999999999999999999999999999999"), ValidationException);
  try {
    Decimal::fromString("123.45", 4, 2);
    FAIL() << "expected an exception";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(), "Decimal value 123.45 does not fit DECIMAL(4, 2).");
  }
  EXPECT_THROW(Decimal::fromUnscaled(123456, 5, 2), ValidationException);
  EXPECT_THROW(Decimal::fromUnscaled(1, 39, 0), ValidationException);
}

}  // namespace
}  // namespace eddy
