// RunningJob: one job executing on the local machine. It creates a task per subtask of every
// JobGraph vertex, runs each task on its own thread, and collects the outcome. The first
// failure of any task cancels all others (every gate wakes and throws TaskCancelled), so a
// failed job stops all its threads and never hangs. Thread-safe; owned through shared_ptr by
// the job client(s) waiting on it.
//
// It is also the job side of checkpoints, as far as tasks see it (the checkpoint coordinator,
// which decides when to trigger and writes checkpoints to storage, builds on it):
// triggerCheckpoint puts a trigger into every source task's mailbox; tasks acknowledge with
// their operators' snapshots or decline; once every task acknowledged (a finished task counts
// as acknowledged, with finished snapshots), the checkpoint is complete, its snapshots can be
// read with waitForCheckpoint, and every task is sent notifyCheckpointComplete. With a
// CheckpointCoordinator attached (checkpointing enabled), a fully acknowledged checkpoint is
// handed to it first, stays pending while the coordinator stores it, and completes only when
// the coordinator says it is stored (completeCheckpoint); the coordinator also aborts
// checkpoints that expire (abortCheckpoint) and may fail the job (failJob).
//
// Every job has an id, Flink's JobID form (32 lower-case hex digits, random): the directory
// its checkpoints go to is `<state.checkpoints.dir>/<job id>/`.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "eddy/clock.h"
#include "eddy/datastream/job_status.h"
#include "eddy/runtime/stream_operator.h"
#include "graph/job_graph.h"
#include "runtime/checkpoint_coordinator.h"
#include "runtime/completed_checkpoint.h"
#include "runtime/input_gate.h"
#include "runtime/mailbox.h"
#include "runtime/pending_checkpoint.h"
#include "runtime/task_settings.h"

namespace eddy::runtime {

class RunningJob : public std::enable_shared_from_this<RunningJob>, public CheckpointTarget {
 public:
  /// `jobId`: the id of the job this runs an attempt of (a restart keeps the job's id, so its
  /// checkpoints stay in one directory); empty: a new random id.
  RunningJob(std::string name, graph::JobGraph graph, const Clock& clock,
             TaskSettings settings = {}, std::string jobId = {});
  ~RunningJob();

  /// Attaches the job's checkpoint coordinator (before start(); the job owns it): start()
  /// starts its timer thread, and it is shut down when the last task ended.
  void setCheckpointCoordinator(std::unique_ptr<CheckpointCoordinator> coordinator);
  CheckpointCoordinator* checkpointCoordinator() const { return coordinator_.get(); }
  /// The job's id (Flink's JobID form), fixed at construction.
  const std::string& jobId() const { return jobId_; }

  /// Starts all task threads (and the coordinator's timer thread).
  void start();
  /// Blocks until every task thread ended. Throws JobExecutionException when the job failed.
  void waitForCompletion();
  /// Stops the job; waiting callers return without an error.
  void cancel();
  JobStatus status() const;
  const std::string& name() const { return name_; }
  int64_t netRuntimeMillis() const { return netRuntimeMillis_; }
  /// The counters its operators add to (see JobMetrics); live while the job runs.
  JobMetrics& metrics() { return metrics_; }
  const JobMetrics& metrics() const { return metrics_; }

  /// Starts checkpoint `id` (ids must increase from call to call), timestamped with the job's
  /// clock: every source task still running gets a trigger in its mailbox, every finished task
  /// counts as acknowledged. Returns false, triggering nothing, once the job has ended, failed
  /// or been cancelled.
  bool triggerCheckpoint(int64_t id, CheckpointOptions options) override;
  /// The coordinator stored checkpoint `id`, which every task acknowledged: every task gets
  /// notifyCheckpointComplete. False when it is no longer pending (aborted, the job ended).
  bool completeCheckpoint(int64_t id) override;
  /// Aborts checkpoint `id` if it is pending (also while the coordinator stores it): every
  /// task gets notifyCheckpointAborted.
  void abortCheckpoint(int64_t id) override;
  /// Fails the job with `message` (the first failure wins), as a task's failure does.
  void failJob(const std::string& message) override;
  /// Savepoint `id` of a stop-with-savepoint (runtime/savepoint.h): triggered as a checkpoint,
  /// after recording `mode` for the tasks (stopModeOf). False as triggerCheckpoint.
  bool triggerStopWithSavepoint(int64_t id, CheckpointOptions options,
                                SavepointStopMode mode) override;
  /// How the tasks stop at checkpoint `id`: SUSPEND or DRAIN for the savepoint of a
  /// stop-with-savepoint, NONE for any other. Any thread.
  SavepointStopMode stopModeOf(int64_t checkpointId) const;
  /// Where a task writes the state files of checkpoint `id` itself (its asynchronous part);
  /// empty: it hands the bytes over in its acknowledgement (in-memory checkpoint storage, a
  /// savepoint). Any thread.
  std::filesystem::path stateDirectoryOf(int64_t checkpointId,
                                         const CheckpointOptions& options) const;
  /// The coordinator stored savepoint `id`: it stops being pending (waitForCheckpoint says
  /// COMPLETED) without notifyCheckpointComplete to the tasks or the split enumerators (see
  /// CheckpointTarget::completeSavepoint). False as completeCheckpoint.
  bool completeSavepoint(int64_t id) override;
  /// Waits until checkpoint `id` completed or was aborted, or `deadline` passed (PENDING).
  /// The outcomes of the kRetainedOutcomes latest checkpoints are kept; an older or unknown
  /// id stays PENDING.
  CheckpointOutcome waitForCheckpoint(int64_t id,
                                      std::chrono::steady_clock::time_point deadline) const;
  static constexpr size_t kRetainedOutcomes = 16;

