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
#include "runtime/operators/join/interval_join_operator.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <string_view>
#include <utility>

#include "common/check.h"
#include "eddy/exceptions.h"
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
}

void IntervalJoinOperator::close() { finished_ = true; }

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
  const int otherSide = 1 - side;
  const bool inputIsLeft = side == 0;
  const bool inputIsOuter = isOuter(side);
  const bool otherIsOuter = isOuter(otherSide);
  const std::vector<int>& keyColumns = inputIsLeft ? spec_->leftKeys : spec_->rightKeys;
  const int64_t rowCount = chunk.size();

  int64_t arrivalTime = 0;
  if (spec_->processingTime) {
    arrivalTime = context().processingTimeService->currentProcessingTime();
    // Rows of the current millisecond may still arrive; everything before it is complete.
    const int64_t complete = saturatingAdd(arrivalTime, -1);
    if (complete > currentWatermark_) releaseUntil(complete);
  }
  const int64_t watermark = currentWatermark_;
  const bool anyWatermark = watermark > Watermark::kMin;

  RowStore& store = stores_[side];
  const int32_t segment = store.add(std::move(chunk));
  const vector::Chunk& input = store.chunk(segment);

  // 1. Each row's time, status and key (found among the stored keys or not).
  const vector::Vector* timeVector = nullptr;
  const int64_t* times = nullptr;
  if (!spec_->processingTime) {
    timeVector = &input.column(inputIsLeft ? spec_->leftTimeColumn : spec_->rightTimeColumn);
    times = timeVector->data<int64_t>();
  }
  rowTimes_.assign(static_cast<size_t>(rowCount), 0);
  rowStatus_.assign(static_cast<size_t>(rowCount), kUnjoinable);
  keyOfRow_.assign(static_cast<size_t>(rowCount), -1);
  keyBytesEnd_.assign(static_cast<size_t>(rowCount), 0);
  rowJoined_.assign(static_cast<size_t>(rowCount), 0);
  chunkKeyBytes_.clear();
  int64_t lateRows = 0;
  for (int64_t row = 0; row < rowCount; ++row) {
    const auto index = static_cast<size_t>(row);
    const size_t keyBegin = chunkKeyBytes_.size();
    keyBytesEnd_[index] = static_cast<int32_t>(keyBegin);
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
    rowStatus_[index] =
        anyWatermark && watermark >= saturatingAdd(time, timeOffset(side)) ? kJoinable : kStored;
    vector::appendKeyBytes(input, keyColumns, row, chunkKeyBytes_);
    keyBytesEnd_[index] = static_cast<int32_t>(chunkKeyBytes_.size());
    keyOfRow_[index] = keys_.find(
        std::string_view(chunkKeyBytes_).substr(keyBegin, chunkKeyBytes_.size() - keyBegin));
  }
  countLateRows(lateRows);

  // 2. Candidates, condition and emission, in windows of rows.
  JoinedRowRefs candidates;
  std::vector<size_t> otherRowOfCandidate;  // index into the key's other-side rows
  std::vector<int64_t> firstCandidateOfRow;
  int64_t storedRows = 0;
  int64_t windowBegin = 0;
  while (windowBegin < rowCount) {
    candidates.clear();
    otherRowOfCandidate.clear();
    firstCandidateOfRow.clear();
    int64_t windowEnd = windowBegin;
    while (windowEnd < rowCount &&
           (windowEnd == windowBegin || candidates.size() < kMaxCandidatesPerEvaluation)) {
      const auto index = static_cast<size_t>(windowEnd);
      firstCandidateOfRow.push_back(candidates.size());
      if (rowStatus_[index] >= kJoinable && keyOfRow_[index] >= 0) {
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
        const RowRef inputRow{segment, static_cast<int32_t>(windowEnd)};
        for (; other != others.rows.end() && other->time <= high; ++other) {
          if (inputIsLeft) {
            candidates.add(RowKind::INSERT, inputRow, other->row);
          } else {
            candidates.add(RowKind::INSERT, other->row, inputRow);
          }
          otherRowOfCandidate.push_back(static_cast<size_t>(other - others.rows.begin()));
        }
      }
      ++windowEnd;
    }
    firstCandidateOfRow.push_back(candidates.size());
    const std::vector<uint8_t> matches = condition_.evaluate(candidates, stores_[0], stores_[1]);

    for (int64_t row = windowBegin; row < windowEnd; ++row) {
      const auto index = static_cast<size_t>(row);
      bool joined = false;
      const int64_t end = firstCandidateOfRow[index - static_cast<size_t>(windowBegin) + 1];
      for (int64_t c = firstCandidateOfRow[index - static_cast<size_t>(windowBegin)]; c < end;
           ++c) {
        const auto candidate = static_cast<size_t>(c);
        if (matches[candidate] == 0) continue;
        emitter_.append(RowKind::INSERT, candidates.left(candidate), candidates.right(candidate),
                        output());
        joined = true;
        if (otherIsOuter) {
          keys_[keyOfRow_[index]].sides[otherSide].rows[otherRowOfCandidate[candidate]].joined =
              true;
        }
      }
      rowJoined_[index] = joined ? 1 : 0;
      if (rowStatus_[index] == kStored) {
        ++storedRows;
      } else if (!joined && inputIsOuter &&
                 !(spec_->dropLateRows && rowStatus_[index] == kLate)) {
        appendPadded(side, RowRef{segment, static_cast<int32_t>(row)});
      }
    }
    windowBegin = windowEnd;
  }
  emitter_.flush(output());  // nothing queued points into the input chunk any more

  // 3. Store the rows that can still meet rows of the other side: in the input chunk, or,
  // when most of it is not stored, in a chunk of their own (the input chunk is then freed).
  int32_t storedSegment = segment;
  std::vector<int32_t> storedPositions;  // input row -> position in the stored chunk
  if (storedRows > 0 && storedRows * 2 <= rowCount) {
    std::vector<int32_t> selection;
    selection.reserve(static_cast<size_t>(storedRows));
    for (int64_t row = 0; row < rowCount; ++row) {
      if (rowStatus_[static_cast<size_t>(row)] == kStored) {
        selection.push_back(static_cast<int32_t>(row));
      }
    }
    storedSegment =
        store.add(vector::gather(input, selection.data(), static_cast<int64_t>(selection.size())));
    storedPositions.assign(static_cast<size_t>(rowCount), -1);
    for (size_t i = 0; i < selection.size(); ++i) {
      storedPositions[static_cast<size_t>(selection[i])] = static_cast<int32_t>(i);
    }
  }
  for (int64_t row = 0; row < rowCount; ++row) {
    const auto index = static_cast<size_t>(row);
    if (rowStatus_[index] != kStored) continue;
    int32_t keyIndex = keyOfRow_[index];
    if (keyIndex < 0) {
      const size_t keyBegin = row == 0 ? 0 : static_cast<size_t>(keyBytesEnd_[index - 1]);
      keyIndex = keys_.findOrAdd(
          std::string_view(chunkKeyBytes_)
              .substr(keyBegin, static_cast<size_t>(keyBytesEnd_[index]) - keyBegin));
    }
    const StoredRow stored{rowTimes_[index],
                           RowRef{storedSegment, storedPositions.empty() ? static_cast<int32_t>(row)
                                                                         : storedPositions[index]},
                           rowJoined_[index] != 0};
    store.retain(stored.row);
    SideRows& sideRows = keys_[keyIndex].sides[side];
    auto& rows = sideRows.rows;
    if (rows.empty() || rows.back().time <= stored.time) {
      rows.push_back(stored);
    } else {
      // Out of order: after the rows of the same time, so arrival order is kept among them.
      auto position = std::upper_bound(
          rows.begin() + static_cast<std::ptrdiff_t>(sideRows.head), rows.end(), stored.time,
          [](int64_t value, const StoredRow& row) { return value < row.time; });
      rows.insert(position, stored);
    }
    scheduleRelease(keyIndex);
  }
  store.freeEmpty();  // the input chunk when none of its rows is stored in it
  compactIfSparse();
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
  const int64_t now = std::max(time, context().processingTimeService->currentProcessingTime());
  const int64_t complete = saturatingAdd(now, -1);
  if (complete > currentWatermark_) releaseUntil(complete);
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

