#include "sql/physical/translator.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <utility>

#include "sql/optimizer/optimizer.h"

#include "connectors/dynamic_table_factory.h"
#include "runtime/operators/aggregate/expand_operator.h"
#include "runtime/operators/aggregate/group_aggregate_operator.h"
#include "runtime/operators/calc/calc_operator.h"
#include "runtime/operators/chunk_exchange.h"
#include "runtime/operators/join/join_operator.h"
#include "runtime/operators/normalize/changelog_normalize_operator.h"
#include "runtime/operators/rank/rank_operator.h"
#include "runtime/operators/sort/sort_operator.h"
#include "runtime/operators/join/interval_join_operator.h"
#include "runtime/operators/join/lookup_join_operator.h"
#include "runtime/operators/join/temporal_join_operator.h"
#include "runtime/operators/over/over_aggregate_operator.h"
#include "runtime/operators/watermark/watermark_assigner_operator.h"
#include "runtime/operators/window/window_aggregate_operator.h"
#include "runtime/operators/window/window_table_function_operator.h"

namespace eddy::sql {

namespace {

using runtime::operators::CalcOperator;
using runtime::operators::CalcSpec;

DataStream<vector::Chunk> withParallelism(DataStream<vector::Chunk> stream,
                                          const TranslationSettings& settings) {
  if (settings.defaultParallelism > 0) stream.setParallelism(settings.defaultParallelism);
  return stream;
}

/// The factory of an operator built from one shared, immutable spec (each subtask gets its own
/// operator).
template <typename Operator, typename Spec>
std::shared_ptr<runtime::OperatorFactory> factoryOf(std::shared_ptr<Spec> spec) {
  std::shared_ptr<const Spec> shared = std::move(spec);
  return std::make_shared<runtime::LambdaOperatorFactory>(
      [shared] { return std::make_unique<Operator>(shared); });
}

/// An operator chained to `input` at its parallelism (stateless per row: a Calc, a watermark
/// assigner, a window TVF).
DataStream<vector::Chunk> chained(DataStream<vector::Chunk> input, std::string name,
                                  std::shared_ptr<runtime::OperatorFactory> factory) {
  const int parallelism = input.getParallelism();
  DataStream<vector::Chunk> output = input.transform<vector::Chunk>(std::move(name), std::move(factory));
  output.setParallelism(parallelism);
  return output;
}

/// The names of `keys` in `rowType`, comma-separated.
std::string keyNames(const LogicalTypePtr& rowType, const std::vector<int>& keys) {
  std::string names;
  for (int key : keys) names += (names.empty() ? "" : ", ") + rowType->getFields()[key].name;
  return names;
}

/// `input` (rows of `rowType`) partitioned by the hash of `keys`, described as Flink's plans
/// do: `Exchange(distribution=[hash[k]])`, `[single]` without keys.
DataStream<vector::Chunk> hashExchange(const DataStream<vector::Chunk>& input,
                                       const std::vector<int>& keys, const LogicalTypePtr& rowType) {
  DataStream<vector::Chunk> exchanged =
      input.partitionCustom(runtime::operators::ChunkKeyPartitioner::factory(keys));
  exchanged.setDescription(keys.empty() ? "Exchange(distribution=[single])"
                                        : "Exchange(distribution=[hash[" + keyNames(rowType, keys) + "]])");
  return exchanged;
}

/// A keyed operator after a HASH exchange of `input` (rows of `inputRowType`) on `keys`: at
/// the default parallelism, or in one subtask without keys (Flink's singleton distribution).
DataStream<vector::Chunk> keyed(DataStream<vector::Chunk> input, const std::vector<int>& keys,
                                const LogicalTypePtr& inputRowType, std::string name,
                                std::shared_ptr<runtime::OperatorFactory> factory,
                                const TranslationSettings& settings) {
  auto result = hashExchange(input, keys, inputRowType)
                    .transform<vector::Chunk>(std::move(name), std::move(factory), true);
  if (keys.empty()) return result.setParallelism(1);
  return withParallelism(result, settings);
}

/// A two-input operator over `left` and `right`, each partitioned by its keys, so that matching
/// rows meet in one subtask; without keys everything meets in subtask 0.
DataStream<vector::Chunk> keyedTwoInput(const LogicalJoin& join, DataStream<vector::Chunk> left,
                                        DataStream<vector::Chunk> right, std::string name,
                                        std::shared_ptr<runtime::OperatorFactory> factory,
                                        const TranslationSettings& settings) {
  auto result = hashExchange(left, join.leftKeys, join.inputs[0]->rowType)
                    .transformTwoInput<vector::Chunk>(
                        std::move(name), hashExchange(right, join.rightKeys, join.inputs[1]->rowType),
                        std::move(factory));
  if (join.leftKeys.empty()) return result.setParallelism(1);
  return withParallelism(result, settings);
}

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

/// All field names of `rowType`, comma-separated (a plan's `select=[..]`, `fields=[..]`).
std::string fieldList(const LogicalTypePtr& rowType) {
  return fmt::format("{}", fmt::join(rowType->getFieldNames(), ", "));
}

/// Sort keys as Flink's plans print them: `price DESC, id ASC`.
std::string orderByNames(const LogicalTypePtr& rowType,
                         const std::vector<runtime::operators::SortKey>& keys) {
  std::string text;
  for (const auto& key : keys) {
    text += (text.empty() ? "" : ", ") + rowType->getFields()[static_cast<size_t>(key.column)].name +
            (key.ascending ? " ASC" : " DESC");
  }
  return text;
}

/// Flink's physical-plan form of a Rank: `Rank(rankType=[ROW_NUMBER], rankRange=[rankStart=1,
/// rankEnd=3], partitionBy=[k], orderBy=[price DESC], select=[..])`.
std::string rankDescription(const LogicalRank& rank, const std::string& name) {
  const LogicalTypePtr& input = rank.inputs[0]->rowType;
  std::string range = rank.rankEnd == INT64_MAX
                          ? "rankStart=" + std::to_string(rank.rankStart)
                          : "rankStart=" + std::to_string(rank.rankStart) +
                                ", rankEnd=" + std::to_string(rank.rankEnd);
  return name + "(rankType=[" + runtime::operators::rankKindName(rank.rankKind) + "], rankRange=[" +
         range + "], partitionBy=[" + keyNames(input, rank.partitionKeys) + "], orderBy=[" +
         orderByNames(input, rank.sortKeys) + "], select=[" +
         fieldList(rank.rowType) + "])";
}

/// Flink's physical-plan form of an aggregation's keys and calls: `groupBy=[k], select=[k,
/// COUNT(*) AS c, SUM(DISTINCT x) AS s]` (`select=[..]` alone without keys).
std::string aggregateDescription(const std::vector<int>& groupingColumns,
                                 const std::vector<runtime::operators::AggregateCall>& calls,
                                 const LogicalTypePtr& inputRowType,
                                 const LogicalTypePtr& outputRowType) {
  using runtime::operators::AggregateKind;
  const auto& input = inputRowType->getFields();
  const auto& output = outputRowType->getFields();
  std::string keys = keyNames(inputRowType, groupingColumns);
  std::string select = keys;
  for (size_t i = 0; i < calls.size(); ++i) {
    const auto& call = calls[i];
    std::string argument =
        call.kind == AggregateKind::COUNT_STAR
            ? "*"
            : (call.distinct ? "DISTINCT " : "") + input[static_cast<size_t>(call.argumentColumn)].name;
    std::string item = runtime::operators::aggregateKindName(call.kind) + "(" + argument + ")";
    if (call.filterColumn >= 0) item += " FILTER " + input[static_cast<size_t>(call.filterColumn)].name;
    const size_t column = groupingColumns.size() + i;
    if (column < output.size()) item += " AS " + output[column].name;
    select += (select.empty() ? "" : ", ") + item;
  }
  return (keys.empty() ? "" : "groupBy=[" + keys + "], ") + "select=[" + select + "]";
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

DataStream<vector::Chunk> translateNode(const LogicalNode& node, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings);

/// Flink's local/global aggregation of `spec` (a one-phase spec over `input`): a LOCAL phase
/// chained to the input folds each mini-batch into one partial row per key; after the HASH
/// exchange the GLOBAL phase merges the partials into its keyed accumulators.
DataStream<vector::Chunk> twoPhaseAggregate(DataStream<vector::Chunk> input,
                                            std::shared_ptr<runtime::operators::GroupAggregateSpec> spec,
                                            const TranslationSettings& settings) {
  using runtime::operators::AggregatePhase;
  using runtime::operators::GroupAggregateOperator;
  using runtime::operators::GroupAggregateSpec;
  auto local = std::make_shared<GroupAggregateSpec>(*spec);
  local->phase = AggregatePhase::kLocal;
  local->outputRowType = runtime::operators::partialAggregateRowType(*spec);
  local->stateTtlMillis = 0;
  auto global = std::make_shared<GroupAggregateSpec>(*spec);
  global->phase = AggregatePhase::kGlobal;
  global->inputRowType = local->outputRowType;
  std::vector<int> keys(global->groupingColumns.size());
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<int>(i);
  global->groupingColumns = keys;
  // Both described by the one-phase calls (the partial accumulators have no SQL form).
  std::string description = aggregateDescription(spec->groupingColumns, spec->calls,
                                                 spec->inputRowType, spec->outputRowType);
  LogicalTypePtr partialRowType = local->outputRowType;
  DataStream<vector::Chunk> partials =
      chained(std::move(input), "LocalGroupAggregate",
              factoryOf<GroupAggregateOperator>(std::move(local)))
          .setDescription("LocalGroupAggregate(" + description + ")");
  return keyed(std::move(partials), keys, partialRowType, "GlobalGroupAggregate",
               factoryOf<GroupAggregateOperator>(std::move(global)), settings)
      .setDescription("GlobalGroupAggregate(" + description + ")");
}

/// A GROUP BY of `spec` over `input`: two-phase where it can be (mini-batch on, the strategy
/// not ONE_PHASE, every call mergeable), else one GroupAggregate called `name` after the HASH
/// exchange.
DataStream<vector::Chunk> groupAggregate(DataStream<vector::Chunk> input,
                                         std::shared_ptr<runtime::operators::GroupAggregateSpec> spec,
                                         std::string name, const TranslationSettings& settings) {
  if (settings.twoPhaseAggregation && settings.miniBatchSize > 0 &&
      std::all_of(spec->calls.begin(), spec->calls.end(), runtime::operators::supportsMerge)) {
    return twoPhaseAggregate(std::move(input), std::move(spec), settings);
  }
  std::vector<int> keys = spec->groupingColumns;
  LogicalTypePtr inputRowType = spec->inputRowType;
  std::string description = name + "(" +
                            aggregateDescription(keys, spec->calls, inputRowType, spec->outputRowType) +
                            ")";
  return keyed(std::move(input), keys, inputRowType, std::move(name),
               factoryOf<runtime::operators::GroupAggregateOperator>(std::move(spec)), settings)
      .setDescription(std::move(description));
}

/// `transformation` and everything upstream of it, added to `env` (once per job). Operator
/// factories are immutable and shared; each job creates its own operators from them.
runtime::Transformation* copyInto(StreamExecutionEnvironment& env,
                                  const runtime::Transformation& transformation,
                                  const TranslationSettings& settings) {
  auto& copies = *settings.copiedTransformations;
  if (auto found = copies.find(&transformation); found != copies.end()) return found->second;
  auto copy = std::make_unique<runtime::Transformation>(transformation);
  for (runtime::Transformation*& input : copy->inputs) input = copyInto(env, *input, settings);
  runtime::Transformation* added = env.addTransformation(std::move(copy));
  copies.emplace(&transformation, added);
  return added;
}

DataStream<vector::Chunk> dataStreamScan(const LogicalDataStreamScan& scan,
                                         StreamExecutionEnvironment& env,
                                         const TranslationSettings& settings) {
  const DataStreamSource& source = *scan.source;
  if (!settings.streaming && source.kinds != DataStreamSource::Kinds::kInsertOnly) {
    throw ValidationException(
        "Querying a table in batch mode is currently only possible for INSERT-only table "
        "sources. But the source for table '" + source.name +
        "' produces other changelog messages than just INSERT (it was read with "
        "fromChangelogStream()).");
  }
  if (!source.unreadableType.empty()) {
    throw ValidationException("The table " + source.name + " reads records of the C++ type " +
                              source.unreadableType +
                              ", which the Table runtime cannot look into. Register the type's "
                              "fields with EDDY_STRUCT(Type, field, ...) or convert the records "
                              "into Rows before fromDataStream().");
  }
  runtime::Transformation* rows = source.transformation;
  if (&env != source.environment) rows = copyInto(env, *rows, settings);
  DataStream<Row> stream(&env, rows);
  auto spec = std::make_shared<runtime::operators::RowsToChunksOperator::Spec>();
  spec->rowType = scan.rowType;
  spec->rowtimeColumn = source.rowtimeColumn;
  spec->acceptsChanges = source.kinds != DataStreamSource::Kinds::kInsertOnly;
  spec->upsert = source.kinds == DataStreamSource::Kinds::kUpsert;
  std::shared_ptr<const runtime::operators::RowsToChunksOperator::Spec> shared = std::move(spec);
  std::string fields;
  for (const RowField& field : scan.rowType->getFields()) {
    fields += (fields.empty() ? "" : ", ") + field.name;
  }
  DataStream<vector::Chunk> chunks = stream.transform<vector::Chunk>(
      "SourceConversion(table=[" + source.name + "], fields=[" + fields + "])",
      std::make_shared<runtime::LambdaOperatorFactory>([shared] {
        return std::make_unique<runtime::operators::RowsToChunksOperator>(shared);
      }));
  // Chained to the stream's last operator, as Flink's SourceConversion.
  chunks.setParallelism(stream.getParallelism());
  if (source.kinds == DataStreamSource::Kinds::kUpsert) {
    // Upserts by key become a retract changelog (Flink's ChangelogNormalize).
    std::vector<int> keys = source.upsertKey;
    LogicalTypePtr rowType = scan.rowType;
    chunks = withParallelism(
        hashExchange(chunks, keys, scan.rowType)
            .transform<vector::Chunk>(
                "ChangelogNormalize(key=[" + keyNames(scan.rowType, keys) + "])",
                std::make_shared<runtime::LambdaOperatorFactory>([rowType, keys] {
                  return std::make_unique<runtime::operators::ChangelogNormalizeOperator>(rowType,
                                                                                          keys);
                }),
                true),
        settings);
  }
  return chunks;
}

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
    runtime::operators::JoinType joinType) {
  using runtime::operators::BatchJoinAlgorithm;
  static const std::vector<std::string> kOperators{"NestedLoopJoin", "ShuffleHashJoin",
                                                   "BroadcastHashJoin", "SortMergeJoin",
                                                   "HashAgg", "SortAgg", "HashJoin"};
  bool hashDisabled = false;
  bool sortMergeDisabled = false;
  bool nestedLoopDisabled = false;
  std::stringstream names(disabled);
  for (std::string name; std::getline(names, name, ',');) {
    auto blank = [](char c) { return static_cast<unsigned char>(c) <= ' '; };
    name.erase(name.begin(), std::find_if_not(name.begin(), name.end(), blank));
    name.erase(std::find_if_not(name.rbegin(), name.rend(), blank).base(), name.end());
    if (name.empty()) continue;
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
    throw TableException(
        "Cannot plan the join " + runtime::operators::joinTypeName(joinType) +
        " in BATCH mode: 'table.exec.disabled-operators' = '" + disabled + "' disables " +
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

DataStream<vector::Chunk> translate(const LogicalNode& node, StreamExecutionEnvironment& env,
                                    const TranslationSettings& settings);

/// An interval join (Flink's IntervalJoin): both inputs partitioned by the equi keys; state
/// of each row released once the watermark passes the last time a partner could arrive.
DataStream<vector::Chunk> intervalJoin(const LogicalJoin& join, StreamExecutionEnvironment& env,
                                       const TranslationSettings& settings) {
  const IntervalJoinBounds& bounds = *join.interval;
  auto spec = std::make_shared<runtime::operators::IntervalJoinSpec>();
  spec->joinType = join.joinType;
  spec->leftRowType = join.inputs[0]->rowType;
  spec->rightRowType = join.inputs[1]->rowType;
  spec->leftKeys = join.leftKeys;
  spec->rightKeys = join.rightKeys;
  spec->leftTimeColumn = bounds.leftTimeColumn;
  spec->rightTimeColumn = bounds.rightTimeColumn;
  spec->lowerBound = bounds.lowerBound;
  spec->upperBound = bounds.upperBound;
  spec->condition = bounds.residual;
  spec->processingTime = bounds.processingTime;
  spec->outputRowType = join.rowType;
  std::string name;
  if (bounds.windowJoin) {
    // Flink's WindowJoin, run by the interval join operator on the window ends.
    spec->dropLateRows = true;
    spec->timeShift = -1;
    spec->timeZone = bounds.windowTimeZone;
    const auto& leftFields = join.inputs[0]->rowType->getFields();
    const auto& rightFields = join.inputs[1]->rowType->getFields();
    name = "WindowJoin(joinType=[" + runtime::operators::joinTypeName(join.joinType) +
           "], windowEnds=[" + leftFields[bounds.leftTimeColumn].name + ", " +
           rightFields[bounds.rightTimeColumn].name + "], where=[" +
           join.fullCondition()->toString(join.rowType->getFieldNames()) + "], select=[" +
           fieldList(join.rowType) + "])";
  } else {
    name = "IntervalJoin(joinType=[" + runtime::operators::joinTypeName(join.joinType) +
           "], windowBounds=[isRowTime=" + (bounds.processingTime ? "false" : "true") +
           ", leftLowerBound=" + std::to_string(-bounds.upperBound) +
           ", leftUpperBound=" + std::to_string(-bounds.lowerBound) +
           ", leftTimeIndex=" + std::to_string(bounds.leftTimeColumn) +
           ", rightTimeIndex=" + std::to_string(bounds.rightTimeColumn) + "], where=[" +
           join.fullCondition()->toString() + "])";
  }
  DataStream<vector::Chunk> left = translate(*join.inputs[0], env, settings);  // left first
  DataStream<vector::Chunk> right = translate(*join.inputs[1], env, settings);
  return keyedTwoInput(join, left, right, std::move(name),
                       factoryOf<runtime::operators::IntervalJoinOperator>(std::move(spec)),
                       settings);
}

/// An event-time temporal join (Flink's TemporalJoin): both inputs partitioned by the equi
/// keys; each left row waits for the watermark, then joins the version valid at its time.
DataStream<vector::Chunk> temporalJoin(const LogicalJoin& join, StreamExecutionEnvironment& env,
                                       const TranslationSettings& settings) {
  auto spec = std::make_shared<runtime::operators::TemporalJoinSpec>();
  spec->joinType = join.joinType;
  spec->leftRowType = join.inputs[0]->rowType;
  spec->rightRowType = join.inputs[1]->rowType;
  spec->leftKeys = join.leftKeys;
  spec->rightKeys = join.rightKeys;
  spec->leftTimeColumn = join.temporal->leftTimeColumn;
  spec->rightTimeColumn = join.temporal->rightTimeColumn;
  spec->condition = join.condition;
  spec->outputRowType = join.rowType;
  std::string name = "TemporalJoin(joinType=[" + runtime::operators::joinTypeName(join.joinType) +
                     "], where=[" + join.fullCondition()->toString() + "], asOf=[$" +
                     std::to_string(join.temporal->leftTimeColumn) + "])";
  DataStream<vector::Chunk> left = translate(*join.inputs[0], env, settings);  // left first
  DataStream<vector::Chunk> right = translate(*join.inputs[1], env, settings);
  return keyedTwoInput(join, left, right, std::move(name),
                       factoryOf<runtime::operators::TemporalJoinOperator>(std::move(spec)),
                       settings);
}

/// The connector's source of `table` for this job (its options validated).
std::unique_ptr<connectors::DynamicTableSource> tableSourceOf(const LogicalTableScan& table,
                                                              const TranslationSettings& settings) {
  connectors::ConnectorContext context{table.tableName, table.physicalRowType, table.options,
                                       settings.streaming, table.partitionKeys};
  return connectors::FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(context);
}

/// A processing-time lookup join (Flink's LookupJoin): stateless, chained to its input; each
/// subtask probes the table through its own lookup function.
DataStream<vector::Chunk> lookupJoin(const LogicalLookupJoin& join, StreamExecutionEnvironment& env,
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
              table.physicalRowType->getFields()[static_cast<size_t>(join.lookupKeys[i])].name + "=" +
              join.inputKeys[i]->toString(inputNames);
  }
  std::string description = "LookupJoin(table=[" + table.tableName + "], joinType=[" +
                            runtime::operators::joinTypeName(join.joinType) + "], lookup=[" +
                            lookup + "]";
  if (join.condition) description += ", where=[" + join.condition->toString(join.rowType->getFieldNames()) + "]";
  description += ", select=[" + fieldList(join.rowType) + "])";
  return chained(translate(*join.inputs[0], env, settings), "LookupJoin",
                 factoryOf<runtime::operators::LookupJoinOperator>(std::move(spec)))
      .setDescription(std::move(description));
}

DataStream<vector::Chunk> translate(const LogicalNode& node, StreamExecutionEnvironment& env,
                                    const TranslationSettings& settings) {
  if (!settings.reusedSubPlans) return translateNode(node, env, settings);
  std::string digest = explainPlan(node, true) + node.rowType->asSummaryString();
  auto found = settings.reusedSubPlans->find(digest);
  if (found != settings.reusedSubPlans->end()) return found->second;
  DataStream<vector::Chunk> stream = translateNode(node, env, settings);
  settings.reusedSubPlans->emplace(std::move(digest), stream);
  return stream;
}

/// Whether a split distinct aggregation can compute `calls`: at least one DISTINCT call, and
/// every call one whose partial results combine (COUNT and SUM sum, MIN and MAX repeat).
bool splittable(const std::vector<runtime::operators::AggregateCall>& calls) {
  using runtime::operators::AggregateKind;
  bool anyDistinct = false;
  for (const auto& call : calls) {
    anyDistinct |= call.distinct;
    switch (call.kind) {
      case AggregateKind::COUNT_STAR:
      case AggregateKind::COUNT:
      case AggregateKind::SUM:
      case AggregateKind::MIN:
      case AggregateKind::MAX:
        break;
      default:
        return false;
    }
  }
  return anyDistinct;
}

/// Flink's split distinct aggregation (`table.optimizer.distinct-agg.split.enabled`) of
/// `spec` (a one-phase spec over `input`): an Expand (expand_operator.h) copies each row once
/// per DISTINCT argument with that argument's bucket and per-call filters; a partial
/// GroupAggregate by the keys and the bucket computes every call over its copy's rows; a final
/// GroupAggregate by the keys sums the partial COUNTs and SUMs and takes the MIN/MAX of the
/// partial MIN/MAXes (two-phase itself where it can be).
DataStream<vector::Chunk> splitDistinctAggregate(
    DataStream<vector::Chunk> input, std::shared_ptr<runtime::operators::GroupAggregateSpec> spec,
    const TranslationSettings& settings) {
  using runtime::operators::AggregateCall;
  using runtime::operators::AggregateKind;
  using runtime::operators::ExpandSpec;
  using runtime::operators::GroupAggregateOperator;
  using runtime::operators::GroupAggregateSpec;
  const int inputColumns = spec->inputRowType->getFieldCount();
  const size_t keyCount = spec->groupingColumns.size();

  auto expand = std::make_shared<ExpandSpec>();
  expand->inputRowType = spec->inputRowType;
  expand->outputRowType = runtime::operators::expandRowType(spec->inputRowType, spec->calls.size());
  expand->bucketCount = settings.distinctSplitBuckets;
  for (const AggregateCall& call : spec->calls) {
    int copy = 0;
    if (call.distinct) {
      auto found = std::find(expand->bucketColumns.begin(), expand->bucketColumns.end(),
                             call.argumentColumn);
      copy = static_cast<int>(found - expand->bucketColumns.begin());
      if (found == expand->bucketColumns.end()) expand->bucketColumns.push_back(call.argumentColumn);
    }
    expand->calls.push_back(ExpandSpec::CallFilter{copy, call.filterColumn});
  }

  // Partial: by the keys and the bucket; call k reads its copy's rows through $filter<k>.
  auto partial = std::make_shared<GroupAggregateSpec>(*spec);
  partial->generateUpdateBefore = true;  // the final aggregate retracts its old partials
  partial->inputRowType = expand->outputRowType;
  partial->groupingColumns.push_back(inputColumns);  // $bucket
  std::vector<RowField> partialFields;
  const auto& expandFields = expand->outputRowType->getFields();
  for (int column : partial->groupingColumns) partialFields.push_back(expandFields[column]);
  for (size_t k = 0; k < partial->calls.size(); ++k) {
    partial->calls[k].filterColumn = inputColumns + 1 + static_cast<int>(k);
    partialFields.push_back(RowField{"$partial" + std::to_string(k), partial->calls[k].resultType, {}});
  }
  partial->outputRowType = LogicalType::row(std::move(partialFields), false);

  // Final: by the keys, over the partial results (an updating input).
  auto final = std::make_shared<GroupAggregateSpec>(*spec);
  final->inputRowType = partial->outputRowType;
  final->groupingColumns.clear();
  for (size_t i = 0; i < keyCount; ++i) final->groupingColumns.push_back(static_cast<int>(i));
  for (size_t k = 0; k < final->calls.size(); ++k) {
    AggregateCall& call = final->calls[k];
    if (call.kind == AggregateKind::COUNT || call.kind == AggregateKind::COUNT_STAR) {
      call.kind = AggregateKind::SUM;  // never NULL: every partial row carries a count
    }
    call.argumentColumn = static_cast<int>(keyCount + 1 + k);
    call.filterColumn = -1;
    call.distinct = false;
    call.retractable = true;
  }

  LogicalTypePtr expandedRowType = expand->outputRowType;
  DataStream<vector::Chunk> expanded =
      chained(std::move(input), "Expand",
              factoryOf<runtime::operators::ExpandOperator>(std::move(expand)));
  std::vector<int> partialKeys = partial->groupingColumns;
  DataStream<vector::Chunk> partials =
      keyed(std::move(expanded), partialKeys, expandedRowType, "PartialGroupAggregate",
            factoryOf<GroupAggregateOperator>(std::move(partial)), settings);
  return groupAggregate(std::move(partials), std::move(final), "FinalGroupAggregate", settings);
}

DataStream<vector::Chunk> translateNode(const LogicalNode& node, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings) {
  switch (node.kind) {
    case LogicalNodeKind::kValues: {
      const auto& values = static_cast<const LogicalValues&>(node);
      std::vector<vector::Chunk> chunks;
      if (!values.rows.empty()) chunks.push_back(vector::rowsToChunk(values.rows, values.rowType));
      return env.fromCollection(std::move(chunks))
          .name("Source: Values")
          .setDescription(values.describe().substr(std::string("Logical").size()));
    }
    case LogicalNodeKind::kTableScan: {
      const auto& scan = static_cast<const LogicalTableScan&>(node);
      auto tableSource = tableSourceOf(scan, settings);
      if (scan.partitions) tableSource->applyPartitions(*scan.partitions);
      if (scan.projection) tableSource->applyProjection(*scan.projection);
      if (!scan.metadataKeys.empty()) tableSource->applyReadableMetadata(scan.metadataKeys);
      auto source = tableSource->createSource();
      // Flink's form: TableSourceScan(table=[[catalog, database, table]], fields=[..]).
      std::string path = scan.tableName;
      for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 2)) {
        path.replace(dot, 1, ", ");
      }
      return withParallelism(
          env.fromSource(std::move(source), WatermarkStrategy<vector::Chunk>::noWatermarks(),
                         scan.tableName)
              .setDescription("TableSourceScan(table=[[" + path +
                              (scan.partitions ? ", " + scan.describePartitions() : "") +
                              "]], fields=[" +
                              fieldList(scan.rowType) + "])"),
          settings);
    }
    case LogicalNodeKind::kDataStreamScan:
      return dataStreamScan(static_cast<const LogicalDataStreamScan&>(node), env, settings);
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(node);
      auto spec = std::make_shared<CalcSpec>();
      spec->outputRowType = project.rowType;
      spec->projections = project.expressions;
      if (node.inputs[0]->kind == LogicalNodeKind::kFilter) {
        // A projection over a filter: one Calc (condition, then projections over its input).
        const auto& filter = static_cast<const LogicalFilter&>(*node.inputs[0]);
        spec->condition = filter.condition;
        return calc(translate(*filter.inputs[0], env, settings), filter.inputs[0]->rowType, spec);
      }
      return calc(translate(*node.inputs[0], env, settings), node.inputs[0]->rowType, spec);
    }
    case LogicalNodeKind::kLookupJoin:
      return lookupJoin(static_cast<const LogicalLookupJoin&>(node), env, settings);
    case LogicalNodeKind::kUnnest: {
      // Stateless, so chained to its input as a Calc is.
      const auto& unnest = static_cast<const LogicalUnnest&>(node);
      auto spec = std::make_shared<runtime::operators::UnnestSpec>();
      spec->outputRowType = unnest.rowType;
      spec->collection = unnest.collection;
      spec->withOrdinality = unnest.withOrdinality;
      spec->leftOuter = unnest.leftOuter;
      return chained(translate(*node.inputs[0], env, settings), "Correlate",
                     factoryOf<runtime::operators::UnnestOperator>(std::move(spec)));
    }
    case LogicalNodeKind::kFilter: {
      const auto& filter = static_cast<const LogicalFilter&>(node);
      auto spec = std::make_shared<CalcSpec>();
      spec->outputRowType = filter.rowType;
      for (int i = 0; i < filter.rowType->getFieldCount(); ++i) {
        spec->projections.push_back(
            expression::column(i, filter.rowType->getFields()[i].type));
      }
      spec->condition = filter.condition;
      return calc(translate(*node.inputs[0], env, settings), node.inputs[0]->rowType, spec);
    }
    case LogicalNodeKind::kSort: {
      const auto& sort = static_cast<const LogicalSort&>(node);
      if (settings.streaming) {
        if (!sort.keys.empty() && sort.fetch >= 0) {
          // ORDER BY .. LIMIT: a global Top-N over the rows ranked offset+1 .. offset+fetch.
          LogicalRank topN(node.inputs[0], {}, sort.keys, runtime::operators::RankKind::ROW_NUMBER,
                           sort.offset + 1, sort.offset + sort.fetch, false, "");
          if (sort.fetch == 0) {
            return translate(LogicalFilter(node.inputs[0], expression::literal(Value(false))), env,
                             settings);
          }
          return translate(topN, env, settings);
        }
        const bool temporal =
            !sort.keys.empty() && sort.keys[0].ascending && sort.fetch < 0 && sort.offset == 0 &&
            node.inputs[0]->changelogMode == ChangelogMode::kInsertOnly &&
            node.inputs[0]->rowType->getFields()[sort.keys[0].column].type->getTimestampKind() ==
                TimestampKind::ROWTIME;
        if (temporal) {
          // ORDER BY rowtime [, ...]: rows in time order as the watermark passes them.
          auto spec = std::make_shared<runtime::operators::SortSpec>();
          spec->rowType = sort.rowType;
          spec->keys = sort.keys;
          spec->timeColumn = sort.keys[0].column;
          return translate(*node.inputs[0], env, settings)
              .transform<vector::Chunk>("TemporalSort",
                                        factoryOf<runtime::operators::SortOperator>(std::move(spec)))
              .setParallelism(1)
              .setDescription("TemporalSort(orderBy=[" + orderByNames(sort.rowType, sort.keys) + "])");
        }
        if (!sort.keys.empty()) {
          throw TableException("Sort on a non-time-attribute field is not supported.");
        }
        if (node.inputs[0]->changelogMode != ChangelogMode::kInsertOnly) {
          throw TableException("LIMIT over an updating input is not supported yet in streaming "
                               "mode");
        }
      }
      auto spec = std::make_shared<runtime::operators::SortSpec>();
      spec->rowType = sort.rowType;
      spec->keys = sort.keys;
      spec->offset = sort.offset;
      spec->fetch = sort.fetch;
      // Flink's forms: Sort(orderBy=[..]), SortLimit(orderBy=[..], offset=[..], fetch=[..]),
      // Limit(offset=[..], fetch=[..]).
      std::string description = sort.keys.empty() ? "Limit(" : sort.fetch >= 0 ? "SortLimit(" : "Sort(";
      if (!sort.keys.empty()) description += "orderBy=[" + orderByNames(sort.rowType, sort.keys) + "]";
      if (sort.keys.empty() || sort.fetch >= 0) {
        description += std::string(sort.keys.empty() ? "" : ", ") + "offset=[" +
                       std::to_string(sort.offset) + "], fetch=[" +
                       (sort.fetch >= 0 ? std::to_string(sort.fetch) : "unlimited") + "]";
      }
      return translate(*node.inputs[0], env, settings)
          .transform<vector::Chunk>(sort.keys.empty() ? "Limit" : "Sort",
                                    factoryOf<runtime::operators::SortOperator>(std::move(spec)))
          .setParallelism(1)
          .setDescription(description + ")");
    }
    case LogicalNodeKind::kUnion: {
      DataStream<vector::Chunk> result = translate(*node.inputs[0], env, settings);
      for (size_t i = 1; i < node.inputs.size(); ++i) {
        result = result.union_(translate(*node.inputs[i], env, settings));
      }
      return result;
    }
    case LogicalNodeKind::kAggregate: {
      const auto& aggregate = static_cast<const LogicalAggregate&>(node);
      auto spec = std::make_shared<runtime::operators::GroupAggregateSpec>();
      spec->inputRowType = node.inputs[0]->rowType;
      spec->groupingColumns = aggregate.groupingColumns;
      spec->calls = aggregate.calls;
      // Only an updating input retracts rows (state TTL expires whole groups).
      for (auto& call : spec->calls) {
        call.retractable = node.inputs[0]->changelogMode != ChangelogMode::kInsertOnly;
      }
      spec->outputRowType = aggregate.rowType;
      spec->generateUpdateBefore = aggregate.generateUpdateBefore;
      spec->stateTtlMillis = settings.stateTtl;
      spec->miniBatchLatencyMillis = settings.miniBatchLatency;
      spec->miniBatchSize = settings.miniBatchSize;
      DataStream<vector::Chunk> input = translate(*node.inputs[0], env, settings);
      if (settings.streaming && settings.distinctSplitBuckets > 0 && splittable(spec->calls)) {
        return splitDistinctAggregate(std::move(input), std::move(spec), settings);
      }
      return groupAggregate(std::move(input), std::move(spec), "GroupAggregate", settings);
    }
    case LogicalNodeKind::kRank: {
      const auto& rank = static_cast<const LogicalRank&>(node);
      auto spec = std::make_shared<runtime::operators::RankSpec>();
      spec->inputRowType = node.inputs[0]->rowType;
      spec->partitionKeys = rank.partitionKeys;
      spec->sortKeys = rank.sortKeys;
      spec->rankKind = rank.rankKind;
      spec->rankStart = rank.rankStart;
      spec->rankEnd = rank.rankEnd;
      spec->outputRankNumber = rank.outputRankNumber;
      spec->inputInsertOnly = node.inputs[0]->changelogMode == ChangelogMode::kInsertOnly;
      spec->outputRowType = rank.rowType;
      // Window Top-N: partitioned by a window's start and end over insert-only input.
      spec->windowEndColumn = windowRankEndColumn(*node.inputs[0], rank.partitionKeys);
      if (spec->windowEndColumn >= 0) {
        spec->windowTimeZone =
            windowPropertyOf(*node.inputs[0], spec->windowEndColumn)->window.timeZone;
      }
      if (settings.streaming && rank.rankEnd == INT64_MAX && spec->windowEndColumn < 0) {
        throw TableException(
            "ROW_NUMBER, RANK and DENSE_RANK in STREAMING mode need a filter on the rank that "
            "bounds it from above (Top-N, e.g. WHERE rownum <= 10)");
      }
      const bool deduplicate =
          spec->windowEndColumn < 0 &&
          isDeduplicate(*node.inputs[0], rank.rankKind, rank.rankStart, rank.rankEnd,
                        rank.outputRankNumber, rank.sortKeys);
      const bool procTime =
          deduplicate && node.inputs[0]->rowType->getFields()[static_cast<size_t>(
                             rank.sortKeys[0].column)].type->getTimestampKind() ==
                             TimestampKind::PROCTIME;
      spec->keepFirstArrival = deduplicate && procTime && rank.sortKeys[0].ascending;
      spec->deduplicate = deduplicate && !spec->keepFirstArrival;
      spec->keepLastArrival = spec->deduplicate && procTime;
      spec->generateUpdateBefore = rank.generateUpdateBefore;
      std::string name = spec->windowEndColumn >= 0 ? "WindowRank"
                         : deduplicate              ? "Deduplicate"
                                                    : "Rank";
      // Flink's Deduplicate line: which row it keeps, by which key, on which time.
      std::string description =
          deduplicate ? fmt::format("Deduplicate(keep=[{}], key=[{}], order=[{}])",
                                    rank.sortKeys[0].ascending ? "FirstRow" : "LastRow",
                                    keyNames(node.inputs[0]->rowType, rank.partitionKeys),
                                    procTime ? "PROCTIME" : "ROWTIME")
                      : rankDescription(rank, name);
      return keyed(translate(*node.inputs[0], env, settings), rank.partitionKeys,
                   node.inputs[0]->rowType, std::move(name),
                   factoryOf<runtime::operators::RankOperator>(std::move(spec)), settings)
          .setDescription(std::move(description));
    }
    case LogicalNodeKind::kWatermarkAssigner: {
      const auto& assigner = static_cast<const LogicalWatermarkAssigner&>(node);
      auto spec = std::make_shared<runtime::operators::WatermarkAssignerSpec>();
      spec->rowType = node.rowType;
      spec->watermark = assigner.watermark;
      spec->emitInterval = settings.autoWatermarkInterval;
      spec->idleTimeout = settings.sourceIdleTimeout;
      return chained(translate(*node.inputs[0], env, settings),
                     assigner.describe().substr(std::string("Logical").size()),
                     factoryOf<runtime::operators::WatermarkAssignerOperator>(std::move(spec)));
    }
    case LogicalNodeKind::kWindowTableFunction: {
      const auto& function = static_cast<const LogicalWindowTableFunction&>(node);
      auto spec = std::make_shared<runtime::operators::WindowTableFunctionSpec>();
      spec->inputRowType = node.inputs[0]->rowType;
      spec->window = function.window;
      spec->outputRowType = node.rowType;
      // Validates the window now, at planning time, rather than in every subtask.
      runtime::operators::WindowTableFunctionOperator check(spec);
      return chained(translate(*node.inputs[0], env, settings),
                     function.describe().substr(std::string("Logical").size()),
                     factoryOf<runtime::operators::WindowTableFunctionOperator>(std::move(spec)));
    }
    case LogicalNodeKind::kOverAggregate: {
      const auto& over = static_cast<const LogicalOverAggregate&>(node);
      auto spec = std::make_shared<runtime::operators::OverAggregateSpec>();
      spec->inputRowType = node.inputs[0]->rowType;
      spec->partitionKeys = over.partitionKeys;
      spec->orderColumn = over.orderColumn;
      spec->orderKeys = over.orderKeys;
      spec->processingTime = over.processingTime;
      spec->unit = over.unit;
      spec->preceding = over.preceding;
      spec->calls = over.calls;
      spec->outputRowType = node.rowType;
      return keyed(translate(*node.inputs[0], env, settings), over.partitionKeys,
                   node.inputs[0]->rowType, over.describe().substr(std::string("Logical").size()),
                   factoryOf<runtime::operators::OverAggregateOperator>(std::move(spec)), settings);
    }
    case LogicalNodeKind::kWindowAggregate: {
      const auto& aggregate = static_cast<const LogicalWindowAggregate&>(node);
      auto spec = std::make_shared<runtime::operators::WindowAggregateSpec>();
      spec->inputRowType = node.inputs[0]->rowType;
      spec->window = aggregate.window;
      spec->keyColumns = aggregate.keyColumns;
      spec->calls = aggregate.calls;
      for (auto& call : spec->calls) call.retractable = false;  // windows never retract
      spec->outputColumns = aggregate.outputColumns;
      spec->outputRowType = node.rowType;
      return keyed(translate(*node.inputs[0], env, settings), aggregate.keyColumns,
                   node.inputs[0]->rowType, aggregate.describe().substr(std::string("Logical").size()),
                   factoryOf<runtime::operators::WindowAggregateOperator>(std::move(spec)),
                   settings);
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(node);
      if (join.interval) return intervalJoin(join, env, settings);
      if (join.temporal) return temporalJoin(join, env, settings);
      auto spec = std::make_shared<runtime::operators::JoinSpec>();
      spec->joinType = join.joinType;
      spec->leftRowType = node.inputs[0]->rowType;
      spec->rightRowType = node.inputs[1]->rowType;
      spec->leftKeys = join.leftKeys;
      spec->rightKeys = join.rightKeys;
      spec->condition = join.condition;
      spec->outputRowType = join.rowType;
      spec->stateTtlMillis = settings.stateTtl;
      for (int side = 0; side < 2; ++side) {
        spec->insertOnlyInput[side] = node.inputs[side]->changelogMode == ChangelogMode::kInsertOnly;
      }
      auto [algorithm, operatorName] =
          settings.streaming ? std::pair{runtime::operators::BatchJoinAlgorithm::AUTO, std::string("Join")}
                             : batchJoinChoice(settings.disabledOperators, *spec, join.joinType);
      spec->batchAlgorithm = algorithm;
      DataStream<vector::Chunk> left = translate(*node.inputs[0], env, settings);  // left first
      DataStream<vector::Chunk> right = translate(*node.inputs[1], env, settings);
      std::string description =
          operatorName + "(joinType=[" + runtime::operators::joinTypeName(join.joinType) + "]";
      if (expression::ExpressionPtr condition = join.fullCondition()) {
        // The condition reads both sides, also where the output is the left side's (SEMI/ANTI).
        std::vector<std::string> names = node.inputs[0]->rowType->getFieldNames();
        for (const std::string& name : node.inputs[1]->rowType->getFieldNames()) names.push_back(name);
        description += ", where=[" + condition->toString(uniquifyNames(names)) + "]";
      }
      description += ", select=[" + fieldList(join.rowType) + "])";
      return keyedTwoInput(join, left, right, operatorName,
                           factoryOf<runtime::operators::JoinOperator>(std::move(spec)), settings)
          .setDescription(std::move(description));
    }
  }
  throw InternalError("unknown logical node");
}

}  // namespace

