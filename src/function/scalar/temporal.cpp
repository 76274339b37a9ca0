// Temporal functions with Flink's semantics (DateTimeUtils, SqlDateTimeUtils, Calcite's
// convertlets). TIMESTAMP_LTZ values are instants; where Flink reads them as wall-clock times
// it uses the session time zone (`table.local-time-zone`, common/session_time_zone.h), which
// the binders of those functions take from the BindingContext and capture in their kernels:
// EXTRACT and the field functions of an LTZ value, FLOOR/CEIL(ltz TO unit) (rounded on the
// wall clock, then read back as an instant), DATE_FORMAT(ltz, f), the local current-time
// functions, UNIX_TIMESTAMP(s [, f]) and FROM_UNIXTIME. The functions:
//   current time: CURRENT_TIMESTAMP, NOW, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME,
//     LOCALTIME, CURRENT_ROW_TIMESTAMP, PROCTIME, UNIX_TIMESTAMP() — non-deterministic, so constant
//     folding leaves them alone; each evaluation (each chunk) reads the clock;
//   fields: EXTRACT(unit FROM x) (the binder passes the unit as a character literal),
//     YEAR, QUARTER, MONTH, WEEK, DAYOFYEAR, DAYOFMONTH, DAYOFWEEK, HOUR, MINUTE, SECOND;
//   arithmetic: datetime ± interval (the `+`/`-` operators delegate here), TIMESTAMPADD,
//     TIMESTAMPDIFF, FLOOR/CEIL(x TO unit) (the numeric FLOOR/CEIL delegate here);
//   conversion: DATE_FORMAT, TO_TIMESTAMP, TO_DATE, UNIX_TIMESTAMP(s [, f]),
//     FROM_UNIXTIME, TO_TIMESTAMP_LTZ.
// Pattern strings follow Java's formatters (datetime_pattern.h) as Flink's implementations
// choose them.
#include "function/scalar/temporal.h"

#include <fmt/format.h>

#include <limits>

#include "eddy/clock.h"
#include "function/scalar/calendar.h"
#include "function/scalar/datetime_pattern.h"
#include "function/scalar/scalar_function_builders.h"

namespace eddy::function {
namespace {

using calendar::floorDivide;
using calendar::floorModulo;
using calendar::kMillisPerDay;
using calendar::TimeUnit;
using Root = LogicalTypeRoot;
using std::string_view;

bool isTimestampRoot(Root root) {
  return root == Root::TIMESTAMP_WITHOUT_TIME_ZONE || root == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE;
}

LogicalTypePtr bigintType(bool nullable) { return LogicalType::simple(Root::BIGINT, nullable); }

// The time unit named by a character literal argument.
std::optional<TimeUnit> unitArgument(const LogicalType& type, const std::optional<Value>& literal) {
  if (!isCharacterString(type) || !literal || !literal->is<std::string>()) return std::nullopt;
  std::string name = literal->get<std::string>();
  while (!name.empty() && name.back() == ' ') name.pop_back();  // CHAR padding
  return calendar::timeUnitOf(name);
}

// --- Current time. ---

int64_t nowMillis() { return SystemClock::instance().currentTimeMillis(); }

// The current instant (TIMESTAMP_LTZ, BIGINT seconds) or wall-clock time in `zone` (DATE,
// TIME, TIMESTAMP).
ScalarKernel currentTimeKernel(Root root, const common::SessionTimeZone& zone) {
  return [root, zone](const std::vector<KernelVector>&, const LogicalTypePtr& resultType) {
    KernelVector result(resultType, 1, true);
    int64_t now = nowMillis();
    if (root != Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE && root != Root::BIGINT) {
      now = zone.toLocalMillis(now);
    }
    switch (root) {
      case Root::DATE:
        result.mutableData<int32_t>()[0] = static_cast<int32_t>(floorDivide(now, kMillisPerDay));
        break;
      case Root::TIME_WITHOUT_TIME_ZONE:
        // TIME(0): whole seconds.
        result.mutableData<int64_t>()[0] =
            floorModulo(now, kMillisPerDay) / 1000 * calendar::kNanosPerSecond;
        break;
      case Root::BIGINT:
        result.mutableData<int64_t>()[0] = floorDivide(now, 1000);
        break;
      default:
        result.mutableData<int64_t>()[0] = now;
        result.mutableNanosOfMillisecond()[0] = 0;
        break;
    }
    return result;
  };
}

// CURRENT_WATERMARK(rowtime): the evaluating operator's watermark as a value of the rowtime's
// type (epoch millis for TIMESTAMP_LTZ; for a TIMESTAMP the watermark is already in its
// wall-clock scale), NULL before the first watermark — and always in BATCH, which has none.
ScalarKernel currentWatermarkKernel() {
  return [](const std::vector<KernelVector>& arguments, const LogicalTypePtr& resultType,
            EvaluationContext& context) {
    KernelVector result(resultType, arguments[0].size(), true);
    int64_t watermark = context.watermark();
    if (watermark == EvaluationContext::kNoWatermark ||
        watermark == std::numeric_limits<int64_t>::max()) {
      result.setNull(0);
    } else {
      result.mutableData<int64_t>()[0] = watermark;
      result.mutableNanosOfMillisecond()[0] = 0;
    }
    return result;
  };
}

void addCurrentTimeFunction(FunctionRegistry& registry, const char* name, LogicalTypePtr type) {
  Root root = type->getTypeRoot();
  registry.add(ScalarFunction(
      name, FunctionSyntax::kFunction, {fmt::format("'{}()'", name)},
      [type, root](const std::vector<LogicalTypePtr>& arguments, const LiteralArguments&,
                   const BindingContext& context) -> std::optional<BoundScalarFunction> {
        if (!arguments.empty()) return std::nullopt;
        return BoundScalarFunction{{}, type, currentTimeKernel(root, context.sessionTimeZone)};
      },
      /*deterministic=*/false));
}

// --- EXTRACT and the field functions. ---

// Whether EXTRACT(unit FROM <type>) is valid.
bool extractApplies(TimeUnit unit, Root root) {
  switch (root) {
    case Root::DATE:
      return calendar::isDateUnit(unit) || unit == TimeUnit::kEpoch;
    case Root::TIME_WITHOUT_TIME_ZONE:
      return !calendar::isDateUnit(unit);
    case Root::TIMESTAMP_WITHOUT_TIME_ZONE:
    case Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      return true;
    default:
      return false;
  }
}

ScalarKernel extractKernel(TimeUnit unit, Root root, const common::SessionTimeZone& zone) {
  switch (root) {
    case Root::DATE:
      return unaryKernel<int32_t, int64_t>(
          [unit](int32_t day) { return calendar::extractFromDate(unit, day); });
    case Root::TIME_WITHOUT_TIME_ZONE:
      return unaryKernel<int64_t, int64_t>(
          [unit](int64_t nanoOfDay) { return calendar::extractFromTime(unit, nanoOfDay); });
    case Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      // The fields of the wall-clock time in the session zone; EPOCH stays the instant's.
      return unaryKernel<TimestampValue, int64_t>([unit, zone](TimestampValue value) {
        int64_t millis =
            unit == TimeUnit::kEpoch ? value.millisecond : zone.toLocalMillis(value.millisecond);
        return calendar::extractFromTimestamp(unit, millis, value.nanoOfMillisecond);
      });
    default:
      return unaryKernel<TimestampValue, int64_t>([unit](TimestampValue value) {
        return calendar::extractFromTimestamp(unit, value.millisecond, value.nanoOfMillisecond);
      });
  }
}

std::optional<BoundScalarFunction> bindExtract(TimeUnit unit, const LogicalTypePtr& argument,
                                               const common::SessionTimeZone& zone) {
  Root root = argument->getTypeRoot();
  if (!extractApplies(unit, root)) return std::nullopt;
  return BoundScalarFunction{
      {argument}, bigintType(argument->isNullable()), extractKernel(unit, root, zone)};
}

void addFieldFunction(FunctionRegistry& registry, const char* name, TimeUnit unit, bool timeToo) {
  registry.add(ScalarFunction(
      name, FunctionSyntax::kFunction,
      {fmt::format("'{}(<{}>)'", name, timeToo ? "DATETIME" : "DATE")},
      [unit, timeToo](const std::vector<LogicalTypePtr>& arguments, const LiteralArguments&,
                      const BindingContext& context) -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 1) return std::nullopt;
        if (!timeToo && arguments[0]->getTypeRoot() == Root::TIME_WITHOUT_TIME_ZONE) {
          return std::nullopt;
        }
        return bindExtract(unit, arguments[0], context.sessionTimeZone);
      }));
}

