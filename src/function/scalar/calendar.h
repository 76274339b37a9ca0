// Calendar arithmetic on Flink's internal temporal representations, shared by the temporal
// functions: DATE as days since 1970-01-01, TIME as nanoseconds of the day (eddy's layout),
// TIMESTAMP / TIMESTAMP_LTZ as epoch milliseconds plus nanoseconds of the millisecond, and
// intervals as months (YEAR TO MONTH) or milliseconds (DAY TO SECOND). The calendar is the
// proleptic Gregorian one for every year, with floor division everywhere (Flink's
// DateTimeUtils truncates toward zero in places, which differs only before 1970; see
// docs/functions.md). Everything here is zoneless: the temporal functions convert TIMESTAMP_LTZ
// instants to wall-clock times of the session zone (common/session_time_zone.h) first.
// Pure functions; any thread. Internal to src/function.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "eddy/types/temporal.h"

namespace eddy::function::calendar {

constexpr int64_t kMillisPerSecond = 1000;
constexpr int64_t kMillisPerMinute = 60'000;
constexpr int64_t kMillisPerHour = 3'600'000;
constexpr int64_t kMillisPerDay = 86'400'000;
constexpr int64_t kNanosPerMilli = 1'000'000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kNanosPerDay = kMillisPerDay * kNanosPerMilli;

// Floor division and modulo, and proleptic Gregorian dates (include/eddy/types/temporal.h).
using types::CivilDate;
using types::civilFromDays;
using types::daysFromCivil;
using types::floorDivide;
using types::daysInMonth;
using types::floorModulo;
using types::isLeapYear;

/// Flink's DateTimeUtils.addMonths: the same day of the month `months` later, clamped to the
/// month's last day (2021-01-31 + 1 month = 2021-02-28).
int64_t addMonthsToDate(int64_t epochDay, int64_t months);
/// The same for epoch milliseconds (the time of day is kept).
int64_t addMonthsToMillis(int64_t millis, int64_t months);
/// Flink's DateTimeUtils.subtractMonths: whole months from date1 to date0 (negative when
/// date0 is earlier); for timestamps a month is complete only once the time of day is reached.
int64_t subtractMonthsOfDates(int64_t date0, int64_t date1);
int64_t subtractMonthsOfMillis(int64_t millis0, int64_t millis1);

/// The time units of EXTRACT, FLOOR/CEIL .. TO, TIMESTAMPADD and TIMESTAMPDIFF (Calcite's
/// TimeUnit), by the names the parser gives them.
enum class TimeUnit {
  kMillennium,
  kCentury,
  kDecade,
  kYear,
  kQuarter,
  kMonth,
  kWeek,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kMillisecond,
  kMicrosecond,
  kNanosecond,
  kDow,
  kDoy,
  kIsoDow,
  kIsoYear,
  kEpoch,
};

/// The unit called `name` (upper case, singular: "YEAR", "DOW"), or nullopt.
std::optional<TimeUnit> timeUnitOf(std::string_view name);
std::string_view timeUnitName(TimeUnit unit);
/// Whether the unit is a part of the date (YEAR .. DAY, DOW, DOY, ...), not of the time.
bool isDateUnit(TimeUnit unit);

/// EXTRACT(unit FROM date) for a date unit (and EPOCH): Flink's DateTimeUtils.extractFromDate
/// (DOW: Sunday = 1 .. Saturday = 7; ISODOW: Monday = 1 .. Sunday = 7; WEEK: ISO-8601 week).
int64_t extractFromDate(TimeUnit unit, int64_t epochDay);
/// EXTRACT(unit FROM timestamp) (any unit).
int64_t extractFromTimestamp(TimeUnit unit, int64_t millis, int32_t nanoOfMillisecond);
/// EXTRACT(unit FROM time) for a time unit; `nanoOfDay` as eddy stores TIME.
int64_t extractFromTime(TimeUnit unit, int64_t nanoOfDay);

/// FLOOR(date TO unit) / CEIL(date TO unit) for YEAR .. DAY, DECADE, CENTURY, MILLENNIUM
/// (WEEK starts on Sunday, as in Flink). CEIL of a value on a boundary is the value.
int64_t floorDate(TimeUnit unit, int64_t epochDay);
int64_t ceilDate(TimeUnit unit, int64_t epochDay);
/// The same for epoch milliseconds, also for HOUR, MINUTE, SECOND, MILLISECOND.
int64_t floorMillis(TimeUnit unit, int64_t millis);
int64_t ceilMillis(TimeUnit unit, int64_t millis);
/// Whether FLOOR/CEIL .. TO accepts the unit.
bool isFloorCeilUnit(TimeUnit unit);

}  // namespace eddy::function::calendar
