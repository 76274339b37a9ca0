// Planning a join from its condition: the equalities between an expression of each side become
// the join's equi keys, the rest its residual condition. The binder plans every join it binds
// with it (JOIN ... ON, USING, the joins that evaluate subqueries), and the optimizer's
// FilterPushDown re-plans an inner join with a filter's conjuncts added.
#pragma once

#include <optional>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// A join of `left` and `right` on `condition` (over their concatenated columns; null for a
/// cross join): equalities between an expression of each side become the join's equi keys
/// (computed keys are projected below the join and dropped above it), the rest its residual
/// condition.
LogicalNodePtr planJoin(LogicalNodePtr left, LogicalNodePtr right,
                        relational::JoinType joinType,
                        const expression::ExpressionPtr& condition,
                        std::optional<TemporalJoinTime> temporal = std::nullopt);

}  // namespace eddy::sql
