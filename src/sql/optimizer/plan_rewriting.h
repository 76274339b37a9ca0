// What the optimizer passes share: rebuilding a node over other inputs, a node's column names,
// and column bookkeeping of expressions.
#pragma once

#include <string>
#include <vector>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// `node` with other inputs (of the same row types); any node kind.
LogicalNodePtr withInputs(const LogicalNode& node, std::vector<LogicalNodePtr> inputs);

/// The names of `node`'s output columns.
std::vector<std::string> namesOf(const LogicalNode& node);

/// Whether every one of `expressions` is deterministic.
bool allDeterministic(const std::vector<expression::ExpressionPtr>& expressions);

/// Sets used[i] for every column `e` reads.
void markColumns(const expression::ExpressionPtr& e, std::vector<bool>& used);

/// `e` with column i read as column newIndex[i] (same type; every column read must have one).
expression::ExpressionPtr renumberColumns(const expression::ExpressionPtr& e,
                                          const std::vector<int>& newIndex);

}  // namespace eddy::sql
