#include "runtime/operators/sort/sort_operator.h"

#include <algorithm>
#include <exception>

#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "eddy/state/operator_state_store.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/types/type_serializer.h"
#include "function/aggregate/aggregate_call.h"
#include "runtime/operators/stored_rows/row_sorter.h"
#include "runtime/operators/stored_rows/stored_row_codec.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using function::compareValues;

using relational::SortKey;

void SortOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
  chunks_ = RowStore(spec_->rowType);
  if (batchMode_) return;
  // Checkpoints: the state comes back from the stores the task restored (see the header).
  KeyedStateBackend& backend = context.keyedStateBackend();
  if (spec_->timeColumn >= 0) {
    watermarkState_ = context.operatorStateStore().getUnionListState(
        ListStateDescriptor<int64_t>(kWatermarkStateName));
    const std::vector<int64_t> restored = watermarkState_->get();
    if (!restored.empty()) currentWatermark_ = *std::min_element(restored.begin(), restored.end());
    backend.registerRawKeyedState(kRowsStateName, state::StateKind::kList, pendingState_);
    return;
  }
  rowsSeenState_ = backend.getValueState(ValueStateDescriptor<int64_t>(kRowsSeenStateName));
  if (selectEmptyKey()) seen_ = rowsSeenState_->value().value_or(0);
}

void SortOperator::snapshotState(StateSnapshotContext& /*context*/) {
  if (watermarkState_ != nullptr) watermarkState_->update({currentWatermark_});
  if (rowsSeenState_ != nullptr && seen_ > 0 && selectEmptyKey()) rowsSeenState_->update(seen_);
}

size_t SortOperator::pendingRows() const {
  size_t rows = 0;
  for (const auto& [time, timeRows] : pending_) rows += timeRows.size();
  return rows;
}

bool SortOperator::selectEmptyKey() {
  KeyedStateBackend& backend = context().keyedStateBackend();
  const int keyGroup = assignToKeyGroup(std::string_view(), backend.maxParallelism());
  if (!backend.keyGroupRange().contains(keyGroup)) return false;
  backend.setCurrentKey(std::string_view(), keyGroup);
  return true;
}

void SortOperator::processBatch(int, BatchPtr batch) {
  auto& chunks = typedBatch<vector::Chunk>(*batch).records;
  if (batchMode_) {
    for (vector::Chunk& chunk : chunks) {
      if (chunk.size() > 0) chunkSlots_.push_back(chunks_.add(std::move(chunk)));
    }
    return;
  }
  if (spec_->timeColumn >= 0) {
    processTemporal(chunks);
    return;
  }
  // STREAMING LIMIT: keep rows [offset, offset + fetch) of the arrival order.
  int64_t end = spec_->fetch < 0 ? INT64_MAX : spec_->offset + spec_->fetch;
  auto passed = std::make_unique<TypedBatch<vector::Chunk>>();
  for (vector::Chunk& chunk : chunks) {
    std::vector<int32_t> kept;
    for (int64_t i = 0; i < chunk.size(); ++i, ++seen_) {
      if (seen_ >= spec_->offset && seen_ < end) kept.push_back(static_cast<int32_t>(i));
    }
    if (kept.empty()) continue;
    if (static_cast<int64_t>(kept.size()) == chunk.size()) {
      passed->push(std::move(chunk), kNoTimestamp);
    } else {
      passed->push(vector::gather(chunk, kept.data(), static_cast<int64_t>(kept.size())),
                   kNoTimestamp);
    }
  }
  output().emitBatch(std::move(passed));
}

void SortOperator::sortRows(std::vector<Row>& rows) const {
  const auto& keys = spec_->keys;
  std::stable_sort(rows.begin(), rows.end(), [&keys](const Row& left, const Row& right) {
    for (const SortKey& key : keys) {
      const Value& a = left.getField(key.column);
      const Value& b = right.getField(key.column);
      if (a.isNull() || b.isNull()) {
        if (a.isNull() && b.isNull()) continue;
        return a.isNull() == key.nullsFirst;
      }
      int order = compareValues(a, b);
      if (order != 0) return key.ascending ? order < 0 : order > 0;
    }
    return false;
  });
}

void SortOperator::emitRows(std::vector<Row>& rows, int64_t begin, int64_t end) {
  vector::Chunk chunk(spec_->rowType);
  for (int64_t i = begin; i < end; ++i) {
    rows[i].setKind(RowKind::INSERT);
    chunk.appendRow(rows[i]);
    if (chunk.size() >= static_cast<int64_t>(kDefaultBatchSize) || i + 1 == end) {
      auto batch = std::make_unique<TypedBatch<vector::Chunk>>();
      batch->push(std::move(chunk), kNoTimestamp);
      output().emitBatch(std::move(batch));
      chunk = vector::Chunk(spec_->rowType);
    }
  }
}

void SortOperator::processTemporal(std::vector<vector::Chunk>& chunks) {
  for (const vector::Chunk& chunk : chunks) {
    const vector::Vector& times = chunk.column(spec_->timeColumn);
    for (int64_t i = 0; i < chunk.size(); ++i) {
      if (times.isNull(i)) {
        throw TableException(
            "RowTime field should not be null, please convert it to a non-null long value.");
      }
      int64_t time = times.data<int64_t>()[i];
      if (time <= currentWatermark_) {
        if (context().metrics) ++context().metrics->numLateRecordsDropped;
        continue;
      }
      pending_[time].push_back(chunk.rowAt(i));
    }
  }
}

