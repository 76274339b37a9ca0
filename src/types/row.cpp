// Row: field access in the three modes, Flink's toString and equality, and the
// TypeSerializer<Row> byte format documented in row.h.
#include "eddy/row.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace eddy {
namespace {

const Value kNullValue;

}  // namespace

Row::Row(RowKind kind, int arity) : kind_(kind) {
  if (arity < 0)
    throw ValidationException(fmt::format("Row arity must not be negative: {}.", arity));
  fields_.resize(static_cast<size_t>(arity));
}

Row Row::withNames(RowKind kind) {
  Row row(kind, 0);
  row.nameBased_ = true;
  return row;
}

Row Row::withNamedPositions(FieldNames names, RowKind kind) {
  if (names == nullptr) throw ValidationException("A hybrid row needs field names.");
  Row row(kind, static_cast<int>(names->size()));
  row.positionNames_ = std::move(names);
  return row;
}

Row Row::withNamedPositions(std::vector<std::string> names, RowKind kind) {
  return withNamedPositions(std::make_shared<const std::vector<std::string>>(std::move(names)),
                            kind);
}

const Value& Row::getField(int position) const {
  if (nameBased_) {
    throw ValidationException(
        "Accessing a field by position is not supported in name-based field mode.");
  }
  if (position < 0 || position >= getArity()) {
    throw ValidationException(fmt::format(
        "Field position {} is out of range for a row of arity {}.", position, getArity()));
  }
  return fields_[position];
}

int Row::positionOfName(std::string_view name) const {
  for (size_t i = 0; i < positionNames_->size(); ++i) {
    if ((*positionNames_)[i] == name) return static_cast<int>(i);
  }
  throw ValidationException(
      fmt::format("Unknown field name '{}' for mapping to a position. Known names are: [{}].", name,
                  fmt::join(*positionNames_, ", ")));
}

const Value& Row::getField(std::string_view name) const {
  if (nameBased_) {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) return fields_[i];
    }
    return kNullValue;
  }
  if (positionNames_ == nullptr) {
    throw ValidationException(
        "Accessing a field by name is not supported in position-based field mode.");
  }
  return fields_[positionOfName(name)];
}

void Row::setField(int position, Value value) {
  if (nameBased_) {
    throw ValidationException(
        "Accessing a field by position is not supported in name-based field mode.");
  }
  if (position < 0 || position >= getArity()) {
    throw ValidationException(fmt::format(
        "Field position {} is out of range for a row of arity {}.", position, getArity()));
  }
  fields_[position] = std::move(value);
}

void Row::setField(std::string_view name, Value value) {
  if (nameBased_) {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) {
        fields_[i] = std::move(value);
        return;
      }
    }
    names_.emplace_back(name);
    fields_.push_back(std::move(value));
    return;
  }
  if (positionNames_ == nullptr) {
    throw ValidationException(
        "Accessing a field by name is not supported in position-based field mode.");
  }
  fields_[positionOfName(name)] = std::move(value);
}

std::optional<std::vector<std::string>> Row::getFieldNames(bool includeNamedPositions) const {
  if (nameBased_) return names_;
  if (includeNamedPositions && positionNames_ != nullptr) return *positionNames_;
  return std::nullopt;
}

std::string Row::describePosition(int position) const {
  if (positionNames_ != nullptr && position >= 0 &&
      position < static_cast<int>(positionNames_->size())) {
    return fmt::format("Field '{}' (position {})", (*positionNames_)[position], position);
  }
  return fmt::format("Field at position {}", position);
}

std::string Row::describeName(std::string_view name) const {
  return fmt::format("Field '{}'", name);
}

void Row::throwFieldKindMismatch(const std::string& field, const Value& value, ValueKind expected) {
  if (value.isNull()) {
    throw ValidationException(
        fmt::format("{} is null and cannot be read as {}.", field, valueKindName(expected)));
  }
  throw ValidationException(fmt::format("{} has type {} and cannot be read as {}.", field,
                                        valueKindName(value.kind()), valueKindName(expected)));
}

