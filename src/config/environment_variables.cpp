#include "config/environment_variables.h"

#include <cstdlib>

#include "eddy/exceptions.h"

namespace eddy::config {

std::string substituteEnvironmentVariables(const std::string& text, const std::string& sourceName,
                                           int firstLine, bool sqlComments) {
  std::string result;
  result.reserve(text.size());
  int line = firstLine;
  char quote = 0;  // the quote of the string literal or identifier `i` is in, else 0
  for (size_t i = 0; i < text.size(); ++i) {
    if (sqlComments && quote == 0) {
      // A comment is copied as it is (its line breaks counted).
      size_t end = std::string::npos;
      if (text.compare(i, 2, "--") == 0) {
        end = text.find('\n', i);
        if (end == std::string::npos) end = text.size();
      } else if (text.compare(i, 2, "/*") == 0) {
        end = text.find("*/", i + 2);
        end = end == std::string::npos ? text.size() : end + 2;
      }
      if (end != std::string::npos) {
        for (size_t j = i; j < end; ++j) line += text[j] == '\n' ? 1 : 0;
        result.append(text, i, end - i);
        i = end - 1;
        continue;
      }
    }
    if (sqlComments && (text[i] == '\'' || text[i] == '`')) {
      if (quote == 0) {
        quote = text[i];
      } else if (quote == text[i]) {
        quote = 0;  // a doubled quote closes and reopens: the same for this purpose
      }
    }
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
