// RankOperator: Top-N — the rows of each partition ranked by sort keys, kept when their rank
// is in [rankStart, rankEnd] — as Flink's StreamExecRank (RetractableTopNFunction and
// AppendOnlyTopNFunction) and BatchExecRank. The planner makes it from
// `ROW_NUMBER() / RANK() / DENSE_RANK() OVER (PARTITION BY .. ORDER BY ..)` filtered on the
// rank, and from ORDER BY .. LIMIT in STREAMING (no partition keys).
//
// STREAMING: each partition's live rows are kept, sorted (equal keys in arrival order) — only
// the first rankEnd rows when the input is insert-only and the rank is ROW_NUMBER (a row below
// them can never rise again). The rows stay in the input chunks that brought them (a RowStore,
// shared with the joins): a partition is a list of RowRefs, sort keys are compared in the
// columns, and output rows are gathered a column at a time; no row becomes a Value. After each
// batch the kept rows of a sparsely kept input chunk are gathered into a chunk of their own.
// After
// every input row the visible rows before and after are compared and the difference emitted:
//   without the rank number: a row entering the top N is +I, a row leaving it -D (+I first);
//   with the rank number: for every rank whose row changed, -U old / +U new (+I or -D where a
//   rank gained or lost its row).
// BATCH: the input chunks are buffered as they came (the RowStore); at the end all rows are
// grouped by partition keys and sorted by sort keys (a RowSorter) and each partition's visible
// rows are emitted as +I, gathered a column at a time (partitions in key-byte order).
//
// Checkpoints (STREAMING): what a subtask keeps is written into the key-group sections of the
// task's keyed backend (docs/state_format.md, "Rank"), so a restore at another parallelism
// reads the partitions of its key groups:
//   Top-N and Deduplicate: raw keyed state "_rank/rows", per partition its kept rows in their
//     sorted order (equal keys in arrival order), each row's columns as Values; a restore (in
//     open(), before any record) moves the rows of all its key groups into the store as fresh
//     chunks and lists them under their partitions in that order.
//   Window Top-N: raw keyed state "_window_rank/rows", per partition (its key includes the
//     window end) the buffered rows in arrival order; a restore buffers them again and files
//     each partition under its window's time. The watermark too, as union operator list state
//     "_window_rank/watermark" (the lowest restored value wins), so a row of a window emitted
//     before the checkpoint stays late after the restore (Flink's WindowRank starts from no
//     watermark instead).
//   Deduplication keeping the first row on processing time: ValueState "rows" of the backend,
//     the first row per key as Values, in the snapshot as any typed state (with TTL when
//     RankSpec::stateTtlMillis is set).
//   With a state TTL, Top-N and Deduplicate (not the first-row one above, whose ValueState has
//     the TTL itself) also write raw keyed state "_rank/last-writes",
//     per partition the time its kept rows last changed, so expiry goes on from it.
// Bytes that do not decode throw InternalError naming the state, the operator and the key group.
// Output is emitted by the end of every batch, so there is nothing to flush before a barrier.
// BATCH keeps nothing across a checkpoint and registers no raw state.
//
// One operator per subtask, called from its task thread; input partitioned by the partition
// keys (none: parallelism 1).
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/session_time_zone.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"
#include "eddy/state/state.h"
#include "relational/ordering.h"
#include "runtime/operators/sort/sort_operator.h"
#include "runtime/operators/stored_rows/key_table.h"
#include "runtime/operators/stored_rows/row_ref_output_queue.h"
#include "runtime/operators/stored_rows/row_store.h"
#include "runtime/operators/stored_rows/stored_row_codec.h"
#include "state/heap_keyed_state_backend.h"
#include "state/state_backend_loader.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

