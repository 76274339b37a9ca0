// CAST / TRY_CAST kernels (see cast.h). Each source/target pair is one typed operation run
// through the UnaryExecutor; failures go through CastContext::fail, which throws for CAST and
// yields NULL for TRY_CAST.
#include "function/scalar/cast.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "eddy/row.h"
#include "function/scalar/scalar_function_builders.h"

namespace eddy::function {
namespace {

using Root = LogicalTypeRoot;
using std::string_view;

constexpr int64_t kMillisPerDay = 86'400'000;
constexpr int64_t kNanosPerMilli = 1'000'000;

struct CastContext {
  LogicalTypePtr target;
  bool tryCast;

  // Throws for CAST; returns the NULL result for TRY_CAST.
  template <typename T>
  std::optional<T> fail(const std::string& shownValue, const std::string& reason) const {
    if (tryCast) return std::nullopt;
    throw TableException(fmt::format("CAST({} AS {}) failed: {}.", shownValue,
                                     typeNameInMessage(*target), reason));
  }
};

std::string quoted(string_view text) { return fmt::format("'{}'", text); }

string_view trimWhitespace(string_view text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

// Java's (long) of a double: NaN → 0, saturating at the long range.
int64_t javaDoubleToLong(double value) {
  if (std::isnan(value)) return 0;
  if (value >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (value <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(value);
}

// Java's (int)/(short)/(byte) of a double: (int) saturates, narrower types wrap from int.
template <typename T>
T javaDoubleToIntegral(double value) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return javaDoubleToLong(value);
  } else {
    int32_t asInt;
    if (std::isnan(value)) {
      asInt = 0;
    } else if (value >= 2147483647.0) {
      asInt = std::numeric_limits<int32_t>::max();
    } else if (value <= -2147483648.0) {
      asInt = std::numeric_limits<int32_t>::min();
    } else {
      asInt = static_cast<int32_t>(value);
    }
    return static_cast<T>(asInt);
  }
}

// Flink's BinaryStringDataUtil.toLong: trimmed, optional sign, digits, optionally '.' and more
// digits (dropped). nullopt when malformed or out of the range of T.
template <typename T>
std::optional<T> parseIntegral(string_view text) {
  text = trimWhitespace(text);
  if (text.empty()) return std::nullopt;
  bool negative = text[0] == '-';
  size_t position = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (position == text.size()) return std::nullopt;
  __int128 value = 0;
  bool anyDigit = false;
  for (; position < text.size(); ++position) {
    char c = text[position];
    if (c == '.') break;
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
    anyDigit = true;
    if (value > (__int128(1) << 64)) return std::nullopt;
  }
  if (position < text.size()) {  // a fraction: digits only, truncated
    for (++position; position < text.size(); ++position) {
      if (text[position] < '0' || text[position] > '9') return std::nullopt;
    }
  }
  if (!anyDigit) return std::nullopt;
  if (negative) value = -value;
  if (value < std::numeric_limits<T>::min() || value > std::numeric_limits<T>::max()) {
    return std::nullopt;
  }
  return static_cast<T>(value);
}

std::optional<double> parseDouble(string_view text) {
  text = trimWhitespace(text);
  if (text.empty()) return std::nullopt;
  std::string copy(text);
  if (copy == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (copy == "Infinity" || copy == "+Infinity") return std::numeric_limits<double>::infinity();
  if (copy == "-Infinity") return -std::numeric_limits<double>::infinity();
  // Java accepts a trailing type suffix (1.5d, 2f).
  if (copy.back() == 'd' || copy.back() == 'D' || copy.back() == 'f' || copy.back() == 'F') {
    copy.pop_back();
  }
  for (char c : copy) {
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
      return std::nullopt;
    }
  }
  char* end = nullptr;
  double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || copy.empty()) return std::nullopt;
  return value;
}

std::optional<bool> parseBoolean(string_view text) {
  std::string lower(trimWhitespace(text));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true" || lower == "t" || lower == "yes" || lower == "y" || lower == "1") {
    return true;
  }
  if (lower == "false" || lower == "f" || lower == "no" || lower == "n" || lower == "0") {
    return false;
  }
  return std::nullopt;
}

// Shortest digits and exponent of a finite non-zero floating value: value = d.ddd × 10^exp.
template <typename F>
std::string javaFloatingToString(F value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  char buffer[64];
  auto [end, error] =
      std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  (void)error;
  string_view text(buffer, static_cast<size_t>(end - buffer));
  bool negative = text[0] == '-';
  size_t exponentAt = text.find('e');
  int exponent = std::stoi(std::string(text.substr(exponentAt + 1)));
  std::string digits;
  for (char c : text.substr(0, exponentAt)) {
    if (c >= '0' && c <= '9') digits.push_back(c);
  }
  std::string result = negative ? "-" : "";
  F magnitude = std::fabs(value);
  if (magnitude >= F(1e-3) && magnitude < F(1e7)) {
    if (exponent >= 0) {
      std::string integerPart = digits.substr(0, std::min(digits.size(), size_t(exponent + 1)));
      while (integerPart.size() < size_t(exponent + 1)) integerPart.push_back('0');
      std::string fraction = digits.size() > size_t(exponent + 1)
                                 ? digits.substr(static_cast<size_t>(exponent + 1))
                                 : "0";
      result += integerPart + "." + fraction;
    } else {
      result += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    }
  } else {
    result += digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0") + "E" +
              std::to_string(exponent);
  }
  return result;
}

std::string fractionDigits(int64_t nanoOfSecond, int precision) {
  if (precision <= 0) return "";
  std::string nanos = fmt::format("{:09d}", nanoOfSecond);
  return "." + nanos.substr(0, static_cast<size_t>(std::min(precision, 9)));
}

std::string timeToString(int64_t nanoOfDay, int precision) {
  LocalTime time = LocalTime::ofNanoOfDay(nanoOfDay);
  return fmt::format("{:02d}:{:02d}:{:02d}{}", time.getHour(), time.getMinute(), time.getSecond(),
                     fractionDigits(time.getNano(), precision));
}

std::string timestampToString(TimestampValue value, int precision) {
  LocalDateTime dateTime = LocalDateTime::ofEpochMillis(value.millisecond, value.nanoOfMillisecond);
  return dateTime.toLocalDate().toString() + " " +
         timeToString(dateTime.toLocalTime().toNanoOfDay(), precision);
}

// Flink's DateTimeUtils.intervalYearMonthToString: a sign, the years, '-' and two-digit months
// (`+1-00`, `-0-06`), whatever the interval's declared resolution.
std::string intervalYearMonthToString(int32_t totalMonths) {
  int64_t months = totalMonths;
  const char* sign = months < 0 ? "-" : "+";
  if (months < 0) months = -months;
  return fmt::format("{}{}-{:02d}", sign, months / 12, months % 12);
}

// Flink's DateTimeUtils.intervalDayTimeToString: a sign, the days, then HH:mm:ss.SSS
// (`+1 00:00:00.000`, `-0 01:30:00.000`).
std::string intervalDayTimeToString(TimestampValue value) {
  __int128 millis = value.millisecond;
  const char* sign = millis < 0 ? "-" : "+";
  if (millis < 0) millis = -millis;
  auto whole = static_cast<int64_t>(millis / 1000);
  return fmt::format("{}{} {:02d}:{:02d}:{:02d}.{:03d}", sign, whole / 86400, whole / 3600 % 24,
                     whole / 60 % 60, whole % 60, static_cast<int64_t>(millis % 1000));
}

// Truncates sub-second digits beyond `precision`.
int64_t truncateNanos(int64_t nanos, int precision) {
  int64_t unit = 1;
  for (int digit = precision; digit < 9; ++digit) unit *= 10;
  return nanos - types::floorModulo(nanos, unit);
}

TimestampValue truncateTimestamp(TimestampValue value, int precision) {
  int64_t nanosOfSecond = types::floorModulo(value.millisecond, 1000) * kNanosPerMilli +
                          value.nanoOfMillisecond;
  int64_t truncated = truncateNanos(nanosOfSecond, precision);
  int64_t secondStart = value.millisecond - types::floorModulo(value.millisecond, 1000);
  return TimestampValue{secondStart + truncated / kNanosPerMilli,
                        static_cast<int32_t>(truncated % kNanosPerMilli)};
}

// CHAR(n) pads with spaces and VARCHAR(n) truncates, counting code points.
std::string fitLength(std::string text, const LogicalType& target) {
  if (!isCharacterString(target)) return text;
  int64_t length = target.getLength();
  int64_t count = 0;
  size_t offset = 0;
  while (offset < text.size() && count < length) {
    unsigned char lead = static_cast<unsigned char>(text[offset]);
    offset += lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : 4;
    ++count;
  }
  if (offset < text.size()) text.resize(offset);
  if (target.getTypeRoot() == Root::CHAR && count < length) {
    text.append(static_cast<size_t>(length - count), ' ');
  }
  return text;
}

bool isStringLike(const LogicalType& type) {
  return isCharacterString(type) || isBinaryString(type);
}

// --- Casts by target. ---

// One numeric (or BOOLEAN) value converted to another numeric type.
template <typename Source, typename Target>
std::optional<Target> convertNumeric(Source value, const LogicalType& from, const LogicalType& to,
                                     const CastContext& context) {
  if constexpr (std::is_same_v<Source, __int128>) {
    int scale = from.getScale();
    if constexpr (std::is_same_v<Target, __int128>) {
      std::optional<__int128> rescaled =
          decimal::rescale(value, scale, to.getScale(), to.getPrecision());
      if (!rescaled) {
        return context.fail<__int128>(decimal::toPlainString(value, scale),
                                      "the value does not fit " + typeNameInMessage(to));
      }
      return rescaled;
    } else if constexpr (std::is_same_v<Target, bool>) {
      return value != 0;
    } else if constexpr (std::is_floating_point_v<Target>) {
      return static_cast<Target>(Decimal::fromUnscaled(value, 38, scale).toDouble());
    } else {
      // BigDecimal.longValue(): truncate, then keep the low bits.
      return static_cast<Target>(
          static_cast<int64_t>(decimal::scaleDownTruncate(value, scale)));
    }
  } else if constexpr (std::is_floating_point_v<Source>) {
    if constexpr (std::is_same_v<Target, __int128>) {
      if (!std::isfinite(value)) {
        return context.fail<__int128>(javaDoubleToString(value),
                                      "the value does not fit " + typeNameInMessage(to));
      }
      std::string text = std::is_same_v<Source, float>
                             ? javaFloatToString(static_cast<float>(value))
                             : javaDoubleToString(static_cast<double>(value));
      try {
        return Decimal::fromString(text, to.getPrecision(), to.getScale()).unscaledValue();
      } catch (const ValidationException&) {
        return context.fail<__int128>(text, "the value does not fit " + typeNameInMessage(to));
      }
    } else if constexpr (std::is_same_v<Target, bool>) {
      return value != 0;
    } else if constexpr (std::is_floating_point_v<Target>) {
      return static_cast<Target>(value);
    } else {
      return javaDoubleToIntegral<Target>(static_cast<double>(value));
    }
  } else {
    // bool or an integer.
    if constexpr (std::is_same_v<Target, __int128>) {
      std::optional<__int128> scaled = decimal::scaleUp(value, to.getScale());
      if (!scaled || !decimal::fitsPrecision(*scaled, to.getPrecision())) {
        return context.fail<__int128>(fmt::format("{}", static_cast<int64_t>(value)),
                                      "the value does not fit " + typeNameInMessage(to));
      }
      return scaled;
    } else if constexpr (std::is_same_v<Target, bool>) {
      return value != 0;
    } else {
      return static_cast<Target>(value);  // Java's narrowing keeps the low bits
    }
  }
}

template <typename Target>
KernelVector castToNumeric(const KernelVector& input, const CastContext& context) {
  const LogicalType& from = *input.type();
  const LogicalType& to = *context.target;
  const LogicalTypePtr& target = context.target;
  if (isCharacterString(from)) {
    return UnaryExecutor::execute<string_view, Target>(
        input, target, [&](string_view text) -> std::optional<Target> {
          if constexpr (std::is_same_v<Target, bool>) {
            std::optional<bool> parsed = parseBoolean(text);
            if (!parsed) return context.fail<bool>(quoted(text), quoted(text) + " is not a valid BOOLEAN");
            return parsed;
          } else if constexpr (std::is_same_v<Target, __int128>) {
            try {
              return Decimal::fromString(trimWhitespace(text), to.getPrecision(), to.getScale())
                  .unscaledValue();
            } catch (const ValidationException&) {
              return context.fail<__int128>(
                  quoted(text),
                  quoted(text) + " is not a valid " + typeNameInMessage(to) + " value");
            }
          } else if constexpr (std::is_floating_point_v<Target>) {
            std::optional<double> parsed = parseDouble(text);
            if (!parsed) {
              return context.fail<Target>(quoted(text), quoted(text) + " is not a valid " +
                                                            typeNameInMessage(to));
            }
            return static_cast<Target>(*parsed);
          } else {
            std::optional<Target> parsed = parseIntegral<Target>(text);
            if (!parsed) {
              return context.fail<Target>(quoted(text), quoted(text) + " is not a valid " +
                                                            typeNameInMessage(to));
            }
            return parsed;
          }
        });
  }
  return dispatchNumeric(from, [&](auto tag) -> KernelVector {
    using Source = typename decltype(tag)::type;
    return UnaryExecutor::execute<Source, Target>(input, target, [&](Source value) {
      return convertNumeric<Source, Target>(value, from, to, context);
    });
  });
}

KernelVector castToString(const KernelVector& input, const CastContext& context) {
  const LogicalType& from = *input.type();
  const LogicalType& to = *context.target;
  auto fit = [&to](std::string text) { return fitLength(std::move(text), to); };
  switch (from.getTypeRoot()) {
    case Root::CHAR:
    case Root::VARCHAR:
    case Root::BINARY:
    case Root::VARBINARY:
      return UnaryExecutor::execute<string_view, string_view>(
          input, context.target, [&](string_view text) { return fit(std::string(text)); });
    case Root::BOOLEAN:
      return UnaryExecutor::execute<bool, string_view>(
          input, context.target, [&](bool value) { return fit(value ? "TRUE" : "FALSE"); });
    case Root::FLOAT:
      return UnaryExecutor::execute<float, string_view>(
          input, context.target, [&](float value) { return fit(javaFloatToString(value)); });
    case Root::DOUBLE:
      return UnaryExecutor::execute<double, string_view>(
          input, context.target, [&](double value) { return fit(javaDoubleToString(value)); });
    case Root::DECIMAL: {
      int scale = from.getScale();
      return UnaryExecutor::execute<__int128, string_view>(
          input, context.target,
          [&, scale](__int128 value) { return fit(decimal::toPlainString(value, scale)); });
    }
    case Root::TINYINT:
    case Root::SMALLINT:
    case Root::INTEGER:
    case Root::BIGINT:
      return dispatchNumeric(from, [&](auto tag) {
        using Source = typename decltype(tag)::type;
        return UnaryExecutor::execute<Source, string_view>(
            input, context.target,
            [&](Source value) { return fit(std::to_string(static_cast<int64_t>(value))); });
      });
    case Root::DATE:
      return UnaryExecutor::execute<int32_t, string_view>(
          input, context.target,
          [&](int32_t day) { return fit(LocalDate::ofEpochDay(day).toString()); });
    case Root::TIME_WITHOUT_TIME_ZONE: {
      int precision = from.getPrecision();
      return UnaryExecutor::execute<int64_t, string_view>(
          input, context.target,
          [&, precision](int64_t nanos) { return fit(timeToString(nanos, precision)); });
    }
    case Root::TIMESTAMP_WITHOUT_TIME_ZONE: {
      int precision = from.getPrecision();
      return UnaryExecutor::execute<TimestampValue, string_view>(
          input, context.target, [&, precision](TimestampValue value) {
            return fit(timestampToString(value, precision));
          });
    }
    case Root::INTERVAL_YEAR_MONTH:
      return UnaryExecutor::execute<int32_t, string_view>(
          input, context.target,
          [&](int32_t months) { return fit(intervalYearMonthToString(months)); });
    case Root::INTERVAL_DAY_TIME:
      return UnaryExecutor::execute<TimestampValue, string_view>(
          input, context.target,
          [&](TimestampValue value) { return fit(intervalDayTimeToString(value)); });
    default:
      break;
  }
  throw InternalError("unsupported cast to string from " + from.asSummaryString());
}

KernelVector castToTemporal(const KernelVector& input, const CastContext& context) {
  const LogicalType& from = *input.type();
  const LogicalType& to = *context.target;
  const LogicalTypePtr& target = context.target;
  Root toRoot = to.getTypeRoot();
  int precision = to.getPrecision();
  if (isCharacterString(from)) {
    auto invalid = [&](string_view text) {
      return quoted(text) + " is not a valid " + typeNameInMessage(to);
    };
    if (toRoot == Root::DATE) {
      return UnaryExecutor::execute<string_view, int32_t>(
          input, target, [&](string_view text) -> std::optional<int32_t> {
            try {
              return static_cast<int32_t>(LocalDate::parse(trimWhitespace(text)).toEpochDay());
            } catch (const ValidationException&) {
              return context.fail<int32_t>(quoted(text), invalid(text));
            }
          });
    }
    if (toRoot == Root::TIME_WITHOUT_TIME_ZONE) {
      return UnaryExecutor::execute<string_view, int64_t>(
          input, target, [&](string_view text) -> std::optional<int64_t> {
            try {
              return truncateNanos(LocalTime::parse(trimWhitespace(text)).toNanoOfDay(),
                                   precision);
            } catch (const ValidationException&) {
              return context.fail<int64_t>(quoted(text), invalid(text));
            }
          });
    }
    return UnaryExecutor::execute<string_view, TimestampValue>(
        input, target, [&](string_view text) -> std::optional<TimestampValue> {
          try {
            string_view trimmed = trimWhitespace(text);
            LocalDateTime parsed = trimmed.size() == 10
                                       ? LocalDateTime::of(LocalDate::parse(trimmed), LocalTime())
                                       : LocalDateTime::parse(trimmed);
            return truncateTimestamp({parsed.getMillisecond(), parsed.getNanoOfMillisecond()},
                                     precision);
          } catch (const ValidationException&) {
            return context.fail<TimestampValue>(quoted(text), invalid(text));
          }
        });
  }
  Root fromRoot = from.getTypeRoot();
  if (toRoot == Root::DATE && fromRoot == Root::TIMESTAMP_WITHOUT_TIME_ZONE) {
    return UnaryExecutor::execute<TimestampValue, int32_t>(input, target, [](TimestampValue value) {
      return static_cast<int32_t>(types::floorDivide(value.millisecond, kMillisPerDay));
    });
  }
  if (toRoot == Root::TIME_WITHOUT_TIME_ZONE && fromRoot == Root::TIMESTAMP_WITHOUT_TIME_ZONE) {
    return UnaryExecutor::execute<TimestampValue, int64_t>(
        input, target, [precision](TimestampValue value) {
          int64_t nanos = types::floorModulo(value.millisecond, kMillisPerDay) * kNanosPerMilli +
                          value.nanoOfMillisecond;
          return truncateNanos(nanos, precision);
        });
  }
  if (toRoot == Root::TIME_WITHOUT_TIME_ZONE && fromRoot == Root::TIME_WITHOUT_TIME_ZONE) {
    return UnaryExecutor::execute<int64_t, int64_t>(
        input, target, [precision](int64_t nanos) { return truncateNanos(nanos, precision); });
  }
  if (toRoot == Root::TIMESTAMP_WITHOUT_TIME_ZONE && fromRoot == Root::DATE) {
    return UnaryExecutor::execute<int32_t, TimestampValue>(input, target, [](int32_t day) {
      return TimestampValue{int64_t{day} * kMillisPerDay, 0};
    });
  }
  if (toRoot == fromRoot && (toRoot == Root::TIMESTAMP_WITHOUT_TIME_ZONE ||
                             toRoot == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE)) {
    return UnaryExecutor::execute<TimestampValue, TimestampValue>(
        input, target,
        [precision](TimestampValue value) { return truncateTimestamp(value, precision); });
  }
  throw InternalError("unsupported temporal cast from " + from.asSummaryString());
}

bool isNested(const LogicalType& type) {
  Root root = type.getTypeRoot();
  return root == Root::ARRAY || root == Root::MULTISET || root == Root::MAP || root == Root::ROW;
}

}  // namespace

