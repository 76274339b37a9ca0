// PartitionPushDown (passes.h).
#include <algorithm>

#include "connectors/dynamic_table_factory.h"
#include "eddy/exceptions.h"
#include "expression/expression_evaluator.h"
#include "sql/optimizer/passes.h"
#include "sql/optimizer/plan_rewriting.h"
#include "sql/planner/plan_table_scan.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

// A filter over a scan of a partitioned table whose source lists its partitions: the conjuncts
// over partition keys only are evaluated on each partition's key values, the scan reads just
// the partitions where all of them hold, and those conjuncts go (Flink's
// PushPartitionIntoTableSourceScanRule). Conjuncts over other columns stay in the filter.
LogicalNodePtr prunePartitions(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kFilter ||
      node->inputs[0]->kind != LogicalNodeKind::kTableScan) {
    return node;
  }
  const auto& filter = static_cast<const LogicalFilter&>(*node);
  const auto& scan = static_cast<const LogicalTableScan&>(*node->inputs[0]);
  if (scan.partitionKeys.empty() || scan.partitions || scan.projection) return node;
  // The key columns (the scan's columns are the physical ones, then metadata).
  const std::vector<RowField>& fields = scan.rowType->getFields();
  std::vector<int> keyIndex(fields.size(), -1);  // scan column -> key position
  std::vector<RowField> keys;
  for (const std::string& key : scan.partitionKeys) {
    const int column = scan.physicalRowType->getFieldIndex(key);
    if (column < 0) return node;  // the connector reports it
    keyIndex[static_cast<size_t>(column)] = static_cast<int>(keys.size());
    keys.push_back(fields[static_cast<size_t>(column)]);
  }
  std::vector<BoundPtr> onKeys, others;
  for (const BoundPtr& conjunct : expression::conjunctsOf(filter.condition)) {
    std::vector<int> columns;
    expression::collectColumns(conjunct, columns);
    const bool keysOnly = !columns.empty() && conjunct->isDeterministic() &&
                          std::all_of(columns.begin(), columns.end(), [&](int column) {
                            return keyIndex[static_cast<size_t>(column)] >= 0;
                          });
    (keysOnly ? onKeys : others).push_back(conjunct);
  }
  if (onKeys.empty()) return node;
  std::unique_ptr<connectors::DynamicTableSource> source;
  try {
    connectors::ConnectorContext context = connectorContextOf(scan);
    source = connectors::FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(
        context);
  } catch (const std::exception&) {
    return node;  // an invalid table fails when the job is built, with its message
  }
  if (!source->supportsPartitionPushDown()) return node;
  // The predicate over a chunk of the partitions' key values. A table that cannot be listed
  // (no directory yet) or has a value not of its key's type is left to the job, which fails
  // with that message when it reads the table.
  std::vector<connectors::PartitionSpec> partitions;
  std::vector<Row> keyRows;
  try {
    partitions = source->listPartitions();
    for (const connectors::PartitionSpec& partition : partitions) {
      keyRows.push_back(connectors::partitionRow(partition, keys, scan.tableName));
    }
  } catch (const ConnectorException&) {
    return node;
  }
  LogicalTypePtr keyRowType = LogicalType::row(keys, false);
  BoundPtr predicate = renumberColumns(expression::conjunction(onKeys), keyIndex);
  std::vector<int32_t> selected;
  try {
    expression::ExpressionEvaluator evaluator({predicate});
    function::EvaluationContext context;
    selected = evaluator.selectTrue(predicate, vector::rowsToChunk(keyRows, keyRowType), context);
  } catch (const std::exception&) {
    return node;  // a failing predicate fails at runtime, row by row
  }
  std::vector<connectors::PartitionSpec> kept;
  for (int32_t row : selected) kept.push_back(partitions[static_cast<size_t>(row)]);
  auto pruned = std::make_shared<LogicalTableScan>(scan, std::move(kept));
  if (others.empty()) return pruned;
  return std::make_shared<LogicalFilter>(pruned, expression::conjunction(std::move(others)));
}

}  // namespace eddy::sql