struct RankSpec {
  LogicalTypePtr inputRowType;
  std::vector<int> partitionKeys;
  std::vector<relational::SortKey> sortKeys;
  relational::RankKind rankKind = relational::RankKind::ROW_NUMBER;
  int64_t rankStart = 1;          // inclusive, >= 1
  int64_t rankEnd = INT64_MAX;    // inclusive
  bool outputRankNumber = false;  // append the rank as a BIGINT NOT NULL column
  bool inputInsertOnly = false;   // lets STREAMING keep only the top rows
  LogicalTypePtr outputRowType;
  /// Window Top-N (Flink's WindowRank): >= 0 when the partition keys include a window's
  /// window_end (this input column, a TIMESTAMP(3) in the window scale). STREAMING then buffers
  /// each window's partitions and emits their ranked rows once, as +I, when the watermark
  /// reaches the window's time (window_end - 1; the instant of window_end in `windowTimeZone`
  /// when set); rows of a window already emitted are late: dropped and counted.
  int windowEndColumn = -1;
  /// Deduplication keeping the first row on processing time: STREAMING emits the first row of
  /// each partition (+I) and drops the later ones, whatever their order values (proctimes
  /// computed upstream by parallel subtasks need not arrive in order).
  bool keepFirstArrival = false;
  /// Deduplication by a time attribute otherwise (Flink's Deduplicate; rankEnd is 1, no rank
  /// number, insert-only input): a row replacing its key's row is emitted as -U old / +U new
  /// (on event time also when both are equal; on processing time an equal row emits nothing),
  /// as Flink's deduplicate functions do. The new row replaces the
  /// held one when it sorts before it, and on equal times when keeping the last row (DESC);
  /// with `keepLastArrival` (keep-last on processing time) always.
  bool deduplicate = false;
  bool keepLastArrival = false;
  /// Deduplication, and Top-N with the rank number: whether a replaced row is retracted with
  /// -U before its successor's +U (false: the consumer takes upserts by the partition keys and
  /// the rank number, or by the deduplication's key).
  bool generateUpdateBefore = true;
  std::optional<common::SessionTimeZone> windowTimeZone;
  /// table.exec.state.ttl (ms; 0: never), STREAMING Top-N and deduplication (not the window
  /// Top-N, whose partitions end with their window): a partition whose rows did not change
  /// for this long (processing time) is forgotten — its next row starts it afresh, nothing is
  /// retracted — as Flink's Rank and Deduplicate functions with a state TTL. Idle partitions
  /// are also removed in the background (kTtlCleanupPartitionsPerRow), so state stays bounded
  /// by the partitions written within the TTL.
  int64_t stateTtlMillis = 0;
};

class RankOperator final : public StreamOperator {
 public:
  explicit RankOperator(std::shared_ptr<const RankSpec> spec);
  ~RankOperator() override;

  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void finish() override;
  /// Window Top-N: writes the watermark into its operator list state (the rows are written by
  /// the keyed state backend, see the file comment).
  void snapshotState(StateSnapshotContext& context) override;

  using Rows = std::vector<std::vector<Value>>;

  /// The raw keyed states holding the rows (see the file comment), and the window Top-N's
  /// union operator list state holding each subtask's watermark.
  static constexpr const char* kRowsStateName = "_rank/rows";
  static constexpr const char* kWindowRowsStateName = "_window_rank/rows";
  static constexpr const char* kWatermarkStateName = "_window_rank/watermark";
  /// With a state TTL: each partition's last write (raw keyed state, ValueState-shaped).
  static constexpr const char* kLastWritesStateName = "_rank/last-writes";
  /// State TTL: partitions the background cleanup visits per input row.
  static constexpr int64_t kTtlCleanupPartitionsPerRow = 5;

  /// Rows held: the STREAMING Top-N's kept rows, or the window Top-N's buffered rows. For tests.
  size_t stateRows() const;

 private:
  /// Whether row `a` sorts before row `b` by the sort keys.
  bool less(const std::vector<Value>& a, const std::vector<Value>& b) const;
  bool sameKeys(const std::vector<Value>& a, const std::vector<Value>& b) const;
  /// Calls emit(i, rank) for each visible row of a sorted partition of `count` rows, from index
  /// `from` on (ROW_NUMBER only; the other kinds rank from the first row); `tie(i)` says
  /// whether row i has row i-1's sort keys. Shared by the Value rows (BATCH, window) and the
  /// RowStore rows (STREAMING).
  template <typename Tie, typename Emit>
  void forEachVisible(size_t count, size_t from, Tie&& tie, Emit&& emit) const;
  void append(const std::vector<Value>& row, int64_t rank, RowKind kind);

  // ---- STREAMING Top-N over the RowStore ----
  struct Partition {
    std::string bytes;
    std::vector<RowRef> sorted;
    int64_t lastWrite = 0;  // with a state TTL: when `sorted` last changed
  };
  bool ttl() const { return spec_->stateTtlMillis > 0; }
  bool expired(const Partition& partition, int64_t now) const {
    return ttl() && now - partition.lastWrite >= spec_->stateTtlMillis;
  }
  /// State TTL: forgets partition `slot` (its rows are let go of; nothing is emitted).
  void expirePartition(int32_t slot);
  /// State TTL: the next `visits` slots of the cleanup cursor, expiring the idle partitions.
  void expireIdlePartitionsIncrementally(int64_t visits, int64_t now);
  /// Ranks the rows of `chunk` (already added to the store as `segment`).
  void processStreamingRow(int32_t segment, int64_t row);
  /// <0, 0, >0 as stored row `a` sorts before, with, after `b` by the sort keys.
  int compareSortKeys(RowRef a, RowRef b) const;
  /// Deduplication: whether `row` takes the place of its key's `held` row (see RankSpec).
  bool replacesHeldRow(RowRef row, RowRef held) const;
  /// Whether two stored rows have equal values in every column.
  bool rowsEqual(RowRef a, RowRef b) const;
  /// The visible rows of a sorted partition with their ranks, from index `from` on.
  void visibleRefs(const std::vector<RowRef>& sorted, size_t from,
                   std::vector<std::pair<RowRef, int64_t>>& out) const;
  /// Queues a stored row for output (with its rank number); flushPending() emits the queue.
  void appendRef(RowRef row, int64_t rank, RowKind kind);
  void flushPending();
  /// Copies the rows of input chunk `segment` still kept (by the partitions in touched_) into a
  /// chunk of their own, so that a few kept rows do not pin a whole input chunk; a chunk of
  /// which half or more is kept stays as it is.
  void relocateKeptRows(int32_t segment);
  void compactIfSparse();
  /// Window Top-N: sorts the buffered partition `key` and emits its visible rows as +I;
  /// forgets it.
  void emitPartition(const std::string& key);
  /// BATCH: ranks every buffered row and emits the visible ones.
  void finishInBatchMode();
  void emitOutput();
  /// Window Top-N: when the window ending at `windowEnd` (a window_end value) fires.
  int64_t windowFireTime(const Value& windowEnd) const;

