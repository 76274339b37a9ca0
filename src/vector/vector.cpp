// Vector: buffers per physical layout, appends with conversion from Value, and reads back to
// Value. The layouts and units are documented in vector.h.
#include "vector/vector.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "eddy/row.h"

namespace eddy::vector {
namespace {

static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= alignof(__int128),
              "value buffers must be aligned for __int128");

constexpr int64_t kNanosPerMilli = 1'000'000;

// The value of an integer Value, or false when it is no integer.
bool integerOf(const Value& value, int64_t& result, int& width) {
  switch (value.kind()) {
    case ValueKind::TINYINT:
      result = value.get<int8_t>();
      width = 1;
      return true;
    case ValueKind::SMALLINT:
      result = value.get<int16_t>();
      width = 2;
      return true;
    case ValueKind::INT:
      result = value.get<int32_t>();
      width = 4;
      return true;
    case ValueKind::BIGINT:
      result = value.get<int64_t>();
      width = 8;
      return true;
    default:
      return false;
  }
}

}  // namespace

PhysicalLayout physicalLayoutOf(const LogicalType& type) {
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::BOOLEAN:
      return PhysicalLayout::kBoolean;
    case LogicalTypeRoot::TINYINT:
      return PhysicalLayout::kInt8;
    case LogicalTypeRoot::SMALLINT:
      return PhysicalLayout::kInt16;
    case LogicalTypeRoot::INTEGER:
    case LogicalTypeRoot::DATE:
    case LogicalTypeRoot::INTERVAL_YEAR_MONTH:
      return PhysicalLayout::kInt32;
    case LogicalTypeRoot::BIGINT:
    case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
      return PhysicalLayout::kInt64;
    case LogicalTypeRoot::FLOAT:
      return PhysicalLayout::kFloat;
    case LogicalTypeRoot::DOUBLE:
      return PhysicalLayout::kDouble;
    case LogicalTypeRoot::DECIMAL:
      return PhysicalLayout::kInt128;
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
    case LogicalTypeRoot::INTERVAL_DAY_TIME:
      return PhysicalLayout::kTimestamp;
    case LogicalTypeRoot::CHAR:
    case LogicalTypeRoot::VARCHAR:
    case LogicalTypeRoot::BINARY:
    case LogicalTypeRoot::VARBINARY:
      return PhysicalLayout::kVariableWidth;
    case LogicalTypeRoot::ARRAY:
    case LogicalTypeRoot::MULTISET:
    case LogicalTypeRoot::MAP:
    case LogicalTypeRoot::ROW:
    case LogicalTypeRoot::STRUCTURED_TYPE:
    case LogicalTypeRoot::RAW:
    case LogicalTypeRoot::NULL_TYPE:
      return PhysicalLayout::kBoxed;
  }
  throw InternalError("unknown logical type root");
}

Vector::Vector(LogicalTypePtr type)
    : type_(std::move(type)), layout_(physicalLayoutOf(*type_)), valueWidth_(physicalWidthOf(layout_)) {}

Vector Vector::fromBuffers(LogicalTypePtr type, int64_t size, std::vector<uint64_t> validity,
                           const std::byte* values, std::vector<int32_t> nanos,
                           std::vector<int32_t> offsets, std::string bytes) {
  Vector result(std::move(type));
  EDDY_CHECK(result.layout_ != PhysicalLayout::kBoxed);
  EDDY_CHECK_GE(size, 0);
  const auto words = static_cast<size_t>((size + 63) / 64);
  if (validity.empty()) {
    validity.assign(words, ~uint64_t{0});
  } else {
    EDDY_CHECK_GE(validity.size(), words);
    validity.resize(words);
  }
  if (size % 64 != 0) validity.back() &= (uint64_t{1} << (size % 64)) - 1;
  int64_t valid = 0;
  for (uint64_t word : validity) valid += std::popcount(word);
  result.size_ = size;
  result.nullCount_ = size - valid;
  result.validity_ = std::move(validity);
  if (result.valueWidth_ > 0) {
    const size_t width = static_cast<size_t>(result.valueWidth_);
    result.values_.resize(static_cast<size_t>(size) * width);
    if (size > 0) std::memcpy(result.values_.data(), values, static_cast<size_t>(size) * width);
  }
  if (result.layout_ == PhysicalLayout::kTimestamp) {
    EDDY_CHECK_EQ(static_cast<int64_t>(nanos.size()), size);
    result.nanos_ = std::move(nanos);
  }
  if (result.layout_ == PhysicalLayout::kVariableWidth) {
    EDDY_CHECK_EQ(static_cast<int64_t>(offsets.size()), size + 1);
    EDDY_CHECK_EQ(offsets[0], 0);
    result.offsets_ = std::move(offsets);
    result.bytes_ = std::move(bytes);
  }
  if (result.nullCount_ > 0) {
    for (int64_t i = 0; i < size; ++i) {
      if (!result.isNull(i)) continue;
      if (result.valueWidth_ > 0) {
        std::memset(result.values_.data() + i * result.valueWidth_, 0,
                    static_cast<size_t>(result.valueWidth_));
      }
      if (result.layout_ == PhysicalLayout::kTimestamp) result.nanos_[static_cast<size_t>(i)] = 0;
    }
  }
  return result;
}

