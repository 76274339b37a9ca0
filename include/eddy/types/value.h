// Value: one field of a Row, tagged with its kind. It holds what a Java Row field may hold in
// Flink (null, Boolean, Byte/Short/Integer/Long, Float/Double, BigDecimal, String, byte[],
// LocalDate/LocalTime/LocalDateTime/Instant, Period/Duration, arrays/lists, maps, nested
// Rows) with eddy's value classes. Values are plain values: copying copies the content
// (a nested Row is shared immutably, so copying it is cheap). Not synchronized; a Value may be
// read from many threads once built.
//
// Implicit constructors make row building read naturally: `Row::of("Alice", 12, 10.5)`.
// Integers keep their C++ width (int → INT, int64_t → BIGINT); `nullptr` is null.
// Typed access is `value.get<int32_t>()`, which throws ValidationException naming the
// expected and the actual kind on mismatch.
//
// Equality is Java's equals on the held objects: kinds must match (INT 1 != BIGINT 1), floats
// compare as Double.equals (NaN equals NaN, 0.0 != -0.0), decimals as BigDecimal.equals
// (10.5 != 10.50), maps by entries in order. TypeSerializer<Value> (below) writes one tag byte
// then the payload; equal values give equal bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "eddy/types/decimal.h"
#include "eddy/types/temporal.h"
#include "eddy/types/type_serializer.h"

namespace eddy {

class Row;
class Value;

/// The kind of value a Value holds. The order is the serialized tag; never reorder.
enum class ValueKind : int8_t {
  NULL_VALUE = 0,
  BOOLEAN,
  TINYINT,
  SMALLINT,
  INT,
  BIGINT,
  FLOAT,
  DOUBLE,
  DECIMAL,
  STRING,
  BYTES,
  DATE,           ///< LocalDate
  TIME,           ///< LocalTime
  TIMESTAMP,      ///< LocalDateTime
  TIMESTAMP_LTZ,  ///< Instant
  PERIOD,         ///< year-month interval
  DURATION,       ///< day-time interval
  ARRAY,          ///< ValueArray (also MULTISET elements)
  MAP,            ///< ValueMap
  ROW,            ///< nested Row
};

/// The printed name of a kind ("INT", "STRING", ...), used in error messages.
std::string_view valueKindName(ValueKind kind);

/// Binary data (BINARY/VARBINARY/BYTES).
using Bytes = std::vector<uint8_t>;
/// Elements of an ARRAY (or MULTISET).
using ValueArray = std::vector<Value>;
/// Entries of a MAP, in insertion order.
using ValueMap = std::vector<std::pair<Value, Value>>;

/// A tagged field value. See the file comment.
class Value {
 public:
  /// Null.
  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool value) : storage_(value) {}
  /// Any integer: its width picks the kind (int8_t TINYINT ... int64_t BIGINT); unsigned types
  /// take the next wider signed kind (uint64_t is stored as BIGINT and may wrap).
  template <typename Integer>
  requires(std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>) Value(Integer value)
      : storage_(widen(value)) {}
  Value(float value) : storage_(value) {}
  Value(double value) : storage_(value) {}
  Value(Decimal value) : storage_(value) {}
  Value(std::string value) : storage_(std::move(value)) {}
  Value(std::string_view value) : storage_(std::string(value)) {}
  Value(const char* value) : storage_(std::string(value)) {}
  Value(Bytes value) : storage_(std::move(value)) {}
  Value(LocalDate value) : storage_(value) {}
  Value(LocalTime value) : storage_(value) {}
  Value(LocalDateTime value) : storage_(value) {}
  Value(Instant value) : storage_(value) {}
  Value(Period value) : storage_(value) {}
  Value(Duration value) : storage_(value) {}
  Value(ValueArray value) : storage_(std::move(value)) {}
  Value(ValueMap value) : storage_(std::move(value)) {}
  Value(Row value);

  static Value ofBytes(Bytes bytes) { return Value(std::move(bytes)); }
  static Value ofArray(ValueArray elements) { return Value(std::move(elements)); }
  static Value ofMap(ValueMap entries) { return Value(std::move(entries)); }

  ValueKind kind() const { return static_cast<ValueKind>(storage_.index()); }
  bool isNull() const { return storage_.index() == 0; }

  /// Whether the value holds a T (one of the C++ types above, or Row).
  template <typename T>
  bool is() const {
    if constexpr (std::is_same_v<T, Row>) {
      return kind() == ValueKind::ROW;
    } else {
      return std::holds_alternative<T>(storage_);
    }
  }

