// windowGroupingOf (window_grouping.h).
#include "sql/planner/window_grouping.h"

namespace eddy::sql {

namespace {
bool readsColumnAtOrAbove(const expression::ExpressionPtr& e, int column) {
  if (e->kind() == expression::ExpressionKind::kColumnReference) {
    return static_cast<const expression::ColumnReference&>(*e).index() >= column;
  }
  for (const expression::ExpressionPtr& child : e->children()) {
    if (readsColumnAtOrAbove(child, column)) return true;
  }
  return false;
}
}  // namespace

std::optional<WindowGrouping> windowGroupingOf(const LogicalNode& input, int groupCount,
                                               const std::vector<function::AggregateCall>& calls) {
  WindowGrouping grouping;
  grouping.project = dynamic_cast<const LogicalProject*>(&input);
  if (!grouping.project) return std::nullopt;
  const LogicalNode* below = grouping.project->inputs[0].get();
  while (below->kind == LogicalNodeKind::kFilter) {
    grouping.filters.push_back(static_cast<const LogicalFilter&>(*below).condition);
    below = below->inputs[0].get();
  }
  grouping.function = dynamic_cast<const LogicalWindowTableFunction*>(below);
  if (!grouping.function) return std::nullopt;
  // The TVF's columns: its input's, then window_start, window_end, window_time.
  const int arity = grouping.function->inputs[0]->rowType->getFieldCount();
  for (const expression::ExpressionPtr& filter : grouping.filters) {
    if (readsColumnAtOrAbove(filter, arity)) return std::nullopt;
  }
  const std::vector<expression::ExpressionPtr>& expressions = grouping.project->expressions;
  bool hasStart = false;
  bool hasEnd = false;
  for (int k = 0; k < groupCount; ++k) {
    const expression::ExpressionPtr& key = expressions[static_cast<size_t>(k)];
    if (key->kind() == expression::ExpressionKind::kColumnReference &&
        static_cast<const expression::ColumnReference&>(*key).index() >= arity) {
      const int property = static_cast<const expression::ColumnReference&>(*key).index() - arity;
      hasStart = hasStart || property == 0;
      hasEnd = hasEnd || property == 1;
      grouping.keys.push_back(property == 0   ? WindowGrouping::Key::WINDOW_START
                              : property == 1 ? WindowGrouping::Key::WINDOW_END
                                              : WindowGrouping::Key::WINDOW_TIME);
      continue;
    }
    if (readsColumnAtOrAbove(key, arity)) return std::nullopt;
    grouping.keys.push_back(WindowGrouping::Key::DATA);
  }
  if (!hasStart || !hasEnd) return std::nullopt;
  for (const function::AggregateCall& call : calls) {
    for (int column : {call.argumentColumn, call.filterColumn}) {
      if (column >= 0 && readsColumnAtOrAbove(expressions[static_cast<size_t>(column)], arity)) {
        return std::nullopt;
      }
    }
  }
  return grouping;
}

}  // namespace eddy::sql
