// Date/time/interval values print exactly as java.time prints them and parse ISO text.
#include "eddy/types/temporal.h"

#include <gtest/gtest.h>

#include "eddy/exceptions.h"

namespace eddy {
namespace {

TEST(LocalDateTimeTest, PrintsAsJava) {
  EXPECT_EQ(LocalDateTime::of(2021, 8, 21, 13, 0).toString(), "2021-08-21T13:00");
  EXPECT_EQ(LocalDateTime::of(2021, 8, 21, 13, 0, 5).toString(), "2021-08-21T13:00:05");
  EXPECT_EQ(LocalDateTime::of(2021, 8, 21, 13, 0, 0, 500'000'000).toString(),
            "2021-08-21T13:00:00.500");
  EXPECT_EQ(LocalDateTime::of(2021, 8, 21, 13, 0, 0, 123'456'000).toString(),
            "2021-08-21T13:00:00.123456");
  EXPECT_EQ(LocalDateTime::of(2021, 8, 21, 13, 0, 1, 123'456'789).toString(),
            "2021-08-21T13:00:01.123456789");
  EXPECT_EQ(LocalDateTime::of(2024, 1, 1, 0, 0, 0, 1).toString(), "2024-01-01T00:00:00.000000001");
  EXPECT_EQ(LocalDateTime::ofEpochMillis(0).toString(), "1970-01-01T00:00");
  EXPECT_EQ(LocalDateTime::ofEpochMillis(-1).toString(), "1969-12-31T23:59:59.999");
  EXPECT_EQ(LocalDateTime::of(5, 1, 1, 0, 0).toString(), "0005-01-01T00:00");
}

TEST(LocalDateTimeTest, KeepsNanosecondsAndParses) {
  LocalDateTime value = LocalDateTime::of(2021, 8, 21, 13, 0, 0, 123'456'789);
  EXPECT_EQ(value.getNanoOfMillisecond(), 456'789);
  EXPECT_EQ(value.toLocalTime().getNano(), 123'456'789);
  EXPECT_EQ(LocalDateTime::parse("2021-08-21T13:00:00.123456789"), value);
  EXPECT_EQ(LocalDateTime::parse("2021-08-21 13:00"), LocalDateTime::of(2021, 8, 21, 13, 0));
  EXPECT_EQ(LocalDateTime::parse("2024-02-29T23:59:59.5").toString(), "2024-02-29T23:59:59.500");
  EXPECT_LT(LocalDateTime::of(2021, 1, 1, 0, 0), LocalDateTime::of(2021, 1, 1, 0, 0, 0, 1));
  try {
    LocalDateTime::parse("2021-08-21X13:00");
    FAIL() << "expected an exception";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Text '2021-08-21X13:00' could not be parsed as a timestamp "
                 "(yyyy-MM-ddTHH:mm[:ss[.SSSSSSSSS]]).");
  }
}

TEST(LocalDateTest, PrintsParsesAndValidates) {
  EXPECT_EQ(LocalDate::of(2021, 8, 21).toString(), "2021-08-21");
  EXPECT_EQ(LocalDate::ofEpochDay(0).toString(), "1970-01-01");
  EXPECT_EQ(LocalDate::ofEpochDay(-1).toString(), "1969-12-31");
  EXPECT_EQ(LocalDate::ofEpochDay(18860).toString(), "2021-08-21");
  EXPECT_EQ(LocalDate::of(2021, 8, 21).toEpochDay(), 18860);
  EXPECT_EQ(LocalDate::of(12345, 1, 1).toString(), "+12345-01-01");
  EXPECT_EQ(LocalDate::parse("2020-02-29"), LocalDate::of(2020, 2, 29));
  EXPECT_EQ(LocalDate::parse("2020-02-29").getDayOfMonth(), 29);
  try {
    LocalDate::of(2021, 2, 29);
    FAIL() << "expected an exception";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(), "Invalid date: year 2021, month 2, day 29.");
  }
  try {
    LocalDate::parse("2021-13-01");
    FAIL() << "expected an exception";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(), "Text '2021-13-01' could not be parsed as a date (yyyy-MM-dd).");
  }
}

TEST(LocalTimeTest, PrintsAsJava) {
  EXPECT_EQ(LocalTime::of(13, 0).toString(), "13:00");
  EXPECT_EQ(LocalTime::of(9, 5, 7).toString(), "09:05:07");
  EXPECT_EQ(LocalTime::of(0, 0, 0, 1'000'000).toString(), "00:00:00.001");
  EXPECT_EQ(LocalTime::parse("23:59:59.999999").toString(), "23:59:59.999999");
  EXPECT_THROW(LocalTime::of(24, 0), ValidationException);
  EXPECT_THROW(LocalTime::parse("1:00"), ValidationException);
}

TEST(InstantTest, PrintsAsIsoInstant) {
  EXPECT_EQ(Instant::ofEpochMilli(0).toString(), "1970-01-01T00:00:00Z");
  EXPECT_EQ(Instant::parse("2021-08-21T13:00:00Z").toString(), "2021-08-21T13:00:00Z");
  EXPECT_EQ(Instant::parse("2021-08-21T13:00:00.123Z").toString(), "2021-08-21T13:00:00.123Z");
  EXPECT_EQ(Instant::ofEpochSecond(1, 500).toString(), "1970-01-01T00:00:01.000000500Z");
  EXPECT_EQ(Instant::ofEpochMilli(1'629'550'800'000).toString(), "2021-08-21T13:00:00Z");
  EXPECT_EQ(Instant::parse("2021-08-21T13:00:00Z").toEpochMilli(), 1'629'550'800'000);
  EXPECT_THROW(Instant::parse("2021-08-21T13:00:00"), ValidationException);
}

TEST(PeriodAndDurationTest, PrintAsJava) {
  EXPECT_EQ(Period::of(1, 2, 0).toString(), "P1Y2M");
  EXPECT_EQ(Period().toString(), "P0D");
  EXPECT_EQ(Period::ofDays(3).toString(), "P3D");
  EXPECT_EQ(Period::ofMonths(14).normalized().toString(), "P1Y2M");
  EXPECT_EQ(Period::ofMonths(-14).normalized().toString(), "P-1Y-2M");
  EXPECT_EQ(Duration::ofMinutes(90).toString(), "PT1H30M");
  EXPECT_EQ(Duration().toString(), "PT0S");
  EXPECT_EQ(Duration::ofMillis(500).toString(), "PT0.5S");
  EXPECT_EQ(Duration::ofMillis(-500).toString(), "PT-0.5S");
  EXPECT_EQ(Duration::ofSeconds(-90).toString(), "PT-1M-30S");
  EXPECT_EQ(Duration::ofDays(1).toString(), "PT24H");
  EXPECT_EQ(Duration::ofSeconds(3661, 1000).toString(), "PT1H1M1.000001S");
  EXPECT_EQ(Duration::ofMillis(-1500).toMillis(), -1500);
}

}  // namespace
}  // namespace eddy
