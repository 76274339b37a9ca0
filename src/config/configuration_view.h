// ConfigurationView: typed reads of Flink options from a key → value map (the map a
// TableEnvironment keeps). Values are parsed as the OptionRegistry declares the key; a value
// that does not parse (it was put into the map without validation, e.g. through getConfig())
// throws the same ValidationException SET would have. Does not own the map; use it on the
// thread that owns the map, while the map lives.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace eddy::config {

class ConfigurationView {
 public:
  explicit ConfigurationView(const std::map<std::string, std::string>& options)
      : options_(options) {}

  std::optional<int64_t> getInteger(const std::string& key) const;
  std::optional<bool> getBoolean(const std::string& key) const;
  std::optional<std::chrono::milliseconds> getDuration(const std::string& key) const;
  /// The value in the option's spelling (`batch` → `BATCH`).
  std::optional<std::string> getEnum(const std::string& key) const;

 private:
  const std::map<std::string, std::string>& options_;
};

}  // namespace eddy::config