// --- Datetime ± interval. ---

// The shared datetime + interval operations; `sign` is -1 for minus.
ScalarKernel plusIntervalKernel(Root datetime, bool yearMonth, int sign) {
  if (yearMonth) {
    switch (datetime) {
      case Root::DATE:
        return binaryKernel<int32_t, int32_t, int32_t>([sign](int32_t day, int32_t months) {
          return static_cast<int32_t>(calendar::addMonthsToDate(day, int64_t{sign} * months));
        });
      case Root::TIME_WITHOUT_TIME_ZONE:
        return binaryKernel<int64_t, int32_t, int64_t>(
            [](int64_t nanoOfDay, int32_t) { return nanoOfDay; });
      default:
        return binaryKernel<TimestampValue, int32_t, TimestampValue>(
            [sign](TimestampValue value, int32_t months) {
              return TimestampValue{
                  calendar::addMonthsToMillis(value.millisecond, int64_t{sign} * months),
                  value.nanoOfMillisecond};
            });
    }
  }
  switch (datetime) {
    case Root::DATE:
      // Whole days of the interval, truncated toward zero (Flink: date + millis / MILLIS_PER_DAY).
      return binaryKernel<int32_t, TimestampValue, int32_t>(
          [sign](int32_t day, TimestampValue interval) {
            return static_cast<int32_t>(day + sign * (interval.millisecond / kMillisPerDay));
          });
    case Root::TIME_WITHOUT_TIME_ZONE:
      return binaryKernel<int64_t, TimestampValue, int64_t>(
          [sign](int64_t nanoOfDay, TimestampValue interval) {
            int64_t nanos =
                floorModulo(interval.millisecond, kMillisPerDay) * calendar::kNanosPerMilli +
                interval.nanoOfMillisecond;
            return floorModulo(nanoOfDay + sign * nanos, calendar::kNanosPerDay);
          });
    default:
      return binaryKernel<TimestampValue, TimestampValue, TimestampValue>(
          [sign](TimestampValue value, TimestampValue interval) {
            int64_t nanos = value.nanoOfMillisecond + sign * interval.nanoOfMillisecond;
            int64_t millis = value.millisecond + sign * interval.millisecond +
                             floorDivide(nanos, calendar::kNanosPerMilli);
            return TimestampValue{
                millis, static_cast<int32_t>(floorModulo(nanos, calendar::kNanosPerMilli))};
          });
  }
}

// Swaps the arguments of a kernel (interval + datetime).
ScalarKernel swapped(ScalarKernel kernel) {
  return [kernel](const std::vector<KernelVector>& arguments, const LogicalTypePtr& resultType,
                  EvaluationContext& context) {
    return kernel({arguments[1], arguments[0]}, resultType, context);
  };
}

bool isDatetimeRoot(Root root) {
  return root == Root::DATE || root == Root::TIME_WITHOUT_TIME_ZONE || isTimestampRoot(root);
}

// --- TIMESTAMPADD / TIMESTAMPDIFF. ---

// The interval TIMESTAMPADD adds per unit: months, or milliseconds (0 when unsupported).
std::pair<int64_t, int64_t> unitStep(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kYear:
      return {12, 0};
    case TimeUnit::kQuarter:
      return {3, 0};
    case TimeUnit::kMonth:
      return {1, 0};
    case TimeUnit::kWeek:
      return {0, 7 * kMillisPerDay};
    case TimeUnit::kDay:
      return {0, kMillisPerDay};
    case TimeUnit::kHour:
      return {0, calendar::kMillisPerHour};
    case TimeUnit::kMinute:
      return {0, calendar::kMillisPerMinute};
    case TimeUnit::kSecond:
      return {0, calendar::kMillisPerSecond};
    case TimeUnit::kMillisecond:
      return {0, 1};
    default:
      return {0, 0};
  }
}

