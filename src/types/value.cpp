// Value: printing as Flink prints Row fields, Java-equals semantics, hashing, and the
// TypeSerializer<Value> byte format documented in value.h.
#include "eddy/types/value.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "eddy/row.h"
#include "eddy/types/record_format.h"

namespace eddy {
namespace {

template <typename Floating>
bool javaFloatingEquals(Floating left, Floating right) {
  if (std::isnan(left) || std::isnan(right)) return std::isnan(left) && std::isnan(right);
  return left == right && std::signbit(left) == std::signbit(right);
}

void combineHash(size_t& seed, size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

template <typename Floating>
size_t hashFloating(Floating value) {
  if (std::isnan(value)) return 0x7ff8000000000000ULL;
  return std::hash<Floating>{}(value) ^ (std::signbit(value) ? 1 : 0);
}

template <typename Floating>
Floating canonicalNaN(Floating value) {
  return std::isnan(value) ? std::numeric_limits<Floating>::quiet_NaN() : value;
}

void writeInt128(Decimal::Unscaled value, std::string& out) {
  auto bits = static_cast<unsigned __int128>(value);
  bits ^= static_cast<unsigned __int128>(1) << 127;  // order-preserving, like the integers
  serialization::writeBigEndian(static_cast<uint64_t>(bits >> 64), 8, out);
  serialization::writeBigEndian(static_cast<uint64_t>(bits), 8, out);
}

Decimal::Unscaled readInt128(std::string_view& in) {
  unsigned __int128 high = serialization::readBigEndian(8, in);
  unsigned __int128 low = serialization::readBigEndian(8, in);
  unsigned __int128 bits = (high << 64) | low;
  bits ^= static_cast<unsigned __int128>(1) << 127;
  return static_cast<Decimal::Unscaled>(bits);
}

}  // namespace

std::string_view valueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::NULL_VALUE:
      return "NULL";
    case ValueKind::BOOLEAN:
      return "BOOLEAN";
    case ValueKind::TINYINT:
      return "TINYINT";
    case ValueKind::SMALLINT:
      return "SMALLINT";
    case ValueKind::INT:
      return "INT";
    case ValueKind::BIGINT:
      return "BIGINT";
    case ValueKind::FLOAT:
      return "FLOAT";
    case ValueKind::DOUBLE:
      return "DOUBLE";
    case ValueKind::DECIMAL:
      return "DECIMAL";
    case ValueKind::STRING:
      return "STRING";
    case ValueKind::BYTES:
      return "BYTES";
    case ValueKind::DATE:
      return "DATE";
    case ValueKind::TIME:
      return "TIME";
    case ValueKind::TIMESTAMP:
      return "TIMESTAMP";
    case ValueKind::TIMESTAMP_LTZ:
      return "TIMESTAMP_LTZ";
    case ValueKind::PERIOD:
      return "INTERVAL YEAR TO MONTH";
    case ValueKind::DURATION:
      return "INTERVAL DAY TO SECOND";
    case ValueKind::ARRAY:
      return "ARRAY";
    case ValueKind::MAP:
      return "MAP";
    case ValueKind::ROW:
      return "ROW";
  }
  return "UNKNOWN";
}

Value::Value(Row value) : storage_(std::make_shared<const Row>(std::move(value))) {}

const Row& Value::getRow() const {
  if (const auto* row = std::get_if<std::shared_ptr<const Row>>(&storage_)) return **row;
  throwKindMismatch(ValueKind::ROW);
}

void Value::throwKindMismatch(ValueKind expected) const {
  if (isNull()) {
    throw ValidationException(
        fmt::format("Cannot read a null value as {}.", valueKindName(expected)));
  }
  throw ValidationException(fmt::format("Cannot read a value of type {} as {}.",
                                        valueKindName(kind()), valueKindName(expected)));
}

std::string Value::toString() const {
  std::string out;
  appendTo(out);
  return out;
}

