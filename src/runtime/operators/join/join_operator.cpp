// JoinOperator: STREAMING keyed-state join and BATCH hash join over chunks (see the header).
//
// Both modes work the same way on one batch of probe rows: collect every candidate pair (a
// probe row and a row of the other side under the same equi key) into one list, evaluate the
// residual condition once over the joined chunk of all candidates (JoinCondition), then walk
// the probe rows in order to emit and do the bookkeeping. Joined and null-padded output rows
// are queued as positions into the source chunks and gathered a column at a time
// (JoinedRowEmitter), kDefaultBatchSize rows per output chunk.
//
// What is still per row: encoding the equi key (into a reused buffer), one hash lookup, and
// a 32-byte StoredRow when the row is kept. A side whose input retracts also encodes and
// hashes the whole row, and a retraction searches its key's rows linearly (comparing hashes,
// then the encoded rows).
//
// Checkpoints: a snapshot walks the keys once per side, sorted by key group and key bytes (so
// equal state gives equal bytes), and writes each stored row's column values as Values with
// its counts (stored_row_codec.h); a restore decodes each key group's rows into one chunk per
// side (rows of all key groups together, cut into chunks of kDefaultBatchSize rows), then adds
// them to the store.
#include "runtime/operators/join/join_operator.h"

#include <absl/container/flat_hash_map.h>
#include <absl/hash/hash.h>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "common/check.h"
#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/operator_state_store.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/types/type_serializer.h"
#include "runtime/operators/stored_rows/row_sorter.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {


using relational::JoinType;
using relational::isOuterSide;
using relational::outputsLeftOnly;

namespace {

// The most candidate pairs materialized for one condition evaluation; probe rows are taken
// in windows that stay under it (a single row with more candidates is taken alone).
constexpr int64_t kMaxCandidatesPerEvaluation = 16 * static_cast<int64_t>(kDefaultBatchSize);

bool isAccumulate(RowKind kind) { return kind == RowKind::INSERT || kind == RowKind::UPDATE_AFTER; }


}  // namespace

bool keyHasNull(const vector::Chunk& chunk, const std::vector<int>& keyColumns, int64_t row) {
  for (int column : keyColumns) {
    if (chunk.column(column).isNull(row)) return true;
  }
  return false;
}

void checkTimeColumn(const LogicalTypePtr& rowType, int column) {
  EDDY_CHECK_GE(column, 0);
  EDDY_CHECK_LT(column, rowType->getFieldCount());
  vector::PhysicalLayout layout =
      vector::physicalLayoutOf(*rowType->getFields()[static_cast<size_t>(column)].type);
  EDDY_CHECK(layout == vector::PhysicalLayout::kInt64 ||
             layout == vector::PhysicalLayout::kTimestamp);
}

void checkJoinKeyTypes(const LogicalTypePtr& leftRowType, const std::vector<int>& leftKeys,
                       const LogicalTypePtr& rightRowType, const std::vector<int>& rightKeys) {
  EDDY_CHECK_EQ(leftKeys.size(), rightKeys.size());
  // Equal keys must give equal key bytes on both sides: the planner casts keys to one type.
  for (size_t i = 0; i < leftKeys.size(); ++i) {
    const LogicalType& leftKey = *leftRowType->getFields().at(static_cast<size_t>(leftKeys[i])).type;
    const LogicalType& rightKey =
        *rightRowType->getFields().at(static_cast<size_t>(rightKeys[i])).type;
    EDDY_CHECK(vector::physicalLayoutOf(leftKey) == vector::physicalLayoutOf(rightKey));
    EDDY_CHECK_EQ(leftKey.getTypeRoot() == LogicalTypeRoot::DECIMAL ? leftKey.getScale() : 0,
                  rightKey.getTypeRoot() == LogicalTypeRoot::DECIMAL ? rightKey.getScale() : 0);
  }
}

std::string batchJoinAlgorithmName(BatchJoinAlgorithm algorithm) {
  switch (algorithm) {
    case BatchJoinAlgorithm::AUTO:
      return "Join";
    case BatchJoinAlgorithm::HASH:
      return "HashJoin";
    case BatchJoinAlgorithm::SORT_MERGE:
      return "SortMergeJoin";
  }
  throw InternalError("unknown join algorithm");
}

bool keysSortable(const JoinSpec& spec) {
  if (spec.leftKeys.empty()) return false;
  return std::none_of(spec.leftKeys.begin(), spec.leftKeys.end(), [&](int key) {
    return vector::physicalLayoutOf(*spec.leftRowType->getFields()[static_cast<size_t>(key)].type) ==
           vector::PhysicalLayout::kBoxed;
  });
}

