#include "runtime/operators/aggregate/group_aggregate_operator.h"

#include <algorithm>

#include "eddy/state/key_group_range.h"
#include "runtime/operators/chunk_exchange.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using function::AggregateCall;
using function::AggregateKind;
using function::accumulate;
using function::accumulatorTypes;
using function::assignAggregateResult;
using function::createAccumulator;
using function::createSharedDistinctTable;
using function::merge;
using function::sharedDistinctCounts;

namespace {
bool isAccumulate(RowKind kind) {
  return kind == RowKind::INSERT || kind == RowKind::UPDATE_AFTER;
}
}  // namespace

LogicalTypePtr partialAggregateRowType(const GroupAggregateSpec& spec) {
  const auto& inputFields = spec.inputRowType->getFields();
  std::vector<RowField> fields;
  for (int column : spec.groupingColumns) fields.push_back(inputFields[column]);
  for (size_t i = 0; i < spec.calls.size(); ++i) {
    const AggregateCall& call = spec.calls[i];
    LogicalTypePtr argumentType =
        call.argumentColumn >= 0 ? inputFields[call.argumentColumn].type : nullptr;
    std::vector<LogicalTypePtr> types = accumulatorTypes(call, argumentType);
    for (size_t j = 0; j < types.size(); ++j) {
      fields.push_back(RowField{"acc" + std::to_string(i) + "$" + std::to_string(j), types[j], {}});
    }
  }
  fields.push_back(
      RowField{"row_count$", LogicalType::simple(LogicalTypeRoot::BIGINT, false), {}});
  return LogicalType::row(std::move(fields), false);
}

namespace {
bool isIntegerType(const LogicalType& type) {
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::TINYINT:
    case LogicalTypeRoot::SMALLINT:
    case LogicalTypeRoot::INTEGER:
    case LogicalTypeRoot::BIGINT:
      return true;
    default:
      return false;
  }
}

using vector::integerAt;
}  // namespace

GroupAggregateOperator::GroupAggregateOperator(std::shared_ptr<const GroupAggregateSpec> spec)
    : spec_(std::move(spec)), effectiveCalls_(spec_->calls), shared_(spec_->calls.size(), false) {
  if (spec_->phase != AggregatePhase::kGlobal) {
    // Group the DISTINCT calls over each integer argument; two or more share a table.
    for (size_t i = 0; i < spec_->calls.size(); ++i) {
      const AggregateCall& call = spec_->calls[i];
      if (!call.distinct || call.argumentColumn < 0 ||
          !isIntegerType(*spec_->inputRowType->getFields()[call.argumentColumn].type)) {
        continue;
      }
      auto group = std::find_if(sharedDistinct_.begin(), sharedDistinct_.end(),
                                [&call](const SharedDistinct& candidate) {
                                  return candidate.argumentColumn == call.argumentColumn;
                                });
      if (group == sharedDistinct_.end()) {
        sharedDistinct_.push_back(SharedDistinct{call.argumentColumn, {}});
        group = sharedDistinct_.end() - 1;
      }
      group->calls.push_back(static_cast<int>(i));
    }
    std::erase_if(sharedDistinct_, [](const SharedDistinct& group) {
      return group.calls.size() < 2 || group.calls.size() > 64;  // 64: a bit per call
    });
    for (const SharedDistinct& group : sharedDistinct_) {
      for (int i : group.calls) {
        shared_[static_cast<size_t>(i)] = true;
        effectiveCalls_[static_cast<size_t>(i)].distinct = false;
      }
    }
  }
  for (const AggregateCall& call : effectiveCalls_) {
    FastPath path = FastPath::kGeneric;
    if (!call.distinct && spec_->phase != AggregatePhase::kGlobal) {
      if (call.kind == AggregateKind::COUNT_STAR) {
        path = FastPath::kCountStar;
      } else if (call.kind == AggregateKind::COUNT && call.argumentColumn >= 0) {
        path = FastPath::kCount;
      } else if ((call.kind == AggregateKind::SUM || call.kind == AggregateKind::AVG) &&
                 call.argumentColumn >= 0 &&
                 isIntegerType(*spec_->inputRowType->getFields()[call.argumentColumn].type)) {
        path = FastPath::kIntegerSum;
      }
    }
    fastPaths_.push_back(path);
  }
  if (spec_->groupingColumns.size() == 1) {
    const int column = spec_->groupingColumns[0];
    const vector::PhysicalLayout layout =
        vector::physicalLayoutOf(*spec_->inputRowType->getFields()[static_cast<size_t>(column)].type);
    if (vector::isIntegerLayout(layout)) {
      integerKeyColumn_ = column;
    }
  }
  if (spec_->phase == AggregatePhase::kGlobal) {
    int column = static_cast<int>(spec_->groupingColumns.size());
    for (const AggregateCall& call : spec_->calls) {
      partialColumns_.push_back(column);
      column += static_cast<int>(createAccumulator(call).size());
    }
    partialColumns_.push_back(column);
  }
  // The flat layout of a group's accumulators: the calls', the shared tables', the row count.
  size_t offset = 0;
  for (const AggregateCall& call : effectiveCalls_) {
    offsets_.push_back(offset);
    offset += createAccumulator(call).size();
  }
  for (size_t g = 0; g < sharedDistinct_.size(); ++g) {
    offsets_.push_back(offset);
    offset += createSharedDistinctTable().size();
  }
  offsets_.push_back(offset);  // the row count
  touched_.assign(spec_->calls.size(), 0);
}

