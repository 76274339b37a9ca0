// TemporalJoinOperator: the event-time temporal join (Flink's TemporalRowTimeJoinOperator),
// `probe JOIN versioned FOR SYSTEM_TIME AS OF probe.rowtime ON probe.k = versioned.k`.
//
// Input 0 is the LEFT (probe) side: an insert-only stream with a time attribute. Input 1 is the
// RIGHT (versioned) side: a changelog keyed by its primary key (which the equi keys contain),
// each row carrying the event time from which it is the key's version. A left row at time t
// joins, under its equi key, the right version valid at t: the right row with the largest time
// <= t, unless that is a deletion. The residual condition is then checked on the pair; a left
// row whose version is missing, deleted or fails the condition is dropped (INNER) or padded with
// NULLs (LEFT). Each left row is emitted exactly once, as +I.
//
// Right rows: +I and +U are versions, -D ends the key's version at its time; -U is ignored (the
// +U that follows it is the new version: Flink asks the versioned side for ONLY_UPDATE_AFTER).
// Two versions of a key at the same time: the later arrival wins. A right row with a NULL key
// or time is no version of anything (it matches nothing); a left row with a NULL key or time
// matches nothing.
//
// When rows are emitted (STREAMING): a left row waits in state until the input watermark W
// reaches its time (its version cannot change any more then), and is emitted at that watermark,
// the key's waiting rows in time order (arrival order among equal times), keys in order of their
// earliest waiting time. A left row arriving behind W is joined at the next watermark against
// the versions still kept (as Flink's timers do); it is not dropped. After a key's rows up to W
// are emitted, its versions older than the last one at or before W are released (no row that is
// still to come can need them), and that one too when it is a deletion. The output watermark is
// W, forwarded after the rows it released. Watermark::kMax (end of input) and finish() emit
// everything still waiting.
//
// BATCH: watermarks are not forwarded; finish() joins everything as at the end of event time,
// so the output equals the STREAMING output (as a multiset). Flink has no batch temporal join.
//
// State: a RowStore per side and a KeyTable (row_store.h). Stored rows stay in the columnar
// chunks they arrived in until most rows of the stored chunks are released, then the live rows
// are compacted. Output rows are assembled a column at a time with KernelVector::interleave; no
// row becomes a Value.
//
// Checkpoints (STREAMING): the waiting left rows and the kept versions are raw keyed state of
// the task's keyed state backend (OperatorContext::keyedStateBackend, registered in open()),
// "_temporal_join/left-rows" (per key, its waiting rows in arrival order, each with its time)
// and "_temporal_join/versions" (per key, its versions by time, each with its time and the row
// or a deletion mark; docs/state_format.md, "Temporal join"), so every snapshot of the backend
// holds them by key group (the key group of the equi key bytes, as the exchange routes them)
// and a restore at another parallelism reads exactly the keys of its key groups. A restore (in
// open(), before any record) appends the rows of its key groups to the stores as fresh chunks
// and schedules each key again: the emission queue (the engine's timers) is not written, it
// follows from the rows' and versions' times. Bytes that do not decode throw InternalError
// naming the state, the operator and the key group. The watermark is written too, unlike
// Flink's (whose operators start from Long.MIN_VALUE after a restore), as union operator list
// state "_temporal_join/watermark", restored as the lowest of the old subtasks' values: a left
// row that arrived behind it still waits for a later watermark, and a repeated watermark emits
// nothing, as without a restore. So a restored subtask emits what the uninterrupted one would,
// in the same order, except among keys due at the same time at one watermark, which come in
// the order of their key slots (assigned anew by the restore). BATCH keeps nothing across a
// checkpoint and registers no state.
//
// Threading and ownership: one operator per subtask, called only by its task thread. The spec is
// the shared immutable definition; the operator owns its state.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"
#include "expression/bound_expression.h"
#include "expression/expression_evaluator.h"
#include "runtime/operators/join/join_operator.h"
#include "runtime/operators/stored_rows/key_table.h"
#include "runtime/operators/stored_rows/row_store.h"
#include "runtime/operators/stored_rows/stored_row_codec.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// The definition of one temporal join (built by the planner, shared by all subtasks).
struct TemporalJoinSpec {
  relational::JoinType joinType = relational::JoinType::INNER;  // INNER or LEFT
  LogicalTypePtr leftRowType;           // ROW<...> of input 0
  LogicalTypePtr rightRowType;          // ROW<...> of input 1
  /// Equi-join key columns of each input, pairwise of identical types (non-empty).
  std::vector<int> leftKeys;
  std::vector<int> rightKeys;
  /// The time attribute columns (TIMESTAMP(3) / TIMESTAMP_LTZ(3), read as epoch milliseconds):
  /// the left's `FOR SYSTEM_TIME AS OF` column and the versioned side's rowtime.
  int leftTimeColumn = -1;
  int rightTimeColumn = -1;
  /// Residual condition over the joined row (left columns, then right columns); null = none.
  expression::ExpressionPtr condition;
  LogicalTypePtr outputRowType;  // left fields then right fields (nullable for LEFT)
};

/// The temporal join of input 0 (probe) and input 1 (versioned); see the file comment.
class TemporalJoinOperator final : public StreamOperator {
 public:
  explicit TemporalJoinOperator(std::shared_ptr<const TemporalJoinSpec> spec);
  ~TemporalJoinOperator() override;

