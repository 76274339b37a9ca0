// OptionRegistry: the Flink configuration keys eddy knows, and the validation of a key and a
// value against them. SET, `eddy sql -D`, and the configuration file all validate through
// it: an invalid value is an error naming the key and the value (Flink's "Could not parse
// value '10 parsecs' for key 'execution.checkpointing.interval'." plus what is expected); an
// unknown key is accepted with a warning naming the nearest known key (Flink accepts any
// key); a known key eddy does not honour yet is accepted with a warning saying so.
// Options whose key names a secret (password, secret, token, ...) never show their value:
// messages print '******'. The registry is built once and read-only: any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config_option.h"

namespace eddy::config {

class OptionRegistry {
 public:
  /// The options eddy knows, in the order docs/configuration.md lists them.
  static const OptionRegistry& instance();

  const std::vector<ConfigOption>& options() const { return options_; }

  /// The option of `key`: an exact match, or the prefix option the key falls under.
  const ConfigOption* find(std::string_view key) const;

  /// The known key closest to `key` by edit distance, when it is close enough to be a
  /// plausible misspelling.
  std::optional<std::string> nearestKey(std::string_view key) const;

  /// Checks that `value` is valid for `key`. Throws ValidationException when it is not;
  /// returns the warnings to show (unknown key, option or value not honoured yet).
  std::vector<std::string> validate(const std::string& key, const std::string& value) const;

  /// The error text for an invalid `value` of `option` (under `key`).
  static std::string invalidValueMessage(const ConfigOption& option, const std::string& key,
                                         const std::string& value);

 private:
  OptionRegistry();

  std::vector<ConfigOption> options_;
};

/// Whether the value of `key` is a secret (the key contains password, secret, token, ...).
bool isSensitiveKey(std::string_view key);

/// `value`, or '******' when `key` is sensitive: the form every message and listing shows.
std::string displayValue(std::string_view key, const std::string& value);

/// `value` of an enum option in the option's spelling (`batch` → `BATCH`); nothing when the
/// value is not one of the option's values.
std::optional<std::string> canonicalEnumValue(const ConfigOption& option, std::string_view value);

}  // namespace eddy::config
