// WatermarkPushDown (passes.h).
#include "connectors/dynamic_table_factory.h"
#include "sql/optimizer/passes.h"
#include "sql/planner/plan_table_scan.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

namespace {

/// Whether `scan`'s source takes a pushed watermark (its table is valid: an invalid one fails
/// when the job is built, with its message).
bool takesWatermark(const LogicalTableScan& scan) {
  if (scan.watermark) return false;
  try {
    connectors::ConnectorContext context = connectorContextOf(scan);
    return connectors::FactoryRegistry::builtIn()
        .factoryFor(context)
        .createDynamicTableSource(context)
        ->supportsWatermarkPushDown();
  } catch (const std::exception&) {
    return false;
  }
}

/// `expression` without the cast that only makes a timestamp the rowtime attribute (the
/// watermark is computed from the value, which the cast does not change).
BoundPtr withoutRowtimeCast(const BoundPtr& expression) {
  if (expression->kind() != expression::ExpressionKind::kCast) return expression;
  const BoundPtr& operand = static_cast<const expression::Cast&>(*expression).operand();
  const LogicalType& to = *expression->type();
  const LogicalType& from = *operand->type();
  if (to.getTimestampKind() != TimestampKind::ROWTIME || from.getTypeRoot() != to.getTypeRoot() ||
      !(*from.copyWithTimestampKind(TimestampKind::ROWTIME) == to)) {
    return expression;
  }
  return operand;
}

}  // namespace

// A watermark assigner over a table scan, directly or through the projection of its computed
// and metadata columns, whose source supports watermark push-down: the watermark expression,
// rewritten over the scan's columns, goes into the scan and the assigner goes (Flink's
// PushWatermarkIntoTableSourceScanRule and ...AcrossCalcRule).
LogicalNodePtr pushWatermarkIntoScan(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kWatermarkAssigner) return node;
  const auto& assigner = static_cast<const LogicalWatermarkAssigner&>(*node);
  const LogicalNodePtr& input = node->inputs[0];
  if (input->kind == LogicalNodeKind::kTableScan) {
    const auto& scan = static_cast<const LogicalTableScan&>(*input);
    if (!takesWatermark(scan)) return node;
    return std::make_shared<LogicalTableScan>(scan, assigner.watermark);
  }
  if (input->kind != LogicalNodeKind::kProject ||
      input->inputs[0]->kind != LogicalNodeKind::kTableScan) {
    return node;
  }
  const auto& project = static_cast<const LogicalProject&>(*input);
  const auto& scan = static_cast<const LogicalTableScan&>(*input->inputs[0]);
  if (!takesWatermark(scan)) return node;
  std::vector<BoundPtr> columns;
  for (const BoundPtr& expression : project.expressions)
    columns.push_back(withoutRowtimeCast(expression));
  BoundPtr watermark = expression::inlineColumns(assigner.watermark, columns);
  if (!watermark->isDeterministic()) return node;
  return std::make_shared<LogicalProject>(
      std::make_shared<LogicalTableScan>(scan, std::move(watermark)), project.expressions,
      project.rowType->getFieldNames());
}

}  // namespace eddy::sql
