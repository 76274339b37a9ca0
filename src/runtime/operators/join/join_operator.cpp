// JoinOperator: STREAMING keyed-state join and BATCH hash join over chunks (see the header).
//
// Both modes work the same way on one batch of probe rows: collect every candidate pair (a
// probe row and a row of the other side under the same equi key) into one list, evaluate the
// residual condition once over the joined chunk of all candidates (ExpressionEvaluator::
// selectTrue), then walk the probe rows in order to emit and do the bookkeeping. Joined and
// null-padded output rows are queued as positions into the source chunks and assembled a
// column at a time (KernelVector::interleave), kDefaultBatchSize rows per output chunk.
//
// What is still per row: encoding the equi key (into a reused buffer) and one hash lookup per
// row; in STREAMING, reading the row into Values to find or store it in its side's state
// (Values allocate for strings), the linear search for an equal stored row, and appending
// the other side's stored rows (per distinct key and chunk, not per pair) to a chunk with
// Vector::appendValue. State is read and written once per distinct key and chunk.
#include "runtime/operators/join/join_operator.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <utility>

#include "common/check.h"
#include "eddy/exceptions.h"
#include "eddy/state/key_group_range.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

namespace {

// The most candidate pairs materialized for one condition evaluation; probe rows are taken
// in windows that stay under it (a single row with more candidates is taken alone).
constexpr int64_t kMaxCandidatesPerEvaluation = 16 * static_cast<int64_t>(kDefaultBatchSize);

bool isAccumulate(RowKind kind) { return kind == RowKind::INSERT || kind == RowKind::UPDATE_AFTER; }


std::vector<Value> valuesOfRow(const vector::Chunk& chunk, int64_t row) {
  std::vector<Value> values;
  values.reserve(static_cast<size_t>(chunk.columnCount()));
  for (int column = 0; column < chunk.columnCount(); ++column) {
    values.push_back(chunk.column(column).valueAt(row));
  }
  return values;
}

void appendRecordRow(const JoinRecord& record, vector::Chunk& chunk) {
  for (int column = 0; column < chunk.columnCount(); ++column) {
    chunk.mutableColumn(column).appendValue(record.fields[static_cast<size_t>(column)]);
  }
  chunk.mutableRowKinds().push_back(RowKind::INSERT);
}

/// Adds one occurrence of `fields` to a key's stored rows: to the record of equal fields when
/// `merge` (an input that retracts finds its rows by their fields), else as a record of its own.
void addRecord(std::vector<JoinRecord>& records, std::vector<Value> fields, int64_t associations,
               bool merge) {
  if (!merge) {
    records.push_back(JoinRecord{std::move(fields), 1, associations});
    return;
  }
  for (JoinRecord& record : records) {
    if (record.fields == fields) {
      ++record.count;
      record.associations = associations;
      return;
    }
  }
  records.push_back(JoinRecord{std::move(fields), 1, associations});
}

/// Removes one occurrence of `fields` from a key's stored rows; nothing when it is absent.
void retractRecord(std::vector<JoinRecord>& records, const std::vector<Value>& fields) {
  for (auto record = records.begin(); record != records.end(); ++record) {
    if (record->fields == fields) {
      if (--record->count == 0) records.erase(record);
      return;
    }
  }
}

// One distinct equi key of an input chunk in STREAMING: its stored rows on both sides, read
// once, changed in memory while the chunk's rows are processed, and written back once.
struct ChunkKey {
  std::string bytes;
  int keyGroup = 0;
  std::vector<JoinRecord> inputRecords;
  std::vector<JoinRecord> otherRecords;
  int32_t firstOtherRow = 0;  // row of otherRecords[0] in the chunk of other-side rows
  bool otherChanged = false;
  bool otherMoved = false;  // otherRecords was moved out of the state entry
};

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

std::string joinTypeName(JoinType type) {
  switch (type) {
    case JoinType::INNER:
      return "InnerJoin";
    case JoinType::LEFT:
      return "LeftOuterJoin";
    case JoinType::RIGHT:
      return "RightOuterJoin";
    case JoinType::FULL:
      return "FullOuterJoin";
  }
  throw InternalError("unknown join type");
}

void JoinOperator::JoinedRows::add(RowKind kind, int32_t leftSource, int32_t leftPosition,
                                   int32_t rightSource, int32_t rightPosition) {
  leftSourceOf.push_back(leftSource);
  leftPositionOf.push_back(leftPosition);
  rightSourceOf.push_back(rightSource);
  rightPositionOf.push_back(rightPosition);
  kinds.push_back(kind);
}

void JoinOperator::JoinedRows::clear() {
  leftSourceOf.clear();
  leftPositionOf.clear();
  rightSourceOf.clear();
  rightPositionOf.clear();
  kinds.clear();
}

bool isOuterSide(JoinType type, int side) {
  switch (type) {
    case JoinType::INNER:
      return false;
    case JoinType::LEFT:
      return side == 0;
    case JoinType::RIGHT:
      return side == 1;
    case JoinType::FULL:
      return true;
  }
  return false;
}

void markReadColumns(const expression::BoundExpression& expression, std::vector<bool>& columns) {
  if (expression.kind() == expression::ExpressionKind::kColumnReference) {
    int index = static_cast<const expression::ColumnReference&>(expression).index();
    EDDY_CHECK_LT(index, static_cast<int>(columns.size()));
    columns[static_cast<size_t>(index)] = true;
  }
  for (const expression::ExpressionPtr& child : expression.children()) {
    markReadColumns(*child, columns);
  }
}

JoinOperator::JoinOperator(std::shared_ptr<const JoinSpec> spec)
    : spec_(std::move(spec)), evaluator_({}) {
  EDDY_CHECK(spec_ != nullptr);
  EDDY_CHECK(spec_->leftRowType != nullptr && spec_->rightRowType != nullptr &&
             spec_->outputRowType != nullptr);
  EDDY_CHECK_EQ(spec_->leftKeys.size(), spec_->rightKeys.size());
  leftColumnCount_ = spec_->leftRowType->getFieldCount();
  rightColumnCount_ = spec_->rightRowType->getFieldCount();
  // Equal keys must give equal key bytes on both sides: the planner casts keys to one type.
  for (size_t i = 0; i < spec_->leftKeys.size(); ++i) {
    const LogicalType& leftKey =
        *spec_->leftRowType->getFields().at(static_cast<size_t>(spec_->leftKeys[i])).type;
    const LogicalType& rightKey =
        *spec_->rightRowType->getFields().at(static_cast<size_t>(spec_->rightKeys[i])).type;
    EDDY_CHECK(vector::physicalLayoutOf(leftKey) == vector::physicalLayoutOf(rightKey));
    EDDY_CHECK_EQ(leftKey.getTypeRoot() == LogicalTypeRoot::DECIMAL ? leftKey.getScale() : 0,
                  rightKey.getTypeRoot() == LogicalTypeRoot::DECIMAL ? rightKey.getScale() : 0);
  }
  EDDY_CHECK_EQ(spec_->outputRowType->getFieldCount(), leftColumnCount_ + rightColumnCount_);
  conditionColumns_.assign(static_cast<size_t>(leftColumnCount_ + rightColumnCount_), false);
  if (spec_->condition) markReadColumns(*spec_->condition, conditionColumns_);
}

JoinOperator::~JoinOperator() = default;

bool JoinOperator::isOuter(int side) const { return isOuterSide(spec_->joinType, side); }

void JoinOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
  if (batchMode_) return;
  stateBackend_ = std::make_unique<HeapKeyedStateBackend>(context.keyGroupRange,
                                                          context.maxParallelism, *context.clock);
  for (int side = 0; side < 2; ++side) {
    ValueStateDescriptor<std::vector<JoinRecord>> descriptor(side == 0 ? "left-records"
                                                                       : "right-records");
    if (spec_->stateTtlMillis > 0) {
      descriptor.enableTimeToLive(
          StateTtlConfig::newBuilder(std::chrono::milliseconds(spec_->stateTtlMillis)).build());
    }
    recordState_[side] = stateBackend_->getValueState(descriptor);
  }
}

