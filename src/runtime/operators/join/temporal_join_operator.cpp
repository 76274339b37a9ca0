// TemporalJoinOperator: left rows wait per key for the watermark, right versions per key ordered
// by time, emission by a queue of (earliest due time, key) (see the header).
//
// Per row: encoding the equi key into one reused buffer, one hash lookup, and a 24-byte entry;
// emitting a left row is a binary search in its key's versions. Output rows are queued as
// segment positions, their residual condition checked over one assembled chunk per flush.
//
// Checkpoints: a snapshot walks the keys once per state, sorted by key group and key bytes (so
// equal state gives equal bytes), and writes each waiting row's or version's column values as
// Values (stored_row_codec.h); a restore decodes each key group's entries into one chunk per
// side (entries of all key groups together, cut into chunks of kDefaultBatchSize rows), then
// adds them to the store and schedules their keys.
#include "runtime/operators/join/temporal_join_operator.h"

#include <absl/strings/string_view.h>
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "common/check.h"
#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "eddy/state/operator_state_store.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/types/type_serializer.h"
#include "function/kernel_vector.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using relational::JoinType;

namespace {

// A right row marked as failing the residual condition while a flush resolves its pairs.
constexpr int32_t kFailedCondition = -2;

}  // namespace

void TemporalJoinOperator::Pairs::add(RowRef left, RowRef right) {
  leftSegment.push_back(left.segment);
  leftPosition.push_back(left.position);
  rightSegment.push_back(right.segment);
  rightPosition.push_back(right.position);
}

void TemporalJoinOperator::Pairs::clear() {
  leftSegment.clear();
  leftPosition.clear();
  rightSegment.clear();
  rightPosition.clear();
}

TemporalJoinOperator::TemporalJoinOperator(std::shared_ptr<const TemporalJoinSpec> spec)
    : spec_(std::move(spec)), evaluator_({}) {
  EDDY_CHECK(spec_ != nullptr);
  EDDY_CHECK(spec_->joinType == JoinType::INNER || spec_->joinType == JoinType::LEFT);
  EDDY_CHECK(!spec_->leftKeys.empty());
  EDDY_CHECK_EQ(spec_->leftKeys.size(), spec_->rightKeys.size());
  for (size_t i = 0; i < spec_->leftKeys.size(); ++i) {
    // Equal keys must give equal key bytes on both sides: the planner gives them one type.
    EDDY_CHECK(vector::physicalLayoutOf(
                   *spec_->leftRowType->getFields().at(spec_->leftKeys[i]).type) ==
               vector::physicalLayoutOf(
                   *spec_->rightRowType->getFields().at(spec_->rightKeys[i]).type));
  }
  checkTimeColumn(spec_->leftRowType, spec_->leftTimeColumn);
  stores_[0] = RowStore(spec_->leftRowType);
  stores_[1] = RowStore(spec_->rightRowType);
  checkTimeColumn(spec_->rightRowType, spec_->rightTimeColumn);
  EDDY_CHECK_EQ(spec_->outputRowType->getFieldCount(),
                spec_->leftRowType->getFieldCount() + spec_->rightRowType->getFieldCount());
}

TemporalJoinOperator::~TemporalJoinOperator() = default;

void TemporalJoinOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
  if (batchMode_) return;
  // One value per old subtask; from the lowest, no row waits less than it would have.
  watermarkState_ = context.operatorStateStore().getUnionListState(
      ListStateDescriptor<int64_t>(kWatermarkStateName));
  const std::vector<int64_t> restored = watermarkState_->get();
  if (!restored.empty()) {
    currentWatermark_ = *std::min_element(restored.begin(), restored.end());
    evaluationContext_.setWatermark(currentWatermark_);
  }
  // The waiting rows and the versions are raw keyed state; what the task restored is handed
  // over now.
  KeyedStateBackend& backend = context.keyedStateBackend();
  restoringInOpen_ = true;
  for (int side = 0; side < 2; ++side) {
    backend.registerRawKeyedState(stateNameOf(side), state::StateKind::kList, states_[side]);
  }
  restoringInOpen_ = false;
  storeRestored(0);
  storeRestored(1);
}

void TemporalJoinOperator::close() { finished_ = true; }

void TemporalJoinOperator::snapshotState(StateSnapshotContext& /*context*/) {
  if (watermarkState_ != nullptr) watermarkState_->update({currentWatermark_});
}

