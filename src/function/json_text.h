// SQL values as JSON text, as the JSON construction functions write them (Jackson's compact
// form, as Flink): strings quoted and escaped (common::appendJsonString), numbers and booleans as JSON literals, NULL as
// null. Shared by JSON_OBJECT/JSON_ARRAY (function/scalar/json.cpp) and the JSON_OBJECTAGG /
// JSON_ARRAYAGG aggregates (runtime/operators/aggregate).
#pragma once

#include <string>
#include <string_view>

#include "eddy/types/logical_type.h"
#include "eddy/types/value.h"

namespace eddy::function {

/// Whether values of `type` have a JSON form: character strings, numbers, booleans.
bool isJsonScalarType(const LogicalType& type);
/// `value` (NULL, a character string, a number or a boolean) as JSON; with `raw` a string value
/// is JSON text already (of a nested JSON_OBJECT/JSON_ARRAY) and is appended as it is.
void appendJsonText(const Value& value, bool raw, std::string& out);

}  // namespace eddy::function
