// OverAggregateOperator: `agg(...) OVER (PARTITION BY .. ORDER BY <time attribute> ROWS|RANGE
// BETWEEN <n | UNBOUNDED> PRECEDING AND CURRENT ROW)`, as Flink's StreamExecOverAggregate with
// its RowTime{Rows,Range}{Bounded,Unbounded}PrecedingFunction and ProcTime* counterparts, and
// BatchExecOverAggregate. Output: insert-only, exactly one +I row per accepted input row — the
// input row followed by one column per call, the calls aggregated over the row's frame.
//
// Input: insert-only chunks (any other RowKind is treated as an insert — the planner never feeds
// a changelog here), partitioned by the partition keys (a HASH edge), so all rows of a partition
// meet in one subtask. No partition keys: one partition, and the planner runs parallelism 1.
//
// Order and frames. Rows of a partition are processed in *processing order*: by time, rows of
// equal time in arrival order. A row at time t with preceding = n sees:
//   ROWS  n PRECEDING          itself and the n rows before it in processing order
//   ROWS  UNBOUNDED PRECEDING  itself and every row before it in processing order
//   RANGE n PRECEDING          every row with time in [t - n, t], bounds inclusive — all peers
//                              (rows of time t) included, so peers get equal values (Flink
//                              retracts rows whose time is more than n before t)
//   RANGE UNBOUNDED PRECEDING  every row with time <= t, peers included
// Bounded frames slide by retraction (AggregateCall's accumulate(..., retract = true)) of the
// rows leaving them; nothing is recomputed.
//
// STREAMING, event time (ORDER BY a rowtime): a row whose time is <= the current watermark at
// arrival is late: dropped and counted in JobMetrics::numLateRecordsDropped. Other rows wait in
// their partition until the watermark reaches their time; a watermark W then processes every
// waiting row with time <= W (all peers of a time arrive before the watermark passes it, so a RANGE
// frame always sees all of them), emits their output and only then forwards W. A NULL time fails
// the job with Flink's message (kNullRowTimeMessage).
//
// STREAMING, processing time (ORDER BY a proctime): the order column is not read; every row is
// processed as its chunk arrives, in arrival order, at time = the ProcessingTimeService's clock
// at the chunk's arrival (never before an earlier arrival's). RANGE frames are over those
// times; a row's frame holds the rows that arrived before it, so a peer arriving later in the
// same millisecond is not in it. (Flink's ProcTimeRangeBoundedPrecedingFunction holds RANGE rows
// back for one millisecond to gather all peers; ProcTimeUnboundedPrecedingFunction, used for
// RANGE UNBOUNDED, does not, as here.) Nothing is late; watermarks are forwarded unchanged.
//
// State, kept bounded: per partition, the accumulators; for a bounded frame the rows still in
// it (only the values the calls read: argument and FILTER columns) — the last n + 1 rows (ROWS:
// the latest frame, cut to n when the next row comes), or the rows no more than n ms before
// the latest time (RANGE). A RANGE row is dropped as soon as it has left every future frame:
// in event time when W >= its time + n, in processing time when the clock passes its time + n
// (a ProcessingTimeService timer); a RANGE partition whose frame empties is dropped entirely.
// Waiting rows are kept per partition, columnar, in arrival order. Unbounded frames keep their
// accumulators, and ROWS frames their last rows, until the state TTL (OverAggregateSpec::
// stateTtlMillis) expires an idle partition, or as long as the job runs without one. All of it
// lives in plain member containers.
//
// Checkpoints (STREAMING): the partitions are raw keyed state of the task's keyed backend,
// "_over_aggregate/partitions" (docs/state_format.md, "Over aggregate"), one value per
// partition key: its accumulators, its frame rows with their times, and its waiting rows with
// their times; so a snapshot is written by key group and a restore at another parallelism
// reads the partitions of its key groups. A restore (in open(), before any record) rebuilds the
// partitions and their due entries (and, in processing time, their timers); the clock's last
// arrival time is raised to the latest restored frame row's, so times stay monotonic. Bytes
// that do not decode throw InternalError naming the state, the operator and the key group; a
// snapshot of another query's shape (accumulator or frame value counts) ValidationException.
// Event time: the watermark too, as union operator list state "_over_aggregate/watermark" (the
// lowest restored value wins), so a row late before the restore stays late. With a state TTL,
// each partition's last write, as raw keyed state "_over_aggregate/last-writes". Output is emitted
// by the end of every batch, watermark and timer, so there is nothing to flush before a
// barrier. BATCH keeps nothing across a checkpoint and registers no state.
//
// finish(): every still-waiting row is processed and emitted, whatever the watermark — an
// accepted row is never dropped silently at the end of a bounded input. A Watermark::kMax
// (end of input) does the same and releases all state.
//
// BATCH: no watermarks (they are forwarded and process nothing) and nothing is late; all rows
// are buffered and processed at finish(), with the same frames and the same results as
// STREAMING (processing time: times are still the clock at arrival).
//
// Emission order (deterministic): the rows one watermark (or finish()) releases are emitted
// partition by partition in key-byte order (vector::appendKeyBytes), each partition's rows in
// processing order; so STREAMING ended by Watermark::kMax emits exactly BATCH's rows in BATCH's
// order. Processing time emits rows in arrival order. Output chunks hold at most
// kDefaultBatchSize rows.
//
// Threading and ownership: one operator per subtask, called only by its task thread (timer
// callbacks included, see ProcessingTimeService). The spec is the shared immutable definition;
// the operator owns its state.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"
#include "function/aggregate/aggregate_call.h"
#include "relational/ordering.h"
#include "runtime/operators/sort/sort_operator.h"
#include "runtime/operators/stored_rows/stored_row_codec.h"
#include "vector/chunk.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