void TemporalJoinOperator::processBatch(int inputIndex, BatchPtr batch) {
  EDDY_CHECK(inputIndex == 0 || inputIndex == 1);
  EDDY_CHECK(!finished_);
  for (vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    if (chunk.size() == 0) continue;
    if (inputIndex == 0) {
      for (RowKind kind : chunk.rowKinds()) {
        if (kind != RowKind::INSERT) {
          throw InternalError("the left input of a temporal join must be insert-only");
        }
      }
    }
    const int32_t slot = stores_[inputIndex].add(std::move(chunk));
    const vector::Chunk& stored = stores_[inputIndex].chunk(slot);
    if (inputIndex == 0) {
      processLeft(stored, slot);
    } else {
      processRight(stored, slot);
    }
  }
  flushOutput();
}

void TemporalJoinOperator::processLeft(const vector::Chunk& chunk, int32_t slot) {
  const vector::Vector& times = chunk.column(spec_->leftTimeColumn);
  const int64_t* timeValues = times.data<int64_t>();
  for (int64_t row = 0; row < chunk.size(); ++row) {
    const RowRef ref{slot, static_cast<int32_t>(row)};
    if (times.isNull(row) || keyHasNull(chunk, spec_->leftKeys, row)) {
      // Matches no version: padded at once by a LEFT join, dropped by an INNER one.
      if (spec_->joinType == JoinType::LEFT) produced_.add(ref, RowRef{});
      continue;
    }
    keyBytes_.clear();
    vector::appendKeyBytes(chunk, spec_->leftKeys, row, keyBytes_);
    const int32_t keyIndex = keys_.findOrAdd(keyBytes_);
    KeyState& key = keys_[keyIndex];
    const int64_t time = timeValues[row];
    key.waiting.push_back(WaitingRow{time, arrivals_++, ref});
    stores_[0].retain(ref);
    ++storedRows_;
    if (time < key.scheduled) {
      key.scheduled = time;
      queue_.push(QueueEntry{time, keyIndex});
    }
  }
}

void TemporalJoinOperator::processRight(const vector::Chunk& chunk, int32_t slot) {
  const vector::Vector& times = chunk.column(spec_->rightTimeColumn);
  const int64_t* timeValues = times.data<int64_t>();
  for (int64_t row = 0; row < chunk.size(); ++row) {
    const RowKind kind = chunk.rowKind(row);
    if (kind == RowKind::UPDATE_BEFORE) continue;  // the +U after it is the new version
    if (times.isNull(row) || keyHasNull(chunk, spec_->rightKeys, row)) continue;
    keyBytes_.clear();
    vector::appendKeyBytes(chunk, spec_->rightKeys, row, keyBytes_);
    const int32_t keyIndex = keys_.findOrAdd(keyBytes_);
    KeyState& key = keys_[keyIndex];
    const int64_t time = timeValues[row];
    RowRef ref;
    if (kind != RowKind::DELETE) {
      ref = RowRef{slot, static_cast<int32_t>(row)};
      stores_[1].retain(ref);
    }
    auto after = std::upper_bound(key.versions.begin(), key.versions.end(), time,
                                  [](int64_t t, const Version& v) { return t < v.time; });
    if (after != key.versions.begin() && std::prev(after)->time == time) {
      stores_[1].release(std::prev(after)->row);  // the later arrival at one time wins
      std::prev(after)->row = ref;
    } else {
      key.versions.insert(after, Version{time, ref});
      ++storedRows_;
    }
    // Versions are released when the watermark passes the next one (or a deletion).
    int64_t cleanup = kNever;
    if (key.versions.size() >= 2) cleanup = key.versions[1].time;
    if (key.versions[0].row.segment < 0) cleanup = std::min(cleanup, key.versions[0].time);
    if (cleanup < key.scheduled) {
      key.scheduled = cleanup;
      queue_.push(QueueEntry{cleanup, keyIndex});
    }
  }
}

void TemporalJoinOperator::processWatermark(Watermark watermark) {
  if (batchMode_) return;
  evaluationContext_.setWatermark(watermark.timestamp);  // BATCH: everything is joined at finish()
  if (watermark.timestamp <= currentWatermark_) return;
  currentWatermark_ = watermark.timestamp;
  advanceTo(watermark.timestamp);
  output().emitWatermark(watermark);
}

void TemporalJoinOperator::finish() {
  advanceTo(Watermark::kMax);
  // Only the last version of each key is left: nothing can ask for it any more.
  for (int side = 0; side < 2; ++side) {
    stores_[side].clear();
  }
  keys_.clear();
  storedRows_ = 0;
  finished_ = true;
}