std::string javaDoubleToString(double value) { return javaFloatingToString(value); }
std::string javaFloatToString(float value) { return javaFloatingToString(value); }

bool isCastSupported(const LogicalType& from, const LogicalType& to) {
  Root fromRoot = from.getTypeRoot();
  Root toRoot = to.getTypeRoot();
  if (fromRoot == Root::NULL_TYPE) return true;
  if (*from.copy(true) == *to.copy(true)) return true;
  if (isNested(from) || isNested(to)) {
    // Element by element (Flink's ArrayToArray, MapToMap, RowToRow rules), or to a string in
    // the form of ArrayToString & co. when every element casts to a string.
    if (isCharacterString(to)) {
      if (fromRoot == Root::ROW) {
        return std::all_of(from.getFields().begin(), from.getFields().end(),
                           [&](const RowField& field) { return isCastSupported(*field.type, to); });
      }
      if (fromRoot == Root::MAP) {
        return isCastSupported(*from.getKeyType(), to) && isCastSupported(*from.getValueType(), to);
      }
      return isNested(from) && isCastSupported(*from.getElementType(), to);
    }
    if (fromRoot != toRoot) return false;
    switch (fromRoot) {
      case Root::ARRAY:
      case Root::MULTISET:
        return isCastSupported(*from.getElementType(), *to.getElementType());
      case Root::MAP:
        return isCastSupported(*from.getKeyType(), *to.getKeyType()) &&
               isCastSupported(*from.getValueType(), *to.getValueType());
      default: {
        const auto& fromFields = from.getFields();
        const auto& toFields = to.getFields();
        if (fromFields.size() != toFields.size()) return false;
        for (size_t i = 0; i < fromFields.size(); ++i) {
          if (!isCastSupported(*fromFields[i].type, *toFields[i].type)) return false;
        }
        return true;
      }
    }
  }
  bool fromNumeric = isNumeric(from) || isBoolean(from);
  bool toNumeric = isNumeric(to) || isBoolean(to);
  if (fromNumeric && toNumeric) {
    // BOOLEAN ↔ FLOAT/DOUBLE is not a Flink cast.
    return !((isBoolean(from) && isApproximateNumeric(to)) ||
             (isApproximateNumeric(from) && isBoolean(to)));
  }
  if (isCharacterString(to)) {
    return fromNumeric || isStringLike(from) || fromRoot == Root::DATE ||
           fromRoot == Root::TIME_WITHOUT_TIME_ZONE ||
           fromRoot == Root::TIMESTAMP_WITHOUT_TIME_ZONE ||
           fromRoot == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE ||
           fromRoot == Root::INTERVAL_YEAR_MONTH || fromRoot == Root::INTERVAL_DAY_TIME;
  }
  if (isCharacterString(from)) {
    return toNumeric || toRoot == Root::DATE || toRoot == Root::TIME_WITHOUT_TIME_ZONE ||
           toRoot == Root::TIMESTAMP_WITHOUT_TIME_ZONE ||
           toRoot == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE || isBinaryString(to);
  }
  if (isBinaryString(from) && isBinaryString(to)) return true;
  bool fromTimestamp = fromRoot == Root::TIMESTAMP_WITHOUT_TIME_ZONE ||
                       fromRoot == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  if (toRoot == Root::DATE) return fromTimestamp;
  if (toRoot == Root::TIME_WITHOUT_TIME_ZONE) {
    return fromTimestamp || fromRoot == Root::TIME_WITHOUT_TIME_ZONE;
  }
  if (toRoot == Root::TIMESTAMP_WITHOUT_TIME_ZONE ||
      toRoot == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
    return fromRoot == Root::DATE || fromTimestamp;
  }
  return false;
}

