// Translation of the stateless row-wise nodes (translation_context.h), each chained to its
// input at the input's parallelism: Project and Filter become one Calc (a projection over a
// filter is one Calc), UNNEST a Correlate, a WATERMARK declaration its watermark assigner;
// UNION ALL is the union of its inputs' streams.
#include "runtime/operators/calc/calc_operator.h"
#include "runtime/operators/correlate/unnest_operator.h"
#include "runtime/operators/watermark/watermark_assigner_operator.h"
#include "sql/physical/translation_context.h"

namespace eddy::sql::physical {

namespace {

using runtime::operators::CalcOperator;
using runtime::operators::CalcSpec;

/// Flink's physical-plan form of a Calc: `Calc(select=[a, +(b, 1) AS c], where=[>(a, 1)])`,
/// expressions over the input's field names.
std::string calcDescription(const CalcSpec& spec, const LogicalTypePtr& inputRowType) {
  const std::vector<std::string> input = inputRowType->getFieldNames();
  const auto& output = spec.outputRowType->getFields();
  std::string select;
  for (size_t i = 0; i < spec.projections.size(); ++i) {
    std::string item = spec.projections[i]->toString(input);
    if (item != output[i].name) item += " AS " + output[i].name;
    select += (i == 0 ? "" : ", ") + item;
  }
  std::string text = "Calc(select=[" + select + "]";
  if (spec.condition) text += ", where=[" + spec.condition->toString(input) + "]";
  return text + ")";
}

/// A Calc runs at its input's parallelism, chained to it: a stateless projection needs no
/// redistribution, and the order of rows (per key) stays the input's. (Flink gives a Calc the
/// default parallelism, which reshuffles the rows of a source of another parallelism.)
DataStream<vector::Chunk> calc(DataStream<vector::Chunk> input, const LogicalTypePtr& inputRowType,
                               std::shared_ptr<CalcSpec> spec) {
  std::string description = calcDescription(*spec, inputRowType);
  return chained(std::move(input), "Calc", factoryOf<CalcOperator>(std::move(spec)))
      .setDescription(std::move(description));
}

}  // namespace

DataStream<vector::Chunk> translateProject(const LogicalProject& project,
                                           StreamExecutionEnvironment& env,
                                           const TranslationSettings& settings) {
  auto spec = std::make_shared<CalcSpec>();
  spec->outputRowType = project.rowType;
  spec->projections = project.expressions;
  if (project.inputs[0]->kind == LogicalNodeKind::kFilter) {
    // A projection over a filter: one Calc (condition, then projections over its input).
    const auto& filter = static_cast<const LogicalFilter&>(*project.inputs[0]);
    spec->condition = filter.condition;
    return calc(translate(*filter.inputs[0], env, settings), filter.inputs[0]->rowType, spec);
  }
  return calc(translate(*project.inputs[0], env, settings), project.inputs[0]->rowType, spec);
}

DataStream<vector::Chunk> translateFilter(const LogicalFilter& filter,
                                          StreamExecutionEnvironment& env,
                                          const TranslationSettings& settings) {
  auto spec = std::make_shared<CalcSpec>();
  spec->outputRowType = filter.rowType;
  for (int i = 0; i < filter.rowType->getFieldCount(); ++i) {
    spec->projections.push_back(expression::column(i, filter.rowType->getFields()[i].type));
  }
  spec->condition = filter.condition;
  return calc(translate(*filter.inputs[0], env, settings), filter.inputs[0]->rowType, spec);
}

DataStream<vector::Chunk> translateUnnest(const LogicalUnnest& unnest,
                                          StreamExecutionEnvironment& env,
                                          const TranslationSettings& settings) {
  // Stateless, so chained to its input as a Calc is.
  auto spec = std::make_shared<runtime::operators::UnnestSpec>();
  spec->outputRowType = unnest.rowType;
  spec->collection = unnest.collection;
  spec->withOrdinality = unnest.withOrdinality;
  spec->leftOuter = unnest.leftOuter;
  return chained(translate(*unnest.inputs[0], env, settings), "Correlate",
                 factoryOf<runtime::operators::UnnestOperator>(std::move(spec)));
}

DataStream<vector::Chunk> translateWatermarkAssigner(const LogicalWatermarkAssigner& assigner,
                                                     StreamExecutionEnvironment& env,
                                                     const TranslationSettings& settings) {
  auto spec = std::make_shared<runtime::operators::WatermarkAssignerSpec>();
  spec->rowType = assigner.rowType;
  spec->watermark = assigner.watermark;
  spec->emitInterval = settings.autoWatermarkInterval;
  spec->idleTimeout = settings.sourceIdleTimeout;
  return chained(translate(*assigner.inputs[0], env, settings), physicalDescription(assigner),
                 factoryOf<runtime::operators::WatermarkAssignerOperator>(std::move(spec)));
}

DataStream<vector::Chunk> translateUnion(const LogicalUnion& node, StreamExecutionEnvironment& env,
                                         const TranslationSettings& settings) {
  DataStream<vector::Chunk> result = translate(*node.inputs[0], env, settings);
  for (size_t i = 1; i < node.inputs.size(); ++i) {
    result = result.union_(translate(*node.inputs[i], env, settings));
  }
  return result;
}

}  // namespace eddy::sql::physical