namespace {

std::string distributionName(runtime::PartitionKind kind) {
  switch (kind) {
    case runtime::PartitionKind::FORWARD:
      return "forward";
    case runtime::PartitionKind::REBALANCE:
      return "rebalance";
    case runtime::PartitionKind::SHUFFLE:
      return "shuffle";
    case runtime::PartitionKind::BROADCAST:
      return "broadcast";
    case runtime::PartitionKind::HASH:
      return "hash";
  }
  return "?";
}

void explainTransformation(const runtime::Transformation& transformation, int depth,
                           std::string& text) {
  text.append(2 * static_cast<size_t>(depth), ' ');
  if (!transformation.description.empty()) {
    text += transformation.description;
  } else {
    switch (transformation.kind) {
      case runtime::Transformation::Kind::PARTITION:
        text += "Exchange(distribution=[" + distributionName(transformation.partitionKind) + "])";
        break;
      case runtime::Transformation::Kind::UNION:
        text += "Union";
        break;
      default:
        text += transformation.name;
    }
  }
  text += "\n";
  for (const runtime::Transformation* input : transformation.inputs) {
    explainTransformation(*input, depth + 1, text);
  }
}

}  // namespace

std::string explainPhysicalPlan(const DataStream<vector::Chunk>& stream) {
  std::string text;
  explainTransformation(stream.getTransformation(), 0, text);
  return text;
}

