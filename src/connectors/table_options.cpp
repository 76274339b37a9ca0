#include "connectors/table_options.h"

#include "common/text.h"
#include "config/option_value.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "eddy/exceptions.h"

namespace eddy::connectors {

namespace {

std::string_view trim(std::string_view text) { return common::trimWhitespace(text); }

std::string toLower(std::string_view text) { return common::asciiLowerCase(text); }

std::string integerRange(int64_t min, int64_t max) {
  if (max == std::numeric_limits<int64_t>::max()) {
    return min == 0 ? "a non-negative integer" : fmt::format("an integer of at least {}", min);
  }
  return fmt::format("an integer between {} and {}", min, max);
}

}  // namespace

std::optional<int64_t> parseInteger(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> TableOptions::getString(const std::string& key) const {
  auto found = context_.options.find(key);
  if (found == context_.options.end()) return std::nullopt;
  return found->second;
}

std::optional<int64_t> TableOptions::getLong(const std::string& key, int64_t min,
                                             int64_t max) const {
  std::optional<std::string> text = getString(key);
  if (!text) return std::nullopt;
  std::optional<int64_t> value = parseInteger(*text);
  if (!value) throwUnparsable(key, *text, integerRange(min, max));
  if (*value < min || *value > max) throwInvalid(key, *text, integerRange(min, max));
  return value;
}

std::optional<double> TableOptions::getDouble(const std::string& key, double min,
                                              double max) const {
  std::optional<std::string> text = getString(key);
  if (!text) return std::nullopt;
  std::string trimmed(trim(*text));
  char* end = nullptr;
  double value = trimmed.empty() ? 0 : std::strtod(trimmed.c_str(), &end);
  std::string allowed = fmt::format("a number between {} and {}", min, max);
  if (trimmed.empty() || end != trimmed.c_str() + trimmed.size() || std::isnan(value)) {
    throwUnparsable(key, *text, allowed);
  }
  if (value < min || value > max) throwInvalid(key, *text, allowed);
  return value;
}

std::optional<bool> TableOptions::getBoolean(const std::string& key) const {
  std::optional<std::string> text = getString(key);
  if (!text) return std::nullopt;
  std::string lower = toLower(trim(*text));
  if (lower == "true") return true;
  if (lower == "false") return false;
  throwUnparsable(key, *text, "'true' or 'false'");
}

std::optional<int64_t> TableOptions::getDurationMillis(const std::string& key) const {
  std::optional<std::string> text = getString(key);
  if (!text) return std::nullopt;
  constexpr std::string_view kAllowed =
      "a non-negative duration such as '500 ms', '5 s', '1 min', '2 h' or '1 d'";
  std::optional<std::chrono::milliseconds> duration = config::parseDuration(*text);
  if (!duration) throwUnparsable(key, *text, kAllowed);
  return duration->count();
}

void TableOptions::throwUnparsable(const std::string& key, std::string_view value,
                                   std::string_view allowed) const {
  throw ValidationException(
      fmt::format("Could not parse value '{}' for key '{}' of table '{}': "
                  "expected {}.",
                  value, key, context_.tableName, allowed));
}

void TableOptions::throwInvalid(const std::string& key, std::string_view value,
                                std::string_view allowed) const {
  throw ValidationException(
      fmt::format("Invalid value '{}' for key '{}' of table '{}': "
                  "expected {}.",
                  value, key, context_.tableName, allowed));
}

void throwNotSupportedYet(const std::vector<std::string>& keys, const std::string& tableName,
                          const std::string& by) {
  std::string quoted;
  for (const std::string& key : keys) {
    if (!quoted.empty()) quoted += ", ";
    quoted += "'" + key + "'";
  }
  throw ValidationException(fmt::format("{} {} of table '{}' {} not supported yet by {}.",
                                        keys.size() == 1 ? "Option" : "Options", quoted, tableName,
                                        keys.size() == 1 ? "is" : "are", by));
}

}  // namespace eddy::connectors
