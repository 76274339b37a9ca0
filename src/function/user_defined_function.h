// User-defined scalar functions (eddy/table/functions.h) as registry functions: the binder
// resolves a call to one like a built-in function — the arguments implicitly cast to the
// parameter types, the result nullable where a NULL can come out — and its kernel evaluates
// the user's callable row by row over Values.
#pragma once

#include <string>

#include "eddy/table/functions.h"
#include "function/function_registry.h"

namespace eddy::function {

/// Whether an argument of type `argument` is implicitly cast to a parameter of type
/// `parameter` of a user-defined function: the same type root, character string to
/// character string, a numeric type to a numeric type at least as wide, or untyped NULL.
bool implicitlyCastsTo(const LogicalType& argument, const LogicalType& parameter);

/// `definition` as the registry function `name` (upper-cased; Calcite's supported form, e.g.
/// 'COUNT_CHAR(<STRING>, <STRING>)', in "Cannot apply" messages). A NULL argument of a NOT NULL
/// parameter makes the row's result NULL without calling the function; a function without
/// parameters is evaluated once per chunk (the evaluator stretches argumentless calls).
ScalarFunction userDefinedScalarFunction(const std::string& name,
                                         ScalarFunctionDefinition definition);

}  // namespace eddy::function