JoinOperator::JoinOperator(std::shared_ptr<const JoinSpec> spec) : spec_(std::move(spec)) {
  EDDY_CHECK(spec_ != nullptr);
  EDDY_CHECK(spec_->leftRowType != nullptr && spec_->rightRowType != nullptr &&
             spec_->outputRowType != nullptr);
  checkJoinKeyTypes(spec_->leftRowType, spec_->leftKeys, spec_->rightRowType, spec_->rightKeys);
  leftColumnCount_ = spec_->leftRowType->getFieldCount();
  rightColumnCount_ = spec_->rightRowType->getFieldCount();
  const bool leftOnly = outputsLeftOnly(spec_->joinType);
  EDDY_CHECK_EQ(spec_->outputRowType->getFieldCount(),
                leftOnly ? leftColumnCount_ : leftColumnCount_ + rightColumnCount_);
  // The condition reads both sides' columns; SEMI/ANTI output the left ones only.
  LogicalTypePtr joinedRowType = spec_->outputRowType;
  if (leftOnly) {
    std::vector<RowField> fields = spec_->leftRowType->getFields();
    for (const RowField& field : spec_->rightRowType->getFields()) fields.push_back(field);
    for (size_t i = 0; i < fields.size(); ++i) fields[i].name = "f" + std::to_string(i);
    joinedRowType = LogicalType::row(std::move(fields));
  }
  condition_ = JoinCondition(spec_->condition, std::move(joinedRowType));
  for (int column = 0; column < leftColumnCount_; ++column) allColumns_[0].push_back(column);
  for (int column = 0; column < rightColumnCount_; ++column) allColumns_[1].push_back(column);
  stores_[0] = RowStore(spec_->leftRowType);
  stores_[1] = RowStore(spec_->rightRowType);
  emitter_ = JoinedRowEmitter(&stores_[0], &stores_[1], spec_->outputRowType,
                              /*rightColumns=*/!leftOnly);
}

JoinOperator::~JoinOperator() = default;

bool JoinOperator::isOuter(int side) const { return isOuterSide(spec_->joinType, side); }

void JoinOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
  if (batchMode_) return;
  // One value per old subtask; CURRENT_WATERMARK reads the lowest until the next watermark.
  watermarkState_ = context.operatorStateStore().getUnionListState(
      ListStateDescriptor<int64_t>(kWatermarkStateName));
  const std::vector<int64_t> restored = watermarkState_->get();
  if (!restored.empty()) {
    currentWatermark_ = *std::min_element(restored.begin(), restored.end());
    condition_.setWatermark(currentWatermark_);
  }
  // The stored rows are raw keyed state; the rows the task restored are handed over now.
  KeyedStateBackend& backend = context.keyedStateBackend();
  restoringInOpen_ = true;
  for (int side = 0; side < 2; ++side) {
    backend.registerRawKeyedState(rowsStateName(side), state::StateKind::kList, rowsStates_[side]);
  }
  restoringInOpen_ = false;
  storeRestoredRows(0);
  storeRestoredRows(1);
}

void JoinOperator::snapshotState(StateSnapshotContext& /*context*/) {
  if (watermarkState_ != nullptr) watermarkState_->update({currentWatermark_});
}

void JoinOperator::processBatch(int inputIndex, BatchPtr batch) {
  EDDY_CHECK(inputIndex == 0 || inputIndex == 1);
  for (vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    if (chunk.size() == 0) continue;
    if (!batchMode_) {
      processChunkInStreamingMode(inputIndex, std::move(chunk));
      continue;
    }
    for (RowKind kind : chunk.rowKinds()) {
      if (kind != RowKind::INSERT) {
        throw InternalError("an input of a join in BATCH mode must be insert-only");
      }
    }
    batchSlots_[inputIndex].push_back(stores_[inputIndex].add(std::move(chunk)));
  }
  if (!batchMode_) compactIfSparse();
}

uint64_t JoinOperator::hashRow(int side, const vector::Chunk& chunk, int64_t row) {
  rowBytes_.clear();
  vector::appendKeyBytes(chunk, allColumns_[side], row, rowBytes_);
  return absl::Hash<std::string_view>{}(rowBytes_);
}

std::vector<JoinOperator::StoredRow>::iterator JoinOperator::findEqual(
    int side, std::vector<StoredRow>& rows, uint64_t hash) {
  for (auto stored = rows.begin(); stored != rows.end(); ++stored) {
    if (stored->hash != hash) continue;
    storedRowBytes_.clear();
    vector::appendKeyBytes(stores_[side].chunk(stored->row.segment), allColumns_[side],
                           stored->row.position, storedRowBytes_);
    if (storedRowBytes_ == rowBytes_) return stored;
  }
  return rows.end();
}

void JoinOperator::expireIfIdle(KeyState& key, int side, int64_t now) {
  std::vector<StoredRow>& rows = key.rows[side];
  if (rows.empty() || now - key.lastWrite[side] < spec_->stateTtlMillis) return;
  for (const StoredRow& stored : rows) stores_[side].release(stored.row);
  rows.clear();
}

void JoinOperator::expireIdleKeysIncrementally(int64_t visits, int64_t now) {
  visits = std::min(visits, static_cast<int64_t>(keySlotCount_));
  for (int64_t visit = 0; visit < visits; ++visit) {
    if (ttlCleanupCursor_ >= keySlotCount_) ttlCleanupCursor_ = 0;
    const int32_t slot = ttlCleanupCursor_++;
    KeyState& key = keys_[slot];
    if (key.touchedBy == 0) continue;  // a free slot
    expireIfIdle(key, 0, now);
    expireIfIdle(key, 1, now);
    if (key.rows[0].empty() && key.rows[1].empty()) keys_.remove(slot);
  }
}