GroupAggregateOperator::~GroupAggregateOperator() = default;

void GroupAggregateOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
  stateBackend_ =
      &state::heapKeyedStateBackendOf(context.keyedStateBackend(), context.operatorName);
  ValueStateDescriptor<std::vector<Value>> descriptor("accumulators");
  if (spec_->stateTtlMillis > 0) {
    descriptor.enableTimeToLive(
        StateTtlConfig::newBuilder(std::chrono::milliseconds(spec_->stateTtlMillis)).build());
  }
  accumulatorState_ = stateBackend_->getValueState(descriptor);
  output_ = std::make_unique<vector::Chunk>(spec_->outputRowType);
  if ((miniBatch() || spec_->phase == AggregatePhase::kLocal) && !batchMode_ &&
      context.processingTimeService == nullptr) {
    throw InternalError("A mini-batch GroupAggregate needs a ProcessingTimeService.");
  }
}

GroupAggregateOperator::GroupAccumulators GroupAggregateOperator::newAccumulators() const {
  GroupAccumulators accumulators;
  accumulators.reserve(offsets_.back() + 1);
  for (const AggregateCall& call : effectiveCalls_) {
    for (Value& value : createAccumulator(call)) accumulators.push_back(std::move(value));
  }
  for (size_t g = 0; g < sharedDistinct_.size(); ++g) {
    for (Value& value : createSharedDistinctTable()) accumulators.push_back(std::move(value));
  }
  accumulators.push_back(Value(int64_t{0}));  // live input rows of the group
  return accumulators;
}

