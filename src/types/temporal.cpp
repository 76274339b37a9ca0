// java.time-compatible date/time values: civil-calendar arithmetic, ISO parsing and Java's
// toString formats (see temporal.h for the formats).
#include "eddy/types/temporal.h"

#include <fmt/format.h>

#include <cctype>

#include "eddy/exceptions.h"

namespace eddy {
namespace types {

int64_t daysFromCivil(int64_t year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  int64_t era = (year >= 0 ? year : year - 399) / 400;
  int64_t yearOfEra = year - era * 400;
  int64_t dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

CivilDate civilFromDays(int64_t epochDay) {
  int64_t days = epochDay + 719468;
  int64_t era = floorDivide(days, 146097);
  int64_t dayOfEra = days - era * 146097;
  int64_t yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
  int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
  int64_t shiftedMonth = (5 * dayOfYear + 2) / 153;
  int day = static_cast<int>(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
  int month = static_cast<int>(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9);
  return CivilDate{yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

bool isLeapYear(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int daysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && isLeapYear(year) ? 29 : kDays[month - 1];
}

}  // namespace types

namespace {

constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kNanosPerMilli = 1'000'000;
constexpr int64_t kMillisPerDay = 86'400'000;
constexpr int64_t kNanosPerDay = 86'400 * kNanosPerSecond;

using types::CivilDate;
using types::civilFromDays;
using types::daysInMonth;

void appendYear(int64_t year, std::string& out) {
  // As LocalDate.toString: at least 4 digits, '+' above 9999.
  if (year > 9999) out.push_back('+');
  if (year < 0) {
    out.push_back('-');
    year = -year;
  }
  out.append(fmt::format("{:04d}", year));
}

void appendTwoDigits(int value, std::string& out) { out.append(fmt::format("{:02d}", value)); }

// Fraction of a second in groups of three digits (java.time's toString / ISO_INSTANT).
void appendFraction(int nanos, std::string& out) {
  if (nanos == 0) return;
  if (nanos % 1'000'000 == 0) {
    out.append(fmt::format(".{:03d}", nanos / 1'000'000));
  } else if (nanos % 1000 == 0) {
    out.append(fmt::format(".{:06d}", nanos / 1000));
  } else {
    out.append(fmt::format(".{:09d}", nanos));
  }
}

std::string formatDate(int64_t epochDay) {
  CivilDate date = civilFromDays(epochDay);
  std::string out;
  appendYear(date.year, out);
  out.push_back('-');
  appendTwoDigits(date.month, out);
  out.push_back('-');
  appendTwoDigits(date.day, out);
  return out;
}

// Reads the text as a sequence of ISO fields; every failure names the whole text.
class IsoReader {
 public:
  IsoReader(std::string_view text, std::string_view what) : text_(text), what_(what) {}

  [[noreturn]] void fail() const {
    throw ValidationException(fmt::format("Text '{}' could not be parsed as {}.", text_, what_));
  }
  bool atEnd() const { return position_ == text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[position_]; }
  bool accept(char c) {
    if (peek() != c) return false;
    ++position_;
    return true;
  }
  void expect(char c) {
    if (!accept(c)) fail();
  }
  int64_t digits(int minimum, int maximum) {
    int64_t value = 0;
    int count = 0;
    while (count < maximum && std::isdigit(static_cast<unsigned char>(peek()))) {
      value = value * 10 + (text_[position_++] - '0');
      ++count;
    }
    if (count < minimum) fail();
    return value;
  }
  // A fraction after '.', as nanoseconds.
  int fractionNanos() {
    size_t start = position_;
    int64_t value = digits(1, 9);
    for (size_t i = position_ - start; i < 9; ++i) value *= 10;
    return static_cast<int>(value);
  }
  void expectEnd() {
    if (!atEnd()) fail();
  }

  LocalDate date() {
    bool negative = accept('-');
    if (!negative) accept('+');
    int64_t year = digits(4, 9);
    if (negative) year = -year;
    expect('-');
    int month = static_cast<int>(digits(2, 2));
    expect('-');
    int day = static_cast<int>(digits(2, 2));
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) fail();
    return LocalDate::ofEpochDay(types::daysFromCivil(year, month, day));
  }

  LocalTime time(bool secondsRequired) {
    int hour = static_cast<int>(digits(2, 2));
    expect(':');
    int minute = static_cast<int>(digits(2, 2));
    int second = 0;
    int nanos = 0;
    if (secondsRequired) expect(':');
    if (secondsRequired || accept(':')) {
      second = static_cast<int>(digits(2, 2));
      if (accept('.')) nanos = fractionNanos();
    }
    if (hour > 23 || minute > 59 || second > 59) fail();
    return LocalTime::of(hour, minute, second, nanos);
  }

 private:
  std::string_view text_;
  std::string_view what_;
  size_t position_ = 0;
};

}  // namespace

// --- LocalDate ---

LocalDate LocalDate::of(int year, int month, int dayOfMonth) {
  if (month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > daysInMonth(year, month)) {
    throw ValidationException(
        fmt::format("Invalid date: year {}, month {}, day {}.", year, month, dayOfMonth));
  }
  return ofEpochDay(types::daysFromCivil(year, month, dayOfMonth));
}

LocalDate LocalDate::ofEpochDay(int64_t epochDay) {
  LocalDate date;
  date.epochDay_ = static_cast<int32_t>(epochDay);
  return date;
}

LocalDate LocalDate::parse(std::string_view text) {
  IsoReader reader(text, "a date (yyyy-MM-dd)");
  LocalDate date = reader.date();
  reader.expectEnd();
  return date;
}

int LocalDate::getYear() const { return static_cast<int>(civilFromDays(epochDay_).year); }
int LocalDate::getMonthValue() const { return civilFromDays(epochDay_).month; }
int LocalDate::getDayOfMonth() const { return civilFromDays(epochDay_).day; }
std::string LocalDate::toString() const { return formatDate(epochDay_); }

// --- LocalTime ---

LocalTime LocalTime::of(int hour, int minute, int second, int nanoOfSecond) {
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 ||
      nanoOfSecond < 0 || nanoOfSecond >= kNanosPerSecond) {
    throw ValidationException(
        fmt::format("Invalid time: {}:{}:{}.{}.", hour, minute, second, nanoOfSecond));
  }
  return ofNanoOfDay((int64_t{hour} * 3600 + minute * 60 + second) * kNanosPerSecond +
                     nanoOfSecond);
}

LocalTime LocalTime::ofNanoOfDay(int64_t nanoOfDay) {
  if (nanoOfDay < 0 || nanoOfDay >= kNanosPerDay) {
    throw ValidationException(fmt::format("Invalid nano of day: {}.", nanoOfDay));
  }
  LocalTime time;
  time.nanoOfDay_ = nanoOfDay;
  return time;
}

LocalTime LocalTime::parse(std::string_view text) {
  IsoReader reader(text, "a time (HH:mm[:ss[.SSSSSSSSS]])");
  LocalTime time = reader.time(false);
  reader.expectEnd();
  return time;
}

std::string LocalTime::toString() const {
  std::string out;
  appendTwoDigits(getHour(), out);
  out.push_back(':');
  appendTwoDigits(getMinute(), out);
  if (getSecond() > 0 || getNano() > 0) {
    out.push_back(':');
    appendTwoDigits(getSecond(), out);
    appendFraction(getNano(), out);
  }
  return out;
}

// --- LocalDateTime ---

LocalDateTime LocalDateTime::of(int year, int month, int dayOfMonth, int hour, int minute,
                                int second, int nanoOfSecond) {
  return of(LocalDate::of(year, month, dayOfMonth),
            LocalTime::of(hour, minute, second, nanoOfSecond));
}

LocalDateTime LocalDateTime::of(LocalDate date, LocalTime time) {
  int64_t nanoOfDay = time.toNanoOfDay();
  return ofEpochMillis(date.toEpochDay() * kMillisPerDay + nanoOfDay / kNanosPerMilli,
                       static_cast<int32_t>(nanoOfDay % kNanosPerMilli));
}

LocalDateTime LocalDateTime::ofEpochMillis(int64_t millisecond, int32_t nanoOfMillisecond) {
  if (nanoOfMillisecond < 0 || nanoOfMillisecond >= kNanosPerMilli) {
    throw ValidationException(fmt::format(
        "Nanos of millisecond must be between 0 and 999999, but was {}.", nanoOfMillisecond));
  }
  LocalDateTime dateTime;
  dateTime.millisecond_ = millisecond;
  dateTime.nanoOfMillisecond_ = nanoOfMillisecond;
  return dateTime;
}

LocalDateTime LocalDateTime::parse(std::string_view text) {
  IsoReader reader(text, "a timestamp (yyyy-MM-ddTHH:mm[:ss[.SSSSSSSSS]])");
  LocalDate date = reader.date();
  if (!reader.accept('T') && !reader.accept(' ')) reader.fail();
  LocalTime time = reader.time(false);
  reader.expectEnd();
  return of(date, time);
}

LocalDate LocalDateTime::toLocalDate() const {
  return LocalDate::ofEpochDay(types::floorDivide(millisecond_, kMillisPerDay));
}

LocalTime LocalDateTime::toLocalTime() const {
  return LocalTime::ofNanoOfDay(types::floorModulo(millisecond_, kMillisPerDay) * kNanosPerMilli +
                                nanoOfMillisecond_);
}

std::string LocalDateTime::toString() const {
  return toLocalDate().toString() + "T" + toLocalTime().toString();
}

// --- Instant ---

Instant Instant::ofEpochMilli(int64_t millisecond, int32_t nanoOfMillisecond) {
  LocalDateTime dateTime = LocalDateTime::ofEpochMillis(millisecond, nanoOfMillisecond);
  Instant instant;
  instant.millisecond_ = dateTime.getMillisecond();
  instant.nanoOfMillisecond_ = dateTime.getNanoOfMillisecond();
  return instant;
}

Instant Instant::ofEpochSecond(int64_t second, int64_t nanoAdjustment) {
  int64_t seconds = second + types::floorDivide(nanoAdjustment, kNanosPerSecond);
  int64_t nanos = types::floorModulo(nanoAdjustment, kNanosPerSecond);
  return ofEpochMilli(seconds * 1000 + nanos / kNanosPerMilli,
                      static_cast<int32_t>(nanos % kNanosPerMilli));
}

Instant Instant::parse(std::string_view text) {
  IsoReader reader(text, "an instant (yyyy-MM-ddTHH:mm:ss[.SSSSSSSSS]Z)");
  LocalDate date = reader.date();
  reader.expect('T');
  LocalTime time = reader.time(true);
  reader.expect('Z');
  reader.expectEnd();
  LocalDateTime dateTime = LocalDateTime::of(date, time);
  return ofEpochMilli(dateTime.getMillisecond(), dateTime.getNanoOfMillisecond());
}

std::string Instant::toString() const {
  LocalDateTime dateTime = toUtcDateTime();
  LocalTime time = dateTime.toLocalTime();
  std::string out = dateTime.toLocalDate().toString();
  out.push_back('T');
  appendTwoDigits(time.getHour(), out);
  out.push_back(':');
  appendTwoDigits(time.getMinute(), out);
  out.push_back(':');
  appendTwoDigits(time.getSecond(), out);
  appendFraction(time.getNano(), out);
  out.push_back('Z');
  return out;
}

// --- Period ---

Period Period::normalized() const {
  int64_t totalMonths = toTotalMonths();
  return Period(static_cast<int>(totalMonths / 12), static_cast<int>(totalMonths % 12), days_);
}

std::string Period::toString() const {
  if (years_ == 0 && months_ == 0 && days_ == 0) return "P0D";
  std::string out = "P";
  if (years_ != 0) out.append(std::to_string(years_)).push_back('Y');
  if (months_ != 0) out.append(std::to_string(months_)).push_back('M');
  if (days_ != 0) out.append(std::to_string(days_)).push_back('D');
  return out;
}

// --- Duration ---

Duration Duration::ofSeconds(int64_t seconds, int64_t nanoAdjustment) {
  Duration duration;
  duration.seconds_ = seconds + types::floorDivide(nanoAdjustment, kNanosPerSecond);
  duration.nanos_ = static_cast<int32_t>(types::floorModulo(nanoAdjustment, kNanosPerSecond));
  return duration;
}

Duration Duration::ofMillis(int64_t millis) {
  return ofSeconds(types::floorDivide(millis, 1000),
                   types::floorModulo(millis, 1000) * kNanosPerMilli);
}

Duration Duration::ofNanos(int64_t nanos) { return ofSeconds(0, nanos); }

std::string Duration::toString() const {
  // Java's Duration.toString, including its treatment of negative fractions.
  if (seconds_ == 0 && nanos_ == 0) return "PT0S";
  int64_t effectiveSeconds = seconds_;
  if (seconds_ < 0 && nanos_ > 0) ++effectiveSeconds;
  int64_t hours = effectiveSeconds / 3600;
  int64_t minutes = (effectiveSeconds % 3600) / 60;
  int64_t secs = effectiveSeconds % 60;
  std::string out = "PT";
  if (hours != 0) out.append(std::to_string(hours)).push_back('H');
  if (minutes != 0) out.append(std::to_string(minutes)).push_back('M');
  if (secs == 0 && nanos_ == 0 && out.size() > 2) return out;
  if (seconds_ < 0 && nanos_ > 0 && secs == 0) {
    out.append("-0");
  } else {
    out.append(std::to_string(secs));
  }
  if (nanos_ > 0) {
    size_t position = out.size();
    out.append(
        std::to_string(seconds_ < 0 ? 2 * kNanosPerSecond - nanos_ : nanos_ + kNanosPerSecond));
    while (out.back() == '0') out.pop_back();
    out[position] = '.';
  }
  out.push_back('S');
  return out;
}

}  // namespace eddy
