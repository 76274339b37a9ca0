#include "runtime/operators/rank/rank_operator.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <utility>

#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "eddy/state/operator_state_store.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/state/state_ttl_config.h"
#include "eddy/types/type_serializer.h"
#include "function/aggregate/aggregate_call.h"
#include "runtime/operators/chunk_exchange.h"
#include "runtime/operators/stored_rows/row_sorter.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using function::compareValues;

using relational::RankKind;
using relational::SortKey;

namespace {
bool isAccumulate(RowKind kind) { return kind == RowKind::INSERT || kind == RowKind::UPDATE_AFTER; }
}  // namespace

RankOperator::RankOperator(std::shared_ptr<const RankSpec> spec)
    : spec_(std::move(spec)), restoredRows_(spec_->inputRowType) {}
RankOperator::~RankOperator() = default;

void RankOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
  stateBackend_ =
      &state::heapKeyedStateBackendOf(context.keyedStateBackend(), context.operatorName);
  ValueStateDescriptor<Rows> firstRows("rows");
  if (ttl()) {
    // Keeping the first row: the row expires (and the key's next row is first again) the TTL
    // after it was written, as Flink's ProcTimeDeduplicateKeepFirstRowFunction.
    firstRows.enableTimeToLive(
        StateTtlConfig::newBuilder(std::chrono::milliseconds(spec_->stateTtlMillis)).build());
  }
  rowsState_ = stateBackend_->getValueState(firstRows);
  store_ = RowStore(spec_->inputRowType);
  pending_ = RowRefOutputQueue(&store_, spec_->outputRowType);
  output_ = std::make_unique<vector::Chunk>(spec_->outputRowType);
  // Checkpoints: the first-row deduplication's rows are the ValueState above; the others' come
  // back from the backend (the rows) and the operator state store (the window's watermark).
  if (batchMode_ || spec_->keepFirstArrival) return;
  if (windowed()) {
    // One value per old subtask; from the lowest, no row accepted before is late.
    watermarkState_ = context.operatorStateStore().getUnionListState(
        ListStateDescriptor<int64_t>(kWatermarkStateName));
    const std::vector<int64_t> restored = watermarkState_->get();
    if (!restored.empty()) currentWatermark_ = *std::min_element(restored.begin(), restored.end());
  }
  restoringInOpen_ = true;
  context.keyedStateBackend().registerRawKeyedState(rowsStateName(), state::StateKind::kList,
                                                    rowsRawState_);
  // Registered with or without a TTL, so a snapshot taken with one is claimed without one.
  if (!windowed()) {
    context.keyedStateBackend().registerRawKeyedState(
        kLastWritesStateName, state::StateKind::kValue, lastWritesRawState_);
  }
  restoringInOpen_ = false;
  storeRestoredRows();
  // Both states are restored now: a last write whose partition was not written (it expired
  // between the two states' snapshots) has nothing to stamp.
  restoredLastWrites_.clear();
}

void RankOperator::snapshotState(StateSnapshotContext& /*context*/) {
  if (watermarkState_ != nullptr) watermarkState_->update({currentWatermark_});
}

size_t RankOperator::stateRows() const {
  size_t rows = 0;
  for (const auto& [key, partition] : partitions_) rows += partition.size();
  return rows + static_cast<size_t>(batchMode_ ? 0 : store_.keptRows());
}

int64_t RankOperator::windowFireTime(const Value& windowEnd) const {
  const int64_t endMillis = windowEnd.get<LocalDateTime>().getMillisecond();
  return (spec_->windowTimeZone ? spec_->windowTimeZone->toEpochMillis(endMillis) : endMillis) - 1;
}

bool RankOperator::less(const std::vector<Value>& a, const std::vector<Value>& b) const {
  for (const SortKey& key : spec_->sortKeys) {
    const Value& x = a[key.column];
    const Value& y = b[key.column];
    if (x.isNull() || y.isNull()) {
      if (x.isNull() && y.isNull()) continue;
      return x.isNull() == key.nullsFirst;
    }
    int order = compareValues(x, y);
    if (order != 0) return key.ascending ? order < 0 : order > 0;
  }
  return false;
}

bool RankOperator::sameKeys(const std::vector<Value>& a, const std::vector<Value>& b) const {
  return !less(a, b) && !less(b, a);
}

