// Top-N filter push-down: a WHERE above a ranking function that bounds the rank column (rn <=
// N, rn < N, rn = N, rn BETWEEN a AND b) becomes the Rank's range, as Flink's
// FlinkLogicalRankRule makes a Rank from a filter over ROW_NUMBER(). Today the binder calls it
// while it binds a WHERE (bindSelect); it becomes an optimizer pass in a later step.
#pragma once

#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// A filter bounding the rank column of a Top-N below `input` (rn <= N, rn < N, rn = N,
/// rn BETWEEN a AND b, ...) pushed into the Rank; the other conjuncts stay as a filter.
/// Null when `condition` bounds no rank from above.
LogicalNodePtr pushRankFilter(const LogicalNodePtr& input, const expression::ExpressionPtr& condition);

}  // namespace eddy::sql
