// Translation of GROUP BY aggregations (translation_context.h): a GroupAggregate after a HASH
// exchange on the grouping columns (in one subtask without them); under mini-batch Flink's
// local/global two-phase aggregation where every call merges, and with
// table.optimizer.distinct-agg.split.enabled Flink's split distinct aggregation (Expand,
// partial aggregation by key and bucket, final aggregation by key).
#include <algorithm>

#include "eddy/exceptions.h"
#include "runtime/operators/aggregate/expand_operator.h"
#include "runtime/operators/aggregate/group_aggregate_operator.h"
#include "sql/physical/translation_context.h"

namespace eddy::sql::physical {

namespace {

/// Flink's physical-plan form of an aggregation's keys and calls: `groupBy=[k], select=[k,
/// COUNT(*) AS c, SUM(DISTINCT x) AS s]` (`select=[..]` alone without keys).
std::string aggregateDescription(const std::vector<int>& groupingColumns,
                                 const std::vector<function::AggregateCall>& calls,
                                 const LogicalTypePtr& inputRowType,
                                 const LogicalTypePtr& outputRowType) {
  using function::AggregateKind;
  const auto& input = inputRowType->getFields();
  const auto& output = outputRowType->getFields();
  std::string keys = keyNames(inputRowType, groupingColumns);
  std::string select = keys;
  for (size_t i = 0; i < calls.size(); ++i) {
    const auto& call = calls[i];
    std::string argument = call.kind == AggregateKind::COUNT_STAR
                               ? "*"
                               : (call.distinct ? "DISTINCT " : "") +
                                     input[static_cast<size_t>(call.argumentColumn)].name;
    std::string item = function::aggregateKindName(call.kind) + "(" + argument + ")";
    if (call.filterColumn >= 0)
      item += " FILTER " + input[static_cast<size_t>(call.filterColumn)].name;
    const size_t column = groupingColumns.size() + i;
    if (column < output.size()) item += " AS " + output[column].name;
    select += (select.empty() ? "" : ", ") + item;
  }
  return (keys.empty() ? "" : "groupBy=[" + keys + "], ") + "select=[" + select + "]";
}

/// Flink's local/global aggregation of `spec` (a one-phase spec over `input`): a LOCAL phase
/// chained to the input folds each mini-batch into one partial row per key; after the HASH
/// exchange the GLOBAL phase merges the partials into its keyed accumulators.
DataStream<vector::Chunk> twoPhaseAggregate(
    DataStream<vector::Chunk> input, std::shared_ptr<runtime::operators::GroupAggregateSpec> spec,
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
DataStream<vector::Chunk> groupAggregate(
    DataStream<vector::Chunk> input, std::shared_ptr<runtime::operators::GroupAggregateSpec> spec,
    std::string name, const TranslationSettings& settings) {
  if (settings.twoPhaseAggregation && settings.miniBatchSize > 0 &&
      std::all_of(spec->calls.begin(), spec->calls.end(), function::supportsMerge)) {
    return twoPhaseAggregate(std::move(input), std::move(spec), settings);
  }
  std::vector<int> keys = spec->groupingColumns;
  LogicalTypePtr inputRowType = spec->inputRowType;
  std::string description =
      name + "(" + aggregateDescription(keys, spec->calls, inputRowType, spec->outputRowType) + ")";
  return keyed(std::move(input), keys, inputRowType, std::move(name),
               factoryOf<runtime::operators::GroupAggregateOperator>(std::move(spec)), settings)
      .setDescription(std::move(description));
}

/// Whether a split distinct aggregation can compute `calls`: at least one DISTINCT call, and
/// every call one whose partial results combine (COUNT and SUM sum, MIN and MAX repeat).
bool splittable(const std::vector<function::AggregateCall>& calls) {
  using function::AggregateKind;
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
  using function::AggregateCall;
  using function::AggregateKind;
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
      if (found == expand->bucketColumns.end())
        expand->bucketColumns.push_back(call.argumentColumn);
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
    partialFields.push_back(
        RowField{"$partial" + std::to_string(k), partial->calls[k].resultType, {}});
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
  DataStream<vector::Chunk> expanded = chained(
      std::move(input), "Expand", factoryOf<runtime::operators::ExpandOperator>(std::move(expand)));
  std::vector<int> partialKeys = partial->groupingColumns;
  DataStream<vector::Chunk> partials =
      keyed(std::move(expanded), partialKeys, expandedRowType, "PartialGroupAggregate",
            factoryOf<GroupAggregateOperator>(std::move(partial)), settings);
  return groupAggregate(std::move(partials), std::move(final), "FinalGroupAggregate", settings);
}

}  // namespace

DataStream<vector::Chunk> translateAggregate(const LogicalAggregate& aggregate,
                                             StreamExecutionEnvironment& env,
                                             const TranslationSettings& settings) {
  // The two kinds of aggregation the optimizer plans further (passes.h); they reach here only
  // when its pass is turned off.
  if (!aggregate.groupingSets.empty()) {
    throw TableException(
        "GROUPING SETS, ROLLUP and CUBE are planned by the optimizer pass "
        "'GroupingSetsExpansion', which 'table.optimizer.disabled-passes' turns off.");
  }
  if (aggregate.windowed) {
    throw TableException(
        "A window aggregation (GROUP BY window_start, window_end of a window table function) is "
        "planned by the optimizer pass 'WindowAggregateDetection', which "
        "'table.optimizer.disabled-passes' turns off.");
  }
  auto spec = std::make_shared<runtime::operators::GroupAggregateSpec>();
  spec->inputRowType = aggregate.inputs[0]->rowType;
  spec->groupingColumns = aggregate.groupingColumns;
  spec->calls = aggregate.calls;
  // Only an updating input retracts rows (state TTL expires whole groups).
  for (auto& call : spec->calls) {
    call.retractable = aggregate.inputs[0]->changelogMode != ChangelogMode::kInsertOnly;
  }
  spec->outputRowType = aggregate.rowType;
  spec->generateUpdateBefore = aggregate.generateUpdateBefore;
  spec->stateTtlMillis = settings.stateTtl;
  spec->miniBatchLatencyMillis = settings.miniBatchLatency;
  spec->miniBatchSize = settings.miniBatchSize;
  DataStream<vector::Chunk> input = translate(*aggregate.inputs[0], env, settings);
  if (settings.streaming && settings.distinctSplitBuckets > 0 && splittable(spec->calls)) {
    return splitDistinctAggregate(std::move(input), std::move(spec), settings);
  }
  return groupAggregate(std::move(input), std::move(spec), "GroupAggregate", settings);
}

}  // namespace eddy::sql::physical
