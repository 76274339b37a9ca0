#include "vector/chunk_operations.h"

#include <cstring>
#include <limits>
#include <type_traits>

#include "common/check.h"
#include "eddy/exceptions.h"
#include "eddy/types/type_serializer.h"

namespace eddy::vector {

namespace {

void gatherColumn(const Vector& input, Vector& output, const int32_t* rows, int64_t count) {
  switch (input.layout()) {
    case PhysicalLayout::kBoolean:
    case PhysicalLayout::kInt8:
    case PhysicalLayout::kInt16:
    case PhysicalLayout::kInt32:
    case PhysicalLayout::kInt64:
    case PhysicalLayout::kFloat:
    case PhysicalLayout::kDouble:
    case PhysicalLayout::kInt128:
    case PhysicalLayout::kTimestamp:
      return output.appendGathered(input, rows, count);
    case PhysicalLayout::kVariableWidth: {
      int64_t bytes = 0;
      for (int64_t i = 0; i < count; ++i) {
        bytes += static_cast<int64_t>(input.stringAt(rows[i]).size());
      }
      output.reserveBytes(output.offsets()[output.size()] + bytes);
      for (int64_t i = 0; i < count; ++i) {
        int32_t row = rows[i];
        if (input.isNull(row)) {
          output.appendNull();
        } else {
          output.appendString(input.stringAt(row));
        }
      }
      return;
    }
    case PhysicalLayout::kBoxed:
      for (int64_t i = 0; i < count; ++i) output.appendBoxed(input.boxedAt(rows[i]));
      return;
  }
}

template <typename T>
void appendFixedKey(const Vector& column, int64_t row, std::string& out) {
  TypeSerializer<T>::serialize(column.data<T>()[row], out);
}

}  // namespace

Chunk gather(const Chunk& chunk, const int32_t* rows, int64_t count,
             const std::vector<bool>* onlyColumns) {
  Chunk result(chunk.rowType());
  result.mutableRowKinds().reserve(static_cast<size_t>(count));
  for (int c = 0; c < chunk.columnCount(); ++c) {
    if (onlyColumns != nullptr && !(*onlyColumns)[static_cast<size_t>(c)]) continue;
    result.mutableColumn(c).reserve(count);
    gatherColumn(chunk.column(c), result.mutableColumn(c), rows, count);
  }
  auto& kinds = result.mutableRowKinds();
  const auto& inputKinds = chunk.rowKinds();
  for (int64_t i = 0; i < count; ++i) kinds.push_back(inputKinds[rows[i]]);
  return result;
}

void appendKeyBytes(const Chunk& chunk, const std::vector<int>& keyColumns, int64_t row,
                    std::string& out) {
  for (int columnIndex : keyColumns) {
    const Vector& column = chunk.column(columnIndex);
    if (column.isNull(row)) {
      out.push_back(0);
      continue;
    }
    out.push_back(1);
    switch (column.layout()) {
      case PhysicalLayout::kBoolean:
        appendFixedKey<bool>(column, row, out);
        break;
      case PhysicalLayout::kInt8:
        appendFixedKey<int8_t>(column, row, out);
        break;
      case PhysicalLayout::kInt16:
        appendFixedKey<int16_t>(column, row, out);
        break;
      case PhysicalLayout::kInt32:
        appendFixedKey<int32_t>(column, row, out);
        break;
      case PhysicalLayout::kInt64:
        appendFixedKey<int64_t>(column, row, out);
        break;
      case PhysicalLayout::kFloat:
        appendFixedKey<float>(column, row, out);
        break;
      case PhysicalLayout::kDouble:
        appendFixedKey<double>(column, row, out);
        break;
      case PhysicalLayout::kInt128: {
        auto value = static_cast<unsigned __int128>(column.data<__int128>()[row]);
        TypeSerializer<int64_t>::serialize(static_cast<int64_t>(value >> 64), out);
        TypeSerializer<uint64_t>::serialize(static_cast<uint64_t>(value), out);
        break;
      }
      case PhysicalLayout::kTimestamp:
        TypeSerializer<int64_t>::serialize(column.data<int64_t>()[row], out);
        TypeSerializer<int32_t>::serialize(column.nanosOfMillisecond()[row], out);
        break;
      case PhysicalLayout::kVariableWidth: {
        std::string_view text = column.stringAt(row);
        serialization::writeVarint(text.size(), out);
        out.append(text);
        break;
      }
      case PhysicalLayout::kBoxed:
        TypeSerializer<Value>::serialize(column.boxedAt(row), out);
        break;
    }
  }
}

namespace {

/// Appends `value` big-endian (unsigned: byte order is value order).
template <typename Unsigned>
void appendBigEndian(Unsigned value, std::string& out) {
  char bytes[sizeof(Unsigned)];
  for (size_t i = 0; i < sizeof(Unsigned); ++i) {
    bytes[i] = static_cast<char>(static_cast<uint8_t>(value >> (8 * (sizeof(Unsigned) - 1 - i))));
  }
  out.append(bytes, sizeof(Unsigned));
}

/// A signed integer as the unsigned value of the same order (sign bit flipped).
template <typename Signed>
auto orderedBits(Signed value) {
  using Unsigned = std::make_unsigned_t<Signed>;
  return static_cast<Unsigned>(static_cast<Unsigned>(value) ^
                               (Unsigned{1} << (sizeof(Signed) * 8 - 1)));
}
unsigned __int128 orderedBits(__int128 value) {
  return static_cast<unsigned __int128>(value) ^ (static_cast<unsigned __int128>(1) << 127);
}

/// A float or double as the unsigned value of Java's Double.compare order: NaN (any) after
/// +Infinity, -0.0 before 0.0.
template <typename Floating, typename Unsigned>
Unsigned orderedFloatBits(Floating value) {
  if (value != value) value = std::numeric_limits<Floating>::quiet_NaN();
  Unsigned bits;
  std::memcpy(&bits, &value, sizeof(bits));
  constexpr Unsigned kSign = Unsigned{1} << (sizeof(Unsigned) * 8 - 1);
  return (bits & kSign) != 0 ? ~bits : bits | kSign;
}

void appendOrderedValue(const Vector& column, int64_t row, std::string& out) {
  switch (column.layout()) {
    case PhysicalLayout::kBoolean:
      out.push_back(column.data<bool>()[row] ? 1 : 0);
      return;
    case PhysicalLayout::kInt8:
      appendBigEndian(orderedBits(column.data<int8_t>()[row]), out);
      return;
    case PhysicalLayout::kInt16:
      appendBigEndian(orderedBits(column.data<int16_t>()[row]), out);
      return;
    case PhysicalLayout::kInt32:
      appendBigEndian(orderedBits(column.data<int32_t>()[row]), out);
      return;
    case PhysicalLayout::kInt64:
      appendBigEndian(orderedBits(column.data<int64_t>()[row]), out);
      return;
    case PhysicalLayout::kFloat:
      appendBigEndian(orderedFloatBits<float, uint32_t>(column.data<float>()[row]), out);
      return;
    case PhysicalLayout::kDouble:
      appendBigEndian(orderedFloatBits<double, uint64_t>(column.data<double>()[row]), out);
      return;
    case PhysicalLayout::kInt128:
      appendBigEndian(orderedBits(column.data<__int128>()[row]), out);
      return;
    case PhysicalLayout::kTimestamp:
      appendBigEndian(orderedBits(column.data<int64_t>()[row]), out);
      appendBigEndian(orderedBits(column.nanosOfMillisecond()[row]), out);
      return;
    case PhysicalLayout::kVariableWidth: {
      // Runs without a 0 byte are copied whole; each 0 byte is followed by 0xFF.
      const std::string_view text = column.stringAt(row);
      for (size_t at = 0;;) {
        const size_t zero = text.find('\0', at);
        if (zero == std::string_view::npos) {
          out.append(text.data() + at, text.size() - at);
          break;
        }
        out.append(text.data() + at, zero + 1 - at);
        out.push_back(static_cast<char>(0xFF));
        at = zero + 1;
      }
      out.append(2, '\0');
      return;
    }
    case PhysicalLayout::kBoxed: {
      const Value& value = column.boxedAt(row);
      throw ValidationException(std::string("Values of kind ") +
                                std::string(valueKindName(value.kind())) + " are not comparable");
    }
  }
}

}  // namespace

void appendSortKeyBytes(const Chunk& chunk, const std::vector<SortColumn>& columns, int64_t row,
                        std::string& out) {
  for (const SortColumn& sortColumn : columns) {
    const Vector& column = chunk.column(sortColumn.column);
    if (sortColumn.withoutNulls) {
      EDDY_CHECK(!column.isNull(row));
    } else if (column.isNull(row)) {
      out.push_back(sortColumn.nullsFirst ? 0 : 2);
      continue;
    } else {
      out.push_back(1);
    }
    const size_t begin = out.size();
    appendOrderedValue(column, row, out);
    if (!sortColumn.ascending) {
      for (size_t i = begin; i < out.size(); ++i) out[i] = static_cast<char>(~out[i]);
    }
  }
}

}  // namespace eddy::vector
