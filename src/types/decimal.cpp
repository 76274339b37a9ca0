// Decimal: parsing, rescaling with HALF_UP rounding, and BigDecimal-style printing.
#include "eddy/types/decimal.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

#include "eddy/exceptions.h"

namespace eddy {
namespace types {

Decimal::Unscaled powerOfTen(int exponent) {
  Decimal::Unscaled result = 1;
  for (int i = 0; i < exponent; ++i) result *= 10;
  return result;
}

int decimalDigitCount(Decimal::Unscaled value) {
  if (value < 0) value = -value;
  int digits = 1;
  while (value >= 10) {
    value /= 10;
    ++digits;
  }
  return digits;
}

std::string int128ToString(Decimal::Unscaled value) {
  if (value == 0) return "0";
  bool negative = value < 0;
  std::string digits;
  while (value != 0) {
    int digit = static_cast<int>(value % 10);
    digits.push_back(static_cast<char>('0' + (digit < 0 ? -digit : digit)));
    value /= 10;
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

}  // namespace types

namespace {

void checkPrecisionAndScale(int precision, int scale) {
  if (precision < 1 || precision > Decimal::kMaxPrecision) {
    throw ValidationException(fmt::format(
        "DECIMAL precision must be between 1 and 38 (both inclusive), but was {}.", precision));
  }
  if (scale < 0 || scale > precision) {
    throw ValidationException(fmt::format(
        "DECIMAL scale must be between 0 and {} (both inclusive), but was {}.", precision, scale));
  }
}

}  // namespace

Decimal Decimal::fromUnscaled(Unscaled unscaled, int precision, int scale) {
  checkPrecisionAndScale(precision, scale);
  if (types::decimalDigitCount(unscaled) > precision) {
    throw ValidationException(fmt::format("Decimal value {}E-{} does not fit DECIMAL({}, {}).",
                                          types::int128ToString(unscaled), scale, precision,
                                          scale));
  }
  return Decimal(unscaled, precision, scale);
}

Decimal Decimal::fromString(std::string_view text) {
  auto malformed = [&]() {
    return ValidationException(fmt::format("Invalid decimal literal '{}'.", text));
  };
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  Unscaled unscaled = 0;
  int significantDigits = 0;
  int fractionDigits = 0;
  bool anyDigit = false;
  bool inFraction = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && !inFraction) {
      inFraction = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    anyDigit = true;
    if (unscaled != 0 || c != '0') ++significantDigits;
    if (significantDigits > kMaxPrecision) {
      throw ValidationException(
          fmt::format("Decimal literal '{}' has more than 38 significant digits.", text));
    }
    unscaled = unscaled * 10 + (c - '0');
    if (inFraction) ++fractionDigits;
  }
  if (!anyDigit) throw malformed();
  int exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negativeExponent = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negativeExponent = text[i++] == '-';
    if (i == text.size()) throw malformed();
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > 1000) throw malformed();
    }
    if (negativeExponent) exponent = -exponent;
  }
  if (i != text.size()) throw malformed();
  int scale = fractionDigits - exponent;
  if (scale < 0) {
    if (types::decimalDigitCount(unscaled) - scale > kMaxPrecision) {
      throw ValidationException(fmt::format("Decimal literal '{}' has more than 38 digits.", text));
    }
    unscaled *= types::powerOfTen(-scale);
    scale = 0;
  }
  if (scale > kMaxPrecision) {
    throw ValidationException(fmt::format("Decimal literal '{}' has a scale above 38.", text));
  }
  if (negative) unscaled = -unscaled;
  int precision = std::max({types::decimalDigitCount(unscaled), scale, 1});
  return Decimal(unscaled, precision, scale);
}

Decimal Decimal::fromString(std::string_view text, int precision, int scale) {
  checkPrecisionAndScale(precision, scale);
  std::optional<Decimal> result = fromString(text).rescale(precision, scale);
  if (!result) {
    throw ValidationException(
        fmt::format("Decimal value {} does not fit DECIMAL({}, {}).", text, precision, scale));
  }
  return *result;
}

std::optional<Decimal> Decimal::rescale(int precision, int scale) const {
  checkPrecisionAndScale(precision, scale);
  Unscaled value = unscaled_;
  if (scale > scale_) {
    int shift = scale - scale_;
    if (types::decimalDigitCount(value) + shift > precision && value != 0) return std::nullopt;
    value *= types::powerOfTen(shift);
  } else if (scale < scale_) {
    Unscaled divisor = types::powerOfTen(scale_ - scale);
    Unscaled quotient = value / divisor;
    Unscaled remainder = value % divisor;
    if (remainder < 0) remainder = -remainder;
    if (remainder * 2 >= divisor) quotient += value < 0 ? -1 : 1;  // HALF_UP
    value = quotient;
  }
  if (types::decimalDigitCount(value) > precision) return std::nullopt;
  return Decimal(value, precision, scale);
}

double Decimal::toDouble() const {
  // Via the text: strtod rounds correctly, a division by 10^scale may not.
  return std::strtod(toString().c_str(), nullptr);
}

std::string Decimal::toString() const {
  // Java BigDecimal.toString: plain when scale >= 0 and the adjusted exponent >= -6.
  Unscaled magnitude = unscaled_ < 0 ? -unscaled_ : unscaled_;
  std::string coefficient = types::int128ToString(magnitude);
  std::string out = unscaled_ < 0 ? "-" : "";
  int adjusted = -scale_ + static_cast<int>(coefficient.size()) - 1;
  if (scale_ == 0) return out + coefficient;
  if (scale_ > 0 && adjusted >= -6) {
    int length = static_cast<int>(coefficient.size());
    if (length > scale_) {
      out += coefficient.substr(0, length - scale_);
      out.push_back('.');
      out += coefficient.substr(length - scale_);
    } else {
      out += "0.";
      out.append(scale_ - length, '0');
      out += coefficient;
    }
    return out;
  }
  out.push_back(coefficient[0]);
  if (coefficient.size() > 1) {
    out.push_back('.');
    out += coefficient.substr(1);
  }
  out.push_back('E');
  if (adjusted >= 0) out.push_back('+');
  out += std::to_string(adjusted);
  return out;
}

std::strong_ordering Decimal::compareTo(const Decimal& other) const {
  int commonScale = std::max(scale_, other.scale_);
  // Both fit 38 digits; aligning scales may exceed int128 only for extreme inputs, so compare
  // by integral parts first to stay within range.
  Unscaled leftWhole = unscaled_ / types::powerOfTen(scale_);
  Unscaled rightWhole = other.unscaled_ / types::powerOfTen(other.scale_);
  if (leftWhole != rightWhole) return leftWhole <=> rightWhole;
  Unscaled leftFraction =
      (unscaled_ % types::powerOfTen(scale_)) * types::powerOfTen(commonScale - scale_);
  Unscaled rightFraction = (other.unscaled_ % types::powerOfTen(other.scale_)) *
                           types::powerOfTen(commonScale - other.scale_);
  return leftFraction <=> rightFraction;
}

size_t Decimal::hash() const {
  auto low = static_cast<uint64_t>(unscaled_);
  auto high = static_cast<uint64_t>(static_cast<unsigned __int128>(unscaled_) >> 64);
  size_t seed = std::hash<uint64_t>{}(low);
  seed ^= std::hash<uint64_t>{}(high) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
  seed ^= static_cast<size_t>(scale_) * 0x100000001b3ULL;
  return seed;
}

}  // namespace eddy
