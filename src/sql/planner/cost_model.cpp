#include "sql/planner/cost_model.h"

#include <algorithm>
#include <cmath>

#include "eddy/types/record_format.h"
#include "expression/bound_expression.h"

namespace eddy::sql {
namespace {

using relational::JoinType;

constexpr double kUnknownTableRows = 1.0E8;

/// Calcite's guess of the fraction of rows a predicate keeps.
double selectivity(const expression::ExpressionPtr& predicate) {
  if (!predicate) return 1.0;
  double fraction = 1.0;
  for (const expression::ExpressionPtr& conjunct : expression::conjunctsOf(predicate)) {
    if (expression::isCallTo(*conjunct, "=")) {
      fraction *= 0.15;
    } else if (expression::isCallTo(*conjunct, "<") || expression::isCallTo(*conjunct, "<=") ||
               expression::isCallTo(*conjunct, ">") || expression::isCallTo(*conjunct, ">=")) {
      fraction *= 0.5;
    } else if (expression::isCallTo(*conjunct, "IS NOT NULL")) {
      fraction *= 0.9;
    } else {
      fraction *= 0.25;
    }
  }
  return fraction;
}

/// Average bytes of a row: 8 per fixed-width column, 12 per string, binary or nested column.
double averageRowSize(const LogicalNode& node) {
  double bytes = 0;
  for (const RowField& field : node.rowType->getFields()) {
    switch (field.type->getTypeRoot()) {
      case LogicalTypeRoot::CHAR:
      case LogicalTypeRoot::VARCHAR:
      case LogicalTypeRoot::BINARY:
      case LogicalTypeRoot::VARBINARY:
      case LogicalTypeRoot::ARRAY:
      case LogicalTypeRoot::MAP:
      case LogicalTypeRoot::MULTISET:
      case LogicalTypeRoot::ROW:
        bytes += 12;
        break;
      default:
        bytes += 8;
    }
  }
  return bytes;
}

double inputRows(const LogicalNode& node, size_t input = 0) {
  return estimatedRowCount(*node.inputs.at(input));
}

/// The cost of `node` alone.
PlanCost selfCost(const LogicalNode& node) {
  PlanCost cost;
  cost.rows = estimatedRowCount(node);
  switch (node.kind) {
    case LogicalNodeKind::kValues:
      cost.cpu = cost.rows;
      break;
    case LogicalNodeKind::kTableScan:
    case LogicalNodeKind::kDataStreamScan:
      cost.cpu = cost.rows;
      cost.io = cost.rows * averageRowSize(node);
      break;
    case LogicalNodeKind::kAggregate:
    case LogicalNodeKind::kWindowAggregate:
    case LogicalNodeKind::kRank:
    case LogicalNodeKind::kOverAggregate: {
      // A hash exchange of the input, then state per group (or per kept row).
      const double in = inputRows(node);
      cost.cpu = in;
      cost.network = in * averageRowSize(*node.inputs[0]);
      cost.memory = cost.rows * averageRowSize(node);
      break;
    }
    case LogicalNodeKind::kJoin: {
      const double left = inputRows(node, 0);
      const double right = inputRows(node, 1);
      cost.cpu = left + right;
      cost.network = left * averageRowSize(*node.inputs[0]) + right * averageRowSize(*node.inputs[1]);
      cost.memory = cost.network;  // both sides are kept
      break;
    }
    case LogicalNodeKind::kSort: {
      const double in = inputRows(node);
      cost.cpu = in * std::max(1.0, std::log2(std::max(in, 1.0)));
      cost.memory = in * averageRowSize(*node.inputs[0]);
      break;
    }
    default:
      cost.cpu = node.inputs.empty() ? cost.rows : inputRows(node);
  }
  return cost;
}

}  // namespace

double estimatedRowCount(const LogicalNode& node) {
  switch (node.kind) {
    case LogicalNodeKind::kValues:
      return static_cast<double>(static_cast<const LogicalValues&>(node).rows.size());
    case LogicalNodeKind::kTableScan:
    case LogicalNodeKind::kDataStreamScan:
      return kUnknownTableRows;
    case LogicalNodeKind::kFilter:
      return inputRows(node) * selectivity(static_cast<const LogicalFilter&>(node).condition);
    case LogicalNodeKind::kAggregate: {
      const auto& aggregate = static_cast<const LogicalAggregate&>(node);
      if (aggregate.groupingColumns.empty()) return 1.0;
      return std::max(1.0, inputRows(node) * 0.1);
    }
    case LogicalNodeKind::kWindowAggregate:
      return std::max(1.0, inputRows(node) * 0.1);
    case LogicalNodeKind::kWindowTableFunction: {
      // A HOP window copies each row into size / slide windows.
      const auto& window = static_cast<const LogicalWindowTableFunction&>(node).window;
      double copies = window.kind == relational::WindowKind::HOP && window.slide > 0
                          ? static_cast<double>(window.size) / static_cast<double>(window.slide)
                          : 1.0;
      return inputRows(node) * copies;
    }
    case LogicalNodeKind::kUnion: {
      double rows = 0;
      for (size_t i = 0; i < node.inputs.size(); ++i) rows += inputRows(node, i);
      return rows;
    }
    case LogicalNodeKind::kSort: {
      const auto& sort = static_cast<const LogicalSort&>(node);
      double rows = std::max(0.0, inputRows(node) - static_cast<double>(sort.offset));
      return sort.fetch >= 0 ? std::min(rows, static_cast<double>(sort.fetch)) : rows;
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(node);
      const double left = inputRows(node, 0);
      const double right = inputRows(node, 1);
      if (relational::outputsLeftOnly(join.joinType)) {  // some of the left rows
        const double matched = selectivity(join.fullCondition());
        return left * (join.joinType == JoinType::SEMI ? matched : 1.0 - matched);
      }
      double rows = join.leftKeys.empty() ? left * right : std::max(left, right);
      rows *= selectivity(join.condition);
      if (join.joinType == JoinType::LEFT) rows = std::max(rows, left);
      if (join.joinType == JoinType::RIGHT) rows = std::max(rows, right);
      if (join.joinType == JoinType::FULL) rows = std::max(rows, left + right);
      return rows;
    }
    case LogicalNodeKind::kLookupJoin: {
      const auto& join = static_cast<const LogicalLookupJoin&>(node);
      double rows = inputRows(node) * selectivity(join.condition);
      return join.joinType == JoinType::LEFT ? inputRows(node) : rows;
    }
    default:
      // Projections, ranks, OVER, watermarks, UNNEST: as many rows as their input.
      return node.inputs.empty() ? 1.0 : inputRows(node);
  }
}

PlanCost cumulativeCost(const LogicalNode& node) {
  PlanCost total = selfCost(node);
  for (const LogicalNodePtr& input : node.inputs) {
    PlanCost below = cumulativeCost(*input);
    total.rows += below.rows;
    total.cpu += below.cpu;
    total.io += below.io;
    total.network += below.network;
    total.memory += below.memory;
  }
  return total;
}

std::string describeCost(const LogicalNode& node) {
  const PlanCost cost = cumulativeCost(node);
  return "rowcount = " + formatDouble(estimatedRowCount(node)) + ", cumulative cost = {" +
         formatDouble(cost.rows) + " rows, " + formatDouble(cost.cpu) + " cpu, " +
         formatDouble(cost.io) + " io, " + formatDouble(cost.network) + " network, " +
         formatDouble(cost.memory) + " memory}";
}

}  // namespace eddy::sql