  // Called by tasks.
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  void reportFailure(const std::string& operatorName, int subtaskIndex, int parallelism,
                     const std::string& message);
  Mailbox& mailbox(int vertex, int subtask) { return *mailboxes_[vertex][subtask]; }
  /// The task took its snapshots of checkpoint `id` (one per chained operator, in chain order)
  /// in `timing`.
  void acknowledgeCheckpoint(int vertex, int subtask, int64_t id,
                             std::vector<OperatorSnapshot> chainSnapshots,
                             const SubtaskCheckpointTiming& timing);
  /// The task gave up checkpoint `id`: it is aborted for every task.
  void declineCheckpoint(int vertex, int subtask, int64_t id);
  /// The task finished (finish() done, end of input sent): it acknowledges every pending and
  /// later checkpoint as finished and is never triggered again.
  void taskFinished(int vertex, int subtask);
  /// The task finished its operators but waits for a final checkpoint (Flink's checkpoints
  /// after tasks finish): from now on every checkpoint triggers it directly, as a source, and
  /// a pending one it has not acknowledged yet is triggered at once. taskFinished ends that.
  void taskAwaitsFinalCheckpoint(int vertex, int subtask);
  /// Whether a checkpoint the task acknowledged with its snapshots is still pending: a
  /// finished task waits for it, so that its operators get notifyCheckpointComplete.
  bool hasPendingCheckpointAcknowledgedBy(int vertex, int subtask) const;

  // ---- Source coordinators -------------------------------------------------------------
  // A source vertex whose source reads splits (connector::Source, eddy/connector/source.h) has
  // one split enumerator for all its subtasks, created in start() (restored from the
  // checkpoint's sourceCoordinators when the job restores) and called only with
  // coordinatorMutex_ held. Its assignments go to the readers as mail (AddSplitsMail,
  // NoMoreSplitsMail). triggerCheckpoint snapshots every enumerator and puts the triggers while
  // holding that lock, so an assignment made after an enumerator's snapshot reaches its reader
  // after the reader's snapshot; the states go into CompletedCheckpoint::sourceCoordinators.

  /// Called by the task (on its thread, in its source operator's open()): the enumerator's
  /// addReader(subtask). Throws what the enumerator throws.
  void registerSourceReader(int vertex, int subtask);
  /// The reader asked for a split: the enumerator's handleSplitRequest(subtask).
  void requestSourceSplit(int vertex, int subtask);

 private:
  void cancelGates();
  void runSubtask(int vertex, int subtask);
  // Calls every FinalizeOnMaster factory of the graph when no task failed and the job was not
  // cancelled; an exception fails the job.
  void finalizeOnMasterIfSucceeded();
  // With checkpointMutex_ held:
  void completeIfFullyAcknowledgedLocked(int64_t id);
  void abortCheckpointLocked(int64_t id, CheckpointFailureReason reason);
  void completeCheckpointLocked(int64_t id, std::shared_ptr<const CompletedCheckpoint> checkpoint);
  void recordOutcomeLocked(int64_t id, CheckpointOutcome outcome);
  void sendToAllTasksLocked(const Mail& mail);

  // Source coordinators (see registerSourceReader).
  class SourceCoordinatorHost;
  // In start(), before any task runs. Throws ValidationException for a checkpoint that holds a
  // source's reader splits but no state of its enumerator, and what the enumerator throws.
  void createSourceCoordinators();
  // With checkpointMutex_ and coordinatorMutex_ held: keeps every enumerator's state for
  // checkpoint `id`; false (and the job fails) when an enumerator threw.
  bool snapshotSourceCoordinatorsLocked(int64_t id);
  // With checkpointMutex_ held: `checkpoint` with the enumerators' states of `id` added.
  std::shared_ptr<const CompletedCheckpoint> withSourceCoordinatorStatesLocked(
      int64_t id, std::shared_ptr<const CompletedCheckpoint> checkpoint);
  // With checkpointMutex_ held: every enumerator's notifyCheckpointComplete.
  void notifySourceCoordinatorsOfCompletionLocked(int64_t id);
  // Fails the job from one of the source's tasks: `message` is thrown there (checkpointMutex_
  // may be held; failJob may not be called then).
  void failFromSourceTasks(int vertex, const std::string& message);
  // Stops the asynchronous calls, then closes every enumerator.
  void closeSourceCoordinators() noexcept;

