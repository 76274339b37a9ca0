// The logical optimizer: a fixed list of named rewrite passes over the plan the binder made,
// each a pure function from plan to plan (nodes are immutable; unchanged subtrees are
// shared). EXPLAIN prints the plan before ("Abstract Syntax Tree") and after ("Optimized
// Logical Plan"). The passes, in order:
//
//   ConstantFolding     deterministic sub-expressions that read no column become literals
//                       (in projections, filters and join conditions); a filter that folds
//                       to TRUE disappears
//   FilterPushDown      a filter moves below a projection (its condition rewritten over the
//                       projection's input), into both inputs of a UNION ALL, and into an
//                       inner join (its equalities becoming join keys)
//   ProjectJoinTranspose a projection over a join that reads only some of its columns gets
//                       a projection on each join input keeping what is read above and by
//                       the join's keys and condition (the join then stores and emits less)
//   ProjectMerge        a projection of a projection becomes one projection; a projection
//                       that renames nothing and keeps every column in order disappears
//   ProjectionPushDown  a projection over projections, filters and watermark assigners down to
//                       a table scan whose source supports projection (the nexmark connector)
//                       makes the scan produce only the (nested) fields read, as flat columns
//                       (`person.name` becomes a column `person_name`); every node of the chain
//                       keeps only what is read above it
//
// Sub-plan reuse (`table.optimizer.reuse-sub-plan-enabled`) is done by the translator: equal
// sub-plans of one job (by their EXPLAIN text) become one DataStream, so a source read by
// several INSERTs of a statement set is read once. Physical choices (Calc fusing a filter and
// a projection, hash exchanges, the join and aggregate operators per runtime mode) are the
// translator's too.
#pragma once

#include <string>
#include <vector>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// The optimized plan. `appliedPasses` (optional) receives the name of each pass that changed
/// something.
LogicalNodePtr optimize(const LogicalNodePtr& plan, std::vector<std::string>* appliedPasses = nullptr);

/// `node` with other inputs (of the same row types); any node kind.
LogicalNodePtr withInputs(const LogicalNode& node, std::vector<LogicalNodePtr> inputs);

}  // namespace eddy::sql