void Vector::reserve(int64_t capacity) {
  validity_.reserve(static_cast<size_t>((capacity + 63) / 64));
  values_.reserve(static_cast<size_t>(capacity * valueWidth_));
  if (layout_ == PhysicalLayout::kTimestamp) nanos_.reserve(static_cast<size_t>(capacity));
  if (layout_ == PhysicalLayout::kVariableWidth)
    offsets_.reserve(static_cast<size_t>(capacity + 1));
  if (layout_ == PhysicalLayout::kBoxed) boxed_.reserve(static_cast<size_t>(capacity));
}

void Vector::reserveBytes(int64_t bytes) {
  EDDY_CHECK(layout_ == PhysicalLayout::kVariableWidth);
  bytes_.reserve(static_cast<size_t>(bytes));
}

void Vector::resize(int64_t size) {
  EDDY_CHECK_GE(size, 0);
  while (size_ < size) appendNull();
  if (size == size_) return;
  for (int64_t i = size; i < size_; ++i) {
    if (isNull(i)) --nullCount_;
  }
  size_ = size;
  validity_.resize(static_cast<size_t>((size + 63) / 64));
  if (size % 64 != 0) validity_.back() &= (uint64_t{1} << (size % 64)) - 1;
  values_.resize(static_cast<size_t>(size * valueWidth_));
  if (layout_ == PhysicalLayout::kTimestamp) nanos_.resize(static_cast<size_t>(size));
  if (layout_ == PhysicalLayout::kVariableWidth) {
    offsets_.resize(static_cast<size_t>(size + 1));
    bytes_.resize(static_cast<size_t>(offsets_.back()));
  }
  if (layout_ == PhysicalLayout::kBoxed) boxed_.resize(static_cast<size_t>(size));
}

const int32_t* Vector::nanosOfMillisecond() const {
  EDDY_CHECK(layout_ == PhysicalLayout::kTimestamp);
  return nanos_.data();
}

int32_t* Vector::mutableNanosOfMillisecond() {
  EDDY_CHECK(layout_ == PhysicalLayout::kTimestamp);
  return nanos_.data();
}

const int32_t* Vector::offsets() const {
  EDDY_CHECK(layout_ == PhysicalLayout::kVariableWidth);
  return offsets_.data();
}

std::string_view Vector::stringAt(int64_t index) const {
  EDDY_CHECK(layout_ == PhysicalLayout::kVariableWidth);
  EDDY_CHECK_LT(index, size_);
  return std::string_view(bytes_.data() + offsets_[index], offsets_[index + 1] - offsets_[index]);
}

const Value& Vector::boxedAt(int64_t index) const {
  EDDY_CHECK(layout_ == PhysicalLayout::kBoxed);
  EDDY_CHECK_LT(index, size_);
  return boxed_[index];
}

void Vector::setNull(int64_t index, bool isNullValue) {
  EDDY_CHECK_LT(index, size_);
  uint64_t bit = uint64_t{1} << (index & 63);
  bool wasNull = (validity_[index >> 6] & bit) == 0;
  if (isNullValue) {
    validity_[index >> 6] &= ~bit;
  } else {
    validity_[index >> 6] |= bit;
  }
  nullCount_ += (isNullValue ? 1 : 0) - (wasNull ? 1 : 0);
}

void Vector::appendValidBit() {
  if (size_ % 64 == 0) validity_.push_back(0);
  validity_.back() |= uint64_t{1} << (size_ % 64);
  ++size_;
}