std::optional<BoundScalarFunction> bindTimestampAdd(const std::vector<LogicalTypePtr>& arguments,
                                                    const LiteralArguments& literals) {
  if (arguments.size() != 3) return std::nullopt;
  std::optional<TimeUnit> unit = unitArgument(*arguments[0], literals[0]);
  if (!unit) return std::nullopt;
  auto [months, millis] = unitStep(*unit);
  if (months == 0 && millis == 0) return std::nullopt;
  const LogicalTypePtr& count = arguments[1];
  const LogicalTypePtr& datetime = arguments[2];
  if (!isNullType(*count) && !isIntegral(*count)) return std::nullopt;
  Root root = datetime->getTypeRoot();
  if (!isDatetimeRoot(root)) return std::nullopt;
  bool nullable = count->isNullable() || datetime->isNullable();
  LogicalTypePtr resultType = datetime->copy(nullable);
  if (*unit == TimeUnit::kMillisecond && root == Root::TIMESTAMP_WITHOUT_TIME_ZONE &&
      datetime->getPrecision() < 3) {
    resultType = LogicalType::timestamp(3, TimestampKind::REGULAR, nullable);
  }
  if (isTimestampRoot(root)) {
    resultType = resultType->copyWithTimestampKind(TimestampKind::REGULAR);
  }
  // The kernel multiplies the count into an interval (Java's int arithmetic for months, long
  // for milliseconds) and adds it as `+` does.
  ScalarKernel plus = plusIntervalKernel(root, months != 0, 1);
  LogicalTypePtr intervalType = months != 0
                                    ? LogicalType::yearMonthInterval(YearMonthResolution::MONTH)
                                    : LogicalType::dayTimeInterval(DayTimeResolution::SECOND, 2, 3);
  int64_t monthStep = months;
  int64_t millisStep = millis;
  ScalarKernel kernel = [plus, intervalType, monthStep, millisStep](
                            const std::vector<KernelVector>& values, const LogicalTypePtr& type,
                            EvaluationContext& context) {
    KernelVector interval =
        monthStep != 0
            ? UnaryExecutor::execute<int64_t, int32_t>(
                  values[1], intervalType,
                  [monthStep](int64_t n) { return static_cast<int32_t>(monthStep * n); })
            : UnaryExecutor::execute<int64_t, TimestampValue>(
                  values[1], intervalType, [millisStep](int64_t n) {
                    return TimestampValue{static_cast<int64_t>(static_cast<uint64_t>(millisStep) *
                                                               static_cast<uint64_t>(n)),
                                          0};
                  });
    return plus({values[2], interval}, type, context);
  };
  return BoundScalarFunction{{arguments[0], bigintType(count->isNullable()), datetime},
                             resultType, std::move(kernel)};
}

// A DATE or timestamp argument as epoch milliseconds.
KernelVector asMillis(const KernelVector& argument) {
  static const LogicalTypePtr kType = LogicalType::timestamp(9);
  if (argument.type()->getTypeRoot() == Root::DATE) {
    return UnaryExecutor::execute<int32_t, TimestampValue>(argument, kType, [](int32_t day) {
      return TimestampValue{int64_t{day} * kMillisPerDay, 0};
    });
  }
  return argument;
}

std::optional<BoundScalarFunction> bindTimestampDiff(const std::vector<LogicalTypePtr>& arguments,
                                                     const LiteralArguments& literals) {
  if (arguments.size() != 3) return std::nullopt;
  std::optional<TimeUnit> unit = unitArgument(*arguments[0], literals[0]);
  if (!unit) return std::nullopt;
  auto [months, millis] = unitStep(*unit);
  if (months == 0 && millis == 0) return std::nullopt;
  for (size_t i = 1; i < 3; ++i) {
    Root root = arguments[i]->getTypeRoot();
    if (root != Root::DATE && !isTimestampRoot(root)) return std::nullopt;
  }
  bool nullable = arguments[1]->isNullable() || arguments[2]->isNullable();
  int64_t monthStep = months;
  int64_t millisStep = millis;
  ScalarKernel kernel = [monthStep, millisStep](const std::vector<KernelVector>& values,
                                                const LogicalTypePtr& type) {
    KernelVector from = asMillis(values[1]);
    KernelVector to = asMillis(values[2]);
    return BinaryExecutor::execute<TimestampValue, TimestampValue, int32_t>(
        from, to, type, [monthStep, millisStep](TimestampValue start, TimestampValue end) {
          if (monthStep != 0) {
            return static_cast<int32_t>(
                calendar::subtractMonthsOfMillis(end.millisecond, start.millisecond) / monthStep);
          }
          return static_cast<int32_t>((end.millisecond - start.millisecond) / millisStep);
        });
  };
  return BoundScalarFunction{arguments, LogicalType::simple(Root::INTEGER, nullable), kernel};
}

// --- Formatting and parsing. ---

// Compiles a pattern once per distinct text seen by one kernel call (a constant pattern
// compiles once per chunk).
class PatternCache {
 public:
  explicit PatternCache(PatternDialect dialect) : dialect_(dialect) {}
  const DateTimePattern& get(string_view pattern) {
    if (!compiled_ || pattern != text_) {
      compiled_.emplace(DateTimePattern::compile(pattern, dialect_));
      text_.assign(pattern);
    }
    return *compiled_;
  }

 private:
  PatternDialect dialect_;
  std::string text_;
  std::optional<DateTimePattern> compiled_;
};

const char* kDefaultTimestampFormat = "yyyy-MM-dd HH:mm:ss";

std::string formatFields(const DateTimePattern& pattern, const DateTimeFields& fields) {
  std::string out;
  pattern.format(fields, out);
  return out;
}