template <typename Tie, typename Emit>
void RankOperator::forEachVisible(size_t count, size_t from, Tie&& tie, Emit&& emit) const {
  if (spec_->rankKind == RankKind::ROW_NUMBER) {  // the rank is the position
    const size_t begin = std::max(from, static_cast<size_t>(spec_->rankStart - 1));
    const size_t end =
        static_cast<uint64_t>(spec_->rankEnd) < count ? static_cast<size_t>(spec_->rankEnd) : count;
    for (size_t i = begin; i < end; ++i) emit(i, static_cast<int64_t>(i) + 1);
    return;
  }
  int64_t rank = 0;
  int64_t dense = 0;
  for (size_t i = 0; i < count; ++i) {
    const bool tied = i > 0 && tie(i);
    if (!tied) ++dense;
    if (spec_->rankKind == RankKind::RANK) {
      if (!tied) rank = static_cast<int64_t>(i) + 1;
    } else {
      rank = dense;
    }
    if (rank > spec_->rankEnd) break;
    if (rank >= spec_->rankStart) emit(i, rank);
  }
}

void RankOperator::append(const std::vector<Value>& row, int64_t rank, RowKind kind) {
  int column = 0;
  for (const Value& value : row) output_->mutableColumn(column++).appendValue(value);
  if (spec_->outputRankNumber) output_->mutableColumn(column).appendValue(Value(rank));
  output_->mutableRowKinds().push_back(kind);
  if (output_->size() >= static_cast<int64_t>(kDefaultBatchSize)) emitOutput();
}

void RankOperator::processBatch(int, BatchPtr batch) {
  const int arity = spec_->inputRowType->getFieldCount();
  // STREAMING Top-N keeps its rows in the RowStore (see the header).
  const bool streamingTopN = !batchMode_ && spec_->windowEndColumn < 0 && !spec_->keepFirstArrival;
  for (vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    if (batchMode_) {  // ranked at the end (finishInBatchMode)
      for (RowKind kind : chunk.rowKinds()) {
        if (!isAccumulate(kind)) throw InternalError("BATCH Rank received an update or delete row");
      }
      if (chunk.size() > 0) batchSegments_.push_back(store_.add(std::move(chunk)));
      continue;
    }
    if (streamingTopN) {
      const int64_t rows = chunk.size();
      if (rows == 0) continue;
      if (ttl()) {
        now_ = context().clock->currentTimeMillis();
        expireIdlePartitionsIncrementally(rows * kTtlCleanupPartitionsPerRow, now_);
      }
      const int32_t segment = store_.add(std::move(chunk));
      batchSegments_.push_back(segment);
      for (int64_t r = 0; r < rows; ++r) processStreamingRow(segment, r);
      continue;
    }
    for (int64_t r = 0; r < chunk.size(); ++r) {
      keyBytes_.clear();
      vector::appendKeyBytes(chunk, spec_->partitionKeys, r, keyBytes_);
      bool accumulate = isAccumulate(chunk.rowKind(r));
      std::vector<Value> row;
      row.reserve(arity);
      for (int c = 0; c < arity; ++c) row.push_back(chunk.column(c).valueAt(r));
      if (spec_->windowEndColumn >= 0) {
        if (!accumulate) throw InternalError("window Rank received an update or delete row");
        {
          const int64_t fireTime = windowFireTime(row[spec_->windowEndColumn]);
          if (fireTime <= currentWatermark_) {
            if (context().metrics) ++context().metrics->numLateRecordsDropped;
            continue;
          }
          auto [position, inserted] = partitions_.try_emplace(keyBytes_);
          if (inserted) windowPartitions_[fireTime].push_back(keyBytes_);
          position->second.push_back(std::move(row));
          continue;
        }
      }
      // Deduplicate keeping the first row.
      stateBackend_->setCurrentKey(keyBytes_,
                                   assignToKeyGroup(keyBytes_, context().maxParallelism));
      if (!accumulate) throw InternalError("Deduplicate received an update or delete row");
      if (rowsState_->value()) continue;  // not the first row of its key
      append(row, 1, RowKind::INSERT);
      rowsState_->update(Rows{std::move(row)});
    }
  }
  if (streamingTopN) {
    flushPending();
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    for (int32_t segment : batchSegments_) relocateKeptRows(segment);
    batchSegments_.clear();
    touched_.clear();
    store_.freeEmpty();  // no queued output points into the store any more
    compactIfSparse();
  }
  emitOutput();
}