std::shared_ptr<runtime::operators::SinkUpsertMaterializerSpec> upsertMaterializerFor(
    const LogicalNode& plan, const std::vector<int>& primaryKey, const std::string& mode) {
  if (primaryKey.empty() || mode == "NONE") return nullptr;
  const std::vector<std::vector<int>> upsertKeys = upsertKeysOf(plan);
  if (mode != "FORCE") {
    if (plan.changelogMode == ChangelogMode::kInsertOnly) return nullptr;
    const bool withinKey = std::any_of(upsertKeys.begin(), upsertKeys.end(), [&](const auto& key) {
      return std::all_of(key.begin(), key.end(), [&](int column) {
        return std::find(primaryKey.begin(), primaryKey.end(), column) != primaryKey.end();
      });
    });
    if (withinKey) return nullptr;
  }
  auto spec = std::make_shared<runtime::operators::SinkUpsertMaterializerSpec>();
  spec->rowType = plan.rowType;
  spec->primaryKey = primaryKey;
  for (const auto& key : upsertKeys) {
    if (spec->upsertKey.empty() || key.size() < spec->upsertKey.size() ||
        (key.size() == spec->upsertKey.size() && key < spec->upsertKey)) {
      spec->upsertKey = key;
    }
  }
  return spec;
}

DataStream<vector::Chunk> materializeUpserts(
    const DataStream<vector::Chunk>& rows,
    std::shared_ptr<const runtime::operators::SinkUpsertMaterializerSpec> spec) {
  const std::string names = keyNames(spec->rowType, spec->primaryKey);
  DataStream<vector::Chunk> materialized =
      hashExchange(rows, spec->primaryKey, spec->rowType)
          .transform<vector::Chunk>(
              "SinkMaterializer(pk=[" + names + "])",
              std::make_shared<runtime::LambdaOperatorFactory>([spec] {
                return std::make_unique<runtime::operators::SinkUpsertMaterializerOperator>(spec);
              }),
              true);
  materialized.setParallelism(rows.getParallelism());
  return materialized;
}

DataStream<vector::Chunk> translateToDataStream(const LogicalNodePtr& plan,
                                                StreamExecutionEnvironment& environment,
                                                const TranslationSettings& settings) {
  return translate(*optimize(plan), environment, settings);
}

}  // namespace eddy::sql
