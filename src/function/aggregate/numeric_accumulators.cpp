// The arithmetic of SUM, AVG and the variances (see the header).
#include "function/aggregate/numeric_accumulators.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

#include "eddy/exceptions.h"
#include "function/value_order.h"

namespace eddy::function {

namespace {

/// A DOUBLE cast to `type` as Flink's CAST does: integers truncate toward zero (saturating,
/// NaN → 0, as Java's (long) cast, then wrapping to narrower types), DECIMAL rounds to its
/// scale.
Value castDoubleTo(double value, const LogicalType& type) {
  auto javaLong = [](double d) -> int64_t {
    if (std::isnan(d)) return 0;
    if (d >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
    if (d <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(d);
  };
  auto javaInt = [](double d) -> int32_t {
    if (std::isnan(d)) return 0;
    if (d >= 2147483647.0) return std::numeric_limits<int32_t>::max();
    if (d <= -2147483648.0) return std::numeric_limits<int32_t>::min();
    return static_cast<int32_t>(d);
  };
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::TINYINT:
      return Value(static_cast<int8_t>(javaInt(value)));
    case LogicalTypeRoot::SMALLINT:
      return Value(static_cast<int16_t>(javaInt(value)));
    case LogicalTypeRoot::INTEGER:
      return Value(javaInt(value));
    case LogicalTypeRoot::BIGINT:
      return Value(javaLong(value));
    case LogicalTypeRoot::FLOAT:
      return Value(static_cast<float>(value));
    case LogicalTypeRoot::DOUBLE:
      return Value(value);
    case LogicalTypeRoot::DECIMAL: {
      if (!std::isfinite(value)) return Value();
      char text[400];
      auto [end, error] = std::to_chars(text, text + sizeof(text), value, std::chars_format::fixed,
                                        type.getScale());
      if (error != std::errc()) return Value();
      auto rescaled = Decimal::fromString(std::string_view(text, end - text))
                          .rescale(type.getPrecision(), type.getScale());
      if (!rescaled) return Value();  // overflow: NULL, as Flink's DecimalData
      return Value(*rescaled);
    }
    default:
      throw InternalError("unsupported aggregate result type " + type.asSummaryString());
  }
}

}  // namespace

Value addToSum(const Value& sum, const Value& input, bool subtract) {
  if (isIntegerKind(input.kind())) {
    auto current = static_cast<uint64_t>(sum.isNull() ? 0 : sum.get<int64_t>());
    auto delta = static_cast<uint64_t>(integerOf(input));
    return Value(static_cast<int64_t>(subtract ? current - delta : current + delta));
  }
  if (input.kind() == ValueKind::DECIMAL) {
    const Decimal& decimal = input.get<Decimal>();
    int scale = decimal.scale();
    Decimal::Unscaled current = sum.isNull() ? 0 : sum.get<Decimal>().unscaledValue();
    Decimal::Unscaled delta = decimal.unscaledValue();
    return Value(Decimal::fromUnscaled(subtract ? current - delta : current + delta,
                                       Decimal::kMaxPrecision, scale));
  }
  double current = sum.isNull() ? 0.0 : sum.get<double>();
  double delta = doubleOf(input);
  return Value(subtract ? current - delta : current + delta);
}

Value narrowTo(const Value& wide, const LogicalType& type) {
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::TINYINT:
      return Value(static_cast<int8_t>(integerOf(wide)));
    case LogicalTypeRoot::SMALLINT:
      return Value(static_cast<int16_t>(integerOf(wide)));
    case LogicalTypeRoot::INTEGER:
      return Value(static_cast<int32_t>(integerOf(wide)));
    case LogicalTypeRoot::BIGINT:
      return Value(integerOf(wide));
    case LogicalTypeRoot::FLOAT:
      return Value(static_cast<float>(doubleOf(wide)));
    case LogicalTypeRoot::DOUBLE:
      return Value(doubleOf(wide));
    case LogicalTypeRoot::DECIMAL: {
      auto rescaled = wide.get<Decimal>().rescale(type.getPrecision(), type.getScale());
      if (!rescaled) return Value();  // overflow: NULL, as Flink's DecimalData
      return Value(*rescaled);
    }
    default:
      throw InternalError("unsupported aggregate result type " + type.asSummaryString());
  }
}

Value averageOf(const Value& sum, int64_t count, const LogicalType& resultType) {
  if (sum.kind() == ValueKind::BIGINT) {
    // Integer AVG truncates, as Flink's AvgAggFunction on integer types.
    return narrowTo(Value(sum.get<int64_t>() / count), resultType);
  }
  if (sum.kind() == ValueKind::DECIMAL) {
    // sum / count with the result scale, rounded HALF_UP.
    const Decimal& total = sum.get<Decimal>();
    int scaleUp = resultType.getScale() - total.scale();
    Decimal::Unscaled numerator = total.unscaledValue();
    for (int i = 0; i < scaleUp; ++i) numerator *= 10;
    Decimal::Unscaled quotient = numerator / count;
    Decimal::Unscaled remainder = numerator % count;
    if (2 * (remainder < 0 ? -remainder : remainder) >= count) {
      quotient += numerator < 0 ? -1 : 1;
    }
    return Value(Decimal::fromUnscaled(quotient, resultType.getPrecision(), resultType.getScale()));
  }
  return narrowTo(Value(sum.get<double>() / static_cast<double>(count)), resultType);
}

void addToMoments(Value* moments, double input, bool retract) {
  int64_t count = moments[0].get<int64_t>();
  double mean = moments[1].get<double>();
  double m2 = moments[2].get<double>();
  if (!retract) {
    ++count;
    double delta = input - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (input - mean);
  } else if (count <= 1) {
    count = 0;  // the last value leaves: exactly empty, no rounding residue
    mean = 0;
    m2 = 0;
  } else {
    double newMean = (mean * static_cast<double>(count) - input) / static_cast<double>(count - 1);
    m2 -= (input - mean) * (input - newMean);
    mean = newMean;
    --count;
  }
  moments[0] = Value(count);
  moments[1] = Value(mean);
  moments[2] = Value(m2);
}

Value varianceOf(const Value* moments, bool population, bool squareRoot,
                 const LogicalType& resultType) {
  int64_t count = moments[0].get<int64_t>();
  int64_t denominator = population ? count : count - 1;
  if (denominator <= 0) return Value();  // no rows, or one row for the sample forms
  // m2 is never negative; rounding in retractions may leave it a hair below zero.
  double m2 = std::max(moments[2].get<double>(), 0.0);
  double variance = m2 / static_cast<double>(denominator);
  return castDoubleTo(squareRoot ? std::pow(variance, 0.5) : variance, resultType);
}

}  // namespace eddy::function