// Flink's fallback of TO_TIMESTAMP(s, f) when the pattern does not match: java.sql.Timestamp
// .valueOf ('yyyy-[m]m-[d]d hh:mm:ss[.f...]') or java.sql.Date.valueOf ('yyyy-[m]m-[d]d'),
// both lenient about the day (Feb 30 is Mar 2).
std::optional<TimestampValue> parseJdbcTimestamp(string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  size_t space = text.find(' ');
  string_view date = text.substr(0, space);
  size_t firstDash = date.find('-');
  size_t secondDash = firstDash == string_view::npos ? firstDash : date.find('-', firstDash + 1);
  if (firstDash != 4 || secondDash == string_view::npos) return std::nullopt;
  auto number = [](string_view digits, size_t minimum, size_t maximum) -> std::optional<int64_t> {
    if (digits.size() < minimum || digits.size() > maximum) return std::nullopt;
    int64_t value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      value = value * 10 + (c - '0');
    }
    return value;
  };
  auto year = number(date.substr(0, 4), 4, 4);
  auto month = number(date.substr(5, secondDash - 5), 1, 2);
  auto day = number(date.substr(secondDash + 1), 1, 2);
  if (!year || !month || !day || *month < 1 || *month > 12 || *day < 1 || *day > 31) {
    return std::nullopt;
  }
  int64_t epochDay = calendar::daysFromCivil(*year, static_cast<int>(*month), 1) + *day - 1;
  if (space == string_view::npos) return TimestampValue{epochDay * kMillisPerDay, 0};
  string_view time = text.substr(space + 1);
  size_t firstColon = time.find(':');
  size_t secondColon =
      firstColon == string_view::npos ? firstColon : time.find(':', firstColon + 1);
  if (firstColon == string_view::npos || secondColon == string_view::npos) return std::nullopt;
  size_t period = time.find('.', secondColon + 1);
  auto hour = number(time.substr(0, firstColon), 1, 9);
  auto minute = number(time.substr(firstColon + 1, secondColon - firstColon - 1), 1, 9);
  auto second =
      number(time.substr(secondColon + 1, period == string_view::npos ? string_view::npos
                                                                      : period - secondColon - 1),
             1, 9);
  int64_t nanos = 0;
  if (period != string_view::npos) {
    auto fraction = number(time.substr(period + 1), 1, 9);
    if (!fraction) return std::nullopt;
    nanos = *fraction;
    for (size_t digit = time.size() - period - 1; digit < 9; ++digit) nanos *= 10;
  }
  if (!hour || !minute || !second) return std::nullopt;
  int64_t millis = epochDay * kMillisPerDay + *hour * calendar::kMillisPerHour +
                   *minute * calendar::kMillisPerMinute + *second * 1000 + nanos / 1'000'000;
  return TimestampValue{millis, static_cast<int32_t>(nanos % 1'000'000)};
}

// TO_TIMESTAMP(s): Flink's DEFAULT_TIMESTAMP_FORMATTER, 'yyyy-[M]M-[d]d[ [H]H:[m]m:[s]s[.f]]'.
std::optional<TimestampValue> parseDefaultTimestamp(string_view text) {
  size_t position = 0;
  auto digits = [&](size_t minimum, size_t maximum) -> std::optional<int64_t> {
    size_t start = position;
    int64_t value = 0;
    while (position < text.size() && position - start < maximum &&
           std::isdigit(static_cast<unsigned char>(text[position]))) {
      value = value * 10 + (text[position++] - '0');
    }
    if (position - start < minimum) return std::nullopt;
    return value;
  };
  auto literal = [&](char c) {
    if (position < text.size() && text[position] == c) {
      ++position;
      return true;
    }
    return false;
  };
  auto year = digits(4, 19);
  if (!year || !literal('-')) return std::nullopt;
  auto month = digits(1, 2);
  if (!month || !literal('-')) return std::nullopt;
  auto day = digits(1, 2);
  if (!day || *month < 1 || *month > 12 || *day < 1 || *day > 31) return std::nullopt;
  int64_t hour = 0, minute = 0, second = 0, nanos = 0;
  if (position < text.size()) {
    if (!literal(' ')) return std::nullopt;
    auto h = digits(1, 2);
    if (!h || !literal(':')) return std::nullopt;
    auto m = digits(1, 2);
    if (!m || !literal(':')) return std::nullopt;
    auto s = digits(1, 2);
    if (!s || *h > 23 || *m > 59 || *s > 59) return std::nullopt;
    hour = *h;
    minute = *m;
    second = *s;
    if (literal('.')) {
      size_t start = position;
      auto fraction = digits(0, 9);
      nanos = fraction.value_or(0);
      for (size_t digit = position - start; digit < 9; ++digit) nanos *= 10;
    }
    if (position != text.size()) return std::nullopt;
  }
  int dayOfMonth = static_cast<int>(
      std::min<int64_t>(*day, calendar::daysInMonth(*year, static_cast<int>(*month))));
  int64_t millis =
      calendar::daysFromCivil(*year, static_cast<int>(*month), dayOfMonth) * kMillisPerDay +
      ((hour * 60 + minute) * 60 + second) * 1000 + nanos / 1'000'000;
  return TimestampValue{millis, static_cast<int32_t>(nanos % 1'000'000)};
}

// TO_TIMESTAMP's precision 3: sub-millisecond digits are dropped.
std::optional<TimestampValue> toMilliseconds(std::optional<TimestampValue> value) {
  if (value) value->nanoOfMillisecond = 0;
  return value;
}

// Flink's DateTimeUtils.parseDate(String): 'yyyy[-m[-d]]' with anything after a space
// ignored; NULL for an invalid date.
std::optional<int32_t> parseDefaultDate(string_view text) {
  size_t space = text.find(' ');
  if (space != string_view::npos && space > 0) text = text.substr(0, space);
  auto integer = [](string_view part) -> std::optional<int64_t> {
    while (!part.empty() && std::isspace(static_cast<unsigned char>(part.front())))
      part.remove_prefix(1);
    while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back())))
      part.remove_suffix(1);
    if (part.empty() || part.size() > 9) return std::nullopt;
    int64_t value = 0;
    for (char c : part) {
      if (c < '0' || c > '9') return std::nullopt;
      value = value * 10 + (c - '0');
    }
    return value;
  };
  size_t firstDash = text.find('-');
  std::optional<int64_t> year, month = 1, day = 1;
  if (firstDash == string_view::npos) {
    year = integer(text);
  } else {
    year = integer(text.substr(0, firstDash));
    size_t secondDash = text.find('-', firstDash + 1);
    if (secondDash == string_view::npos) {
      month = integer(text.substr(firstDash + 1));
    } else {
      month = integer(text.substr(firstDash + 1, secondDash - firstDash - 1));
      day = integer(text.substr(secondDash + 1));
    }
  }
  if (!year || !month || !day || *year > 9999 || *month < 1 || *month > 12 || *day < 1 ||
      *day > calendar::daysInMonth(*year, static_cast<int>(*month))) {
    return std::nullopt;
  }
  return static_cast<int32_t>(
      calendar::daysFromCivil(*year, static_cast<int>(*month), static_cast<int>(*day)));
}