void JoinOperator::compactIfSparse() {
  for (int side = 0; side < 2; ++side) {
    if (!stores_[side].sparse()) continue;
    EDDY_CHECK_EQ(emitter_.queuedRows(), int64_t{0});
    std::vector<RowRef*> references;
    references.reserve(static_cast<size_t>(stores_[side].keptRows()));
    keys_.forEach([&](int32_t, KeyState& key) {
      for (StoredRow& stored : key.rows[side]) references.push_back(&stored.row);
    });
    stores_[side].compact(references);
  }
}

void JoinOperator::processChunkInStreamingMode(int inputSide, vector::Chunk chunk) {
  const int otherSide = 1 - inputSide;
  const int64_t now = spec_->stateTtlMillis > 0 ? context().clock->currentTimeMillis() : 0;
  // 0. State TTL: the keys idle for the TTL that the cleanup cursor passes are released
  // (their chunks are freed with this chunk's, below).
  if (spec_->stateTtlMillis > 0) {
    expireIdleKeysIncrementally(chunk.size() * kTtlCleanupKeysPerRow, now);
  }
  const int32_t slot = stores_[inputSide].add(std::move(chunk));
  const vector::Chunk& input = stores_[inputSide].chunk(slot);
  const int64_t rowCount = input.size();

  // 1. The key of every row, and the keys the chunk touches.
  std::vector<int32_t> touched;
  const std::vector<int32_t> keyOfRow = findKeysInStreamingMode(inputSide, input, now, touched);

  JoinedRowRefs candidates;
  std::vector<int64_t> firstCandidateOfRow;
  std::vector<size_t> matchedRows;  // of one input row, indexes into its key's other rows
  int64_t windowBegin = 0;
  while (windowBegin < rowCount) {
    // 2. The candidate pairs of a window of rows.
    const int64_t windowEnd = collectCandidatesInStreamingMode(inputSide, slot, windowBegin, keyOfRow,
                                                               candidates, firstCandidateOfRow);
    // 3. The residual condition, once for the whole window.
    const std::vector<uint8_t> matches = condition_.evaluate(candidates, stores_[0], stores_[1]);

    // 4. Emission and bookkeeping, row by row in input order (matches do not depend on the
    // order; associations do).
    for (int64_t row = windowBegin; row < windowEnd; ++row) {
      const int32_t keyIndex = keyOfRow[static_cast<size_t>(row)];
      matchedRows.clear();
      int64_t matchCount = 0;  // other-side rows, multiplicities included
      if (keyIndex >= 0) {
        const std::vector<StoredRow>& others = keys_[keyIndex].rows[otherSide];
        const int64_t first = firstCandidateOfRow[static_cast<size_t>(row - windowBegin)];
        for (size_t j = 0; j < others.size(); ++j) {
          if (matches[static_cast<size_t>(first) + j] == 0) continue;
          matchedRows.push_back(j);
          matchCount += others[j].count;
        }
      }
      processRowInStreamingMode(inputSide, RowRef{slot, static_cast<int32_t>(row)}, keyIndex,
                                matchedRows, matchCount, now);
    }
    windowBegin = windowEnd;
  }

  // 5. Keys left without rows are dropped; chunks without kept rows are freed once the
  // output pointing into them is out.
  for (int32_t keyIndex : touched) {
    const KeyState& key = keys_[keyIndex];
    if (key.rows[0].empty() && key.rows[1].empty()) keys_.remove(keyIndex);
  }
  emitter_.flush(output());
  stores_[0].freeEmpty();
  stores_[1].freeEmpty();
}

std::vector<int32_t> JoinOperator::findKeysInStreamingMode(int inputSide,
                                                           const vector::Chunk& input, int64_t now,
                                                           std::vector<int32_t>& touched) {
  // A row whose key holds a NULL matches nothing and is not stored (Flink stores it, but
  // nothing can ever find it, so no output differs).
  const std::vector<int>& keyColumns = inputSide == 0 ? spec_->leftKeys : spec_->rightKeys;
  const bool ttl = spec_->stateTtlMillis > 0;
  const uint64_t serial = ++chunkSerial_;
  std::vector<int32_t> keyOfRow(static_cast<size_t>(input.size()), -1);
  for (int64_t row = 0; row < input.size(); ++row) {
    if (keyHasNull(input, keyColumns, row)) continue;
    keyBytes_.clear();
    vector::appendKeyBytes(input, keyColumns, row, keyBytes_);
    const int32_t keyIndex = keys_.findOrAdd(keyBytes_);
    keyOfRow[static_cast<size_t>(row)] = keyIndex;
    KeyState& key = keys_[keyIndex];
    if (key.touchedBy != serial) {
      key.touchedBy = serial;
      touched.push_back(keyIndex);
      keySlotCount_ = std::max(keySlotCount_, keyIndex + 1);
      if (ttl) {
        expireIfIdle(key, 0, now);
        expireIfIdle(key, 1, now);
      }
    }
  }
  return keyOfRow;
}