void JoinOperator::processBatch(int inputIndex, BatchPtr batch) {
  EDDY_CHECK(inputIndex == 0 || inputIndex == 1);
  for (vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    if (chunk.size() == 0) continue;
    if (!batchMode_) {
      processChunkInStreamingMode(inputIndex, chunk);
      continue;
    }
    for (RowKind kind : chunk.rowKinds()) {
      if (kind != RowKind::INSERT) {
        throw InternalError("an input of a join in BATCH mode must be insert-only");
      }
    }
    bufferedChunks_[inputIndex].push_back(std::move(chunk));
  }
}

void JoinOperator::setSources(int side, const std::vector<const vector::Chunk*>& chunks) {
  const int columnCount = side == 0 ? leftColumnCount_ : rightColumnCount_;
  auto& views = sourceViews_[side];
  auto& pointers = sourcePointers_[side];
  views.assign(static_cast<size_t>(columnCount), {});
  pointers.assign(static_cast<size_t>(columnCount), {});
  for (int column = 0; column < columnCount; ++column) {
    auto& columnViews = views[static_cast<size_t>(column)];
    columnViews.reserve(chunks.size());
    for (const vector::Chunk* chunk : chunks) {
      columnViews.push_back(function::KernelVector::borrow(chunk->column(column)));
    }
    for (const function::KernelVector& view : columnViews) {
      pointers[static_cast<size_t>(column)].push_back(&view);
    }
  }
}

