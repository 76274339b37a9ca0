// Rank-number pruning: a Top-N whose rank column nothing above reads no longer outputs it, so
// it emits only inserts and deletes, never rank updates (Flink's
// ConstantRankNumberColumnRemoveRule and the rank's outputRankNumber). Today the binder calls
// it on a select list over a Top-N (bindSelect); it becomes an optimizer pass in a later step.
#pragma once

#include <vector>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// `input` without the rank column of a Top-N below it when `projections` (over `input`) do
/// not read it; `projections` are remapped.
LogicalNodePtr pruneRankNumber(const LogicalNodePtr& input,
                               std::vector<expression::ExpressionPtr>& projections);

}  // namespace eddy::sql