namespace {

template <typename T>
int compareOrdered(const T& left, const T& right) {
  return left < right ? -1 : (right < left ? 1 : 0);
}

/// Compares two non-NULL values of one column type (rows `i` of `x` and `j` of `y`).
int compareNonNull(const vector::Vector& x, int64_t i, const vector::Vector& y, int64_t j) {
  using vector::PhysicalLayout;
  switch (x.layout()) {
    case PhysicalLayout::kBoolean:
      return compareOrdered(x.data<bool>()[i], y.data<bool>()[j]);
    case PhysicalLayout::kInt8:
      return compareOrdered(x.data<int8_t>()[i], y.data<int8_t>()[j]);
    case PhysicalLayout::kInt16:
      return compareOrdered(x.data<int16_t>()[i], y.data<int16_t>()[j]);
    case PhysicalLayout::kInt32:
      return compareOrdered(x.data<int32_t>()[i], y.data<int32_t>()[j]);
    case PhysicalLayout::kInt64:
      return compareOrdered(x.data<int64_t>()[i], y.data<int64_t>()[j]);
    case PhysicalLayout::kFloat:
      return compareOrdered(x.data<float>()[i], y.data<float>()[j]);
    case PhysicalLayout::kDouble:
      return compareOrdered(x.data<double>()[i], y.data<double>()[j]);
    case PhysicalLayout::kInt128:  // DECIMAL: one column, one scale
      return compareOrdered(x.data<__int128>()[i], y.data<__int128>()[j]);
    case PhysicalLayout::kTimestamp: {
      const int order = compareOrdered(x.data<int64_t>()[i], y.data<int64_t>()[j]);
      if (order != 0) return order;
      return compareOrdered(x.nanosOfMillisecond()[i], y.nanosOfMillisecond()[j]);
    }
    case PhysicalLayout::kVariableWidth:
      if (x.type()->isCharacterString()) {
        const int order = x.stringAt(i).compare(y.stringAt(j));
        return order < 0 ? -1 : (order > 0 ? 1 : 0);
      }
      break;
    case PhysicalLayout::kBoxed:
      break;
  }
  return compareValues(x.valueAt(i), y.valueAt(j));
}

/// Whether two values of one column type are equal (NULLs equal each other).
bool equalAt(const vector::Vector& x, int64_t i, const vector::Vector& y, int64_t j) {
  using vector::PhysicalLayout;
  const bool xNull = x.isNull(i);
  if (xNull != y.isNull(j)) return false;
  if (xNull) return true;
  switch (x.layout()) {
    case PhysicalLayout::kBoolean:
      return x.data<bool>()[i] == y.data<bool>()[j];
    case PhysicalLayout::kInt8:
      return x.data<int8_t>()[i] == y.data<int8_t>()[j];
    case PhysicalLayout::kInt16:
      return x.data<int16_t>()[i] == y.data<int16_t>()[j];
    case PhysicalLayout::kInt32:
      return x.data<int32_t>()[i] == y.data<int32_t>()[j];
    case PhysicalLayout::kInt64:
      return x.data<int64_t>()[i] == y.data<int64_t>()[j];
    case PhysicalLayout::kInt128:
      return x.data<__int128>()[i] == y.data<__int128>()[j];
    case PhysicalLayout::kTimestamp:
      return x.data<int64_t>()[i] == y.data<int64_t>()[j] &&
             x.nanosOfMillisecond()[i] == y.nanosOfMillisecond()[j];
    case PhysicalLayout::kVariableWidth:
      return x.stringAt(i) == y.stringAt(j);
    default:
      return x.valueAt(i) == y.valueAt(j);  // floating point and boxed: as Values compare
  }
}

}  // namespace

int RankOperator::compareSortKeys(RowRef a, RowRef b) const {
  const vector::Chunk& left = store_.chunk(a.segment);
  const vector::Chunk& right = store_.chunk(b.segment);
  for (const SortKey& key : spec_->sortKeys) {
    const vector::Vector& x = left.column(key.column);
    const vector::Vector& y = right.column(key.column);
    const bool xNull = x.isNull(a.position);
    const bool yNull = y.isNull(b.position);
    if (xNull || yNull) {
      if (xNull && yNull) continue;
      return xNull == key.nullsFirst ? -1 : 1;
    }
    const int order = compareNonNull(x, a.position, y, b.position);
    if (order != 0) return key.ascending ? order : -order;
  }
  return 0;
}