vector::Chunk JoinOperator::assemble(const JoinedRows& rows, bool onlyConditionColumns) const {
  vector::Chunk chunk(spec_->outputRowType);
  const std::vector<RowField>& fields = spec_->outputRowType->getFields();
  for (int column = 0; column < leftColumnCount_ + rightColumnCount_; ++column) {
    if (onlyConditionColumns && !conditionColumns_[static_cast<size_t>(column)]) continue;
    const bool left = column < leftColumnCount_;
    const int side = left ? 0 : 1;
    const int sourceColumn = left ? column : column - leftColumnCount_;
    chunk.mutableColumn(column) =
        function::KernelVector::interleave(fields[static_cast<size_t>(column)].type,
                                           sourcePointers_[side][static_cast<size_t>(sourceColumn)],
                                           left ? rows.leftSourceOf : rows.rightSourceOf,
                                           left ? rows.leftPositionOf : rows.rightPositionOf)
            .toVector();
  }
  chunk.mutableRowKinds() = rows.kinds;
  return chunk;
}

std::vector<uint8_t> JoinOperator::evaluateCondition(const JoinedRows& candidates) const {
  if (!spec_->condition) return std::vector<uint8_t>(static_cast<size_t>(candidates.size()), 1);
  std::vector<uint8_t> matches(static_cast<size_t>(candidates.size()), 0);
  if (candidates.size() == 0) return matches;
  vector::Chunk joined = assemble(candidates, /*onlyConditionColumns=*/true);
  for (int32_t selected : evaluator_.selectTrue(spec_->condition, joined)) {
    matches[static_cast<size_t>(selected)] = 1;
  }
  return matches;
}

void JoinOperator::appendOutput(RowKind kind, int32_t leftSource, int32_t leftPosition,
                                int32_t rightSource, int32_t rightPosition) {
  pendingOutput_.add(kind, leftSource, leftPosition, rightSource, rightPosition);
  if (pendingOutput_.size() >= static_cast<int64_t>(kDefaultBatchSize)) flushOutput();
}