void TemporalJoinOperator::advanceTo(int64_t watermark) {
  while (!queue_.empty() && queue_.top().time <= watermark) {
    const QueueEntry entry = queue_.top();
    queue_.pop();
    const KeyState& key = keys_[entry.key];
    if (key.scheduled != entry.time) continue;  // superseded entry (or a removed key's)
    emitKey(entry.key, watermark);
    if (produced_.size() >= kDefaultBatchSize) flushOutput();
  }
  flushOutput();
  compactIfSparse(0);
  compactIfSparse(1);
}

void TemporalJoinOperator::emitKey(int32_t keyIndex, int64_t watermark) {
  KeyState& key = keys_[keyIndex];
  // The waiting rows up to the watermark, in time order, each with the version valid then.
  auto firstKept = std::stable_partition(key.waiting.begin(), key.waiting.end(),
                                         [watermark](const WaitingRow& w) { return w.time <= watermark; });
  std::sort(key.waiting.begin(), firstKept, [](const WaitingRow& a, const WaitingRow& b) {
    return a.time != b.time ? a.time < b.time : a.arrival < b.arrival;
  });
  for (auto it = key.waiting.begin(); it != firstKept; ++it) {
    auto after = std::upper_bound(key.versions.begin(), key.versions.end(), it->time,
                                  [](int64_t t, const Version& v) { return t < v.time; });
    const bool found = after != key.versions.begin() && std::prev(after)->row.segment >= 0;
    if (found) {
      produced_.add(it->row, std::prev(after)->row);
    } else if (spec_->joinType == JoinType::LEFT) {
      produced_.add(it->row, RowRef{});
    }
    stores_[0].release(it->row);
    --storedRows_;
  }
  key.waiting.erase(key.waiting.begin(), firstKept);

  // Versions before the last one at or before the watermark are needed by no future row.
  auto after = std::upper_bound(key.versions.begin(), key.versions.end(), watermark,
                                [](int64_t t, const Version& v) { return t < v.time; });
  if (after != key.versions.begin()) {
    auto last = std::prev(after);
    if (last->row.segment < 0) ++last;  // a deletion: nothing before it can match either
    for (auto it = key.versions.begin(); it != last; ++it) {
      stores_[1].release(it->row);
      --storedRows_;
    }
    key.versions.erase(key.versions.begin(), last);
  }

  key.scheduled = kNever;
  if (key.waiting.empty() && key.versions.empty()) {
    keys_.remove(keyIndex);
    return;
  }
  schedule(keyIndex);
}

void TemporalJoinOperator::schedule(int32_t keyIndex) {
  KeyState& key = keys_[keyIndex];
  int64_t next = kNever;
  for (const WaitingRow& waiting : key.waiting) next = std::min(next, waiting.time);
  if (key.versions.size() >= 2) next = std::min(next, key.versions[1].time);
  if (!key.versions.empty() && key.versions[0].row.segment < 0) {
    next = std::min(next, key.versions[0].time);
  }
  if (next < key.scheduled) {
    key.scheduled = next;
    queue_.push(QueueEntry{next, keyIndex});
  }
}

void TemporalJoinOperator::flushOutput() {
  if (produced_.size() > 0) {
    if (spec_->condition) {
      // The residual condition, over one chunk of every pair that found a version.
      Pairs candidates;
      std::vector<size_t> candidateOf;
      for (size_t i = 0; i < produced_.size(); ++i) {
        if (produced_.rightSegment[i] < 0) continue;
        candidates.add(RowRef{produced_.leftSegment[i], produced_.leftPosition[i]},
                       RowRef{produced_.rightSegment[i], produced_.rightPosition[i]});
        candidateOf.push_back(i);
      }
      if (candidates.size() > 0) {
        std::vector<uint8_t> holds(candidates.size(), 0);
        for (int32_t selected : evaluator_.selectTrue(spec_->condition, assemble(candidates), evaluationContext_)) {
          holds[static_cast<size_t>(selected)] = 1;
        }
        for (size_t j = 0; j < candidates.size(); ++j) {
          if (!holds[j]) produced_.rightSegment[candidateOf[j]] = kFailedCondition;
        }
      }
    }
    // Output chunks of at most kDefaultBatchSize rows (one key may release many more).
    auto batch = std::make_unique<TypedBatch<vector::Chunk>>();
    Pairs emitted;
    for (size_t i = 0; i < produced_.size(); ++i) {
      RowRef left{produced_.leftSegment[i], produced_.leftPosition[i]};
      if (produced_.rightSegment[i] == kFailedCondition) {
        if (spec_->joinType == JoinType::LEFT) emitted.add(left, RowRef{});
      } else {
        emitted.add(left, RowRef{produced_.rightSegment[i], produced_.rightPosition[i]});
      }
      if (emitted.size() == kDefaultBatchSize) {
        batch->push(assemble(emitted), kNoTimestamp);
        emitted.clear();
      }
    }
    produced_.clear();
    if (emitted.size() > 0) batch->push(assemble(emitted), kNoTimestamp);
    if (!batch->records.empty()) output().emitBatch(std::move(batch));
  }
  stores_[0].freeEmpty();
  stores_[1].freeEmpty();
}

