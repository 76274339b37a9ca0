// Date, time and interval values, printed exactly as Java's java.time classes print them
// (which is what Flink prints for DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ and INTERVAL values):
//   LocalDate      2021-08-21                 (days since 1970-01-01)
//   LocalTime      13:00, 13:00:05, 13:00:00.500   (nanoseconds of the day)
//   LocalDateTime  2021-08-21T13:00, 2021-08-21T13:00:00.123456
//   Instant        2021-08-21T13:00:00Z        (ISO_INSTANT: seconds always shown)
//   Period         P1Y2M, P3D, P0D
//   Duration       PT1H30M, PT0.5S, PT0S
// LocalDateTime and Instant use Flink's TimestampData representation: epoch milliseconds plus
// nanoseconds within the millisecond (0..999999), so nanosecond precision over the whole
// range of years. The calendar is the proleptic Gregorian one, as in java.time.
// All are plain value types; construct them with the static `of...`/`parse` functions, which
// throw ValidationException on invalid fields or text.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace eddy {

/// A date without time zone (DATE).
class LocalDate {
 public:
  LocalDate() = default;
  static LocalDate of(int year, int month, int dayOfMonth);
  static LocalDate ofEpochDay(int64_t epochDay);
  /// Parses "2021-08-21".
  static LocalDate parse(std::string_view text);

  int64_t toEpochDay() const { return epochDay_; }
  int getYear() const;
  int getMonthValue() const;
  int getDayOfMonth() const;
  std::string toString() const;
  auto operator<=>(const LocalDate&) const = default;

 private:
  int32_t epochDay_ = 0;
};

/// A time of day without time zone (TIME), nanosecond precision.
class LocalTime {
 public:
  LocalTime() = default;
  static LocalTime of(int hour, int minute, int second = 0, int nanoOfSecond = 0);
  static LocalTime ofNanoOfDay(int64_t nanoOfDay);
  /// Parses "13:00", "13:00:05", "13:00:05.123".
  static LocalTime parse(std::string_view text);

