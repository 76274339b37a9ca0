// The text forms of values shared by csv and json: what parses (Java's parsers' forms), what
// does not, rounding and truncation, and the exact written forms (java.time's ISO formatters,
// BigDecimal.toString / toPlainString, base64).
#include "formats/text_value_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "formats/format_options.h"

namespace eddy::formats {
namespace {

TEST(TextValueCodecTest, Integers) {
  int64_t value = 0;
  EXPECT_TRUE(parseInt64Text(" 42 ", -100, 100, value));
  EXPECT_EQ(value, 42);
  EXPECT_TRUE(parseInt64Text("+7", -100, 100, value));
  EXPECT_EQ(value, 7);
  EXPECT_TRUE(parseInt64Text("-100", -100, 100, value));
  EXPECT_EQ(value, -100);
  EXPECT_FALSE(parseInt64Text("101", -100, 100, value));
  EXPECT_FALSE(parseInt64Text("abc", -100, 100, value));
  EXPECT_FALSE(parseInt64Text("1.0", -100, 100, value));
  EXPECT_FALSE(parseInt64Text("", -100, 100, value));
  EXPECT_FALSE(parseInt64Text("+-1", -100, 100, value));
  EXPECT_FALSE(parseInt64Text("99999999999999999999", std::numeric_limits<int64_t>::min(),
                              std::numeric_limits<int64_t>::max(), value));
}

TEST(TextValueCodecTest, BooleansAnyCase) {
  bool value = false;
  EXPECT_TRUE(parseBooleanText(" TRUE ", value));
  EXPECT_TRUE(value);
  EXPECT_TRUE(parseBooleanText("False", value));
  EXPECT_FALSE(value);
  EXPECT_FALSE(parseBooleanText("yes", value));
  EXPECT_FALSE(parseBooleanText("1", value));
}

TEST(TextValueCodecTest, FloatingPointInJavasForms) {
  double value = 0;
  EXPECT_TRUE(parseDoubleText("1.5", value));
  EXPECT_EQ(value, 1.5);
  EXPECT_TRUE(parseDoubleText("-2e10", value));
  EXPECT_EQ(value, -2e10);
  EXPECT_TRUE(parseDoubleText(".5", value));
  EXPECT_EQ(value, 0.5);
  EXPECT_TRUE(parseDoubleText("5.", value));
  EXPECT_EQ(value, 5.0);
  EXPECT_TRUE(parseDoubleText(" 1.5d ", value));
  EXPECT_EQ(value, 1.5);
  EXPECT_TRUE(parseDoubleText("NaN", value));
  EXPECT_TRUE(std::isnan(value));
  EXPECT_TRUE(parseDoubleText("-Infinity", value));
  EXPECT_EQ(value, -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(parseDoubleText("1e400", value));
  EXPECT_EQ(value, std::numeric_limits<double>::infinity());
  EXPECT_FALSE(parseDoubleText("inf", value));
  EXPECT_FALSE(parseDoubleText("nan", value));
  EXPECT_FALSE(parseDoubleText("abc", value));
  EXPECT_FALSE(parseDoubleText("1.5x", value));
  EXPECT_FALSE(parseDoubleText("", value));
  float single = 0;
  EXPECT_TRUE(parseFloatText("0.1", single));
  EXPECT_EQ(single, 0.1f);
}

TEST(TextValueCodecTest, DecimalsRoundHalfUpAndCheckPrecision) {
  __int128 unscaled = 0;
  EXPECT_EQ(parseDecimalText("12.345", 5, 2, unscaled), DecimalParseResult::kOk);
  EXPECT_EQ(unscaled, 1235);
  EXPECT_EQ(parseDecimalText("-12.345", 5, 2, unscaled), DecimalParseResult::kOk);
  EXPECT_EQ(unscaled, -1235);
  EXPECT_EQ(parseDecimalText("1E+2", 5, 2, unscaled), DecimalParseResult::kOk);
  EXPECT_EQ(unscaled, 10000);
  EXPECT_EQ(parseDecimalText(".5", 5, 2, unscaled), DecimalParseResult::kOk);
  EXPECT_EQ(unscaled, 50);
  EXPECT_EQ(parseDecimalText("0.004", 5, 2, unscaled), DecimalParseResult::kOk);
  EXPECT_EQ(unscaled, 0);
  EXPECT_EQ(parseDecimalText("0.005", 5, 2, unscaled), DecimalParseResult::kOk);
  EXPECT_EQ(unscaled, 1);
  EXPECT_EQ(parseDecimalText("000123.4500", 5, 2, unscaled), DecimalParseResult::kOk);
  EXPECT_EQ(unscaled, 12345);
  EXPECT_EQ(parseDecimalText("999.994", 5, 2, unscaled), DecimalParseResult::kOk);
  EXPECT_EQ(unscaled, 99999);
  EXPECT_EQ(parseDecimalText("999.995", 5, 2, unscaled), DecimalParseResult::kOutOfRange);
  EXPECT_EQ(parseDecimalText("1000", 5, 2, unscaled), DecimalParseResult::kOutOfRange);
  EXPECT_EQ(parseDecimalText("1e-400", 5, 2, unscaled), DecimalParseResult::kOk);
  EXPECT_EQ(unscaled, 0);
  EXPECT_EQ(parseDecimalText("12345678901234567890.123456789012345678", 38, 18, unscaled),
            DecimalParseResult::kOk);
  EXPECT_EQ(types::int128ToString(unscaled), "12345678901234567890123456789012345678");
  EXPECT_EQ(parseDecimalText("abc", 5, 2, unscaled), DecimalParseResult::kMalformed);
  EXPECT_EQ(parseDecimalText("1e", 5, 2, unscaled), DecimalParseResult::kMalformed);
  EXPECT_EQ(parseDecimalText("1.2.3", 5, 2, unscaled), DecimalParseResult::kMalformed);
  EXPECT_EQ(parseDecimalText("", 5, 2, unscaled), DecimalParseResult::kMalformed);
}

TEST(TextValueCodecTest, DatesTimesAndTimestamps) {
  int32_t day = 0;
  EXPECT_TRUE(parseDateText("2020-12-30", day));
  std::string text;
  appendDateText(day, text);
  EXPECT_EQ(text, "2020-12-30");
  EXPECT_TRUE(parseDateText("2020-1-5", day));  // java.sql.Date.valueOf's form
  text.clear();
  appendDateText(day, text);
  EXPECT_EQ(text, "2020-01-05");
  EXPECT_FALSE(parseDateText("2020-02-30", day));
  EXPECT_FALSE(parseDateText("2020/01/01", day));
  EXPECT_FALSE(parseDateText("20-01-01", day));
  EXPECT_FALSE(parseDateText(" 2020-01-01", day));
  text.clear();
  appendDateText(2932897, text);  // 10000-01-01
  EXPECT_EQ(text, "+10000-01-01");

  int64_t nanoOfDay = 0;
  EXPECT_TRUE(parseTimeText("12:13:14.123456789", 3, nanoOfDay));
  text.clear();
  appendTimeText(nanoOfDay, text);
  EXPECT_EQ(text, "12:13:14.123");
  EXPECT_TRUE(parseTimeText("12:13", 0, nanoOfDay));
  text.clear();
  appendTimeText(nanoOfDay, text);
  EXPECT_EQ(text, "12:13:00");
  EXPECT_FALSE(parseTimeText("24:00:00", 0, nanoOfDay));
  EXPECT_FALSE(parseTimeText("12:60", 0, nanoOfDay));

  int64_t millis = 0;
  int32_t nanos = 0;
  EXPECT_TRUE(parseTimestampText("2020-12-30 12:13:14.5", 3, false, millis, nanos));
  text.clear();
  appendTimestampText(millis, nanos, ' ', text);
  EXPECT_EQ(text, "2020-12-30 12:13:14.5");
  EXPECT_TRUE(parseTimestampText("2020-12-30T12:13:14.123456789", 9, false, millis, nanos));
  text.clear();
  appendTimestampText(millis, nanos, 'T', text);
  EXPECT_EQ(text, "2020-12-30T12:13:14.123456789");
  EXPECT_TRUE(parseTimestampText("2020-12-30T12:13:14.123456789", 6, false, millis, nanos));
  EXPECT_EQ(nanos, 456000);
  EXPECT_FALSE(parseTimestampText("2020-12-30 12:13:14Z", 3, false, millis, nanos));
  EXPECT_TRUE(parseTimestampText("2020-12-30 12:13:14Z", 3, true, millis, nanos));
  EXPECT_TRUE(parseTimestampText("1969-12-31 23:59:59.999", 3, false, millis, nanos));
  EXPECT_EQ(millis, -1);
  text.clear();
  appendTimestampText(millis, nanos, ' ', text);
  EXPECT_EQ(text, "1969-12-31 23:59:59.999");
  EXPECT_FALSE(parseTimestampText("2020-12-30", 3, false, millis, nanos));
  EXPECT_FALSE(parseTimestampText("2020-12-30 12", 3, false, millis, nanos));
}

TEST(TextValueCodecTest, DecimalNotations) {
  auto written = [](__int128 unscaled, int scale, bool plain, bool strip) {
    std::string out;
    appendDecimalText(unscaled, scale, DecimalNotation{plain, strip}, out);
    return out;
  };
  EXPECT_EQ(written(1235, 2, false, false), "12.35");
  EXPECT_EQ(written(-1235, 2, false, false), "-12.35");
  EXPECT_EQ(written(1250, 2, false, false), "12.50");
  EXPECT_EQ(written(1250, 2, false, true), "12.5");
  EXPECT_EQ(written(27, 9, false, false), "2.7E-8");
  EXPECT_EQ(written(27, 9, true, false), "0.000000027");
  EXPECT_EQ(written(10000000, 2, false, true), "1E+5");
  EXPECT_EQ(written(10000000, 2, true, true), "100000");
  EXPECT_EQ(written(0, 2, false, false), "0.00");
  EXPECT_EQ(written(0, 2, false, true), "0");
  EXPECT_EQ(written(5, 0, false, false), "5");
}

TEST(TextValueCodecTest, Base64) {
  std::string text;
  appendBase64("abc", text);
  appendBase64("ab", text);
  appendBase64("", text);
  appendBase64(std::string("\x00\xff", 2), text);
  EXPECT_EQ(text, "YWJjYWI=AP8=");
  std::string bytes;
  EXPECT_TRUE(decodeBase64("YWJj", bytes));
  EXPECT_EQ(bytes, "abc");
  EXPECT_TRUE(decodeBase64("YWI=", bytes));
  EXPECT_EQ(bytes, "ab");
  EXPECT_TRUE(decodeBase64("YWI", bytes));  // padding optional
  EXPECT_EQ(bytes, "ab");
  EXPECT_FALSE(decodeBase64("a$", bytes));
  EXPECT_FALSE(decodeBase64("Y", bytes));
}

TEST(TextValueCodecTest, JavaUnescapeForOptionValues) {
  EXPECT_EQ(unescapeJava("\\t"), "\t");
  EXPECT_EQ(unescapeJava("\\u0001"), "\x01");
  EXPECT_EQ(unescapeJava("\\\\"), "\\");
  EXPECT_EQ(unescapeJava("|"), "|");
  EXPECT_EQ(unescapeJava("\\0"), std::string(1, '\0'));
  EXPECT_EQ(unescapeJava("\\q"), "\\q");
}

}  // namespace
}  // namespace eddy::formats