bool RankOperator::rowsEqual(RowRef a, RowRef b) const {
  if (a.segment == b.segment && a.position == b.position) return true;
  const vector::Chunk& left = store_.chunk(a.segment);
  const vector::Chunk& right = store_.chunk(b.segment);
  for (int column = 0; column < left.columnCount(); ++column) {
    if (!equalAt(left.column(column), a.position, right.column(column), b.position)) return false;
  }
  return true;
}

void RankOperator::visibleRefs(const std::vector<RowRef>& sorted, size_t from,
                               std::vector<std::pair<RowRef, int64_t>>& out) const {
  forEachVisible(
      sorted.size(), from, [&](size_t i) { return compareSortKeys(sorted[i - 1], sorted[i]) == 0; },
      [&](size_t i, int64_t rank) { out.emplace_back(sorted[i], rank); });
}

bool RankOperator::replacesHeldRow(RowRef row, RowRef held) const {
  if (spec_->keepLastArrival) return true;
  const int order = compareSortKeys(row, held);
  return order < 0 || (order == 0 && !spec_->sortKeys[0].ascending);
}

void RankOperator::processStreamingRow(int32_t segment, int64_t r) {
  const vector::Chunk& chunk = store_.chunk(segment);
  keyBytes_.clear();
  vector::appendKeyBytes(chunk, spec_->partitionKeys, r, keyBytes_);
  const RowRef row{segment, static_cast<int32_t>(r)};
  const bool accumulate = isAccumulate(chunk.rowKind(r));
  // Over an insert-only input ROW_NUMBER keeps only the top rows: a row sorting after a full
  // top N changes nothing.
  const bool keepsOnlyTopRows = spec_->inputInsertOnly && spec_->rankKind == RankKind::ROW_NUMBER;
  int32_t slot = topN_.find(keyBytes_);
  if (slot >= 0 && expired(topN_[slot], now_)) {
    expirePartition(slot);  // its next row starts it afresh
    slot = -1;
  }
  if (accumulate) {
    if (keepsOnlyTopRows && slot >= 0) {
      const std::vector<RowRef>& held = topN_[slot].sorted;
      if (spec_->deduplicate && !held.empty() && !replacesHeldRow(row, held.front())) return;
      if (!spec_->deduplicate && static_cast<int64_t>(held.size()) >= spec_->rankEnd &&
          compareSortKeys(row, held.back()) >= 0) {
        return;
      }
    }
    if (slot < 0) slot = topN_.findOrAdd(keyBytes_);
  } else if (slot < 0) {
    return;  // a retraction of a row never seen
  }
  std::vector<RowRef>& sorted = topN_[slot].sorted;
  // Where the row goes (after the rows with equal keys: arrival order) or is (retraction).
  size_t position = 0;
  if (accumulate && spec_->deduplicate) {
    position = 0;  // it replaces the held row (else it returned above)
  } else if (accumulate) {
    position = static_cast<size_t>(
        std::upper_bound(sorted.begin(), sorted.end(), row,
                         [this](RowRef a, RowRef b) { return compareSortKeys(a, b) < 0; }) -
        sorted.begin());
  } else {
    while (position < sorted.size() && !rowsEqual(sorted[position], row)) ++position;
    if (position == sorted.size()) return;  // a retraction of a row never seen
  }
  // Under ROW_NUMBER the rows before the change keep their ranks: only those from the change
  // on can enter, leave or change rank, so only they are compared.
  const size_t changedFrom = spec_->rankKind == RankKind::ROW_NUMBER ? position : 0;
  before_.clear();
  visibleRefs(sorted, changedFrom, before_);
  if (accumulate) {
    sorted.insert(sorted.begin() + static_cast<std::ptrdiff_t>(position), row);
    store_.retain(row);
    touched_.push_back(slot);
    if (keepsOnlyTopRows && static_cast<int64_t>(sorted.size()) > spec_->rankEnd) {
      store_.release(sorted.back());
      sorted.pop_back();
    }
  } else {
    store_.release(sorted[position]);
    sorted.erase(sorted.begin() + static_cast<std::ptrdiff_t>(position));
  }
  topN_[slot].lastWrite = now_;
  after_.clear();
  visibleRefs(sorted, changedFrom, after_);
  if (spec_->outputRankNumber) {
    // Rank by rank: the row holding each rank, before and after.
    size_t i = 0, j = 0;
    while (i < before_.size() || j < after_.size()) {
      const bool hasOld = i < before_.size();
      const bool hasNew = j < after_.size();
      const int64_t rank = hasOld && hasNew ? std::min(before_[i].second, after_[j].second)
                                            : (hasOld ? before_[i].second : after_[j].second);
      const bool oldHere = hasOld && before_[i].second == rank;
      const bool newHere = hasNew && after_[j].second == rank;
      if (oldHere && newHere) {
        if (!rowsEqual(before_[i].first, after_[j].first)) {
          if (spec_->generateUpdateBefore) {
            appendRef(before_[i].first, rank, RowKind::UPDATE_BEFORE);
          }
          appendRef(after_[j].first, rank, RowKind::UPDATE_AFTER);
        }
        ++i;
        ++j;
      } else if (oldHere) {
        appendRef(before_[i].first, rank, RowKind::DELETE);
        ++i;
      } else {
        appendRef(after_[j].first, rank, RowKind::INSERT);
        ++j;
      }
    }
  } else if (spec_->deduplicate && before_.size() == 1 && after_.size() == 1) {
    // On processing time an equal row changes nothing (Flink's processLastRowOnProcTime); on
    // event time it is sent again (updateDeduplicateResult).
    if (!spec_->keepLastArrival || !rowsEqual(before_[0].first, after_[0].first)) {
      if (spec_->generateUpdateBefore) appendRef(before_[0].first, 0, RowKind::UPDATE_BEFORE);
      appendRef(after_[0].first, 0, RowKind::UPDATE_AFTER);
    }
  } else {
    // Multiset difference: rows entering (+I) first, then rows leaving (-D).
    std::vector<bool> matched(before_.size(), false);
    for (const auto& [newRow, rank] : after_) {
      bool found = false;
      for (size_t k = 0; k < before_.size() && !found; ++k) {
        if (!matched[k] && rowsEqual(before_[k].first, newRow)) matched[k] = found = true;
      }
      if (!found) appendRef(newRow, 0, RowKind::INSERT);
    }
    for (size_t k = 0; k < before_.size(); ++k) {
      if (!matched[k]) appendRef(before_[k].first, 0, RowKind::DELETE);
    }
  }
  if (sorted.empty()) topN_.remove(slot);
}