  int64_t toNanoOfDay() const { return nanoOfDay_; }
  int getHour() const { return static_cast<int>(nanoOfDay_ / 3600'000'000'000LL); }
  int getMinute() const { return static_cast<int>(nanoOfDay_ / 60'000'000'000LL % 60); }
  int getSecond() const { return static_cast<int>(nanoOfDay_ / 1'000'000'000LL % 60); }
  int getNano() const { return static_cast<int>(nanoOfDay_ % 1'000'000'000LL); }
  std::string toString() const;
  auto operator<=>(const LocalTime&) const = default;

 private:
  int64_t nanoOfDay_ = 0;
};

/// A date-time without time zone (TIMESTAMP(p)).
class LocalDateTime {
 public:
  LocalDateTime() = default;
  static LocalDateTime of(int year, int month, int dayOfMonth, int hour, int minute, int second = 0,
                          int nanoOfSecond = 0);
  static LocalDateTime of(LocalDate date, LocalTime time);
  /// From epoch milliseconds and nanoseconds within the millisecond (0..999999).
  static LocalDateTime ofEpochMillis(int64_t millisecond, int32_t nanoOfMillisecond = 0);
  /// Parses "2021-08-21T13:00[:ss[.fffffffff]]"; a space instead of 'T' is accepted too.
  static LocalDateTime parse(std::string_view text);

  int64_t getMillisecond() const { return millisecond_; }
  int32_t getNanoOfMillisecond() const { return nanoOfMillisecond_; }
  LocalDate toLocalDate() const;
  LocalTime toLocalTime() const;
  std::string toString() const;
  auto operator<=>(const LocalDateTime&) const = default;

 private:
  int64_t millisecond_ = 0;
  int32_t nanoOfMillisecond_ = 0;
};

/// A point on the UTC time line (TIMESTAMP_LTZ(p)).
class Instant {
 public:
  Instant() = default;
  static Instant ofEpochMilli(int64_t millisecond, int32_t nanoOfMillisecond = 0);
  static Instant ofEpochSecond(int64_t second, int64_t nanoAdjustment = 0);
  /// Parses "2021-08-21T13:00:00Z" (fraction optional).
  static Instant parse(std::string_view text);

  int64_t toEpochMilli() const { return millisecond_; }
  int32_t getNanoOfMillisecond() const { return nanoOfMillisecond_; }
  /// The same instant as a UTC wall-clock date-time.
  LocalDateTime toUtcDateTime() const {
    return LocalDateTime::ofEpochMillis(millisecond_, nanoOfMillisecond_);
  }
  std::string toString() const;
  auto operator<=>(const Instant&) const = default;

 private:
  int64_t millisecond_ = 0;
  int32_t nanoOfMillisecond_ = 0;
};

/// A date-based amount (INTERVAL YEAR TO MONTH values): years, months and days.
class Period {
 public:
  Period() = default;
  static Period of(int years, int months, int days) { return Period(years, months, days); }
  static Period ofYears(int years) { return Period(years, 0, 0); }
  static Period ofMonths(int months) { return Period(0, months, 0); }
  static Period ofDays(int days) { return Period(0, 0, days); }

  int getYears() const { return years_; }
  int getMonths() const { return months_; }
  int getDays() const { return days_; }
  int64_t toTotalMonths() const { return int64_t{years_} * 12 + months_; }
  /// Years and months folded so that |months| < 12 (days unchanged), as Period.normalized().
  Period normalized() const;
  std::string toString() const;
  auto operator<=>(const Period&) const = default;

 private:
  Period(int years, int months, int days) : years_(years), months_(months), days_(days) {}
  int32_t years_ = 0;
  int32_t months_ = 0;
  int32_t days_ = 0;
};

/// A time-based amount (INTERVAL DAY TO SECOND values): seconds and nanoseconds (0..999999999).
class Duration {
 public:
  Duration() = default;
  static Duration ofSeconds(int64_t seconds, int64_t nanoAdjustment = 0);
  static Duration ofMillis(int64_t millis);
  static Duration ofNanos(int64_t nanos);
  static Duration ofMinutes(int64_t minutes) { return ofSeconds(minutes * 60); }
  static Duration ofHours(int64_t hours) { return ofSeconds(hours * 3600); }
  static Duration ofDays(int64_t days) { return ofSeconds(days * 86400); }

  int64_t getSeconds() const { return seconds_; }
  int32_t getNano() const { return nanos_; }
  /// Milliseconds, truncated toward negative infinity like Flink's internal representation.
  int64_t toMillis() const { return seconds_ * 1000 + nanos_ / 1'000'000; }
  std::string toString() const;
  auto operator<=>(const Duration&) const = default;

 private:
  int64_t seconds_ = 0;
  int32_t nanos_ = 0;
};

namespace types {
/// A proleptic Gregorian date.
struct CivilDate {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};
/// Days since 1970-01-01 of a proleptic Gregorian date (no validation), and back (Howard
/// Hinnant's days_from_civil / civil_from_days).
int64_t daysFromCivil(int64_t year, int month, int day);
CivilDate civilFromDays(int64_t epochDay);
/// Whether `year` of the proleptic Gregorian calendar has 366 days.
bool isLeapYear(int64_t year);
/// The days of `month` (1..12) of `year`: 28 to 31.
int daysInMonth(int64_t year, int month);
/// Floor division and modulo (results with the divisor's sign).
inline int64_t floorDivide(int64_t value, int64_t divisor) {
  int64_t quotient = value / divisor;
  return (value % divisor != 0 && ((value < 0) != (divisor < 0))) ? quotient - 1 : quotient;
}
inline int64_t floorModulo(int64_t value, int64_t divisor) {
  return value - floorDivide(value, divisor) * divisor;
}
}  // namespace types

}  // namespace eddy