int64_t JoinOperator::collectCandidatesInStreamingMode(
    int inputSide, int32_t slot, int64_t windowBegin, const std::vector<int32_t>& keyOfRow,
    JoinedRowRefs& candidates, std::vector<int64_t>& firstCandidateOfRow) const {
  candidates.clear();
  firstCandidateOfRow.clear();
  const auto rowCount = static_cast<int64_t>(keyOfRow.size());
  int64_t windowEnd = windowBegin;
  while (windowEnd < rowCount &&
         (windowEnd == windowBegin || candidates.size() < kMaxCandidatesPerEvaluation)) {
    firstCandidateOfRow.push_back(candidates.size());
    const int32_t keyIndex = keyOfRow[static_cast<size_t>(windowEnd)];
    if (keyIndex >= 0) {
      const RowRef inputRow{slot, static_cast<int32_t>(windowEnd)};
      for (const StoredRow& other : keys_[keyIndex].rows[1 - inputSide]) {
        if (inputSide == 0) {
          candidates.add(RowKind::INSERT, inputRow, other.row);
        } else {
          candidates.add(RowKind::INSERT, other.row, inputRow);
        }
      }
    }
    ++windowEnd;
  }
  return windowEnd;
}

void JoinOperator::processRowInStreamingMode(int inputSide, RowRef inputRow, int32_t keyIndex,
                                             const std::vector<size_t>& matchedRows,
                                             int64_t matchCount, int64_t now) {
  const RowKind kind = stores_[inputSide].chunk(inputRow.segment).rowKind(inputRow.position);
  KeyState* key = keyIndex >= 0 ? &keys_[keyIndex] : nullptr;
  const bool leftOnly = outputsLeftOnly(spec_->joinType);
  if (leftOnly) emitLeftOnlyInStreamingMode(inputSide, inputRow, kind, key, matchedRows, now);
  if (isAccumulate(kind)) {
    if (!leftOnly) emitJoinedInStreamingMode(inputSide, inputRow, kind, key, matchedRows, now);
    if (key != nullptr) storeRowInStreamingMode(inputSide, inputRow, *key, matchCount, now);
  } else {
    if (key != nullptr) removeRowInStreamingMode(inputSide, inputRow, *key, now);
    if (!leftOnly) emitJoinedInStreamingMode(inputSide, inputRow, kind, key, matchedRows, now);
  }
}

void JoinOperator::emitLeftOnlyInStreamingMode(int inputSide, RowRef inputRow, RowKind kind,
                                               KeyState* key,
                                               const std::vector<size_t>& matchedRows,
                                               int64_t now) {
  // SEMI/ANTI: a left row is emitted with its own kind when it has partners (SEMI) or none
  // (ANTI); a right row changes the visibility of the left rows it matches.
  const bool anti = spec_->joinType == JoinType::ANTI;
  if (inputSide == 0) {
    if (matchedRows.empty() == anti) emitInStreamingMode(inputSide, kind, inputRow, RowRef{});
    return;
  }
  if (matchedRows.empty()) return;
  const bool accumulate = isAccumulate(kind);
  for (size_t j : matchedRows) {
    StoredRow& other = key->rows[0][j];
    if (other.associations == (accumulate ? 0 : 1)) {
      // Flink: a semi join forwards the right row's kind, an anti join emits -D / +I.
      const RowKind visibility = !anti ? kind : accumulate ? RowKind::DELETE : RowKind::INSERT;
      for (int64_t copy = 0; copy < other.count; ++copy) {
        emitInStreamingMode(inputSide, visibility, RowRef{}, other.row);
      }
    }
    other.associations += accumulate ? 1 : -1;
  }
  key->lastWrite[0] = now;
}

void JoinOperator::emitJoinedInStreamingMode(int inputSide, RowRef inputRow, RowKind kind,
                                             KeyState* key,
                                             const std::vector<size_t>& matchedRows,
                                             int64_t now) {
  const int otherSide = 1 - inputSide;
  const bool inputIsOuter = isOuter(inputSide);
  const bool otherIsOuter = isOuter(otherSide);
  const bool accumulate = isAccumulate(kind);
  if (matchedRows.empty()) {
    if (inputIsOuter) {
      emitInStreamingMode(inputSide, accumulate ? RowKind::INSERT : RowKind::DELETE, inputRow,
                          RowRef{});
    }
    return;
  }
  // Flink forwards +U only when neither side is outer, -U only when the input side is not.
  const RowKind joinedKind = accumulate ? (inputIsOuter || otherIsOuter ? RowKind::INSERT : kind)
                                        : (inputIsOuter ? RowKind::DELETE : kind);
  for (size_t j : matchedRows) {
    StoredRow& other = key->rows[otherSide][j];
    for (int64_t copy = 0; copy < other.count; ++copy) {
      // An outer row's padded row leaves with its first partner and returns after its last.
      if (accumulate && otherIsOuter && other.associations == 0) {
        emitInStreamingMode(inputSide, RowKind::DELETE, RowRef{}, other.row);
      }
      emitInStreamingMode(inputSide, joinedKind, inputRow, other.row);
      if (!accumulate && otherIsOuter && other.associations == 1) {
        emitInStreamingMode(inputSide, RowKind::INSERT, RowRef{}, other.row);
      }
    }
    if (otherIsOuter) other.associations += accumulate ? 1 : -1;
  }
  if (otherIsOuter) key->lastWrite[otherSide] = now;
}

