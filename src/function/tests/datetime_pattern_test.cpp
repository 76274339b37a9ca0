// Java date-time patterns in the two dialects Flink uses: DateTimeFormatter (strict, SMART
// resolution) and SimpleDateFormat (lenient), and the messages of invalid patterns.
#include "function/scalar/datetime_pattern.h"

#include <gtest/gtest.h>

#include "eddy/exceptions.h"
#include "function/scalar/calendar.h"
#include "function/scalar/temporal.h"

namespace eddy::function {
namespace {

constexpr auto kJavaTime = PatternDialect::kDateTimeFormatter;
constexpr auto kSimple = PatternDialect::kSimpleDateFormat;

std::string format(std::string_view pattern, PatternDialect dialect, int64_t millis,
                   int32_t nanos = 0) {
  std::string out;
  DateTimePattern::compile(pattern, dialect).format(fieldsOfTimestamp(millis, nanos), out);
  return out;
}

int64_t millisOf(int64_t year, int month, int day, int hour = 0, int minute = 0, int second = 0) {
  return calendar::daysFromCivil(year, month, day) * calendar::kMillisPerDay +
         ((hour * 60 + minute) * 60 + second) * 1000;
}

std::optional<int64_t> parse(std::string_view pattern, PatternDialect dialect,
                             std::string_view text) {
  auto parsed = DateTimePattern::compile(pattern, dialect).parse(text);
  if (!parsed) return std::nullopt;
  return parsed->millisecond;
}

TEST(DateTimePatternTest, FormatsLikeDateTimeFormatter) {
  int64_t value = millisOf(2021, 8, 21, 13, 5, 6) + 789;
  EXPECT_EQ(format("yyyy-MM-dd HH:mm:ss.SSS", kJavaTime, value, 123000), "2021-08-21 13:05:06.789");
  EXPECT_EQ(format("SSSSSS", kJavaTime, value, 123000), "789123");
  EXPECT_EQ(format("EEE, d MMM yy h:mm a", kJavaTime, value), "Sat, 21 Aug 21 1:05 PM");
  EXPECT_EQ(format("EEEE MMMM QQQ D 'o''clock'", kJavaTime, value),
            "Saturday August Q3 233 o'clock");
  EXPECT_EQ(format("y G", kJavaTime, millisOf(-43, 3, 15)), "44 BC");
  EXPECT_EQ(format("yyyy[ HH]", kJavaTime, value), "2021 13");
}

TEST(DateTimePatternTest, FormatsLikeSimpleDateFormat) {
  int64_t value = millisOf(2021, 8, 21, 13, 5, 6) + 7;
  EXPECT_EQ(format("yyyy-MM-dd HH:mm:ss", kSimple, value), "2021-08-21 13:05:06");
  EXPECT_EQ(format("S SSS", kSimple, value), "7 007");
  EXPECT_EQ(format("EEEE u w z Z X", kSimple, value), "Saturday 6 34 UTC +0000 Z");
  EXPECT_EQ(format("yy MMM", kSimple, value), "21 Aug");
}

TEST(DateTimePatternTest, ParsesStrictlyWithDateTimeFormatter) {
  EXPECT_EQ(parse("yyyy-MM-dd HH:mm:ss", kJavaTime, "2021-08-21 13:05:06"),
            millisOf(2021, 8, 21, 13, 5, 6));
  EXPECT_EQ(parse("yyyyMMdd", kJavaTime, "20210821"), millisOf(2021, 8, 21));
  // SMART resolution clamps the day to the month's end, but not beyond 31.
  EXPECT_EQ(parse("yyyy-MM-dd", kJavaTime, "2021-02-30"), millisOf(2021, 2, 28));
  EXPECT_EQ(parse("yyyy-MM-dd", kJavaTime, "2021-02-32"), std::nullopt);
  EXPECT_EQ(parse("yyyy-MM-dd", kJavaTime, "2021-2-3"), std::nullopt);
  EXPECT_EQ(parse("yyyy-MM-dd", kJavaTime, "2021-08-21 trailing"), std::nullopt);
  EXPECT_EQ(parse("dd MMM yyyy hh:mm a", kJavaTime, "21 Aug 2021 01:05 PM"),
            millisOf(2021, 8, 21, 13, 5));
  EXPECT_EQ(parse("HH:mm", kJavaTime, "13:05"), millisOf(1970, 1, 1, 13, 5));
}

TEST(DateTimePatternTest, ParsesLenientlyWithSimpleDateFormat) {
  EXPECT_EQ(parse("yyyy-MM-dd", kSimple, "2021-8-1"), millisOf(2021, 8, 1));
  EXPECT_EQ(parse("yyyy-MM-dd", kSimple, "2021-02-30"), millisOf(2021, 3, 2));
  EXPECT_EQ(parse("yyyy-MM-dd", kSimple, "2021-13-01 and more"), millisOf(2022, 1, 1));
  EXPECT_EQ(parse("yyyyMMdd", kSimple, "20210821"), millisOf(2021, 8, 21));
  EXPECT_EQ(parse("yyyy-MM-dd HH:mm:ss Z", kSimple, "2021-08-21 13:00:00 +0200"),
            millisOf(2021, 8, 21, 11));
  EXPECT_EQ(parse("yyyy-MM-dd", kSimple, "x2021-08-21"), std::nullopt);
}

TEST(DateTimePatternTest, InvalidPatternsFailWithJavaMessages) {
  auto message = [](std::string_view pattern, PatternDialect dialect) {
    try {
      DateTimePattern::compile(pattern, dialect);
    } catch (const TableException& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("yyyy-bb", kJavaTime), "Unknown pattern letter: b");
  EXPECT_EQ(message("HHH", kJavaTime), "Too many pattern letters: H");
  EXPECT_EQ(message("yyyy'", kJavaTime), "Pattern ends with an incomplete string literal: yyyy'");
  EXPECT_EQ(message("yyyy-bb", kSimple), "Illegal pattern character 'b'");
}

TEST(IntervalLiteralTest, ValuesAndCalciteMessages) {
  auto [minutes, minutesType] =
      intervalLiteral("5", false, IntervalField::kMinute, std::nullopt, -1);
  EXPECT_EQ(minutes.toString(), "PT5M");
  EXPECT_EQ(minutesType->asSummaryString(), "INTERVAL SECOND(3) NOT NULL");
  auto [days, daysType] =
      intervalLiteral("-1 02:03:04.5", false, IntervalField::kDay, IntervalField::kSecond, -1);
  EXPECT_EQ(days.toString(), "PT-26H-3M-4.5S");
  auto [months, monthsType] =
      intervalLiteral("1-2", true, IntervalField::kYear, IntervalField::kMonth, -1);
  EXPECT_EQ(months.toString(), "P-14M");  // months, as Flink holds them
  EXPECT_EQ(monthsType->asSummaryString(), "INTERVAL MONTH NOT NULL");
  auto message = [](std::string_view text, IntervalField start, std::optional<IntervalField> end,
                    int precision) {
    try {
      intervalLiteral(text, false, start, end, precision);
    } catch (const ValidationException& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("100", IntervalField::kDay, std::nullopt, -1),
            "Interval field value 100 exceeds precision of DAY(2) field");
  EXPECT_EQ(message("100", IntervalField::kDay, std::nullopt, 3), "no error");
  EXPECT_EQ(message("1:60", IntervalField::kHour, IntervalField::kMinute, -1),
            "Illegal interval literal format '1:60' for INTERVAL HOUR TO MINUTE");
  EXPECT_EQ(message("abc", IntervalField::kSecond, std::nullopt, -1),
            "Illegal interval literal format 'abc' for INTERVAL SECOND");
}

}  // namespace
}  // namespace eddy::function
