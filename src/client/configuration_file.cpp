#include "client/configuration_file.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "config/environment_variables.h"
#include "eddy/exceptions.h"

namespace eddy::client {
namespace {

std::string where(const std::string& fileName, const YAML::Mark& mark) {
  return fileName + ", line " + std::to_string(mark.line + 1);
}

void flatten(const YAML::Node& map, const std::string& prefix, const std::string& fileName,
             std::vector<ConfigurationEntry>& entries) {
  for (const auto& pair : map) {
    const YAML::Node& keyNode = pair.first;
    const YAML::Node& valueNode = pair.second;
    if (!keyNode.IsScalar()) {
      throw ValidationException("Invalid configuration file " + where(fileName, keyNode.Mark()) +
                                ": a key must be a plain name");
    }
    std::string key = prefix + keyNode.Scalar();
    switch (valueNode.Type()) {
      case YAML::NodeType::Map:
        flatten(valueNode, key + ".", fileName, entries);
        break;
      case YAML::NodeType::Scalar: {
        int line = valueNode.Mark().line + 1;
        entries.push_back(ConfigurationEntry{
            key, config::substituteEnvironmentVariables(valueNode.Scalar(), fileName, line), line});
        break;
      }
      case YAML::NodeType::Sequence:
        throw ValidationException("Invalid configuration file " + where(fileName, keyNode.Mark()) +
                                  ": key '" + key + "' holds a list; eddy supports single values");
      default:
        throw ValidationException("Invalid configuration file " + where(fileName, keyNode.Mark()) +
                                  ": key '" + key + "' has no value");
    }
  }
}

}  // namespace

std::vector<ConfigurationEntry> parseConfiguration(const std::string& text,
                                                   const std::string& fileName) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    throw ValidationException("Could not parse the configuration file " + fileName + " at line " +
                              std::to_string(error.mark.line + 1) + ", column " +
                              std::to_string(error.mark.column + 1) + ": " + error.msg);
  }
  std::vector<ConfigurationEntry> entries;
  if (root.IsNull()) return entries;
  if (!root.IsMap()) {
    throw ValidationException("Invalid configuration file " + fileName +
                              ": expected keys and values (key: value), one per line");
  }
  flatten(root, "", fileName, entries);
  return entries;
}

std::vector<ConfigurationEntry> loadConfigurationFile(const std::string& path) {
  std::ifstream input(path);
  if (!input) {
    throw ValidationException("Cannot read the configuration file '" + path +
                              "': " + std::strerror(errno));
  }
  std::stringstream text;
  text << input.rdbuf();
  return parseConfiguration(text.str(), path);
}

}  // namespace eddy::client