void JoinOperator::flushOutput() {
  if (pendingOutput_.size() == 0) return;
  auto batch = std::make_unique<TypedBatch<vector::Chunk>>();
  batch->push(assemble(pendingOutput_, /*onlyConditionColumns=*/false), kNoTimestamp);
  pendingOutput_.clear();
  output().emitBatch(std::move(batch));
}

void JoinOperator::processChunkInStreamingMode(int inputSide, const vector::Chunk& input) {
  const int otherSide = 1 - inputSide;
  const bool inputIsLeft = inputSide == 0;
  const bool inputIsOuter = isOuter(inputSide);
  const bool otherIsOuter = isOuter(otherSide);
  const std::vector<int>& keyColumns = inputIsLeft ? spec_->leftKeys : spec_->rightKeys;
  const int64_t rowCount = input.size();

  // 1. The chunk's distinct keys. A row whose key holds a NULL matches nothing and is not
  // stored (Flink stores it, but nothing can ever find it, so no output differs).
  std::vector<ChunkKey> keys;
  absl::flat_hash_map<std::string, int32_t> indexOfKey;
  std::vector<int32_t> keyOfRow(static_cast<size_t>(rowCount), -1);
  for (int64_t row = 0; row < rowCount; ++row) {
    if (keyHasNull(input, keyColumns, row)) continue;
    keyBytes_.clear();
    vector::appendKeyBytes(input, keyColumns, row, keyBytes_);
    auto [position, inserted] =
        indexOfKey.try_emplace(keyBytes_, static_cast<int32_t>(keys.size()));
    if (inserted) {
      ChunkKey& key = keys.emplace_back();
      key.bytes = keyBytes_;
      key.keyGroup = assignToKeyGroup(keyBytes_, context().maxParallelism);
    }
    keyOfRow[static_cast<size_t>(row)] = position->second;
  }

  // 2. One state read per key and side; the other side's rows become one chunk.
  vector::Chunk otherRows(otherSide == 0 ? spec_->leftRowType : spec_->rightRowType);
  for (ChunkKey& key : keys) {
    stateBackend_->setCurrentKey(key.bytes, key.keyGroup);
    // Moved out of the heap backend's entries (no copy); copied from backends that keep
    // values serialized. Both go back in step 6.
    auto take = [](RecordState& state, bool& moved) {
      if (std::vector<JoinRecord>* held = state.valuePointer()) {
        moved = true;
        return std::move(*held);
      }
      moved = false;
      return state.value().value_or(std::vector<JoinRecord>{});
    };
    bool inputMoved = false;
    key.inputRecords = take(*recordState_[inputSide], inputMoved);
    key.otherRecords = take(*recordState_[otherSide], key.otherMoved);
    key.firstOtherRow = static_cast<int32_t>(otherRows.size());
    for (const JoinRecord& record : key.otherRecords) appendRecordRow(record, otherRows);
  }
  setSources(inputSide, {&input});
  setSources(otherSide, {&otherRows});

  // Output rows point at the input chunk and the other rows' chunk, each source 0 of its side.
  auto emitJoined = [&](RowKind kind, int64_t row, int32_t otherRow) {
    auto inputRow = static_cast<int32_t>(row);
    if (inputIsLeft) {
      appendOutput(kind, 0, inputRow, 0, otherRow);
    } else {
      appendOutput(kind, 0, otherRow, 0, inputRow);
    }
  };
  auto emitInputPadded = [&](RowKind kind, int64_t row) {
    auto inputRow = static_cast<int32_t>(row);
    if (inputIsLeft) {
      appendOutput(kind, 0, inputRow, -1, 0);
    } else {
      appendOutput(kind, -1, 0, 0, inputRow);
    }
  };
  auto emitOtherPadded = [&](RowKind kind, int32_t otherRow) {
    if (inputIsLeft) {
      appendOutput(kind, -1, 0, 0, otherRow);
    } else {
      appendOutput(kind, 0, otherRow, -1, 0);
    }
  };

  JoinedRows candidates;
  std::vector<int64_t> firstCandidateOfRow;
  std::vector<size_t> matchedRecords;  // of one row, indexes into its key's otherRecords
  int64_t windowBegin = 0;
  while (windowBegin < rowCount) {
    // 3. The candidate pairs of a window of rows: each row with every stored other row of
    // its key, in stored order.
    candidates.clear();
    firstCandidateOfRow.clear();
    int64_t windowEnd = windowBegin;
    while (windowEnd < rowCount &&
           (windowEnd == windowBegin || candidates.size() < kMaxCandidatesPerEvaluation)) {
      firstCandidateOfRow.push_back(candidates.size());
      int32_t keyIndex = keyOfRow[static_cast<size_t>(windowEnd)];
      if (keyIndex >= 0) {
        const ChunkKey& key = keys[static_cast<size_t>(keyIndex)];
        auto inputRow = static_cast<int32_t>(windowEnd);
        for (size_t j = 0; j < key.otherRecords.size(); ++j) {
          int32_t otherRow = key.firstOtherRow + static_cast<int32_t>(j);
          if (inputIsLeft) {
            candidates.add(RowKind::INSERT, 0, inputRow, 0, otherRow);
          } else {
            candidates.add(RowKind::INSERT, 0, otherRow, 0, inputRow);
          }
        }
      }
      ++windowEnd;
    }
    // 4. The residual condition, once for the whole window.
    std::vector<uint8_t> matches = evaluateCondition(candidates);

    // 5. Emission and bookkeeping, row by row in input order (matches do not depend on the
    // order; associations do).
    for (int64_t row = windowBegin; row < windowEnd; ++row) {
      const RowKind kind = input.rowKind(row);
      const int32_t keyIndex = keyOfRow[static_cast<size_t>(row)];
      ChunkKey* key = keyIndex >= 0 ? &keys[static_cast<size_t>(keyIndex)] : nullptr;
      matchedRecords.clear();
      int64_t matchCount = 0;  // other-side rows, multiplicities included
      if (key != nullptr) {
        int64_t first = firstCandidateOfRow[static_cast<size_t>(row - windowBegin)];
        for (size_t j = 0; j < key->otherRecords.size(); ++j) {
          if (matches[static_cast<size_t>(first) + j] == 0) continue;
          matchedRecords.push_back(j);
          matchCount += key->otherRecords[j].count;
        }
      }

      if (isAccumulate(kind)) {
        if (matchedRecords.empty()) {
          if (inputIsOuter) emitInputPadded(RowKind::INSERT, row);
        } else {
          // Flink forwards +U only when neither side is outer.
          const RowKind joinedKind = inputIsOuter || otherIsOuter ? RowKind::INSERT : kind;
          for (size_t j : matchedRecords) {
            JoinRecord& other = key->otherRecords[j];
            const int32_t otherRow = key->firstOtherRow + static_cast<int32_t>(j);
            for (int64_t copy = 0; copy < other.count; ++copy) {
              if (otherIsOuter && other.associations == 0) {
                emitOtherPadded(RowKind::DELETE, otherRow);
              }
              emitJoined(joinedKind, row, otherRow);
            }
            if (otherIsOuter) {
              ++other.associations;
              key->otherChanged = true;
            }
          }
        }
        if (key != nullptr) {
          addRecord(key->inputRecords, valuesOfRow(input, row), inputIsOuter ? matchCount : 0,
                    !spec_->insertOnlyInput[inputSide]);
        }
      } else {
        if (key != nullptr) retractRecord(key->inputRecords, valuesOfRow(input, row));
        if (matchedRecords.empty()) {
          if (inputIsOuter) emitInputPadded(RowKind::DELETE, row);
        } else {
          // Flink forwards -U only when the input side is not outer.
          const RowKind joinedKind = inputIsOuter ? RowKind::DELETE : kind;
          for (size_t j : matchedRecords) {
            JoinRecord& other = key->otherRecords[j];
            const int32_t otherRow = key->firstOtherRow + static_cast<int32_t>(j);
            for (int64_t copy = 0; copy < other.count; ++copy) {
              emitJoined(joinedKind, row, otherRow);
              if (otherIsOuter && other.associations == 1) {
                emitOtherPadded(RowKind::INSERT, otherRow);
              }
            }
            if (otherIsOuter) {
              --other.associations;
              key->otherChanged = true;
            }
          }
        }
      }
    }
    windowBegin = windowEnd;
  }

  // 6. One state write per key and changed side.
  for (ChunkKey& key : keys) {
    stateBackend_->setCurrentKey(key.bytes, key.keyGroup);
    if (key.inputRecords.empty()) {
      recordState_[inputSide]->clear();
    } else {
      recordState_[inputSide]->update(std::move(key.inputRecords));
    }
    if (key.otherChanged || key.otherMoved) {
      recordState_[otherSide]->update(std::move(key.otherRecords));
    }
  }
  flushOutput();  // before the sources go away
  setSources(0, {});
  setSources(1, {});
}