bool isStringOrNull(const LogicalType& type) { return isCharacterString(type) || isNullType(type); }

// Character arguments as STRING (an untyped NULL too).
LogicalTypePtr asString(const LogicalTypePtr& type) {
  return isNullType(*type) ? stringType(true) : type;
}

std::optional<BoundScalarFunction> bindDateFormat(const std::vector<LogicalTypePtr>& arguments,
                                                  const LiteralArguments&,
                                                  const BindingContext& context) {
  if (arguments.size() != 2 || !isStringOrNull(*arguments[1])) return std::nullopt;
  const LogicalTypePtr& value = arguments[0];
  LogicalTypePtr format = asString(arguments[1]);
  Root root = value->getTypeRoot();
  if (isCharacterString(*value)) {
    // DATE_FORMAT(string, f): parsed as 'yyyy-MM-dd HH:mm:ss', both with SimpleDateFormat.
    return BoundScalarFunction{
        {value, format},
        stringType(true),
        [](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
          DateTimePattern input =
              DateTimePattern::compile(kDefaultTimestampFormat, PatternDialect::kSimpleDateFormat);
          PatternCache output(PatternDialect::kSimpleDateFormat);
          return BinaryExecutor::execute<string_view, string_view, string_view>(
              values[0], values[1], type,
              [&](string_view text, string_view pattern) -> std::optional<std::string> {
                const DateTimePattern& compiled = output.get(pattern);
                std::optional<TimestampValue> parsed = input.parse(text);
                if (!parsed) return std::nullopt;
                return formatFields(compiled, fieldsOfTimestamp(parsed->millisecond, 0));
              });
        }};
  }
  LogicalTypePtr timestamp = value;
  if (root == Root::DATE) {
    timestamp = LogicalType::timestamp(3, TimestampKind::REGULAR, value->isNullable());
  } else if (!isTimestampRoot(root)) {
    return std::nullopt;
  }
  // An LTZ value is formatted as its wall-clock time in the session zone.
  std::optional<common::SessionTimeZone> zone;
  if (root == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE) zone = context.sessionTimeZone;
  return BoundScalarFunction{
      {timestamp, format},
      stringType(true),
      [zone](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        PatternCache cache(PatternDialect::kDateTimeFormatter);
        return BinaryExecutor::execute<TimestampValue, string_view, string_view>(
            values[0], values[1], type, [&](TimestampValue value, string_view pattern) {
              int64_t millis = zone ? zone->toLocalMillis(value.millisecond) : value.millisecond;
              return formatFields(cache.get(pattern),
                                  fieldsOfTimestamp(millis, value.nanoOfMillisecond));
            });
      }};
}

std::optional<BoundScalarFunction> bindToTimestamp(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.empty() || arguments.size() > 2) return std::nullopt;
  for (const LogicalTypePtr& argument : arguments) {
    if (!isStringOrNull(*argument)) return std::nullopt;
  }
  std::vector<LogicalTypePtr> types;
  for (const LogicalTypePtr& argument : arguments) types.push_back(asString(argument));
  LogicalTypePtr resultType = LogicalType::timestamp(3, TimestampKind::REGULAR, true);
  if (arguments.size() == 1) {
    return BoundScalarFunction{types, resultType,
                               unaryKernel<string_view, TimestampValue>([](string_view text) {
                                 return toMilliseconds(parseDefaultTimestamp(text));
                               })};
  }
  return BoundScalarFunction{
      types, resultType, [](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        PatternCache cache(PatternDialect::kDateTimeFormatter);
        return BinaryExecutor::execute<string_view, string_view, TimestampValue>(
            values[0], values[1], type, [&](string_view text, string_view pattern) {
              std::optional<TimestampValue> parsed = cache.get(pattern).parse(text);
              if (!parsed) parsed = parseJdbcTimestamp(text);
              return toMilliseconds(parsed);
            });
      }};
}

std::optional<BoundScalarFunction> bindToDate(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.empty() || arguments.size() > 2) return std::nullopt;
  for (const LogicalTypePtr& argument : arguments) {
    if (!isStringOrNull(*argument)) return std::nullopt;
  }
  std::vector<LogicalTypePtr> types;
  for (const LogicalTypePtr& argument : arguments) types.push_back(asString(argument));
  LogicalTypePtr resultType = LogicalType::simple(Root::DATE, true);
  if (arguments.size() == 1) {
    return BoundScalarFunction{types, resultType,
                               unaryKernel<string_view, int32_t>(parseDefaultDate)};
  }
  return BoundScalarFunction{
      types, resultType, [](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        PatternCache cache(PatternDialect::kSimpleDateFormat);
        return BinaryExecutor::execute<string_view, string_view, int32_t>(
            values[0], values[1], type,
            [&](string_view text, string_view pattern) -> std::optional<int32_t> {
              std::optional<TimestampValue> parsed = cache.get(pattern).parse(text);
              if (!parsed) return std::nullopt;
              return static_cast<int32_t>(floorDivide(parsed->millisecond, kMillisPerDay));
            });
      }};
}

