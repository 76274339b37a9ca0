#include "runtime/operators/rank/rank_operator.h"

#include <algorithm>

#include "eddy/exceptions.h"
#include "runtime/operators/aggregate/aggregate_call.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

namespace {
bool isAccumulate(RowKind kind) { return kind == RowKind::INSERT || kind == RowKind::UPDATE_AFTER; }
}  // namespace

std::string rankKindName(RankKind kind) {
  switch (kind) {
    case RankKind::ROW_NUMBER:
      return "ROW_NUMBER";
    case RankKind::RANK:
      return "RANK";
    case RankKind::DENSE_RANK:
      return "DENSE_RANK";
  }
  return "?";
}

RankOperator::RankOperator(std::shared_ptr<const RankSpec> spec) : spec_(std::move(spec)) {}
RankOperator::~RankOperator() = default;

void RankOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
  stateBackend_ = std::make_unique<HeapKeyedStateBackend>(context.keyGroupRange,
                                                          context.maxParallelism, *context.clock);
  rowsState_ = stateBackend_->getValueState(ValueStateDescriptor<Rows>("rows"));
  output_ = std::make_unique<vector::Chunk>(spec_->outputRowType);
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

std::vector<int64_t> RankOperator::ranksOf(const Rows& sorted) const {
  std::vector<int64_t> ranks(sorted.size());
  int64_t dense = 0;
  for (size_t i = 0; i < sorted.size(); ++i) {
    bool tie = i > 0 && sameKeys(sorted[i - 1], sorted[i]);
    if (!tie) ++dense;
    switch (spec_->rankKind) {
      case RankKind::ROW_NUMBER:
        ranks[i] = static_cast<int64_t>(i) + 1;
        break;
      case RankKind::RANK:
        ranks[i] = tie ? ranks[i - 1] : static_cast<int64_t>(i) + 1;
        break;
      case RankKind::DENSE_RANK:
        ranks[i] = dense;
        break;
    }
  }
  return ranks;
}

