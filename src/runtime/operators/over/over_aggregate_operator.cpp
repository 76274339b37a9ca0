#include "runtime/operators/over/over_aggregate_operator.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <numeric>
#include <utility>

#include "common/check.h"
#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "eddy/state/operator_state_store.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/types/type_serializer.h"
#include "runtime/operators/chunk_exchange.h"
#include "runtime/operators/window/window_spec.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using function::accumulate;
using function::Accumulator;
using function::AggregateCall;
using function::AggregateKind;
using function::aggregateResult;
using function::createAccumulator;

using relational::OverFrameUnit;
using relational::SortKey;

namespace {

/// a + b for b >= 0, saturating at Watermark::kMax (times near the end of time stay ordered).
int64_t saturatingAdd(int64_t a, int64_t b) {
  return a > Watermark::kMax - b ? Watermark::kMax : a + b;
}

/// Feeds one row to every call, adding (retract = false) or removing it: `valueOf(column)`
/// reads the row's value of an input column. A call with a FILTER column sees only rows where
/// it is TRUE; COUNT(*) counts a constant.
template <typename ValueOf>
void accumulateCalls(const std::vector<AggregateCall>& calls,
                     std::vector<Accumulator>& accumulators, bool retract, ValueOf&& valueOf) {
  static const Value kCountStarInput(int64_t{1});
  for (size_t i = 0; i < calls.size(); ++i) {
    const AggregateCall& call = calls[i];
    if (call.filterColumn >= 0) {
      const Value& filter = valueOf(call.filterColumn);
      if (filter.isNull() || !filter.get<bool>()) continue;
    }
    accumulate(call, accumulators[i],
               call.argumentColumn >= 0 ? valueOf(call.argumentColumn) : kCountStarInput, retract);
  }
}

template <typename T>
void appendFixed(const vector::Vector& from, int64_t row, vector::Vector& to) {
  to.append<T>(from.data<T>()[row]);
}

/// Appends value `row` of `from` to `to`, a vector of the same layout, without boxing it.
void appendValueOf(const vector::Vector& from, int64_t row, vector::Vector& to) {
  using vector::PhysicalLayout;
  if (from.isNull(row)) {
    to.appendNull();
    return;
  }
  switch (from.layout()) {
    case PhysicalLayout::kBoolean:
      return appendFixed<bool>(from, row, to);
    case PhysicalLayout::kInt8:
      return appendFixed<int8_t>(from, row, to);
    case PhysicalLayout::kInt16:
      return appendFixed<int16_t>(from, row, to);
    case PhysicalLayout::kInt32:
      return appendFixed<int32_t>(from, row, to);
    case PhysicalLayout::kInt64:
      return appendFixed<int64_t>(from, row, to);
    case PhysicalLayout::kFloat:
      return appendFixed<float>(from, row, to);
    case PhysicalLayout::kDouble:
      return appendFixed<double>(from, row, to);
    case PhysicalLayout::kInt128:
      return appendFixed<__int128>(from, row, to);
    case PhysicalLayout::kTimestamp:
      return to.appendTimestamp(from.data<int64_t>()[row], from.nanosOfMillisecond()[row]);
    case PhysicalLayout::kVariableWidth:
      return to.appendString(from.stringAt(row));
    case PhysicalLayout::kBoxed:
      return to.appendBoxed(from.boxedAt(row));
  }
}

void clearChunk(vector::Chunk& chunk) {
  for (int column = 0; column < chunk.columnCount(); ++column) {
    chunk.mutableColumn(column).resize(0);
  }
  chunk.mutableRowKinds().clear();
}

}  // namespace