std::optional<BoundScalarFunction> bindUnixTimestamp(const std::vector<LogicalTypePtr>& arguments,
                                                     const LiteralArguments&,
                                                     const BindingContext& context) {
  const common::SessionTimeZone& zone = context.sessionTimeZone;
  if (arguments.empty()) {
    return BoundScalarFunction{{}, bigintType(false), currentTimeKernel(Root::BIGINT, zone)};
  }
  if (arguments.size() > 2) return std::nullopt;
  for (const LogicalTypePtr& argument : arguments) {
    if (!isStringOrNull(*argument)) return std::nullopt;
  }
  std::vector<LogicalTypePtr> types;
  for (const LogicalTypePtr& argument : arguments) types.push_back(asString(argument));
  // Seconds of the text read as a wall-clock time in the session zone, unless the pattern
  // parses a zone of its own (truncated toward zero, Java's division); Long.MIN_VALUE when the
  // text does not parse, as Flink documents.
  auto seconds = [zone](const DateTimePattern& pattern, string_view text) {
    std::optional<TimestampValue> parsed = pattern.parse(text);
    if (!parsed) return std::numeric_limits<int64_t>::min();
    return (pattern.hasZone() ? parsed->millisecond : zone.toEpochMillis(parsed->millisecond)) /
           1000;
  };
  LogicalTypePtr resultType = bigintType(anyNullable(types));
  if (arguments.size() == 1) {
    return BoundScalarFunction{
        types, resultType,
        [seconds](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
          DateTimePattern pattern =
              DateTimePattern::compile(kDefaultTimestampFormat, PatternDialect::kSimpleDateFormat);
          return UnaryExecutor::execute<string_view, int64_t>(
              values[0], type, [&](string_view text) { return seconds(pattern, text); });
        }};
  }
  return BoundScalarFunction{
      types, resultType,
      [seconds](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        PatternCache cache(PatternDialect::kSimpleDateFormat);
        return BinaryExecutor::execute<string_view, string_view, int64_t>(
            values[0], values[1], type, [&](string_view text, string_view pattern) {
              return seconds(cache.get(pattern), text);
            });
      }};
}

std::optional<BoundScalarFunction> bindFromUnixTime(const std::vector<LogicalTypePtr>& arguments,
                                                    const LiteralArguments&,
                                                    const BindingContext& context) {
  if (arguments.empty() || arguments.size() > 2) return std::nullopt;
  if (!isNullType(*arguments[0]) && !isNumeric(*arguments[0])) return std::nullopt;
  std::vector<LogicalTypePtr> types{bigintType(arguments[0]->isNullable())};
  if (arguments.size() == 2) {
    if (!isStringOrNull(*arguments[1])) return std::nullopt;
    types.push_back(asString(arguments[1]));
  }
  // The instant's wall-clock time in the session zone.
  auto format = [zone = context.sessionTimeZone](const DateTimePattern& pattern, int64_t seconds) {
    int64_t millis = static_cast<int64_t>(static_cast<uint64_t>(seconds) * 1000);
    return formatFields(pattern, fieldsOfTimestamp(zone.toLocalMillis(millis), 0));
  };
  if (types.size() == 1) {
    return BoundScalarFunction{
        types, stringType(true),
        [format](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
          DateTimePattern pattern =
              DateTimePattern::compile(kDefaultTimestampFormat, PatternDialect::kSimpleDateFormat);
          return UnaryExecutor::execute<int64_t, string_view>(
              values[0], type, [&](int64_t seconds) { return format(pattern, seconds); });
        }};
  }
  return BoundScalarFunction{
      types, stringType(true),
      [format](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        PatternCache cache(PatternDialect::kSimpleDateFormat);
        return BinaryExecutor::execute<int64_t, string_view, string_view>(
            values[0], values[1], type, [&](int64_t seconds, string_view pattern) {
              return format(cache.get(pattern), seconds);
            });
      }};
}

// TO_TIMESTAMP_LTZ(numeric [, precision]): epoch seconds (precision 0) or milliseconds (3),
// NULL outside years 0000..9999 (Flink's DateTimeUtils.toTimestampData).
std::optional<TimestampValue> epochToTimestamp(double value, int32_t precision) {
  constexpr int64_t kMinMillis = -62167219200000LL;
  constexpr int64_t kMaxMillis = 253402300799999LL;
  int64_t millis;
  if (precision == 0) {
    if (!(value >= -62167219200.0 && value <= 253402300799.0)) return std::nullopt;
    millis = static_cast<int64_t>(value * 1000);
  } else if (precision == 3) {
    if (!(value >= -9.2e18 && value <= 9.2e18)) return std::nullopt;
    millis = static_cast<int64_t>(value);
  } else {
    throw TableException(
        fmt::format("The precision value '{}' for function TO_TIMESTAMP_LTZ(numeric, precision) is "
                    "unsupported, the supported value is '0' for second or '3' for millisecond.",
                    precision));
  }
  if (millis < kMinMillis || millis > kMaxMillis) return std::nullopt;
  return TimestampValue{millis, 0};
}

std::optional<BoundScalarFunction> bindToTimestampLtz(
    const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.empty() || arguments.size() > 2) return std::nullopt;
  const LogicalTypePtr& value = arguments[0];
  if (!isNullType(*value) && !isNumeric(*value)) return std::nullopt;
  std::vector<LogicalTypePtr> types{LogicalType::simple(Root::DOUBLE, value->isNullable())};
  bool integral = isIntegral(*value);
  if (integral) types[0] = bigintType(value->isNullable());
  if (arguments.size() == 2) {
    if (!isNullType(*arguments[1]) && !isIntegral(*arguments[1])) return std::nullopt;
    types.push_back(LogicalType::simple(Root::INTEGER, arguments[1]->isNullable()));
  }
  LogicalTypePtr resultType = LogicalType::localZonedTimestamp(3, TimestampKind::REGULAR, true);
  ScalarKernel kernel = [integral](const std::vector<KernelVector>& values,
                                   const LogicalTypePtr& type) {
    KernelVector precision = values.size() == 2
                                 ? values[1]
                                 : KernelVector::constant(LogicalType::simple(Root::INTEGER),
                                                          Value(int32_t{3}), values[0].size());
    if (integral) {
      return BinaryExecutor::execute<int64_t, int32_t, TimestampValue>(
          values[0], precision, type, [](int64_t number, int32_t digits) {
            if (digits == 3) {  // exact for every long
              if (number < -62167219200000LL || number > 253402300799999LL) {
                return std::optional<TimestampValue>();
              }
              return std::optional<TimestampValue>(TimestampValue{number, 0});
            }
            return epochToTimestamp(static_cast<double>(number), digits);
          });
    }
    return BinaryExecutor::execute<double, int32_t, TimestampValue>(values[0], precision, type,
                                                                    epochToTimestamp);
  };
  return BoundScalarFunction{types, resultType, kernel};
}

}  // namespace