/// ROWS: the frame counts rows; RANGE: it spans an interval of the order column's time.
/// The definition of one over aggregation: one frame shared by all its calls (the planner
/// makes one operator per distinct window). Built by the planner, shared by all subtasks.
struct OverAggregateSpec {
  LogicalTypePtr inputRowType;
  /// PARTITION BY columns (input columns). May be empty: one partition, parallelism 1.
  std::vector<int> partitionKeys;
  /// The ORDER BY time attribute: a rowtime column, TIMESTAMP(3), TIMESTAMP_LTZ(3) or BIGINT,
  /// read as epoch milliseconds. Not read (may be -1) with processingTime.
  int orderColumn = -1;
  /// ORDER BY a proctime: rows are processed in arrival order at the clock's time.
  bool processingTime = false;
  /// BATCH only, with orderColumn -1 and not processingTime: the rows are ordered by these
  /// columns (none: every row of a partition is a peer of the others); rows of equal keys
  /// are peers, in arrival order. RANGE frames are then UNBOUNDED (`preceding` unset) or
  /// CURRENT ROW (0: the row's peers).
  std::vector<relational::SortKey> orderKeys;
  relational::OverFrameUnit unit = relational::OverFrameUnit::ROWS;
  /// ROWS: how many rows before the current one; RANGE: how many milliseconds before (a row at
  /// t sees rows with time in [t - preceding, t]); >= 0. nullopt: UNBOUNDED PRECEDING. The
  /// frame always ends at CURRENT ROW.
  std::optional<int64_t> preceding;
  /// Over input columns, as GroupAggregateOperator's (FILTER and DISTINCT included).
  std::vector<function::AggregateCall> calls;
  /// The input columns (same types), then one column per call (of its resultType).
  LogicalTypePtr outputRowType;
  /// table.exec.state.ttl (ms; 0: never), STREAMING unbounded and ROWS frames (a RANGE frame
  /// forgets its rows by itself, and Flink applies no TTL to it): a partition that accepted no
  /// row for this long (processing time) and has none waiting is forgotten, and its next row
  /// starts it afresh, as Flink's over functions with a state retention time do. Idle
  /// partitions are also removed in the background (kTtlCleanupPartitionsPerRow per row).
  int64_t stateTtlMillis = 0;
};

/// The over aggregation of one subtask; see the file comment.
class OverAggregateOperator final : public StreamOperator {
 public:
  /// Throws InternalError when the spec is inconsistent (columns out of range, an order column
  /// that is not a time, a negative `preceding`, an output type that does not fit).
  explicit OverAggregateOperator(std::shared_ptr<const OverAggregateSpec> spec);
  ~OverAggregateOperator() override;

  /// Needs context.processingTimeService when the spec orders by processing time.
  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void finish() override;
  /// Event time: writes the watermark into its operator list state (the partitions are written
  /// by the keyed state backend, see the file comment).
  void snapshotState(StateSnapshotContext& context) override;

