// SinkUpsertMaterializerOperator: one list of rows per sink key (see the header).
#include "runtime/operators/sink/sink_upsert_materializer_operator.h"

#include <absl/hash/hash.h>

#include <exception>
#include <numeric>
#include <string_view>
#include <utility>

#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

SinkUpsertMaterializerOperator::SinkUpsertMaterializerOperator(
    std::shared_ptr<const SinkUpsertMaterializerSpec> spec)
    : spec_(std::move(spec)),
      store_(spec_->rowType),
      pending_(&store_, spec_->rowType),
      restoredRows_(spec_->rowType) {
  matchColumns_ = spec_->upsertKey;
  if (matchColumns_.empty()) {
    matchColumns_.resize(static_cast<size_t>(spec_->rowType->getFieldCount()));
    std::iota(matchColumns_.begin(), matchColumns_.end(), 0);
  }
}

void SinkUpsertMaterializerOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  if (context.executionMode == RuntimeExecutionMode::BATCH) return;
  // The rows the task restored are handed over now, gathered over all key groups.
  restoringInOpen_ = true;
  context.keyedStateBackend().registerRawKeyedState(kRowsStateName, state::StateKind::kList,
                                                    rowsState_);
  restoringInOpen_ = false;
  listRestoredRows();
}

void SinkUpsertMaterializerOperator::processBatch(int, BatchPtr batch) {
  for (vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    const int64_t rows = chunk.size();
    if (rows == 0) continue;
    const int32_t segment = store_.add(std::move(chunk));
    for (int64_t row = 0; row < rows; ++row) processRow(segment, row);
  }
  pending_.flush(output());
  store_.freeEmpty();
  compactIfSparse();
}

int64_t SinkUpsertMaterializerOperator::findFirst(const std::vector<Listed>& rows, uint64_t hash) {
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].hash != hash) continue;
    listedBytes_.clear();
    vector::appendKeyBytes(store_.chunk(rows[i].row.segment), matchColumns_,
                           rows[i].row.position, listedBytes_);
    if (listedBytes_ == matchBytes_) return static_cast<int64_t>(i);
  }
  return -1;
}

void SinkUpsertMaterializerOperator::processRow(int32_t segment, int64_t position) {
  const vector::Chunk& chunk = store_.chunk(segment);
  const RowRef row{segment, static_cast<int32_t>(position)};
  keyBytes_.clear();
  vector::appendKeyBytes(chunk, spec_->primaryKey, position, keyBytes_);
  matchBytes_.clear();
  vector::appendKeyBytes(chunk, matchColumns_, position, matchBytes_);
  const uint64_t hash = absl::Hash<std::string_view>{}(matchBytes_);
  const RowKind kind = chunk.rowKind(position);
  if (kind == RowKind::INSERT || kind == RowKind::UPDATE_AFTER) {
    const int32_t slot = keys_.findOrAdd(keyBytes_);
    std::vector<Listed>& rows = keys_[slot].rows;
    const RowKind out = rows.empty() ? RowKind::INSERT : RowKind::UPDATE_AFTER;
    const int64_t same = spec_->upsertKey.empty() ? -1 : findFirst(rows, hash);
    store_.retain(row);
    if (same < 0) {
      rows.push_back(Listed{row, hash});
    } else {
      store_.release(rows[static_cast<size_t>(same)].row);
      rows[static_cast<size_t>(same)] = Listed{row, hash};
    }
    pending_.push(row, out);
    return;
  }
  const int32_t slot = keys_.find(keyBytes_);
  if (slot < 0) return;  // a retraction of a row never listed
  std::vector<Listed>& rows = keys_[slot].rows;
  const int64_t found = findFirst(rows, hash);
  if (found < 0) return;
  const bool wasLast = found + 1 == static_cast<int64_t>(rows.size());
  store_.release(rows[static_cast<size_t>(found)].row);
  rows.erase(rows.begin() + found);
  if (rows.empty()) {
    pending_.push(row, RowKind::DELETE);
    keys_.remove(slot);
  } else if (wasLast) {
    pending_.push(rows.back().row, RowKind::UPDATE_AFTER);
  }
}