OverAggregateOperator::OverAggregateOperator(std::shared_ptr<const OverAggregateSpec> spec)
    : spec_(std::move(spec)) {
  const auto invalid = [](const std::string& why) {
    throw InternalError(fmt::format("Invalid over aggregate: {}.", why));
  };
  const auto& inputFields = spec_->inputRowType->getFields();
  inputColumnCount_ = static_cast<int>(inputFields.size());
  const auto isInputColumn = [this](int column) {
    return column >= 0 && column < inputColumnCount_;
  };
  for (int key : spec_->partitionKeys) {
    if (!isInputColumn(key)) invalid(fmt::format("partition key column {} is out of range", key));
  }
  generalOrder_ = !spec_->processingTime && spec_->orderColumn < 0;
  if (generalOrder_) {
    for (const SortKey& key : spec_->orderKeys) {
      if (!isInputColumn(key.column)) {
        invalid(fmt::format("order key column {} is out of range", key.column));
      }
      orderColumns_.push_back(vector::SortColumn{key.column, key.ascending, key.nullsFirst});
    }
    if (spec_->unit == OverFrameUnit::RANGE && spec_->preceding && *spec_->preceding != 0) {
      invalid("a RANGE frame of an offset over order keys that are not a time attribute");
    }
  } else if (!spec_->processingTime) {
    if (!isInputColumn(spec_->orderColumn)) {
      invalid(fmt::format("order column {} is out of range", spec_->orderColumn));
    }
    vector::PhysicalLayout layout = vector::physicalLayoutOf(*inputFields[spec_->orderColumn].type);
    if (layout != vector::PhysicalLayout::kTimestamp && layout != vector::PhysicalLayout::kInt64) {
      invalid(fmt::format("order column {} ({}) is not a time attribute",
                          inputFields[spec_->orderColumn].name,
                          inputFields[spec_->orderColumn].type->toString()));
    }
  }
  if (spec_->preceding) {
    if (*spec_->preceding < 0) invalid(fmt::format("{} PRECEDING", *spec_->preceding));
    bounded_ = true;
    preceding_ = *spec_->preceding;
  }
  positionInFrameRow_.assign(static_cast<size_t>(inputColumnCount_), -1);
  const auto use = [&](int column) {
    if (column < 0) return;
    if (!isInputColumn(column))
      invalid(fmt::format("call input column {} is out of range", column));
    if (positionInFrameRow_[column] >= 0) return;
    positionInFrameRow_[column] = static_cast<int>(frameColumns_.size());
    frameColumns_.push_back(column);
  };
  for (const AggregateCall& call : spec_->calls) {
    use(call.argumentColumn);
    use(call.filterColumn);
  }
  const auto& outputFields = spec_->outputRowType->getFields();
  if (outputFields.size() != inputFields.size() + spec_->calls.size()) {
    invalid(fmt::format("output type {} does not have the {} input columns and {} calls",
                        spec_->outputRowType->toString(), inputFields.size(), spec_->calls.size()));
  }
  for (size_t i = 0; i < inputFields.size(); ++i) {
    if (!(*outputFields[i].type->copy(true) == *inputFields[i].type->copy(true))) {
      invalid(fmt::format("output column {} ({}) is not input column {} ({})", i,
                          outputFields[i].type->toString(), i, inputFields[i].type->toString()));
    }
  }
  results_.resize(spec_->calls.size());
  for (size_t i = 0; i < spec_->calls.size(); ++i) {
    if (spec_->calls[i].kind == AggregateKind::LAG) lagCalls_.push_back(i);
    accumulatorValueCount_ += createAccumulator(spec_->calls[i]).size();
  }
}

OverAggregateOperator::~OverAggregateOperator() = default;

void OverAggregateOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
  eventTime_ = !batchMode_ && !spec_->processingTime;
  bufferRows_ = batchMode_ || eventTime_;
  if (spec_->processingTime && context.processingTimeService == nullptr) {
    throw InternalError("A processing-time over aggregate needs a ProcessingTimeService.");
  }
  if (generalOrder_ && !batchMode_) {
    throw InternalError("An over aggregate not ordered by a time attribute runs in BATCH only.");
  }
  eventTime_ = eventTime_ && !generalOrder_;
  output_ = std::make_unique<vector::Chunk>(spec_->outputRowType);
  if (batchMode_) return;
  // Checkpoints: the watermark and the partitions come back from the state stores (which the
  // task restored from the snapshot) and go into every snapshot.
  if (eventTime_) {
    // One value per old subtask; from the lowest, no row accepted before is late.
    watermarkState_ = context.operatorStateStore().getUnionListState(
        ListStateDescriptor<int64_t>(kWatermarkStateName));
    const std::vector<int64_t> restored = watermarkState_->get();
    if (!restored.empty()) currentWatermark_ = *std::min_element(restored.begin(), restored.end());
  }
  context.keyedStateBackend().registerRawKeyedState(kPartitionsStateName, state::StateKind::kValue,
                                                    partitionsState_);
  // Registered with or without a TTL, so a snapshot taken with one is claimed without one.
  context.keyedStateBackend().registerRawKeyedState(kLastWritesStateName, state::StateKind::kValue,
                                                    lastWritesState_);
  // Both states are restored now: a last write whose partition was not written (it expired
  // between the two states' snapshots) has nothing to stamp.
  restoredLastWrites_.clear();
}

void OverAggregateOperator::snapshotState(StateSnapshotContext& /*context*/) {
  if (watermarkState_ != nullptr) watermarkState_->update({currentWatermark_});
}