  void open(OperatorContext& context) override;
  /// `inputIndex` 0 is the left input (insert-only), 1 the versioned right input.
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void finish() override;
  void close() override;
  /// Writes the watermark into its operator list state (the rows and versions are written by
  /// the keyed state backend, see the file comment).
  void snapshotState(StateSnapshotContext& context) override;

  /// Left rows waiting and right versions kept. For tests.
  size_t storedRows() const { return storedRows_; }

  /// The names of the raw keyed states (see the file comment).
  static constexpr const char* kLeftRowsStateName = "_temporal_join/left-rows";
  static constexpr const char* kVersionsStateName = "_temporal_join/versions";
  /// The union operator list state holding each subtask's watermark.
  static constexpr const char* kWatermarkStateName = "_temporal_join/watermark";

 private:
  static constexpr int64_t kNever = Watermark::kMax;

  struct WaitingRow {
    int64_t time;
    uint64_t arrival;
    RowRef row;
  };
  struct Version {
    int64_t time;
    RowRef row;  // segment -1 for a deletion
  };
  struct KeyState {
    std::string bytes;
    std::vector<WaitingRow> waiting;  // left rows, in arrival order
    std::vector<Version> versions;    // ordered by time, one per time
    int64_t scheduled = kNever;       // time of the key's valid entry in queue_
  };
  struct QueueEntry {
    int64_t time;
    int32_t key;
    auto operator<=>(const QueueEntry&) const = default;
  };
  /// Output rows by where their halves come from (right segment -1: padded).
  struct Pairs {
    std::vector<int32_t> leftSegment, leftPosition, rightSegment, rightPosition;
    size_t size() const { return leftSegment.size(); }
    void add(RowRef left, RowRef right);
    void clear();
  };

  /// Side 0's waiting left rows or side 1's versions as raw keyed state (see the file
  /// comment): written from and restored into the operator's keys_ and stores_.
  class StoredRowsState final : public state::RawKeyedState {
   public:
    StoredRowsState(TemporalJoinOperator* join, int side) : join_(join), side_(side) {}
    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override;
    void restoreKeyGroup(int keyGroup, std::string_view body) override;

   private:
    TemporalJoinOperator* join_;
    int side_;
  };

  /// Waiting rows (side 0) or versions (side 1) decoded from a snapshot and not yet stored:
  /// the rows' values, and per entry its key, time and row in the chunk (-1: a deletion).
  struct RestoredRows {
    std::optional<RestoredRowChunk> chunk;
    std::vector<std::string> keys;
    std::vector<int64_t> times;
    std::vector<int64_t> rows;
    size_t size() const { return times.size(); }
    void truncate(size_t size);
  };

  /// Checkpoints: the name of `side`'s raw keyed state.
  static const char* stateNameOf(int side);
  /// Checkpoints: appends `side`'s entries of the keys of `range`'s key groups to their block
  /// bodies (docs/state_format.md).
  void snapshotSide(int side, KeyGroupRange range, int maxParallelism,
                    std::vector<std::string>& bodies);
  /// Checkpoints: decodes the block body of `side`'s entries of `keyGroup` into
  /// restored_[side] (all of it or, when it does not decode, nothing: InternalError naming the
  /// state), and stores them unless open() is still restoring.
  void restoreSide(int side, int keyGroup, std::string_view body);
  /// Checkpoints: decodes one block body into `rows` (throws on bytes that do not decode).
  void decodeSide(int side, int keyGroup, std::string_view body, RestoredRows& rows) const;
  /// Checkpoints: adds restored_[side]'s entries to the store and their keys (left rows after
  /// the key's waiting rows, versions by time) and schedules the keys.
  void storeRestored(int side);

  void processLeft(const vector::Chunk& chunk, int32_t slot);
  void processRight(const vector::Chunk& chunk, int32_t slot);
  /// Emits every waiting row with a time <= `watermark` and releases what it no longer needs.
  void advanceTo(int64_t watermark);
  void emitKey(int32_t keyIndex, int64_t watermark);
  /// Queues the key at the earliest time it has something to do (emit a waiting row, release
  /// a version), unless it is queued at that time or earlier already.
  void schedule(int32_t keyIndex);

  /// Checks the residual condition of `produced_`, emits the result and frees emptied segments.
  void flushOutput();
  /// Copies the live rows of a side into fresh chunks when most stored rows are released.
  void compactIfSparse(int side);
  vector::Chunk assemble(const Pairs& pairs) const;

  std::shared_ptr<const TemporalJoinSpec> spec_;
  expression::ExpressionEvaluator evaluator_;
  /// What this instance's evaluations read besides their chunk (see EvaluationContext).
  function::EvaluationContext evaluationContext_;
  bool batchMode_ = false;
  bool finished_ = false;

  RowStore stores_[2];  // left rows waiting, right versions kept
  KeyTable<KeyState> keys_;
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, std::greater<>> queue_;
  uint64_t arrivals_ = 0;
  size_t storedRows_ = 0;
  int64_t currentWatermark_ = Watermark::kMin;

  Pairs produced_;  // joined (right present, condition unchecked) and padded rows, in order
  std::string keyBytes_;

  // Checkpoints (STREAMING): the raw keyed states (0: waiting left rows, 1: versions), the
  // entries restored in open() before they are stored (gathered over all key groups into
  // chunks of up to kDefaultBatchSize rows), and the watermark's operator list state.
  StoredRowsState states_[2] = {StoredRowsState(this, 0), StoredRowsState(this, 1)};
  RestoredRows restored_[2];
  bool restoringInOpen_ = false;
  ListState<int64_t>* watermarkState_ = nullptr;
};

}  // namespace eddy::runtime::operators