  /// The raw keyed state holding the partitions, and the union operator list state holding
  /// each subtask's watermark (see the file comment).
  static constexpr const char* kPartitionsStateName = "_over_aggregate/partitions";
  static constexpr const char* kWatermarkStateName = "_over_aggregate/watermark";
  /// With a state TTL: each partition's last write (raw keyed state, ValueState-shaped).
  static constexpr const char* kLastWritesStateName = "_over_aggregate/last-writes";
  /// State TTL: partitions the background cleanup visits per input row.
  static constexpr int64_t kTtlCleanupPartitionsPerRow = 5;

  /// Rows held in state: waiting rows plus the rows kept in bounded frames, over all
  /// partitions. For tests.
  size_t stateRows() const { return stateRows_; }
  /// Partitions holding state. For tests.
  size_t partitionCount() const { return partitionIndex_.size(); }

 private:
  /// The rows of a partition's bounded frame, oldest first: rows [head, times.size()) are in
  /// the frame; values holds stride values per row (the columns in frameColumns_).
  struct FrameRows {
    std::vector<int64_t> times;
    std::vector<Value> values;
    size_t head = 0;

    size_t size() const { return times.size() - head; }
    bool empty() const { return head == times.size(); }
    int64_t frontTime() const { return times[head]; }
  };

  /// One partition (a slot of partitions_, free while !inUse).
  struct Partition {
    std::string keyBytes;
    bool inUse = false;
    std::vector<function::Accumulator> accumulators;
    FrameRows frame;  // bounded frames only
    /// Event time and BATCH: accepted rows not processed yet, in arrival order, with their
    /// times (null until the first one).
    std::unique_ptr<vector::Chunk> waitingRows;
    std::vector<int64_t> waitingTimes;
    /// The time of this partition's valid entry in dueQueue_, when scheduled. Other entries of
    /// the slot in the queue are stale and skipped.
    bool scheduled = false;
    int64_t scheduledTime = 0;
    int64_t lastWrite = 0;  // with a state TTL: when it last accepted a row
  };

  struct DueEntry {
    int64_t time;
    int32_t partition;
    auto operator<=>(const DueEntry&) const = default;
  };

  void processChunk(const vector::Chunk& chunk);
  bool ttl() const { return spec_->stateTtlMillis > 0; }
  /// State TTL: whether partition `partition` is forgotten at `now` (idle, nothing waiting).
  bool expired(const Partition& partition, int64_t now) const {
    return ttl() && partition.inUse && partition.waitingTimes.empty() &&
           now - partition.lastWrite >= spec_->stateTtlMillis;
  }
  /// State TTL: the next `visits` partitions of the cleanup cursor, freeing the expired ones.
  void expireIdlePartitionsIncrementally(int64_t visits, int64_t now);
  int32_t findOrAddPartition();  // of keyBytes_
  void freePartition(int32_t index);

  /// Processes rows[0, count) of `source`, all of `partition` and all at `time`, in that order,
  /// and emits their output rows.
  void processPeers(Partition& partition, const vector::Chunk& source, const int32_t* rows,
                    int64_t count, int64_t time);
  /// Processes the waiting rows of `partition` with time <= `time`, in processing order.
  void processWaitingRows(Partition& partition, int64_t time);
  /// Processes every partition due at or before `time` (watermark, or processing-time clock
  /// minus 1 ms): its waiting rows up to `time` and the expiry of its RANGE frame rows.
  void releaseUntil(int64_t time);
  /// Retracts and drops the frame rows no future row's frame can hold once the clock is
  /// `time` (RANGE bounded frames).
  void expireFrame(Partition& partition, int64_t time);
  /// The earliest time at which `partition` has something to do (process a waiting row or
  /// expire a frame row), if any.
  std::optional<int64_t> dueTime(const Partition& partition) const;
  /// Queues an entry for partition `index` at `time` unless it is scheduled no later already
  /// (in processing time with a timer at time + 1).
  void scheduleAt(int32_t index, int64_t time);
  void requestTimer(int64_t time);
  void onProcessingTime(int64_t time);

  /// Reads the values the calls read from row `row` of `source` into rowValues_, then adds
  /// them to the accumulators (and to the frame, when bounded).
  void addRow(Partition& partition, const vector::Chunk& source, int64_t row, int64_t time);
  void retractOldestFrameRow(Partition& partition);
  void appendOutput(const vector::Chunk& source, int64_t row);
  void emitOutput();
  void countLateRow();

