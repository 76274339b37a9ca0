// The configuration file of `eddy sql --config FILE`: Flink's YAML configuration
// (config.yaml / flink-conf.yaml), with keys written flat (`a.b.c: v`) or as nested maps,
// which are flattened with dots (`a: {b: {c: v}}` is `a.b.c`). Values are scalars; `${NAME}`
// in a value is replaced by the environment variable NAME. Each entry keeps its line, so the
// client can place errors and warnings. Reading the file validates nothing about the keys:
// the client passes each entry to the OptionRegistry. Pure functions, any thread.
#pragma once

#include <string>
#include <vector>

namespace eddy::client {

struct ConfigurationEntry {
  std::string key;
  std::string value;
  int line;  // 1-based line of the value in the file
};

/// The entries of the YAML text `text`, read from `fileName` (for messages), in file order.
/// Throws ValidationException when the text is not YAML, holds a list or a key without a
/// value, or references an unset environment variable.
std::vector<ConfigurationEntry> parseConfiguration(const std::string& text,
                                                   const std::string& fileName);

/// parseConfiguration of the file at `path`; ValidationException when it cannot be read.
std::vector<ConfigurationEntry> loadConfigurationFile(const std::string& path);

}  // namespace eddy::client
