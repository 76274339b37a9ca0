// IntervalJoinOperator: the time-interval JOIN of two insert-only chunk streams, as Flink's
// RowTimeIntervalJoin / ProcTimeIntervalJoin (STREAMING) and its batch counterpart (BATCH).
//
// Input 0 is the LEFT side, input 1 the RIGHT side. A left row at time l and a right row at time
// r join when l + lowerBound <= r <= l + upperBound (milliseconds, both inclusive), their equi
// keys are equal (a key holding a NULL never matches; neither does a NULL time) and the residual
// condition over the joined row (left columns, then right columns) is TRUE. Output rows are +I
// only: each joined pair once, emitted when the later of its two rows arrives; for an outer side
// (LEFT: left rows, RIGHT: right rows, FULL: both) a row that never joined is emitted once,
// padded with NULLs for the other side's columns, when no partner can come any more.
//
// STREAMING, event time. W is the operator's combined input watermark ("no row with a time <= W
// follows"). Each side keeps its rows per equi key, ordered by time. A stored row is released
// when no row of the other side can still join it:
//   left row at l:  when W >= l + upperBound     (Flink's rightQualifiedUpperBound)
//   right row at r: when W >= r - lowerBound     (Flink's leftQualifiedUpperBound)
// A released outer row that never joined is emitted padded at that moment. An arriving row
// joins the stored rows of the other side in its range (every stored row is still unreleased, so
// the result does not depend on when cleanup runs, unlike Flink's lazily timed cleanup), and is
// then stored unless it would be released at once; an unstored outer row that joined nothing is
// emitted padded at once (Flink's rule for rows it does not cache).
//
// Late rows: a row is late when W has passed both the last time a row of the other side could
// still arrive for it and the release of every stored row it could join:
//   left row at l:  W >= l + upperBound + max(0, -lowerBound)
//   right row at r: W >= r - lowerBound + max(0, upperBound)
// It then cannot join anything (Flink, which joins every row against what is still cached,
// finds nothing either); it is counted in JobMetrics::numLateRecordsDropped and, for an outer
// side, emitted padded at once, as Flink does for an uncached row that joined nothing.
//
// Output watermark: held back by Flink's getMaxOutputDelay, max(upperBound, -lowerBound) (the
// larger of the two relative window sizes; allowed lateness is 0 as in Flink's planner), so a
// padded row emitted at release is never behind a watermark emitted before it. The padded rows
// released by a watermark are emitted before the held-back watermark. Watermark::kMax (end of
// input) releases all state and is forwarded as it is; no watermark ever goes backwards.
//
// STREAMING, processing time: a row's time is the ProcessingTimeService's clock when its chunk
// arrives (the time columns are not read), and W is that clock minus 1 ms (rows arriving in the
// current millisecond may still join). State is released by ProcessingTimeService timers (and
// before each chunk); nothing is ever late. Watermarks are forwarded unchanged.
//
// finish(): every still-stored outer row that never joined is emitted padded, and all state is
// released, in event and processing time alike: an accepted row is never dropped silently.
//
// BATCH: no watermarks (any that arrive are not forwarded: the output comes at finish()); both
// inputs are buffered and joined at finish(): each left row in arrival order emits its matching
// right rows in their arrival order (or, for LEFT/FULL, its padded row when it has none), then,
// for RIGHT/FULL, the unmatched right rows come padded in arrival order. Nothing is late.
// Streaming output without late rows equals the BATCH output as a multiset.
//
// Emission order in STREAMING: for an input chunk, row by row, each row's joined rows in the
// other side's time order (arrival order among equal times), or its padded row; on release, key
// by key in order of their earliest release time (ties by key slot), within a key the left rows
// then the right rows, each in time order. Output chunks hold at most kDefaultBatchSize rows.
//
// State: the join state classes shared with the regular and the temporal join (row_store.h). A
// RowStore per side keeps the stored rows in the columnar chunks they arrived in (a chunk most of
// whose rows are not stored is first cut down to the stored ones; a store holding mostly released
// rows is compacted); a KeyTable holds per key and side a vector of (time, row, joined) entries
// ordered by time; one release queue of (earliest release time, key) over all keys, so a
// watermark touches only the keys with something to release.
//
// Checkpoints (STREAMING): each side's stored rows are raw keyed state of the task's keyed state
// backend (OperatorContext::keyedStateBackend, registered in open()), "_interval_join/left-rows"
// and "_interval_join/right-rows", so every snapshot of the backend holds them by key group
// (the key group of the equi key bytes, as the exchange routes them) and a restore at another
// parallelism reads exactly the keys of its key groups. Per key, the side's rows in their
// order, each with its time and joined flag (docs/state_format.md, "Interval join"). A restore
// (in open(), before any record) appends the rows of its key groups to the stores as fresh
// chunks and schedules their release again: the release queue and the processing-time cleanup
// timers are not written, they follow from the rows' times (a processing-time row already due
// is released at the first timer or chunk after the restore). Bytes that do not decode throw
// InternalError naming the state, the operator and the key group. The event-time watermark is
// written too, unlike Flink's (whose operators start from Long.MIN_VALUE after a restore): as
// union operator list state "_interval_join/watermark", one value per subtask, restored as the
// lowest of the old subtasks' values (with the held-back output watermark and CURRENT_WATERMARK
// following from it). Without it, until the first watermark after a restore no row would be
// late or released at once: rows behind the old watermark that an uninterrupted run drops as
// late (or pads at once) would be stored and could join each other. Not written: the late-row
// count (a job metric). So a restored subtask emits what the uninterrupted one would, in the
// same order, except among keys released at the same time by one watermark, which come in the
// order of their key slots (assigned anew by the restore). BATCH keeps nothing across a
// checkpoint and registers no state.
//
// Threading and ownership: one operator per subtask, called only by its task thread (timer
// callbacks included, see ProcessingTimeService). The spec is the shared immutable definition;
// the operator owns its state.
#pragma once

