// Printing an AST back as SQL. The output is normalized: keywords upper case, identifiers in
// backquotes, one space between tokens, parentheses only where precedence needs them, and the
// normal forms of ast.h (`<>` for `!=`, CAST for `::`, EXCEPT for MINUS, LIMIT for FETCH, ...).
// It is valid Flink SQL, and parsing it gives back an equal tree (the round trip is tested for
// every construct), so it serves EXPLAIN output, error messages, and the string forms of
// computed columns and watermarks in a resolved schema, e.g. `` CAST(`ts1` AS TIMESTAMP(3)) ``.
//
// Types print as LogicalType::asSerializableString(). Pure function; any thread.
#pragma once

#include <string>

#include "sql/parser/ast.h"

namespace eddy::sql {

/// The normalized SQL text of an expression, query, table reference, window specification or
/// statement (one line, no trailing `;`).
std::string unparse(const Node& node);

/// The SQL spelling of a binary operator ("AND", "<>", "||", "IS DISTINCT FROM", ...); it is
/// also the name of the built-in function that implements it.
const char* binaryOperatorText(BinaryOperator op);

}  // namespace eddy::sql