void OverAggregateOperator::processBatch(int, BatchPtr batch) {
  for (const vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    processChunk(chunk);
  }
}

void OverAggregateOperator::processChunk(const vector::Chunk& chunk) {
  if (chunk.size() == 0) return;
  // Processing time: every row of a chunk arrives at the same instant.
  int64_t arrivalTime = 0;
  if (spec_->processingTime) {
    lastArrivalTime_ =
        std::max(lastArrivalTime_, context().processingTimeService->currentProcessingTime());
    arrivalTime = lastArrivalTime_;
  }
  const vector::Vector* timeColumn =
      spec_->processingTime || generalOrder_ ? nullptr : &chunk.column(spec_->orderColumn);
  const bool rangeBounded = bounded_ && spec_->unit == OverFrameUnit::RANGE;
  const int64_t now = ttl() ? context().clock->currentTimeMillis() : 0;
  if (ttl()) expireIdlePartitionsIncrementally(chunk.size() * kTtlCleanupPartitionsPerRow, now);
  for (int64_t row = 0; row < chunk.size(); ++row) {
    int64_t time = arrivalTime;
    if (generalOrder_) {
      // The row's order key bytes, numbered; finish() replaces the numbers by ranks.
      time = static_cast<int64_t>(orderBytes_.size());
      orderBytes_.emplace_back();
      vector::appendSortKeyBytes(chunk, orderColumns_, row, orderBytes_.back());
    } else if (timeColumn) {
      time = WindowAssigner::rowTime(*timeColumn, row);
    }
    if (eventTime_ && time <= currentWatermark_) {
      countLateRow();
      continue;
    }
    keyBytes_.clear();
    vector::appendKeyBytes(chunk, spec_->partitionKeys, row, keyBytes_);
    const size_t partitionsBefore = partitionIndex_.size();
    int32_t index = findOrAddPartition();
    const bool existed = partitionIndex_.size() == partitionsBefore;
    if (existed && expired(partitions_[static_cast<size_t>(index)], now)) {
      freePartition(index);  // its next row (this one) starts it afresh
      index = findOrAddPartition();
    }
    Partition& partition = partitions_[static_cast<size_t>(index)];
    partition.lastWrite = now;
    if (!bufferRows_) {
      const auto position = static_cast<int32_t>(row);
      processPeers(partition, chunk, &position, 1, time);
      if (rangeBounded) scheduleAt(index, saturatingAdd(partition.frame.frontTime(), preceding_));
      continue;
    }
    if (partition.waitingRows == nullptr) {
      partition.waitingRows = std::make_unique<vector::Chunk>(spec_->inputRowType);
    }
    for (int column = 0; column < inputColumnCount_; ++column) {
      appendValueOf(chunk.column(column), row, partition.waitingRows->mutableColumn(column));
    }
    partition.waitingRows->mutableRowKinds().push_back(RowKind::INSERT);
    partition.waitingTimes.push_back(time);
    ++stateRows_;
    scheduleAt(index, time);
  }
  emitOutput();
}

int32_t OverAggregateOperator::findOrAddPartition() {
  auto [position, inserted] = partitionIndex_.try_emplace(keyBytes_, 0);
  if (!inserted) return position->second;
  int32_t index = 0;
  if (!freePartitions_.empty()) {
    index = freePartitions_.back();
    freePartitions_.pop_back();
  } else {
    index = static_cast<int32_t>(partitions_.size());
    partitions_.emplace_back();
  }
  position->second = index;
  Partition& partition = partitions_[static_cast<size_t>(index)];
  partition.keyBytes = keyBytes_;
  partition.inUse = true;
  partition.accumulators.reserve(spec_->calls.size());
  for (const AggregateCall& call : spec_->calls) {
    partition.accumulators.push_back(createAccumulator(call));
  }
  return index;
}

void OverAggregateOperator::expireIdlePartitionsIncrementally(int64_t visits, int64_t now) {
  visits = std::min(visits, static_cast<int64_t>(partitions_.size()));
  for (int64_t visit = 0; visit < visits; ++visit) {
    if (ttlCleanupCursor_ >= partitions_.size()) ttlCleanupCursor_ = 0;
    const size_t index = ttlCleanupCursor_++;
    if (expired(partitions_[index], now)) freePartition(static_cast<int32_t>(index));
  }
}

void OverAggregateOperator::freePartition(int32_t index) {
  Partition& partition = partitions_[static_cast<size_t>(index)];
  EDDY_CHECK(partition.inUse);
  stateRows_ -= partition.frame.size() + partition.waitingTimes.size();
  partitionIndex_.erase(partition.keyBytes);
  partition = Partition{};  // not scheduled: its queue entries are stale now
  freePartitions_.push_back(index);
}

