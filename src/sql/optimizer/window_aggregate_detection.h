// Window-aggregate detection: a GROUP BY over a window table function that groups by its
// window_start and window_end is a window aggregation (one result per window, when the window
// closes, insert-only) instead of a regular aggregation (Flink's window aggregate rules). Today
// the binder calls it where it plans an aggregation (bindSelect, and the aggregates that
// evaluate subqueries); it becomes an optimizer pass in a later step.
#pragma once

#include <string>
#include <vector>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// Aggregate(`pre`) grouped by its first `groupCount` columns as a window aggregation, when
/// `pre` is a projection over a window TVF (through filters that do not read the window
/// columns) that groups by window_start and window_end; null otherwise. `names`: the keys'
/// then the calls' output names.
LogicalNodePtr planWindowAggregate(const LogicalNodePtr& pre, int groupCount,
                                   const std::vector<function::AggregateCall>& calls,
                                   const std::vector<std::string>& names);

}  // namespace eddy::sql
