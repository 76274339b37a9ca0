// Decimal: an exact decimal number (the value of a DECIMAL(p, s) column), held as a 128-bit
// unscaled integer with a precision and a scale: unscaled 1050, scale 2 is 10.50. Printing
// follows Java's BigDecimal.toString (plain `10.50`; scientific `1E-7` only where BigDecimal
// uses it), which is what Flink prints. A plain value type: copy it freely, any thread.
//
// Equality, hashing and serialization use the unscaled value and the scale (as
// BigDecimal.equals: 10.5 != 10.50); the precision is the declared precision carried along for
// the type and takes no part in them.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace eddy {

/// An exact decimal: unscaled × 10^-scale, with |unscaled| < 10^precision.
class Decimal {
 public:
  using Unscaled = __int128;
  static constexpr int kMaxPrecision = 38;

  /// Zero: DECIMAL(1, 0).
  Decimal() = default;

  /// From an unscaled value. Throws ValidationException if the precision/scale are invalid or
  /// the value needs more than `precision` digits.
  static Decimal fromUnscaled(Unscaled unscaled, int precision, int scale);
  /// Parses "10.50", "-3", "1.5E+3", ".5". The precision is the smallest that fits (at least
  /// the scale). Throws ValidationException on malformed text or more than 38 digits.
  static Decimal fromString(std::string_view text);
  /// Parses and rounds (HALF_UP) to DECIMAL(precision, scale); throws ValidationException if
  /// the value does not fit.
  static Decimal fromString(std::string_view text, int precision, int scale);

  Unscaled unscaledValue() const { return unscaled_; }
  int precision() const { return precision_; }
  int scale() const { return scale_; }

  /// This value as DECIMAL(precision, scale), rounding HALF_UP when the scale shrinks;
  /// std::nullopt when it does not fit (Flink's DecimalData returns null then).
  std::optional<Decimal> rescale(int precision, int scale) const;
  /// The nearest double.
  double toDouble() const;
  /// As Java's BigDecimal.toString().
  std::string toString() const;

  /// Equal when unscaled value and scale are equal (precision ignored).
  bool operator==(const Decimal& other) const {
    return unscaled_ == other.unscaled_ && scale_ == other.scale_;
  }
  /// Numeric order (10.5 and 10.50 compare equivalent).
  std::strong_ordering compareTo(const Decimal& other) const;
  size_t hash() const;

 private:
  Decimal(Unscaled unscaled, int precision, int scale)
      : unscaled_(unscaled),
        precision_(static_cast<int8_t>(precision)),
        scale_(static_cast<int8_t>(scale)) {}

  Unscaled unscaled_ = 0;
  int8_t precision_ = 1;
  int8_t scale_ = 0;
};

namespace types {
/// Number of decimal digits of |value| (1 for zero).
int decimalDigitCount(Decimal::Unscaled value);
/// 10^exponent for 0 <= exponent <= 38.
Decimal::Unscaled powerOfTen(int exponent);
/// Decimal text of a 128-bit integer.
std::string int128ToString(Decimal::Unscaled value);
}  // namespace types

}  // namespace eddy
