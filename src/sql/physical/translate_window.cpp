// Translation of windows (translation_context.h): a window table function (TUMBLE, HOP,
// CUMULATE, SESSION) chained to its input, a window aggregate keyed on its grouping columns,
// and an OVER aggregate keyed on its PARTITION BY columns.
#include "runtime/operators/over/over_aggregate_operator.h"
#include "runtime/operators/window/window_aggregate_operator.h"
#include "runtime/operators/window/window_table_function_operator.h"
#include "sql/physical/translation_context.h"

namespace eddy::sql::physical {

DataStream<vector::Chunk> translateWindowTableFunction(const LogicalWindowTableFunction& function,
                                                       StreamExecutionEnvironment& env,
                                                       const TranslationSettings& settings) {
  auto spec = std::make_shared<runtime::operators::WindowTableFunctionSpec>();
  spec->inputRowType = function.inputs[0]->rowType;
  spec->window = function.window;
  spec->outputRowType = function.rowType;
  // Validates the window now, at planning time, rather than in every subtask.
  runtime::operators::WindowTableFunctionOperator check(spec);
  return chained(translate(*function.inputs[0], env, settings), physicalDescription(function),
                 factoryOf<runtime::operators::WindowTableFunctionOperator>(std::move(spec)));
}

DataStream<vector::Chunk> translateWindowAggregate(const LogicalWindowAggregate& aggregate,
                                                   StreamExecutionEnvironment& env,
                                                   const TranslationSettings& settings) {
  auto spec = std::make_shared<runtime::operators::WindowAggregateSpec>();
  spec->inputRowType = aggregate.inputs[0]->rowType;
  spec->window = aggregate.window;
  spec->keyColumns = aggregate.keyColumns;
  spec->calls = aggregate.calls;
  for (auto& call : spec->calls) call.retractable = false;  // windows never retract
  spec->outputColumns = aggregate.outputColumns;
  spec->outputRowType = aggregate.rowType;
  return keyed(translate(*aggregate.inputs[0], env, settings), aggregate.keyColumns,
               aggregate.inputs[0]->rowType, physicalDescription(aggregate),
               factoryOf<runtime::operators::WindowAggregateOperator>(std::move(spec)), settings);
}

DataStream<vector::Chunk> translateOverAggregate(const LogicalOverAggregate& over,
                                                 StreamExecutionEnvironment& env,
                                                 const TranslationSettings& settings) {
  auto spec = std::make_shared<runtime::operators::OverAggregateSpec>();
  spec->inputRowType = over.inputs[0]->rowType;
  spec->partitionKeys = over.partitionKeys;
  spec->orderColumn = over.orderColumn;
  spec->orderKeys = over.orderKeys;
  spec->processingTime = over.processingTime;
  spec->unit = over.unit;
  spec->preceding = over.preceding;
  spec->calls = over.calls;
  spec->outputRowType = over.rowType;
  // A bounded RANGE frame forgets its rows by itself; the others expire with the TTL.
  const bool rangeBounded = over.unit == relational::OverFrameUnit::RANGE && over.preceding;
  if (!rangeBounded) spec->stateTtlMillis = settings.stateTtl;
  return keyed(translate(*over.inputs[0], env, settings), over.partitionKeys,
               over.inputs[0]->rowType, physicalDescription(over),
               factoryOf<runtime::operators::OverAggregateOperator>(std::move(spec)), settings);
}

}  // namespace eddy::sql::physical
