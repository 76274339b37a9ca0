#include "function/value_order.h"

#include "eddy/exceptions.h"

namespace eddy::function {

namespace {

template <typename T>
int compareOrdered(const T& left, const T& right) {
  return left < right ? -1 : (right < left ? 1 : 0);
}

}  // namespace

bool isIntegerKind(ValueKind kind) {
  return kind == ValueKind::TINYINT || kind == ValueKind::SMALLINT || kind == ValueKind::INT ||
         kind == ValueKind::BIGINT;
}

int64_t integerOf(const Value& value) {
  switch (value.kind()) {
    case ValueKind::TINYINT:
      return value.get<int8_t>();
    case ValueKind::SMALLINT:
      return value.get<int16_t>();
    case ValueKind::INT:
      return value.get<int32_t>();
    case ValueKind::BIGINT:
      return value.get<int64_t>();
    default:
      throw InternalError("not an integer value: " + value.toString());
  }
}

double doubleOf(const Value& value) {
  if (value.kind() == ValueKind::FLOAT) return value.get<float>();
  if (value.kind() == ValueKind::DOUBLE) return value.get<double>();
  if (value.kind() == ValueKind::DECIMAL) return value.get<Decimal>().toDouble();
  return static_cast<double>(integerOf(value));
}

int compareValues(const Value& left, const Value& right) {
  if (left.kind() != right.kind()) {
    if ((isIntegerKind(left.kind()) || left.kind() == ValueKind::FLOAT ||
         left.kind() == ValueKind::DOUBLE) &&
        (isIntegerKind(right.kind()) || right.kind() == ValueKind::FLOAT ||
         right.kind() == ValueKind::DOUBLE)) {
      return compareOrdered(doubleOf(left), doubleOf(right));
    }
    throw InternalError("cannot compare " + left.toString() + " with " + right.toString());
  }
  switch (left.kind()) {
    case ValueKind::BOOLEAN:
      return compareOrdered(left.get<bool>(), right.get<bool>());
    case ValueKind::TINYINT:
    case ValueKind::SMALLINT:
    case ValueKind::INT:
    case ValueKind::BIGINT:
      return compareOrdered(integerOf(left), integerOf(right));
    case ValueKind::FLOAT:
      return compareOrdered(left.get<float>(), right.get<float>());
    case ValueKind::DOUBLE:
      return compareOrdered(left.get<double>(), right.get<double>());
    case ValueKind::DECIMAL: {
      auto order = left.get<Decimal>().compareTo(right.get<Decimal>());
      return order < 0 ? -1 : (order > 0 ? 1 : 0);
    }
    case ValueKind::STRING:
      return compareOrdered(left.get<std::string>(), right.get<std::string>());
    case ValueKind::DATE:
      return compareOrdered(left.get<LocalDate>(), right.get<LocalDate>());
    case ValueKind::TIME:
      return compareOrdered(left.get<LocalTime>(), right.get<LocalTime>());
    case ValueKind::TIMESTAMP:
      return compareOrdered(left.get<LocalDateTime>(), right.get<LocalDateTime>());
    case ValueKind::TIMESTAMP_LTZ:
      return compareOrdered(left.get<Instant>(), right.get<Instant>());
    default:
      throw ValidationException(std::string("Values of kind ") +
                                std::string(valueKindName(left.kind())) + " are not comparable");
  }
}

}  // namespace eddy::function