void RankOperator::expirePartition(int32_t slot) {
  Partition& partition = topN_[slot];
  for (const RowRef row : partition.sorted) store_.release(row);
  partition.sorted.clear();
  topN_.remove(slot);
}

void RankOperator::expireIdlePartitionsIncrementally(int64_t visits, int64_t now) {
  const int32_t slots = topN_.slotCount();
  visits = std::min(visits, static_cast<int64_t>(slots));
  for (int64_t visit = 0; visit < visits; ++visit) {
    if (ttlCleanupCursor_ >= slots) ttlCleanupCursor_ = 0;
    const int32_t slot = ttlCleanupCursor_++;
    // A free slot has no rows (a partition is removed when its last row goes).
    if (!topN_[slot].sorted.empty() && expired(topN_[slot], now)) expirePartition(slot);
  }
}

void RankOperator::appendRef(RowRef row, int64_t rank, RowKind kind) {
  pending_.push(row, kind);
  pendingRanks_.push_back(rank);
}

void RankOperator::flushPending() {
  const int arity = spec_->inputRowType->getFieldCount();
  pending_.flush(output(), [&](vector::Chunk& chunk, size_t firstRow) {
    if (!spec_->outputRankNumber) return;
    chunk.mutableColumn(arity) = vector::Vector::fromBuffers(
        spec_->outputRowType->getFields()[static_cast<size_t>(arity)].type, chunk.size(), {},
        reinterpret_cast<const std::byte*>(pendingRanks_.data() + firstRow), {}, {}, {});
  });
  pendingRanks_.clear();
}