#include <absl/container/inlined_vector.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <vector>

#include "common/session_time_zone.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"
#include "expression/bound_expression.h"
#include "runtime/operators/join/join_condition.h"
#include "runtime/operators/join/join_operator.h"
#include "runtime/operators/stored_rows/joined_row_emitter.h"
#include "runtime/operators/stored_rows/key_table.h"
#include "runtime/operators/stored_rows/row_store.h"
#include "runtime/operators/stored_rows/stored_row_codec.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// The definition of one interval join (built by the planner, shared by all subtasks).
struct IntervalJoinSpec {
  relational::JoinType joinType = relational::JoinType::INNER;  // INNER, LEFT, RIGHT or FULL
  LogicalTypePtr leftRowType;           // ROW<...> of input 0
  LogicalTypePtr rightRowType;          // ROW<...> of input 1
  /// Equi-join key columns of each input, pairwise of identical types. May be empty: every row
  /// then has the same (empty) key and the planner runs the join at parallelism 1.
  std::vector<int> leftKeys;
  std::vector<int> rightKeys;
  /// The time attribute columns: TIMESTAMP(3), TIMESTAMP_LTZ(3) or BIGINT, read as epoch
  /// milliseconds. Required unless `processingTime` (then they are not read and may be -1).
  int leftTimeColumn = -1;
  int rightTimeColumn = -1;
  /// A pair joins when leftTime + lowerBound <= rightTime <= leftTime + upperBound (ms, both
  /// inclusive; the planner turns strict bounds into inclusive ones by ±1 ms), the keys are
  /// equal and `condition` is TRUE. lowerBound <= upperBound.
  int64_t lowerBound = 0;
  int64_t upperBound = 0;
  /// Residual condition over the joined row (left columns, then right columns); null = none.
  expression::ExpressionPtr condition;
  /// Processing-time join: a row's time is the clock at its arrival; state expires by
  /// processing-time timers.
  bool processingTime = false;
  LogicalTypePtr outputRowType;  // left fields then right fields (padded sides nullable)
  /// A window join (the times are window ends, bounds [0, 0]): a late outer row is dropped and
  /// counted like any late row, not emitted padded (Flink's WindowJoin drops late rows).
  bool dropLateRows = false;
  /// Added to every time read from a time column in STREAMING (a window join reads its window
  /// ends minus 1 ms, the windows' last milliseconds, so that a window closes when the
  /// watermark reaches that millisecond, as Flink's windows do).
  int64_t timeShift = 0;
  /// The time columns hold wall-clock times of this zone (a window join's window ends of
  /// TIMESTAMP_LTZ windows): each is read as the instant it names (before the shift).
  std::optional<common::SessionTimeZone> timeZone;
};

