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
// One operator per subtask, called from its task thread; input partitioned by the partition
// keys (none: parallelism 1).
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/session_time_zone.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/state/state.h"
#include "relational/ordering.h"
#include "runtime/operators/sort/sort_operator.h"
#include "runtime/operators/stored_rows/key_table.h"
#include "runtime/operators/stored_rows/row_ref_output_queue.h"
#include "runtime/operators/stored_rows/row_store.h"
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
};

class RankOperator final : public StreamOperator {
 public:
  explicit RankOperator(std::shared_ptr<const RankSpec> spec);
  ~RankOperator() override;

  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void finish() override;

  using Rows = std::vector<std::vector<Value>>;

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
  };
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
};

}  // namespace eddy::runtime::operators
