// Flink's type rules for scalar expressions: type families, implicit widening, DECIMAL
// precision and scale of arithmetic (Flink's LogicalTypeMerging / Calcite), the least
// restrictive common type of CASE, COALESCE and UNION, and the type names of Calcite-style
// error messages. Pure functions over immutable types; any thread. docs/functions.md lists
// the rules in prose.
#pragma once

#include <string>
#include <vector>

#include "eddy/types/logical_type.h"

namespace eddy::function {

// --- Type families (Calcite's SqlTypeFamily, as named in "Supported form(s)" messages). ---
bool isIntegral(const LogicalType& type);  // TINYINT, SMALLINT, INT, BIGINT
bool isExactNumeric(const LogicalType& type);  // integral or DECIMAL
bool isApproximateNumeric(const LogicalType& type);  // FLOAT, DOUBLE
bool isNumeric(const LogicalType& type);
bool isCharacterString(const LogicalType& type);  // CHAR, VARCHAR
bool isBinaryString(const LogicalType& type);     // BINARY, VARBINARY
bool isBoolean(const LogicalType& type);
/// DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ.
bool isDatetime(const LogicalType& type);
bool isNullType(const LogicalType& type);

/// Whether any of `types` is nullable.
bool anyNullable(const std::vector<LogicalTypePtr>& types);

/// The DECIMAL that holds every value of an exact numeric type: TINYINT → DECIMAL(3, 0),
/// SMALLINT → (5, 0), INT → (10, 0), BIGINT → (19, 0); a DECIMAL stays itself.
LogicalTypePtr toDecimal(const LogicalType& exactNumeric);

/// Flink's LogicalTypeMerging.adjustPrecisionScale: a DECIMAL(precision, scale) whose
/// precision exceeds 38 keeps its integer digits and gives up scale down to min(scale, 6).
LogicalTypePtr adjustedDecimal(int precision, int scale, bool nullable);

/// DECIMAL result types of arithmetic (both arguments DECIMAL; integers converted with
/// toDecimal first):
///   + and -: s = max(s1, s2), p = max(p1 - s1, p2 - s2) + s + 1
///   *:       s = s1 + s2,     p = p1 + p2
///   /:       s = max(6, s1 + p2 + 1), p = p1 - s1 + s2 + s
///   %:       s = max(s1, s2), p = min(p1 - s1, p2 - s2) + s
/// each then adjusted by adjustedDecimal.
LogicalTypePtr decimalPlusType(const LogicalType& left, const LogicalType& right, bool nullable);
LogicalTypePtr decimalTimesType(const LogicalType& left, const LogicalType& right,
                                bool nullable);
LogicalTypePtr decimalDivideType(const LogicalType& left, const LogicalType& right,
                                 bool nullable);
LogicalTypePtr decimalModType(const LogicalType& left, const LogicalType& right, bool nullable);

/// The type both numeric operands of arithmetic or comparison widen to, following
/// TINYINT < SMALLINT < INT < BIGINT < DECIMAL < FLOAT < DOUBLE: integers widen to the wider
/// integer; an integer and a DECIMAL give the common DECIMAL (integer as toDecimal); any
/// DECIMAL with FLOAT or DOUBLE, and DOUBLE with anything, give DOUBLE; FLOAT with an integer
/// or FLOAT gives FLOAT. Nullable when either is. nullptr when either is not numeric.
LogicalTypePtr commonNumericType(const LogicalType& left, const LogicalType& right);

/// The least restrictive type of `types` (Flink's LogicalTypeMerging.findCommonType), used by
/// CASE, COALESCE, IN, UNION: NULL types merge with anything (making it nullable); numerics
/// widen as commonNumericType (DECIMALs keep the most integer digits and the largest scale);
/// CHAR(n)s give CHAR(max n), other character strings VARCHAR(max length); BINARY/VARBINARY
/// likewise; TIME/TIMESTAMP/TIMESTAMP_LTZ take the largest precision; DATE and TIMESTAMP give
/// TIMESTAMP; equal types stay; ARRAYs, MULTISETs and MAPs merge their element (key, value)
/// types, ROWs of one arity field by field (named as the first). nullptr when there is none
/// (e.g. INT and BOOLEAN).
LogicalTypePtr leastRestrictive(const std::vector<LogicalTypePtr>& types);

/// Whether values of `from` may be compared with values of `to` after implicit widening
/// (numeric with numeric, strings with strings, and so on).
bool areComparable(const LogicalType& left, const LogicalType& right);

/// Whether `from` casts implicitly to `to` (Flink's LogicalTypeCasts.supportsImplicitCast, the
/// rule for writing a query's column into a sink column): a numeric to a numeric of the same or
/// a wider kind (TINYINT < SMALLINT < INT < BIGINT < DECIMAL (any) < FLOAT < DOUBLE; DECIMAL to
/// FLOAT and DOUBLE), a character string to a character string, a binary string to a binary
/// string, TIMESTAMP to DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ and TIMESTAMP_LTZ to TIMESTAMP
/// and TIMESTAMP_LTZ (any precision), a type to its own root, NULL to anything; ARRAY, MULTISET,
/// MAP and ROW (of one arity) when their parts do. Nullability is not considered. eddy also
/// lets a VARCHAR into a CHAR and a VARBINARY into a BINARY (Flink: CHAR from CHAR, BINARY
/// from BINARY only; eddy types some string values VARCHAR(n) where Calcite has CHAR(n)).
bool supportsImplicitCast(const LogicalType& from, const LogicalType& to);

/// A type's name in Calcite-style messages: the summary string without nullability, STRING
/// spelled VARCHAR(2147483647) and BYTES VARBINARY(2147483647), e.g. `DECIMAL(10, 2)`.
std::string typeNameInMessage(const LogicalType& type);

}  // namespace eddy::function