void Vector::appendRaw(const void* value, size_t width) {
  const auto* bytes = static_cast<const std::byte*>(value);
  values_.insert(values_.end(), bytes, bytes + width);  // copied once, not zeroed first
}

namespace {
template <typename T>
void copyByIndex(const std::byte* from, std::byte* to, const int32_t* rows, int64_t count) {
  const T* source = reinterpret_cast<const T*>(from);
  T* target = reinterpret_cast<T*>(to);
  for (int64_t i = 0; i < count; ++i) target[i] = source[rows[i]];
}
}  // namespace

void Vector::appendGathered(const Vector& source, const int32_t* rows, int64_t count) {
  EDDY_CHECK(source.layout_ == layout_ && source.valueWidth_ == valueWidth_);
  EDDY_CHECK(layout_ != PhysicalLayout::kVariableWidth && layout_ != PhysicalLayout::kBoxed);
  if (count <= 0) return;
  const int64_t first = size_;
  values_.resize(static_cast<size_t>((first + count) * valueWidth_));
  std::byte* target = values_.data() + first * valueWidth_;
  switch (valueWidth_) {
    case 1: copyByIndex<uint8_t>(source.values_.data(), target, rows, count); break;
    case 2: copyByIndex<uint16_t>(source.values_.data(), target, rows, count); break;
    case 4: copyByIndex<uint32_t>(source.values_.data(), target, rows, count); break;
    case 8: copyByIndex<uint64_t>(source.values_.data(), target, rows, count); break;
    default:
      for (int64_t i = 0; i < count; ++i) {
        std::memcpy(target + i * valueWidth_, source.values_.data() + rows[i] * valueWidth_,
                    static_cast<size_t>(valueWidth_));
      }
  }
  if (layout_ == PhysicalLayout::kTimestamp) {
    nanos_.resize(static_cast<size_t>(first + count));
    copyByIndex<int32_t>(reinterpret_cast<const std::byte*>(source.nanos_.data()),
                         reinterpret_cast<std::byte*>(nanos_.data() + first), rows, count);
  }
  validity_.resize(static_cast<size_t>((first + count + 63) / 64), 0);
  int64_t nulls = 0;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t row = rows[i];
    const bool valid = (source.validity_[static_cast<size_t>(row >> 6)] >> (row & 63)) & 1;
    const int64_t at = first + i;
    validity_[static_cast<size_t>(at >> 6)] |= uint64_t{valid} << (at & 63);
    nulls += !valid;
  }
  size_ = first + count;
  nullCount_ += nulls;
}

void Vector::appendNull() {
  if (size_ % 64 == 0) validity_.push_back(0);
  ++size_;
  ++nullCount_;
  values_.resize(values_.size() + valueWidth_);
  if (layout_ == PhysicalLayout::kTimestamp) nanos_.push_back(0);
  if (layout_ == PhysicalLayout::kVariableWidth) offsets_.push_back(offsets_.back());
  if (layout_ == PhysicalLayout::kBoxed) boxed_.emplace_back();
}

void Vector::appendTimestamp(int64_t millisecond, int32_t nanoOfMillisecond) {
  EDDY_CHECK(layout_ == PhysicalLayout::kTimestamp);
  appendValidBit();
  appendRaw(&millisecond, sizeof(millisecond));
  nanos_.push_back(nanoOfMillisecond);
}

void Vector::appendString(std::string_view value) {
  EDDY_CHECK(layout_ == PhysicalLayout::kVariableWidth);
  if (bytes_.size() + value.size() > static_cast<size_t>(INT32_MAX)) {
    throw ValidationException("A string column of a chunk cannot hold more than 2147483647 bytes.");
  }
  appendValidBit();
  bytes_.append(value);
  offsets_.push_back(static_cast<int32_t>(bytes_.size()));
}

namespace {
/// Whether values of `a` are stored as values of `b` are, so that they copy without conversion.
bool sameRepresentation(const LogicalType& a, const LogicalType& b) {
  if (a.getTypeRoot() != b.getTypeRoot()) return false;
  switch (a.getTypeRoot()) {
    case LogicalTypeRoot::DECIMAL:
      return a.getPrecision() == b.getPrecision() && a.getScale() == b.getScale();
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
    case LogicalTypeRoot::CHAR:
    case LogicalTypeRoot::BINARY:
      return a.getPrecision() == b.getPrecision();
    case LogicalTypeRoot::INTERVAL_DAY_TIME:
    case LogicalTypeRoot::ARRAY:
    case LogicalTypeRoot::MAP:
    case LogicalTypeRoot::MULTISET:
    case LogicalTypeRoot::ROW:
      return false;
    default:
      return true;
  }
}
}  // namespace

