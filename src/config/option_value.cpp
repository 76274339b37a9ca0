#include "config/option_value.h"

#include "common/text.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <string>

namespace eddy::config {
namespace {

std::string_view trim(std::string_view text) { return common::trimWhitespace(text); }

std::string lowerCase(std::string_view text) { return common::asciiLowerCase(text); }

/// Splits "  60 s " into the digits "60" and the unit "s" (lower-cased). Fails when the text
/// does not start with a digit or the number does not fit.
struct NumberAndUnit {
  uint64_t number;
  std::string unit;
};

std::optional<NumberAndUnit> splitNumberAndUnit(std::string_view text) {
  text = trim(text);
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0) return std::nullopt;
  uint64_t number = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + digits, number);
  if (error != std::errc() || end != text.data() + digits) return std::nullopt;
  return NumberAndUnit{number, lowerCase(trim(text.substr(digits)))};
}

}  // namespace

std::optional<int64_t> parseInteger(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> parseDouble(std::string_view text) {
  text = trim(text);
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<bool> parseBoolean(std::string_view text) {
  std::string lower = lowerCase(trim(text));
  if (lower == "true") return true;
  if (lower == "false") return false;
  return std::nullopt;
}

std::optional<std::chrono::milliseconds> parseDuration(std::string_view text) {
  std::optional<NumberAndUnit> parsed = splitNumberAndUnit(text);
  if (!parsed) return std::nullopt;
  // Flink's TimeUtils labels, in milliseconds (µs and ns as fractions of one).
  struct Unit {
    std::initializer_list<std::string_view> labels;
    uint64_t millis;
    uint64_t divisor;
  };
  static const Unit kUnits[] = {
      {{"", "ms", "milli", "millis", "millisecond", "milliseconds"}, 1, 1},
      {{"s", "sec", "secs", "second", "seconds"}, 1000, 1},
      {{"m", "min", "minute", "minutes"}, 60 * 1000, 1},
      {{"h", "hour", "hours"}, 60 * 60 * 1000, 1},
      {{"d", "day", "days"}, 24 * 60 * 60 * 1000, 1},
      {{"\xC2\xB5s", "us", "micro", "micros", "microsecond", "microseconds"}, 1, 1000},
      {{"ns", "nano", "nanos", "nanosecond", "nanoseconds"}, 1, 1000 * 1000},
  };
  for (const Unit& unit : kUnits) {
    for (std::string_view label : unit.labels) {
      if (parsed->unit != label) continue;
      if (parsed->number > static_cast<uint64_t>(INT64_MAX) / unit.millis) return std::nullopt;
      return std::chrono::milliseconds(
          static_cast<int64_t>(parsed->number * unit.millis / unit.divisor));
    }
  }
  return std::nullopt;
}

std::optional<uint64_t> parseMemorySize(std::string_view text) {
  std::optional<NumberAndUnit> parsed = splitNumberAndUnit(text);
  if (!parsed) return std::nullopt;
  struct Unit {
    std::initializer_list<std::string_view> labels;
    int shift;
  };
  static const Unit kUnits[] = {
      {{"", "b", "bytes"}, 0},        {{"k", "kb", "kibibytes"}, 10},
      {{"m", "mb", "mebibytes"}, 20}, {{"g", "gb", "gibibytes"}, 30},
      {{"t", "tb", "tebibytes"}, 40},
  };
  for (const Unit& unit : kUnits) {
    for (std::string_view label : unit.labels) {
      if (parsed->unit != label) continue;
      if (parsed->number > (UINT64_MAX >> unit.shift)) return std::nullopt;
      return parsed->number << unit.shift;
    }
  }
  return std::nullopt;
}

}  // namespace eddy::config