bool isInterval(const LogicalType& type) {
  return type.getTypeRoot() == Root::INTERVAL_YEAR_MONTH ||
         type.getTypeRoot() == Root::INTERVAL_DAY_TIME;
}

std::optional<BoundScalarFunction> bindTemporalArithmetic(
    bool minus, const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() == 1) {
    const LogicalTypePtr& type = arguments[0];
    if (type->getTypeRoot() == Root::INTERVAL_YEAR_MONTH) {
      if (!minus)
        return boundAs(arguments, type,
                       [](const std::vector<KernelVector>& values, const LogicalTypePtr&) {
                         return values[0];
                       });
      return boundAs(arguments, type, unaryKernel<int32_t, int32_t>([](int32_t months) {
                       return static_cast<int32_t>(0u - static_cast<uint32_t>(months));
                     }));
    }
    if (type->getTypeRoot() == Root::INTERVAL_DAY_TIME) {
      if (!minus)
        return boundAs(arguments, type,
                       [](const std::vector<KernelVector>& values, const LogicalTypePtr&) {
                         return values[0];
                       });
      return boundAs(arguments, type,
                     unaryKernel<TimestampValue, TimestampValue>([](TimestampValue value) {
                       int64_t nanos = -int64_t{value.nanoOfMillisecond};
                       return TimestampValue{-value.millisecond + floorDivide(nanos, 1'000'000),
                                             static_cast<int32_t>(floorModulo(nanos, 1'000'000))};
                     }));
    }
    return std::nullopt;
  }
  if (arguments.size() != 2) return std::nullopt;
  LogicalTypePtr left = arguments[0];
  LogicalTypePtr right = arguments[1];
  bool nullable = left->isNullable() || right->isNullable();
  Root leftRoot = left->getTypeRoot();
  Root rightRoot = right->getTypeRoot();
  // interval ± interval of one family.
  if (isInterval(*left) && leftRoot == rightRoot) {
    int sign = minus ? -1 : 1;
    if (leftRoot == Root::INTERVAL_YEAR_MONTH) {
      return BoundScalarFunction{
          arguments, left->copy(nullable),
          binaryKernel<int32_t, int32_t, int32_t>([sign](int32_t a, int32_t b) {
            return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(sign * b));
          })};
    }
    return BoundScalarFunction{
        arguments, left->copy(nullable),
        binaryKernel<TimestampValue, TimestampValue, TimestampValue>(
            [sign](TimestampValue a, TimestampValue b) {
              int64_t nanos = a.nanoOfMillisecond + sign * int64_t{b.nanoOfMillisecond};
              return TimestampValue{
                  a.millisecond + sign * b.millisecond + floorDivide(nanos, 1'000'000),
                  static_cast<int32_t>(floorModulo(nanos, 1'000'000))};
            })};
  }
  bool swap = !minus && isInterval(*left) && isDatetimeRoot(rightRoot);
  if (swap) {
    std::swap(left, right);
    std::swap(leftRoot, rightRoot);
  }
  if (!isDatetimeRoot(leftRoot) || !isInterval(*right)) return std::nullopt;
  LogicalTypePtr resultType = left->copy(nullable);
  if (isTimestampRoot(leftRoot))
    resultType = resultType->copyWithTimestampKind(TimestampKind::REGULAR);
  ScalarKernel kernel =
      plusIntervalKernel(leftRoot, rightRoot == Root::INTERVAL_YEAR_MONTH, minus ? -1 : 1);
  return BoundScalarFunction{arguments, resultType, swap ? swapped(kernel) : kernel};
}

std::optional<BoundScalarFunction> bindTemporalFloorCeil(
    bool ceil, const std::vector<LogicalTypePtr>& arguments, const LiteralArguments& literals,
    const common::SessionTimeZone& zone) {
  if (arguments.size() != 2) return std::nullopt;
  std::optional<TimeUnit> unit = unitArgument(*arguments[1], literals[1]);
  if (!unit || !calendar::isFloorCeilUnit(*unit)) return std::nullopt;
  const LogicalTypePtr& value = arguments[0];
  TimeUnit timeUnit = *unit;
  ScalarKernel kernel;
  switch (value->getTypeRoot()) {
    case Root::DATE:
      if (!calendar::isDateUnit(timeUnit)) return std::nullopt;
      kernel = unaryKernel<int32_t, int32_t>([timeUnit, ceil](int32_t day) {
        return static_cast<int32_t>(ceil ? calendar::ceilDate(timeUnit, day)
                                         : calendar::floorDate(timeUnit, day));
      });
      break;
    case Root::TIME_WITHOUT_TIME_ZONE:
      if (calendar::isDateUnit(timeUnit)) return std::nullopt;
      kernel = unaryKernel<int64_t, int64_t>([timeUnit, ceil](int64_t nanoOfDay) {
        int64_t millis = nanoOfDay / calendar::kNanosPerMilli;
        bool exact = nanoOfDay % calendar::kNanosPerMilli == 0;
        int64_t rounded = ceil ? calendar::ceilMillis(timeUnit, millis + (exact ? 0 : 1))
                               : calendar::floorMillis(timeUnit, millis);
        return floorModulo(rounded, kMillisPerDay) * calendar::kNanosPerMilli;
      });
      break;
    case Root::TIMESTAMP_WITHOUT_TIME_ZONE:
      // As Flink, on epoch milliseconds: the sub-millisecond digits are dropped.
      kernel = unaryKernel<TimestampValue, TimestampValue>([timeUnit, ceil](TimestampValue v) {
        return TimestampValue{ceil ? calendar::ceilMillis(timeUnit, v.millisecond)
                                   : calendar::floorMillis(timeUnit, v.millisecond),
                              0};
      });
      break;
    case Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      // Rounded on the wall clock of the session zone, then read back as an instant.
      kernel =
          unaryKernel<TimestampValue, TimestampValue>([timeUnit, ceil, zone](TimestampValue v) {
            int64_t local = zone.toLocalMillis(v.millisecond);
            int64_t rounded = ceil ? calendar::ceilMillis(timeUnit, local)
                                   : calendar::floorMillis(timeUnit, local);
            return TimestampValue{zone.toEpochMillis(rounded), 0};
          });
      break;
    default:
      return std::nullopt;
  }
  LogicalTypePtr resultType = value;
  if (isTimestampRoot(value->getTypeRoot())) {
    resultType = value->copyWithTimestampKind(TimestampKind::REGULAR);
  }
  return BoundScalarFunction{arguments, resultType, kernel};
}

