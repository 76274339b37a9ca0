#include "config/configuration_view.h"

#include <type_traits>

#include "common/check.h"
#include "config/option_registry.h"
#include "config/option_value.h"
#include "eddy/exceptions.h"

namespace eddy::config {
namespace {

/// The value of `key` parsed by `parse`; nothing when unset; the SET error when invalid.
template <typename Parse>
auto read(const std::map<std::string, std::string>& options, const std::string& key,
          OptionType type, Parse parse) -> decltype(parse(std::string())) {
  const ConfigOption* option = OptionRegistry::instance().find(key);
  EDDY_CHECK(option != nullptr && option->type == type);
  auto it = options.find(key);
  if (it == options.end()) return std::nullopt;
  auto value = parse(it->second);
  bool belowMinimum = false;
  if constexpr (std::is_same_v<decltype(value), std::optional<int64_t>>) {
    belowMinimum = value && option->minimum && *value < *option->minimum;
  }
  if (!value || belowMinimum) {
    throw ValidationException(OptionRegistry::invalidValueMessage(*option, key, it->second));
  }
  return value;
}

}  // namespace

std::optional<int64_t> ConfigurationView::getInteger(const std::string& key) const {
  return read(options_, key, OptionType::kInteger,
              [](const std::string& text) { return parseInteger(text); });
}

std::optional<bool> ConfigurationView::getBoolean(const std::string& key) const {
  return read(options_, key, OptionType::kBoolean,
              [](const std::string& text) { return parseBoolean(text); });
}

std::optional<std::chrono::milliseconds> ConfigurationView::getDuration(
    const std::string& key) const {
  return read(options_, key, OptionType::kDuration,
              [](const std::string& text) { return parseDuration(text); });
}

std::optional<std::string> ConfigurationView::getEnum(const std::string& key) const {
  const ConfigOption* option = OptionRegistry::instance().find(key);
  return read(options_, key, OptionType::kEnum,
              [option](const std::string& text) { return canonicalEnumValue(*option, text); });
}

}  // namespace eddy::config
