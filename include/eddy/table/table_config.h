// TableConfig: the options of a TableEnvironment, as Flink's TableConfig: Flink's keys
// (`table.exec.resource.default-parallelism`, `table.optimizer.reuse-sub-plan-enabled`,
// `parallelism.default`, ...) with string values, the same options SET and RESET change.
// A view on its environment's options; used from the environment's thread.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace eddy {

class TableConfig {
 public:
  explicit TableConfig(std::map<std::string, std::string>& options) : options_(options) {}

  /// Sets an option, as `SET 'key' = 'value'` does: `getConfig().set("k", "v")`. An invalid
  /// value throws ValidationException naming the key and the value; an unknown key, or one
  /// eddy does not honour yet, is set with a warning (docs/configuration.md).
  TableConfig& set(const std::string& key, const std::string& value);
  TableConfig& set(const std::string& key, const char* value) { return set(key, std::string(value)); }
  TableConfig& set(const std::string& key, bool value) { return set(key, value ? "true" : "false"); }
  TableConfig& set(const std::string& key, int value) { return set(key, std::to_string(value)); }
  /// The option's value, if set.
  std::optional<std::string> get(const std::string& key) const {
    auto found = options_.find(key);
    if (found == options_.end()) return std::nullopt;
    return found->second;
  }
  /// Direct access to an option's value (created empty when unset), unvalidated: a bad value
  /// fails when a job reads it.
  std::string& operator[](const std::string& key) { return options_[key]; }
  /// `table.local-time-zone` (Flink's TableConfig.setLocalTimeZone).
  TableConfig& setLocalTimeZone(const std::string& zoneId) {
    return set("table.local-time-zone", zoneId);
  }
  const std::map<std::string, std::string>& toMap() const { return options_; }

 private:
  std::map<std::string, std::string>& options_;
};

}  // namespace eddy