void registerTemporalFunctions(FunctionRegistry& registry) {
  LogicalTypePtr timestampLtz = LogicalType::localZonedTimestamp(3, TimestampKind::REGULAR, false);
  addCurrentTimeFunction(registry, "CURRENT_TIMESTAMP", timestampLtz);
  addCurrentTimeFunction(registry, "NOW", timestampLtz);
  addCurrentTimeFunction(registry, "CURRENT_ROW_TIMESTAMP", timestampLtz);
  // PROCTIME(): the processing time of each row, a processing-time attribute.
  registry.add(ScalarFunction(
      "CURRENT_WATERMARK", FunctionSyntax::kFunction, {"'CURRENT_WATERMARK(<ROWTIME>)'"},
      [](const std::vector<LogicalTypePtr>& arguments, const LiteralArguments&,
         const BindingContext&) -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 1 ||
            arguments[0]->getTimestampKind() != TimestampKind::ROWTIME) {
          return std::nullopt;
        }
        LogicalTypePtr type = arguments[0]->getTypeRoot() == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE
                                  ? LogicalType::localZonedTimestamp(3)
                                  : LogicalType::timestamp(3);
        return BoundScalarFunction{{arguments[0]}, type, currentWatermarkKernel()};
      },
      /*deterministic=*/false));
  addCurrentTimeFunction(registry, "PROCTIME",
                         LogicalType::localZonedTimestamp(3, TimestampKind::PROCTIME, false));
  addCurrentTimeFunction(registry, "LOCALTIMESTAMP",
                         LogicalType::timestamp(3, TimestampKind::REGULAR, false));
  addCurrentTimeFunction(registry, "CURRENT_DATE", LogicalType::simple(Root::DATE, false));
  addCurrentTimeFunction(registry, "CURRENT_TIME", LogicalType::time(0, false));
  addCurrentTimeFunction(registry, "LOCALTIME", LogicalType::time(0, false));

  registry.add(ScalarFunction(
      "EXTRACT", FunctionSyntax::kFunction, {"'EXTRACT(<DATETIME_INTERVAL> FROM <DATETIME>)'"},
      [](const std::vector<LogicalTypePtr>& arguments, const LiteralArguments& literals,
         const BindingContext& context) -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 2) return std::nullopt;
        std::optional<TimeUnit> unit = unitArgument(*arguments[0], literals[0]);
        if (!unit) return std::nullopt;
        auto bound = bindExtract(*unit, arguments[1], context.sessionTimeZone);
        if (!bound) return std::nullopt;
        ScalarKernel inner = bound->kernel;
        return BoundScalarFunction{
            {arguments[0], arguments[1]},
            bound->returnType,
            [inner](const std::vector<KernelVector>& values, const LogicalTypePtr& type,
                    EvaluationContext& evaluation) { return inner({values[1]}, type, evaluation); }};
      }));
  addFieldFunction(registry, "YEAR", TimeUnit::kYear, false);
  addFieldFunction(registry, "QUARTER", TimeUnit::kQuarter, false);
  addFieldFunction(registry, "MONTH", TimeUnit::kMonth, false);
  addFieldFunction(registry, "WEEK", TimeUnit::kWeek, false);
  addFieldFunction(registry, "DAYOFYEAR", TimeUnit::kDoy, false);
  addFieldFunction(registry, "DAYOFMONTH", TimeUnit::kDay, false);
  addFieldFunction(registry, "DAYOFWEEK", TimeUnit::kDow, false);
  addFieldFunction(registry, "HOUR", TimeUnit::kHour, true);
  addFieldFunction(registry, "MINUTE", TimeUnit::kMinute, true);
  addFieldFunction(registry, "SECOND", TimeUnit::kSecond, true);

  registry.add(ScalarFunction("TIMESTAMPADD", FunctionSyntax::kFunction,
                              {"'TIMESTAMPADD(<ANY>, <INTEGER>, <DATETIME>)'"}, bindTimestampAdd));
  registry.add(ScalarFunction("TIMESTAMPDIFF", FunctionSyntax::kFunction,
                              {"'TIMESTAMPDIFF(<ANY>, <DATETIME>, <DATETIME>)'"},
                              bindTimestampDiff));
  registry.add(
      ScalarFunction("DATE_FORMAT", FunctionSyntax::kFunction,
                     {"'DATE_FORMAT(<TIMESTAMP>, <STRING>)'", "'DATE_FORMAT(<STRING>, <STRING>)'"},
                     bindDateFormat));
  registry.add(
      ScalarFunction("TO_TIMESTAMP", FunctionSyntax::kFunction,
                     {"'TO_TIMESTAMP(<CHARACTER>)'", "'TO_TIMESTAMP(<CHARACTER>, <CHARACTER>)'"},
                     bindToTimestamp));
  registry.add(ScalarFunction("TO_DATE", FunctionSyntax::kFunction,
                              {"'TO_DATE(<CHARACTER>)'", "'TO_DATE(<CHARACTER>, <CHARACTER>)'"},
                              bindToDate));
  registry.add(ScalarFunction("UNIX_TIMESTAMP", FunctionSyntax::kFunction,
                              {"'UNIX_TIMESTAMP()'", "'UNIX_TIMESTAMP(<CHARACTER>)'",
                               "'UNIX_TIMESTAMP(<CHARACTER>, <CHARACTER>)'"},
                              bindUnixTimestamp, /*deterministic=*/false));
  registry.add(ScalarFunction(
      "FROM_UNIXTIME", FunctionSyntax::kFunction,
      {"'FROM_UNIXTIME(<NUMERIC>)'", "'FROM_UNIXTIME(<NUMERIC>, <STRING>)'"}, bindFromUnixTime));
  registry.add(
      ScalarFunction("TO_TIMESTAMP_LTZ", FunctionSyntax::kFunction,
                     {"'TO_TIMESTAMP_LTZ(<NUMERIC>)'", "'TO_TIMESTAMP_LTZ(<NUMERIC>, <INTEGER>)'"},
                     bindToTimestampLtz));
}

}  // namespace eddy::function
