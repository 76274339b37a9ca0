#include "eddy/datastream/field_aggregation.h"

namespace eddy::datastream_detail {

namespace {

template <typename V>
Value combine(const Value& accumulated, const Value& next, FieldAggregation aggregation) {
  return Value(aggregateValue(accumulated.get<V>(), next.get<V>(), aggregation));
}

Value combineDecimals(const Decimal& accumulated, const Decimal& next,
                      FieldAggregation aggregation, const FieldReference& field) {
  if (aggregation != FieldAggregation::SUM) {
    bool nextWins = aggregation == FieldAggregation::MIN ? next.compareTo(accumulated) < 0
                                                         : accumulated.compareTo(next) < 0;
    return Value(nextWins ? next : accumulated);
  }
  int scale = std::max(accumulated.scale(), next.scale());
  auto left = accumulated.rescale(Decimal::kMaxPrecision, scale);
  auto right = next.rescale(Decimal::kMaxPrecision, scale);
  if (left && right) {
    Decimal::Unscaled sum = left->unscaledValue() + right->unscaledValue();
    try {
      return Value(Decimal::fromUnscaled(sum, Decimal::kMaxPrecision, scale));
    } catch (const ValidationException&) {
      // overflow: reported below
    }
  }
  throw ValidationException("Aggregation field " + field.describe() +
                            ": the DECIMAL sum overflows 38 digits");
}

}  // namespace

Value aggregateFieldValues(const Value& accumulated, const Value& next,
                           FieldAggregation aggregation, const FieldReference& field) {
  if (accumulated.isNull()) return next;
  if (next.isNull()) return accumulated;
  if (accumulated.kind() != next.kind()) {
    throw ValidationException("Aggregation field " + field.describe() + " holds " +
                              std::string(valueKindName(accumulated.kind())) + " and " +
                              std::string(valueKindName(next.kind())) +
                              " values; they cannot be combined");
  }
  switch (accumulated.kind()) {
    case ValueKind::TINYINT:
      return combine<int8_t>(accumulated, next, aggregation);
    case ValueKind::SMALLINT:
      return combine<int16_t>(accumulated, next, aggregation);
    case ValueKind::INT:
      return combine<int32_t>(accumulated, next, aggregation);
    case ValueKind::BIGINT:
      return combine<int64_t>(accumulated, next, aggregation);
    case ValueKind::FLOAT:
      return combine<float>(accumulated, next, aggregation);
    case ValueKind::DOUBLE:
      return combine<double>(accumulated, next, aggregation);
    case ValueKind::DECIMAL:
      return combineDecimals(accumulated.get<Decimal>(), next.get<Decimal>(), aggregation, field);
    default:
      throw ValidationException("Aggregation field " + field.describe() + " is not a number: " +
                                std::string(valueKindName(accumulated.kind())));
  }
}

}  // namespace eddy::datastream_detail