void OverAggregateOperator::processPeers(Partition& partition, const vector::Chunk& source,
                                         const int32_t* rows, int64_t count, int64_t time) {
  const auto computeResults = [&] {
    for (size_t i = 0; i < spec_->calls.size(); ++i) {
      results_[i] = aggregateResult(spec_->calls[i], partition.accumulators[i]);
    }
  };
  if (spec_->unit == OverFrameUnit::RANGE) {
    // Rows more than `preceding` ms before `time` leave the frame; all peers enter it.
    if (bounded_) {
      while (!partition.frame.empty() &&
             saturatingAdd(partition.frame.frontTime(), preceding_) < time) {
        retractOldestFrameRow(partition);
      }
    }
    if (batchMode_ && !lagCalls_.empty()) {
      // Flink's batch LAG is by row whatever the frame (its OffsetOverFrame): each peer sees
      // the rows before it, not the peers after it; the other calls see all peers.
      const size_t lags = lagCalls_.size();
      lagValues_.clear();
      for (int64_t i = 0; i < count; ++i) {
        addRow(partition, source, rows[i], time);
        for (size_t call : lagCalls_) {
          lagValues_.push_back(aggregateResult(spec_->calls[call], partition.accumulators[call]));
        }
      }
      computeResults();
      for (int64_t i = 0; i < count; ++i) {
        for (size_t k = 0; k < lags; ++k) {
          results_[lagCalls_[k]] = lagValues_[static_cast<size_t>(i) * lags + k];
        }
        appendOutput(source, rows[i]);
      }
      return;
    }
    for (int64_t i = 0; i < count; ++i) addRow(partition, source, rows[i], time);
    computeResults();
    for (int64_t i = 0; i < count; ++i) appendOutput(source, rows[i]);
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    if (bounded_) {
      while (partition.frame.size() > static_cast<uint64_t>(preceding_)) {
        retractOldestFrameRow(partition);
      }
    }
    addRow(partition, source, rows[i], time);
    computeResults();
    appendOutput(source, rows[i]);
  }
}

void OverAggregateOperator::processWaitingRows(Partition& partition, int64_t time) {
  const std::vector<int64_t>& times = partition.waitingTimes;
  const size_t waiting = times.size();
  if (waiting == 0) return;
  // Processing order: by time, then arrival (the index: waiting rows are kept in arrival order
  // among equal times, see below).
  order_.resize(waiting);
  std::iota(order_.begin(), order_.end(), 0);
  if (!std::is_sorted(times.begin(), times.end())) {
    std::sort(order_.begin(), order_.end(), [&times](int32_t left, int32_t right) {
      return times[left] < times[right] || (times[left] == times[right] && left < right);
    });
  }
  const auto due = static_cast<size_t>(
      std::partition_point(order_.begin(), order_.end(),
                           [&times, time](int32_t row) { return times[row] <= time; }) -
      order_.begin());
  if (due == 0) return;
  for (size_t begin = 0; begin < due;) {
    const int64_t peerTime = times[order_[begin]];
    size_t end = begin + 1;
    while (end < due && times[order_[end]] == peerTime) ++end;
    processPeers(partition, *partition.waitingRows, order_.data() + begin,
                 static_cast<int64_t>(end - begin), peerTime);
    begin = end;
  }
  stateRows_ -= due;
  if (due == waiting) {
    clearChunk(*partition.waitingRows);
    partition.waitingTimes.clear();
    return;
  }
  // The rows left keep processing order, which is arrival order among equal times; rows that
  // arrive later are appended behind them.
  const int32_t* rest = order_.data() + due;
  const auto restCount = static_cast<int64_t>(waiting - due);
  *partition.waitingRows = vector::gather(*partition.waitingRows, rest, restCount);
  remainingTimes_.clear();
  for (int64_t i = 0; i < restCount; ++i) remainingTimes_.push_back(times[rest[i]]);
  partition.waitingTimes.swap(remainingTimes_);
}