void Value::appendTo(std::string& out) const {
  std::visit(
      [&out](const auto& held) {
        using T = std::decay_t<decltype(held)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          out.append("null");
        } else if constexpr (std::is_same_v<T, bool>) {
          out.append(held ? "true" : "false");
        } else if constexpr (std::is_integral_v<T>) {
          out.append(std::to_string(held));
        } else if constexpr (std::is_same_v<T, float>) {
          appendFloat(held, out);
        } else if constexpr (std::is_same_v<T, double>) {
          appendDouble(held, out);
        } else if constexpr (std::is_same_v<T, std::string>) {
          out.append(held);
        } else if constexpr (std::is_same_v<T, Bytes>) {
          // Java's Arrays.toString(byte[]): signed bytes.
          out.push_back('[');
          for (size_t i = 0; i < held.size(); ++i) {
            if (i > 0) out.append(", ");
            out.append(std::to_string(static_cast<int8_t>(held[i])));
          }
          out.push_back(']');
        } else if constexpr (std::is_same_v<T, ValueArray>) {
          out.push_back('[');
          for (size_t i = 0; i < held.size(); ++i) {
            if (i > 0) out.append(", ");
            held[i].appendTo(out);
          }
          out.push_back(']');
        } else if constexpr (std::is_same_v<T, ValueMap>) {
          out.push_back('{');
          for (size_t i = 0; i < held.size(); ++i) {
            if (i > 0) out.append(", ");
            held[i].first.appendTo(out);
            out.push_back('=');
            held[i].second.appendTo(out);
          }
          out.push_back('}');
        } else if constexpr (std::is_same_v<T, std::shared_ptr<const Row>>) {
          held->appendTo(out);
        } else {
          out.append(held.toString());
        }
      },
      storage_);
}

bool Value::operator==(const Value& other) const {
  if (storage_.index() != other.storage_.index()) return false;
  return std::visit(
      [&other](const auto& held) -> bool {
        using T = std::decay_t<decltype(held)>;
        const T& otherHeld = std::get<T>(other.storage_);
        if constexpr (std::is_same_v<T, std::monostate>) {
          return true;
        } else if constexpr (std::is_floating_point_v<T>) {
          return javaFloatingEquals(held, otherHeld);
        } else if constexpr (std::is_same_v<T, std::shared_ptr<const Row>>) {
          return held == otherHeld || *held == *otherHeld;
        } else {
          return held == otherHeld;
        }
      },
      storage_);
}

size_t Value::hash() const {
  size_t seed = storage_.index();
  std::visit(
      [&seed](const auto& held) {
        using T = std::decay_t<decltype(held)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          // only the tag
        } else if constexpr (std::is_floating_point_v<T>) {
          combineHash(seed, hashFloating(held));
        } else if constexpr (std::is_integral_v<T> || std::is_same_v<T, std::string>) {
          combineHash(seed, std::hash<T>{}(held));
        } else if constexpr (std::is_same_v<T, Decimal>) {
          combineHash(seed, held.hash());
        } else if constexpr (std::is_same_v<T, Bytes>) {
          combineHash(seed, std::hash<std::string_view>{}(std::string_view(
                                reinterpret_cast<const char*>(held.data()), held.size())));
        } else if constexpr (std::is_same_v<T, ValueArray>) {
          for (const Value& element : held) combineHash(seed, element.hash());
        } else if constexpr (std::is_same_v<T, ValueMap>) {
          for (const auto& [key, value] : held) {
            combineHash(seed, key.hash());
            combineHash(seed, value.hash());
          }
        } else if constexpr (std::is_same_v<T, std::shared_ptr<const Row>>) {
          combineHash(seed, held->hash());
        } else if constexpr (std::is_same_v<T, LocalDate>) {
          combineHash(seed, std::hash<int64_t>{}(held.toEpochDay()));
        } else if constexpr (std::is_same_v<T, LocalTime>) {
          combineHash(seed, std::hash<int64_t>{}(held.toNanoOfDay()));
        } else if constexpr (std::is_same_v<T, LocalDateTime> || std::is_same_v<T, Instant>) {
          combineHash(seed, std::hash<int64_t>{}(held.getNanoOfMillisecond()));
          if constexpr (std::is_same_v<T, Instant>) {
            combineHash(seed, std::hash<int64_t>{}(held.toEpochMilli()));
          } else {
            combineHash(seed, std::hash<int64_t>{}(held.getMillisecond()));
          }
        } else if constexpr (std::is_same_v<T, Period>) {
          combineHash(seed, std::hash<int64_t>{}(held.toTotalMonths()));
          combineHash(seed, std::hash<int>{}(held.getDays()));
        } else if constexpr (std::is_same_v<T, Duration>) {
          combineHash(seed, std::hash<int64_t>{}(held.getSeconds()));
          combineHash(seed, std::hash<int>{}(held.getNano()));
        }
      },
      storage_);
  return seed;
}

