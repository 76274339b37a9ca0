// INTERVAL literals with Calcite's syntax and checks (SqlIntervalQualifier): the text holds
// the fields the qualifier names, separated by '-' (YEAR TO MONTH), ' ' (DAY TO ...) and ':',
// seconds may have a fraction; an optional sign precedes the text. The leading field may not
// have more digits than its precision (default 2); the others must be within their unit.
#include <fmt/format.h>

#include <cctype>

#include "eddy/exceptions.h"
#include "function/scalar/calendar.h"
#include "function/scalar/temporal.h"

namespace eddy::function {
namespace {

std::string_view fieldName(IntervalField field) {
  switch (field) {
    case IntervalField::kYear:
      return "YEAR";
    case IntervalField::kMonth:
      return "MONTH";
    case IntervalField::kDay:
      return "DAY";
    case IntervalField::kHour:
      return "HOUR";
    case IntervalField::kMinute:
      return "MINUTE";
    case IntervalField::kSecond:
      return "SECOND";
  }
  return "?";
}

std::string qualifierText(IntervalField start, std::optional<IntervalField> end,
                          int startPrecision) {
  std::string text(fieldName(start));
  if (startPrecision >= 0) text += fmt::format("({})", startPrecision);
  if (end) text += fmt::format(" TO {}", fieldName(*end));
  return text;
}

}  // namespace

std::pair<Value, LogicalTypePtr> intervalLiteral(std::string_view text, bool negative,
                                                 IntervalField start,
                                                 std::optional<IntervalField> end,
                                                 int startPrecision) {
  std::string written(text);
  auto illegal = [&]() -> std::pair<Value, LogicalTypePtr> {
    throw ValidationException(fmt::format("Illegal interval literal format '{}' for INTERVAL {}",
                                          written, qualifierText(start, end, startPrecision)));
  };
  // Trim, then an optional sign.
  size_t begin = 0;
  size_t finish = text.size();
  while (begin < finish && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (finish > begin && std::isspace(static_cast<unsigned char>(text[finish - 1]))) --finish;
  text = text.substr(begin, finish - begin);
  int sign = negative ? -1 : 1;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    if (text[0] == '-') sign = -sign;
    text.remove_prefix(1);
  }
  // The fields from `start` to `end` and the separator before each.
  IntervalField last = end.value_or(start);
  std::vector<IntervalField> fields;
  for (int field = static_cast<int>(start); field <= static_cast<int>(last); ++field) {
    fields.push_back(static_cast<IntervalField>(field));
  }
  std::vector<int64_t> values;
  int64_t fractionNanos = 0;
  size_t position = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) {
      char separator = fields[i] == IntervalField::kMonth  ? '-'
                       : fields[i] == IntervalField::kHour ? ' '
                                                           : ':';
      if (position >= text.size() || text[position] != separator) return illegal();
      ++position;
    }
    size_t digitsStart = position;
    int64_t value = 0;
    while (position < text.size() && std::isdigit(static_cast<unsigned char>(text[position]))) {
      if (position - digitsStart >= 18) return illegal();
      value = value * 10 + (text[position] - '0');
      ++position;
    }
    size_t digits = position - digitsStart;
    if (digits == 0 || (i > 0 && digits > 2)) return illegal();
    values.push_back(value);
    if (fields[i] == IntervalField::kSecond && position < text.size() && text[position] == '.') {
      ++position;
      size_t fractionStart = position;
      int64_t scale = 100'000'000;
      while (position < text.size() && std::isdigit(static_cast<unsigned char>(text[position]))) {
        if (scale > 0) fractionNanos += (text[position] - '0') * scale;
        scale /= 10;
        ++position;
      }
      if (position == fractionStart) return illegal();
    }
  }
  if (position != text.size()) return illegal();
  // The leading field against its precision, the others against their unit.
  int precision = startPrecision >= 0 ? startPrecision : 2;
  int64_t limit = 1;
  for (int digit = 0; digit < precision; ++digit) limit *= 10;
  if (values[0] >= limit) {
    throw ValidationException(
        fmt::format("Interval field value {} exceeds precision of {}({}) field", sign * values[0],
                    fieldName(start), precision));
  }
  for (size_t i = 1; i < fields.size(); ++i) {
    int64_t bound = fields[i] == IntervalField::kMonth  ? 12
                    : fields[i] == IntervalField::kHour ? 24
                                                        : 60;
    if (values[i] >= bound) return illegal();
  }
  if (start == IntervalField::kYear || start == IntervalField::kMonth) {
    int64_t months = start == IntervalField::kYear
                         ? values[0] * 12 + (fields.size() > 1 ? values[1] : 0)
                         : values[0];
    return {Value(Period::ofMonths(static_cast<int>(sign * months))),
            LogicalType::yearMonthInterval(YearMonthResolution::MONTH,
                                           LogicalType::kDefaultYearPrecision, false)};
  }
  int64_t millis = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    int64_t unit = fields[i] == IntervalField::kDay      ? calendar::kMillisPerDay
                   : fields[i] == IntervalField::kHour   ? calendar::kMillisPerHour
                   : fields[i] == IntervalField::kMinute ? calendar::kMillisPerMinute
                                                         : calendar::kMillisPerSecond;
    millis += values[i] * unit;
  }
  millis += fractionNanos / calendar::kNanosPerMilli;  // Flink keeps milliseconds
  return {Value(Duration::ofMillis(sign * millis)),
          LogicalType::dayTimeInterval(DayTimeResolution::SECOND, LogicalType::kDefaultDayPrecision,
                                       3, false)};
}

}  // namespace eddy::function