void OverAggregateOperator::releaseUntil(int64_t time) {
  due_.clear();
  while (!dueQueue_.empty() && dueQueue_.top().time <= time) {
    const DueEntry entry = dueQueue_.top();
    dueQueue_.pop();
    Partition& partition = partitions_[static_cast<size_t>(entry.partition)];
    if (!partition.inUse || !partition.scheduled || partition.scheduledTime != entry.time) {
      continue;  // stale
    }
    partition.scheduled = false;
    due_.push_back(entry.partition);
  }
  std::sort(due_.begin(), due_.end(), [this](int32_t left, int32_t right) {
    return partitions_[static_cast<size_t>(left)].keyBytes <
           partitions_[static_cast<size_t>(right)].keyBytes;
  });
  for (int32_t index : due_) {
    Partition& partition = partitions_[static_cast<size_t>(index)];
    processWaitingRows(partition, time);
    if (bounded_ && spec_->unit == OverFrameUnit::RANGE) expireFrame(partition, time);
    if (bounded_ && partition.frame.empty() && partition.waitingTimes.empty()) {
      freePartition(index);
    } else if (std::optional<int64_t> next = dueTime(partition)) {
      scheduleAt(index, *next);
    }
  }
  if (time == Watermark::kMax) {
    // End of input: no row follows, every partition's state is done with.
    partitions_.clear();
    freePartitions_.clear();
    partitionIndex_.clear();
    dueQueue_ = {};
    stateRows_ = 0;
  }
}

void OverAggregateOperator::expireFrame(Partition& partition, int64_t time) {
  // Every future row comes after `time`: its frame starts after time - preceding.
  while (!partition.frame.empty() &&
         saturatingAdd(partition.frame.frontTime(), preceding_) <= time) {
    retractOldestFrameRow(partition);
  }
}

std::optional<int64_t> OverAggregateOperator::dueTime(const Partition& partition) const {
  std::optional<int64_t> due;
  if (!partition.waitingTimes.empty()) {
    due = *std::min_element(partition.waitingTimes.begin(), partition.waitingTimes.end());
  }
  if (bounded_ && spec_->unit == OverFrameUnit::RANGE && !partition.frame.empty()) {
    const int64_t expiry = saturatingAdd(partition.frame.frontTime(), preceding_);
    due = due ? std::min(*due, expiry) : expiry;
  }
  return due;
}

void OverAggregateOperator::scheduleAt(int32_t index, int64_t time) {
  Partition& partition = partitions_[static_cast<size_t>(index)];
  if (partition.scheduled && partition.scheduledTime <= time) return;
  partition.scheduled = true;
  partition.scheduledTime = time;
  dueQueue_.push(DueEntry{time, index});
  // Processing time: a partition due at t is released once the clock passes t.
  if (!bufferRows_) requestTimer(saturatingAdd(time, 1));
}

void OverAggregateOperator::requestTimer(int64_t time) {
  if (time >= nextTimerTime_) return;
  nextTimerTime_ = time;
  context().processingTimeService->registerTimer(time,
                                                 [this](int64_t now) { onProcessingTime(now); });
}

void OverAggregateOperator::onProcessingTime(int64_t time) {
  if (time >= nextTimerTime_) nextTimerTime_ = Watermark::kMax;
  releaseUntil(time - 1);
  emitOutput();
  // Entries scheduled while an earlier timer was pending have none of their own.
  if (!dueQueue_.empty()) requestTimer(saturatingAdd(dueQueue_.top().time, 1));
}

void OverAggregateOperator::processWatermark(Watermark watermark) {
  if (eventTime_ && watermark.timestamp > currentWatermark_) {
    currentWatermark_ = watermark.timestamp;
    releaseUntil(currentWatermark_);
    emitOutput();
  }
  output().emitWatermark(watermark);
}

void OverAggregateOperator::finish() {
  if (generalOrder_) {
    // Each row's time becomes the rank of its order key bytes among all rows' (peers share
    // it), so the rows are processed in key order, peers in arrival order.
    std::vector<int64_t> byKey(orderBytes_.size());
    std::iota(byKey.begin(), byKey.end(), int64_t{0});
    std::sort(byKey.begin(), byKey.end(), [this](int64_t a, int64_t b) {
      return orderBytes_[static_cast<size_t>(a)] < orderBytes_[static_cast<size_t>(b)];
    });
    std::vector<int64_t> rank(orderBytes_.size());
    int64_t current = -1;
    for (size_t i = 0; i < byKey.size(); ++i) {
      if (i == 0 || orderBytes_[static_cast<size_t>(byKey[i])] !=
                        orderBytes_[static_cast<size_t>(byKey[i - 1])]) {
        ++current;
      }
      rank[static_cast<size_t>(byKey[i])] = current;
    }
    for (Partition& partition : partitions_) {
      if (!partition.inUse) continue;
      for (int64_t& time : partition.waitingTimes) time = rank[static_cast<size_t>(time)];
    }
    orderBytes_.clear();
    orderBytes_.shrink_to_fit();
  }
  // Bounded input ended: every accepted row reaches the output, whatever the clocks say.
  releaseUntil(Watermark::kMax);
  emitOutput();
}

