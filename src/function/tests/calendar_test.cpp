// Calendar arithmetic of the temporal functions: month arithmetic clamped at month ends (Flink's
// DateTimeUtils.addMonths / subtractMonths), EXTRACT fields, FLOOR/CEIL boundaries, before and
// after 1970 and across leap years.
#include "function/scalar/calendar.h"

#include <gtest/gtest.h>

namespace eddy::function::calendar {
namespace {

int64_t day(int64_t year, int month, int dayOfMonth) {
  return daysFromCivil(year, month, dayOfMonth);
}
int64_t millis(int64_t year, int month, int dayOfMonth, int hour = 0, int minute = 0,
               int second = 0) {
  return day(year, month, dayOfMonth) * kMillisPerDay +
         ((hour * 60 + minute) * 60 + second) * kMillisPerSecond;
}

TEST(CalendarTest, CivilDatesRoundTrip) {
  for (int64_t epochDay :
       {int64_t{-719528}, int64_t{-1}, int64_t{0}, int64_t{59}, int64_t{18628}, int64_t{2932896}}) {
    CivilDate date = civilFromDays(epochDay);
    EXPECT_EQ(daysFromCivil(date.year, date.month, date.day), epochDay);
  }
  CivilDate date = civilFromDays(-1);
  EXPECT_EQ(date.year, 1969);
  EXPECT_EQ(date.month, 12);
  EXPECT_EQ(date.day, 31);
  EXPECT_TRUE(isLeapYear(2000));
  EXPECT_FALSE(isLeapYear(1900));
  EXPECT_EQ(daysInMonth(2024, 2), 29);
  EXPECT_EQ(daysInMonth(2023, 2), 28);
}

TEST(CalendarTest, AddMonthsClampsToMonthEnd) {
  EXPECT_EQ(addMonthsToDate(day(2021, 1, 31), 1), day(2021, 2, 28));
  EXPECT_EQ(addMonthsToDate(day(2020, 1, 31), 1), day(2020, 2, 29));
  EXPECT_EQ(addMonthsToDate(day(2020, 2, 29), 12), day(2021, 2, 28));
  EXPECT_EQ(addMonthsToDate(day(2020, 2, 29), 48), day(2024, 2, 29));
  EXPECT_EQ(addMonthsToDate(day(2021, 3, 31), -1), day(2021, 2, 28));
  EXPECT_EQ(addMonthsToDate(day(2021, 1, 15), -13), day(2019, 12, 15));
  EXPECT_EQ(addMonthsToMillis(millis(1969, 12, 31, 23, 30), 2), millis(1970, 2, 28, 23, 30));
}

TEST(CalendarTest, SubtractMonthsCountsWholeMonths) {
  EXPECT_EQ(subtractMonthsOfDates(day(2021, 2, 28), day(2021, 1, 31)), 1);
  EXPECT_EQ(subtractMonthsOfDates(day(2021, 2, 27), day(2021, 1, 28)), 0);
  EXPECT_EQ(subtractMonthsOfDates(day(2020, 1, 1), day(2021, 1, 1)), -12);
  // A month is complete only once the time of day is reached.
  EXPECT_EQ(subtractMonthsOfMillis(millis(2021, 2, 15, 9), millis(2021, 1, 15, 10)), 0);
  EXPECT_EQ(subtractMonthsOfMillis(millis(2021, 2, 15, 10), millis(2021, 1, 15, 10)), 1);
}

TEST(CalendarTest, ExtractFields) {
  int64_t saturday = day(2021, 8, 21);
  EXPECT_EQ(extractFromDate(TimeUnit::kDow, saturday), 7);
  EXPECT_EQ(extractFromDate(TimeUnit::kIsoDow, saturday), 6);
  EXPECT_EQ(extractFromDate(TimeUnit::kDoy, day(2020, 12, 31)), 366);
  EXPECT_EQ(extractFromDate(TimeUnit::kWeek, day(2021, 1, 1)), 53);
  EXPECT_EQ(extractFromDate(TimeUnit::kIsoYear, day(2021, 1, 1)), 2020);
  EXPECT_EQ(extractFromDate(TimeUnit::kWeek, day(2019, 12, 30)), 1);
  EXPECT_EQ(extractFromDate(TimeUnit::kIsoYear, day(2019, 12, 30)), 2020);
  EXPECT_EQ(extractFromDate(TimeUnit::kQuarter, day(2021, 8, 21)), 3);
  EXPECT_EQ(extractFromDate(TimeUnit::kDecade, day(2021, 8, 21)), 202);
  EXPECT_EQ(extractFromDate(TimeUnit::kCentury, day(2000, 1, 1)), 20);
  EXPECT_EQ(extractFromDate(TimeUnit::kCentury, day(2001, 1, 1)), 21);
  EXPECT_EQ(extractFromDate(TimeUnit::kMillennium, day(2001, 1, 1)), 3);
  EXPECT_EQ(extractFromDate(TimeUnit::kEpoch, 1), 86400);
  // Before 1970 the time of day is still within the day.
  int64_t beforeEpoch = millis(1969, 12, 31, 23, 59, 58) + 250;
  EXPECT_EQ(extractFromTimestamp(TimeUnit::kYear, beforeEpoch, 0), 1969);
  EXPECT_EQ(extractFromTimestamp(TimeUnit::kHour, beforeEpoch, 0), 23);
  EXPECT_EQ(extractFromTimestamp(TimeUnit::kSecond, beforeEpoch, 0), 58);
  EXPECT_EQ(extractFromTimestamp(TimeUnit::kMillisecond, beforeEpoch, 0), 250);
  EXPECT_EQ(extractFromTimestamp(TimeUnit::kMicrosecond, beforeEpoch, 123456), 250123);
  EXPECT_EQ(extractFromTimestamp(TimeUnit::kNanosecond, beforeEpoch, 123456), 250123456);
  EXPECT_EQ(extractFromTime(TimeUnit::kMinute, (13 * 3600 + 5 * 60 + 6) * kNanosPerSecond), 5);
}

TEST(CalendarTest, FloorAndCeil) {
  int64_t value = millis(2021, 8, 21, 13, 5, 6);
  EXPECT_EQ(floorMillis(TimeUnit::kHour, value), millis(2021, 8, 21, 13));
  EXPECT_EQ(ceilMillis(TimeUnit::kHour, value), millis(2021, 8, 21, 14));
  EXPECT_EQ(floorMillis(TimeUnit::kWeek, value), millis(2021, 8, 15));  // Sunday
  EXPECT_EQ(ceilMillis(TimeUnit::kWeek, value), millis(2021, 8, 22));
  EXPECT_EQ(floorMillis(TimeUnit::kQuarter, value), millis(2021, 7, 1));
  EXPECT_EQ(ceilMillis(TimeUnit::kQuarter, value), millis(2021, 10, 1));
  EXPECT_EQ(ceilMillis(TimeUnit::kMonth, millis(2021, 3, 1, 10)), millis(2021, 4, 1));
  EXPECT_EQ(ceilMillis(TimeUnit::kYear, millis(2021, 1, 1)), millis(2021, 1, 1));
  EXPECT_EQ(floorMillis(TimeUnit::kDay, millis(1969, 12, 31, 12)), millis(1969, 12, 31));
  EXPECT_EQ(floorDate(TimeUnit::kDecade, day(2021, 8, 21)), day(2020, 1, 1));
  EXPECT_EQ(floorDate(TimeUnit::kCentury, day(2000, 6, 1)), day(1901, 1, 1));
  EXPECT_EQ(ceilDate(TimeUnit::kMonth, day(2021, 2, 1)), day(2021, 2, 1));
  EXPECT_EQ(ceilDate(TimeUnit::kMonth, day(2021, 2, 2)), day(2021, 3, 1));
}

}  // namespace
}  // namespace eddy::function::calendar
