// ConfigOption: what eddy knows about one of Flink's configuration keys — its value type,
// the values an enum accepts, Flink's default, and whether eddy honours it yet. An option
// eddy knows but does not honour is still accepted (a Flink configuration file must load),
// with a warning saying so; it is never silently ignored. Immutable definitions, held by the
// OptionRegistry.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace eddy::config {

enum class OptionType { kInteger, kBoolean, kDouble, kDuration, kMemorySize, kEnum, kString };

/// The name of a type as docs/configuration.md and error messages show it ("Duration").
const char* optionTypeName(OptionType type);

struct ConfigOption {
  /// The full key, or for a prefix option (`metrics.reporter.`) the prefix ending with a dot:
  /// any key below it is accepted.
  std::string key;
  OptionType type;
  /// kEnum: the accepted values as Flink spells them; matched case-insensitively.
  std::vector<std::string> enumValues;
  /// kInteger: the smallest accepted value.
  std::optional<int64_t> minimum;
  /// Flink's default as its documentation shows it; empty when there is none.
  std::string defaultValue;
  /// Empty when eddy honours the option; otherwise why it has no effect yet.
  std::string notHonouredReason;
  /// For an honoured enum option: values eddy accepts but does not honour yet, and what it
  /// does instead.
  std::vector<std::string> notHonouredValues;
  std::string notHonouredValueReason;
  std::string description;

  bool isPrefix() const { return !key.empty() && key.back() == '.'; }
  bool isHonoured() const { return notHonouredReason.empty(); }
};

}  // namespace eddy::config
