// The estimates EXPLAIN ESTIMATED_COST prints (Flink's `rowcount = .., cumulative cost = {..}`),
// after Calcite's default metadata: eddy keeps no table statistics, so a table holds 1.0E8 rows
// (Flink's figure for a table without statistics), a predicate keeps a guessed fraction of its
// input (= 0.15, <, <=, >, >= 0.5, IS NOT NULL 0.9, any other 0.25, conjuncts multiplied), a
// grouping keeps a tenth of its input (one row without keys), an equi join as many rows as its
// larger input (a join without keys the product), times its residual's fraction (an outer join
// at least its preserved side), a lookup join its input times its residual's fraction. A node's
// own cost is {its output rows, the rows it processes (cpu), bytes read
// from a source (io), bytes it receives through a hash exchange (network), bytes of state it
// keeps (memory)}; the cumulative cost adds its inputs'. The figures order plans roughly; they
// are not measurements.
#pragma once

#include <string>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

struct PlanCost {
  double rows = 0;
  double cpu = 0;
  double io = 0;
  double network = 0;
  double memory = 0;
};

/// The estimated number of rows `node` outputs.
double estimatedRowCount(const LogicalNode& node);
/// The estimated cost of `node` and everything below it.
PlanCost cumulativeCost(const LogicalNode& node);
/// Flink's form: `rowcount = 1.0E8, cumulative cost = {1.0E8 rows, 1.0E8 cpu, 2.4E9 io, 0.0
/// network, 0.0 memory}` (numbers as Java prints doubles).
std::string describeCost(const LogicalNode& node);

}  // namespace eddy::sql
