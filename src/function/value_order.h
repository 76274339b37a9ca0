// The total order of comparable Values (numbers, strings, booleans, temporal values, decimals)
// that operators and functions over boxed values share: MIN/MAX and DISTINCT tables of the
// aggregates, Sort and Rank over Values, ARRAY_SORT/ARRAY_MAX/ARRAY_MIN. Numbers of different
// kinds compare as doubles. Stateless; any thread.
#pragma once

#include <cstdint>

#include "eddy/types/value.h"

namespace eddy::function {

/// TINYINT, SMALLINT, INT or BIGINT.
bool isIntegerKind(ValueKind kind);
/// An integer Value widened to int64_t (InternalError for another kind).
int64_t integerOf(const Value& value);
/// A numeric Value as a double.
double doubleOf(const Value& value);

/// <0, 0, >0 as `left` orders before, with, or after `right` (values of the same kind, or two
/// numbers). Throws ValidationException for kinds without an order (ARRAY, MAP, ROW, ..).
int compareValues(const Value& left, const Value& right);

}  // namespace eddy::function
