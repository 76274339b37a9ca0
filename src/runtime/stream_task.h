// StreamTask: runs one subtask of a JobGraph vertex — its chain of operators — on the
// calling thread, from initializeState and open to close. A source chain is driven by polling
// its head; any other chain by popping its input gate. Between inputs the task drains its
// mailbox (checkpoint triggers and notifications from the job), fires due processing-time
// timers and, when its gate is empty, flushes partially filled output batches so that
// records never wait for a batch to fill while the task idles. A source with nothing
// available waits on the mailbox (bounded by its next timer and a short back-off), a task
// with an empty gate waits on the gate, which the mailbox wakes.
//
// A source whose operator reads splits (a connector::Source) registers its reader with the
// source's coordinator in the job (RunningJob::registerSourceReader) when it opens, and gets the
// enumerator's assignments as mail (AddSplitsMail, NoMoreSplitsMail), which the task hands to
// the operator in order with the checkpoint triggers. Such a reader that signals availability
// sleeps until it is woken (mail) or the time it asked for, instead of the polling back-off.
//
// Checkpoints: a source task takes one when its trigger mail runs; a task with inputs when
// its CheckpointBarrierHandler has the barrier from every channel. Taking it is, on the task
// thread: prepareSnapshotPreBarrier on every chained operator (head first, they may still
// emit), snapshotState on every one, the barrier out of every network output (after the
// pending batches), and the snapshots to the job (RunningJob::acknowledgeCheckpoint). The keyed
// state is only frozen on the task thread; its bytes are written, and the checkpoint
// acknowledged, on the task's AsyncSnapshotWriter while the task goes on (Flink's asynchronous
// snapshot phase); a task without keyed state acknowledges at once. Once
// finished, the task tells the job (later checkpoints count it as finished) and waits until
// the checkpoints it acknowledged have completed or aborted, so its operators are notified,
// before it closes them.
//
// Stop-with-savepoint (runtime/savepoint.h, RunningJob::stopModeOf): with DRAIN, a source task
// ends its input when the savepoint's trigger runs (the end-of-time watermark, then finish() and
// the end of its outputs, as at the end of a bounded input) and takes the savepoint's snapshot
// after that, as its final checkpoint. With SUSPEND, a task that took the savepoint's snapshot
// emits nothing, fires no timer and reads no input until the savepoint completed — then it ends
// without finish() — or was aborted — then it goes on.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "graph/job_graph.h"
#include "runtime/async_snapshot_writer.h"
#include "runtime/completed_checkpoint.h"
#include "runtime/checkpoint_barrier_handler.h"
#include "runtime/input_gate.h"
#include "runtime/mailbox.h"
#include "runtime/task_settings.h"
#include "runtime/watermark_valve.h"

namespace eddy::connector::detail {
class SourceReaderGateway;
class SplitReadingOperator;
}  // namespace eddy::connector::detail

namespace eddy::runtime {

class RunningJob;
class NetworkOutput;

class StreamTask final : public ProcessingTimeService, private CheckpointBarrierHandler::Actions {
 public:
  /// `gateOf(vertex, subtask)` returns the input gate of any subtask of the job. The job, its
  /// graph and `settings` outlive the task.
  StreamTask(RunningJob& job, const graph::JobGraph& graph, int vertexIndex, int subtaskIndex,
             InputGate* inputGate, const std::function<InputGate*(int, int)>& gateOf,
             const Clock& clock, const TaskSettings& settings);
  ~StreamTask() override;

  /// Runs the subtask to its end. Throws on failure; `failedOperatorName()` then names the
  /// operator that was running.
  void run();
  std::string failedOperatorName() const;

  // ProcessingTimeService
  int64_t currentProcessingTime() const override { return clock_.currentTimeMillis(); }
  void registerTimer(int64_t time, std::function<void(int64_t)> callback) override;

  /// The chain index of the operator being called (kept current by chained outputs).
  int currentOperator = 0;

