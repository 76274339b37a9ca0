// Vector: one column of a columnar chunk (DESIGN §2): `size()` values of one logical type, a
// validity bitmap, and the values in a physical layout chosen by the type:
//
//   logical type                       physical layout            buffer element
//   BOOLEAN                            kBoolean                   bool (one byte per value)
//   TINYINT / SMALLINT / INT / BIGINT  kInt8 / kInt16 / kInt32 / kInt64
//   FLOAT / DOUBLE                     kFloat / kDouble
//   DECIMAL(p, s)                      kInt128                    __int128 unscaled value
//   DATE                               kInt32                     days since 1970-01-01
//   TIME(p)                            kInt64                     nanoseconds of the day
//   INTERVAL YEAR TO MONTH             kInt32                     total months (Flink's unit)
//   TIMESTAMP(p), TIMESTAMP_LTZ(p)     kTimestamp                 int64 epoch milliseconds in
//   INTERVAL DAY TO SECOND                                        data<int64_t>() plus int32
//                                                                 nanoseconds within the
//                                                                 millisecond (0..999999) in
//                                                                 nanosOfMillisecond(): Flink's
//                                                                 TimestampData, nanosecond
//                                                                 precision over all years
//   CHAR / VARCHAR / BINARY / VARBINARY kVariableWidth            Arrow style: size()+1 int32
//                                                                 offsets into one byte buffer
//   ARRAY / MULTISET / MAP / ROW /     kBoxed                     one eddy::Value per entry;
//   STRUCTURED / RAW / NULL                                       nested types get a columnar
//                                                                 layout later
//
// Validity: bit i of validity() is 1 when value i is valid (Arrow's convention); a null entry's
// slot holds zero / an empty string / a null Value. Vectors are built by one thread (append,
// setNull, mutableData) and may then be read by many; they are not synchronized. A Vector owns
// its buffers; copying copies them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/check.h"
#include "eddy/types/logical_type.h"
#include "eddy/types/value.h"

namespace eddy::vector {

/// How a column's values are laid out in memory (see the file comment).
enum class PhysicalLayout : int8_t {
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat,
  kDouble,
  kInt128,
  kTimestamp,
  kVariableWidth,
  kBoxed,
};

/// The layout used for values of `type`.
PhysicalLayout physicalLayoutOf(const LogicalType& type);

/// Bytes per value of a fixed-width layout (0 for variable-width and boxed layouts).
int physicalWidthOf(PhysicalLayout layout);

/// Whether values of `layout` are integers (kInt8..kInt64: the integer types, DATE, TIME,
/// INTERVAL YEAR TO MONTH), which integerAt reads.
inline bool isIntegerLayout(PhysicalLayout layout) {
  return layout == PhysicalLayout::kInt8 || layout == PhysicalLayout::kInt16 ||
         layout == PhysicalLayout::kInt32 || layout == PhysicalLayout::kInt64;
}

/// The Value in one slot of a non-boxed layout (shared by Vector and the function module's
/// KernelVector): `slot` points at a fixed-width value, `nanoOfMillisecond` completes a
/// timestamp or day-time interval, `bytes` holds a string or binary value. nullopt for the
/// boxed layouts, whose slots are Values already.
std::optional<Value> valueOfSlot(const LogicalType& type, const std::byte* slot,
                                 int32_t nanoOfMillisecond, std::string_view bytes);


/// One column of values; see the file comment.
class Vector {
 public:
  /// An empty vector of `type` (must not be null).
  explicit Vector(LogicalTypePtr type);

  const LogicalTypePtr& type() const { return type_; }
  PhysicalLayout layout() const { return layout_; }
  int64_t size() const { return size_; }

  /// A vector of `size` values built from whole buffers (a kernel's result taken over, not
  /// appended value by value). `validity`: validityWords(size) words, bit set = valid, or
  /// empty when none is null (bits past `size` are ignored). Fixed-width layouts: `values`
  /// points at `size` values (copied; kTimestamp also takes `nanos`, one per value); variable
  /// width: `offsets` (size + 1, the first 0) into `bytes`. Not for the boxed layout. The
  /// slots of NULL values are zeroed, as appendNull leaves them.
  static Vector fromBuffers(LogicalTypePtr type, int64_t size, std::vector<uint64_t> validity,
                            const std::byte* values, std::vector<int32_t> nanos,
                            std::vector<int32_t> offsets, std::string bytes);

  /// Reserves room for `capacity` values (variable width: offsets only).
  void reserve(int64_t capacity);
  /// Variable width: reserves room for `bytes` bytes of string data, so a writer that knows
  /// its total appends without regrowing the buffer.
  void reserveBytes(int64_t bytes);
  /// Shrinks to `size` values, or grows with null values.
  void resize(int64_t size);

  // --- Fixed-width access. T must match the layout: bool, int8_t, int16_t, int32_t, int64_t,
  // float, double, __int128 (kTimestamp: int64_t milliseconds). ---
  template <typename T>
  const T* data() const {
    checkElementType<T>();
    return reinterpret_cast<const T*>(values_.data());
  }
  template <typename T>
  T* mutableData() {
    checkElementType<T>();
    return reinterpret_cast<T*>(values_.data());
  }
  /// kTimestamp only: nanoseconds within the millisecond, one per value.
  const int32_t* nanosOfMillisecond() const;
  int32_t* mutableNanosOfMillisecond();

