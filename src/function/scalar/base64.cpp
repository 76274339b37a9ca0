// TO_BASE64(s) and FROM_BASE64(s): the standard Base64 alphabet with '=' padding (Java's
// Base64.getEncoder/getDecoder, which Flink uses) over the UTF-8 bytes of a string. Decoding
// accepts missing padding, as Java's decoder does, and fails on malformed input with Java's
// messages ("Illegal base64 character 2e"), which fails the job as in Flink.
#include <fmt/format.h>

#include "function/scalar/scalar_function_builders.h"

namespace eddy::function {
namespace {

using std::string_view;

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string encodeBase64(string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t bits = (uint32_t(uint8_t(bytes[i])) << 16) | (uint32_t(uint8_t(bytes[i + 1])) << 8) |
                    uint8_t(bytes[i + 2]);
    out.push_back(kAlphabet[bits >> 18]);
    out.push_back(kAlphabet[(bits >> 12) & 63]);
    out.push_back(kAlphabet[(bits >> 6) & 63]);
    out.push_back(kAlphabet[bits & 63]);
  }
  if (size_t rest = bytes.size() - i; rest > 0) {
    uint32_t bits = uint32_t(uint8_t(bytes[i])) << 16;
    if (rest == 2) bits |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    out.push_back(kAlphabet[bits >> 18]);
    out.push_back(kAlphabet[(bits >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(bits >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

int base64Value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  if (c == '=') return -2;
  return -1;
}

// Java's Base64.Decoder.decode0 (RFC 4648, not MIME).
std::string decodeBase64(string_view text) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  uint32_t bits = 0;
  int shift = 18;
  size_t position = 0;
  while (position < text.size()) {
    signed char raw = static_cast<signed char>(text[position++]);
    int value = base64Value(static_cast<unsigned char>(raw));
    if (value < 0) {
      if (value == -2) {
        if ((shift == 6 && (position == text.size() || text[position++] != '=')) || shift == 18) {
          throw TableException("Input byte array has wrong 4-byte ending unit");
        }
        break;
      }
      // Java prints the (signed) byte in base 16.
      throw TableException(fmt::format("Illegal base64 character {}{:x}", raw < 0 ? "-" : "",
                                       raw < 0 ? -int{raw} : int{raw}));
    }
    bits |= static_cast<uint32_t>(value) << shift;
    shift -= 6;
    if (shift < 0) {
      out.push_back(static_cast<char>(bits >> 16));
      out.push_back(static_cast<char>(bits >> 8));
      out.push_back(static_cast<char>(bits));
      shift = 18;
      bits = 0;
    }
  }
  if (shift == 6) {
    out.push_back(static_cast<char>(bits >> 16));
  } else if (shift == 0) {
    out.push_back(static_cast<char>(bits >> 16));
    out.push_back(static_cast<char>(bits >> 8));
  } else if (shift == 12) {
    throw TableException("Last unit does not have enough valid bits");
  }
  if (position < text.size()) {
    throw TableException(fmt::format("Input byte array has incorrect ending byte at {}", position));
  }
  return out;
}

void addCodec(FunctionRegistry& registry, const char* name, std::string (*codec)(string_view)) {
  registry.add(ScalarFunction(
      name, FunctionSyntax::kFunction, {fmt::format("'{}(<CHARACTER>)'", name)},
      [codec](const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 1) return std::nullopt;
        auto type = characterArgument(arguments[0]);
        if (!type) return std::nullopt;
        return BoundScalarFunction{{*type},
                                   stringType((*type)->isNullable()),
                                   unaryKernel<string_view, string_view>(codec)};
      }));
}

}  // namespace

void registerBase64Functions(FunctionRegistry& registry) {
  addCodec(registry, "TO_BASE64", encodeBase64);
  addCodec(registry, "FROM_BASE64", decodeBase64);
}

}  // namespace eddy::function
