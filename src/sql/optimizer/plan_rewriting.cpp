// Helpers the optimizer passes share (plan_rewriting.h).
#include "sql/optimizer/plan_rewriting.h"

#include "eddy/exceptions.h"
#include "sql/planner/plan_sink.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

LogicalNodePtr withInputs(const LogicalNode& node, std::vector<LogicalNodePtr> inputs) {
  switch (node.kind) {
    case LogicalNodeKind::kValues:
    case LogicalNodeKind::kTableScan:
    case LogicalNodeKind::kDataStreamScan:
      throw InternalError("a leaf node has no inputs to replace");
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(node);
      std::vector<std::string> names;
      for (const RowField& field : node.rowType->getFields()) names.push_back(field.name);
      return std::make_shared<LogicalProject>(inputs[0], project.expressions, std::move(names));
    }
    case LogicalNodeKind::kFilter:
      return std::make_shared<LogicalFilter>(inputs[0],
                                             static_cast<const LogicalFilter&>(node).condition);
    case LogicalNodeKind::kAggregate: {
      const auto& aggregate = static_cast<const LogicalAggregate&>(node);
      std::vector<std::string> names;
      const auto& fields = node.rowType->getFields();
      const size_t callsEnd = aggregate.groupingColumns.size() + aggregate.calls.size();
      for (size_t i = aggregate.groupingColumns.size(); i < callsEnd; ++i) {
        names.push_back(fields[i].name);
      }
      return std::make_shared<LogicalAggregate>(
          inputs[0], aggregate.groupingColumns, aggregate.calls, std::move(names),
          aggregate.generateUpdateBefore, aggregate.groupingSets, aggregate.windowed);
    }
    case LogicalNodeKind::kUnion:
      return std::make_shared<LogicalUnion>(std::move(inputs), node.rowType);
    case LogicalNodeKind::kSort: {
      const auto& sort = static_cast<const LogicalSort&>(node);
      return std::make_shared<LogicalSort>(inputs[0], sort.keys, sort.offset, sort.fetch);
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(node);
      return join.with(inputs[0], inputs[1], join.condition);
    }
    case LogicalNodeKind::kRank: {
      const auto& rank = static_cast<const LogicalRank&>(node);
      return std::make_shared<LogicalRank>(
          inputs[0], rank.partitionKeys, rank.sortKeys, rank.rankKind, rank.rankStart, rank.rankEnd,
          rank.outputRankNumber, rank.rankName, rank.generateUpdateBefore);
    }
    case LogicalNodeKind::kWatermarkAssigner: {
      const auto& assigner = static_cast<const LogicalWatermarkAssigner&>(node);
      return std::make_shared<LogicalWatermarkAssigner>(inputs[0], assigner.rowtimeColumn,
                                                        assigner.watermark);
    }
    case LogicalNodeKind::kWindowTableFunction:
      return std::make_shared<LogicalWindowTableFunction>(
          inputs[0], static_cast<const LogicalWindowTableFunction&>(node).window);
    case LogicalNodeKind::kOverAggregate: {
      const auto& over = static_cast<const LogicalOverAggregate&>(node);
      std::vector<std::string> names;
      const auto& fields = node.rowType->getFields();
      for (size_t i = fields.size() - over.calls.size(); i < fields.size(); ++i) {
        names.push_back(fields[i].name);
      }
      return std::make_shared<LogicalOverAggregate>(inputs[0], over.partitionKeys, over.orderColumn,
                                                    over.unit, over.preceding, over.calls,
                                                    std::move(names), over.orderKeys);
    }
    case LogicalNodeKind::kLookupJoin: {
      const auto& lookup = static_cast<const LogicalLookupJoin&>(node);
      return std::make_shared<LogicalLookupJoin>(inputs[0], lookup.table, lookup.joinType,
                                                 lookup.inputKeys, lookup.lookupKeys,
                                                 lookup.condition);
    }
    case LogicalNodeKind::kUnnest: {
      const auto& unnest = static_cast<const LogicalUnnest&>(node);
      return std::make_shared<LogicalUnnest>(inputs[0], unnest.collection, unnest.withOrdinality,
                                             unnest.leftOuter);
    }
    case LogicalNodeKind::kWindowAggregate: {
      const auto& aggregate = static_cast<const LogicalWindowAggregate&>(node);
      return std::make_shared<LogicalWindowAggregate>(inputs[0], aggregate.window,
                                                      aggregate.keyColumns, aggregate.calls,
                                                      aggregate.outputColumns, namesOf(node));
    }
    case LogicalNodeKind::kSink:
      return withSinkInput(static_cast<const LogicalSink&>(node), std::move(inputs[0]));
  }
  throw InternalError("unknown logical node");
}

std::vector<std::string> namesOf(const LogicalNode& node) {
  std::vector<std::string> names;
  for (const RowField& field : node.rowType->getFields()) names.push_back(field.name);
  return names;
}

bool allDeterministic(const std::vector<BoundPtr>& expressions) {
  for (const BoundPtr& e : expressions) {
    if (!e->isDeterministic()) return false;
  }
  return true;
}

// Sets used[i] for every column `e` reads.
void markColumns(const BoundPtr& e, std::vector<bool>& used) {
  std::vector<int> columns;
  expression::collectColumns(e, columns);
  for (int column : columns) used.at(static_cast<size_t>(column)) = true;
}

// `e` with column i read as column newIndex[i] (same type).
BoundPtr renumberColumns(const BoundPtr& e, const std::vector<int>& newIndex) {
  if (e->kind() == expression::ExpressionKind::kColumnReference) {
    const int index = static_cast<const expression::ColumnReference&>(*e).index();
    EDDY_CHECK_GE(newIndex[static_cast<size_t>(index)], 0);
    return expression::column(newIndex[static_cast<size_t>(index)], e->type());
  }
  if (e->children().empty()) return e;
  std::vector<BoundPtr> children;
  for (const BoundPtr& child : e->children()) children.push_back(renumberColumns(child, newIndex));
  return expression::withChildren(e, std::move(children));
}

}  // namespace eddy::sql
