// IntervalJoinOperator: STREAMING time-bounded join with watermark- or timer-driven release,
// and BATCH join at finish() (see the header).
//
// One input chunk in STREAMING: read each row's time and key, classify it (unjoinable: NULL key
// or time; late; joinable), collect every candidate pair (the row and each stored row of the
// other side under its key whose time is in its range: a binary search in the key's
// time-ordered rows), evaluate the residual condition once over the joined chunk of all
// candidates (JoinCondition), then walk the rows in order to emit joined and padded rows. The
// chunk itself is added to the side's RowStore and the stored rows point into it; when most of
// it is not stored, the stored rows are copied into a chunk of their own instead. Output rows
// are queued as RowRefs and gathered a column at a time (JoinedRowEmitter);
// chunks with no stored row left are freed once the output queued from them is flushed, and a
// store holding mostly released rows is compacted (RowStore::compact).
//
// What is per row: encoding the equi key (into one reused buffer per chunk), one hash lookup,
// the binary search, and a 24-byte entry for a stored row. Nothing is converted to Values.
//
// Checkpoints: a snapshot walks the keys once per side, sorted by key group and key bytes (so
// equal state gives equal bytes), and writes each stored row's column values as Values; a
// restore decodes each key group's rows into one chunk per side (rows of all key groups
// together, cut into chunks of kDefaultBatchSize rows), then adds them to the store.
#include "runtime/operators/join/interval_join_operator.h"

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <utility>

#include "common/check.h"
#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "eddy/state/operator_state_store.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/types/type_serializer.h"
#include "eddy/types/value.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using relational::isOuterSide;

namespace {

// The most candidate pairs materialized for one condition evaluation; probe rows are taken in
// windows that stay under it (a single row with more candidates is taken alone).
constexpr int64_t kMaxCandidatesPerEvaluation = 16 * static_cast<int64_t>(kDefaultBatchSize);

// What becomes of an input row in STREAMING.
enum RowStatus : uint8_t {
  kUnjoinable,  // NULL key or NULL time: matches nothing
  kLate,        // every possible partner is gone (see the header)
  kJoinable,    // joins stored rows; not stored (it would be released at once)
  kStored,      // joins stored rows and is stored
};

int64_t saturatingAdd(int64_t value, int64_t delta) {
  int64_t result = 0;
  if (__builtin_add_overflow(value, delta, &result)) {
    return delta > 0 ? Watermark::kMax : Watermark::kMin;
  }
  return result;
}

}  // namespace

int64_t intervalJoinWatermarkDelay(const IntervalJoinSpec& spec) {
  const int64_t negatedLower =
      spec.lowerBound == Watermark::kMin ? Watermark::kMax : -spec.lowerBound;
  return std::max<int64_t>(0, std::max(spec.upperBound, negatedLower));
}

IntervalJoinOperator::IntervalJoinOperator(std::shared_ptr<const IntervalJoinSpec> spec)
    : spec_(std::move(spec)) {
  EDDY_CHECK(spec_ != nullptr);
  EDDY_CHECK(spec_->leftRowType != nullptr && spec_->rightRowType != nullptr &&
             spec_->outputRowType != nullptr);
  checkJoinKeyTypes(spec_->leftRowType, spec_->leftKeys, spec_->rightRowType, spec_->rightKeys);
  columnCount_[0] = spec_->leftRowType->getFieldCount();
  columnCount_[1] = spec_->rightRowType->getFieldCount();
  EDDY_CHECK_LE(spec_->lowerBound, spec_->upperBound);
  EDDY_CHECK_GT(spec_->lowerBound, Watermark::kMin);  // its negation is a release offset
  if (!spec_->processingTime) {
    checkTimeColumn(spec_->leftRowType, spec_->leftTimeColumn);
    checkTimeColumn(spec_->rightRowType, spec_->rightTimeColumn);
  }
  EDDY_CHECK_EQ(spec_->outputRowType->getFieldCount(), columnCount_[0] + columnCount_[1]);
  condition_ = JoinCondition(spec_->condition, spec_->outputRowType);
  watermarkDelay_ = intervalJoinWatermarkDelay(*spec_);
  stores_[0] = RowStore(spec_->leftRowType);
  stores_[1] = RowStore(spec_->rightRowType);
  emitter_ = JoinedRowEmitter(&stores_[0], &stores_[1], spec_->outputRowType,
                              /*rightColumns=*/true);
}

IntervalJoinOperator::~IntervalJoinOperator() = default;

bool IntervalJoinOperator::isOuter(int side) const { return isOuterSide(spec_->joinType, side); }

