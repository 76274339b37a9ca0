// Row: the record of the DataStream API at the boundary to the Table API, as Flink's
// org.apache.flink.types.Row. A row has a RowKind and fields in one of three modes:
//   - position-based: `Row::of("Alice", 12)`, `Row(2)`, `Row::withPositions(2)`;
//   - name-based:     `Row::withNames()` then `setField("name", ...)` (fields in insertion
//                     order; an absent name reads as null, as Flink's HashMap lookup);
//   - hybrid:         positions plus a shared name → position mapping, which is what rows
//                     produced from a ROW type with field names are (`withNamedPositions`).
// It prints as Flink's Row.toString: `+I[Alice, 12]`, `-U[...]`, `+I{name=Alice, score=12}`.
//
// Equality follows Flink's Row.equals: the kinds must match; positioned rows (positional or
// hybrid) compare their fields by position, ignoring names; named rows compare their fields
// as a map; a hybrid row equals a named row when every name maps to an equal value.
// TypeSerializer<Row> writes equal bytes for equal rows of the same mode (a hybrid row is
// written as a positional row: the name mapping belongs to the type, as in Flink's
// RowSerializer). A Row is a plain value, not synchronized.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/row_kind.h"
#include "eddy/types/type_serializer.h"
#include "eddy/types/value.h"

namespace eddy {

/// A record with a RowKind and positional, named or hybrid fields. See the file comment.
class Row {
 public:
  /// Field names shared by all rows of a hybrid row type.
  using FieldNames = std::shared_ptr<const std::vector<std::string>>;

  /// A position-based INSERT row of `arity` null fields.
  explicit Row(int arity) : Row(RowKind::INSERT, arity) {}
  /// A position-based row of the given kind and `arity` null fields.
  Row(RowKind kind, int arity);

  static Row withPositions(int arity) { return Row(RowKind::INSERT, arity); }
  static Row withPositions(RowKind kind, int arity) { return Row(kind, arity); }
  /// An empty name-based row; fields are added by setField(name, value).
  static Row withNames(RowKind kind = RowKind::INSERT);
  /// A hybrid row: positions with a name → position mapping; arity = names->size().
  static Row withNamedPositions(FieldNames names, RowKind kind = RowKind::INSERT);
  static Row withNamedPositions(std::vector<std::string> names, RowKind kind = RowKind::INSERT);

  /// A position-based INSERT row of the given values: `Row::of("Alice", 12)`.
  template <typename... Values>
  static Row of(Values&&... values) {
    return ofKind(RowKind::INSERT, std::forward<Values>(values)...);
  }
  /// A position-based row of the given kind and values.
  template <typename... Values>
  static Row ofKind(RowKind kind, Values&&... values) {
    Row row(kind, 0);
    row.fields_.reserve(sizeof...(Values));
    (row.fields_.emplace_back(std::forward<Values>(values)), ...);
    return row;
  }

  /// Number of fields (for name-based rows: the number of fields set).
  int getArity() const { return static_cast<int>(fields_.size()); }
  RowKind getKind() const { return kind_; }
  void setKind(RowKind kind) { kind_ = kind; }

  /// The field at `position`. Throws ValidationException when out of range or name-based.
  const Value& getField(int position) const;
  /// The field called `name`. Throws ValidationException for position-based rows and for an
  /// unknown name of a hybrid row; an absent name of a name-based row reads as null.
  const Value& getField(std::string_view name) const;
  /// The field as a T (see Value::get); a mismatch names the field and both kinds.
  template <typename T>
  const T& getFieldAs(int position) const {
    const Value& value = getField(position);
    if constexpr (std::is_same_v<T, Value>) {
      return value;
    } else {
      if (!value.is<T>())
        throwFieldKindMismatch(describePosition(position), value, Value::kindOf<T>());
      return value.get<T>();
    }
  }
  template <typename T>
  const T& getFieldAs(std::string_view name) const {
    const Value& value = getField(name);
    if constexpr (std::is_same_v<T, Value>) {
      return value;
    } else {
      if (!value.is<T>()) throwFieldKindMismatch(describeName(name), value, Value::kindOf<T>());
      return value.get<T>();
    }
  }

  /// Sets the field at `position` (position-based and hybrid rows).
  void setField(int position, Value value);
  /// Sets the field called `name` (name-based rows add it when absent; hybrid rows need a
  /// known name).
  void setField(std::string_view name, Value value);

  /// The field names: those of a name-based row, or of a hybrid row when
  /// `includeNamedPositions`; std::nullopt otherwise (Flink returns null).
  std::optional<std::vector<std::string>> getFieldNames(bool includeNamedPositions) const;
  /// True for name-based rows.
  bool isNameBased() const { return nameBased_; }
  /// The shared names of a hybrid row, null otherwise.
  const FieldNames& getPositionNames() const { return positionNames_; }

  /// As Flink's Row.toString(): `+I[Alice, 12]` or `+I{name=Alice, score=12}`.
  std::string toString() const;
  void appendTo(std::string& out) const;

  bool operator==(const Row& other) const;
  bool operator!=(const Row& other) const { return !(*this == other); }
  size_t hash() const;

 private:
  std::string describePosition(int position) const;
  std::string describeName(std::string_view name) const;
  [[noreturn]] static void throwFieldKindMismatch(const std::string& field, const Value& value,
                                                  ValueKind expected);
  int positionOfName(std::string_view name) const;  // hybrid rows; throws when unknown

  friend struct TypeSerializer<Row>;

  RowKind kind_;
  bool nameBased_ = false;
  std::vector<Value> fields_;
  std::vector<std::string> names_;  // name-based rows: the name of each field in fields_
  FieldNames positionNames_;        // hybrid rows
};

/// Prints row.toString().
std::ostream& operator<<(std::ostream& stream, const Row& row);
std::ostream& operator<<(std::ostream& stream, const Value& value);

/// Byte format of a Row: kind (1 byte, toByteValue), mode (1 byte: 0 positional, 1 named),
/// varint field count, then each field as TypeSerializer<Value>; named rows write each field
/// as (name as std::string, value), sorted by name so equal rows give equal bytes. Hybrid rows
/// are written as positional rows.
template <>
struct TypeSerializer<Row> {
  static void serialize(const Row& row, std::string& out);
  static Row deserialize(std::string_view& in);
};

}  // namespace eddy

template <>
struct std::hash<eddy::Row> {
  size_t operator()(const eddy::Row& row) const { return row.hash(); }
};