void TemporalJoinOperator::compactIfSparse(int side) {
  if (!stores_[side].sparse()) return;
  EDDY_CHECK_EQ(produced_.size(), size_t{0});
  std::vector<RowRef*> references;
  references.reserve(static_cast<size_t>(stores_[side].keptRows()));
  keys_.forEach([&](int32_t, KeyState& key) {
    if (side == 0) {
      for (WaitingRow& waiting : key.waiting) references.push_back(&waiting.row);
    } else {
      for (Version& version : key.versions) {
        if (version.row.segment >= 0) references.push_back(&version.row);
      }
    }
  });
  stores_[side].compact(references);
}

// --- Checkpoints ---
//
// The block bodies of a key group (docs/state_format.md, "Temporal join"): the ListState
// payload, keyCount:varint then per key keyBytes:bytes count:varint element:bytes{count}, where
// a waiting left row (in arrival order) is time:i64 columnCount:varint
// TypeSerializer<Value>{columnCount}, and a version (by time) is time:i64 flags:u8 (bit 0: a
// deletion, no columns follow) [columnCount:varint TypeSerializer<Value>{columnCount}].

namespace {

constexpr uint8_t kVersionIsDeletion = 0x01;

}  // namespace

const char* TemporalJoinOperator::stateNameOf(int side) {
  return side == 0 ? kLeftRowsStateName : kVersionsStateName;
}

void TemporalJoinOperator::StoredRowsState::snapshotKeyGroups(
    KeyGroupRange range, int maxParallelism, std::vector<std::string>& bodies) const {
  join_->snapshotSide(side_, range, maxParallelism, bodies);
}

void TemporalJoinOperator::StoredRowsState::restoreKeyGroup(int keyGroup, std::string_view body) {
  join_->restoreSide(side_, keyGroup, body);
}

void TemporalJoinOperator::RestoredRows::truncate(size_t size) {
  // The chunk holds the rows of the entries before `size` (deletions have none).
  int64_t chunkRows = 0;
  for (size_t entry = 0; entry < size; ++entry) {
    if (rows[entry] >= 0) chunkRows = rows[entry] + 1;
  }
  if (chunk) chunk->truncate(chunkRows);
  keys.resize(size);
  times.resize(size);
  rows.resize(size);
}

void TemporalJoinOperator::snapshotSide(int side, KeyGroupRange range, int maxParallelism,
                                        std::vector<std::string>& bodies) {
  const std::vector<SnapshotKey> keys =
      snapshotKeysOf(keys_, range, maxParallelism, [side](const KeyState& key) {
        return side == 0 ? !key.waiting.empty() : !key.versions.empty();
      });
  const RowStore& store = stores_[side];
  std::string element;
  writeKeyGroupBodies(keys, range, bodies, [&](const SnapshotKey& snapshotKey, std::string& body) {
    const KeyState& key = keys_[snapshotKey.slot];
    if (side == 0) {
      serialization::writeVarint(key.waiting.size(), body);
      for (const WaitingRow& waiting : key.waiting) {  // arrival order
        element.clear();
        TypeSerializer<int64_t>::serialize(waiting.time, element);
        writeStoredRowColumns(store.chunk(waiting.row.segment), waiting.row.position, element);
        state::writeLengthPrefixed(element, body);
      }
      return;
    }
    serialization::writeVarint(key.versions.size(), body);
    for (const Version& version : key.versions) {  // by time
      element.clear();
      TypeSerializer<int64_t>::serialize(version.time, element);
      const bool deletion = version.row.segment < 0;
      element.push_back(static_cast<char>(deletion ? kVersionIsDeletion : 0));
      if (!deletion) {
        writeStoredRowColumns(store.chunk(version.row.segment), version.row.position, element);
      }
      state::writeLengthPrefixed(element, body);
    }
  });
}