size_t IntervalJoinOperator::bufferedRows() const {
  // BATCH buffers whole chunks without retaining their rows.
  const int64_t rows = batchMode_ ? stores_[0].heldRows() + stores_[1].heldRows()
                                  : stores_[0].keptRows() + stores_[1].keptRows();
  return static_cast<size_t>(rows);
}

int64_t IntervalJoinOperator::timeOffset(int side) const {
  // A left row at l can meet right rows up to l + upperBound; a right row at r left rows up
  // to r - lowerBound.
  return side == 0 ? spec_->upperBound : -spec_->lowerBound;
}

int64_t IntervalJoinOperator::lateThreshold(int side, int64_t time) const {
  // Past its own release (no partner can arrive any more) and past the release of the latest
  // stored partner it could join (at time + upperBound, released at time + upperBound -
  // lowerBound; mirrored for the right side).
  const int64_t release = saturatingAdd(time, timeOffset(side));
  return saturatingAdd(release, std::max<int64_t>(0, timeOffset(1 - side)));
}

void IntervalJoinOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
  if (spec_->processingTime && context.processingTimeService == nullptr) {
    throw InternalError("A processing-time interval join needs a ProcessingTimeService.");
  }
  if (batchMode_) return;
  if (!spec_->processingTime) {
    // One value per old subtask; from the lowest, no row accepted before is late and every row
    // late before is late again.
    watermarkState_ = context.operatorStateStore().getUnionListState(
        ListStateDescriptor<int64_t>(kWatermarkStateName));
    const std::vector<int64_t> restored = watermarkState_->get();
    if (!restored.empty()) {
      currentWatermark_ = *std::min_element(restored.begin(), restored.end());
      condition_.setWatermark(currentWatermark_);
      lastEmittedWatermark_ = currentWatermark_ == Watermark::kMax
                                  ? Watermark::kMax
                                  : saturatingAdd(currentWatermark_, -watermarkDelay_);
    }
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

void IntervalJoinOperator::close() { finished_ = true; }

void IntervalJoinOperator::snapshotState(StateSnapshotContext& /*context*/) {
  if (watermarkState_ != nullptr) watermarkState_->update({currentWatermark_});
}

void IntervalJoinOperator::processBatch(int inputIndex, BatchPtr batch) {
  EDDY_CHECK(inputIndex == 0 || inputIndex == 1);
  EDDY_CHECK(!finished_);
  for (vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    if (chunk.size() == 0) continue;
    for (RowKind kind : chunk.rowKinds()) {
      if (kind != RowKind::INSERT) {
        throw InternalError("an input of an interval join must be insert-only");
      }
    }
    if (!batchMode_) {
      processChunkInStreamingMode(inputIndex, std::move(chunk));
      continue;
    }
    batchSlots_[inputIndex].push_back(stores_[inputIndex].add(std::move(chunk)));
    if (spec_->processingTime) {
      batchArrivalTime_[inputIndex].push_back(
          context().processingTimeService->currentProcessingTime());
    }
  }
}

void IntervalJoinOperator::processChunkInStreamingMode(int side, vector::Chunk chunk) {
  int64_t arrivalTime = 0;
  if (spec_->processingTime) {
    arrivalTime = context().processingTimeService->currentProcessingTime();
    releaseUntilClock(arrivalTime);
  }
  const int64_t rowCount = chunk.size();
  const int32_t segment = stores_[side].add(std::move(chunk));

  // 1. Each row's time, status and key (found among the stored keys or not).
  const int64_t storedRows = classifyRowsInStreamingMode(side, stores_[side].chunk(segment),
                                                         arrivalTime);

  // 2. Candidates, condition and emission, in windows of rows.
  CandidateWindow window;
  for (int64_t windowBegin = 0; windowBegin < rowCount; windowBegin = window.end) {
    collectCandidatesInStreamingMode(side, segment, windowBegin, window);
    const std::vector<uint8_t> matches =
        condition_.evaluate(window.candidates, stores_[0], stores_[1]);
    emitWindowInStreamingMode(side, segment, window, matches);
  }
  emitter_.flush(output());  // nothing queued points into the input chunk any more

  // 3. Store the rows that can still meet rows of the other side.
  storeRowsInStreamingMode(side, segment, storedRows);
  stores_[side].freeEmpty();  // the input chunk when none of its rows is stored in it
  compactIfSparse();
}

int64_t IntervalJoinOperator::classifyRowsInStreamingMode(int side, const vector::Chunk& input,
                                                          int64_t arrivalTime) {
  const std::vector<int>& keyColumns = side == 0 ? spec_->leftKeys : spec_->rightKeys;
  const int64_t rowCount = input.size();
  const int64_t watermark = currentWatermark_;
  const bool anyWatermark = watermark > Watermark::kMin;
  const vector::Vector* timeVector = nullptr;
  const int64_t* times = nullptr;
  if (!spec_->processingTime) {
    timeVector = &input.column(side == 0 ? spec_->leftTimeColumn : spec_->rightTimeColumn);
    times = timeVector->data<int64_t>();
  }
  rowTimes_.assign(static_cast<size_t>(rowCount), 0);
  rowStatus_.assign(static_cast<size_t>(rowCount), kUnjoinable);
  keyOfRow_.assign(static_cast<size_t>(rowCount), -1);
  keyBytesEnd_.assign(static_cast<size_t>(rowCount), 0);
  rowJoined_.assign(static_cast<size_t>(rowCount), 0);
  chunkKeyBytes_.clear();
  int64_t lateRows = 0;
  int64_t storedRows = 0;
  for (int64_t row = 0; row < rowCount; ++row) {
    const auto index = static_cast<size_t>(row);
    keyBytesEnd_[index] = static_cast<int32_t>(chunkKeyBytes_.size());
    if (timeVector != nullptr && timeVector->isNull(row)) continue;
    int64_t time = arrivalTime;
    if (times != nullptr) {
      time = (spec_->timeZone ? spec_->timeZone->toEpochMillis(times[row]) : times[row]) +
             spec_->timeShift;
    }
    rowTimes_[index] = time;
    // A window join drops a late row whatever its key; otherwise a NULL key matches nothing.
    const bool nullKey = keyHasNull(input, keyColumns, row);
    if (nullKey && !spec_->dropLateRows) continue;
    if (anyWatermark && watermark >= lateThreshold(side, time)) {
      rowStatus_[index] = kLate;
      ++lateRows;
      continue;
    }
    if (nullKey) continue;
    const bool releasedAtOnce =
        anyWatermark && watermark >= saturatingAdd(time, timeOffset(side));
    rowStatus_[index] = releasedAtOnce ? kJoinable : kStored;
    if (!releasedAtOnce) ++storedRows;
    vector::appendKeyBytes(input, keyColumns, row, chunkKeyBytes_);
    keyBytesEnd_[index] = static_cast<int32_t>(chunkKeyBytes_.size());
    keyOfRow_[index] = keys_.find(keyBytesOfRow(index));
  }
  countLateRows(lateRows);
  return storedRows;
}

std::string_view IntervalJoinOperator::keyBytesOfRow(size_t row) const {
  const size_t begin = row == 0 ? 0 : static_cast<size_t>(keyBytesEnd_[row - 1]);
  return std::string_view(chunkKeyBytes_)
      .substr(begin, static_cast<size_t>(keyBytesEnd_[row]) - begin);
}

void IntervalJoinOperator::collectCandidatesInStreamingMode(int side, int32_t segment,
                                                            int64_t windowBegin,
                                                            CandidateWindow& window) const {
  const int otherSide = 1 - side;
  const bool inputIsLeft = side == 0;
  const auto rowCount = static_cast<int64_t>(rowStatus_.size());
  for (window.clear(windowBegin); window.end < rowCount && window.hasRoom(); ++window.end) {
    const auto index = static_cast<size_t>(window.end);
    window.firstCandidateOfRow.push_back(window.candidates.size());
    if (rowStatus_[index] < kJoinable || keyOfRow_[index] < 0) continue;
    const int64_t time = rowTimes_[index];
    // The other side's times this row joins: [time + lower, time + upper] for a left row,
    // [time - upper, time - lower] for a right row.
    const int64_t low = inputIsLeft ? saturatingAdd(time, spec_->lowerBound)
                                    : saturatingAdd(time, -spec_->upperBound);
    const int64_t high = inputIsLeft ? saturatingAdd(time, spec_->upperBound)
                                     : saturatingAdd(time, -spec_->lowerBound);
    const SideRows& others = keys_[keyOfRow_[index]].sides[otherSide];
    auto other = std::lower_bound(
        others.rows.begin() + static_cast<std::ptrdiff_t>(others.head), others.rows.end(), low,
        [](const StoredRow& stored, int64_t value) { return stored.time < value; });
    const RowRef inputRow{segment, static_cast<int32_t>(window.end)};
    for (; other != others.rows.end() && other->time <= high; ++other) {
      const auto partner = static_cast<size_t>(other - others.rows.begin());
      if (inputIsLeft) {
        window.addCandidate(inputRow, other->row, partner);
      } else {
        window.addCandidate(other->row, inputRow, partner);
      }
    }
  }
  window.firstCandidateOfRow.push_back(window.candidates.size());
}

void IntervalJoinOperator::emitWindowInStreamingMode(int side, int32_t segment,
                                                     const CandidateWindow& window,
                                                     const std::vector<uint8_t>& matches) {
  const int otherSide = 1 - side;
  const bool inputIsOuter = isOuter(side);
  const bool otherIsOuter = isOuter(otherSide);
  for (int64_t row = window.begin; row < window.end; ++row) {
    const auto index = static_cast<size_t>(row);
    const auto offset = static_cast<size_t>(row - window.begin);
    bool joined = false;
    const int64_t end = window.firstCandidateOfRow[offset + 1];
    for (int64_t c = window.firstCandidateOfRow[offset]; c < end; ++c) {
      const auto candidate = static_cast<size_t>(c);
      if (matches[candidate] == 0) continue;
      emitter_.append(RowKind::INSERT, window.candidates.left(candidate),
                      window.candidates.right(candidate), output());
      joined = true;
      if (otherIsOuter) {
        keys_[keyOfRow_[index]].sides[otherSide].rows[window.partnerOfCandidate[candidate]].joined =
            true;
      }
    }
    rowJoined_[index] = joined ? 1 : 0;
    // An outer row that is not stored and joined nothing is padded now (a window join drops a
    // late one); a stored one is padded at its release if it never joins.
    const uint8_t status = rowStatus_[index];
    if (!joined && inputIsOuter && status != kStored && !(spec_->dropLateRows && status == kLate)) {
      appendPadded(side, RowRef{segment, static_cast<int32_t>(row)});
    }
  }
}

void IntervalJoinOperator::storeRowsInStreamingMode(int side, int32_t segment,
                                                    int64_t storedRows) {
  const auto rowCount = static_cast<int64_t>(rowStatus_.size());
  std::vector<int32_t> storedPositions;  // input row -> position in the stored chunk
  const int32_t storedSegment =
      storedRows > 0 && storedRows * 2 <= rowCount
          ? copyStoredRowsInStreamingMode(side, segment, storedRows, storedPositions)
          : segment;
  RowStore& store = stores_[side];
  for (int64_t row = 0; row < rowCount; ++row) {
    const auto index = static_cast<size_t>(row);
    if (rowStatus_[index] != kStored) continue;
    int32_t keyIndex = keyOfRow_[index];
    if (keyIndex < 0) keyIndex = keys_.findOrAdd(keyBytesOfRow(index));
    const StoredRow stored{rowTimes_[index],
                           RowRef{storedSegment, storedPositions.empty() ? static_cast<int32_t>(row)
                                                                         : storedPositions[index]},
                           rowJoined_[index] != 0};
    store.retain(stored.row);
    keys_[keyIndex].sides[side].insert(stored);
    scheduleRelease(keyIndex);
  }
}

int32_t IntervalJoinOperator::copyStoredRowsInStreamingMode(int side, int32_t segment,
                                                            int64_t storedRows,
                                                            std::vector<int32_t>& storedPositions) {
  const auto rowCount = static_cast<int64_t>(rowStatus_.size());
  std::vector<int32_t> selection;
  selection.reserve(static_cast<size_t>(storedRows));
  for (int64_t row = 0; row < rowCount; ++row) {
    if (rowStatus_[static_cast<size_t>(row)] == kStored) {
      selection.push_back(static_cast<int32_t>(row));
    }
  }
  RowStore& store = stores_[side];
  const int32_t storedSegment = store.add(
      vector::gather(store.chunk(segment), selection.data(), static_cast<int64_t>(selection.size())));
  storedPositions.assign(static_cast<size_t>(rowCount), -1);
  for (size_t i = 0; i < selection.size(); ++i) {
    storedPositions[static_cast<size_t>(selection[i])] = static_cast<int32_t>(i);
  }
  return storedSegment;
}

void IntervalJoinOperator::SideRows::insert(const StoredRow& stored) {
  if (rows.empty() || rows.back().time <= stored.time) {
    rows.push_back(stored);
    return;
  }
  // Out of order: after the rows of the same time, so arrival order is kept among them.
  auto position = std::upper_bound(
      rows.begin() + static_cast<std::ptrdiff_t>(head), rows.end(), stored.time,
      [](int64_t value, const StoredRow& row) { return value < row.time; });
  rows.insert(position, stored);
}

void IntervalJoinOperator::CandidateWindow::clear(int64_t first) {
  candidates.clear();
  partnerOfCandidate.clear();
  firstCandidateOfRow.clear();
  begin = first;
  end = first;
}

bool IntervalJoinOperator::CandidateWindow::hasRoom() const {
  return end == begin || candidates.size() < kMaxCandidatesPerEvaluation;
}

void IntervalJoinOperator::CandidateWindow::addCandidate(RowRef left, RowRef right,
                                                         size_t partner) {
  candidates.add(RowKind::INSERT, left, right);
  partnerOfCandidate.push_back(partner);
}

void IntervalJoinOperator::releaseUntilClock(int64_t now) {
  // Rows of the current millisecond may still arrive; everything before it is complete.
  const int64_t complete = saturatingAdd(now, -1);
  if (complete > currentWatermark_) releaseUntil(complete);
}

void IntervalJoinOperator::scheduleRelease(int32_t keyIndex) {
  KeyEntry& key = keys_[keyIndex];
  bool any = false;
  int64_t earliest = Watermark::kMax;
  for (int side = 0; side < 2; ++side) {
    const SideRows& rows = key.sides[side];
    if (rows.empty()) continue;
    any = true;
    earliest = std::min(earliest, saturatingAdd(rows.rows[rows.head].time, timeOffset(side)));
  }
  if (!any || (key.releaseScheduled && key.scheduledRelease <= earliest)) return;
  key.releaseScheduled = true;
  key.scheduledRelease = earliest;
  releaseQueue_.push(ReleaseEntry{earliest, keyIndex});
  // Released once the clock minus 1 ms reaches the release time.
  if (spec_->processingTime) requestTimer(saturatingAdd(earliest, 1));
}

void IntervalJoinOperator::requestTimer(int64_t time) {
  if (time >= nextTimerTime_) return;
  nextTimerTime_ = time;
  context().processingTimeService->registerTimer(time,
                                                 [this](int64_t now) { onProcessingTime(now); });
}

void IntervalJoinOperator::onProcessingTime(int64_t time) {
  if (finished_ || batchMode_) return;
  // The clock reached `time`: every timer up to it has fired (or is firing now).
  if (time >= nextTimerTime_) nextTimerTime_ = kNoTimer;
  releaseUntilClock(std::max(time, context().processingTimeService->currentProcessingTime()));
  if (!releaseQueue_.empty()) requestTimer(saturatingAdd(releaseQueue_.top().time, 1));
}

void IntervalJoinOperator::releaseUntil(int64_t watermark) {
  currentWatermark_ = watermark;
  while (!releaseQueue_.empty() && releaseQueue_.top().time <= watermark) {
    const ReleaseEntry entry = releaseQueue_.top();
    releaseQueue_.pop();
    // A removed key's state is reset, so its stale entries fail the check as well.
    KeyEntry& key = keys_[entry.key];
    if (!key.releaseScheduled || key.scheduledRelease != entry.time) continue;
    key.releaseScheduled = false;
    releaseRows(key, 0, watermark);
    releaseRows(key, 1, watermark);
    if (key.sides[0].empty() && key.sides[1].empty()) {
      keys_.remove(entry.key);
    } else {
      scheduleRelease(entry.key);
    }
  }
  emitter_.flush(output());  // before the chunks of the released rows are freed
  stores_[0].freeEmpty();
  stores_[1].freeEmpty();
  compactIfSparse();
}

void IntervalJoinOperator::compactIfSparse() {
  for (int side = 0; side < 2; ++side) {
    if (!stores_[side].sparse()) continue;
    EDDY_CHECK_EQ(emitter_.queuedRows(), int64_t{0});
    std::vector<RowRef*> references;
    references.reserve(static_cast<size_t>(stores_[side].keptRows()));
    keys_.forEach([&](int32_t, KeyEntry& key) {
      SideRows& rows = key.sides[side];
      for (size_t i = rows.head; i < rows.rows.size(); ++i) {
        references.push_back(&rows.rows[i].row);
      }
    });
    stores_[side].compact(references);
  }
}

void IntervalJoinOperator::releaseRows(KeyEntry& key, int side, int64_t watermark) {
  SideRows& rows = key.sides[side];
  const int64_t offset = timeOffset(side);
  const bool outer = isOuter(side);
  while (!rows.empty()) {
    const StoredRow& row = rows.rows[rows.head];
    if (saturatingAdd(row.time, offset) > watermark) break;
    if (outer && !row.joined) appendPadded(side, row.row);
    stores_[side].release(row.row);  // its chunk is freed after the flush at the earliest
    ++rows.head;
  }
  if (rows.empty()) {
    rows.rows.clear();
    rows.head = 0;
  } else if (rows.head * 2 > rows.rows.size()) {
    rows.rows.erase(rows.rows.begin(), rows.rows.begin() + static_cast<std::ptrdiff_t>(rows.head));
    rows.head = 0;
  }
}

void IntervalJoinOperator::processWatermark(Watermark watermark) {
  // BATCH: the output comes at finish(), after any watermark; none is forwarded.
  if (batchMode_) return;
  condition_.setWatermark(watermark.timestamp);
  if (spec_->processingTime) {
    if (watermark.timestamp > lastEmittedWatermark_) {
      lastEmittedWatermark_ = watermark.timestamp;
      output().emitWatermark(watermark);
    }
    return;
  }
  if (watermark.timestamp <= currentWatermark_) return;
  releaseUntil(watermark.timestamp);
  const int64_t heldBack = watermark.timestamp == Watermark::kMax
                               ? Watermark::kMax
                               : saturatingAdd(watermark.timestamp, -watermarkDelay_);
  if (heldBack > lastEmittedWatermark_) {
    lastEmittedWatermark_ = heldBack;
    output().emitWatermark(Watermark{heldBack});
  }
}

void IntervalJoinOperator::finish() {
  if (batchMode_) {
    finishInBatchMode();
  } else {
    // Bounded input ended: every stored outer row that never joined is emitted padded.
    releaseUntil(Watermark::kMax);
    EDDY_CHECK(releaseQueue_.empty());
  }
  EDDY_CHECK_EQ(bufferedRows(), size_t{0});
  finished_ = true;
}

// The BATCH join at finish(): the right rows (the build side) numbered in arrival order with
// their times, per key their numbers ordered by time, then arrival, and which of them joined;
// and the probe's scratch.
struct IntervalJoinOperator::BatchJoin {
  struct BuildRow {
    RowRef row;
    int64_t time;
  };
  std::vector<BuildRow> buildRows;
  absl::flat_hash_map<std::string, std::vector<int32_t>> buildRowsOfKey;
  std::vector<uint8_t> buildRowJoined;
  std::string keyBytes;          // one row's key
  std::vector<int32_t> inRange;  // one probe row's build rows in its time range
};

void IntervalJoinOperator::finishInBatchMode() {
  BatchJoin join;
  buildInBatchMode(join);
  probeInBatchMode(join);
  // The right rows nobody joined, in arrival order.
  if (isOuter(1)) {
    for (size_t buildRow = 0; buildRow < join.buildRows.size(); ++buildRow) {
      if (join.buildRowJoined[buildRow] != 0) continue;
      appendPadded(1, join.buildRows[buildRow].row);
    }
  }
  emitter_.flush(output());
  for (int side = 0; side < 2; ++side) {
    stores_[side].clear();
    batchSlots_[side].clear();
    batchArrivalTime_[side].clear();
  }
}

std::optional<int64_t> IntervalJoinOperator::timeInBatchMode(int side, size_t arrival,
                                                             const vector::Chunk& chunk,
                                                             int64_t row) const {
  if (spec_->processingTime) return batchArrivalTime_[side][arrival];
  const vector::Vector& column =
      chunk.column(side == 0 ? spec_->leftTimeColumn : spec_->rightTimeColumn);
  if (column.isNull(row)) return std::nullopt;
  return column.data<int64_t>()[row];
}

void IntervalJoinOperator::buildInBatchMode(BatchJoin& join) {
  for (size_t arrival = 0; arrival < batchSlots_[1].size(); ++arrival) {
    const int32_t slot = batchSlots_[1][arrival];
    const vector::Chunk& chunk = stores_[1].chunk(slot);
    for (int64_t row = 0; row < chunk.size(); ++row) {
      const auto buildRow = static_cast<int32_t>(join.buildRows.size());
      const std::optional<int64_t> time = timeInBatchMode(1, arrival, chunk, row);
      join.buildRows.push_back(
          BatchJoin::BuildRow{RowRef{slot, static_cast<int32_t>(row)}, time.value_or(0)});
      if (!time || keyHasNull(chunk, spec_->rightKeys, row)) continue;
      join.keyBytes.clear();
      vector::appendKeyBytes(chunk, spec_->rightKeys, row, join.keyBytes);
      join.buildRowsOfKey[join.keyBytes].push_back(buildRow);
    }
  }
  const std::vector<BatchJoin::BuildRow>& buildRows = join.buildRows;
  for (auto& [key, rows] : join.buildRowsOfKey) {
    std::stable_sort(rows.begin(), rows.end(), [&](int32_t a, int32_t b) {
      return buildRows[static_cast<size_t>(a)].time < buildRows[static_cast<size_t>(b)].time;
    });
  }
  join.buildRowJoined.assign(buildRows.size(), 0);
}

void IntervalJoinOperator::probeInBatchMode(BatchJoin& join) {
  CandidateWindow window;
  for (size_t arrival = 0; arrival < batchSlots_[0].size(); ++arrival) {
    const int32_t probeSegment = batchSlots_[0][arrival];
    const int64_t rowCount = stores_[0].chunk(probeSegment).size();
    for (int64_t windowBegin = 0; windowBegin < rowCount; windowBegin = window.end) {
      collectCandidatesInBatchMode(arrival, windowBegin, join, window);
      const std::vector<uint8_t> matches =
          condition_.evaluate(window.candidates, stores_[0], stores_[1]);
      emitWindowInBatchMode(probeSegment, window, matches, join);
    }
  }
}

void IntervalJoinOperator::collectCandidatesInBatchMode(size_t arrival, int64_t windowBegin,
                                                        BatchJoin& join,
                                                        CandidateWindow& window) const {
  const int32_t probeSegment = batchSlots_[0][arrival];
  const vector::Chunk& chunk = stores_[0].chunk(probeSegment);
  const std::vector<BatchJoin::BuildRow>& buildRows = join.buildRows;
  for (window.clear(windowBegin); window.end < chunk.size() && window.hasRoom(); ++window.end) {
    const int64_t row = window.end;
    window.firstCandidateOfRow.push_back(window.candidates.size());
    const std::optional<int64_t> time = timeInBatchMode(0, arrival, chunk, row);
    if (!time || keyHasNull(chunk, spec_->leftKeys, row)) continue;
    join.keyBytes.clear();
    vector::appendKeyBytes(chunk, spec_->leftKeys, row, join.keyBytes);
    auto found = join.buildRowsOfKey.find(join.keyBytes);
    if (found == join.buildRowsOfKey.end()) continue;
    const std::vector<int32_t>& rows = found->second;
    const int64_t low = saturatingAdd(*time, spec_->lowerBound);
    const int64_t high = saturatingAdd(*time, spec_->upperBound);
    auto begin =
        std::lower_bound(rows.begin(), rows.end(), low, [&](int32_t buildRow, int64_t value) {
          return buildRows[static_cast<size_t>(buildRow)].time < value;
        });
    auto end = std::upper_bound(begin, rows.end(), high, [&](int64_t value, int32_t buildRow) {
      return value < buildRows[static_cast<size_t>(buildRow)].time;
    });
    join.inRange.assign(begin, end);
    std::sort(join.inRange.begin(), join.inRange.end());  // arrival order
    const RowRef probeRow{probeSegment, static_cast<int32_t>(row)};
    for (int32_t buildRow : join.inRange) {
      window.addCandidate(probeRow, buildRows[static_cast<size_t>(buildRow)].row,
                          static_cast<size_t>(buildRow));
    }
  }
  window.firstCandidateOfRow.push_back(window.candidates.size());
}

void IntervalJoinOperator::emitWindowInBatchMode(int32_t probeSegment,
                                                 const CandidateWindow& window,
                                                 const std::vector<uint8_t>& matches,
                                                 BatchJoin& join) {
  for (int64_t row = window.begin; row < window.end; ++row) {
    const RowRef probeRow{probeSegment, static_cast<int32_t>(row)};
    const auto offset = static_cast<size_t>(row - window.begin);
    bool joined = false;
    for (int64_t c = window.firstCandidateOfRow[offset]; c < window.firstCandidateOfRow[offset + 1];
         ++c) {
      const auto candidate = static_cast<size_t>(c);
      if (matches[candidate] == 0) continue;
      emitter_.append(RowKind::INSERT, probeRow, window.candidates.right(candidate), output());
      join.buildRowJoined[window.partnerOfCandidate[candidate]] = 1;
      joined = true;
    }
    if (!joined && isOuter(0)) appendPadded(0, probeRow);
  }
}

// --- Checkpoints ---
//
// One side's block body of a key group (docs/state_format.md, "Interval join"): the ListState
// payload, keyCount:varint then per key keyBytes:bytes count:varint row:bytes{count}, where
// row := time (TypeSerializer<int64_t>) flags:u8 (bit 0: joined) columnCount:varint
// TypeSerializer<Value>{columnCount} (the keys and columns written and read by
// stored_row_codec.h).

namespace {

constexpr uint8_t kRowJoined = 0x01;

}  // namespace

const char* IntervalJoinOperator::rowsStateName(int side) {
  return side == 0 ? kLeftRowsStateName : kRightRowsStateName;
}

void IntervalJoinOperator::StoredRowsState::snapshotKeyGroups(
    KeyGroupRange range, int maxParallelism, std::vector<std::string>& bodies) const {
  state::writeAllKeyGroups(*join_->freezeStoredRows(side_, range, maxParallelism), range, bodies);
}

std::unique_ptr<state::FrozenKeyGroups> IntervalJoinOperator::StoredRowsState::freezeKeyGroups(
    KeyGroupRange range, int maxParallelism) const {
  return join_->freezeStoredRows(side_, range, maxParallelism);
}

void IntervalJoinOperator::StoredRowsState::restoreKeyGroup(int keyGroup, std::string_view body) {
  join_->restoreStoredRows(side_, keyGroup, body);
}

std::unique_ptr<FrozenStoredRows> IntervalJoinOperator::freezeStoredRows(
    int side, KeyGroupRange range, int maxParallelism) const {
  auto frozen = std::make_unique<FrozenStoredRows>(stores_[side], range, maxParallelism);
  keys_.forEach([&](int32_t /*slot*/, const KeyEntry& key) {
    const SideRows& rows = key.sides[side];
    if (rows.empty()) return;
    frozen->addKey(key.bytes);
    for (size_t i = rows.head; i < rows.rows.size(); ++i) {
      const StoredRow& stored = rows.rows[i];
      std::string& header = frozen->addRow(stored.row);
      TypeSerializer<int64_t>::serialize(stored.time, header);
      header.push_back(static_cast<char>(stored.joined ? kRowJoined : 0));
    }
  });
  return frozen;
}

void IntervalJoinOperator::restoreStoredRows(int side, int keyGroup, std::string_view body) {
  RestoredRows& rows = restored_[side];
  if (!rows.chunk) rows.chunk.emplace(stores_[side].rowType());
  const size_t before = rows.times.size();
  try {
    decodeStoredRows(keyGroup, body, rows);
  } catch (const EddyException& error) {
    // Nothing of a body that does not decode is kept.
    rows.chunk->truncate(static_cast<int64_t>(before));
    rows.keys.resize(before);
    rows.times.resize(before);
    rows.joined.resize(before);
    throwUnrestorableState(rowsStateName(side), context().operatorName, keyGroup, error.what());
  }
  // In open(), the rows of all key groups are gathered first (see storeRestoredRows).
  if (!restoringInOpen_ || rows.times.size() >= kDefaultBatchSize) storeRestoredRows(side);
}

void IntervalJoinOperator::decodeStoredRows(int keyGroup, std::string_view body,
                                            RestoredRows& rows) const {
  const auto decodeRow = [&](std::string_view keyBytes, uint64_t, std::string_view row) {
    const int64_t time = TypeSerializer<int64_t>::deserialize(row);
    const uint8_t flags = readByte(row);
    if ((flags & ~kRowJoined) != 0) {
      throw InternalError(fmt::format("unknown row flags {}", static_cast<int>(flags)));
    }
    rows.chunk->readRow(row);
    checkFullyRead(row, "a row");
    rows.keys.emplace_back(keyBytes);
    rows.times.push_back(time);
    rows.joined.push_back((flags & kRowJoined) != 0 ? 1 : 0);
  };
  readKeyedListBody(body, keyGroup, context().maxParallelism, decodeRow);
}

void IntervalJoinOperator::storeRestoredRows(int side) {
  RestoredRows& rows = restored_[side];
  if (!rows.chunk || rows.times.empty()) return;
  RowStore& store = stores_[side];
  const std::vector<RowRef> refs = rows.chunk->moveInto(store);
  for (size_t index = 0; index < refs.size(); ++index) {
    const int32_t keyIndex = keys_.findOrAdd(rows.keys[index]);
    const StoredRow stored{rows.times[index], refs[index], rows.joined[index] != 0};
    store.retain(stored.row);
    keys_[keyIndex].sides[side].insert(stored);
    scheduleRelease(keyIndex);
  }
  rows = RestoredRows{};
}

void IntervalJoinOperator::appendPadded(int side, RowRef row) {
  if (side == 0) {
    emitter_.append(RowKind::INSERT, row, RowRef{}, output());
  } else {
    emitter_.append(RowKind::INSERT, RowRef{}, row, output());
  }
}

void IntervalJoinOperator::countLateRows(int64_t count) {
  if (count > 0 && context().metrics != nullptr) {
    context().metrics->numLateRecordsDropped.fetch_add(count, std::memory_order_relaxed);
  }
}

}  // namespace eddy::runtime::operators