 private:
  void openOperators();
  /// The operator's snapshot in the restored checkpoint, redistributed to this subtask when the
  /// checkpoint was taken at another parallelism; empty for a fresh start or a new operator.
  const OperatorSnapshot& restoredSnapshotOf(size_t chainIndex);
  void runSourceLoop();
  void runInputLoop();
  void processMessage(InputMessage& message, bool& endOfInput);
  void finishAndEndOutputs();
  /// With checkpointing, when an operator needs it: stays until a final checkpoint completed.
  void awaitFinalCheckpointIfNeeded();
  void awaitAcknowledgedCheckpoints();
  /// Runs the mail that is waiting; one atomic load when there is none.
  void processMail() {
    if (mailbox_.hasMail()) runQueuedMail();
  }
  void runQueuedMail();
  void runMail(Mail& mail);
  // Snapshots the chain, forwards the barrier and acknowledges with the time it took (the
  // task's sync duration) and `alignmentDurationMicros` (the barrier handler's).
  void performCheckpoint(const CheckpointBarrier& barrier, int64_t alignmentDurationMicros = 0);
  /// Writes the frozen keyed state into `snapshots` (or, with file-system checkpoint storage,
  /// into state files the snapshots name) on the async writer, then acknowledges.
  void submitAsyncSnapshot(int64_t checkpointId, const CheckpointOptions& options,
                           std::vector<OperatorSnapshot> snapshots,
                           std::vector<std::unique_ptr<state::FrozenKeyedState>> frozen,
                           SubtaskCheckpointTiming timing);
  void notifyCheckpointComplete(int64_t checkpointId);
  void notifyCheckpointAborted(int64_t checkpointId);
  // CheckpointBarrierHandler::Actions
  void triggerCheckpointOnBarrier(const CheckpointBarrier& barrier) override;
  void abortCheckpointOnBarrier(int64_t checkpointId) override;
  void closeOperators() noexcept;
  /// While suspended for a stop-with-savepoint: waits for mail and runs it; ends the task
  /// (TaskCancelled, a quiet stop) once the savepoint completed.
  void waitWhileSuspended();
  void fireDueTimers();
  void flushOutputs();
  std::chrono::steady_clock::time_point nextWakeUp(std::chrono::milliseconds maximum) const;
  /// Until when a source that had nothing available waits: a split reader that signals
  /// availability until it is woken or the time it asked for; any other source `idleWait`.
  std::chrono::steady_clock::time_point sourceWakeUp(std::chrono::milliseconds idleWait) const;

  RunningJob& job_;
  const graph::JobVertex& vertex_;
  const int vertexIndex_;
  const int subtaskIndex_;
  InputGate* inputGate_;
  const Clock& clock_;
  const TaskSettings& settings_;
  Mailbox& mailbox_;

  const int maxParallelism_;
  // Declared before the operators, which point into their stores, so they are destroyed after.
  std::vector<std::unique_ptr<OperatorSnapshot>> rescaledSnapshots_;  // see restoredSnapshotOf
  // A source that reads splits (connector::Source): its way to the source's coordinator in the
  // job (the operator keeps a pointer to it), and the operator, which gets the assignments.
  std::unique_ptr<connector::detail::SourceReaderGateway> readerGateway_;
  connector::detail::SplitReadingOperator* splitReader_ = nullptr;
  std::vector<OperatorContext> contexts_;
  std::vector<std::unique_ptr<StreamOperator>> operators_;
  std::vector<std::unique_ptr<Output>> outputs_;  // everything the operators emit into
  std::vector<NetworkOutput*> networkOutputs_;
  std::vector<int> inputIndexOfChannel_;
  std::vector<int> openChannelsOfInput_;  // per input index: channels that have not ended
  std::unique_ptr<WatermarkValve> valve_;
  std::unique_ptr<CheckpointBarrierHandler> barrierHandler_;  // tasks with input channels
  bool opened_ = false;
  bool finished_ = false;  // finish() done: no more checkpoints are taken
  // After finish(), until a checkpoint acknowledged from then on completed (see
  // StreamOperator::needsFinalCheckpoint): the first such id, and whether one completed.
  bool awaitingFinalCheckpoint_ = false;
  int64_t firstFinalCheckpointId_ = -1;
  bool finalCheckpointCompleted_ = false;
  // Stop-with-savepoint (see the file comment): a source's DRAIN trigger, taken after finish();
  // the SUSPEND savepoint this task took its snapshot of (-1: none), and whether it completed.
  std::optional<CheckpointBarrier> drainSavepoint_;
  int64_t suspendedForSavepoint_ = -1;
  bool stoppedBySavepoint_ = false;

  struct Timer {
    int64_t time;
    uint64_t sequence;
    std::function<void(int64_t)> callback;
    bool operator>(const Timer& other) const {
      return time != other.time ? time > other.time : sequence > other.sequence;
    }
  };
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  uint64_t timerSequence_ = 0;
  // Last: destroyed first, so a write in flight ends before anything else of the task goes.
  AsyncSnapshotWriter asyncSnapshots_;
};

}  // namespace eddy::runtime
