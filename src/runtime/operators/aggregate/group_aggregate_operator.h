// GroupAggregateOperator: GROUP BY over chunks, in both runtime modes, as Flink's
// StreamExecGroupAggregate (STREAMING) and BatchExecHashAggregate (BATCH).
//
// STREAMING: the input is partitioned by the grouping columns (a HASH edge); each group's
// accumulators live in keyed state under the group's key bytes, together with a count of the
// group's live input rows. +I/+U input accumulates, -U/-D retracts, and every change of a
// group's result is emitted as Flink emits it: +I for a new group, -U old / +U new when the
// result changed (-U only when generateUpdateBefore), -D when the group's last row was
// retracted; an unchanged result emits nothing.
//
// Mini-batch (STREAMING, Flink's MiniBatchGroupAggFunction, `table.exec.mini-batch.*`): input
// chunks are buffered until `miniBatchSize` rows are held, `miniBatchLatencyMillis` of
// processing time passed since the first, a watermark comes, or the input ends; then each key
// of the bundle (in order of its first row) reads its accumulators once, folds all its rows
// and emits one change: +I, -U/+U, -D or nothing (a group created and retracted inside one
// bundle emits nothing). Fewer state accesses and far fewer -U/+U rows, at the price of latency.
//
// Two-phase aggregation (Flink's local/global aggregation, `table.optimizer.agg-phase-strategy`
// with mini-batch): a LOCAL phase runs chained to the input, before the exchange; it folds each
// mini-batch bundle into one accumulator per key (no state) and emits a partial row per key:
// the grouping columns, each call's accumulator values (accumulatorTypes), and the key's net
// row count. The GLOBAL phase, after the HASH exchange, merges those partials into the keyed
// accumulators instead of accumulating input rows, and emits changes as the one-phase operator
// does. Far fewer rows cross the exchange, and a hot key's work spreads over the local subtasks.
//
// Checkpoints (STREAMING): a group's accumulators are the ValueState "accumulators" of the
// task's keyed backend (docs/state_format.md, "Table operators' state"), so they are in every
// snapshot by key group. What a mini-batch has buffered, and a LOCAL phase's folded bundle, is
// not state: prepareSnapshotPreBarrier flushes it (as Flink's bundle operators finish their
// bundle before the barrier), so the changes it makes travel before the barrier and the
// snapshot holds every row that came before it. A LOCAL phase then keeps nothing.
//
// BATCH: groups accumulate in a hash table and each group's final row is emitted once, as
// +I, when the input ends (groups in key-byte order, so output is deterministic).
//
// Input and output records are vector::Chunks; the output row type is the grouping columns
// followed by one column per aggregate call.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <memory>
#include <string>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "eddy/state/state.h"
#include "function/aggregate/aggregate_call.h"
#include "state/heap_keyed_state_backend.h"
#include "state/state_backend_loader.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// Which part of an aggregation an operator computes (see the file comment).
enum class AggregatePhase { kComplete, kLocal, kGlobal };

struct GroupAggregateSpec {
  LogicalTypePtr inputRowType;
  std::vector<int> groupingColumns;
  std::vector<function::AggregateCall> calls;
  LogicalTypePtr outputRowType;
  bool generateUpdateBefore = true;
  /// table.exec.state.ttl (ms; 0: never): a group's accumulators expire when the group was not
  /// updated for this long (processing time); its next row starts the group afresh (+I), as
  /// Flink's state TTL does. Expired groups are also removed in the background by the state
  /// backend's incremental cleanup (StateTtlConfig's default), so state stays bounded by the
  /// groups updated within the TTL.
  int64_t stateTtlMillis = 0;
  /// table.exec.mini-batch.allow-latency / .size when mini-batch is enabled (both > 0), else
  /// 0: every row updates its group at once.
  int64_t miniBatchLatencyMillis = 0;
  int64_t miniBatchSize = 0;
  AggregatePhase phase = AggregatePhase::kComplete;
};

/// The partial rows a LOCAL phase of `spec` (a kComplete spec over the original input) emits:
/// the grouping columns, each call's accumulator columns, and BIGINT NOT NULL `row_count$`.
LogicalTypePtr partialAggregateRowType(const GroupAggregateSpec& spec);

class GroupAggregateOperator final : public StreamOperator {
 public:
  explicit GroupAggregateOperator(std::shared_ptr<const GroupAggregateSpec> spec);
  ~GroupAggregateOperator() override;

  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void finish() override;
  void close() override;
  /// Mini-batch and LOCAL phase (STREAMING): flushes the buffered bundle (see the file comment).
  void prepareSnapshotPreBarrier(int64_t checkpointId) override;

  /// STREAMING: the groups with accumulators in state, expired ones the state TTL's cleanup
  /// has not removed yet included; for tests.
  size_t groupsInState() const {
    return stateBackend_ == nullptr ? 0 : stateBackend_->numKeyValueStateEntries("accumulators");
  }