void JoinOperator::storeRowInStreamingMode(int inputSide, RowRef inputRow, KeyState& key,
                                           int64_t matchCount, int64_t now) {
  std::vector<StoredRow>& rows = key.rows[inputSide];
  const bool mergeEqualRows = !spec_->insertOnlyInput[inputSide];
  const int64_t associations = isOuter(inputSide) ? matchCount : 0;
  const uint64_t hash =
      mergeEqualRows
          ? hashRow(inputSide, stores_[inputSide].chunk(inputRow.segment), inputRow.position)
          : 0;
  auto equal = mergeEqualRows ? findEqual(inputSide, rows, hash) : rows.end();
  if (equal != rows.end()) {
    ++equal->count;
    equal->associations = associations;
  } else {
    stores_[inputSide].retain(inputRow);
    rows.push_back(StoredRow{inputRow, 1, associations, hash});
  }
  key.lastWrite[inputSide] = now;
}

void JoinOperator::removeRowInStreamingMode(int inputSide, RowRef inputRow, KeyState& key,
                                            int64_t now) {
  std::vector<StoredRow>& rows = key.rows[inputSide];
  auto equal = findEqual(
      inputSide, rows,
      hashRow(inputSide, stores_[inputSide].chunk(inputRow.segment), inputRow.position));
  if (equal != rows.end() && --equal->count == 0) {
    stores_[inputSide].release(equal->row);
    rows.erase(equal);
  }
  key.lastWrite[inputSide] = now;
}

void JoinOperator::finish() {
  if (batchMode_) finishInBatchMode();
}

void JoinOperator::finishInBatchMode() {
  const int64_t probeRows = stores_[0].heldRows();
  const int64_t buildRows = stores_[1].heldRows();
  const bool sortMerge =
      keysSortable(*spec_) &&
      (spec_->batchAlgorithm == BatchJoinAlgorithm::SORT_MERGE ||
       (spec_->batchAlgorithm == BatchJoinAlgorithm::AUTO &&
        buildRows >= kSortMergeMinimumBuildRows && buildRows * 4 >= probeRows));
  if (sortMerge) {
    sortMergeJoinInBatchMode();
  } else {
    hashJoinInBatchMode();
  }
  emitter_.flush(output());
  for (int side = 0; side < 2; ++side) {
    stores_[side].clear();
    batchSlots_[side].clear();
  }
}

void JoinOperator::emitUnmatchedInBatchMode(int side, RowRef row) {
  if (side == 0) {
    // LEFT/FULL: null-padded; ANTI: the row itself; INNER/RIGHT/SEMI: nothing.
    if (spec_->joinType == JoinType::ANTI || (isOuter(0) && !outputsLeftOnly(spec_->joinType))) {
      emitter_.append(RowKind::INSERT, row, RowRef{}, output());
    }
  } else if (isOuter(1)) {
    emitter_.append(RowKind::INSERT, RowRef{}, row, output());
  }
}

void JoinOperator::emitProbedRowsInBatchMode(const ProbeWindow& window,
                                             std::vector<uint8_t>& rightMatched) {
  const std::vector<uint8_t> matches =
      condition_.evaluate(window.candidates, stores_[0], stores_[1]);
  for (size_t i = 0; i < window.probeRows.size(); ++i) {
    const RowRef probeRow = window.probeRows[i];
    const int64_t first = window.firstCandidateOfRow[i];
    const int64_t end = i + 1 < window.probeRows.size() ? window.firstCandidateOfRow[i + 1]
                                                         : window.candidates.size();
    if (outputsLeftOnly(spec_->joinType)) {  // SEMI: the row once if it matches; ANTI: if not
      const bool matched = std::any_of(matches.begin() + first, matches.begin() + end,
                                       [](uint8_t match) { return match != 0; });
      if (matched != (spec_->joinType == JoinType::ANTI)) {
        emitter_.append(RowKind::INSERT, probeRow, RowRef{}, output());
      }
      continue;
    }
    bool matched = false;
    for (int64_t c = first; c < end; ++c) {
      if (matches[static_cast<size_t>(c)] == 0) continue;
      const auto candidate = static_cast<size_t>(c);
      emitter_.append(RowKind::INSERT, probeRow, window.candidates.right(candidate), output());
      rightMatched[static_cast<size_t>(window.rightOfCandidate[candidate])] = 1;
      matched = true;
    }
    if (!matched) emitUnmatchedInBatchMode(0, probeRow);
  }
}

void JoinOperator::ProbeWindow::clear() {
  probeRows.clear();
  candidates.clear();
  firstCandidateOfRow.clear();
  rightOfCandidate.clear();
}

bool JoinOperator::ProbeWindow::hasRoom() const {
  return probeRows.empty() || candidates.size() < kMaxCandidatesPerEvaluation;
}