void GroupAggregateOperator::accumulateRow(const vector::Chunk& chunk, int64_t row,
                                           GroupAccumulators& accumulators, bool retract) {
  Value* values = accumulators.data();
  if (spec_->phase == AggregatePhase::kGlobal) {  // a partial row: merge its accumulators
    std::vector<Value>& other = partialScratch_;
    for (size_t i = 0; i < spec_->calls.size(); ++i) {
      other.clear();
      for (int column = partialColumns_[i]; column < partialColumns_[i + 1]; ++column) {
        other.push_back(chunk.column(column).valueAt(row));
      }
      merge(spec_->calls[i], values + offsets_[i], other.data());
      touched_[i] = 1;
    }
    accumulators.back().getMutable<int64_t>() +=
        chunk.column(partialColumns_.back()).data<int64_t>()[row];
    return;
  }
  const int64_t step = retract ? -1 : 1;
  for (size_t i = 0; i < spec_->calls.size(); ++i) {
    if (shared_[i] || !passesFilter(chunk, row, i)) continue;
    const AggregateCall& call = effectiveCalls_[i];
    Value* accumulator = values + offsets_[i];
    // The common calls change their counters in place, as accumulateInner would.
    switch (fastPaths_[i]) {
      case FastPath::kCountStar:
        accumulator[0].getMutable<int64_t>() += step;
        touched_[i] = 1;
        continue;
      case FastPath::kCount:
        if (chunk.column(call.argumentColumn).isNull(row)) continue;  // COUNT skips NULL
        accumulator[0].getMutable<int64_t>() += step;
        touched_[i] = 1;
        continue;
      case FastPath::kIntegerSum: {
        const vector::Vector& argument = chunk.column(call.argumentColumn);
        if (argument.isNull(row)) continue;  // SUM/AVG skip NULL
        // Wrapping two's-complement arithmetic, as addToSum.
        const auto delta = static_cast<uint64_t>(integerAt(argument, row));
        if (accumulator[0].isNull()) {
          accumulator[0] = Value(static_cast<int64_t>(retract ? uint64_t{0} - delta : delta));
        } else {
          auto& sum = accumulator[0].getMutable<int64_t>();
          sum = static_cast<int64_t>(retract ? static_cast<uint64_t>(sum) - delta
                                             : static_cast<uint64_t>(sum) + delta);
        }
        accumulator[1].getMutable<int64_t>() += step;
        touched_[i] = 1;
        continue;
      }
      case FastPath::kGeneric:
        break;
    }
    Value input = call.argumentColumn >= 0 ? chunk.column(call.argumentColumn).valueAt(row)
                                           : Value(int64_t{1});
    if (accumulate(call, accumulator, input, retract)) touched_[i] = 1;
  }
  // Shared DISTINCT tables: one probe per argument; a call's inner accumulator sees a value
  // when its multiplicity for that call becomes 1, and loses it when it drops to 0.
  for (size_t g = 0; g < sharedDistinct_.size(); ++g) {
    const SharedDistinct& group = sharedDistinct_[g];
    const vector::Vector& argument = chunk.column(group.argumentColumn);
    if (argument.isNull(row)) continue;
    const int callCount = static_cast<int>(group.calls.size());
    uint64_t passing = 0;  // the calls of the group whose FILTER keeps the row (bit k)
    for (int k = 0; k < callCount; ++k) {
      if (passesFilter(chunk, row, static_cast<size_t>(group.calls[static_cast<size_t>(k)]))) {
        passing |= uint64_t{1} << k;
      }
    }
    if (passing == 0) continue;  // no call counts the row: the table does not need the value
    int64_t* counts = sharedDistinctCounts(values + offsets_[spec_->calls.size() + g],
                                           integerAt(argument, row), callCount, !retract);
    if (counts == nullptr) continue;  // retracting a value never accumulated
    std::optional<Value> input;
    for (int k = 0; k < callCount; ++k) {
      const auto i = static_cast<size_t>(group.calls[static_cast<size_t>(k)]);
      if ((passing & (uint64_t{1} << k)) == 0) continue;
      const int64_t before = counts[k];
      if (retract && before == 0) continue;  // never counted for this call
      counts[k] = before + step;
      if ((!retract && before == 0) || (retract && before == 1)) {
        if (!input) input = argument.valueAt(row);
        if (accumulate(effectiveCalls_[i], values + offsets_[i], *input, retract)) {
          touched_[i] = 1;
        }
      }
    }
  }
  accumulators.back().getMutable<int64_t>() += retract ? -1 : 1;
}

bool GroupAggregateOperator::passesFilter(const vector::Chunk& chunk, int64_t row,
                                          size_t i) const {
  const int filterColumn = spec_->calls[i].filterColumn;
  if (filterColumn < 0) return true;
  const vector::Vector& filter = chunk.column(filterColumn);  // BOOLEAN, read in place
  return !filter.isNull(row) && filter.data<bool>()[row];
}

std::vector<Value> GroupAggregateOperator::resultsOf(const GroupAccumulators& accumulators) const {
  std::vector<Value> results;
  resultsOf(accumulators, results);
  return results;
}

void GroupAggregateOperator::resultsOf(const GroupAccumulators& accumulators,
                                       std::vector<Value>& results) const {
  results.resize(spec_->calls.size());
  for (size_t i = 0; i < spec_->calls.size(); ++i) {
    assignAggregateResult(effectiveCalls_[i], accumulators.data() + offsets_[i], results[i]);
  }
}

void GroupAggregateOperator::appendResultValues(const std::vector<Value>& keyValues,
                                                const std::vector<Value>& results,
                                                RowKind kind) {
  int column = 0;
  for (const Value& key : keyValues) output_->mutableColumn(column++).appendValue(key);
  for (const Value& result : results) output_->mutableColumn(column++).appendValue(result);
  output_->mutableRowKinds().push_back(kind);
}

void GroupAggregateOperator::appendResult(const vector::Chunk& chunk, int64_t row,
                                          const std::vector<Value>& results, RowKind kind) {
  int column = 0;
  for (int key : spec_->groupingColumns) {
    output_->mutableColumn(column++).appendFrom(chunk.column(key), row);  // no Value made
  }
  for (const Value& result : results) output_->mutableColumn(column++).appendValue(result);
  output_->mutableRowKinds().push_back(kind);
}

void GroupAggregateOperator::bufferForMiniBatch(vector::Chunk chunk) {
  if (chunk.size() == 0) return;
  bundleRows_ += chunk.size();
  if (spec_->phase == AggregatePhase::kLocal) {
    processChunkInBatchMode(chunk);  // folded at once: the bundle keeps accumulators, not rows
  } else {
    bundle_.push_back(std::move(chunk));
  }
  if (bundleRows_ >= spec_->miniBatchSize) {
    flush();
  } else if (!bundleTimerPending_) {
    bundleTimerPending_ = true;
    ProcessingTimeService& time = *context().processingTimeService;
    time.registerTimer(time.currentProcessingTime() + spec_->miniBatchLatencyMillis,
                       [this](int64_t) {
                         bundleTimerPending_ = false;
                         if (!closed_) flush();
                       });
  }
}

