// RankNumberPruning (passes.h).
#include <algorithm>
#include <cstdint>

#include "sql/optimizer/passes.h"
#include "sql/optimizer/plan_rewriting.h"
#include "sql/optimizer/top_n_pattern.h"

namespace eddy::sql {

namespace {

// `input` without the rank column of a Top-N below it when `projections` (over `input`) do
// not read it; `projections` are remapped.
LogicalNodePtr pruneRankNumber(const LogicalNodePtr& input,
                               std::vector<expression::ExpressionPtr>& projections) {
  // The rank column unused above a Top-N (optionally under a filter that does not read it):
  // Flink then emits +I/-D only, without rank updates.
  const LogicalFilter* filter = input->kind == LogicalNodeKind::kFilter
                                    ? static_cast<const LogicalFilter*>(input.get())
                                    : nullptr;
  const LogicalNodePtr& below = filter ? input->inputs[0] : input;
  auto [rank, rankColumn] = rankBelow(below);
  if (!rank || rank->rankEnd == INT64_MAX) return input;
  std::vector<int> used;
  for (const auto& projection : projections) expression::collectColumns(projection, used);
  if (filter) expression::collectColumns(filter->condition, used);
  if (std::find(used.begin(), used.end(), rankColumn) != used.end()) return input;
  if (rankColumn < 0) {
    // The projection below never reads it: the rank is the last column, nothing shifts.
    LogicalNodePtr result =
        replaceRank(below, rank->with(rank->rankStart, rank->rankEnd, false), -1);
    return filter ? std::make_shared<LogicalFilter>(result, filter->condition) : result;
  }
  auto shift = [rankColumn](int column) { return column > rankColumn ? column - 1 : column; };
  LogicalNodePtr result = replaceRank(below, rank->with(rank->rankStart, rank->rankEnd, false),
                                      below->kind == LogicalNodeKind::kRank ? -1 : rankColumn);
  if (filter) {
    result =
        std::make_shared<LogicalFilter>(result, expression::remapColumns(filter->condition, shift));
  }
  for (auto& projection : projections) projection = expression::remapColumns(projection, shift);
  return result;
}

}  // namespace

LogicalNodePtr pruneRankNumbers(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kProject) return node;
  std::vector<expression::ExpressionPtr> projections =
      static_cast<const LogicalProject&>(*node).expressions;
  LogicalNodePtr input = pruneRankNumber(node->inputs[0], projections);
  if (input == node->inputs[0]) return node;
  return std::make_shared<LogicalProject>(std::move(input), std::move(projections), namesOf(*node));
}

}  // namespace eddy::sql
