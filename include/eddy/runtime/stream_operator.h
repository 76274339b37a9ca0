// StreamOperator: the one interface every runtime operator implements (DataStream operators,
// sources, sinks, and the Table runtime's chunk operators).
//
// An OperatorFactory is the operator's definition: immutable, shared by all subtasks, and
// asked once per subtask for a fresh StreamOperator, which holds that subtask's mutable
// state. All calls on a StreamOperator come from the single thread of the task that runs
// its subtask, in this order: initializeState, open, then any interleaving of processBatch /
// processWatermark / processWatermarkStatus / timer callbacks / endInput of each input as it
// ends / the checkpoint hooks, then finish (only when all input ended normally), then close
// (always, also after a failure). notifyCheckpointComplete and notifyCheckpointAborted may
// also come after finish (a checkpoint the operator took part in completing later), never
// after close. Exceptions thrown by an operator fail the job with their message and the
// operator's name.
//
// A checkpoint reaches an operator as: prepareSnapshotPreBarrier(id), where it may still emit
// (flush a mini-batch), then snapshotState, where it must not emit; the task then forwards the
// barrier and acknowledges the snapshot to the job; once every task of the job acknowledged,
// notifyCheckpointComplete(id) (commit side effects here), or notifyCheckpointAborted(id) when
// the checkpoint failed. Every hook has a default that keeps no state.
//
// State: an operator keeps what must survive a failure in the stores its OperatorContext
// creates on first use: keyedStateBackend() (the backend of `state.backend.type` for the
// subtask's key groups) and operatorStateStore() (operator list state). The task restores
// them from the operator's snapshot when they are created and writes them into every snapshot
// after the operator's snapshotState, so an operator that keeps its state there needs no
// checkpoint code of its own.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "eddy/clock.h"
#include "eddy/datastream/runtime_execution_mode.h"
#include "eddy/runtime/operator_snapshot.h"
#include "eddy/runtime/stream_element.h"
#include "eddy/state/key_group_range.h"

namespace eddy {
class KeyedStateBackend;
class OperatorStateStore;
namespace state {
class FrozenKeyedState;
}
}  // namespace eddy

namespace eddy::runtime {

/// Where an operator emits. Implemented by the runtime: the next chained operator, a
/// network writer that partitions batches to downstream subtasks, or several of these.
class Output {
 public:
  virtual ~Output() = default;
  /// Emits a batch of the operator's output type; empty batches are allowed and ignored.
  virtual void emitBatch(BatchPtr batch) = 0;
  virtual void emitWatermark(Watermark watermark) = 0;
  virtual void emitWatermarkStatus(WatermarkStatus status) = 0;
};

/// Schedules callbacks on the task thread at a processing time (milliseconds since epoch).
class ProcessingTimeService {
 public:
  virtual ~ProcessingTimeService() = default;
  virtual int64_t currentProcessingTime() const = 0;
  /// `callback(time)` runs on the task thread once the clock reaches `time`.
  virtual void registerTimer(int64_t time, std::function<void(int64_t)> callback) = 0;
};

/// Counters the operators of a job add to, read by the job's clients (JobExecutionResult, the
/// SQL client's status line) so that what an operator discards is never silent. Thread-safe.
struct JobMetrics {
  /// Records a time-based operator (window, interval join, ...) dropped because they arrived
  /// behind its watermark (Flink's numLateRecordsDropped, summed over the job).
  std::atomic<int64_t> numLateRecordsDropped{0};
  /// Rows the job's sources emitted (RecordBatch::rowCount), summed over their subtasks.
  std::atomic<int64_t> numRowsRead{0};
  /// Rows that reached the job's table sinks (counted by the Table layer before each sink).
  std::atomic<int64_t> numRowsWritten{0};
  /// Rows a table sink's NOT NULL enforcer dropped (`table.exec.sink.not-null-enforcer` =
  /// DROP) because a NOT NULL column held NULL.
  std::atomic<int64_t> numNotNullRowsDropped{0};