void GroupAggregateOperator::flush() {
  if (spec_->phase == AggregatePhase::kLocal) {
    flushPartials();
  } else {
    flushBundle();
  }
}

void GroupAggregateOperator::flushPartials() {
  for (const auto& [key, group] : batchGroups_) {
    int column = 0;
    for (const Value& value : group.keyValues) output_->mutableColumn(column++).appendValue(value);
    for (const Value& value : group.accumulators) output_->mutableColumn(column++).appendValue(value);
    output_->mutableRowKinds().push_back(RowKind::INSERT);
    if (output_->size() >= static_cast<int64_t>(kDefaultBatchSize)) emitOutput();
  }
  clearBatchGroups();
  bundleRows_ = 0;
  emitOutput();
}

void GroupAggregateOperator::processBatch(int, BatchPtr batch) {
  for (vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    if (miniBatch() || (spec_->phase == AggregatePhase::kLocal && !batchMode_)) {
      bufferForMiniBatch(std::move(chunk));
      continue;
    }
    if (batchMode_) {
      processChunkInBatchMode(chunk);
    } else {
      processChunk(chunk);
    }
  }
  emitOutput();
}

void GroupAggregateOperator::processChunk(const vector::Chunk& chunk) {
  for (int64_t row = 0; row < chunk.size(); ++row) {
    keyBytes_.clear();
    vector::appendKeyBytes(chunk, spec_->groupingColumns, row, keyBytes_);
    const RowRef only{&chunk, row};
    updateGroup(keyBytes_, &only, 1);
    if (output_->size() >= static_cast<int64_t>(kDefaultBatchSize)) emitOutput();
  }
}

void GroupAggregateOperator::updateGroup(const std::string& key, const RowRef* rows,
                                         size_t count) {
  stateBackend_->setCurrentKey(key, assignToKeyGroup(key, context().maxParallelism));
  // The group's accumulators, changed in place in the state where the backend allows it.
  GroupAccumulators* accumulators = accumulatorState_->valuePointer();
  std::optional<GroupAccumulators> copy;
  if (!accumulators) {
    copy = accumulatorState_->value();
    if (copy) accumulators = &*copy;
  }
  const bool existed = accumulators != nullptr;
  std::vector<Value>& previousResults = previousResults_;
  if (existed) resultsOf(*accumulators, previousResults);
  std::fill(touched_.begin(), touched_.end(), 0);
  for (size_t i = 0; i < count; ++i) {
    const bool retract = !isAccumulate(rows[i].chunk->rowKind(rows[i].row));
    if (accumulators == nullptr) {
      if (retract) continue;  // retraction of a group never seen: nothing to undo
      copy = newAccumulators();
      accumulators = &*copy;
    }
    accumulateRow(*rows[i].chunk, rows[i].row, *accumulators, retract);
  }
  if (accumulators == nullptr) return;
  // The key's columns come from its last row.
  const vector::Chunk& keyChunk = *rows[count - 1].chunk;
  const int64_t keyRow = rows[count - 1].row;
  if (accumulators->back().get<int64_t>() > 0) {
    std::vector<Value>& results = results_;
    if (!existed) {
      resultsOf(*accumulators, results);
      appendResult(keyChunk, keyRow, results, RowKind::INSERT);
    } else {
      // Only the calls whose accumulators took a row can have a new result.
      bool changed = false;
      results.resize(spec_->calls.size());
      for (size_t i = 0; i < spec_->calls.size(); ++i) {
        if (touched_[i] == 0) {
          results[i] = previousResults[i];
          continue;
        }
        assignAggregateResult(effectiveCalls_[i], accumulators->data() + offsets_[i], results[i]);
        changed = changed || results[i] != previousResults[i];
      }
      if (changed) {
        if (spec_->generateUpdateBefore) {
          appendResult(keyChunk, keyRow, previousResults, RowKind::UPDATE_BEFORE);
        }
        appendResult(keyChunk, keyRow, results, RowKind::UPDATE_AFTER);
      }
    }
    if (copy) accumulatorState_->update(std::move(*copy));
  } else {
    if (existed) appendResult(keyChunk, keyRow, previousResults, RowKind::DELETE);
    accumulatorState_->clear();
  }
}

