#include "formats/format_options.h"

#include "common/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "eddy/exceptions.h"

namespace eddy::formats {

namespace {

std::string_view trim(std::string_view text) { return common::trimWhitespace(text); }

void appendUtf8(uint32_t codePoint, std::string& out) {
  if (codePoint < 0x80) {
    out.push_back(static_cast<char>(codePoint));
  } else if (codePoint < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (codePoint >> 6)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (codePoint >> 12)));
    out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  }
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string unescapeJava(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c != '\\' || i + 1 == text.size()) {
      out.push_back(c);
      continue;
    }
    char next = text[i + 1];
    switch (next) {
      case 't':
        out.push_back('\t');
        ++i;
        continue;
      case 'b':
        out.push_back('\b');
        ++i;
        continue;
      case 'n':
        out.push_back('\n');
        ++i;
        continue;
      case 'r':
        out.push_back('\r');
        ++i;
        continue;
      case 'f':
        out.push_back('\f');
        ++i;
        continue;
      case '\'':
      case '"':
      case '\\':
        out.push_back(next);
        ++i;
        continue;
      case 'u': {
        // \uXXXX (Java also allows several u's).
        size_t start = i + 1;
        while (start < text.size() && text[start] == 'u') ++start;
        if (start + 4 <= text.size()) {
          uint32_t codePoint = 0;
          bool valid = true;
          for (size_t k = start; k < start + 4; ++k) {
            int digit = hexValue(text[k]);
            if (digit < 0) valid = false;
            codePoint = codePoint * 16 + static_cast<uint32_t>(std::max(digit, 0));
          }
          if (valid) {
            appendUtf8(codePoint, out);
            i = start + 3;
            continue;
          }
        }
        out.push_back(c);
        continue;
      }
      default:
        if (next >= '0' && next <= '7') {
          // Octal: up to three digits, at most \377.
          uint32_t value = 0;
          size_t k = i + 1;
          size_t maxDigits = next <= '3' ? 3 : 2;
          for (size_t digits = 0;
               digits < maxDigits && k < text.size() && text[k] >= '0' && text[k] <= '7';
               ++digits, ++k) {
            value = value * 8 + static_cast<uint32_t>(text[k] - '0');
          }
          appendUtf8(value, out);
          i = k - 1;
          continue;
        }
        out.push_back(c);
        continue;
    }
  }
  return out;
}

std::optional<std::string> FormatOptions::getString(std::string_view option) const {
  auto found = context_.options.find(context_.key(option));
  if (found == context_.options.end()) return std::nullopt;
  return found->second;
}

std::optional<bool> FormatOptions::getBoolean(std::string_view option) const {
  std::optional<std::string> text = getString(option);
  if (!text) return std::nullopt;
  std::string lower(trim(*text));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true") return true;
  if (lower == "false") return false;
  throwUnparsable(option, *text, "'true' or 'false'");
}

std::optional<char> FormatOptions::getCharacter(std::string_view option, bool unescape) const {
  std::optional<std::string> text = getString(option);
  if (!text) return std::nullopt;
  std::string value = unescape ? unescapeJava(*text) : *text;
  if (value.size() != 1 || static_cast<unsigned char>(value[0]) >= 0x80) {
    throwInvalid(option, *text, "a single ASCII character");
  }
  return value[0];
}

void FormatOptions::throwUnparsable(std::string_view option, std::string_view value,
                                    std::string_view allowed) const {
  throw ValidationException(
      fmt::format("Could not parse value '{}' for key '{}' of table '{}': expected {}.", value,
                  context_.key(option), context_.tableName, allowed));
}

void FormatOptions::throwInvalid(std::string_view option, std::string_view value,
                                 std::string_view allowed) const {
  throw ValidationException(
      fmt::format("Invalid value '{}' for key '{}' of table '{}': expected {}.", value,
                  context_.key(option), context_.tableName, allowed));
}

}  // namespace eddy::formats
