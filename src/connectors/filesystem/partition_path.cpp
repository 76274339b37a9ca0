#include "connectors/filesystem/partition_path.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <iterator>

#include "eddy/exceptions.h"

namespace eddy::connectors {

namespace {

bool needsEscape(unsigned char c) {
  if (c <= 0x1F || c == 0x7F) return true;  // 0x00 too: it would end the path
  switch (c) {
    case '"': case '#': case '%': case '\'': case '*': case '/': case ':': case '=':
    case '?': case '\\': case '{': case '[': case ']': case '^':
      return true;
    default:
      return false;
  }
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

bool isBlank(std::string_view value) {
  return std::all_of(value.begin(), value.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

void appendEscapedPartitionValue(std::string_view value, std::string& out) {
  for (char c : value) {
    if (needsEscape(static_cast<unsigned char>(c))) {
      fmt::format_to(std::back_inserter(out), "%{:02X}", static_cast<unsigned char>(c));
    } else {
      out.push_back(c);
    }
  }
}

std::string escapePartitionValue(std::string_view value) {
  std::string escaped;
  escaped.reserve(value.size());
  appendEscapedPartitionValue(value, escaped);
  return escaped;
}

std::string_view partitionValueOrDefault(std::optional<std::string_view> value,
                                         const std::string& defaultName) {
  return value && !isBlank(*value) ? *value : std::string_view(defaultName);
}

std::string unescapePartitionValue(std::string_view escaped) {
  std::string value;
  value.reserve(escaped.size());
  for (size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] == '%' && i + 2 < escaped.size()) {
      int high = hexDigit(escaped[i + 1]);
      int low = hexDigit(escaped[i + 2]);
      if (high >= 0 && low >= 0) {
        value.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        continue;
      }
    }
    value.push_back(escaped[i]);
  }
  return value;
}

std::filesystem::path partitionDirectory(const std::vector<std::string>& keyNames,
                                         const PartitionSpec& spec,
                                         const std::string& defaultName) {
  std::filesystem::path directory;
  for (size_t k = 0; k < keyNames.size(); ++k) {
    std::string segment = escapePartitionValue(keyNames[k]) + "=";
    const std::optional<std::string>& value = spec[k];
    appendEscapedPartitionValue(
        partitionValueOrDefault(value ? std::optional<std::string_view>(*value) : std::nullopt,
                                defaultName),
        segment);
    directory /= segment;
  }
  return directory;
}

std::optional<PartitionSpec> partitionPrefixOf(const std::filesystem::path& directory,
                                               const std::vector<std::string>& keyNames,
                                               const std::string& defaultName) {
  PartitionSpec spec;
  for (const std::filesystem::path& segment : directory) {
    if (spec.size() == keyNames.size()) break;  // a directory inside a partition
    const std::string name = segment.string();
    const size_t equals = name.find('=');
    if (equals == std::string::npos ||
        unescapePartitionValue(name.substr(0, equals)) != keyNames[spec.size()]) {
      return std::nullopt;
    }
    std::string value = unescapePartitionValue(name.substr(equals + 1));
    if (value == defaultName) {
      spec.emplace_back(std::nullopt);
    } else {
      spec.emplace_back(std::move(value));
    }
  }
  return spec;
}

std::optional<PartitionSpec> partitionOfFile(const std::filesystem::path& relative,
                                             const std::vector<std::string>& keyNames,
                                             const std::string& defaultName) {
  std::optional<PartitionSpec> spec =
      partitionPrefixOf(relative.parent_path(), keyNames, defaultName);
  if (!spec || spec->size() != keyNames.size()) return std::nullopt;
  return spec;
}

}  // namespace eddy::connectors