void OverAggregateOperator::addRow(Partition& partition, const vector::Chunk& source, int64_t row,
                                   int64_t time) {
  rowValues_.clear();
  for (int column : frameColumns_) rowValues_.push_back(source.column(column).valueAt(row));
  accumulateCalls(spec_->calls, partition.accumulators, /*retract=*/false,
                  [this](int column) -> const Value& {
                    return rowValues_[static_cast<size_t>(positionInFrameRow_[column])];
                  });
  if (!bounded_) return;
  FrameRows& frame = partition.frame;
  frame.times.push_back(time);
  for (Value& value : rowValues_) frame.values.push_back(std::move(value));
  ++stateRows_;
}

void OverAggregateOperator::retractOldestFrameRow(Partition& partition) {
  FrameRows& frame = partition.frame;
  EDDY_CHECK(!frame.empty());
  const size_t stride = frameColumns_.size();
  Value* values = frame.values.data() + frame.head * stride;
  accumulateCalls(spec_->calls, partition.accumulators, /*retract=*/true,
                  [&](int column) -> const Value& {
                    return values[static_cast<size_t>(positionInFrameRow_[column])];
                  });
  for (size_t i = 0; i < stride; ++i) values[i] = Value();  // free strings and nested values now
  ++frame.head;
  --stateRows_;
  if (frame.head == frame.times.size()) {
    frame.times.clear();
    frame.values.clear();
    frame.head = 0;
  } else if (frame.head >= 64 && frame.head * 2 >= frame.times.size()) {
    // Drop the retracted prefix, amortized O(1) per row.
    frame.times.erase(frame.times.begin(),
                      frame.times.begin() + static_cast<std::ptrdiff_t>(frame.head));
    frame.values.erase(frame.values.begin(),
                       frame.values.begin() + static_cast<std::ptrdiff_t>(frame.head * stride));
    frame.head = 0;
  }
}

void OverAggregateOperator::appendOutput(const vector::Chunk& source, int64_t row) {
  for (int column = 0; column < inputColumnCount_; ++column) {
    appendValueOf(source.column(column), row, output_->mutableColumn(column));
  }
  for (size_t i = 0; i < results_.size(); ++i) {
    output_->mutableColumn(inputColumnCount_ + static_cast<int>(i)).appendValue(results_[i]);
  }
  output_->mutableRowKinds().push_back(RowKind::INSERT);
  if (output_->size() >= static_cast<int64_t>(kDefaultBatchSize)) emitOutput();
}

void OverAggregateOperator::emitOutput() { emitChunk(output_, output()); }

void OverAggregateOperator::countLateRow() {
  if (context().metrics != nullptr) {
    context().metrics->numLateRecordsDropped.fetch_add(1, std::memory_order_relaxed);
  }
}

// --- Checkpoints ---
//
// A key group's block body (docs/state_format.md, "Over aggregate"): the ValueState payload,
// keyCount:varint then per partition keyBytes:bytes value:bytes, the value
//   accumulators:valueList valuesPerFrameRow:varint frameRowCount:varint
//   ( time:i64 Value{valuesPerFrameRow} ){frameRowCount}
//   waitingRowCount:varint ( time:i64 row ){waitingRowCount}
// where a waiting row is columnCount:varint Value{columnCount} (stored_row_codec.h).

struct OverAggregateOperator::RestoredPartition {
  std::string keyBytes;
  std::vector<Accumulator> accumulators;
  FrameRows frame;
  std::vector<int64_t> waitingTimes;
  int64_t firstWaitingRow = 0;  // its first waiting row among the staged rows
};

void OverAggregateOperator::PartitionsState::snapshotKeyGroups(
    KeyGroupRange range, int maxParallelism, std::vector<std::string>& bodies) const {
  over_->snapshotPartitions(range, maxParallelism, bodies);
}

void OverAggregateOperator::PartitionsState::restoreKeyGroup(int keyGroup, std::string_view body) {
  over_->restorePartitions(keyGroup, body);
}