  /// The sinks' event time: each sink input subtask registers once and reports every
  /// watermark it passes on; sinkWatermark() is the lowest of the reported ones
  /// (Watermark::kMin while a registered reporter has none yet, or without reporters).
  int registerWatermarkReporter() {
    std::lock_guard lock(watermarkMutex_);
    watermarks_.push_back(Watermark::kMin);
    return static_cast<int>(watermarks_.size()) - 1;
  }
  void reportWatermark(int reporter, int64_t watermark) {
    std::lock_guard lock(watermarkMutex_);
    watermarks_[static_cast<size_t>(reporter)] = watermark;
  }
  int64_t sinkWatermark() const {
    std::lock_guard lock(watermarkMutex_);
    int64_t lowest = Watermark::kMax;
    for (int64_t watermark : watermarks_) lowest = std::min(lowest, watermark);
    return watermarks_.empty() ? Watermark::kMin : lowest;
  }

 private:
  mutable std::mutex watermarkMutex_;
  std::vector<int64_t> watermarks_;
};

/// What a subtask's operator knows about where it runs, and its state stores. Owned by the
/// task; valid from initializeState() until close() returns. Neither copied nor moved once
/// the operator has it.
struct OperatorContext {
  OperatorContext();
  ~OperatorContext();
  OperatorContext(OperatorContext&&) noexcept;
  OperatorContext& operator=(OperatorContext&&) noexcept;

  std::string operatorName;
  int subtaskIndex = 0;
  int parallelism = 1;
  int maxParallelism = 128;
  /// STREAMING or BATCH (AUTOMATIC is resolved before the job starts).
  RuntimeExecutionMode executionMode = RuntimeExecutionMode::STREAMING;
  KeyGroupRange keyGroupRange;
  Output* output = nullptr;
  ProcessingTimeService* processingTimeService = nullptr;
  const Clock* clock = nullptr;
  /// The job's counters; null where an operator runs outside a job (unit-test harnesses).
  JobMetrics* metrics = nullptr;
  /// `state.backend.type`: the kind of backend keyedStateBackend() creates ("hashmap").
  std::string stateBackendType = "hashmap";
  /// The job takes checkpoints (STREAMING with `execution.checkpointing.interval` set).
  bool checkpointingEnabled = false;
  /// The operator subtask's snapshot (already redistributed to its key groups and operator
  /// state) that the stores are restored from when created; null for a fresh start. Set by the
  /// task before initializeState; outlives the operator.
  const OperatorSnapshot* restoredSnapshot = nullptr;

  /// The operator subtask's keyed state backend, created on the first call (in initializeState
  /// or open) from stateBackendType for keyGroupRange and maxParallelism, TTL reading `clock`,
  /// and restored from restoredSnapshot's keyed state (the key groups of keyGroupRange only).
  /// Owned by the context. Throws ValidationException naming `state.backend.type` for a type
  /// that does not exist or is not supported yet.
  KeyedStateBackend& keyedStateBackend();
  /// The backend when keyedStateBackend() created one, else null.
  KeyedStateBackend* createdKeyedStateBackend() const { return keyedStateBackend_.get(); }
  /// The operator subtask's operator state, created on the first call and restored from
  /// restoredSnapshot's list state blobs. Owned by the context.
  OperatorStateStore& operatorStateStore();
  /// Writes the stores created so far into `snapshot`: every key group of the keyed backend
  /// into keyedState, the operator state store's lists into operatorState. The task calls it
  /// after the operator's snapshotState.
  void snapshotStateStores(OperatorSnapshot& snapshot) const;
  /// As snapshotStateStores, in two steps: the operator state is written into `snapshot` now,
  /// the keyed state is frozen and returned (null without a keyed backend) to be written into
  /// snapshot.keyedState later, on any thread (an asynchronous snapshot).
  std::unique_ptr<state::FrozenKeyedState> freezeStateStores(OperatorSnapshot& snapshot) const;

 private:
  std::unique_ptr<KeyedStateBackend> keyedStateBackend_;
  std::unique_ptr<OperatorStateStore> operatorStateStore_;
};

class StreamOperator {
 public:
  virtual ~StreamOperator() = default;