KernelVector castVector(const KernelVector& input, const LogicalTypePtr& target, bool tryCast,
                        const common::SessionTimeZone& sessionTimeZone) {
  const LogicalType& from = *input.type();
  if (isNullType(from)) return KernelVector::constant(target, Value(), input.size());
  CastContext context{target, tryCast};
  // Same type up to nullability: nothing to do.
  if (*from.copy(true) == *target->copy(true)) return input.withType(target);
  if (isNested(from)) {
    vector::Vector result(target);
    result.reserve(input.size());
    for (int64_t row = 0; row < input.size(); ++row) {
      Value value = input.isNull(row) ? Value()
                                      : castValue(input.valueAt(row), input.type(), target,
                                                  tryCast, sessionTimeZone);
      if (value.isNull()) {
        result.appendNull();
      } else {
        result.appendValue(value);
      }
    }
    return KernelVector::adopt(std::move(result));
  }
  Root toRoot = target->getTypeRoot();
  // TIMESTAMP_LTZ ↔ the zoneless types go through TIMESTAMP: the instant's wall-clock time in
  // the session zone (Flink's DateTimeUtils.timestampWithLocalZoneToTimestamp and back).
  Root fromRoot = from.getTypeRoot();
  if ((fromRoot == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE) !=
      (toRoot == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE)) {
    if (fromRoot == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
      KernelVector local = UnaryExecutor::execute<TimestampValue, TimestampValue>(
          input, LogicalType::timestamp(from.getPrecision(), TimestampKind::REGULAR, true),
          [&sessionTimeZone](TimestampValue value) {
            return TimestampValue{sessionTimeZone.toLocalMillis(value.millisecond),
                                  value.nanoOfMillisecond};
          });
      return castVector(local, target, tryCast, sessionTimeZone);
    }
    KernelVector local = castVector(
        input, LogicalType::timestamp(target->getPrecision(), TimestampKind::REGULAR, true),
        tryCast, sessionTimeZone);
    return UnaryExecutor::execute<TimestampValue, TimestampValue>(
        local, target, [&sessionTimeZone](TimestampValue value) {
          return TimestampValue{sessionTimeZone.toEpochMillis(value.millisecond),
                                value.nanoOfMillisecond};
        });
  }
  // Strings of another length: CHAR pads, VARCHAR truncates; VARCHAR → wider VARCHAR is free.
  if (isCharacterString(*target)) {
    if (from.getTypeRoot() == Root::VARCHAR && toRoot == Root::VARCHAR &&
        target->getLength() >= from.getLength()) {
      return input.withType(target);
    }
    return castToString(input, context);
  }
  if (isBinaryString(*target)) {
    return UnaryExecutor::execute<string_view, string_view>(
        input, target, [length = target->getLength()](string_view bytes) {
          return bytes.substr(0, static_cast<size_t>(length));
        });
  }
  switch (toRoot) {
    case Root::BOOLEAN:
      return castToNumeric<bool>(input, context);
    case Root::TINYINT:
      return castToNumeric<int8_t>(input, context);
    case Root::SMALLINT:
      return castToNumeric<int16_t>(input, context);
    case Root::INTEGER:
      return castToNumeric<int32_t>(input, context);
    case Root::BIGINT:
      return castToNumeric<int64_t>(input, context);
    case Root::FLOAT:
      return castToNumeric<float>(input, context);
    case Root::DOUBLE:
      return castToNumeric<double>(input, context);
    case Root::DECIMAL:
      return castToNumeric<__int128>(input, context);
    case Root::DATE:
    case Root::TIME_WITHOUT_TIME_ZONE:
    case Root::TIMESTAMP_WITHOUT_TIME_ZONE:
    case Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      return castToTemporal(input, context);
    default:
      break;
  }
  throw InternalError(fmt::format("unsupported cast from {} to {}", from.asSummaryString(),
                                  target->asSummaryString()));
}

