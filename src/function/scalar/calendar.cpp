// Calendar arithmetic of the temporal functions (see calendar.h).
#include "function/scalar/calendar.h"

#include <array>

namespace eddy::function::calendar {
namespace {

constexpr std::array<std::pair<std::string_view, TimeUnit>, 19> kUnitNames{{
    {"MILLENNIUM", TimeUnit::kMillennium},
    {"CENTURY", TimeUnit::kCentury},
    {"DECADE", TimeUnit::kDecade},
    {"YEAR", TimeUnit::kYear},
    {"QUARTER", TimeUnit::kQuarter},
    {"MONTH", TimeUnit::kMonth},
    {"WEEK", TimeUnit::kWeek},
    {"DAY", TimeUnit::kDay},
    {"HOUR", TimeUnit::kHour},
    {"MINUTE", TimeUnit::kMinute},
    {"SECOND", TimeUnit::kSecond},
    {"MILLISECOND", TimeUnit::kMillisecond},
    {"MICROSECOND", TimeUnit::kMicrosecond},
    {"NANOSECOND", TimeUnit::kNanosecond},
    {"DOW", TimeUnit::kDow},
    {"DOY", TimeUnit::kDoy},
    {"ISODOW", TimeUnit::kIsoDow},
    {"ISOYEAR", TimeUnit::kIsoYear},
    {"EPOCH", TimeUnit::kEpoch},
}};

// Day of the week with Monday = 1 .. Sunday = 7 (1970-01-01 was a Thursday).
int isoDayOfWeek(int64_t epochDay) { return static_cast<int>(floorModulo(epochDay + 3, 7)) + 1; }

int weeksInIsoYear(int64_t year) {
  int janFirst = isoDayOfWeek(daysFromCivil(year, 1, 1));
  return (janFirst == 4 || (janFirst == 3 && isLeapYear(year))) ? 53 : 52;
}

// The ISO-8601 week number of a date.
int isoWeek(int64_t epochDay, const CivilDate& date) {
  int64_t dayOfYear = epochDay - daysFromCivil(date.year, 1, 1) + 1;
  int64_t week = (dayOfYear - isoDayOfWeek(epochDay) + 10) / 7;
  if (week < 1) return weeksInIsoYear(date.year - 1);
  if (week > weeksInIsoYear(date.year)) return 1;
  return static_cast<int>(week);
}

// The first day of the period of `unit` after the one starting on `floored`.
int64_t nextBoundary(TimeUnit unit, int64_t floored) {
  CivilDate date = civilFromDays(floored);
  switch (unit) {
    case TimeUnit::kMillennium:
      return daysFromCivil(date.year + 1000, 1, 1);
    case TimeUnit::kCentury:
      return daysFromCivil(date.year + 100, 1, 1);
    case TimeUnit::kDecade:
      return daysFromCivil(date.year + 10, 1, 1);
    case TimeUnit::kYear:
      return daysFromCivil(date.year + 1, 1, 1);
    case TimeUnit::kQuarter:
      return addMonthsToDate(floored, 3);
    case TimeUnit::kMonth:
      return addMonthsToDate(floored, 1);
    case TimeUnit::kWeek:
      return floored + 7;
    default:
      return floored + 1;
  }
}

// The length in milliseconds of the units FLOOR/CEIL compute arithmetically, or 0.
int64_t fixedMillisOf(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kDay:
      return kMillisPerDay;
    case TimeUnit::kHour:
      return kMillisPerHour;
    case TimeUnit::kMinute:
      return kMillisPerMinute;
    case TimeUnit::kSecond:
      return kMillisPerSecond;
    case TimeUnit::kMillisecond:
      return 1;
    default:
      return 0;
  }
}

}  // namespace

int64_t addMonthsToDate(int64_t epochDay, int64_t months) {
  CivilDate date = civilFromDays(epochDay);
  int64_t monthIndex = date.year * 12 + (date.month - 1) + months;
  int64_t year = floorDivide(monthIndex, 12);
  int month = static_cast<int>(floorModulo(monthIndex, 12)) + 1;
  int day = std::min(date.day, daysInMonth(year, month));
  return daysFromCivil(year, month, day);
}