void GroupAggregateOperator::flushBundle() {
  if (bundle_.empty()) return;
  // The rows of each key, keys in order of their first row; each key then updates once.
  absl::flat_hash_map<std::string, size_t> keyIndex;
  std::vector<std::pair<std::string, std::vector<RowRef>>> keys;
  for (const vector::Chunk& chunk : bundle_) {
    for (int64_t row = 0; row < chunk.size(); ++row) {
      keyBytes_.clear();
      vector::appendKeyBytes(chunk, spec_->groupingColumns, row, keyBytes_);
      auto [position, inserted] = keyIndex.try_emplace(keyBytes_, keys.size());
      if (inserted) keys.emplace_back(keyBytes_, std::vector<RowRef>{});
      keys[position->second].second.push_back(RowRef{&chunk, row});
    }
  }
  for (const auto& [key, rows] : keys) {
    updateGroup(key, rows.data(), rows.size());
    if (output_->size() >= static_cast<int64_t>(kDefaultBatchSize)) emitOutput();
  }
  bundle_.clear();
  bundleRows_ = 0;
  emitOutput();
}

void GroupAggregateOperator::processWatermark(Watermark watermark) {
  flush();
  output().emitWatermark(watermark);
}

void GroupAggregateOperator::close() { closed_ = true; }

void GroupAggregateOperator::prepareSnapshotPreBarrier(int64_t /*checkpointId*/) {
  if (batchMode_) return;
  if (miniBatch() || spec_->phase == AggregatePhase::kLocal) flush();
}

int32_t GroupAggregateOperator::addBatchGroup(const vector::Chunk& chunk, int64_t row) {
  BatchGroup group;
  for (int column : spec_->groupingColumns) group.keyValues.push_back(chunk.column(column).valueAt(row));
  group.accumulators = newAccumulators();
  batchGroups_.emplace_back(keyBytes_, std::move(group));
  return static_cast<int32_t>(batchGroups_.size() - 1);
}

void GroupAggregateOperator::clearBatchGroups() {
  batchGroups_.clear();
  batchGroupIndex_.clear();
  integerGroupIndex_.clear();
  nullKeyGroup_ = -1;
}

void GroupAggregateOperator::processChunkInBatchMode(const vector::Chunk& chunk) {
  if (integerKeyColumn_ >= 0) {
    // One integer key: looked up by value; the key bytes are made for a new group only.
    const vector::Vector& key = chunk.column(integerKeyColumn_);
    for (int64_t row = 0; row < chunk.size(); ++row) {
      int32_t* group = &nullKeyGroup_;
      if (!key.isNull(row)) group = &integerGroupIndex_.try_emplace(integerAt(key, row), -1).first->second;
      if (*group < 0) {
        keyBytes_.clear();
        vector::appendKeyBytes(chunk, spec_->groupingColumns, row, keyBytes_);
        *group = addBatchGroup(chunk, row);
      }
      accumulateRow(chunk, row, batchGroups_[static_cast<size_t>(*group)].second.accumulators,
                    !isAccumulate(chunk.rowKind(row)));
    }
    return;
  }
  for (int64_t row = 0; row < chunk.size(); ++row) {
    keyBytes_.clear();
    vector::appendKeyBytes(chunk, spec_->groupingColumns, row, keyBytes_);
    auto [position, inserted] = batchGroupIndex_.try_emplace(keyBytes_, batchGroups_.size());
    if (inserted) addBatchGroup(chunk, row);
    accumulateRow(chunk, row, batchGroups_[position->second].second.accumulators,
                  !isAccumulate(chunk.rowKind(row)));
  }
}

void GroupAggregateOperator::finish() {
  if (!batchMode_ || spec_->phase == AggregatePhase::kLocal) {
    flush();
    return;
  }
  std::sort(batchGroups_.begin(), batchGroups_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [key, group] : batchGroups_) {
    if (group.accumulators.back().get<int64_t>() <= 0) continue;
    appendResultValues(group.keyValues, resultsOf(group.accumulators), RowKind::INSERT);
    if (output_->size() >= static_cast<int64_t>(kDefaultBatchSize)) emitOutput();
  }
  // A global aggregate (no grouping columns) over empty input still has one row in SQL.
  if (batchGroups_.empty() && spec_->groupingColumns.empty() && context().subtaskIndex == 0) {
    appendResultValues({}, resultsOf(newAccumulators()), RowKind::INSERT);
  }
  clearBatchGroups();
  emitOutput();
}

void GroupAggregateOperator::emitOutput() { emitChunk(output_, output()); }

}  // namespace eddy::runtime::operators