void Vector::appendFrom(const Vector& source, int64_t index) {
  if (layout_ != source.layout_ || !sameRepresentation(*type_, *source.type_)) {
    appendValue(source.valueAt(index));
    return;
  }
  if (source.isNull(index)) {
    if (!type_->isNullable()) appendValue(Value());  // throws the NOT NULL mismatch
    appendNull();
    return;
  }
  switch (layout_) {
    case PhysicalLayout::kVariableWidth:
      appendString(source.stringAt(index));
      return;
    case PhysicalLayout::kTimestamp:
      appendTimestamp(source.data<int64_t>()[index], source.nanosOfMillisecond()[index]);
      return;
    case PhysicalLayout::kBoxed:
      appendBoxed(source.boxedAt(index));
      return;
    default:
      appendValidBit();
      appendRaw(source.values_.data() + static_cast<size_t>(index) * static_cast<size_t>(valueWidth_),
                static_cast<size_t>(valueWidth_));
  }
}

void Vector::appendBoxed(Value value) {
  EDDY_CHECK(layout_ == PhysicalLayout::kBoxed);
  if (value.isNull()) {
    appendNull();
    return;
  }
  appendValidBit();
  boxed_.push_back(std::move(value));
}

void Vector::throwMismatch(const Value& value, std::string_view why) const {
  std::string shown = value.toString();
  if (shown.size() > 40) {
    shown.resize(37);
    shown.append("...");
  }
  if (value.isNull()) {
    throw ValidationException(fmt::format("expects {} but got null", type_->asSummaryString()));
  }
  throw ValidationException(fmt::format("expects {} but got {} value '{}'{}",
                                        type_->asSummaryString(), valueKindName(value.kind()),
                                        shown, why));
}

