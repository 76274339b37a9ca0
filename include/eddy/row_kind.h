// RowKind: the kind of change a row describes in a changelog (Flink's
// org.apache.flink.types.RowKind). Every Row and every row of a columnar chunk carries one; an
// insert-only stream carries only INSERT. The byte values are part of the serialized row
// format and must never change.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "eddy/exceptions.h"

namespace eddy {

/// The change a row describes. Printed by its short string: +I, -U, +U, -D.
enum class RowKind : int8_t {
  INSERT = 0,         ///< +I: a new row.
  UPDATE_BEFORE = 1,  ///< -U: the previous content of an updated row (a retraction).
  UPDATE_AFTER = 2,   ///< +U: the new content of an updated row.
  DELETE = 3,         ///< -D: a deleted row.
};

/// The short string Flink prints for `kind`: "+I", "-U", "+U" or "-D".
inline std::string_view shortString(RowKind kind) {
  switch (kind) {
    case RowKind::INSERT:
      return "+I";
    case RowKind::UPDATE_BEFORE:
      return "-U";
    case RowKind::UPDATE_AFTER:
      return "+U";
    case RowKind::DELETE:
      return "-D";
  }
  return "??";
}

/// The enum constant's name, as Flink's RowKind.name() ("INSERT", "UPDATE_BEFORE", ...).
inline std::string_view rowKindName(RowKind kind) {
  switch (kind) {
    case RowKind::INSERT:
      return "INSERT";
    case RowKind::UPDATE_BEFORE:
      return "UPDATE_BEFORE";
    case RowKind::UPDATE_AFTER:
      return "UPDATE_AFTER";
    case RowKind::DELETE:
      return "DELETE";
  }
  return "UNKNOWN";
}

/// The stable byte value of `kind` (0..3), used in serialized rows.
inline int8_t toByteValue(RowKind kind) { return static_cast<int8_t>(kind); }

/// The RowKind of a byte value written by toByteValue. Throws ValidationException otherwise.
inline RowKind rowKindFromByteValue(int8_t value) {
  if (value < 0 || value > 3) {
    throw ValidationException("Unsupported byte value '" + std::to_string(value) +
                              "' for row kind.");
  }
  return static_cast<RowKind>(value);
}

/// Parses "+I", "-U", "+U" or "-D". Throws ValidationException for anything else.
inline RowKind rowKindFromShortString(std::string_view text) {
  if (text == "+I") return RowKind::INSERT;
  if (text == "-U") return RowKind::UPDATE_BEFORE;
  if (text == "+U") return RowKind::UPDATE_AFTER;
  if (text == "-D") return RowKind::DELETE;
  throw ValidationException("Unsupported short string '" + std::string(text) +
                            "' for row kind, expected one of +I, -U, +U, -D.");
}

}  // namespace eddy