void RankOperator::relocateKeptRows(int32_t segment) {
  std::vector<RowRef*> kept;
  for (int32_t slot : touched_) {
    for (RowRef& row : topN_[slot].sorted) {
      if (row.segment == segment) kept.push_back(&row);
    }
  }
  if (kept.empty() || 2 * static_cast<int64_t>(kept.size()) >= store_.chunk(segment).size()) {
    return;
  }
  std::vector<int32_t> segments(kept.size(), segment);
  std::vector<int32_t> positions;
  positions.reserve(kept.size());
  for (const RowRef* row : kept) positions.push_back(row->position);
  vector::Chunk own(spec_->inputRowType);
  store_.gather(segments, positions, own, 0);
  own.mutableRowKinds().assign(kept.size(), RowKind::INSERT);
  const int32_t owned = store_.add(std::move(own));
  for (size_t i = 0; i < kept.size(); ++i) {
    store_.release(*kept[i]);
    *kept[i] = RowRef{owned, static_cast<int32_t>(i)};
    store_.retain(*kept[i]);
  }
}

void RankOperator::compactIfSparse() {
  if (!store_.sparse()) return;
  std::vector<RowRef*> references;
  references.reserve(static_cast<size_t>(store_.keptRows()));
  topN_.forEach([&references](int32_t, Partition& partition) {
    for (RowRef& row : partition.sorted) references.push_back(&row);
  });
  store_.compact(references);
}

void RankOperator::emitPartition(const std::string& key) {
  auto found = partitions_.find(key);
  if (found == partitions_.end()) return;
  Rows& rows = found->second;
  // Keeping the last row, a deduplication prefers the later of equal times (as STREAMING).
  if (spec_->deduplicate && !spec_->sortKeys[0].ascending) std::reverse(rows.begin(), rows.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [this](const auto& a, const auto& b) { return less(a, b); });
  forEachVisible(
      rows.size(), 0, [&](size_t i) { return sameKeys(rows[i - 1], rows[i]); },
      [&](size_t i, int64_t rank) { append(rows[i], rank, RowKind::INSERT); });
  partitions_.erase(found);
}

void RankOperator::processWatermark(Watermark watermark) {
  currentWatermark_ = std::max(currentWatermark_, watermark.timestamp);
  // Window Top-N: the windows the watermark closed, earliest first, partitions in key order.
  while (!windowPartitions_.empty() && windowPartitions_.begin()->first <= currentWatermark_) {
    std::vector<std::string> keys = std::move(windowPartitions_.begin()->second);
    windowPartitions_.erase(windowPartitions_.begin());
    std::sort(keys.begin(), keys.end());
    for (const std::string& key : keys) emitPartition(key);
  }
  emitOutput();
  output().emitWatermark(watermark);
}

void RankOperator::finishInBatchMode() {
  // Every row grouped by partition keys (in key-byte order), then sorted by the sort keys
  // (RowSorter: equal rows in arrival order,
  // or, for a deduplication keeping the last row, latest first: the rows are added backwards);
  // each partition is then a run of the order, ranked as it is walked.
  std::vector<vector::SortColumn> columns;
  for (const SortKey& key : spec_->sortKeys) {
    columns.push_back(vector::SortColumn{key.column, key.ascending, key.nullsFirst});
  }
  RowSorter sorter(std::move(columns), spec_->partitionKeys);
  if (spec_->deduplicate && !spec_->sortKeys[0].ascending) {
    for (auto slot = batchSegments_.rbegin(); slot != batchSegments_.rend(); ++slot) {
      const vector::Chunk& chunk = store_.chunk(*slot);
      for (int64_t row = chunk.size() - 1; row >= 0; --row) {
        sorter.add(chunk, *slot, static_cast<int32_t>(row));
      }
    }
  } else {
    for (int32_t slot : batchSegments_) sorter.addAll(store_.chunk(slot), slot);
  }
  sorter.sort();
  const std::vector<SortedRow>& rows = sorter.rows();
  std::string partition;
  std::string nextPartition;
  auto partitionOf = [&](const SortedRow& row, std::string& out) {
    out.clear();
    vector::appendKeyBytes(store_.chunk(row.row.segment), spec_->partitionKeys, row.row.position,
                           out);
  };
  // Each row's partition bytes are made once: the first row of the next partition's are
  // kept (swapped) for it.
  if (!rows.empty()) partitionOf(rows[0], partition);
  size_t begin = 0;
  while (begin < rows.size()) {
    size_t end = begin + 1;
    while (end < rows.size()) {
      partitionOf(rows[end], nextPartition);
      if (nextPartition != partition) break;
      ++end;
    }
    partition.swap(nextPartition);
    // Within a partition, equal sort keys are equal whole keys.
    forEachVisible(
        end - begin, 0,
        [&](size_t i) {
          return sorter.compareKeys(rows[begin + i - 1], sorter, rows[begin + i]) == 0;
        },
        [&](size_t i, int64_t rank) { appendRef(rows[begin + i].row, rank, RowKind::INSERT); });
    if (pending_.size() >= static_cast<size_t>(kDefaultBatchSize)) flushPending();
    begin = end;
  }
  flushPending();
  store_.clear();
  batchSegments_.clear();
}

