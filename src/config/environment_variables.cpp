#include "config/environment_variables.h"

#include <cstdlib>

#include "eddy/exceptions.h"

namespace eddy::config {

std::string substituteEnvironmentVariables(const std::string& text, const std::string& sourceName,
                                           int firstLine) {
  std::string result;
  result.reserve(text.size());
  int line = firstLine;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') ++line;
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      size_t end = text.find('}', i + 2);
      if (end != std::string::npos) {
        std::string name = text.substr(i + 2, end - i - 2);
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) {
          throw ValidationException("Environment variable '" + name +
                                    "' is not set (referenced at line " + std::to_string(line) +
                                    " of " + sourceName + ")");
        }
        result += value;
        i = end;
        continue;
      }
    }
    result += text[i];
  }
  return result;
}

}  // namespace eddy::config