std::vector<SnapshotKey> OverAggregateOperator::snapshotKeys(KeyGroupRange range,
                                                             int maxParallelism) const {
  // A partition the TTL has expired would be forgotten when its key is next seen: left out.
  const int64_t now = ttl() ? context().clock->currentTimeMillis() : 0;
  std::vector<SnapshotKey> keys;  // slot: the partition's index in partitions_
  for (size_t index = 0; index < partitions_.size(); ++index) {
    const Partition& partition = partitions_[index];
    if (!partition.inUse || expired(partition, now)) continue;
    const int keyGroup = assignToKeyGroup(partition.keyBytes, maxParallelism);
    if (range.contains(keyGroup)) {
      keys.push_back(SnapshotKey{keyGroup, partition.keyBytes, static_cast<int32_t>(index)});
    }
  }
  sortSnapshotKeys(keys);
  return keys;
}

void OverAggregateOperator::LastWritesState::snapshotKeyGroups(
    KeyGroupRange range, int maxParallelism, std::vector<std::string>& bodies) const {
  if (!over_->ttl()) return;
  writeKeyGroupBodies(over_->snapshotKeys(range, maxParallelism), range, bodies,
                      [&](const SnapshotKey& key, std::string& body) {
                        state::writeSerializedValue<int64_t, TypeSerializer<int64_t>>(
                            over_->partitions_[static_cast<size_t>(key.slot)].lastWrite, body);
                      });
}

void OverAggregateOperator::LastWritesState::restoreKeyGroup(int keyGroup, std::string_view body) {
  over_->restoreLastWrites(keyGroup, body);
}

void OverAggregateOperator::restoreLastWrites(int keyGroup, std::string_view body) {
  try {
    readKeyedInt64Body(
        body, keyGroup, context().maxParallelism,
        [&](std::string_view keyBytes, int64_t lastWrite) {
          if (!ttl()) return;  // restored without a TTL: nothing expires
          const auto found =
              partitionIndex_.find(absl::string_view(keyBytes.data(), keyBytes.size()));
          if (found != partitionIndex_.end()) {
            partitions_[static_cast<size_t>(found->second)].lastWrite = lastWrite;
          } else {
            restoredLastWrites_[std::string(keyBytes)] = lastWrite;  // its partition comes later
          }
        });
  } catch (const std::exception& error) {
    throwUnrestorableState(kLastWritesStateName, context().operatorName, keyGroup, error.what());
  }
}

void OverAggregateOperator::snapshotPartitions(KeyGroupRange range, int maxParallelism,
                                               std::vector<std::string>& bodies) const {
  const std::vector<SnapshotKey> keys = snapshotKeys(range, maxParallelism);
  const size_t stride = frameColumns_.size();
  std::string value;
  writeKeyGroupBodies(keys, range, bodies, [&](const SnapshotKey& key, std::string& body) {
    const Partition& partition = partitions_[static_cast<size_t>(key.slot)];
    value.clear();
    serialization::writeVarint(accumulatorValueCount_, value);
    for (const Accumulator& accumulator : partition.accumulators) {
      for (const Value& part : accumulator) TypeSerializer<Value>::serialize(part, value);
    }
    const FrameRows& frame = partition.frame;
    serialization::writeVarint(stride, value);
    serialization::writeVarint(frame.size(), value);
    for (size_t row = frame.head; row < frame.times.size(); ++row) {
      TypeSerializer<int64_t>::serialize(frame.times[row], value);
      for (size_t i = 0; i < stride; ++i) {
        TypeSerializer<Value>::serialize(frame.values[row * stride + i], value);
      }
    }
    serialization::writeVarint(partition.waitingTimes.size(), value);
    for (size_t row = 0; row < partition.waitingTimes.size(); ++row) {
      TypeSerializer<int64_t>::serialize(partition.waitingTimes[row], value);
      writeStoredRowColumns(*partition.waitingRows, static_cast<int64_t>(row), value);
    }
    state::writeLengthPrefixed(value, body);
  });
}