void TemporalJoinOperator::restoreSide(int side, int keyGroup, std::string_view body) {
  RestoredRows& rows = restored_[side];
  if (!rows.chunk) rows.chunk.emplace(stores_[side].rowType());
  const size_t before = rows.size();
  try {
    decodeSide(side, keyGroup, body, rows);
  } catch (const EddyException& error) {
    // Nothing of a body that does not decode is kept.
    rows.truncate(before);
    throwUnrestorableState(stateNameOf(side), context().operatorName, keyGroup, error.what());
  }
  // In open(), the entries of all key groups are gathered first (see storeRestored).
  if (!restoringInOpen_ || rows.chunk->size() >= static_cast<int64_t>(kDefaultBatchSize)) {
    storeRestored(side);
  }
}

void TemporalJoinOperator::decodeSide(int side, int keyGroup, std::string_view body,
                                      RestoredRows& rows) const {
  const auto decodeEntry = [&](std::string_view keyBytes, uint64_t index,
                               std::string_view element) {
    const int64_t time = TypeSerializer<int64_t>::deserialize(element);
    bool deletion = false;
    if (side == 1) {
      // One version per time, by time.
      if (index > 0 && time <= rows.times.back()) {
        throw InternalError(fmt::format("a version at {} after one at {} of the same key", time,
                                        rows.times.back()));
      }
      const uint8_t flags = readByte(element);
      if ((flags & ~kVersionIsDeletion) != 0) {
        throw InternalError(fmt::format("unknown version flags {}", static_cast<int>(flags)));
      }
      deletion = (flags & kVersionIsDeletion) != 0;
    }
    int64_t row = -1;
    if (!deletion) {
      row = rows.chunk->size();
      rows.chunk->readRow(element);
    }
    checkFullyRead(element, side == 0 ? "a left row" : "a version");
    rows.keys.emplace_back(keyBytes);
    rows.times.push_back(time);
    rows.rows.push_back(row);
  };
  readKeyedListBody(body, keyGroup, context().maxParallelism, decodeEntry);
}

void TemporalJoinOperator::storeRestored(int side) {
  RestoredRows& rows = restored_[side];
  if (!rows.chunk || rows.size() == 0) return;
  RowStore& store = stores_[side];
  const std::vector<RowRef> refs = rows.chunk->moveInto(store);
  std::vector<int32_t> restoredKeys;  // each key's slot once it changed, scheduled at the end
  for (size_t entry = 0; entry < rows.size(); ++entry) {
    const int64_t row = rows.rows[entry];
    const RowRef ref = row >= 0 ? refs[static_cast<size_t>(row)] : RowRef{};
    const int64_t time = rows.times[entry];
    const int32_t keyIndex = keys_.findOrAdd(rows.keys[entry]);
    KeyState& key = keys_[keyIndex];
    if (ref.segment >= 0) store.retain(ref);
    if (side == 0) {
      key.waiting.push_back(WaitingRow{time, arrivals_++, ref});
      ++storedRows_;
    } else {
      auto after = std::upper_bound(key.versions.begin(), key.versions.end(), time,
                                    [](int64_t t, const Version& v) { return t < v.time; });
      if (after != key.versions.begin() && std::prev(after)->time == time) {
        store.release(std::prev(after)->row);  // the restored version replaces it
        std::prev(after)->row = ref;
      } else {
        key.versions.insert(after, Version{time, ref});
        ++storedRows_;
      }
    }
    if (restoredKeys.empty() || restoredKeys.back() != keyIndex) restoredKeys.push_back(keyIndex);
  }
  // A key's entries are adjacent in a block; once more in case a block is restored twice.
  std::sort(restoredKeys.begin(), restoredKeys.end());
  restoredKeys.erase(std::unique(restoredKeys.begin(), restoredKeys.end()), restoredKeys.end());
  for (int32_t keyIndex : restoredKeys) schedule(keyIndex);
  rows = RestoredRows{};
}

vector::Chunk TemporalJoinOperator::assemble(const Pairs& pairs) const {
  vector::Chunk chunk(spec_->outputRowType);
  stores_[0].gather(pairs.leftSegment, pairs.leftPosition, chunk, 0);
  stores_[1].gather(pairs.rightSegment, pairs.rightPosition, chunk,
                    spec_->leftRowType->getFieldCount());
  chunk.mutableRowKinds().assign(pairs.size(), RowKind::INSERT);
  return chunk;
}

}  // namespace eddy::runtime::operators