/// How far the output watermark is held back behind the input watermark (event time): Flink's
/// getMaxOutputDelay, max(upperBound, -lowerBound), never negative.
int64_t intervalJoinWatermarkDelay(const IntervalJoinSpec& spec);

/// The interval join of input 0 (left) and input 1 (right); see the file comment.
class IntervalJoinOperator final : public StreamOperator {
 public:
  explicit IntervalJoinOperator(std::shared_ptr<const IntervalJoinSpec> spec);
  ~IntervalJoinOperator() override;

  /// Needs context.processingTimeService for a processing-time join.
  void open(OperatorContext& context) override;
  /// `inputIndex` 0 is the left input, 1 the right input. Chunks must be insert-only.
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void finish() override;
  void close() override;
  /// Writes the event-time watermark into its operator list state (the stored rows are written
  /// by the keyed state backend, see the file comment).
  void snapshotState(StateSnapshotContext& context) override;

  /// Rows held in state (STREAMING) or buffered (BATCH), both sides together. For tests.
  size_t bufferedRows() const;

  /// The names of the raw keyed states holding each side's stored rows (see the file comment).
  static constexpr const char* kLeftRowsStateName = "_interval_join/left-rows";
  static constexpr const char* kRightRowsStateName = "_interval_join/right-rows";
  /// The union operator list state holding each subtask's event-time watermark.
  static constexpr const char* kWatermarkStateName = "_interval_join/watermark";

 private:
  static constexpr int64_t kNoTimer = Watermark::kMax;

  /// One stored row of a side under one key.
  struct StoredRow {
    int64_t time;
    RowRef row;
    bool joined;  // an outer side's row that joined at least once (never padded then)
  };

  /// One side's stored rows of one key, ordered by time, then arrival; rows[0, head) are
  /// released and erased in bulk. One row is kept inline: most keys of a join on a
  /// near-unique value (Nexmark q7's price) never hold more, and need no allocation.
  struct SideRows {
    absl::InlinedVector<StoredRow, 1> rows;
    size_t head = 0;
    bool empty() const { return head == rows.size(); }
    /// Adds `stored` in time order, after the rows of the same time (so arrival order is kept
    /// among them).
    void insert(const StoredRow& stored);
  };

  /// One equi key with stored rows on either side (a slot of keys_).
  struct KeyEntry {
    std::string bytes;
    SideRows sides[2];
    /// The time of this key's valid entry in releaseQueue_, when releaseScheduled. Other
    /// entries of the key in the queue are stale and skipped.
    bool releaseScheduled = false;
    int64_t scheduledRelease = 0;
  };

  struct ReleaseEntry {
    int64_t time;
    int32_t key;
    auto operator<=>(const ReleaseEntry&) const = default;
  };

  /// The candidate pairs of the input rows [begin, end) of one chunk, for one evaluation of the
  /// residual condition: row begin + i pairs with candidates [firstCandidateOfRow[i],
  /// firstCandidateOfRow[i + 1]), and partnerOfCandidate[c] names candidate c's stored partner
  /// (STREAMING: its index in its key's rows of the other side; BATCH: its build row number).
  /// Rows are added while it has room (under kMaxCandidatesPerEvaluation candidates; a single
  /// row's candidates are never split).
  struct CandidateWindow {
    JoinedRowRefs candidates;
    std::vector<size_t> partnerOfCandidate;
    std::vector<int64_t> firstCandidateOfRow;
    int64_t begin = 0;
    int64_t end = 0;
    /// Empties the window, to start at row `first`.
    void clear(int64_t first);
    /// Whether another row may be added.
    bool hasRoom() const;
    /// Adds the pair (left, right) of the row being added, whose stored partner is `partner`.
    void addCandidate(RowRef left, RowRef right, size_t partner);
  };