int64_t addMonthsToMillis(int64_t millis, int64_t months) {
  int64_t timeOfDay = floorModulo(millis, kMillisPerDay);
  int64_t day = floorDivide(millis, kMillisPerDay);
  return addMonthsToDate(day, months) * kMillisPerDay + timeOfDay;
}

int64_t subtractMonthsOfDates(int64_t date0, int64_t date1) {
  if (date0 < date1) return -subtractMonthsOfDates(date1, date0);
  // The estimate never exceeds the answer: no month has more than 31 days.
  int64_t months = (date0 - date1) / 31;
  while (true) {
    if (addMonthsToDate(date1, months) >= date0) return months;
    if (addMonthsToDate(date1, months + 1) > date0) return months;
    ++months;
  }
}

int64_t subtractMonthsOfMillis(int64_t millis0, int64_t millis1) {
  int64_t time0 = floorModulo(millis0, kMillisPerDay);
  int64_t day0 = floorDivide(millis0, kMillisPerDay);
  int64_t time1 = floorModulo(millis1, kMillisPerDay);
  int64_t day1 = floorDivide(millis1, kMillisPerDay);
  int64_t months = subtractMonthsOfDates(day0, day1);
  if (addMonthsToDate(day1, months) == day0 && time0 < time1) --months;
  return months;
}

std::optional<TimeUnit> timeUnitOf(std::string_view name) {
  for (const auto& [unitName, unit] : kUnitNames) {
    if (unitName == name) return unit;
  }
  return std::nullopt;
}

std::string_view timeUnitName(TimeUnit unit) {
  for (const auto& [unitName, candidate] : kUnitNames) {
    if (candidate == unit) return unitName;
  }
  return "?";
}

bool isDateUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kHour:
    case TimeUnit::kMinute:
    case TimeUnit::kSecond:
    case TimeUnit::kMillisecond:
    case TimeUnit::kMicrosecond:
    case TimeUnit::kNanosecond:
    case TimeUnit::kEpoch:
      return false;
    default:
      return true;
  }
}

int64_t extractFromDate(TimeUnit unit, int64_t epochDay) {
  if (unit == TimeUnit::kEpoch) return epochDay * 86400;
  CivilDate date = civilFromDays(epochDay);
  switch (unit) {
    case TimeUnit::kYear:
      return date.year;
    case TimeUnit::kQuarter:
      return (date.month + 2) / 3;
    case TimeUnit::kMonth:
      return date.month;
    case TimeUnit::kDay:
      return date.day;
    case TimeUnit::kWeek:
      return isoWeek(epochDay, date);
    case TimeUnit::kIsoYear: {
      int week = isoWeek(epochDay, date);
      if (week == 1 && date.month == 12) return date.year + 1;
      if (date.month == 1 && week > 50) return date.year - 1;
      return date.year;
    }
    case TimeUnit::kDow:
      return floorModulo(epochDay + 4, 7) + 1;
    case TimeUnit::kIsoDow:
      return isoDayOfWeek(epochDay);
    case TimeUnit::kDoy:
      return epochDay - daysFromCivil(date.year, 1, 1) + 1;
    case TimeUnit::kDecade:
      return date.year / 10;
    case TimeUnit::kCentury:
      return date.year > 0 ? (date.year + 99) / 100 : (date.year - 99) / 100;
    case TimeUnit::kMillennium:
      return date.year > 0 ? (date.year + 999) / 1000 : (date.year - 999) / 1000;
    default:
      return 0;  // time units: rejected by the binders
  }
}