void JoinOperator::finish() {
  if (batchMode_) finishInBatchMode();
}

void JoinOperator::finishInBatchMode() {
  const std::vector<vector::Chunk>& probeChunks = bufferedChunks_[0];
  const std::vector<vector::Chunk>& buildChunks = bufferedChunks_[1];

  // Build: the right rows of each key, chained in arrival order. Rows with a NULL key are
  // numbered (for RIGHT/FULL) but in no chain.
  std::vector<int32_t> buildChunkOf;
  std::vector<int32_t> buildPositionOf;
  std::vector<int32_t> nextBuildRowOfKey;
  absl::flat_hash_map<std::string, std::pair<int32_t, int32_t>> firstAndLastBuildRowOfKey;
  for (size_t chunkIndex = 0; chunkIndex < buildChunks.size(); ++chunkIndex) {
    const vector::Chunk& chunk = buildChunks[chunkIndex];
    for (int64_t row = 0; row < chunk.size(); ++row) {
      auto buildRow = static_cast<int32_t>(buildChunkOf.size());
      buildChunkOf.push_back(static_cast<int32_t>(chunkIndex));
      buildPositionOf.push_back(static_cast<int32_t>(row));
      nextBuildRowOfKey.push_back(-1);
      if (keyHasNull(chunk, spec_->rightKeys, row)) continue;
      keyBytes_.clear();
      vector::appendKeyBytes(chunk, spec_->rightKeys, row, keyBytes_);
      auto [chain, inserted] = firstAndLastBuildRowOfKey.try_emplace(keyBytes_, buildRow, buildRow);
      if (!inserted) {
        nextBuildRowOfKey[static_cast<size_t>(chain->second.second)] = buildRow;
        chain->second.second = buildRow;
      }
    }
  }
  std::vector<uint8_t> buildRowMatched(buildChunkOf.size(), 0);

  std::vector<const vector::Chunk*> sources;
  for (const vector::Chunk& chunk : probeChunks) sources.push_back(&chunk);
  setSources(0, sources);
  sources.clear();
  for (const vector::Chunk& chunk : buildChunks) sources.push_back(&chunk);
  setSources(1, sources);

  // Probe with the left rows in arrival order.
  JoinedRows candidates;
  std::vector<int32_t> buildRowOfCandidate;
  std::vector<int64_t> firstCandidateOfRow;
  for (size_t chunkIndex = 0; chunkIndex < probeChunks.size(); ++chunkIndex) {
    const vector::Chunk& chunk = probeChunks[chunkIndex];
    const auto probeSource = static_cast<int32_t>(chunkIndex);
    int64_t windowBegin = 0;
    while (windowBegin < chunk.size()) {
      candidates.clear();
      buildRowOfCandidate.clear();
      firstCandidateOfRow.clear();
      int64_t windowEnd = windowBegin;
      while (windowEnd < chunk.size() &&
             (windowEnd == windowBegin || candidates.size() < kMaxCandidatesPerEvaluation)) {
        firstCandidateOfRow.push_back(candidates.size());
        if (!keyHasNull(chunk, spec_->leftKeys, windowEnd)) {
          keyBytes_.clear();
          vector::appendKeyBytes(chunk, spec_->leftKeys, windowEnd, keyBytes_);
          auto chain = firstAndLastBuildRowOfKey.find(keyBytes_);
          if (chain != firstAndLastBuildRowOfKey.end()) {
            for (int32_t buildRow = chain->second.first; buildRow >= 0;
                 buildRow = nextBuildRowOfKey[static_cast<size_t>(buildRow)]) {
              candidates.add(RowKind::INSERT, probeSource, static_cast<int32_t>(windowEnd),
                             buildChunkOf[static_cast<size_t>(buildRow)],
                             buildPositionOf[static_cast<size_t>(buildRow)]);
              buildRowOfCandidate.push_back(buildRow);
            }
          }
        }
        ++windowEnd;
      }
      firstCandidateOfRow.push_back(candidates.size());
      std::vector<uint8_t> matches = evaluateCondition(candidates);
      for (int64_t row = windowBegin; row < windowEnd; ++row) {
        bool matched = false;
        int64_t end = firstCandidateOfRow[static_cast<size_t>(row - windowBegin + 1)];
        for (int64_t c = firstCandidateOfRow[static_cast<size_t>(row - windowBegin)]; c < end;
             ++c) {
          if (matches[static_cast<size_t>(c)] == 0) continue;
          appendOutput(RowKind::INSERT, probeSource, static_cast<int32_t>(row),
                       candidates.rightSourceOf[static_cast<size_t>(c)],
                       candidates.rightPositionOf[static_cast<size_t>(c)]);
          buildRowMatched[static_cast<size_t>(buildRowOfCandidate[static_cast<size_t>(c)])] = 1;
          matched = true;
        }
        if (!matched && isOuter(0)) {
          appendOutput(RowKind::INSERT, probeSource, static_cast<int32_t>(row), -1, 0);
        }
      }
      windowBegin = windowEnd;
    }
  }

  // The right rows nobody matched, in arrival order.
  if (isOuter(1)) {
    for (size_t buildRow = 0; buildRow < buildChunkOf.size(); ++buildRow) {
      if (buildRowMatched[buildRow] != 0) continue;
      appendOutput(RowKind::INSERT, -1, 0, buildChunkOf[buildRow], buildPositionOf[buildRow]);
    }
  }
  flushOutput();
  setSources(0, {});
  setSources(1, {});
  bufferedChunks_[0].clear();
  bufferedChunks_[1].clear();
}

}  // namespace eddy::runtime::operators

namespace eddy {

void TypeSerializer<runtime::operators::JoinRecord>::serialize(
    const runtime::operators::JoinRecord& record, std::string& out) {
  TypeSerializer<std::vector<Value>>::serialize(record.fields, out);
  TypeSerializer<int64_t>::serialize(record.count, out);
  TypeSerializer<int64_t>::serialize(record.associations, out);
}

runtime::operators::JoinRecord TypeSerializer<runtime::operators::JoinRecord>::deserialize(
    std::string_view& in) {
  runtime::operators::JoinRecord record;
  record.fields = TypeSerializer<std::vector<Value>>::deserialize(in);
  record.count = TypeSerializer<int64_t>::deserialize(in);
  record.associations = TypeSerializer<int64_t>::deserialize(in);
  return record;
}

}  // namespace eddy