std::ostream& operator<<(std::ostream& stream, const Value& value) {
  return stream << value.toString();
}

void TypeSerializer<Value>::serialize(const Value& value, std::string& out) {
  out.push_back(static_cast<char>(value.storage_.index()));
  std::visit(
      [&out](const auto& held) {
        using T = std::decay_t<decltype(held)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          // the tag says it all
        } else if constexpr (std::is_floating_point_v<T>) {
          TypeSerializer<T>::serialize(canonicalNaN(held), out);
        } else if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>) {
          TypeSerializer<T>::serialize(held, out);
        } else if constexpr (std::is_same_v<T, Decimal>) {
          out.push_back(static_cast<char>(held.scale()));
          writeInt128(held.unscaledValue(), out);
        } else if constexpr (std::is_same_v<T, Bytes>) {
          serialization::writeVarint(held.size(), out);
          out.append(reinterpret_cast<const char*>(held.data()), held.size());
        } else if constexpr (std::is_same_v<T, LocalDate>) {
          TypeSerializer<int32_t>::serialize(static_cast<int32_t>(held.toEpochDay()), out);
        } else if constexpr (std::is_same_v<T, LocalTime>) {
          TypeSerializer<int64_t>::serialize(held.toNanoOfDay(), out);
        } else if constexpr (std::is_same_v<T, LocalDateTime>) {
          TypeSerializer<int64_t>::serialize(held.getMillisecond(), out);
          TypeSerializer<int32_t>::serialize(held.getNanoOfMillisecond(), out);
        } else if constexpr (std::is_same_v<T, Instant>) {
          TypeSerializer<int64_t>::serialize(held.toEpochMilli(), out);
          TypeSerializer<int32_t>::serialize(held.getNanoOfMillisecond(), out);
        } else if constexpr (std::is_same_v<T, Period>) {
          TypeSerializer<int32_t>::serialize(held.getYears(), out);
          TypeSerializer<int32_t>::serialize(held.getMonths(), out);
          TypeSerializer<int32_t>::serialize(held.getDays(), out);
        } else if constexpr (std::is_same_v<T, Duration>) {
          TypeSerializer<int64_t>::serialize(held.getSeconds(), out);
          TypeSerializer<int32_t>::serialize(held.getNano(), out);
        } else if constexpr (std::is_same_v<T, ValueArray>) {
          serialization::writeVarint(held.size(), out);
          for (const Value& element : held) TypeSerializer<Value>::serialize(element, out);
        } else if constexpr (std::is_same_v<T, ValueMap>) {
          serialization::writeVarint(held.size(), out);
          for (const auto& [key, element] : held) {
            TypeSerializer<Value>::serialize(key, out);
            TypeSerializer<Value>::serialize(element, out);
          }
        } else if constexpr (std::is_same_v<T, std::shared_ptr<const Row>>) {
          TypeSerializer<Row>::serialize(*held, out);
        }
      },
      value.storage_);
}

