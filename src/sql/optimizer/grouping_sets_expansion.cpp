// GroupingSetsExpansion (passes.h): GROUPING SETS, ROLLUP and CUBE as one aggregation per set,
// each padded to every grouping column (NULL where its set lacks the column) and to the
// GROUPING flags (1 where it lacks it), under a UNION ALL. Flink expands grouping sets too
// (its Expand node duplicates each row per set before one aggregation); a union of
// per-set aggregations over the shared input keeps each aggregation's state to its own set.
#include <algorithm>

#include "sql/optimizer/passes.h"

namespace eddy::sql {

LogicalNodePtr planGroupingSets(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kAggregate) return node;
  const auto& aggregate = static_cast<const LogicalAggregate&>(*node);
  if (aggregate.groupingSets.empty()) return node;
  const LogicalNodePtr& input = node->inputs[0];
  const auto& outputFields = node->rowType->getFields();
  const std::vector<int>& columns = aggregate.groupingColumns;
  const int keyCount = static_cast<int>(columns.size());
  std::vector<std::string> callNames;
  for (size_t c = 0; c < aggregate.calls.size(); ++c) {
    callNames.push_back(outputFields[columns.size() + c].name);
  }
  std::vector<std::string> names;
  for (const RowField& field : outputFields) names.push_back(field.name);
  const LogicalTypePtr flagType = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
  std::vector<LogicalNodePtr> perSet;
  for (const std::vector<int>& set : aggregate.groupingSets) {
    std::vector<int> setColumns;
    for (int position : set) setColumns.push_back(columns[static_cast<size_t>(position)]);
    auto setAggregate =
        std::make_shared<LogicalAggregate>(input, std::move(setColumns), aggregate.calls, callNames);
    const auto& fields = setAggregate->rowType->getFields();
    std::vector<expression::ExpressionPtr> padded;
    for (int k = 0; k < keyCount; ++k) {
      auto position = std::find(set.begin(), set.end(), k);
      if (position == set.end()) {
        padded.push_back(expression::literal(Value(), outputFields[static_cast<size_t>(k)].type));
      } else {
        const int column = static_cast<int>(position - set.begin());
        padded.push_back(expression::column(column, fields[static_cast<size_t>(column)].type));
      }
    }
    for (size_t c = 0; c < aggregate.calls.size(); ++c) {
      const int column = static_cast<int>(set.size() + c);
      padded.push_back(expression::column(column, fields[static_cast<size_t>(column)].type));
    }
    for (int k = 0; k < keyCount; ++k) {
      const bool absent = std::find(set.begin(), set.end(), k) == set.end();
      padded.push_back(expression::literal(Value(int64_t{absent ? 1 : 0}), flagType));
    }
    perSet.push_back(std::make_shared<LogicalProject>(setAggregate, std::move(padded), names));
  }
  return std::make_shared<LogicalUnion>(std::move(perSet), node->rowType);
}

}  // namespace eddy::sql