std::vector<std::pair<const std::vector<Value>*, int64_t>> RankOperator::visible(
    const Rows& sorted, size_t from) const {
  std::vector<std::pair<const std::vector<Value>*, int64_t>> result;
  if (spec_->rankKind == RankKind::ROW_NUMBER) {  // the rank is the position
    const size_t begin = std::max(from, static_cast<size_t>(spec_->rankStart - 1));
    const size_t end = static_cast<uint64_t>(spec_->rankEnd) < sorted.size()
                           ? static_cast<size_t>(spec_->rankEnd)
                           : sorted.size();
    for (size_t i = begin; i < end; ++i) {
      result.emplace_back(&sorted[i], static_cast<int64_t>(i) + 1);
    }
    return result;
  }
  std::vector<int64_t> ranks = ranksOf(sorted);
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (ranks[i] > spec_->rankEnd) break;
    if (ranks[i] >= spec_->rankStart) result.emplace_back(&sorted[i], ranks[i]);
  }
  return result;
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
  // STREAMING Top-N over an insert-only input keeping only the top rows (see the header).
  const bool keepsOnlyTopRows = !batchMode_ && spec_->windowEndColumn < 0 &&
                                !spec_->keepFirstArrival && spec_->inputInsertOnly &&
                                spec_->rankKind == RankKind::ROW_NUMBER;
  for (const vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    for (int64_t r = 0; r < chunk.size(); ++r) {
      keyBytes_.clear();
      vector::appendKeyBytes(chunk, spec_->partitionKeys, r, keyBytes_);
      bool accumulate = isAccumulate(chunk.rowKind(r));
      if (keepsOnlyTopRows && accumulate) {
        // A row that sorts after a full top N changes nothing: compared by its sort keys
        // alone (the other fields stay NULL), it is never made into Values.
        stateBackend_->setCurrentKey(keyBytes_,
                                     assignToKeyGroup(keyBytes_, context().maxParallelism));
        const Rows* held = rowsState_->valuePointer();
        if (held != nullptr && static_cast<int64_t>(held->size()) >= spec_->rankEnd) {
          sortKeysOnly_.resize(static_cast<size_t>(arity));
          for (const SortKey& key : spec_->sortKeys) {
            sortKeysOnly_[static_cast<size_t>(key.column)] = chunk.column(key.column).valueAt(r);
          }
          if (!less(sortKeysOnly_, held->back())) continue;
        }
      }
      std::vector<Value> row;
      row.reserve(arity);
      for (int c = 0; c < arity; ++c) row.push_back(chunk.column(c).valueAt(r));
      if (batchMode_ || spec_->windowEndColumn >= 0) {
        if (!accumulate)
          throw InternalError("BATCH or window Rank received an update or delete row");
        if (!batchMode_) {
          const Value& end = row[spec_->windowEndColumn];
          int64_t endMillis = end.get<LocalDateTime>().getMillisecond();
          int64_t fireTime =
              (spec_->windowTimeZone ? spec_->windowTimeZone->toEpochMillis(endMillis)
                                     : endMillis) -
              1;
          if (fireTime <= currentWatermark_) {
            if (context().metrics) ++context().metrics->numLateRecordsDropped;
            continue;
          }
          auto [position, inserted] = partitions_.try_emplace(keyBytes_);
          if (inserted) windowPartitions_[fireTime].push_back(keyBytes_);
          position->second.push_back(std::move(row));
          continue;
        }
        partitions_[keyBytes_].push_back(std::move(row));
        continue;
      }
      stateBackend_->setCurrentKey(keyBytes_,
                                   assignToKeyGroup(keyBytes_, context().maxParallelism));
      if (spec_->keepFirstArrival) {
        if (!accumulate) throw InternalError("Deduplicate received an update or delete row");
        if (rowsState_->value()) continue;  // not the first row of its key
        append(row, 1, RowKind::INSERT);
        rowsState_->update(Rows{std::move(row)});
        continue;
      }
      // The partition's rows, changed in place on the heap backend (a copy from backends that
      // keep values serialized, written back below).
      Rows copied;
      Rows* held = rowsState_->valuePointer();
      if (held == nullptr) {
        copied = rowsState_->value().value_or(Rows{});
        held = &copied;
      }
      Rows& sorted = *held;
      // Where the row goes (accumulate) or is (retraction).
      Rows::iterator position;
      if (accumulate) {
        position = std::upper_bound(sorted.begin(), sorted.end(), row,
                                    [this](const auto& a, const auto& b) { return less(a, b); });
      } else {
        position = std::find(sorted.begin(), sorted.end(), row);
        if (position == sorted.end()) continue;  // a retraction of a row never seen
      }
      // Under ROW_NUMBER the rows before the change keep their ranks: only those from the
      // change on can enter, leave or change rank, so only they are compared (and copied).
      const size_t changedFrom = spec_->rankKind == RankKind::ROW_NUMBER
                                     ? static_cast<size_t>(position - sorted.begin())
                                     : 0;
      // Before: those visible rows (copied, since `sorted` changes).
      std::vector<std::pair<std::vector<Value>, int64_t>> before;
      for (const auto& [visibleRow, rank] : visible(sorted, changedFrom)) {
        before.emplace_back(*visibleRow, rank);
      }
      if (accumulate) {
        sorted.insert(position, std::move(row));
        if (spec_->inputInsertOnly && spec_->rankKind == RankKind::ROW_NUMBER &&
            static_cast<int64_t>(sorted.size()) > spec_->rankEnd) {
          sorted.resize(static_cast<size_t>(spec_->rankEnd));
        }
      } else {
        sorted.erase(position);
      }
      auto after = visible(sorted, changedFrom);
      if (spec_->outputRankNumber) {
        // Rank by rank: the row holding each rank, before and after.
        size_t i = 0, j = 0;
        while (i < before.size() || j < after.size()) {
          bool hasOld = i < before.size();
          bool hasNew = j < after.size();
          int64_t rank = hasOld && hasNew ? std::min(before[i].second, after[j].second)
                                          : (hasOld ? before[i].second : after[j].second);
          bool oldHere = hasOld && before[i].second == rank;
          bool newHere = hasNew && after[j].second == rank;
          if (oldHere && newHere) {
            if (before[i].first != *after[j].first) {
              append(before[i].first, rank, RowKind::UPDATE_BEFORE);
              append(*after[j].first, rank, RowKind::UPDATE_AFTER);
            }
            ++i;
            ++j;
          } else if (oldHere) {
            append(before[i].first, rank, RowKind::DELETE);
            ++i;
          } else {
            append(*after[j].first, rank, RowKind::INSERT);
            ++j;
          }
        }
      } else {
        // Multiset difference: rows entering (+I) first, then rows leaving (-D).
        std::vector<bool> matched(before.size(), false);
        std::vector<const std::vector<Value>*> entering;
        for (const auto& [newRow, rank] : after) {
          bool found = false;
          for (size_t k = 0; k < before.size() && !found; ++k) {
            if (!matched[k] && before[k].first == *newRow) matched[k] = found = true;
          }
          if (!found) entering.push_back(newRow);
        }
        for (const auto* newRow : entering) append(*newRow, 0, RowKind::INSERT);
        for (size_t k = 0; k < before.size(); ++k) {
          if (!matched[k]) append(before[k].first, 0, RowKind::DELETE);
        }
      }
      if (sorted.empty()) {
        rowsState_->clear();
      } else if (held == &copied) {
        rowsState_->update(std::move(copied));
      }
    }
  }
  emitOutput();
}

void RankOperator::emitPartition(const std::string& key) {
  auto found = partitions_.find(key);
  if (found == partitions_.end()) return;
  Rows& rows = found->second;
  std::stable_sort(rows.begin(), rows.end(),
                   [this](const auto& a, const auto& b) { return less(a, b); });
  for (const auto& [row, rank] : visible(rows)) append(*row, rank, RowKind::INSERT);
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

void RankOperator::finish() {
  if (!batchMode_ && spec_->windowEndColumn < 0) return;
  // BATCH: every partition; window Top-N: the windows still open (nothing accepted is lost).
  std::vector<std::string> keys;
  keys.reserve(partitions_.size());
  if (batchMode_) {
    for (const auto& entry : partitions_) keys.push_back(entry.first);
    std::sort(keys.begin(), keys.end());
  } else {
    for (auto& [time, windowKeys] : windowPartitions_) {
      std::sort(windowKeys.begin(), windowKeys.end());
      keys.insert(keys.end(), windowKeys.begin(), windowKeys.end());
    }
    windowPartitions_.clear();
  }
  for (const std::string& key : keys) emitPartition(key);
  partitions_.clear();
  emitOutput();
}

void RankOperator::emitOutput() {
  if (output_->size() == 0) return;
  auto next = std::make_unique<vector::Chunk>(spec_->outputRowType);
  next->reserveLike(*output_);
  auto batch = std::make_unique<TypedBatch<vector::Chunk>>();
  batch->push(std::move(*output_), kNoTimestamp);
  output_ = std::move(next);
  output().emitBatch(std::move(batch));
}

}  // namespace eddy::runtime::operators
