#include "sql/optimizer/optimizer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>

#include "common/text.h"
#include "eddy/exceptions.h"
#include "sql/optimizer/passes.h"
#include "sql/optimizer/plan_rewriting.h"

namespace eddy::sql {

namespace {

using Rewrite = std::function<LogicalNodePtr(const LogicalNodePtr&)>;

struct Pass {
  const char* name;
  Rewrite rewrite;
};

// The passes in the order they run.
const std::vector<Pass>& passes() {
  static const std::vector<Pass> kPasses = {
      // The aggregations the binder leaves to plan, seen as it made them (a window grouping is
      // recognised by the projection and filters right above its window TVF).
      {"GroupingSetsExpansion", planGroupingSets},
      {"WindowAggregateDetection", planWindowAggregates},
      // The Top-N passes see the plan as the binder made it: a filter or projection over the
      // Rank, before FilterPushDown and ProjectMerge move and merge those.
      {"RankFilterPushDown", pushFiltersIntoRanks},
      {"RankNumberPruning", pruneRankNumbers},
      {"ConstantFolding", foldConstants},
      {"FilterPushDown", pushFilters},
      // FilterPushDown can bring a filter on the rank column down to its Rank (through a
      // projection over the ranking query): make that a Top-N range too, before ProjectMerge.
      {"RankFilterPushDown", pushFiltersIntoRanks},
      {"RankNumberPruning", pruneRankNumbers},
      {"ProjectJoinTranspose", pruneJoinInputs},
      {"ProjectMerge", mergeProjects},
      // Merged projections can put constants together again (CAST(1.5 AS DOUBLE) of a sink's
      // cast over a literal column): fold once more.
      {"ConstantFolding", foldConstants},
      {"PartitionPushDown", prunePartitions},
      {"ProjectionPushDown", pushProjection},
      {"WatermarkPushDown", pushWatermarkIntoScan},
  };
  return kPasses;
}

/// Applies `rewrite` bottom-up: inputs first, then the node (rebuilt when an input changed).
LogicalNodePtr bottomUp(const LogicalNodePtr& node, const Rewrite& rewrite) {
  bool changed = false;
  std::vector<LogicalNodePtr> inputs;
  for (const LogicalNodePtr& input : node->inputs) {
    inputs.push_back(bottomUp(input, rewrite));
    changed = changed || inputs.back() != input;
  }
  LogicalNodePtr current = changed ? withInputs(*node, std::move(inputs)) : node;
  return rewrite(current);
}

}  // namespace

const std::vector<std::string>& optimizerPassNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const Pass& pass : passes()) {
      if (std::find(names.begin(), names.end(), pass.name) == names.end())
        names.push_back(pass.name);
    }
    return names;
  }();
  return kNames;
}

OptimizerSettings parseDisabledPasses(const std::string& value) {
  OptimizerSettings settings;
  const std::vector<std::string>& names = optimizerPassNames();
  for (const std::string& name : common::splitList(value)) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      throw ValidationException("Unknown optimizer pass '" + name +
                                "' in 'table.optimizer.disabled-passes' = '" + value +
                                "'. The passes are: " + fmt::format("{}", fmt::join(names, ", ")));
    }
    settings.disabledPasses.insert(name);
  }
  return settings;
}

LogicalNodePtr optimize(const LogicalNodePtr& plan, const OptimizerSettings& settings,
                        std::vector<std::string>* appliedPasses) {
  LogicalNodePtr current = plan;
  for (const Pass& pass : passes()) {
    if (settings.disabledPasses.count(pass.name)) continue;
    LogicalNodePtr next = bottomUp(current, pass.rewrite);
    if (next != current && appliedPasses) appliedPasses->push_back(pass.name);
    current = next;
  }
  return current;
}

}  // namespace eddy::sql