  // --- Variable-width access. ---
  /// size()+1 offsets into bytes(); value i is bytes()[offsets()[i], offsets()[i+1]).
  const int32_t* offsets() const;
  const char* bytes() const { return bytes_.data(); }
  /// Value i of a CHAR/VARCHAR/BINARY/VARBINARY vector (empty for null).
  std::string_view stringAt(int64_t index) const;

  // --- Boxed access. ---
  const Value& boxedAt(int64_t index) const;

  // --- Nulls. ---
  bool isNull(int64_t index) const {
    EDDY_CHECK_LT(index, size_);
    return (validity_[index >> 6] & (uint64_t{1} << (index & 63))) == 0;
  }
  void setNull(int64_t index, bool isNull = true);
  /// False when no value is null (a fast path for kernels).
  bool mayHaveNulls() const { return nullCount_ > 0; }
  int64_t nullCount() const { return nullCount_; }
  /// The validity bitmap, 64 values per word, bit set = valid.
  const uint64_t* validity() const { return validity_.data(); }

  // --- Appending. ---
  void appendNull();
  /// Appends a fixed-width value; T must match the layout as for data<T>().
  template <typename T>
  void append(T value) {
    checkElementType<T>();
    EDDY_CHECK(layout_ != PhysicalLayout::kTimestamp);
    appendValidBit();
    appendRaw(&value, sizeof(T));
  }
  void appendTimestamp(int64_t millisecond, int32_t nanoOfMillisecond);
  void appendString(std::string_view value);
  void appendBoxed(Value value);
  /// Appends `value` converted to this vector's logical type. Integers may widen (INT into
  /// BIGINT), FLOAT into DOUBLE, and decimals are rescaled (HALF_UP) to the column's
  /// precision and scale; nested values are stored as they are. Throws ValidationException
  /// "expects INT NOT NULL but got ..." when the value does not fit (the vector is unchanged).
  void appendValue(const Value& value);
  /// Appends values rows[0..count) of `source`, a vector of the same fixed-width (or
  /// kTimestamp) layout: the values copied by index into one resize, the validity bits set a
  /// word at a time (the filter and exchange gathers).
  void appendGathered(const Vector& source, const int32_t* rows, int64_t count);
  /// Appends value `index` of `source`: copied as it is stored when both vectors store values
  /// of one type alike (no Value made), else converted as appendValue(source.valueAt(index)).
  void appendFrom(const Vector& source, int64_t index);
  /// Value i as a Value of the kind matching the logical type (DATE → LocalDate, ...).
  Value valueAt(int64_t index) const;
  /// Appends value i to `out` in TypeSerializer<Value>'s byte format, the bytes of
  /// serialize(valueAt(i)); for the common flat types (booleans, integers, floating point,
  /// strings, dates, timestamps) without making the Value (snapshots of stored rows).
  void serializeValueAt(int64_t index, std::string& out) const;

 private:
  template <typename T>
  void checkElementType() const {
    if constexpr (std::is_same_v<T, int64_t>) {
      // kTimestamp columns hold their milliseconds as int64_t.
      EDDY_CHECK(layout_ == PhysicalLayout::kInt64 || layout_ == PhysicalLayout::kTimestamp);
    } else {
      EDDY_CHECK_EQ(static_cast<int>(layout_), static_cast<int>(layoutOfElement<T>()));
    }
  }
  template <typename T>
  static constexpr PhysicalLayout layoutOfElement() {
    if constexpr (std::is_same_v<T, bool>)
      return PhysicalLayout::kBoolean;
    else if constexpr (std::is_same_v<T, int8_t>)
      return PhysicalLayout::kInt8;
    else if constexpr (std::is_same_v<T, int16_t>)
      return PhysicalLayout::kInt16;
    else if constexpr (std::is_same_v<T, int32_t>)
      return PhysicalLayout::kInt32;
    else if constexpr (std::is_same_v<T, float>)
      return PhysicalLayout::kFloat;
    else if constexpr (std::is_same_v<T, double>)
      return PhysicalLayout::kDouble;
    else if constexpr (std::is_same_v<T, __int128>)
      return PhysicalLayout::kInt128;
    else {
      static_assert(std::is_same_v<T, int64_t>, "unsupported vector element type");
      return PhysicalLayout::kInt64;
    }
  }
  void appendValidBit();
  void appendRaw(const void* value, size_t width);
  [[noreturn]] void throwMismatch(const Value& value, std::string_view why = "") const;

  LogicalTypePtr type_;
  PhysicalLayout layout_;
  int valueWidth_;  // bytes per value in values_, 0 for variable width and boxed
  int64_t size_ = 0;
  int64_t nullCount_ = 0;
  std::vector<uint64_t> validity_;
  std::vector<std::byte> values_;    // fixed-width values
  std::vector<int32_t> nanos_;       // kTimestamp: nanos of millisecond
  std::vector<int32_t> offsets_{0};  // kVariableWidth
  std::string bytes_;                // kVariableWidth
  std::vector<Value> boxed_;         // kBoxed
};

/// Value `row` of a vector of an integer layout (isIntegerLayout), widened to int64_t.
inline int64_t integerAt(const Vector& column, int64_t row) {
  switch (column.layout()) {
    case PhysicalLayout::kInt8:
      return column.data<int8_t>()[row];
    case PhysicalLayout::kInt16:
      return column.data<int16_t>()[row];
    case PhysicalLayout::kInt32:
      return column.data<int32_t>()[row];
    default:
      return column.data<int64_t>()[row];
  }
}

}  // namespace eddy::vector