 private:
  /// One input row: a chunk and a row of it.
  struct RowRef {
    const vector::Chunk* chunk;
    int64_t row;
  };
  bool miniBatch() const { return spec_->miniBatchSize > 0 && !batchMode_; }
  void processChunk(const vector::Chunk& chunk);
  /// Folds `rows` (all of group `key`, in arrival order) into the group's accumulators, read
  /// from and written to state once, and emits the group's one change: +I, -U/+U, -D or
  /// nothing. The per-row path calls it with one row, a mini-batch with a key's whole bundle.
  void updateGroup(const std::string& key, const RowRef* rows, size_t count);
  /// Mini-batch: folds the buffered chunks key by key and emits one change per key.
  void flushBundle();
  void processChunkInBatchMode(const vector::Chunk& chunk);
  /// A group's accumulators in one flat list (one allocation, read in one pass): each call's
  /// values from offsets_[call], then each shared DISTINCT table's, then the live row count.
  using GroupAccumulators = std::vector<Value>;
  /// The result of every call for the given accumulators.
  std::vector<Value> resultsOf(const GroupAccumulators& accumulators) const;
  /// The same into `results`, reusing its values' storage.
  void resultsOf(const GroupAccumulators& accumulators, std::vector<Value>& results) const;
  /// Appends the group's key columns (from `chunk` row `row`) and results to the output.
  void appendResult(const vector::Chunk& chunk, int64_t row, const std::vector<Value>& results,
                    RowKind kind);
  void appendResultValues(const std::vector<Value>& keyValues, const std::vector<Value>& results,
                          RowKind kind);
  GroupAccumulators newAccumulators() const;
  /// Folds one input row into `accumulators`; marks in touched_ the calls whose accumulator
  /// took it.
  void accumulateRow(const vector::Chunk& chunk, int64_t row, GroupAccumulators& accumulators,
                     bool retract);
  /// Whether call `i` counts row `row` (its FILTER column, if any, is TRUE).
  bool passesFilter(const vector::Chunk& chunk, int64_t row, size_t i) const;
  void emitOutput();
  /// LOCAL phase: emits one partial row per key of the bundle, then forgets the bundle.
  void flushPartials();
  /// Buffers `chunk`'s rows in the mini-batch; flushes a full bundle, else arms the latency
  /// timer.
  void bufferForMiniBatch(vector::Chunk chunk);
  void flush();

  std::shared_ptr<const GroupAggregateSpec> spec_;
  bool batchMode_ = false;
  HeapKeyedStateBackend* stateBackend_ = nullptr;  // the task's, from the context
  // Each group's GroupAccumulators.
  ValueState<std::vector<Value>>* accumulatorState_ = nullptr;
  std::unique_ptr<vector::Chunk> output_;
  std::string keyBytes_;
  struct BatchGroup {
    std::vector<Value> keyValues;
    GroupAccumulators accumulators;
  };
  std::vector<std::pair<std::string, BatchGroup>> batchGroups_;  // in first-seen order
  absl::flat_hash_map<std::string, size_t> batchGroupIndex_;
  // Grouped by one integer-layout column (TINYINT..BIGINT, DATE, TIME, small DECIMAL): the
  // groups by value (no key bytes per row), the NULL key's group apart (-1: none yet).
  int integerKeyColumn_ = -1;
  absl::flat_hash_map<int64_t, int32_t> integerGroupIndex_;
  int32_t nullKeyGroup_ = -1;
  /// Appends a new batch group for row `row` (its key bytes in keyBytes_); returns its index.
  int32_t addBatchGroup(const vector::Chunk& chunk, int64_t row);
  void clearBatchGroups();
  // Mini-batch: the buffered chunks, their row count, and whether a flush timer is pending.
  std::vector<vector::Chunk> bundle_;
  int64_t bundleRows_ = 0;
  bool bundleTimerPending_ = false;
  bool closed_ = false;
  // GLOBAL phase: each call's first column in the partial input rows; then the row count's.
  std::vector<int> partialColumns_;
  mutable std::vector<Value> partialScratch_;
  // A group's results before and after an update (reused from row to row).
  std::vector<Value> previousResults_;
  std::vector<Value> results_;
  // f(DISTINCT x) calls sharing one table per integer argument x (two or more calls over it):
  // each group's table is an extra accumulator after the calls' (before the row count); a
  // shared call's own accumulator is its non-distinct inner one.
  struct SharedDistinct {
    int argumentColumn;
    std::vector<int> calls;  // indices into spec_->calls
  };
  std::vector<SharedDistinct> sharedDistinct_;
  std::vector<function::AggregateCall> effectiveCalls_;  // spec_->calls, shared ones without `distinct`
  std::vector<bool> shared_;                   // per call: counted through a shared table
  /// Per call: how accumulateRow folds a row without making a Value of it (COUNT(*), COUNT and
  /// SUM/AVG of an integer column, none of them DISTINCT), or kGeneric.
  enum class FastPath : uint8_t { kGeneric, kCountStar, kCount, kIntegerSum };
  std::vector<FastPath> fastPaths_;
  std::vector<size_t> offsets_;  // see GroupAccumulators; the row count's last
  std::vector<uint8_t> touched_;  // per call: its accumulator took a row of this update
};

}  // namespace eddy::runtime::operators