void SortOperator::processWatermark(Watermark watermark) {
  currentWatermark_ = std::max(currentWatermark_, watermark.timestamp);
  std::vector<Row> due;
  while (!pending_.empty() && pending_.begin()->first <= currentWatermark_) {
    for (Row& row : pending_.begin()->second) due.push_back(std::move(row));
    pending_.erase(pending_.begin());
  }
  if (!due.empty()) {
    sortRows(due);
    emitRows(due, 0, static_cast<int64_t>(due.size()));
  }
  output().emitWatermark(watermark);
}

void SortOperator::finish() {
  if (!batchMode_ && spec_->timeColumn >= 0) {
    // The rows no watermark released yet: nothing accepted is dropped.
    std::vector<Row> rest;
    for (auto& [time, rows] : pending_) {
      for (Row& row : rows) rest.push_back(std::move(row));
    }
    pending_.clear();
    sortRows(rest);
    emitRows(rest, 0, static_cast<int64_t>(rest.size()));
    return;
  }
  if (!batchMode_) return;
  std::vector<vector::SortColumn> columns;
  for (const SortKey& key : spec_->keys) {
    columns.push_back(vector::SortColumn{key.column, key.ascending, key.nullsFirst});
  }
  RowSorter sorter(std::move(columns));
  for (int32_t slot : chunkSlots_) sorter.addAll(chunks_.chunk(slot), slot);
  const int64_t total = sorter.size();
  const int64_t begin = std::min(spec_->offset, total);
  const int64_t end = spec_->fetch < 0 ? total : std::min(begin + spec_->fetch, total);
  sorter.sort(spec_->fetch < 0 ? -1 : end);
  for (int64_t from = begin; from < end; from += static_cast<int64_t>(kDefaultBatchSize)) {
    vector::Chunk chunk(spec_->rowType);
    RowSorter::gather(chunks_, sorter.rows(), from,
                      std::min(end, from + static_cast<int64_t>(kDefaultBatchSize)), chunk);
    auto batch = std::make_unique<TypedBatch<vector::Chunk>>();
    batch->push(std::move(chunk), kNoTimestamp);
    output().emitBatch(std::move(batch));
  }
  chunks_.clear();
  chunkSlots_.clear();
}

// --- Checkpoints ---
//
// The temporal sort's block body (docs/state_format.md, "Temporal sort and limit"): the
// ListState payload of one key, the empty key: 01 00 count:varint row:bytes{count}, each row
// columnCount:varint TypeSerializer<Value>{columnCount} (as stored_row_codec.h writes a stored
// row), by time, then arrival.

void SortOperator::PendingRowsState::snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                                                       std::vector<std::string>& bodies) const {
  sort_->snapshotPendingRows(range, maxParallelism, bodies);
}

void SortOperator::PendingRowsState::restoreKeyGroup(int keyGroup, std::string_view body) {
  sort_->restorePendingRows(keyGroup, body);
}

void SortOperator::snapshotPendingRows(KeyGroupRange range, int maxParallelism,
                                       std::vector<std::string>& bodies) const {
  const int keyGroup = assignToKeyGroup(std::string_view(), maxParallelism);
  if (pending_.empty() || !range.contains(keyGroup)) return;
  std::string& body = bodies[static_cast<size_t>(keyGroup - range.startKeyGroup)];
  serialization::writeVarint(1, body);
  writeKeyBytes(std::string_view(), body);
  serialization::writeVarint(pendingRows(), body);
  std::string bytes;
  for (const auto& [time, rows] : pending_) {
    for (const Row& row : rows) {
      bytes.clear();
      serialization::writeVarint(static_cast<uint64_t>(row.getArity()), bytes);
      for (int field = 0; field < row.getArity(); ++field) {
        TypeSerializer<Value>::serialize(row.getField(field), bytes);
      }
      state::writeLengthPrefixed(bytes, body);
    }
  }
}

void SortOperator::restorePendingRows(int keyGroup, std::string_view body) {
  // Decoded completely before anything is filed, so a body that does not decode adds nothing.
  std::vector<std::pair<int64_t, Row>> restored;
  try {
    RestoredRowChunk staged(spec_->rowType);
    const uint64_t keyCount = readCount(body);
    for (uint64_t k = 0; k < keyCount; ++k) {
      if (!readKeyOfKeyGroup(body, keyGroup, context().maxParallelism).empty()) {
        throw InternalError("a key other than the empty key");
      }
      const uint64_t rowCount = readCount(body);
      if (rowCount == 0) throw InternalError("a key without rows");
      for (uint64_t r = 0; r < rowCount; ++r) {
        std::string_view row = state::readLengthPrefixed(body);
        staged.readRow(row);
        checkFullyRead(row, "a row");
      }
    }
    checkFullyRead(body, "the last key");
    RowStore rows(spec_->rowType);
    for (const RowRef ref : staged.moveInto(rows)) {
      const vector::Chunk& chunk = rows.chunk(ref.segment);
      const vector::Vector& times = chunk.column(spec_->timeColumn);
      if (times.isNull(ref.position)) throw InternalError("a row whose time is NULL");
      restored.emplace_back(times.data<int64_t>()[ref.position], chunk.rowAt(ref.position));
    }
  } catch (const std::exception& error) {
    throwUnrestorableState(kRowsStateName, context().operatorName, keyGroup, error.what());
  }
  for (auto& [time, row] : restored) pending_[time].push_back(std::move(row));
}

}  // namespace eddy::runtime::operators