namespace {

void appendCastText(const Value& value, const LogicalTypePtr& type,
                    const common::SessionTimeZone& sessionTimeZone, std::string& out) {
  if (value.isNull()) {
    // Flink's ArrayToStringCastRule & co. write a NULL element as NULL (`null` only under
    // table.exec.legacy-cast-behaviour).
    out += "NULL";
    return;
  }
  if (!isNested(*type)) {
    out += castValue(value, type, stringType(false), false, sessionTimeZone).get<std::string>();
    return;
  }
  switch (type->getTypeRoot()) {
    case Root::ARRAY: {
      out += '[';
      bool first = true;
      for (const Value& element : value.get<ValueArray>()) {
        if (!first) out += ", ";
        first = false;
        appendCastText(element, type->getElementType(), sessionTimeZone, out);
      }
      out += ']';
      return;
    }
    case Root::MAP:
    case Root::MULTISET: {
      const bool map = type->getTypeRoot() == Root::MAP;
      const LogicalTypePtr count = LogicalType::simple(Root::INTEGER, false);
      out += '{';
      bool first = true;
      for (const auto& [key, entry] : value.get<ValueMap>()) {
        if (!first) out += ", ";
        first = false;
        appendCastText(key, map ? type->getKeyType() : type->getElementType(), sessionTimeZone,
                       out);
        out += '=';
        appendCastText(entry, map ? type->getValueType() : count, sessionTimeZone, out);
      }
      out += '}';
      return;
    }
    default: {
      const Row& row = value.getRow();
      const auto& fields = type->getFields();
      out += '(';
      for (int i = 0; i < row.getArity(); ++i) {
        if (i > 0) out += ", ";
        appendCastText(row.getField(i), fields[static_cast<size_t>(i)].type, sessionTimeZone, out);
      }
      out += ')';
      return;
    }
  }
}

}  // namespace