void RankOperator::finish() {
  if (batchMode_) {
    finishInBatchMode();
    return;
  }
  if (spec_->windowEndColumn < 0) return;
  // Window Top-N: the windows still open (nothing accepted is lost).
  std::vector<std::string> keys;
  keys.reserve(partitions_.size());
  for (auto& [time, windowKeys] : windowPartitions_) {
    std::sort(windowKeys.begin(), windowKeys.end());
    keys.insert(keys.end(), windowKeys.begin(), windowKeys.end());
  }
  windowPartitions_.clear();
  for (const std::string& key : keys) emitPartition(key);
  partitions_.clear();
  emitOutput();
}

void RankOperator::emitOutput() { emitChunk(output_, output()); }

// --- Checkpoints ---
//
// A key group's block body (docs/state_format.md, "Rank"): the ListState payload,
// keyCount:varint then per partition keyBytes:bytes count:varint row:bytes{count}, each row
// columnCount:varint TypeSerializer<Value>{columnCount} (stored_row_codec.h); Top-N rows in
// their sorted order, window Top-N rows in arrival order.

void RankOperator::RowsState::snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                                                std::vector<std::string>& bodies) const {
  rank_->snapshotRows(range, maxParallelism, bodies);
}

void RankOperator::RowsState::restoreKeyGroup(int keyGroup, std::string_view body) {
  rank_->restoreRows(keyGroup, body);
}

void RankOperator::LastWritesState::snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                                                      std::vector<std::string>& bodies) const {
  if (!rank_->ttl()) return;
  const std::vector<SnapshotKey> keys = rank_->liveSnapshotKeys(range, maxParallelism);
  writeKeyGroupBodies(keys, range, bodies, [&](const SnapshotKey& key, std::string& body) {
    state::writeSerializedValue<int64_t, TypeSerializer<int64_t>>(rank_->topN_[key.slot].lastWrite,
                                                                  body);
  });
}

void RankOperator::LastWritesState::restoreKeyGroup(int keyGroup, std::string_view body) {
  rank_->restoreLastWrites(keyGroup, body);
}

std::vector<SnapshotKey> RankOperator::liveSnapshotKeys(KeyGroupRange range, int maxParallelism) {
  // A partition the TTL has expired would be forgotten when its key is next seen: left out.
  const int64_t now = ttl() ? context().clock->currentTimeMillis() : 0;
  return snapshotKeysOf(topN_, range, maxParallelism, [&](const Partition& partition) {
    return !partition.sorted.empty() && !expired(partition, now);
  });
}

void RankOperator::snapshotRows(KeyGroupRange range, int maxParallelism,
                                std::vector<std::string>& bodies) {
  std::string row;
  if (!windowed()) {
    const std::vector<SnapshotKey> keys = liveSnapshotKeys(range, maxParallelism);
    writeKeyGroupBodies(keys, range, bodies, [&](const SnapshotKey& key, std::string& body) {
      const std::vector<RowRef>& sorted = topN_[key.slot].sorted;
      serialization::writeVarint(sorted.size(), body);
      for (const RowRef ref : sorted) {
        row.clear();
        writeStoredRowColumns(store_.chunk(ref.segment), ref.position, row);
        state::writeLengthPrefixed(row, body);
      }
    });
    return;
  }
  // Window Top-N: the buffered partitions (slot: the partition's index in `rows`).
  std::vector<SnapshotKey> keys;
  std::vector<const Rows*> rows;
  for (const auto& [keyBytes, partition] : partitions_) {
    const int keyGroup = assignToKeyGroup(keyBytes, maxParallelism);
    if (!range.contains(keyGroup)) continue;
    keys.push_back(SnapshotKey{keyGroup, keyBytes, static_cast<int32_t>(rows.size())});
    rows.push_back(&partition);
  }
  sortSnapshotKeys(keys);
  writeKeyGroupBodies(keys, range, bodies, [&](const SnapshotKey& key, std::string& body) {
    const Rows& partition = *rows[static_cast<size_t>(key.slot)];
    serialization::writeVarint(partition.size(), body);
    for (const std::vector<Value>& values : partition) {
      // As writeStoredRowColumns writes a stored row.
      row.clear();
      serialization::writeVarint(values.size(), row);
      for (const Value& value : values) TypeSerializer<Value>::serialize(value, row);
      state::writeLengthPrefixed(row, body);
    }
  });
}