Value TypeSerializer<Value>::deserialize(std::string_view& in) {
  auto tag = static_cast<int>(serialization::readBigEndian(1, in));
  switch (static_cast<ValueKind>(tag)) {
    case ValueKind::NULL_VALUE:
      return Value();
    case ValueKind::BOOLEAN:
      return Value(TypeSerializer<bool>::deserialize(in));
    case ValueKind::TINYINT:
      return Value(TypeSerializer<int8_t>::deserialize(in));
    case ValueKind::SMALLINT:
      return Value(TypeSerializer<int16_t>::deserialize(in));
    case ValueKind::INT:
      return Value(TypeSerializer<int32_t>::deserialize(in));
    case ValueKind::BIGINT:
      return Value(TypeSerializer<int64_t>::deserialize(in));
    case ValueKind::FLOAT:
      return Value(TypeSerializer<float>::deserialize(in));
    case ValueKind::DOUBLE:
      return Value(TypeSerializer<double>::deserialize(in));
    case ValueKind::DECIMAL: {
      int scale = static_cast<int>(serialization::readBigEndian(1, in));
      Decimal::Unscaled unscaled = readInt128(in);
      int precision = std::max({types::decimalDigitCount(unscaled), scale, 1});
      return Value(Decimal::fromUnscaled(unscaled, precision, scale));
    }
    case ValueKind::STRING:
      return Value(TypeSerializer<std::string>::deserialize(in));
    case ValueKind::BYTES: {
      uint64_t size = serialization::readVarint(in);
      if (in.size() < size) throw InternalError("truncated bytes in serialized data");
      Bytes bytes(in.begin(), in.begin() + size);
      in.remove_prefix(size);
      return Value(std::move(bytes));
    }
    case ValueKind::DATE:
      return Value(LocalDate::ofEpochDay(TypeSerializer<int32_t>::deserialize(in)));
    case ValueKind::TIME:
      return Value(LocalTime::ofNanoOfDay(TypeSerializer<int64_t>::deserialize(in)));
    case ValueKind::TIMESTAMP: {
      int64_t millisecond = TypeSerializer<int64_t>::deserialize(in);
      return Value(
          LocalDateTime::ofEpochMillis(millisecond, TypeSerializer<int32_t>::deserialize(in)));
    }
    case ValueKind::TIMESTAMP_LTZ: {
      int64_t millisecond = TypeSerializer<int64_t>::deserialize(in);
      return Value(Instant::ofEpochMilli(millisecond, TypeSerializer<int32_t>::deserialize(in)));
    }
    case ValueKind::PERIOD: {
      int32_t years = TypeSerializer<int32_t>::deserialize(in);
      int32_t months = TypeSerializer<int32_t>::deserialize(in);
      return Value(Period::of(years, months, TypeSerializer<int32_t>::deserialize(in)));
    }
    case ValueKind::DURATION: {
      int64_t seconds = TypeSerializer<int64_t>::deserialize(in);
      return Value(Duration::ofSeconds(seconds, TypeSerializer<int32_t>::deserialize(in)));
    }
    case ValueKind::ARRAY: {
      uint64_t count = serialization::readVarint(in);
      ValueArray elements;
      elements.reserve(count);
      for (uint64_t i = 0; i < count; ++i) elements.push_back(deserialize(in));
      return Value(std::move(elements));
    }
    case ValueKind::MAP: {
      uint64_t count = serialization::readVarint(in);
      ValueMap entries;
      entries.reserve(count);
      for (uint64_t i = 0; i < count; ++i) {
        Value key = deserialize(in);
        entries.emplace_back(std::move(key), deserialize(in));
      }
      return Value(std::move(entries));
    }
    case ValueKind::ROW:
      return Value(TypeSerializer<Row>::deserialize(in));
  }
  throw InternalError(fmt::format("unknown value tag {} in serialized data", tag));
}

}  // namespace eddy