  /// The partitions as raw keyed state: written from and restored into partitions_.
  class PartitionsState final : public state::RawKeyedState {
   public:
    explicit PartitionsState(OverAggregateOperator* over) : over_(over) {}
    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override;
    void restoreKeyGroup(int keyGroup, std::string_view body) override;

   private:
    OverAggregateOperator* over_;
  };
  /// With a state TTL: each partition's last write, beside the partitions.
  class LastWritesState final : public state::RawKeyedState {
   public:
    explicit LastWritesState(OverAggregateOperator* over) : over_(over) {}
    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override;
    void restoreKeyGroup(int keyGroup, std::string_view body) override;

   private:
    OverAggregateOperator* over_;
  };
  /// Checkpoints: the partitions of `range`'s key groups, sorted (slot: index in partitions_).
  std::vector<SnapshotKey> snapshotKeys(KeyGroupRange range, int maxParallelism) const;
  /// Checkpoints with a state TTL: the last writes of the partitions of one block body.
  void restoreLastWrites(int keyGroup, std::string_view body);
  /// A partition decoded from a snapshot, before it replaces the partition of its key.
  struct RestoredPartition;
  /// Checkpoints: appends the partitions of `range`'s key groups to their block bodies
  /// (docs/state_format.md).
  void snapshotPartitions(KeyGroupRange range, int maxParallelism,
                          std::vector<std::string>& bodies) const;
  /// Checkpoints: decodes one block body completely, then installs its partitions (none when
  /// it does not decode: InternalError naming the state, or ValidationException for a snapshot
  /// of another query's shape).
  void restorePartitions(int keyGroup, std::string_view body);
  /// Checkpoints: decodes one partition's value into `partition`, its waiting rows staged.
  void decodePartition(std::string_view value, RestoredPartition& partition,
                       RestoredRowChunk& waitingRows) const;

  std::shared_ptr<const OverAggregateSpec> spec_;
  int inputColumnCount_ = 0;
  bool bounded_ = false;   // preceding is set: frames keep their rows
  int64_t preceding_ = 0;  // when bounded_
  bool batchMode_ = false;
  // BATCH ordered by spec_->orderKeys (or not ordered): each waiting row's time is the number
  // of its order key bytes in orderBytes_ until finish() ranks them.
  bool generalOrder_ = false;
  std::vector<vector::SortColumn> orderColumns_;
  std::vector<std::string> orderBytes_;
  bool eventTime_ = false;   // STREAMING ordered by a rowtime: watermarks release rows
  bool bufferRows_ = false;  // event time or BATCH: rows wait in their partition
  int64_t currentWatermark_ = Watermark::kMin;
  int64_t lastArrivalTime_ = Watermark::kMin;  // processing time: the clock, made monotonic
  int64_t nextTimerTime_ = Watermark::kMax;    // earliest timer known to be pending
  std::unique_ptr<vector::Chunk> output_;

  // The input columns the calls read (arguments and filters), and each input column's
  // position among them, or -1.
  std::vector<int> frameColumns_;
  std::vector<int> positionInFrameRow_;

  std::vector<Partition> partitions_;
  std::vector<int32_t> freePartitions_;
  absl::flat_hash_map<std::string, int32_t> partitionIndex_;
  std::priority_queue<DueEntry, std::vector<DueEntry>, std::greater<>> dueQueue_;
  size_t stateRows_ = 0;

  // The LAG calls (indices into spec_->calls): in BATCH evaluated row by row among peers.
  std::vector<size_t> lagCalls_;
  // Scratch, reused.
  std::vector<Value> lagValues_;
  std::string keyBytes_;
  std::vector<Value> rowValues_;
  std::vector<Value> results_;
  std::vector<int32_t> order_;
  std::vector<int64_t> remainingTimes_;
  std::vector<int32_t> due_;

  // Checkpoints (STREAMING): the raw keyed state, the number of accumulator values of all
  // calls together, and the event-time watermark's state.
  PartitionsState partitionsState_{this};
  LastWritesState lastWritesState_{this};
  // State TTL: the cleanup cursor (an index of partitions_), and restored last writes of
  // partitions not restored yet.
  size_t ttlCleanupCursor_ = 0;
  absl::flat_hash_map<std::string, int64_t> restoredLastWrites_;
  size_t accumulatorValueCount_ = 0;
  ListState<int64_t>* watermarkState_ = nullptr;
};

}  // namespace eddy::runtime::operators