void RankOperator::restoreRows(int keyGroup, std::string_view body) {
  const int64_t before = restoredRows_.size();
  try {
    const uint64_t keyCount = readCount(body);
    for (uint64_t k = 0; k < keyCount; ++k) {
      const std::string_view keyBytes = readKeyOfKeyGroup(body, keyGroup, context().maxParallelism);
      const uint64_t rowCount = readCount(body);
      if (rowCount == 0) throw InternalError("a partition without rows");
      for (uint64_t r = 0; r < rowCount; ++r) {
        std::string_view row = state::readLengthPrefixed(body);
        restoredRows_.readRow(row);
        checkFullyRead(row, "a row");
        restoredKeys_.emplace_back(keyBytes);
      }
    }
    checkFullyRead(body, "the last partition");
  } catch (const std::exception& error) {
    // Nothing of a body that does not decode is kept.
    restoredRows_.truncate(before);
    restoredKeys_.resize(static_cast<size_t>(before));
    throwUnrestorableState(rowsStateName(), context().operatorName, keyGroup, error.what());
  }
  if (!restoringInOpen_) storeRestoredRows();
}

void RankOperator::restoreLastWrites(int keyGroup, std::string_view body) {
  try {
    readKeyedInt64Body(body, keyGroup, context().maxParallelism,
                       [&](std::string_view keyBytes, int64_t lastWrite) {
                         if (!ttl()) return;  // restored without a TTL: nothing expires
                         if (const int32_t slot = topN_.find(keyBytes); slot >= 0) {
                           topN_[slot].lastWrite = lastWrite;
                         } else {
                           restoredLastWrites_[std::string(keyBytes)] = lastWrite;  // rows later
                         }
                       });
  } catch (const std::exception& error) {
    throwUnrestorableState(kLastWritesStateName, context().operatorName, keyGroup, error.what());
  }
}

void RankOperator::storeRestoredRows() {
  if (restoredRows_.empty()) return;
  if (!windowed()) {
    // A partition's rows are consecutive and in sorted order: appended, they keep it.
    const std::vector<RowRef> refs = restoredRows_.moveInto(store_);
    const int64_t now = ttl() ? context().clock->currentTimeMillis() : 0;
    for (size_t i = 0; i < refs.size(); ++i) {
      store_.retain(refs[i]);
      Partition& partition = topN_[topN_.findOrAdd(restoredKeys_[i])];
      if (partition.sorted.empty() && ttl()) {
        // Its last write as restored; without one (a snapshot taken without a TTL), now.
        auto restored = restoredLastWrites_.find(restoredKeys_[i]);
        partition.lastWrite = restored != restoredLastWrites_.end() ? restored->second : now;
        if (restored != restoredLastWrites_.end()) restoredLastWrites_.erase(restored);
      }
      partition.sorted.push_back(refs[i]);
    }
    restoredKeys_.clear();
    return;
  }
  // Window Top-N keeps Values: the staged rows pass through a store of their own.
  RowStore staged(spec_->inputRowType);
  const std::vector<RowRef> refs = restoredRows_.moveInto(staged);
  const int arity = spec_->inputRowType->getFieldCount();
  for (size_t i = 0; i < refs.size(); ++i) {
    const vector::Chunk& chunk = staged.chunk(refs[i].segment);
    std::vector<Value> row;
    row.reserve(static_cast<size_t>(arity));
    for (int c = 0; c < arity; ++c) row.push_back(chunk.column(c).valueAt(refs[i].position));
    auto [position, inserted] = partitions_.try_emplace(restoredKeys_[i]);
    if (inserted) {
      windowPartitions_[windowFireTime(row[static_cast<size_t>(spec_->windowEndColumn)])].push_back(
          restoredKeys_[i]);
    }
    position->second.push_back(std::move(row));
  }
  restoredKeys_.clear();
}

}  // namespace eddy::runtime::operators
