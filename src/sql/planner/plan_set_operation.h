// Planning INTERSECT and EXCEPT (the binder plans UNION itself: a LogicalUnion, with an
// aggregate on top for UNION DISTINCT): both inputs marked with their side, counted per row by
// an aggregate and filtered (ALL: the row repeated as often as it remains), as Flink's planner
// rewrites them, so that the plan retracts correctly in STREAMING.
#pragma once

#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// `left INTERSECT [ALL] right` or `left EXCEPT [ALL] right` of inputs of one row type.
LogicalNodePtr intersectOrExcept(const LogicalNodePtr& left, const LogicalNodePtr& right,
                                 bool intersect, bool all);

}  // namespace eddy::sql