void JoinOperator::ProbeWindow::addProbeRow(RowRef row) {
  probeRows.push_back(row);
  firstCandidateOfRow.push_back(candidates.size());
}

void JoinOperator::ProbeWindow::addCandidate(RowRef right, int32_t rightNumber) {
  candidates.add(RowKind::INSERT, probeRows.back(), right);
  rightOfCandidate.push_back(rightNumber);
}

void JoinOperator::hashJoinInBatchMode() {
  // Build: the right rows of each key, chained in arrival order (first and last row of the
  // chain per key). Rows with a NULL key are numbered (for RIGHT/FULL) but in no chain. One
  // integer key (the integer types, DATE, TIME) is looked up by value, other keys by bytes.
  auto integerLayout = [](const LogicalTypePtr& rowType, int column) {
    return vector::isIntegerLayout(
        vector::physicalLayoutOf(*rowType->getFields()[static_cast<size_t>(column)].type));
  };
  const bool integerKey = spec_->leftKeys.size() == 1 &&
                          integerLayout(spec_->leftRowType, spec_->leftKeys[0]) &&
                          integerLayout(spec_->rightRowType, spec_->rightKeys[0]);
  using Chain = std::pair<int32_t, int32_t>;
  absl::flat_hash_map<int64_t, Chain> chainOfInteger;
  absl::flat_hash_map<std::string, Chain> chainOfBytes;
  // The chain of row `row`'s key (whose key is not NULL): added (as (-1, -1)) when `add`, else
  // nullptr when the key has none.
  auto chainOf = [&](const vector::Chunk& chunk, const std::vector<int>& keys, int64_t row,
                     bool add) -> Chain* {
    if (integerKey) {
      const int64_t key = vector::integerAt(chunk.column(keys[0]), row);
      if (add) return &chainOfInteger.try_emplace(key, -1, -1).first->second;
      auto found = chainOfInteger.find(key);
      return found == chainOfInteger.end() ? nullptr : &found->second;
    }
    keyBytes_.clear();
    vector::appendKeyBytes(chunk, keys, row, keyBytes_);
    if (add) return &chainOfBytes.try_emplace(keyBytes_, -1, -1).first->second;
    auto found = chainOfBytes.find(keyBytes_);
    return found == chainOfBytes.end() ? nullptr : &found->second;
  };
  std::vector<RowRef> buildRows;
  std::vector<int32_t> nextBuildRowOfKey;
  for (int32_t slot : batchSlots_[1]) {
    const vector::Chunk& chunk = stores_[1].chunk(slot);
    for (int64_t row = 0; row < chunk.size(); ++row) {
      auto buildRow = static_cast<int32_t>(buildRows.size());
      buildRows.push_back(RowRef{slot, static_cast<int32_t>(row)});
      nextBuildRowOfKey.push_back(-1);
      if (keyHasNull(chunk, spec_->rightKeys, row)) continue;
      Chain& chain = *chainOf(chunk, spec_->rightKeys, row, /*add=*/true);
      if (chain.first < 0) {
        chain.first = buildRow;
      } else {
        nextBuildRowOfKey[static_cast<size_t>(chain.second)] = buildRow;
      }
      chain.second = buildRow;
    }
  }
  std::vector<uint8_t> buildRowMatched(buildRows.size(), 0);

  // Probe with the left rows in arrival order, in windows of at most
  // kMaxCandidatesPerEvaluation candidate pairs.
  ProbeWindow window;
  for (int32_t slot : batchSlots_[0]) {
    const vector::Chunk& chunk = stores_[0].chunk(slot);
    int64_t row = 0;
    while (row < chunk.size()) {
      window.clear();
      for (; row < chunk.size() && window.hasRoom(); ++row) {
        window.addProbeRow(RowRef{slot, static_cast<int32_t>(row)});
        if (keyHasNull(chunk, spec_->leftKeys, row)) continue;
        if (const Chain* chain = chainOf(chunk, spec_->leftKeys, row, /*add=*/false)) {
          for (int32_t buildRow = chain->first; buildRow >= 0;
               buildRow = nextBuildRowOfKey[static_cast<size_t>(buildRow)]) {
            window.addCandidate(buildRows[static_cast<size_t>(buildRow)], buildRow);
          }
        }
      }
      emitProbedRowsInBatchMode(window, buildRowMatched);
    }
  }

  // The right rows nobody matched, in arrival order.
  for (size_t buildRow = 0; buildRow < buildRows.size(); ++buildRow) {
    if (buildRowMatched[buildRow] == 0) emitUnmatchedInBatchMode(1, buildRows[buildRow]);
  }
}