  // The split enumerators' asynchronous calls (SplitEnumeratorContext::callAsync), run by one
  // detached thread of the job's, started with the first: each call runs outside every lock,
  // what it returns under checkpointMutex_ and coordinatorMutex_, as the enumerators' other
  // calls. The thread shares only AsyncCalls with the job, so a call still waiting for an
  // outside system when the job ends (a discovery at an unreachable broker) neither holds the
  // end up nor touches the job after it; no handler runs after stopAsyncCalls.
  struct AsyncCall {
    int vertex;
    std::function<std::function<void()>()> call;
    std::chrono::steady_clock::time_point due;
    std::chrono::milliseconds period;  // zero: once
  };
  struct AsyncCalls {
    std::mutex mutex;  // the queue and `started`
    std::condition_variable changed;
    std::vector<AsyncCall> queue;
    bool started = false;
    std::atomic<bool> stopped{false};
    // Held while a handler runs, before the job's locks: stopAsyncCalls takes it after setting
    // `stopped`, so it returns once no handler runs and none will.
    std::mutex handling;
  };
  void scheduleAsyncCall(AsyncCall call);
  static void runAsyncCalls(const std::shared_ptr<AsyncCalls>& calls, RunningJob* job);
  // Under AsyncCalls::handling: runs what a call returned (or fails the source with what it
  // threw) under the checkpoint and coordinator locks.
  void handleAsyncResult(int vertex, const std::function<void()>& handle, std::string failure);
  // Drops the calls not started, waits for a handler that runs, and runs none after; a call
  // that runs is not waited for (idempotent).
  void stopAsyncCalls() noexcept;

  const std::string name_;
  const std::string jobId_;
  const graph::JobGraph graph_;
  const Clock& clock_;
  // gates_[vertex][subtask]; null for source vertices.
  std::vector<std::vector<std::unique_ptr<InputGate>>> gates_;
  // mailboxes_[vertex][subtask]; each wakes its task's gate.
  std::vector<std::vector<std::unique_ptr<Mailbox>>> mailboxes_;
  const TaskSettings settings_;
  std::vector<std::thread> threads_;
  std::atomic<bool> cancelled_{false};
  std::atomic<int> runningTasks_{0};
  JobMetrics metrics_;

  mutable std::mutex mutex_;
  std::condition_variable finished_;
  bool joined_ = false;
  // Every task ended and the job-level finalization (FinalizeOnMaster) ran.
  bool ended_ = false;
  bool failed_ = false;
  bool cancelRequested_ = false;
  std::string failureMessage_;
  std::chrono::steady_clock::time_point startTime_;
  int64_t netRuntimeMillis_ = 0;

  // Checkpoints; a lock of its own, taken after mutex_ where both are held, and before any
  // mailbox's or gate's (it puts mail while held, so every task sees notifications in order).
  mutable std::mutex checkpointMutex_;
  mutable std::condition_variable checkpointChanged_;
  std::map<int64_t, PendingCheckpoint> pendingCheckpoints_;
  std::map<int64_t, CheckpointOutcome> outcomes_;  // the latest kRetainedOutcomes
  std::vector<std::vector<bool>> finishedTasks_;   // [vertex][subtask]
  std::vector<std::vector<bool>> awaitingFinalCheckpoint_;  // [vertex][subtask]
  int64_t latestTriggeredId_ = std::numeric_limits<int64_t>::min();
  bool checkpointsStopped_ = false;  // the job ended, failed or was cancelled
  // The savepoint of a stop-with-savepoint, once triggered (one per job: the job ends on it).
  int64_t stopSavepointId_ = -1;
  SavepointStopMode stopSavepointMode_ = SavepointStopMode::NONE;
  // Fully acknowledged checkpoints the coordinator is storing (still in pendingCheckpoints_,
  // so that finished tasks keep waiting for their outcome), by id.
  std::map<int64_t, std::shared_ptr<const CompletedCheckpoint>> beingStored_;
  // Set before start(), then only read; calls into it never hold checkpointMutex_ except the
  // queueing notifications (checkpointAcknowledged, checkpointAborted).
  std::unique_ptr<CheckpointCoordinator> coordinator_;

  // Source coordinators, by vertex (null: no split enumerator); set in start(), then only
  // their contents change, under coordinatorMutex_. That lock is taken after checkpointMutex_
  // where both are held, and before any mailbox's (the enumerators put mail while it is held).
  std::vector<std::unique_ptr<SourceCoordinatorHost>> sourceCoordinators_;
  std::mutex coordinatorMutex_;
  // The enumerators' states of pending checkpoints (source uid → bytes), by checkpoint id;
  // under checkpointMutex_.
  std::map<int64_t, std::map<std::string, std::string>> pendingSourceCoordinatorStates_;

  // The asynchronous calls (see scheduleAsyncCall); AsyncCalls::mutex is taken after
  // coordinatorMutex_ where both are held.
  std::shared_ptr<AsyncCalls> asyncCalls_ = std::make_shared<AsyncCalls>();
};

}  // namespace eddy::runtime