  /// The BATCH join's working state at finish() (defined in the .cpp).
  struct BatchJoin;

  /// One side's stored rows as raw keyed state (see the file comment): written from and
  /// restored into the operator's keys_ and stores_.
  class StoredRowsState final : public state::RawKeyedState {
   public:
    StoredRowsState(IntervalJoinOperator* join, int side) : join_(join), side_(side) {}
    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override;
    std::unique_ptr<state::FrozenKeyGroups> freezeKeyGroups(KeyGroupRange range,
                                                            int maxParallelism) const override;
    void restoreKeyGroup(int keyGroup, std::string_view body) override;

   private:
    IntervalJoinOperator* join_;
    int side_;
  };

  /// Rows of one side decoded from a snapshot and not yet in the store: a chunk of their
  /// values, and per row its key, time and joined flag.
  struct RestoredRows {
    std::optional<RestoredRowChunk> chunk;
    std::vector<std::string> keys;
    std::vector<int64_t> times;
    std::vector<uint8_t> joined;
  };

  bool isOuter(int side) const;
  int64_t timeOffset(int side) const;  // a stored row of `side` at t is released at t + this
  int64_t lateThreshold(int side, int64_t time) const;

  /// STREAMING: joins one input chunk of `side` and stores its rows (see the .cpp's comment).
  void processChunkInStreamingMode(int side, vector::Chunk chunk);
  /// STREAMING: fills the per-chunk scratch for `input` (each row's time, RowStatus, key bytes
  /// and its key's slot among the stored keys, -1 if none) and counts its late rows; returns
  /// how many of its rows to store.
  int64_t classifyRowsInStreamingMode(int side, const vector::Chunk& input, int64_t arrivalTime);
  /// STREAMING: the equi key bytes of row `row` of the current chunk (empty when it has none).
  std::string_view keyBytesOfRow(size_t row) const;
  /// STREAMING: fills `window` from row `windowBegin` of input chunk `segment` on: each joinable
  /// row with the other side's stored rows of its key whose times are in its range.
  void collectCandidatesInStreamingMode(int side, int32_t segment, int64_t windowBegin,
                                        CandidateWindow& window) const;
  /// STREAMING: emits the window's matching pairs row by row, marks an outer side's stored
  /// partners joined, and pads the outer input rows that joined nothing and are not stored.
  void emitWindowInStreamingMode(int side, int32_t segment, const CandidateWindow& window,
                                 const std::vector<uint8_t>& matches);
  /// STREAMING: stores the rows of input chunk `segment` that can still meet rows of the other
  /// side under their keys (in a chunk of their own when they are at most half of it) and
  /// schedules their release.
  void storeRowsInStreamingMode(int side, int32_t segment, int64_t storedRows);
  /// STREAMING: copies the `storedRows` rows to store of input chunk `segment` into a chunk of
  /// their own; returns its segment, and storedPositions[row]: input row `row`'s position in it.
  int32_t copyStoredRowsInStreamingMode(int side, int32_t segment, int64_t storedRows,
                                        std::vector<int32_t>& storedPositions);

  /// BATCH: joins the buffered inputs and emits the result (see the file comment).
  void finishInBatchMode();
  /// BATCH: row `row`'s time in chunk number `arrival` of `side`; nullopt when it is NULL.
  std::optional<int64_t> timeInBatchMode(int side, size_t arrival, const vector::Chunk& chunk,
                                         int64_t row) const;
  /// BATCH: numbers the right rows in arrival order and orders each key's rows by time.
  void buildInBatchMode(BatchJoin& join);
  /// BATCH: joins the left rows in arrival order with the right rows, a window at a time.
  void probeInBatchMode(BatchJoin& join);
  /// BATCH: fills `window` from row `windowBegin` of left chunk number `arrival` on: each row
  /// with the right rows of its key whose times are in its range, in their arrival order.
  void collectCandidatesInBatchMode(size_t arrival, int64_t windowBegin, BatchJoin& join,
                                    CandidateWindow& window) const;
  /// BATCH: emits the window's matching pairs (marking their right rows joined) and pads the
  /// left rows that joined nothing when the left side is outer.
  void emitWindowInBatchMode(int32_t probeSegment, const CandidateWindow& window,
                             const std::vector<uint8_t>& matches, BatchJoin& join);

