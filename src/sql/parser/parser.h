// The SQL parser's entry points: Flink's SQL dialect (Calcite's ANSI SQL plus Flink's DDL and
// statements) parsed by hand-written recursive descent into the AST of ast.h. The accepted
// grammar, and where it differs from Flink, is written down in docs/sql_grammar.md.
//
// Called by the Table API (executeSql, sqlQuery, computed columns and watermarks given as
// strings) and the SQL client, from any thread; the functions keep no state between calls.
// The caller owns the returned trees.
//
// Every syntax error throws eddy::SqlParseException with the 1-based line and column of the
// offending token, in one wording:
//   SQL parse failed. Encountered "FROM" at line 1, column 8. Was expecting: <expression>
//   SQL parse failed. Encountered "<EOF>" at line 1, column 14. Was expecting one of: ...
// Lexical and other errors read `SQL parse failed. <what> at line L, column C[: <detail>]`,
// e.g. `SQL parse failed. Unterminated string literal at line 3, column 12.` Input nested
// deeper than kMaxNestingDepth fails cleanly instead of exhausting the stack.
#pragma once

#include <string_view>
#include <vector>

#include "sql/parser/ast.h"

namespace eddy::sql {

/// The deepest nesting of parentheses, subqueries and operator chains the parser accepts.
inline constexpr int kMaxNestingDepth = 500;

/// Parses a script: statements separated by `;` (empty statements are skipped). The SQL
/// client's `BEGIN STATEMENT SET; INSERT ..; END;` becomes one StatementSetStatement. Each
/// statement's `sourceText` is its own text; positions are relative to the whole script.
std::vector<StatementPtr> parseScript(std::string_view sql);

/// Parses exactly one statement, optionally followed by `;`.
StatementPtr parseStatement(std::string_view sql);

/// Parses one expression, e.g. a computed column or watermark expression of the Table API.
ExpressionPtr parseExpression(std::string_view sql);

}  // namespace eddy::sql