void JoinOperator::sortMergeJoinInBatchMode() {
  // Each side's rows sorted by their key bytes (rows with a NULL key join nothing and are
  // set aside, so the keys need no NULL markers); equal keys are then adjacent on both sides
  // and met in one pass.
  auto ascending = [](const std::vector<int>& keys) {
    std::vector<vector::SortColumn> columns;
    for (int key : keys) {
      columns.push_back(vector::SortColumn{key, true, true, /*withoutNulls=*/true});
    }
    return columns;
  };
  RowSorter sorted[2] = {RowSorter(ascending(spec_->leftKeys)),
                         RowSorter(ascending(spec_->rightKeys))};
  std::vector<RowRef> nullKeyRows[2];
  for (int side = 0; side < 2; ++side) {
    const std::vector<int>& keys = side == 0 ? spec_->leftKeys : spec_->rightKeys;
    for (int32_t slot : batchSlots_[side]) {
      const vector::Chunk& chunk = stores_[side].chunk(slot);
      for (int64_t row = 0; row < chunk.size(); ++row) {
        const auto position = static_cast<int32_t>(row);
        if (keyHasNull(chunk, keys, row)) {
          nullKeyRows[side].push_back(RowRef{slot, position});
        } else {
          sorted[side].add(chunk, slot, position);
        }
      }
    }
    sorted[side].sort();
  }
  for (int side = 0; side < 2; ++side) {
    for (RowRef row : nullKeyRows[side]) emitUnmatchedInBatchMode(side, row);
  }
  const std::vector<SortedRow>& left = sorted[0].rows();
  const std::vector<SortedRow>& right = sorted[1].rows();
  std::vector<uint8_t> rightMatched(right.size(), 0);
  ProbeWindow window;
  size_t l = 0;
  size_t r = 0;
  while (l < left.size() || r < right.size()) {
    const int order = l == left.size()    ? 1
                      : r == right.size() ? -1
                                          : sorted[0].compareKeys(left[l], sorted[1], right[r]);
    if (order < 0) {
      emitUnmatchedInBatchMode(0, left[l++].row);
      continue;
    }
    if (order > 0) {
      emitUnmatchedInBatchMode(1, right[r++].row);
      continue;
    }
    // The runs of the key on both sides: every left row of it meets every right row of it.
    size_t leftEnd = l + 1;
    while (leftEnd < left.size() && sorted[0].compareKeys(left[leftEnd], sorted[0], left[l]) == 0) {
      ++leftEnd;
    }
    size_t rightEnd = r + 1;
    while (rightEnd < right.size() &&
           sorted[1].compareKeys(right[rightEnd], sorted[1], right[r]) == 0) {
      ++rightEnd;
    }
    while (l < leftEnd) {
      window.clear();
      for (; l < leftEnd && window.hasRoom(); ++l) {
        window.addProbeRow(left[l].row);
        for (size_t k = r; k < rightEnd; ++k) {
          window.addCandidate(right[k].row, static_cast<int32_t>(k));
        }
      }
      emitProbedRowsInBatchMode(window, rightMatched);
    }
    for (; r < rightEnd; ++r) {
      if (rightMatched[r] == 0) emitUnmatchedInBatchMode(1, right[r].row);
    }
  }
}

void JoinOperator::processWatermark(Watermark watermark) {
  currentWatermark_ = watermark.timestamp;
  condition_.setWatermark(watermark.timestamp);
  output().emitWatermark(watermark);
}

// --- Checkpoints ---
//
// One side's block body of a key group (docs/state_format.md, "Regular join"): the ListState
// payload, keyCount:varint then per key keyBytes:bytes count:varint row:bytes{count}, where
// row := flags:u8 multiplicity:varint [associations:i64] [lastWrite:i64] columnCount:varint
// TypeSerializer<Value>{columnCount}; flags bit 0: associations follow (an outer side, and
// SEMI/ANTI's left side), bit 1: the key side's last write follows (a state TTL).

namespace {

constexpr uint8_t kRowHasAssociations = 0x01;
constexpr uint8_t kRowHasLastWrite = 0x02;

}  // namespace

const char* JoinOperator::rowsStateName(int side) {
  return side == 0 ? kLeftRowsStateName : kRightRowsStateName;
}

void JoinOperator::StoredRowsState::snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                                                      std::vector<std::string>& bodies) const {
  state::writeAllKeyGroups(*join_->freezeStoredRows(side_, range, maxParallelism), range, bodies);
}

std::unique_ptr<state::FrozenKeyGroups> JoinOperator::StoredRowsState::freezeKeyGroups(
    KeyGroupRange range, int maxParallelism) const {
  return join_->freezeStoredRows(side_, range, maxParallelism);
}

void JoinOperator::StoredRowsState::restoreKeyGroup(int keyGroup, std::string_view body) {
  join_->restoreStoredRows(side_, keyGroup, body);
}

void JoinOperator::RestoredRows::truncate(size_t size) {
  if (chunk) chunk->truncate(static_cast<int64_t>(size));
  keys.resize(size);
  counts.resize(size);
  associations.resize(size);
  lastWrites.resize(size);
}

