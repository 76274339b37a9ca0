// Small text helpers shared by the option parsers (configuration, connector and format
// options): ASCII whitespace trimming and lower-casing, as Flink's option parsing does.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace eddy::common {

/// `text` without leading and trailing ASCII whitespace.
inline std::string_view trimWhitespace(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

/// `text` with ASCII letters lower-cased.
inline std::string asciiLowerCase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

/// The items of a `separator`-separated list, each without surrounding ASCII whitespace; empty
/// items are left out ("a, b,,c " is a, b, c).
inline std::vector<std::string> splitList(std::string_view text, char separator = ',') {
  std::vector<std::string> items;
  while (true) {
    const size_t end = text.find(separator);
    std::string_view item = trimWhitespace(text.substr(0, end));
    if (!item.empty()) items.emplace_back(item);
    if (end == std::string_view::npos) return items;
    text.remove_prefix(end + 1);
  }
}

}  // namespace eddy::common
