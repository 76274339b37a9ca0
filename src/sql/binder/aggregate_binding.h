// Binder::AggregateBinding: how the expressions above an aggregation (HAVING, a select list
// above GROUP BY, the subqueries in them) refer to the aggregation's output. bindSelect fills
// it while it plans the aggregation; bindExpression and bindFunctionCall read it from the
// ClauseContext of HAVING and the select list. Private to the binder's files.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sql/binder/binder.h"

namespace eddy::sql {

/// How expressions above an aggregation refer to its output: an aggregate call of the AST
/// becomes a reference to its result column; an expression equal (as SQL text) to a GROUP BY
/// expression becomes a reference to that grouping column.
struct Binder::AggregateBinding {
  std::map<const FunctionCallExpression*, int> callColumns;  // AST call → output column
  std::vector<std::string> groupingTexts;                    // unparsed GROUP BY expressions
  std::vector<int> groupingInputColumns;  // the input column a key is, -1 for other expressions
  std::vector<LogicalTypePtr> outputTypes;                   // aggregate output columns
  /// With several grouping sets: the column of the first key's GROUPING flag (one BIGINT
  /// column per key follows); -1 otherwise (GROUPING is then 0).
  int groupingFlagsOffset = -1;
};

}  // namespace eddy::sql