int64_t extractFromTimestamp(TimeUnit unit, int64_t millis, int32_t nanoOfMillisecond) {
  switch (unit) {
    case TimeUnit::kEpoch:
      return millis / 1000;  // Flink truncates toward zero here
    case TimeUnit::kHour:
      return floorModulo(millis, kMillisPerDay) / kMillisPerHour;
    case TimeUnit::kMinute:
      return floorModulo(millis, kMillisPerHour) / kMillisPerMinute;
    case TimeUnit::kSecond:
      return floorModulo(millis, kMillisPerMinute) / kMillisPerSecond;
    case TimeUnit::kMillisecond:
      return floorModulo(millis, kMillisPerSecond);
    case TimeUnit::kMicrosecond:
      return floorModulo(millis, kMillisPerSecond) * 1000 + nanoOfMillisecond / 1000;
    case TimeUnit::kNanosecond:
      return floorModulo(millis, kMillisPerSecond) * kNanosPerMilli + nanoOfMillisecond;
    default:
      return extractFromDate(unit, floorDivide(millis, kMillisPerDay));
  }
}

int64_t extractFromTime(TimeUnit unit, int64_t nanoOfDay) {
  constexpr int64_t kNanosPerMinute = 60 * kNanosPerSecond;
  constexpr int64_t kNanosPerHour = 60 * kNanosPerMinute;
  switch (unit) {
    case TimeUnit::kHour:
      return nanoOfDay / kNanosPerHour;
    case TimeUnit::kMinute:
      return nanoOfDay % kNanosPerHour / kNanosPerMinute;
    case TimeUnit::kSecond:
      return nanoOfDay % kNanosPerMinute / kNanosPerSecond;
    case TimeUnit::kMillisecond:
      return nanoOfDay % kNanosPerSecond / kNanosPerMilli;
    case TimeUnit::kMicrosecond:
      return nanoOfDay % kNanosPerSecond / 1000;
    case TimeUnit::kNanosecond:
      return nanoOfDay % kNanosPerSecond;
    case TimeUnit::kEpoch:
      return nanoOfDay / kNanosPerSecond;
    default:
      return 0;  // date units: rejected by the binders
  }
}

bool isFloorCeilUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillennium:
    case TimeUnit::kCentury:
    case TimeUnit::kDecade:
    case TimeUnit::kYear:
    case TimeUnit::kQuarter:
    case TimeUnit::kMonth:
    case TimeUnit::kWeek:
    case TimeUnit::kDay:
    case TimeUnit::kHour:
    case TimeUnit::kMinute:
    case TimeUnit::kSecond:
    case TimeUnit::kMillisecond:
      return true;
    default:
      return false;
  }
}

int64_t floorDate(TimeUnit unit, int64_t epochDay) {
  CivilDate date = civilFromDays(epochDay);
  switch (unit) {
    case TimeUnit::kMillennium:
      return daysFromCivil(1000 * floorDivide(date.year + 999, 1000) - 999, 1, 1);
    case TimeUnit::kCentury:
      return daysFromCivil(100 * floorDivide(date.year + 99, 100) - 99, 1, 1);
    case TimeUnit::kDecade:
      return daysFromCivil(10 * floorDivide(date.year, 10), 1, 1);
    case TimeUnit::kYear:
      return daysFromCivil(date.year, 1, 1);
    case TimeUnit::kQuarter:
      return daysFromCivil(date.year, (date.month - 1) / 3 * 3 + 1, 1);
    case TimeUnit::kMonth:
      return daysFromCivil(date.year, date.month, 1);
    case TimeUnit::kWeek:
      return epochDay - floorModulo(epochDay + 4, 7);  // back to Sunday
    default:
      return epochDay;
  }
}

int64_t ceilDate(TimeUnit unit, int64_t epochDay) {
  int64_t floored = floorDate(unit, epochDay);
  return floored == epochDay ? epochDay : nextBoundary(unit, floored);
}

int64_t floorMillis(TimeUnit unit, int64_t millis) {
  if (int64_t length = fixedMillisOf(unit)) return millis - floorModulo(millis, length);
  return floorDate(unit, floorDivide(millis, kMillisPerDay)) * kMillisPerDay;
}

int64_t ceilMillis(TimeUnit unit, int64_t millis) {
  int64_t floored = floorMillis(unit, millis);
  if (floored == millis) return millis;
  if (int64_t length = fixedMillisOf(unit)) return floored + length;
  return nextBoundary(unit, floorDivide(floored, kMillisPerDay)) * kMillisPerDay;
}

}  // namespace eddy::function::calendar
