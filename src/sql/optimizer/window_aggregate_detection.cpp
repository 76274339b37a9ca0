// planWindowAggregate (window_aggregate_detection.h).
#include "sql/optimizer/window_aggregate_detection.h"

#include <map>

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;
using function::AggregateCall;

namespace {
bool readsColumnAtOrAbove(const BoundPtr& e, int column) {
  if (e->kind() == expression::ExpressionKind::kColumnReference) {
    return static_cast<const expression::ColumnReference&>(*e).index() >= column;
  }
  for (const BoundPtr& child : e->children()) {
    if (readsColumnAtOrAbove(child, column)) return true;
  }
  return false;
}
}  // namespace

LogicalNodePtr planWindowAggregate(const LogicalNodePtr& pre, int groupCount,
                                   const std::vector<AggregateCall>& calls,
                                   const std::vector<std::string>& names) {
  using Output = relational::WindowOutputColumn;
  const auto* project = dynamic_cast<const LogicalProject*>(pre.get());
  if (!project) return nullptr;
  std::vector<BoundPtr> filters;
  LogicalNodePtr below = project->inputs[0];
  while (below->kind == LogicalNodeKind::kFilter) {
    filters.push_back(static_cast<const LogicalFilter&>(*below).condition);
    below = below->inputs[0];
  }
  const auto* function = dynamic_cast<const LogicalWindowTableFunction*>(below.get());
  if (!function) return nullptr;
  const LogicalNodePtr& data = function->inputs[0];
  const int arity = data->rowType->getFieldCount();
  for (const BoundPtr& filter : filters) {
    if (readsColumnAtOrAbove(filter, arity)) return nullptr;
  }
  const auto& preFields = pre->rowType->getFields();
  std::vector<BoundPtr> projection;
  std::vector<std::string> projectionNames;
  std::vector<int> keyColumns;
  std::vector<Output> outputs;
  bool hasStart = false;
  bool hasEnd = false;
  for (int k = 0; k < groupCount; ++k) {
    const BoundPtr& key = project->expressions[k];
    if (key->kind() == expression::ExpressionKind::kColumnReference &&
        static_cast<const expression::ColumnReference&>(*key).index() >= arity) {
      int property = static_cast<const expression::ColumnReference&>(*key).index() - arity;
      hasStart = hasStart || property == 0;
      hasEnd = hasEnd || property == 1;
      outputs.push_back(Output{property == 0   ? Output::Kind::WINDOW_START
                               : property == 1 ? Output::Kind::WINDOW_END
                                               : Output::Kind::WINDOW_TIME,
                               0});
      continue;
    }
    if (readsColumnAtOrAbove(key, arity)) return nullptr;
    outputs.push_back(Output{Output::Kind::KEY, static_cast<int>(keyColumns.size())});
    keyColumns.push_back(static_cast<int>(projection.size()));
    projection.push_back(key);
    projectionNames.push_back(preFields[k].name);
  }
  if (!hasStart || !hasEnd) return nullptr;
  // The aggregate arguments and filters, re-projected after the keys.
  std::map<int, int> moved;
  auto move = [&](int column) {
    if (column < 0) return column;
    auto found = moved.find(column);
    if (found != moved.end()) return found->second;
    int index = static_cast<int>(projection.size());
    projection.push_back(project->expressions[column]);
    projectionNames.push_back(preFields[column].name);
    moved.emplace(column, index);
    return index;
  };
  std::vector<AggregateCall> windowCalls = calls;
  for (size_t i = 0; i < windowCalls.size(); ++i) {
    for (int column : {windowCalls[i].argumentColumn, windowCalls[i].filterColumn}) {
      if (column >= 0 && readsColumnAtOrAbove(project->expressions[column], arity)) return nullptr;
    }
    windowCalls[i].argumentColumn = move(windowCalls[i].argumentColumn);
    windowCalls[i].filterColumn = move(windowCalls[i].filterColumn);
    outputs.push_back(Output{Output::Kind::CALL, static_cast<int>(i)});
  }
  relational::WindowSpec window = function->window;
  const RowField& timeField = data->rowType->getFields()[window.timeColumn];
  window.timeColumn = static_cast<int>(projection.size());
  projection.push_back(expression::column(function->window.timeColumn, timeField.type));
  projectionNames.push_back(timeField.name);
  LogicalNodePtr input = data;
  for (auto it = filters.rbegin(); it != filters.rend(); ++it) {
    input = std::make_shared<LogicalFilter>(input, *it);
  }
  input = std::make_shared<LogicalProject>(input, std::move(projection),
                                           uniquifyNames(projectionNames));
  return std::make_shared<LogicalWindowAggregate>(input, std::move(window), std::move(keyColumns),
                                                  std::move(windowCalls), std::move(outputs),
                                                  names);
}

}  // namespace eddy::sql
