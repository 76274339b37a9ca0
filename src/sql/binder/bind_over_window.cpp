// OVER aggregates of a select list (`agg(x) OVER (PARTITION BY .. ORDER BY time ROWS|RANGE ..
// PRECEDING)`): their window (its own or a WINDOW clause entry), partition and order keys
// (computed below the window when they are expressions), frame, and the LogicalOverAggregate
// (one per window, chained, in BATCH).
#include "sql/binder/binder.h"

#include <algorithm>

#include "expression/expression_evaluator.h"
#include "sql/binder/clause_syntax.h"
#include "sql/parser/unparse.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;
using function::AggregateCall;

// The column of `input` that `key` (an expression over its columns) is: the column it reads
// when it is a plain reference, else a column appended to `input` by a projection that keeps
// every column (Calcite projects a window's computed keys below it); the scope gets a hidden
// column for it, so no name reaches it and the scope still lists the node's columns.
int Binder::windowKeyColumn(Relation& input, const expression::ExpressionPtr& key) {
  if (const auto* reference = dynamic_cast<const expression::ColumnReference*>(key.get())) {
    return reference->index();
  }
  // The scope's columns (not the columns a WHERE subquery's markers add after them), then the
  // key: its index is the scope's.
  const auto& fields = input.node->rowType->getFields();
  std::vector<expression::ExpressionPtr> columns;
  std::vector<std::string> names;
  for (size_t i = 0; i < input.scope.size(); ++i) {
    columns.push_back(expression::column(static_cast<int>(i), fields[i].type));
    names.push_back(fields[i].name);
  }
  const int index = static_cast<int>(input.scope.size());
  std::string name = "$window_key" + std::to_string(index);
  columns.push_back(key);
  names.push_back(name);
  input.node = std::make_shared<LogicalProject>(input.node, std::move(columns), std::move(names));
  input.scope.push_back(ScopeColumn{"", std::move(name), key->type(), true});
  return index;
}

void Binder::planOverAggregates(const SelectQuery& select,
                                const std::vector<const FunctionCallExpression*>& calls,
                                Relation& input, OverColumns& columns) {
  // The window of each call: its own specification or a WINDOW clause entry.
  auto windowOf = [&](const FunctionCallExpression& call) -> const WindowSpecification& {
    const WindowSpecification& own = *call.over;
    if (own.referenceName.empty()) return own;
    if (!own.partitionBy.empty() || !own.orderBy.empty() || own.frame) {
      notSupported(own, "A window that refines a named window");
    }
    for (const NamedWindow& named : select.windows) {
      if (named.name == own.referenceName) return *named.specification;
    }
    fail(own, "Window '" + own.referenceName + "' not found");
  };
  const WindowSpecification& window = windowOf(*calls[0]);
  const std::string windowText = unparse(window);
  std::vector<const FunctionCallExpression*> sameWindow, otherWindows;
  for (const FunctionCallExpression* call : calls) {
    (unparse(windowOf(*call)) == windowText ? sameWindow : otherWindows).push_back(call);
  }
  if (!otherWindows.empty()) {
    // BATCH: one OverAggregate per window, each over the one before (Flink's batch planner
    // chains them too); STREAMING: one window per SELECT, as Flink.
    if (!context_.batchMode) {
      notSupported(*otherWindows[0], "OVER aggregates over different windows in one SELECT");
    }
    planOverAggregates(select, sameWindow, input, columns);
    planOverAggregates(select, otherWindows, input, columns);
    return;
  }
  // PARTITION BY keys may be expressions (computed below the window); the ORDER BY is a
  // time attribute column.
  auto columnOf = [&](const Expression& expression) {
    BoundPtr bound = bindExpression(expression, {input.scope});
    if (!bound->isDeterministic()) {
      notSupported(expression, "A non-deterministic PARTITION BY key in OVER");
    }
    return windowKeyColumn(input, bound);
  };
  std::vector<int> partition;
  for (const auto& key : window.partitionBy) partition.push_back(columnOf(*key));
  // STREAMING orders by one time attribute, ascending; BATCH by any keys, or not at all.
  const char* const streamOrderMessage =
      "OVER windows' ordering in stream mode must be defined on a time attribute.";
  int order = -1;
  std::vector<relational::SortKey> orderKeys;
  if (!context_.batchMode && (window.orderBy.size() != 1 || window.orderBy[0].descending)) {
    fail(window, streamOrderMessage);
  }
  for (const auto& key : window.orderBy) {
    orderKeys.push_back(
        relational::SortKey{columnOf(*key.expression), !key.descending, nullsFirstOf(key)});
  }
  if (orderKeys.size() == 1 && orderKeys[0].ascending &&
      input.scope[orderKeys[0].column].type->getTimestampKind() != TimestampKind::REGULAR) {
    order = orderKeys[0].column;
    orderKeys.clear();
  } else if (!context_.batchMode) {
    fail(*window.orderBy[0].expression, streamOrderMessage);
  }
  // The frame: SQL's default with ORDER BY is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW.
  relational::OverFrameUnit unit = relational::OverFrameUnit::RANGE;
  std::optional<int64_t> preceding;
  if (window.frame) bindOverFrame(window, order, unit, preceding);
  // BATCH orders by a rowtime as by any column (NULL times sorted, NULLS FIRST/LAST as
  // written), except for a RANGE frame with an offset, which measures time.
  if (context_.batchMode && order >= 0 &&
      input.scope[order].type->getTimestampKind() == TimestampKind::ROWTIME &&
      !(unit == relational::OverFrameUnit::RANGE && preceding && *preceding > 0)) {
    orderKeys.push_back(relational::SortKey{order, true, nullsFirstOf(window.orderBy[0])});
    order = -1;
  }
  // A projection of the input's columns then the calls' arguments, and the OverAggregate.
  std::vector<BoundPtr> projection;
  std::vector<std::string> names;
  for (size_t c = 0; c < input.scope.size(); ++c) {
    projection.push_back(expression::column(static_cast<int>(c), input.scope[c].type));
    names.push_back(input.node->rowType->getFields()[c].name);
  }
  std::vector<AggregateCall> aggregateCalls;
  for (const FunctionCallExpression* call : calls) {
    aggregateCalls.push_back(bindAggregateCall(*call, input.scope, projection, names));
  }
  const int width = static_cast<int>(projection.size());
  LogicalNodePtr pre = input.node;
  // Projected also where the input has columns its scope does not name (the markers of a
  // WHERE subquery), so that the calls' columns follow the scope's.
  if (width > static_cast<int>(input.scope.size()) ||
      input.node->rowType->getFieldCount() != static_cast<int>(input.scope.size())) {
    pre = std::make_shared<LogicalProject>(input.node, std::move(projection), uniquifyNames(names));
  }
  // Calls of the n-th window (BATCH chains one OverAggregate per window) are named wn$o0, ...
  int windowIndex = 0;
  for (const RowField& field : pre->rowType->getFields()) {
    const std::string& name = field.name;
    const size_t dollar = name.find("$o");
    if (name.size() > 1 && name[0] == 'w' && dollar != std::string::npos && dollar > 1 &&
        std::all_of(name.begin() + 1, name.begin() + static_cast<std::ptrdiff_t>(dollar),
                    [](char c) { return c >= '0' && c <= '9'; })) {
      windowIndex = std::max(windowIndex, std::stoi(name.substr(1, dollar - 1)) + 1);
    }
  }
  std::vector<std::string> callNames;
  for (size_t i = 0; i < aggregateCalls.size(); ++i) {
    callNames.push_back("w" + std::to_string(windowIndex) + "$o" + std::to_string(i));
    columns[calls[i]] = OverColumn{width + static_cast<int>(i), aggregateCalls[i].resultType};
  }
  input.node = std::make_shared<LogicalOverAggregate>(pre, std::move(partition), order, unit,
                                                      preceding, std::move(aggregateCalls),
                                                      uniquifyNames(callNames),
                                                      std::move(orderKeys));
  // The arguments and results are reachable only through the calls.
  const auto& fields = input.node->rowType->getFields();
  for (size_t c = input.scope.size(); c < fields.size(); ++c) {
    input.scope.push_back(ScopeColumn{"", fields[c].name, fields[c].type, true});
  }
}