  /// The rows as raw keyed state (STREAMING Top-N or window Top-N): written from and restored
  /// into topN_ and store_, or partitions_ and windowPartitions_.
  class RowsState final : public state::RawKeyedState {
   public:
    explicit RowsState(RankOperator* rank) : rank_(rank) {}
    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override;
    void restoreKeyGroup(int keyGroup, std::string_view body) override;

   private:
    RankOperator* rank_;
  };
  /// With a state TTL: each partition's last write, beside the rows.
  class LastWritesState final : public state::RawKeyedState {
   public:
    explicit LastWritesState(RankOperator* rank) : rank_(rank) {}
    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override;
    void restoreKeyGroup(int keyGroup, std::string_view body) override;

   private:
    RankOperator* rank_;
  };
  bool windowed() const { return spec_->windowEndColumn >= 0; }
  const char* rowsStateName() const { return windowed() ? kWindowRowsStateName : kRowsStateName; }
  /// Checkpoints: appends the rows of the partitions of `range`'s key groups to their block
  /// bodies (docs/state_format.md).
  void snapshotRows(KeyGroupRange range, int maxParallelism, std::vector<std::string>& bodies);
  /// The STREAMING Top-N's partitions with rows in `range`, sorted, the expired ones left out.
  std::vector<SnapshotKey> liveSnapshotKeys(KeyGroupRange range, int maxParallelism);
  /// Checkpoints: stages the rows of one block body (all of it or, when it does not decode,
  /// nothing: InternalError naming the state), and stores them unless open() is restoring.
  void restoreRows(int keyGroup, std::string_view body);
  /// Checkpoints: moves the staged rows into their partitions, in staging order.
  void storeRestoredRows();
  /// Checkpoints with a state TTL: the last writes of the partitions of one block body.
  void restoreLastWrites(int keyGroup, std::string_view body);

  std::shared_ptr<const RankSpec> spec_;
  bool batchMode_ = false;
  HeapKeyedStateBackend* stateBackend_ = nullptr;  // the task's, from the context
  ValueState<Rows>* rowsState_ = nullptr;
  std::unique_ptr<vector::Chunk> output_;
  std::string keyBytes_;
  // Window Top-N: the rows of each partition in arrival order.
  absl::flat_hash_map<std::string, Rows> partitions_;
  // Window Top-N: the partitions of each window, by the window's time.
  std::map<int64_t, std::vector<std::string>> windowPartitions_;
  int64_t currentWatermark_ = Watermark::kMin;
  // STREAMING Top-N: the rows, the partitions, the queued output and scratch lists (BATCH:
  // the rows and the queued output).
  RowStore store_;
  KeyTable<Partition> topN_;
  RowRefOutputQueue pending_;
  std::vector<int64_t> pendingRanks_;  // the rank number of each row of pending_
  std::vector<std::pair<RowRef, int64_t>> before_, after_;
  // The input chunks of the current batch (BATCH: of the whole input), and the partitions a
  // row was added to.
  std::vector<int32_t> batchSegments_;
  std::vector<int32_t> touched_;
  // Checkpoints (STREAMING, not the first-row deduplication): the raw keyed state, the rows
  // restored in open() (with each row's partition key) before they are stored, and the window
  // Top-N's watermark state.
  RowsState rowsRawState_{this};
  RestoredRowChunk restoredRows_;
  std::vector<std::string> restoredKeys_;
  bool restoringInOpen_ = false;
  // State TTL: the clock at the current batch, the cleanup cursor (a slot of topN_), and the
  // restored last writes of partitions whose rows are not stored yet.
  int64_t now_ = 0;
  int32_t ttlCleanupCursor_ = 0;
  LastWritesState lastWritesRawState_{this};
  absl::flat_hash_map<std::string, int64_t> restoredLastWrites_;
  ListState<int64_t>* watermarkState_ = nullptr;
};

}  // namespace eddy::runtime::operators
