// Translation of joins (translation_context.h): a regular join (in BATCH mode by the algorithm
// table.exec.disabled-operators leaves), an interval join (and Flink's window join, which the
// interval join operator runs on the window ends), an event-time temporal join — each after a
// HASH exchange of both inputs on the equi keys — and a lookup join, chained to its input,
// probing the table through the connector's lookup function.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <utility>

#include "common/text.h"
#include "connectors/dynamic_table_factory.h"
#include "runtime/operators/join/interval_join_operator.h"
#include "runtime/operators/join/join_operator.h"
#include "runtime/operators/join/lookup_join_operator.h"
#include "runtime/operators/join/temporal_join_operator.h"
#include "sql/physical/translation_context.h"

namespace eddy::sql::physical {

namespace {

/// The BATCH algorithm of a regular join under table.exec.disabled-operators (`disabled`:
/// Flink's operator names, comma-separated, trimmed as Java's trim(); `HashJoin` stands for
/// ShuffleHashJoin and BroadcastHashJoin) and its name in EXPLAIN: by default AUTO (`Join`:
/// hash or sort-merge by the inputs' sizes); with the hash join disabled sort-merge
/// (`SortMergeJoin`), with the sort-merge join disabled hash (`HashJoin`); with both disabled
/// Flink falls back to a nested loop, for which eddy runs its hash join (the same rows) unless
/// NestedLoopJoin is disabled too. Keys of a nested type cannot sort (hash then). A join without
/// equi keys is a nested loop (every pair a candidate; `Join`). HashAgg, SortAgg and
/// BroadcastHashJoin are accepted and change nothing (eddy aggregates by hash and has no
/// broadcast join).
std::pair<runtime::operators::BatchJoinAlgorithm, std::string> batchJoinChoice(
    const std::string& disabled, const runtime::operators::JoinSpec& spec,
    relational::JoinType joinType) {
  using runtime::operators::BatchJoinAlgorithm;
  static const std::vector<std::string> kOperators{
      "NestedLoopJoin", "ShuffleHashJoin", "BroadcastHashJoin", "SortMergeJoin",
      "HashAgg",        "SortAgg",         "HashJoin"};
  bool hashDisabled = false;
  bool sortMergeDisabled = false;
  bool nestedLoopDisabled = false;
  for (const std::string& name : common::splitList(disabled)) {
    if (std::find(kOperators.begin(), kOperators.end(), name) == kOperators.end()) {
      throw ValidationException(fmt::format(
          "Unknown operator '{}' in 'table.exec.disabled-operators' = '{}'. The operators are: {}",
          name, disabled, fmt::join(kOperators, ", ")));
    }
    hashDisabled = hashDisabled || name == "HashJoin" || name == "ShuffleHashJoin";
    sortMergeDisabled = sortMergeDisabled || name == "SortMergeJoin";
    nestedLoopDisabled = nestedLoopDisabled || name == "NestedLoopJoin";
  }
  const bool keyed = !spec.leftKeys.empty();
  if ((!keyed || (hashDisabled && sortMergeDisabled)) && nestedLoopDisabled) {
    throw TableException("Cannot plan the join " + relational::joinTypeName(joinType) +
                         " in BATCH mode: 'table.exec.disabled-operators' = '" + disabled +
                         "' disables " +
                         (keyed ? "HashJoin (or ShuffleHashJoin), SortMergeJoin and NestedLoopJoin"
                                : "NestedLoopJoin, the only join without equi keys"));
  }
  if (!keyed) return {BatchJoinAlgorithm::HASH, "Join"};
  const bool sortable = runtime::operators::keysSortable(spec);
  if (hashDisabled && !sortMergeDisabled && sortable) {
    return {BatchJoinAlgorithm::SORT_MERGE, "SortMergeJoin"};
  }
  if (hashDisabled || sortMergeDisabled || !sortable) return {BatchJoinAlgorithm::HASH, "HashJoin"};
  return {BatchJoinAlgorithm::AUTO, "Join"};
}

/// A two-input join operator's spec with what every such spec takes from `join` as it is: the
/// join type, the row types of both inputs and of the output, and the equi keys.
template <typename Spec>
std::shared_ptr<Spec> twoInputJoinSpec(const LogicalJoin& join) {
  auto spec = std::make_shared<Spec>();
  spec->joinType = join.joinType;
  spec->leftRowType = join.inputs[0]->rowType;
  spec->rightRowType = join.inputs[1]->rowType;
  spec->leftKeys = join.leftKeys;
  spec->rightKeys = join.rightKeys;
  spec->outputRowType = join.rowType;
  return spec;
}

/// `join` run by the operator of `factory` over its inputs, translated left first and each
/// partitioned by its equi keys.
DataStream<vector::Chunk> keyedJoin(const LogicalJoin& join, StreamExecutionEnvironment& env,
                                    const TranslationSettings& settings, std::string name,
                                    std::shared_ptr<runtime::OperatorFactory> factory) {
  DataStream<vector::Chunk> left = translate(*join.inputs[0], env, settings);  // left first
  DataStream<vector::Chunk> right = translate(*join.inputs[1], env, settings);
  return keyedTwoInput(join, std::move(left), std::move(right), std::move(name), std::move(factory),
                       settings);
}

/// An interval join (Flink's IntervalJoin): both inputs partitioned by the equi keys; state
/// of each row released once the watermark passes the last time a partner could arrive.
DataStream<vector::Chunk> intervalJoin(const LogicalJoin& join, StreamExecutionEnvironment& env,
                                       const TranslationSettings& settings) {
  const IntervalJoinBounds& bounds = *join.interval;
  auto spec = twoInputJoinSpec<runtime::operators::IntervalJoinSpec>(join);
  spec->leftTimeColumn = bounds.leftTimeColumn;
  spec->rightTimeColumn = bounds.rightTimeColumn;
  spec->lowerBound = bounds.lowerBound;
  spec->upperBound = bounds.upperBound;
  spec->condition = bounds.residual;
  spec->processingTime = bounds.processingTime;
  std::string name;
  if (bounds.windowJoin) {
    // Flink's WindowJoin, run by the interval join operator on the window ends.
    spec->dropLateRows = true;
    spec->timeShift = -1;
    spec->timeZone = bounds.windowTimeZone;
    const auto& leftFields = join.inputs[0]->rowType->getFields();
    const auto& rightFields = join.inputs[1]->rowType->getFields();
    name = "WindowJoin(joinType=[" + relational::joinTypeName(join.joinType) +
           "], windowEnds=[" + leftFields[bounds.leftTimeColumn].name + ", " +
           rightFields[bounds.rightTimeColumn].name + "], where=[" +
           join.fullCondition()->toString(join.rowType->getFieldNames()) + "], select=[" +
           fieldList(join.rowType) + "])";
  } else {
    name = "IntervalJoin(joinType=[" + relational::joinTypeName(join.joinType) +
           "], windowBounds=[isRowTime=" + (bounds.processingTime ? "false" : "true") +
           ", leftLowerBound=" + std::to_string(-bounds.upperBound) +
           ", leftUpperBound=" + std::to_string(-bounds.lowerBound) +
           ", leftTimeIndex=" + std::to_string(bounds.leftTimeColumn) +
           ", rightTimeIndex=" + std::to_string(bounds.rightTimeColumn) + "], where=[" +
           join.fullCondition()->toString() + "])";
  }
  return keyedJoin(join, env, settings, std::move(name),
                   factoryOf<runtime::operators::IntervalJoinOperator>(std::move(spec)));
}

/// An event-time temporal join (Flink's TemporalJoin): both inputs partitioned by the equi
/// keys; each left row waits for the watermark, then joins the version valid at its time.
DataStream<vector::Chunk> temporalJoin(const LogicalJoin& join, StreamExecutionEnvironment& env,
                                       const TranslationSettings& settings) {
  auto spec = twoInputJoinSpec<runtime::operators::TemporalJoinSpec>(join);
  spec->leftTimeColumn = join.temporal->leftTimeColumn;
  spec->rightTimeColumn = join.temporal->rightTimeColumn;
  spec->condition = join.condition;
  std::string name = "TemporalJoin(joinType=[" + relational::joinTypeName(join.joinType) +
                     "], where=[" + join.fullCondition()->toString() + "], asOf=[$" +
                     std::to_string(join.temporal->leftTimeColumn) + "])";
  return keyedJoin(join, env, settings, std::move(name),
                   factoryOf<runtime::operators::TemporalJoinOperator>(std::move(spec)));
}

}  // namespace

DataStream<vector::Chunk> translateJoin(const LogicalJoin& join, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings) {
  if (join.interval) return intervalJoin(join, env, settings);
  if (join.temporal) return temporalJoin(join, env, settings);
  auto spec = twoInputJoinSpec<runtime::operators::JoinSpec>(join);
  spec->condition = join.condition;
  spec->stateTtlMillis = settings.stateTtl;
  for (int side = 0; side < 2; ++side) {
    spec->insertOnlyInput[side] = join.inputs[side]->changelogMode == ChangelogMode::kInsertOnly;
  }
  auto [algorithm, operatorName] =
      settings.streaming
          ? std::pair{runtime::operators::BatchJoinAlgorithm::AUTO, std::string("Join")}
          : batchJoinChoice(settings.disabledOperators, *spec, join.joinType);
  spec->batchAlgorithm = algorithm;
  std::string description =
      operatorName + "(joinType=[" + relational::joinTypeName(join.joinType) + "]";
  if (expression::ExpressionPtr condition = join.fullCondition()) {
    // The condition reads both sides, also where the output is the left side's (SEMI/ANTI).
    std::vector<std::string> names = join.inputs[0]->rowType->getFieldNames();
    for (const std::string& name : join.inputs[1]->rowType->getFieldNames()) names.push_back(name);
    description += ", where=[" + condition->toString(uniquifyNames(names)) + "]";
  }
  description += ", select=[" + fieldList(join.rowType) + "])";
  return keyedJoin(join, env, settings, operatorName,
                   factoryOf<runtime::operators::JoinOperator>(std::move(spec)))
      .setDescription(std::move(description));
}

/// A processing-time lookup join (Flink's LookupJoin): stateless, chained to its input; each
/// subtask probes the table through its own lookup function.
DataStream<vector::Chunk> translateLookupJoin(const LogicalLookupJoin& join,
                                              StreamExecutionEnvironment& env,
                                              const TranslationSettings& settings) {
  const LogicalTableScan& table = *join.table;
  auto source = tableSourceOf(table, settings);
  if (!source->supportsLookup()) {
    throw InternalError("the lookup join's table " + table.tableName + " supports no lookups");
  }
  connectors::LookupFunctionFactory functions = source->createLookupFunction(join.lookupKeys);
  auto spec = std::make_shared<runtime::operators::LookupJoinSpec>();
  spec->joinType = join.joinType;
  spec->inputRowType = join.inputs[0]->rowType;
  spec->tableRowType = table.physicalRowType;
  spec->keys = join.inputKeys;
  spec->condition = join.condition;
  spec->outputRowType = join.rowType;
  spec->createLookup = [functions]() -> runtime::operators::LookupCall {
    std::shared_ptr<connectors::LookupFunction> function = functions();
    return [function](const vector::Chunk& keys, vector::Chunk& matches,
                      std::vector<int32_t>& keyRows) { function->lookup(keys, matches, keyRows); };
  };
  // Flink's form: LookupJoin(table=[[..]], joinType=[InnerJoin], lookup=[id=customer], ..).
  const std::vector<std::string> inputNames = join.inputs[0]->rowType->getFieldNames();
  std::string lookup;
  for (size_t i = 0; i < join.lookupKeys.size(); ++i) {
    lookup += (i ? ", " : "") +
              table.physicalRowType->getFields()[static_cast<size_t>(join.lookupKeys[i])].name +
              "=" + join.inputKeys[i]->toString(inputNames);
  }
  std::string description = "LookupJoin(table=[" + table.tableName + "], joinType=[" +
                            relational::joinTypeName(join.joinType) + "], lookup=[" +
                            lookup + "]";
  if (join.condition)
    description += ", where=[" + join.condition->toString(join.rowType->getFieldNames()) + "]";
  description += ", select=[" + fieldList(join.rowType) + "])";
  return chained(translate(*join.inputs[0], env, settings), "LookupJoin",
                 factoryOf<runtime::operators::LookupJoinOperator>(std::move(spec)))
      .setDescription(std::move(description));
}

}  // namespace eddy::sql::physical