// The frame of an OVER window that has one: its unit and where it starts (`preceding`: rows
// or milliseconds before the current row; none: unbounded). `order`: the time attribute
// column the window orders by, -1 when it orders otherwise.
void Binder::bindOverFrame(const WindowSpecification& window, int order,
                           relational::OverFrameUnit& unit,
                           std::optional<int64_t>& preceding) {
  const WindowFrame& frame = *window.frame;
  unit = frame.unit == FrameUnit::kRows ? relational::OverFrameUnit::ROWS
                                        : relational::OverFrameUnit::RANGE;
  if (frame.end && frame.end->kind != FrameBoundKind::kCurrentRow) {
    notSupported(window, "An OVER window that does not end at CURRENT ROW");
  }
  if (frame.start.kind == FrameBoundKind::kPreceding) {
    BoundPtr offset = bindExpression(*frame.start.offset, {Scope{}});
    std::optional<Value> value;
    if (offset->isConstant()) value = expression::ExpressionEvaluator::evaluateConstant(offset);
    if (unit == relational::OverFrameUnit::ROWS) {
      std::optional<int64_t> rows;
      if (value && !value->isNull() && value->kind() == ValueKind::INT) rows = value->get<int32_t>();
      if (value && !value->isNull() && value->kind() == ValueKind::BIGINT) rows = value->get<int64_t>();
      if (!rows || *rows < 0) {
        fail(*frame.start.offset, "ROWS PRECEDING needs a non-negative integer literal");
      }
      preceding = *rows;
    } else {
      if (order < 0) {
        notSupported(*frame.start.offset,
                     "RANGE PRECEDING with an offset over an ORDER BY that is not a time "
                     "attribute");
      }
      if (!value || value->isNull() || value->kind() != ValueKind::DURATION) {
        fail(*frame.start.offset,
             "RANGE PRECEDING over a time attribute needs a day-time interval literal such "
             "as INTERVAL '10' MINUTE");
      }
      preceding = value->get<Duration>().toMillis();
    }
  } else if (frame.start.kind == FrameBoundKind::kCurrentRow) {
    preceding = 0;
  } else if (frame.start.kind != FrameBoundKind::kUnboundedPreceding) {
    notSupported(window, "An OVER window that starts after the current row");
  }
}

}  // namespace eddy::sql
