// The logical optimizer: a fixed list of named rewrite passes over the plan the binder made,
// run in order (optimizer.cpp lists them; passes.h says what each does). EXPLAIN prints the
// plan before ("Abstract Syntax Tree") and after ("Optimized Logical Plan").
// `table.optimizer.disabled-passes` (docs/configuration.md) turns passes off by name, for plan
// tests (tests/sql/plan/<pass>.test shows each pass's plan without and with it) and for a user
// who needs a plan without one; every plan the passes leave runs, disabled or not.
//
// Sub-plan reuse (`table.optimizer.reuse-sub-plan-enabled`) is done by the translator: equal
// sub-plans of one job become one DataStream, so a source read by several INSERTs of a
// statement set is read once. Physical choices (Calc fusing a filter and a projection, hash
// exchanges, the join and aggregate operators per runtime mode) are the translator's too.
// Window aggregations and GROUPING SETS are planned by the binder (bind_select.cpp): whether an
// aggregation is a window aggregation decides its output types (window_time stays a time
// attribute), which the enclosing query is bound against.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

struct OptimizerSettings {
  /// Names of passes not to run (table.optimizer.disabled-passes).
  std::set<std::string> disabledPasses;
};

/// The passes' names, in the order they run (a name that runs twice is listed once).
const std::vector<std::string>& optimizerPassNames();

/// The settings of a `table.optimizer.disabled-passes` value (comma-separated names, blanks
/// around them ignored); an unknown name fails naming it, the option and the passes.
OptimizerSettings parseDisabledPasses(const std::string& value);

/// The optimized plan. `appliedPasses` (optional) receives the name of each pass that changed
/// something.
LogicalNodePtr optimize(const LogicalNodePtr& plan, const OptimizerSettings& settings = {},
                        std::vector<std::string>* appliedPasses = nullptr);

}  // namespace eddy::sql