std::unique_ptr<FrozenStoredRows> JoinOperator::freezeStoredRows(int side, KeyGroupRange range,
                                                                 int maxParallelism) const {
  const int64_t ttl = spec_->stateTtlMillis;
  const int64_t now = ttl > 0 ? context().clock->currentTimeMillis() : 0;
  const RowStore& store = stores_[side];
  auto frozen = std::make_unique<FrozenStoredRows>(store, range, maxParallelism);
  const auto flags = static_cast<uint8_t>((isOuter(side) ? kRowHasAssociations : 0) |
                                          (ttl > 0 ? kRowHasLastWrite : 0));
  keys_.forEach([&](int32_t /*slot*/, const KeyState& key) {
    // A key side the TTL has expired would be released when its key is next seen: left out.
    if (key.rows[side].empty() || (ttl > 0 && now - key.lastWrite[side] >= ttl)) return;
    frozen->addKey(key.bytes);
    for (const StoredRow& stored : key.rows[side]) {
      std::string& header = frozen->addRow(stored.row);
      header.push_back(static_cast<char>(flags));
      serialization::writeVarint(static_cast<uint64_t>(stored.count), header);
      if ((flags & kRowHasAssociations) != 0) {
        TypeSerializer<int64_t>::serialize(stored.associations, header);
      }
      if ((flags & kRowHasLastWrite) != 0) {
        TypeSerializer<int64_t>::serialize(key.lastWrite[side], header);
      }
    }
  });
  return frozen;
}

void JoinOperator::restoreStoredRows(int side, int keyGroup, std::string_view body) {
  RestoredRows& rows = restored_[side];
  if (!rows.chunk) rows.chunk.emplace(stores_[side].rowType());
  const size_t before = rows.size();
  try {
    decodeStoredRows(side, keyGroup, body, rows);
  } catch (const EddyException& error) {
    // Nothing of a body that does not decode is kept.
    rows.truncate(before);
    throwUnrestorableState(rowsStateName(side), context().operatorName, keyGroup, error.what());
  }
  // In open(), the rows of all key groups are gathered first (see storeRestoredRows).
  if (!restoringInOpen_ || rows.size() >= kDefaultBatchSize) storeRestoredRows(side);
}

void JoinOperator::decodeStoredRows(int side, int keyGroup, std::string_view body,
                                    RestoredRows& rows) const {
  const auto decodeRow = [&](std::string_view keyBytes, uint64_t, std::string_view row) {
    const uint8_t flags = readByte(row);
    if ((flags & ~(kRowHasAssociations | kRowHasLastWrite)) != 0) {
      throw InternalError(fmt::format("unknown row flags {}", static_cast<int>(flags)));
    }
    const uint64_t count = serialization::readVarint(row);
    if (count == 0 || count > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      throw InternalError(fmt::format("a row of multiplicity {}", count));
    }
    int64_t associations = 0;
    if ((flags & kRowHasAssociations) != 0) {
      associations = TypeSerializer<int64_t>::deserialize(row);
    } else if (isOuter(side)) {
      // Without them no padded row could be retracted or re-inserted correctly.
      throw InternalError(fmt::format(
          "a row of the {} input without its number of associations, which the {} join "
          "keeps (was the join type changed?)",
          side == 0 ? "left" : "right", relational::joinTypeName(spec_->joinType)));
    }
    int64_t lastWrite = RestoredRows::kNoLastWrite;
    if ((flags & kRowHasLastWrite) != 0) lastWrite = TypeSerializer<int64_t>::deserialize(row);
    rows.chunk->readRow(row);
    checkFullyRead(row, "a row");
    rows.keys.emplace_back(keyBytes);
    rows.counts.push_back(static_cast<int64_t>(count));
    rows.associations.push_back(isOuter(side) ? associations : 0);
    rows.lastWrites.push_back(lastWrite);
  };
  readKeyedListBody(body, keyGroup, context().maxParallelism, decodeRow);
}

void JoinOperator::storeRestoredRows(int side) {
  RestoredRows& rows = restored_[side];
  if (!rows.chunk || rows.size() == 0) return;
  RowStore& store = stores_[side];
  const bool mergeEqualRows = !spec_->insertOnlyInput[side];
  const int64_t ttl = spec_->stateTtlMillis;
  const int64_t now = ttl > 0 ? context().clock->currentTimeMillis() : 0;
  const std::vector<RowRef> refs = rows.chunk->moveInto(store);
  for (size_t index = 0; index < refs.size(); ++index) {
    const RowRef ref = refs[index];
    // The row hash (absl::Hash, seeded per process) is computed again.
    const uint64_t hash =
        mergeEqualRows ? hashRow(side, store.chunk(ref.segment), ref.position) : 0;
    const int32_t keyIndex = keys_.findOrAdd(rows.keys[index]);
    KeyState& key = keys_[keyIndex];
    keySlotCount_ = std::max(keySlotCount_, keyIndex + 1);
    if (key.touchedBy == 0) key.touchedBy = kRestoredKey;  // a key, not a free slot
    if (ttl > 0) {
      // A snapshot without TTL stamps: the rows count as written at the restore.
      const int64_t lastWrite =
          rows.lastWrites[index] == RestoredRows::kNoLastWrite ? now : rows.lastWrites[index];
      key.lastWrite[side] =
          key.rows[side].empty() ? lastWrite : std::max(key.lastWrite[side], lastWrite);
    }
    store.retain(ref);
    key.rows[side].push_back(StoredRow{ref, rows.counts[index], rows.associations[index], hash});
  }
  rows = RestoredRows{};
}

}  // namespace eddy::runtime::operators
