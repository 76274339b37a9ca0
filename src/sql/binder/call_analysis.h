// What the function calls of a parsed (not yet bound) expression are: GROUP BY aggregates,
// OVER aggregates and JSON constructors. The binder asks this of a clause before binding it:
// bindSelect plans the aggregation from the aggregate calls of its select list and HAVING,
// WHERE and ON refuse aggregates, an aggregate's argument may not hold another one. Private to
// the binder's files.
#pragma once

#include <functional>
#include <optional>

#include "function/aggregate/aggregate_call.h"
#include "sql/parser/ast.h"

namespace eddy::sql {

/// Whether `node` is a JSON_OBJECT or JSON_ARRAY call, whose value a JSON constructor or JSON
/// aggregate around it inserts as JSON rather than as a string.
bool isJsonConstructorCall(const Expression& node);

/// The aggregate function `call` calls, with or without OVER (COUNT(*) and COUNT() are
/// COUNT_STAR); nullopt for other functions.
std::optional<function::AggregateKind> aggregateKindOfCall(
    const FunctionCallExpression& call);

/// The aggregate function of a GROUP BY aggregate call (not one with OVER).
std::optional<function::AggregateKind> aggregateKindOf(
    const FunctionCallExpression& call);

/// Calls `visit` for `expression` and its operands, outermost first (the arguments of calls and
/// the operands of operators, IS, CAST, BETWEEN, CASE and IN; not into field accesses or
/// subqueries); the operands of a node are visited only when `visit` returns false for it.
void forEachSubexpression(const Expression& expression,
                          const std::function<bool(const Expression&)>& visit);

/// Calls `visit` for the function calls of `expression`, outermost first; the arguments of a
/// call are visited only when `visit` returns false for it.
void forEachCall(const Expression& expression,
                 const std::function<bool(const FunctionCallExpression&)>& visit);

/// Calls `visit` for every aggregate call in `expression`, outermost first (aggregates are not
/// looked for inside other aggregates: nesting is an error reported when binding).
void forEachAggregate(const Expression& expression,
                      const std::function<void(const FunctionCallExpression&)>& visit);

/// Whether an argument of `call` calls an aggregate function.
bool hasNestedAggregate(const FunctionCallExpression& call);

/// Whether `query` is a SELECT that aggregates without GROUP BY or HAVING (so it has exactly one
/// row).
bool aggregatesWithoutGroupBy(const Query& query);

/// Calls `visit` for every aggregate function called with OVER in `expression`.
void forEachOverAggregate(const Expression& expression,
                          const std::function<void(const FunctionCallExpression&)>& visit);

}  // namespace eddy::sql