std::string Row::toString() const {
  std::string out;
  appendTo(out);
  return out;
}

void Row::appendTo(std::string& out) const {
  out.append(shortString(kind_));
  out.push_back(nameBased_ ? '{' : '[');
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out.append(", ");
    if (nameBased_) {
      out.append(names_[i]);
      out.push_back('=');
    }
    fields_[i].appendTo(out);
  }
  out.push_back(nameBased_ ? '}' : ']');
}

bool Row::operator==(const Row& other) const {
  if (kind_ != other.kind_) return false;
  if (!nameBased_ && !other.nameBased_) return fields_ == other.fields_;
  if (getArity() != other.getArity()) return false;
  // At least one side is name-based: compare as maps from name to value.
  const Row& named = nameBased_ ? *this : other;
  const Row& probe = nameBased_ ? other : *this;
  if (!probe.nameBased_ && probe.positionNames_ == nullptr) return false;
  for (size_t i = 0; i < named.names_.size(); ++i) {
    const std::string& name = named.names_[i];
    if (probe.nameBased_) {
      auto found = std::find(probe.names_.begin(), probe.names_.end(), name);
      if (found == probe.names_.end() ||
          !(probe.fields_[found - probe.names_.begin()] == named.fields_[i])) {
        return false;
      }
    } else {
      auto found = std::find(probe.positionNames_->begin(), probe.positionNames_->end(), name);
      if (found == probe.positionNames_->end() ||
          !(probe.fields_[found - probe.positionNames_->begin()] == named.fields_[i])) {
        return false;
      }
    }
  }
  return true;
}

size_t Row::hash() const {
  size_t seed = static_cast<size_t>(toByteValue(kind_)) * 0x9e3779b97f4a7c15ULL;
  if (nameBased_) {
    // Order-insensitive, as the fields compare as a map.
    size_t sum = 0;
    for (size_t i = 0; i < fields_.size(); ++i) {
      sum += std::hash<std::string>{}(names_[i]) * 31 + fields_[i].hash();
    }
    return seed ^ sum;
  }
  for (const Value& field : fields_) {
    seed ^= field.hash() + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
  }
  return seed;
}

std::ostream& operator<<(std::ostream& stream, const Row& row) { return stream << row.toString(); }

void TypeSerializer<Row>::serialize(const Row& row, std::string& out) {
  out.push_back(static_cast<char>(toByteValue(row.kind_)));
  out.push_back(row.nameBased_ ? 1 : 0);
  serialization::writeVarint(row.fields_.size(), out);
  if (!row.nameBased_) {
    for (const Value& field : row.fields_) TypeSerializer<Value>::serialize(field, out);
    return;
  }
  std::vector<size_t> order(row.fields_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&row](size_t left, size_t right) { return row.names_[left] < row.names_[right]; });
  for (size_t index : order) {
    TypeSerializer<std::string>::serialize(row.names_[index], out);
    TypeSerializer<Value>::serialize(row.fields_[index], out);
  }
}

Row TypeSerializer<Row>::deserialize(std::string_view& in) {
  RowKind kind = rowKindFromByteValue(static_cast<int8_t>(serialization::readBigEndian(1, in)));
  uint64_t mode = serialization::readBigEndian(1, in);
  uint64_t count = serialization::readVarint(in);
  if (mode == 0) {
    Row row(kind, 0);
    row.fields_.reserve(count);
    for (uint64_t i = 0; i < count; ++i)
      row.fields_.push_back(TypeSerializer<Value>::deserialize(in));
    return row;
  }
  if (mode != 1) throw InternalError(fmt::format("unknown row mode {} in serialized data", mode));
  Row row = Row::withNames(kind);
  row.fields_.reserve(count);
  row.names_.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    row.names_.push_back(TypeSerializer<std::string>::deserialize(in));
    row.fields_.push_back(TypeSerializer<Value>::deserialize(in));
  }
  return row;
}

}  // namespace eddy
