// DateTimePattern: Java's date-time pattern strings, as Flink's temporal functions use them.
// Flink uses two Java formatters, and so two dialects here:
//   - java.time.DateTimeFormatter (kDateTimeFormatter): DATE_FORMAT(TIMESTAMP, fmt) formats,
//     TO_TIMESTAMP(s, fmt) parses, strictly (ResolverStyle.SMART: every pattern element must
//     match, the whole text must be consumed, a day-of-month beyond the month's end is clamped).
//   - java.text.SimpleDateFormat (kSimpleDateFormat): FROM_UNIXTIME and DATE_FORMAT(STRING, fmt)
//     format, UNIX_TIMESTAMP(s, fmt), TO_DATE(s, fmt) and DATE_FORMAT(STRING, ..) parse,
//     leniently (numbers may have any number of digits, out-of-range fields roll over, trailing
//     text is ignored).
// Both are in English (Flink's JVM default locale in practice) and UTC (the session time zone
// is not supported yet). Supported letters: G y u Y M L w W D d F Q q E e c u a H k K h m s S n
// N A, zone letters z Z X x O (parsed; SimpleDateFormat prints UTC); quoted text '...' with ''
// for a quote; DateTimeFormatter's optional sections [ ]. An invalid pattern throws
// TableException with Java's message ("Unknown pattern letter: b", "Illegal pattern character
// 'b'"). A compiled pattern is immutable; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "function/vector_executor.h"

namespace eddy::function {

/// The fields of a date-time (proleptic Gregorian).
struct DateTimeFields {
  int64_t year = 1970;
  int month = 1;
  int day = 1;
  int hour = 0;
  int minute = 0;
  int second = 0;
  int nanoOfSecond = 0;
  int64_t epochDay = 0;  // the date as days since 1970-01-01 (kept in sync with y/m/d)
};

/// The fields of epoch milliseconds (UTC) plus nanoseconds of the millisecond.
DateTimeFields fieldsOfTimestamp(int64_t millis, int32_t nanoOfMillisecond);

enum class PatternDialect { kDateTimeFormatter, kSimpleDateFormat };

/// A compiled pattern; see the file comment.
class DateTimePattern {
 public:
  /// Throws TableException for an invalid pattern.
  static DateTimePattern compile(std::string_view pattern, PatternDialect dialect);

  /// Appends `fields` formatted to `out`. Throws TableException when the pattern prints a
  /// field a date-time without zone lacks (a zone in the DateTimeFormatter dialect).
  void format(const DateTimeFields& fields, std::string& out) const;
  /// The timestamp (UTC) written in `text`, or nullopt when it does not match. Fields the
  /// pattern lacks default to 1970-01-01 00:00:00. Sub-millisecond digits are kept.
  std::optional<TimestampValue> parse(std::string_view text) const;
  /// Whether the pattern has a zone field (z Z X x O), so parse() returns an instant rather
  /// than a wall-clock time.
  bool hasZone() const;

  struct Element {
    enum Kind { kLiteral, kField, kOptionalStart, kOptionalEnd } kind = kLiteral;
    char letter = 0;
    int count = 0;
    std::string literal;
    int optionalEnd = -1;  // kOptionalStart: index of its kOptionalEnd
  };

 private:
  DateTimePattern(PatternDialect dialect, std::vector<Element> elements)
      : dialect_(dialect), elements_(std::move(elements)) {}

  PatternDialect dialect_;
  std::vector<Element> elements_;
};

}  // namespace eddy::function
