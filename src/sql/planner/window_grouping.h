// Whether an aggregation groups by the window of a window table function: it groups by
// window_start and window_end of a window TVF below its input projection (through filters that
// do not read the window columns), and neither its other keys nor its calls read the window
// columns. Flink plans such an aggregation as a window aggregation (one result per window, when
// the window closes, insert-only, window_time kept as a time attribute); the binder marks it
// (LogicalAggregate::windowed) and the optimizer pass WindowAggregateDetection plans it so.
#pragma once

#include <optional>
#include <vector>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

struct WindowGrouping {
  /// The aggregation's input projection, the filters between it and the window TVF (top
  /// down), and the TVF.
  const LogicalProject* project = nullptr;
  std::vector<expression::ExpressionPtr> filters;
  const LogicalWindowTableFunction* function = nullptr;
  enum class Key { DATA, WINDOW_START, WINDOW_END, WINDOW_TIME };
  /// What each grouping key is.
  std::vector<Key> keys;
};

/// The window grouping of an aggregation over `input` grouped by its first `groupCount`
/// columns with `calls`; nullopt when it is not one.
std::optional<WindowGrouping> windowGroupingOf(const LogicalNode& input, int groupCount,
                                               const std::vector<function::AggregateCall>& calls);

}  // namespace eddy::sql