  /// The held T. Throws ValidationException "Cannot read a value of type STRING as INT." on a
  /// mismatch (also for null).
  template <typename T>
  const T& get() const {
    if constexpr (std::is_same_v<T, Row>) {
      return getRow();
    } else {
      static_assert(kIndexOf<T> != kNotAlternative,
                    "Value holds no such type; use bool, int8_t..int64_t, float, double, "
                    "Decimal, std::string, Bytes, LocalDate, LocalTime, LocalDateTime, "
                    "Instant, Period, Duration, ValueArray, ValueMap or Row");
      if (const T* held = std::get_if<T>(&storage_)) return *held;
      throwKindMismatch(static_cast<ValueKind>(kIndexOf<T>));
    }
  }
  /// The held T for an in-place change (not for Row, which is shared); errors as get().
  template <typename T>
  T& getMutable() {
    static_assert(!std::is_same_v<T, Row>, "a Row value is shared and cannot change in place");
    return const_cast<T&>(std::as_const(*this).template get<T>());
  }
  const Row& getRow() const;

  /// The kind a C++ type is held as: kindOf<int32_t>() is INT, kindOf<Row>() is ROW.
  template <typename T>
  static constexpr ValueKind kindOf() {
    if constexpr (std::is_same_v<T, Row>) {
      return ValueKind::ROW;
    } else {
      static_assert(kIndexOf<T> != kNotAlternative, "Value holds no such type");
      return static_cast<ValueKind>(kIndexOf<T>);
    }
  }

  /// As Flink prints the field inside a Row: `null`, `10.5`, `[1, 2]`, `{k=v}`, `+I[...]`.
  std::string toString() const;
  void appendTo(std::string& out) const;

  bool operator==(const Value& other) const;
  bool operator!=(const Value& other) const { return !(*this == other); }
  size_t hash() const;

 private:
  using Storage =
      std::variant<std::monostate, bool, int8_t, int16_t, int32_t, int64_t, float, double, Decimal,
                   std::string, Bytes, LocalDate, LocalTime, LocalDateTime, Instant, Period,
                   Duration, ValueArray, ValueMap, std::shared_ptr<const Row>>;

  static constexpr size_t kNotAlternative = static_cast<size_t>(-1);
  template <typename T, typename Variant>
  struct IndexOf;
  template <typename T, typename... Alternatives>
  struct IndexOf<T, std::variant<Alternatives...>> {
    static constexpr size_t value = [] {
      size_t index = 0;
      bool found = ((std::is_same_v<T, Alternatives> ? true : (++index, false)) || ...);
      return found ? index : kNotAlternative;
    }();
  };
  template <typename T>
  static constexpr size_t kIndexOf = IndexOf<T, Storage>::value;

  template <typename Integer>
  static auto widen(Integer value) {
    if constexpr (std::is_signed_v<Integer>) {
      if constexpr (sizeof(Integer) == 1)
        return static_cast<int8_t>(value);
      else if constexpr (sizeof(Integer) == 2)
        return static_cast<int16_t>(value);
      else if constexpr (sizeof(Integer) == 4)
        return static_cast<int32_t>(value);
      else
        return static_cast<int64_t>(value);
    } else {
      if constexpr (sizeof(Integer) == 1)
        return static_cast<int16_t>(value);
      else if constexpr (sizeof(Integer) == 2)
        return static_cast<int32_t>(value);
      else
        return static_cast<int64_t>(value);
    }
  }

  [[noreturn]] void throwKindMismatch(ValueKind expected) const;

  friend struct TypeSerializer<Value>;
  Storage storage_;
};

/// Byte format of a Value: one tag byte (the ValueKind), then
///   NULL_VALUE      nothing
///   BOOLEAN..DOUBLE as TypeSerializer of the C++ type (floats with NaN canonicalized)
///   DECIMAL         scale (1 byte), unscaled value as 16 bytes big-endian, sign bit flipped
///   STRING, BYTES   varint length, bytes
///   DATE            int32 epoch day;  TIME  int64 nano of day
///   TIMESTAMP(_LTZ) int64 epoch millisecond, int32 nano of millisecond
///   PERIOD          int32 years, int32 months, int32 days
///   DURATION        int64 seconds, int32 nanos
///   ARRAY           varint count, values;  MAP  varint count, key value pairs
///   ROW             TypeSerializer<Row> (see row.h)
/// A decimal's precision is not written; a deserialized decimal has the smallest precision.
template <>
struct TypeSerializer<Value> {
  static void serialize(const Value& value, std::string& out);
  static Value deserialize(std::string_view& in);
};

}  // namespace eddy

template <>
struct std::hash<eddy::Value> {
  size_t operator()(const eddy::Value& value) const { return value.hash(); }
};