void SinkUpsertMaterializerOperator::compactIfSparse() {
  if (!store_.sparse()) return;
  std::vector<RowRef*> references;
  references.reserve(static_cast<size_t>(store_.keptRows()));
  keys_.forEach([&references](int32_t, KeyState& key) {
    for (Listed& listed : key.rows) references.push_back(&listed.row);
  });
  store_.compact(references);
}

// --- Checkpoints ---
//
// A key group's block body (docs/state_format.md, "Sink upsert materializer"): the ListState
// payload, keyCount:varint then per key keyBytes:bytes count:varint row:bytes{count}, each row
// columnCount:varint TypeSerializer<Value>{columnCount} (stored_row_codec.h), in list order.

void SinkUpsertMaterializerOperator::ListedRowsState::snapshotKeyGroups(
    KeyGroupRange range, int maxParallelism, std::vector<std::string>& bodies) const {
  materializer_->snapshotListedRows(range, maxParallelism, bodies);
}

void SinkUpsertMaterializerOperator::ListedRowsState::restoreKeyGroup(int keyGroup,
                                                                      std::string_view body) {
  materializer_->restoreListedRows(keyGroup, body);
}

void SinkUpsertMaterializerOperator::snapshotListedRows(KeyGroupRange range, int maxParallelism,
                                                        std::vector<std::string>& bodies) {
  const std::vector<SnapshotKey> keys = snapshotKeysOf(
      keys_, range, maxParallelism, [](const KeyState& key) { return !key.rows.empty(); });
  std::string row;
  writeKeyGroupBodies(keys, range, bodies, [&](const SnapshotKey& key, std::string& body) {
    const std::vector<Listed>& rows = keys_[key.slot].rows;
    serialization::writeVarint(rows.size(), body);
    for (const Listed& listed : rows) {
      row.clear();
      writeStoredRowColumns(store_.chunk(listed.row.segment), listed.row.position, row);
      state::writeLengthPrefixed(row, body);
    }
  });
}

void SinkUpsertMaterializerOperator::restoreListedRows(int keyGroup, std::string_view body) {
  const int64_t before = restoredRows_.size();
  try {
    const uint64_t keyCount = readCount(body);
    for (uint64_t k = 0; k < keyCount; ++k) {
      const std::string_view keyBytes = readKeyOfKeyGroup(body, keyGroup, context().maxParallelism);
      const uint64_t rowCount = readCount(body);
      if (rowCount == 0) throw InternalError("a key without rows");
      for (uint64_t r = 0; r < rowCount; ++r) {
        std::string_view row = state::readLengthPrefixed(body);
        restoredRows_.readRow(row);
        checkFullyRead(row, "a row");
        restoredKeys_.emplace_back(keyBytes);
      }
    }
    checkFullyRead(body, "the last key");
  } catch (const std::exception& error) {
    // Nothing of a body that does not decode is kept.
    restoredRows_.truncate(before);
    restoredKeys_.resize(static_cast<size_t>(before));
    throwUnrestorableState(kRowsStateName, context().operatorName, keyGroup, error.what());
  }
  if (!restoringInOpen_) listRestoredRows();
}

void SinkUpsertMaterializerOperator::listRestoredRows() {
  if (restoredRows_.empty()) return;
  const std::vector<RowRef> refs = restoredRows_.moveInto(store_);
  for (size_t i = 0; i < refs.size(); ++i) {
    const RowRef row = refs[i];
    matchBytes_.clear();
    vector::appendKeyBytes(store_.chunk(row.segment), matchColumns_, row.position, matchBytes_);
    store_.retain(row);
    // A key's rows are consecutive and in list order: appended, they keep it.
    keys_[keys_.findOrAdd(restoredKeys_[i])].rows.push_back(
        Listed{row, absl::Hash<std::string_view>{}(matchBytes_)});
  }
  restoredKeys_.clear();
}

}  // namespace eddy::runtime::operators