void IntervalJoinOperator::finishInBatchMode() {
  // A buffered row's time: the column's value (nullopt for NULL) or the chunk's arrival time.
  // `arrival` is the chunk's index in batchSlots_[side].
  auto timeOf = [&](int side, size_t arrival, const vector::Chunk& chunk, int64_t row,
                    int64_t& time) {
    if (spec_->processingTime) {
      time = batchArrivalTime_[side][arrival];
      return true;
    }
    const vector::Vector& column =
        chunk.column(side == 0 ? spec_->leftTimeColumn : spec_->rightTimeColumn);
    if (column.isNull(row)) return false;
    time = column.data<int64_t>()[row];
    return true;
  };

  // Build: the right rows, numbered in arrival order, and per key their numbers ordered by
  // time, then arrival.
  struct BuildRow {
    RowRef row;
    int64_t time;
  };
  std::vector<BuildRow> buildRows;
  absl::flat_hash_map<std::string, std::vector<int32_t>> buildRowsOfKey;
  std::string keyBytes;
  for (size_t arrival = 0; arrival < batchSlots_[1].size(); ++arrival) {
    const int32_t slot = batchSlots_[1][arrival];
    const vector::Chunk& chunk = stores_[1].chunk(slot);
    for (int64_t row = 0; row < chunk.size(); ++row) {
      const auto buildRow = static_cast<int32_t>(buildRows.size());
      int64_t time = 0;
      const bool hasTime = timeOf(1, arrival, chunk, row, time);
      buildRows.push_back(BuildRow{RowRef{slot, static_cast<int32_t>(row)}, time});
      if (!hasTime || keyHasNull(chunk, spec_->rightKeys, row)) continue;
      keyBytes.clear();
      vector::appendKeyBytes(chunk, spec_->rightKeys, row, keyBytes);
      buildRowsOfKey[keyBytes].push_back(buildRow);
    }
  }
  for (auto& [key, rows] : buildRowsOfKey) {
    std::stable_sort(rows.begin(), rows.end(), [&](int32_t a, int32_t b) {
      return buildRows[static_cast<size_t>(a)].time < buildRows[static_cast<size_t>(b)].time;
    });
  }
  std::vector<uint8_t> buildRowJoined(buildRows.size(), 0);

  // Probe with the left rows in arrival order.
  JoinedRowRefs candidates;
  std::vector<int32_t> buildRowOfCandidate;
  std::vector<int64_t> firstCandidateOfRow;
  std::vector<int32_t> inRange;
  for (size_t arrival = 0; arrival < batchSlots_[0].size(); ++arrival) {
    const int32_t probeSegment = batchSlots_[0][arrival];
    const vector::Chunk& chunk = stores_[0].chunk(probeSegment);
    int64_t windowBegin = 0;
    while (windowBegin < chunk.size()) {
      candidates.clear();
      buildRowOfCandidate.clear();
      firstCandidateOfRow.clear();
      int64_t windowEnd = windowBegin;
      while (windowEnd < chunk.size() &&
             (windowEnd == windowBegin || candidates.size() < kMaxCandidatesPerEvaluation)) {
        firstCandidateOfRow.push_back(candidates.size());
        int64_t time = 0;
        if (timeOf(0, arrival, chunk, windowEnd, time) &&
            !keyHasNull(chunk, spec_->leftKeys, windowEnd)) {
          keyBytes.clear();
          vector::appendKeyBytes(chunk, spec_->leftKeys, windowEnd, keyBytes);
          auto found = buildRowsOfKey.find(keyBytes);
          if (found != buildRowsOfKey.end()) {
            const std::vector<int32_t>& rows = found->second;
            const int64_t low = saturatingAdd(time, spec_->lowerBound);
            const int64_t high = saturatingAdd(time, spec_->upperBound);
            auto begin = std::lower_bound(
                rows.begin(), rows.end(), low, [&](int32_t buildRow, int64_t value) {
                  return buildRows[static_cast<size_t>(buildRow)].time < value;
                });
            auto end =
                std::upper_bound(begin, rows.end(), high, [&](int64_t value, int32_t buildRow) {
                  return value < buildRows[static_cast<size_t>(buildRow)].time;
                });
            inRange.assign(begin, end);
            std::sort(inRange.begin(), inRange.end());  // arrival order
            for (int32_t buildRow : inRange) {
              const BuildRow& right = buildRows[static_cast<size_t>(buildRow)];
              candidates.add(RowKind::INSERT, RowRef{probeSegment, static_cast<int32_t>(windowEnd)},
                             right.row);
              buildRowOfCandidate.push_back(buildRow);
            }
          }
        }
        ++windowEnd;
      }
      firstCandidateOfRow.push_back(candidates.size());
      const std::vector<uint8_t> matches = condition_.evaluate(candidates, stores_[0], stores_[1]);
      for (int64_t row = windowBegin; row < windowEnd; ++row) {
        bool joined = false;
        const auto offset = static_cast<size_t>(row - windowBegin);
        for (int64_t c = firstCandidateOfRow[offset]; c < firstCandidateOfRow[offset + 1]; ++c) {
          const auto candidate = static_cast<size_t>(c);
          if (matches[candidate] == 0) continue;
          emitter_.append(RowKind::INSERT, RowRef{probeSegment, static_cast<int32_t>(row)},
                          candidates.right(candidate), output());
          buildRowJoined[static_cast<size_t>(buildRowOfCandidate[candidate])] = 1;
          joined = true;
        }
        if (!joined && isOuter(0)) {
          appendPadded(0, RowRef{probeSegment, static_cast<int32_t>(row)});
        }
      }
      windowBegin = windowEnd;
    }
  }

  // The right rows nobody joined, in arrival order.
  if (isOuter(1)) {
    for (size_t buildRow = 0; buildRow < buildRows.size(); ++buildRow) {
      if (buildRowJoined[buildRow] != 0) continue;
      appendPadded(1, buildRows[buildRow].row);
    }
  }
  emitter_.flush(output());
  for (int side = 0; side < 2; ++side) {
    stores_[side].clear();
    batchSlots_[side].clear();
    batchArrivalTime_[side].clear();
  }
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