  /// Before open(): restore what snapshotState wrote in the checkpoint the job starts from
  /// (Flink's initializeState). The default ignores it: an operator without state.
  virtual void initializeState(StateInitializationContext& /*context*/) {}
  virtual void open(OperatorContext& context) { context_ = &context; }
  /// Records arrived on input `inputIndex` (0 for one-input operators). The operator owns the
  /// batch and may move records out of it.
  virtual void processBatch(int inputIndex, BatchPtr batch) = 0;
  /// The combined watermark of all inputs advanced. The default forwards it.
  virtual void processWatermark(Watermark watermark) { output().emitWatermark(watermark); }
  virtual void processWatermarkStatus(WatermarkStatus status) {
    output().emitWatermarkStatus(status);
  }
  /// Input `inputIndex` has ended: every upstream subtask of it sent its end (Flink's
  /// BoundedMultiInput#endInput), so a two-input operator knows which side is complete while
  /// the other still runs. Called once per input, before finish(); an operator chained behind
  /// another gets endInput(0) after that one's finish(). The default does nothing.
  virtual void endInput(int /*inputIndex*/) {}
  /// All input has ended; emit whatever is still pending.
  virtual void finish() {}
  virtual void close() {}

  /// Checkpoint `checkpointId` is about to be taken: emit what must travel before its barrier
  /// (buffered mini-batch results, the local phase of a two-phase aggregation). Called on every
  /// operator of the chain, head first, before any of them snapshots. Default: nothing.
  virtual void prepareSnapshotPreBarrier(int64_t /*checkpointId*/) {}
  /// Writes the operator's state as of now into `context.snapshot`; must not emit. Called on
  /// every operator of the chain, head first, after prepareSnapshotPreBarrier. Default: no state.
  virtual void snapshotState(StateSnapshotContext& /*context*/) {}
  /// Every task of the job acknowledged checkpoint `checkpointId`: its snapshot is complete,
  /// so side effects up to it may be committed (Flink's CheckpointListener). Not called for
  /// every checkpoint: a later one completing covers the earlier ones. Default: nothing.
  virtual void notifyCheckpointComplete(int64_t /*checkpointId*/) {}
  /// Checkpoint `checkpointId` will not complete: discard what was prepared for it.
  virtual void notifyCheckpointAborted(int64_t /*checkpointId*/) {}
  /// Whether the operator commits what it wrote after its last checkpoint only at a checkpoint
  /// taken after finish() (Flink's final checkpoint, FLIP-147): an exactly-once sink with
  /// checkpointing enabled. Its task then stays, after finish(), until a checkpoint it took
  /// part in after finishing has completed (or the job is cancelled). Asked after finish().
  /// Default: false (the task ends once finished).
  virtual bool needsFinalCheckpoint() const { return false; }

 protected:
  OperatorContext& context() const { return *context_; }
  Output& output() const { return *context_->output; }

 private:
  OperatorContext* context_ = nullptr;
};

/// The result of one poll of a source.
enum class SourceStatus { MORE_AVAILABLE, NOTHING_AVAILABLE, END_OF_INPUT };

/// A source operator heads its chain: the task calls emitNext() in a loop instead of feeding
/// it input.
class SourceOperator : public StreamOperator {
 public:
  void processBatch(int, BatchPtr) final;
  /// Reads what is available now and emits it (records, watermarks, status).
  virtual SourceStatus emitNext() = 0;
};

class OperatorFactory {
 public:
  virtual ~OperatorFactory() = default;
  virtual std::unique_ptr<StreamOperator> createOperator() const = 0;
};

/// An OperatorFactory from a lambda.
class LambdaOperatorFactory final : public OperatorFactory {
 public:
  explicit LambdaOperatorFactory(std::function<std::unique_ptr<StreamOperator>()> create)
      : create_(std::move(create)) {}
  std::unique_ptr<StreamOperator> createOperator() const override { return create_(); }

 private:
  std::function<std::unique_ptr<StreamOperator>()> create_;
};

}  // namespace eddy::runtime