  /// Releases, on every key due, the stored rows whose release time is <= `watermark`; pads
  /// the outer ones that never joined, flushes the output and frees emptied chunks.
  void releaseUntil(int64_t watermark);
  void releaseRows(KeyEntry& key, int side, int64_t watermark);
  /// Queues a release entry for the key's earliest stored row when it is before the one
  /// already queued (and, in processing time, a timer for it).
  void scheduleRelease(int32_t keyIndex);
  void requestTimer(int64_t time);
  void onProcessingTime(int64_t time);
  /// Processing time: releases what the clock at `now` has completed (all before its
  /// millisecond).
  void releaseUntilClock(int64_t now);
  /// Compacts the stores that hold mostly released rows (STREAMING, no output queued).
  void compactIfSparse();

  /// Checkpoints: the name of `side`'s raw keyed state.
  static const char* rowsStateName(int side);
  /// Checkpoints: `side`'s stored rows of the keys of `range`'s key groups as they are now, to
  /// be written into their block bodies (docs/state_format.md) now or on the async writer.
  std::unique_ptr<FrozenStoredRows> freezeStoredRows(int side, KeyGroupRange range,
                                                     int maxParallelism) const;
  /// Checkpoints: decodes the block body of `side`'s rows of `keyGroup` into restored_[side]
  /// (all of it or, when it does not decode, nothing: InternalError naming the state), and
  /// stores them unless open() is still restoring.
  void restoreStoredRows(int side, int keyGroup, std::string_view body);
  /// Checkpoints: decodes one block body into `rows` (throws on bytes that do not decode).
  void decodeStoredRows(int keyGroup, std::string_view body, RestoredRows& rows) const;
  /// Checkpoints: adds restored_[side]'s rows to the store, in chunks of at most
  /// kDefaultBatchSize rows, under their keys, and schedules their release.
  void storeRestoredRows(int side);

  /// Pads row `row` of `side`.
  void appendPadded(int side, RowRef row);
  void countLateRows(int64_t count);

  std::shared_ptr<const IntervalJoinSpec> spec_;
  JoinCondition condition_;
  int columnCount_[2] = {0, 0};
  int64_t watermarkDelay_ = 0;
  bool batchMode_ = false;
  bool finished_ = false;

  RowStore stores_[2];  // left, right: STREAMING's stored rows; BATCH's buffered chunks
  JoinedRowEmitter emitter_;

  // STREAMING state.
  KeyTable<KeyEntry> keys_;
  std::priority_queue<ReleaseEntry, std::vector<ReleaseEntry>, std::greater<>> releaseQueue_;
  int64_t currentWatermark_ = Watermark::kMin;  // event time: input W; processing time: clock-1
  int64_t lastEmittedWatermark_ = Watermark::kMin;
  int64_t nextTimerTime_ = kNoTimer;  // earliest processing-time timer known to be pending

  // Per-chunk scratch, reused across chunks.
  std::string chunkKeyBytes_;
  std::vector<int32_t> keyBytesEnd_;  // row i's key is chunkKeyBytes_[end(i-1), end(i))
  std::vector<int64_t> rowTimes_;
  std::vector<uint8_t> rowStatus_;
  std::vector<int32_t> keyOfRow_;
  std::vector<uint8_t> rowJoined_;

  // BATCH: the slots of the inputs' chunks in arrival order, and the processing time at which
  // each arrived (processing time only).
  std::vector<int32_t> batchSlots_[2];
  std::vector<int64_t> batchArrivalTime_[2];

  // Checkpoints: each side's raw keyed state, and the rows restored in open() before they are
  // stored (gathered over all key groups into chunks of up to kDefaultBatchSize rows).
  StoredRowsState rowsStates_[2] = {StoredRowsState(this, 0), StoredRowsState(this, 1)};
  RestoredRows restored_[2];
  bool restoringInOpen_ = false;
  ListState<int64_t>* watermarkState_ = nullptr;  // event time only
};

}  // namespace eddy::runtime::operators
