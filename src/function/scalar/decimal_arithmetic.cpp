// Exact DECIMAL arithmetic on 128-bit unscaled values (see scalar_function_builders.h).
#include <cstdlib>

#include "eddy/types/decimal.h"
#include "function/scalar/scalar_function_builders.h"

namespace eddy::function::decimal {
namespace {

using Unsigned = unsigned __int128;

Unsigned magnitude(Int128 value) {
  return value < 0 ? Unsigned(0) - static_cast<Unsigned>(value) : static_cast<Unsigned>(value);
}

}  // namespace

Int128 powerOfTen(int exponent) { return types::powerOfTen(exponent); }

std::optional<Int128> scaleUp(Int128 value, int exponent) {
  if (exponent == 0) return value;
  if (exponent > 38) return value == 0 ? std::optional<Int128>(0) : std::nullopt;
  Int128 result;
  if (__builtin_mul_overflow(value, powerOfTen(exponent), &result)) return std::nullopt;
  return result;
}

Int128 scaleDownHalfUp(Int128 value, int exponent) {
  if (exponent == 0) return value;
  if (exponent > 38) return 0;
  Int128 divisor = powerOfTen(exponent);
  Int128 quotient = value / divisor;
  Int128 remainder = value % divisor;
  if (magnitude(remainder) * 2 >= static_cast<Unsigned>(divisor)) {
    quotient += value < 0 ? -1 : 1;
  }
  return quotient;
}

Int128 scaleDownTruncate(Int128 value, int exponent) {
  if (exponent == 0) return value;
  if (exponent > 38) return 0;
  return value / powerOfTen(exponent);
}

bool fitsPrecision(Int128 value, int precision) {
  return magnitude(value) < static_cast<Unsigned>(powerOfTen(precision));
}

std::optional<Int128> rescale(Int128 value, int fromScale, int toScale, int precision) {
  std::optional<Int128> result;
  if (toScale >= fromScale) {
    result = scaleUp(value, toScale - fromScale);
  } else {
    result = scaleDownHalfUp(value, fromScale - toScale);
  }
  if (!result || !fitsPrecision(*result, precision)) return std::nullopt;
  return result;
}

std::optional<Int128> divideHalfUp(Int128 dividend, int exponent, Int128 divisor) {
  bool negative = (dividend < 0) != (divisor < 0);
  Unsigned numerator = magnitude(dividend);
  Unsigned denominator = magnitude(divisor);
  if (exponent < 0) {
    // Fewer fraction digits than the dividend has: drop them first (HALF_UP at the end would
    // round twice, so divide by denominator × 10^-exponent in one step when it fits).
    Unsigned scale = static_cast<Unsigned>(powerOfTen(-exponent));
    Unsigned product;
    if (__builtin_mul_overflow(denominator, scale, &product)) return Int128(0);
    denominator = product;
    exponent = 0;
  }
  Unsigned quotient = numerator / denominator;
  Unsigned remainder = numerator % denominator;
  const Unsigned limit = static_cast<Unsigned>(powerOfTen(38));
  for (int digit = 0; digit < exponent; ++digit) {
    // remainder < denominator <= 10^38, so remainder * 10 < 2^128.
    remainder *= 10;
    quotient = quotient * 10 + remainder / denominator;
    remainder %= denominator;
    if (quotient >= limit) return std::nullopt;
  }
  if (remainder >= denominator - remainder) ++quotient;  // 2 * remainder >= denominator
  if (quotient >= limit) return std::nullopt;
  Int128 result = static_cast<Int128>(quotient);
  return negative ? -result : result;
}

int compare(Int128 left, int leftScale, Int128 right, int rightScale) {
  if (leftScale < rightScale) return -compare(right, rightScale, left, leftScale);
  if (leftScale > rightScale) {
    std::optional<Int128> scaled = scaleUp(right, leftScale - rightScale);
    if (!scaled) return right < 0 ? 1 : -1;  // |right| beyond any 38-digit left
    right = *scaled;
  }
  return left < right ? -1 : (left > right ? 1 : 0);
}

std::string toPlainString(Int128 unscaled, int scale) {
  std::string digits = types::int128ToString(unscaled < 0 ? -unscaled : unscaled);
  if (scale > 0) {
    if (static_cast<int>(digits.size()) <= scale) {
      digits.insert(0, static_cast<size_t>(scale + 1 - static_cast<int>(digits.size())), '0');
    }
    digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  }
  if (unscaled < 0) digits.insert(0, "-");
  return digits;
}

}  // namespace eddy::function::decimal