void OverAggregateOperator::decodePartition(std::string_view value, RestoredPartition& partition,
                                            RestoredRowChunk& waitingRows) const {
  const auto shapeMismatch = [this](const std::string& what) {
    throw ValidationException(fmt::format(
        "Cannot restore state '{}' of operator '{}': the snapshot's partitions have {}; was the "
        "query changed?",
        kPartitionsStateName, context().operatorName, what));
  };
  const uint64_t accumulatorValues = serialization::readVarint(value);
  if (accumulatorValues != accumulatorValueCount_) {
    shapeMismatch(fmt::format("{} accumulator values, the query's calls {}", accumulatorValues,
                              accumulatorValueCount_));
  }
  partition.accumulators.reserve(spec_->calls.size());
  for (const AggregateCall& call : spec_->calls) {
    Accumulator accumulator = createAccumulator(call);
    for (Value& part : accumulator) part = TypeSerializer<Value>::deserialize(value);
    partition.accumulators.push_back(std::move(accumulator));
  }
  const size_t stride = frameColumns_.size();
  const uint64_t valuesPerFrameRow = serialization::readVarint(value);
  if (valuesPerFrameRow != stride) {
    shapeMismatch(fmt::format("{} values per frame row, the query's calls read {}",
                              valuesPerFrameRow, stride));
  }
  const uint64_t frameRows = readCount(value);
  if (frameRows > 0 && !bounded_) throw InternalError("frame rows of an unbounded frame");
  for (uint64_t row = 0; row < frameRows; ++row) {
    partition.frame.times.push_back(TypeSerializer<int64_t>::deserialize(value));
    for (size_t i = 0; i < stride; ++i) {
      partition.frame.values.push_back(TypeSerializer<Value>::deserialize(value));
    }
  }
  const uint64_t waiting = readCount(value);
  if (waiting > 0 && !bufferRows_) throw InternalError("waiting rows of a processing-time frame");
  partition.firstWaitingRow = waitingRows.size();
  for (uint64_t row = 0; row < waiting; ++row) {
    partition.waitingTimes.push_back(TypeSerializer<int64_t>::deserialize(value));
    waitingRows.readRow(value);
  }
  checkFullyRead(value, "a partition");
}

void OverAggregateOperator::restorePartitions(int keyGroup, std::string_view body) {
  // Decoded completely before anything is installed, so a body that does not decode adds
  // nothing.
  std::vector<RestoredPartition> restored;
  RestoredRowChunk waitingRows(spec_->inputRowType);
  try {
    const uint64_t keyCount = readCount(body);
    for (uint64_t k = 0; k < keyCount; ++k) {
      RestoredPartition& partition = restored.emplace_back();
      partition.keyBytes = readKeyOfKeyGroup(body, keyGroup, context().maxParallelism);
      decodePartition(state::readLengthPrefixed(body), partition, waitingRows);
    }
    checkFullyRead(body, "the last partition");
  } catch (const ValidationException&) {
    throw;  // a snapshot of another query, already named
  } catch (const std::exception& error) {
    // Bytes that do not decode: InternalError from the readers, or a corrupted count inside a
    // value that it reserved for (std::length_error, std::bad_alloc).
    throwUnrestorableState(kPartitionsStateName, context().operatorName, keyGroup, error.what());
  }
  RowStore staged(spec_->inputRowType);
  const std::vector<RowRef> waiting = waitingRows.moveInto(staged);
  for (RestoredPartition& restoredPartition : restored) {
    // The restored partition replaces the key's.
    keyBytes_ = restoredPartition.keyBytes;
    if (auto existing = partitionIndex_.find(keyBytes_); existing != partitionIndex_.end()) {
      freePartition(existing->second);
    }
    const int32_t index = findOrAddPartition();
    Partition& partition = partitions_[static_cast<size_t>(index)];
    if (ttl()) {
      // Its last write as restored; without one (a snapshot taken without a TTL), now.
      auto lastWrite = restoredLastWrites_.find(keyBytes_);
      if (lastWrite != restoredLastWrites_.end()) {
        partition.lastWrite = lastWrite->second;
        restoredLastWrites_.erase(lastWrite);
      } else {
        partition.lastWrite = context().clock->currentTimeMillis();
      }
    }
    partition.accumulators = std::move(restoredPartition.accumulators);
    partition.frame = std::move(restoredPartition.frame);
    stateRows_ += partition.frame.size();
    if (spec_->processingTime) {
      for (int64_t time : partition.frame.times) {
        lastArrivalTime_ = std::max(lastArrivalTime_, time);
      }
    }
    if (!restoredPartition.waitingTimes.empty()) {
      partition.waitingRows = std::make_unique<vector::Chunk>(spec_->inputRowType);
      for (size_t i = 0; i < restoredPartition.waitingTimes.size(); ++i) {
        const RowRef row = waiting[static_cast<size_t>(restoredPartition.firstWaitingRow) + i];
        const vector::Chunk& chunk = staged.chunk(row.segment);
        for (int column = 0; column < inputColumnCount_; ++column) {
          appendValueOf(chunk.column(column), row.position,
                        partition.waitingRows->mutableColumn(column));
        }
        partition.waitingRows->mutableRowKinds().push_back(RowKind::INSERT);
      }
      partition.waitingTimes = std::move(restoredPartition.waitingTimes);
      stateRows_ += partition.waitingTimes.size();
    }
    if (std::optional<int64_t> due = dueTime(partition)) scheduleAt(index, *due);
  }
}

}  // namespace eddy::runtime::operators