void Vector::appendValue(const Value& value) {
  if (value.isNull()) {
    if (!type_->isNullable()) throwMismatch(value);
    appendNull();
    return;
  }
  int64_t integer = 0;
  int integerWidth = 0;
  switch (type_->getTypeRoot()) {
    case LogicalTypeRoot::BOOLEAN:
      if (!value.is<bool>()) throwMismatch(value);
      append<bool>(value.get<bool>());
      return;
    case LogicalTypeRoot::TINYINT:
      if (!integerOf(value, integer, integerWidth) || integerWidth > 1) throwMismatch(value);
      append<int8_t>(static_cast<int8_t>(integer));
      return;
    case LogicalTypeRoot::SMALLINT:
      if (!integerOf(value, integer, integerWidth) || integerWidth > 2) throwMismatch(value);
      append<int16_t>(static_cast<int16_t>(integer));
      return;
    case LogicalTypeRoot::INTEGER:
      if (!integerOf(value, integer, integerWidth) || integerWidth > 4) throwMismatch(value);
      append<int32_t>(static_cast<int32_t>(integer));
      return;
    case LogicalTypeRoot::BIGINT:
      if (!integerOf(value, integer, integerWidth)) throwMismatch(value);
      append<int64_t>(integer);
      return;
    case LogicalTypeRoot::FLOAT:
      if (!value.is<float>()) throwMismatch(value);
      append<float>(value.get<float>());
      return;
    case LogicalTypeRoot::DOUBLE:
      if (value.is<float>()) {
        append<double>(value.get<float>());
        return;
      }
      if (!value.is<double>()) throwMismatch(value);
      append<double>(value.get<double>());
      return;
    case LogicalTypeRoot::DECIMAL: {
      if (!value.is<Decimal>()) throwMismatch(value);
      std::optional<Decimal> rescaled =
          value.get<Decimal>().rescale(type_->getPrecision(), type_->getScale());
      if (!rescaled) throwMismatch(value, " (out of range)");
      append<__int128>(rescaled->unscaledValue());
      return;
    }
    case LogicalTypeRoot::CHAR:
    case LogicalTypeRoot::VARCHAR:
      if (!value.is<std::string>()) throwMismatch(value);
      appendString(value.get<std::string>());
      return;
    case LogicalTypeRoot::BINARY:
    case LogicalTypeRoot::VARBINARY: {
      if (!value.is<Bytes>()) throwMismatch(value);
      const Bytes& bytes = value.get<Bytes>();
      appendString(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
      return;
    }
    case LogicalTypeRoot::DATE:
      if (!value.is<LocalDate>()) throwMismatch(value);
      append<int32_t>(static_cast<int32_t>(value.get<LocalDate>().toEpochDay()));
      return;
    case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
      if (!value.is<LocalTime>()) throwMismatch(value);
      append<int64_t>(value.get<LocalTime>().toNanoOfDay());
      return;
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE: {
      if (!value.is<LocalDateTime>()) throwMismatch(value);
      const auto& timestamp = value.get<LocalDateTime>();
      appendTimestamp(timestamp.getMillisecond(), timestamp.getNanoOfMillisecond());
      return;
    }
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
      if (!value.is<Instant>()) throwMismatch(value);
      const auto& instant = value.get<Instant>();
      appendTimestamp(instant.toEpochMilli(), instant.getNanoOfMillisecond());
      return;
    }
    case LogicalTypeRoot::INTERVAL_YEAR_MONTH: {
      if (!value.is<Period>()) throwMismatch(value);
      const Period& period = value.get<Period>();
      if (period.getDays() != 0) throwMismatch(value, " (a year-month interval has no days)");
      append<int32_t>(static_cast<int32_t>(period.toTotalMonths()));
      return;
    }
    case LogicalTypeRoot::INTERVAL_DAY_TIME: {
      if (!value.is<Duration>()) throwMismatch(value);
      const Duration& duration = value.get<Duration>();
      appendTimestamp(duration.toMillis(), duration.getNano() % kNanosPerMilli);
      return;
    }
    case LogicalTypeRoot::ARRAY:
      if (!value.is<ValueArray>()) throwMismatch(value);
      appendBoxed(value);
      return;
    case LogicalTypeRoot::MULTISET:
    case LogicalTypeRoot::MAP:
      if (!value.is<ValueMap>()) throwMismatch(value);
      appendBoxed(value);
      return;
    case LogicalTypeRoot::ROW:
    case LogicalTypeRoot::STRUCTURED_TYPE:
      if (!value.is<Row>()) throwMismatch(value);
      appendBoxed(value);
      return;
    case LogicalTypeRoot::RAW:
      appendBoxed(value);
      return;
    case LogicalTypeRoot::NULL_TYPE:
      throwMismatch(value);
  }
  throw InternalError("unknown logical type root");
}

int physicalWidthOf(PhysicalLayout layout) {
  switch (layout) {
    case PhysicalLayout::kBoolean:
    case PhysicalLayout::kInt8:
      return 1;
    case PhysicalLayout::kInt16:
      return 2;
    case PhysicalLayout::kInt32:
    case PhysicalLayout::kFloat:
      return 4;
    case PhysicalLayout::kInt64:
    case PhysicalLayout::kDouble:
    case PhysicalLayout::kTimestamp:
      return 8;
    case PhysicalLayout::kInt128:
      return 16;
    case PhysicalLayout::kVariableWidth:
    case PhysicalLayout::kBoxed:
      return 0;
  }
  return 0;
}