Value castValue(const Value& value, const LogicalTypePtr& from, const LogicalTypePtr& to,
                bool tryCast, const common::SessionTimeZone& sessionTimeZone) {
  if (value.isNull()) return Value();
  if (!isNested(*from)) {
    KernelVector cast =
        castVector(KernelVector::constant(from, value, 1), to, tryCast, sessionTimeZone);
    return cast.isNull(0) ? Value() : cast.valueAt(0);
  }
  if (isCharacterString(*to)) {
    std::string text;
    appendCastText(value, from, sessionTimeZone, text);
    return Value(fitLength(std::move(text), *to));
  }
  switch (from->getTypeRoot()) {
    case Root::ARRAY: {
      ValueArray elements;
      for (const Value& element : value.get<ValueArray>()) {
        elements.push_back(castValue(element, from->getElementType(), to->getElementType(),
                                     tryCast, sessionTimeZone));
      }
      return Value::ofArray(std::move(elements));
    }
    case Root::MAP:
    case Root::MULTISET: {
      const bool map = from->getTypeRoot() == Root::MAP;
      ValueMap entries;
      for (const auto& [key, entry] : value.get<ValueMap>()) {
        entries.emplace_back(
            castValue(key, map ? from->getKeyType() : from->getElementType(),
                      map ? to->getKeyType() : to->getElementType(), tryCast, sessionTimeZone),
            map ? castValue(entry, from->getValueType(), to->getValueType(), tryCast,
                            sessionTimeZone)
                : entry);
      }
      return Value::ofMap(std::move(entries));
    }
    default: {
      const Row& row = value.getRow();
      Row cast = Row::withPositions(row.getArity());
      for (int i = 0; i < row.getArity(); ++i) {
        cast.setField(i, castValue(row.getField(i), from->getFields()[static_cast<size_t>(i)].type,
                                   to->getFields()[static_cast<size_t>(i)].type, tryCast,
                                   sessionTimeZone));
      }
      return Value(std::move(cast));
    }
  }
}

std::string castToStringText(const Value& value, const LogicalTypePtr& type,
                             const common::SessionTimeZone& sessionTimeZone) {
  std::string text;
  appendCastText(value, type, sessionTimeZone, text);
  return text;
}

}  // namespace eddy::function
