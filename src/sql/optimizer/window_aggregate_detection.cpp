// WindowAggregateDetection (passes.h): an aggregation the binder marked as grouped by the window
// of a window TVF (LogicalAggregate::windowed, window_grouping.h) becomes a window aggregation
// over the TVF's input: one result per window when the window closes, insert-only (Flink's
// window aggregate rules over a window TVF).
#include <map>

#include "sql/optimizer/passes.h"
#include "sql/optimizer/plan_rewriting.h"
#include "sql/planner/window_grouping.h"

namespace eddy::sql {

using function::AggregateCall;

LogicalNodePtr planWindowAggregates(const LogicalNodePtr& node) {
  using Output = relational::WindowOutputColumn;
  if (node->kind != LogicalNodeKind::kAggregate) return node;
  const auto& aggregate = static_cast<const LogicalAggregate&>(*node);
  if (!aggregate.windowed) return node;
  const LogicalNodePtr& pre = node->inputs[0];
  const int groupCount = static_cast<int>(aggregate.groupingColumns.size());
  const std::optional<WindowGrouping> grouping =
      windowGroupingOf(*pre, groupCount, aggregate.calls);
  if (!grouping) return node;  // (LogicalAggregate's type derivation rejects this case)
  const LogicalProject& project = *grouping->project;
  const relational::WindowSpec& spec = grouping->function->window;
  const LogicalNodePtr& data = grouping->function->inputs[0];
  const auto& preFields = pre->rowType->getFields();
  // Over the TVF's input: the data keys, then the calls' arguments and filters, then the time.
  std::vector<expression::ExpressionPtr> projection;
  std::vector<std::string> projectionNames;
  std::vector<int> keyColumns;
  std::vector<Output> outputs;
  for (int k = 0; k < groupCount; ++k) {
    switch (grouping->keys[static_cast<size_t>(k)]) {
      case WindowGrouping::Key::WINDOW_START:
        outputs.push_back(Output{Output::Kind::WINDOW_START, 0});
        continue;
      case WindowGrouping::Key::WINDOW_END:
        outputs.push_back(Output{Output::Kind::WINDOW_END, 0});
        continue;
      case WindowGrouping::Key::WINDOW_TIME:
        outputs.push_back(Output{Output::Kind::WINDOW_TIME, 0});
        continue;
      case WindowGrouping::Key::DATA:
        break;
    }
    outputs.push_back(Output{Output::Kind::KEY, static_cast<int>(keyColumns.size())});
    keyColumns.push_back(static_cast<int>(projection.size()));
    projection.push_back(project.expressions[static_cast<size_t>(k)]);
    projectionNames.push_back(preFields[static_cast<size_t>(k)].name);
  }
  std::map<int, int> moved;
  auto move = [&](int column) {
    if (column < 0) return column;
    auto found = moved.find(column);
    if (found != moved.end()) return found->second;
    const int index = static_cast<int>(projection.size());
    projection.push_back(project.expressions[static_cast<size_t>(column)]);
    projectionNames.push_back(preFields[static_cast<size_t>(column)].name);
    moved.emplace(column, index);
    return index;
  };
  std::vector<AggregateCall> calls = aggregate.calls;
  for (size_t i = 0; i < calls.size(); ++i) {
    calls[i].argumentColumn = move(calls[i].argumentColumn);
    calls[i].filterColumn = move(calls[i].filterColumn);
    outputs.push_back(Output{Output::Kind::CALL, static_cast<int>(i)});
  }
  relational::WindowSpec window = spec;
  const RowField& timeField = data->rowType->getFields()[static_cast<size_t>(spec.timeColumn)];
  window.timeColumn = static_cast<int>(projection.size());
  projection.push_back(expression::column(spec.timeColumn, timeField.type));
  projectionNames.push_back(timeField.name);
  LogicalNodePtr input = data;
  for (auto it = grouping->filters.rbegin(); it != grouping->filters.rend(); ++it) {
    input = std::make_shared<LogicalFilter>(input, *it);
  }
  input = std::make_shared<LogicalProject>(input, std::move(projection),
                                           uniquifyNames(projectionNames));
  return std::make_shared<LogicalWindowAggregate>(input, std::move(window), std::move(keyColumns),
                                                  std::move(calls), std::move(outputs),
                                                  namesOf(*node));
}

}  // namespace eddy::sql
