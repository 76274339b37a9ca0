// What the syntax of a clause says before it is bound: the conjuncts of a WHERE or HAVING
// (bindSelect and the correlated WHERE of a subquery bind each on its own), the NULL order of
// an ORDER BY item (ORDER BY, ranking functions and OVER windows sort alike), and the row type
// of a relation's output columns. Private to the binder's files.
#pragma once

#include <string>
#include <vector>

#include "eddy/types/logical_type.h"
#include "sql/parser/ast.h"

namespace eddy::sql {

/// Appends the operands of the AND chain `predicate` (the predicate itself when it is no AND).
void collectConjuncts(const Expression& predicate, std::vector<const Expression*>& out);

/// Flink's default NULL order of an ORDER BY item: NULLs first in ascending order, last in
/// descending order, unless NULLS FIRST/LAST says otherwise.
bool nullsFirstOf(const OrderItem& item);

/// ROW<names[i] types[i], ...> NOT NULL.
LogicalTypePtr rowTypeOf(const std::vector<std::string>& names,
                         const std::vector<LogicalTypePtr>& types);

}  // namespace eddy::sql
