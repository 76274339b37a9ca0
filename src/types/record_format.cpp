// Java's Double.toString / Float.toString on top of std::to_chars, whose shortest round-trip
// digits are what Java (since JDK 19) prints; only the notation differs and is rebuilt here.
#include "eddy/types/record_format.h"

#include <charconv>
#include <cmath>

namespace eddy {
namespace {

template <typename Floating>
void appendJavaFloating(Floating value, std::string& out) {
  if (std::isnan(value)) {
    out.append("NaN");
    return;
  }
  if (std::isinf(value)) {
    out.append(value > 0 ? "Infinity" : "-Infinity");
    return;
  }
  if (value == 0) {
    out.append(std::signbit(value) ? "-0.0" : "0.0");
    return;
  }
  char buffer[64];
  auto result =
      std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  std::string_view text(buffer, result.ptr - buffer);  // e.g. "-1.2345e-05", "1e+10"
  if (text.find('.') == std::string_view::npos) {
    // One shortest digit: Java then picks the two-digit decimal closest to the value (it
    // differs only for subnormals, e.g. Double.MIN_VALUE prints 4.9E-324, not 5.0E-324).
    result =
        std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific, 1);
    text = std::string_view(buffer, result.ptr - buffer);
  }
  if (text.front() == '-') {
    out.push_back('-');
    text.remove_prefix(1);
  }
  size_t exponentAt = text.find('e');
  std::string digits;
  for (char c : text.substr(0, exponentAt)) {
    if (c != '.') digits.push_back(c);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int exponent = 0;
  std::from_chars(text.data() + exponentAt + 1 + (text[exponentAt + 1] == '+' ? 1 : 0),
                  text.data() + text.size(), exponent);
  Floating magnitude = std::fabs(value);
  if (magnitude >= Floating(1e-3) && magnitude < Floating(1e7)) {
    if (exponent >= 0) {
      size_t integerDigits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= integerDigits) {
        out.append(digits);
        out.append(integerDigits - digits.size(), '0');
        out.append(".0");
      } else {
        out.append(digits, 0, integerDigits);
        out.push_back('.');
        out.append(digits, integerDigits);
      }
    } else {
      out.append("0.");
      out.append(static_cast<size_t>(-exponent - 1), '0');
      out.append(digits);
    }
    return;
  }
  out.push_back(digits[0]);
  out.push_back('.');
  if (digits.size() > 1) {
    out.append(digits, 1);
  } else {
    out.push_back('0');
  }
  out.push_back('E');
  out.append(std::to_string(exponent));
}

}  // namespace

void appendDouble(double value, std::string& out) { appendJavaFloating(value, out); }
void appendFloat(float value, std::string& out) { appendJavaFloating(value, out); }

std::string formatDouble(double value) {
  std::string out;
  appendDouble(value, out);
  return out;
}

std::string formatFloat(float value) {
  std::string out;
  appendFloat(value, out);
  return out;
}

}  // namespace eddy
