// The Top-N pattern the rank rewrites look for: a Rank that outputs its rank number, alone or
// under a projection of plain columns, and how to put a changed Rank back under that
// projection. Shared by the RankFilterPushDown and RankNumberPruning passes.
#pragma once

#include <memory>
#include <utility>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// A Top-N below `node`: the Rank itself, or a projection of plain columns over it. Returns the
/// rank and the position of the rank column in `node`'s output (-1 when not found).
std::pair<const LogicalRank*, int> rankBelow(const LogicalNodePtr& node);

/// `node` with its rank replaced (a projection over it is kept, minus `dropColumn` if >= 0).
LogicalNodePtr replaceRank(const LogicalNodePtr& node, std::shared_ptr<const LogicalRank> rank,
                           int dropColumn);

}  // namespace eddy::sql