std::optional<Value> valueOfSlot(const LogicalType& type, const std::byte* slot,
                                 int32_t nanoOfMillisecond, std::string_view bytes) {
  auto read = [slot](auto typed) {
    std::memcpy(&typed, slot, sizeof(typed));
    return typed;
  };
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::BOOLEAN:
      return Value(read(bool{}));
    case LogicalTypeRoot::TINYINT:
      return Value(read(int8_t{}));
    case LogicalTypeRoot::SMALLINT:
      return Value(read(int16_t{}));
    case LogicalTypeRoot::INTEGER:
      return Value(read(int32_t{}));
    case LogicalTypeRoot::BIGINT:
      return Value(read(int64_t{}));
    case LogicalTypeRoot::FLOAT:
      return Value(read(float{}));
    case LogicalTypeRoot::DOUBLE:
      return Value(read(double{}));
    case LogicalTypeRoot::DECIMAL:
      return Value(Decimal::fromUnscaled(read(__int128{}), type.getPrecision(), type.getScale()));
    case LogicalTypeRoot::CHAR:
    case LogicalTypeRoot::VARCHAR:
      return Value(std::string(bytes));
    case LogicalTypeRoot::BINARY:
    case LogicalTypeRoot::VARBINARY:
      return Value(Bytes(bytes.begin(), bytes.end()));
    case LogicalTypeRoot::DATE:
      return Value(LocalDate::ofEpochDay(read(int32_t{})));
    case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
      return Value(LocalTime::ofNanoOfDay(read(int64_t{})));
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
      return Value(LocalDateTime::ofEpochMillis(read(int64_t{}), nanoOfMillisecond));
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      return Value(Instant::ofEpochMilli(read(int64_t{}), nanoOfMillisecond));
    case LogicalTypeRoot::INTERVAL_YEAR_MONTH:
      return Value(Period::ofMonths(read(int32_t{})).normalized());
    case LogicalTypeRoot::INTERVAL_DAY_TIME: {
      int64_t millis = read(int64_t{});
      return Value(
          Duration::ofSeconds(types::floorDivide(millis, 1000),
                              types::floorModulo(millis, 1000) * kNanosPerMilli + nanoOfMillisecond));
    }
    default:
      return std::nullopt;  // boxed layouts
  }
}

void Vector::serializeValueAt(int64_t index, std::string& out) const {
  if (isNull(index)) {
    out.push_back(static_cast<char>(ValueKind::NULL_VALUE));
    return;
  }
  auto fixed = [&]<typename T>(ValueKind kind, T typed) {
    std::memcpy(&typed, values_.data() + index * valueWidth_, sizeof(typed));
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(typed)) typed = std::numeric_limits<T>::quiet_NaN();
    }
    out.push_back(static_cast<char>(kind));
    TypeSerializer<T>::serialize(typed, out);
  };
  switch (layout_ == PhysicalLayout::kBoxed ? LogicalTypeRoot::RAW : type_->getTypeRoot()) {
    case LogicalTypeRoot::BOOLEAN:
      return fixed(ValueKind::BOOLEAN, bool{});
    case LogicalTypeRoot::TINYINT:
      return fixed(ValueKind::TINYINT, int8_t{});
    case LogicalTypeRoot::SMALLINT:
      return fixed(ValueKind::SMALLINT, int16_t{});
    case LogicalTypeRoot::INTEGER:
      return fixed(ValueKind::INT, int32_t{});
    case LogicalTypeRoot::BIGINT:
      return fixed(ValueKind::BIGINT, int64_t{});
    case LogicalTypeRoot::FLOAT:
      return fixed(ValueKind::FLOAT, float{});
    case LogicalTypeRoot::DOUBLE:
      return fixed(ValueKind::DOUBLE, double{});
    case LogicalTypeRoot::DATE:
      return fixed(ValueKind::DATE, int32_t{});
    case LogicalTypeRoot::CHAR:
    case LogicalTypeRoot::VARCHAR: {
      const std::string_view bytes = stringAt(index);
      out.push_back(static_cast<char>(ValueKind::STRING));
      serialization::writeVarint(bytes.size(), out);
      out.append(bytes);
      return;
    }
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
      int64_t millis = 0;
      std::memcpy(&millis, values_.data() + index * valueWidth_, sizeof(millis));
      out.push_back(static_cast<char>(type_->getTypeRoot() ==
                                              LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE
                                          ? ValueKind::TIMESTAMP
                                          : ValueKind::TIMESTAMP_LTZ));
      TypeSerializer<int64_t>::serialize(millis, out);
      TypeSerializer<int32_t>::serialize(nanos_[index], out);
      return;
    }
    default:
      TypeSerializer<Value>::serialize(valueAt(index), out);
  }
}

Value Vector::valueAt(int64_t index) const {
  if (isNull(index)) return Value();
  if (layout_ == PhysicalLayout::kBoxed) return boxed_[index];
  bool variableWidth = layout_ == PhysicalLayout::kVariableWidth;
  bool timestamp = layout_ == PhysicalLayout::kTimestamp;
  std::optional<Value> value =
      valueOfSlot(*type_, variableWidth ? nullptr : values_.data() + index * valueWidth_,
                  timestamp ? nanos_[index] : 0,
                  variableWidth ? stringAt(index) : std::string_view());
  if (!value) throw InternalError("unknown logical type root");
  return std::move(*value);
}

}  // namespace eddy::vector
