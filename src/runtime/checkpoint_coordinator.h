// CheckpointCoordinator: decides when a running job checkpoints and what becomes of each
// checkpoint (Flink's CheckpointCoordinator with its CheckpointRequestDecider and
// CheckpointFailureManager, for one process). One per job with checkpointing enabled.
//
// - Periodic triggers every `interval`, never more than `maxConcurrentCheckpoints` pending;
//   with a `minPause`, the next checkpoint starts no earlier than minPause after the end
//   (completion or failure) of the previous one, which also means one at a time (as Flink).
// - A checkpoint every task acknowledged is written to the CheckpointStorage (its `_metadata`
//   last), and only then is the job told to complete it (notifyCheckpointComplete on every
//   operator). `numRetained` completed checkpoints are kept; older ones are discarded.
// - A checkpoint not complete `timeout` after its trigger is aborted at the job. A checkpoint
//   that a task declined, that expired or that could not be stored is a failure; once more
//   than `tolerableFailedCheckpoints` fail in a row, the job fails with Flink's message
//   "Exceeded checkpoint tolerable failure threshold.". A completed checkpoint resets the
//   count; checkpoints aborted because the job ended do not count.
// - When the job ends, the retention policy decides which stored checkpoints remain.
// - Savepoints (runtime/savepoint.h): triggerSavepoint queues a request, triggered through the
//   same barriers once no checkpoint is pending (periodic triggers wait meanwhile), written to
//   its own directory and never discarded; its failure fails only the request.
// - With high availability (runtime/high_availability.h) a hook hears which checkpoints are
//   kept before the job completes a new one and before any is discarded, so that a record of
//   them outside the process never names a checkpoint that is gone.
//
// Threads and ownership. Time is the injected Clock's (milliseconds). All decisions are made
// in runDueWork(), called by one driving thread: the coordinator's timer thread
// (startTimerThread) or, in unit tests, the test itself after moving a ManualClock, so that no
// test needs to sleep. The job's notifications (checkpointAcknowledged, checkpointAborted) may
// come from any thread, with the job's checkpoint lock held: they only queue the event and wake
// the driving thread, and the coordinator never holds its own lock while it calls the job.
// The coordinator does not own the job (the job owns it, see RunningJob); it owns its storage.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "eddy/clock.h"
#include "eddy/datastream/job_status.h"
#include "runtime/checkpoint_stats_tracker.h"
#include "runtime/checkpoint_storage.h"
#include "runtime/completed_checkpoint.h"
#include "runtime/savepoint.h"

namespace eddy::runtime {

/// What remains of the stored checkpoints when the job ends (Flink's
/// ExternalizedCheckpointRetention). A job that fails keeps them unless NO_EXTERNALIZED; a job
/// that finishes never keeps them (as Flink: nothing is left to resume).
enum class CheckpointRetention {
  /// Deleted whenever the job ends: finished, cancelled or failed (Flink's default).
  NO_EXTERNALIZED_CHECKPOINTS,
  /// Kept when the job fails; deleted when it is cancelled or finishes.
  DELETE_ON_CANCELLATION,
  /// Kept when the job is cancelled or fails; deleted when it finishes.
  RETAIN_ON_CANCELLATION,
};

/// Why a checkpoint did not complete.
enum class CheckpointFailureReason {
  /// A task declined it (a newer barrier overtook an aligned one, a snapshot failed).
  DECLINED,
  /// Not complete before the timeout.
  EXPIRED,
  /// The storage could not write it.
  STORAGE_FAILED,
  /// The job ended, failed or was cancelled while it was pending: not the checkpoint's fault,
  /// not counted against tolerable-failed-checkpoints.
  JOB_ENDED,
};

/// The settings of `execution.checkpointing.*` a coordinator runs with (all times ms).
struct CheckpointCoordinatorConfiguration {
  int64_t intervalMillis = 0;
  int64_t timeoutMillis = 10 * 60 * 1000;
  int64_t minPauseMillis = 0;
  int maxConcurrentCheckpoints = 1;
  int tolerableFailedCheckpoints = 0;
  int numRetained = 1;
  CheckpointOptions::AlignmentType alignment = CheckpointOptions::AlignmentType::ALIGNED;
  CheckpointRetention retention = CheckpointRetention::NO_EXTERNALIZED_CHECKPOINTS;
  /// The job may be restarted after a failure (runtime::JobSupervisor): when it fails, its
  /// stored checkpoints stay whatever `retention` says, for the next attempt's coordinator to
  /// take over (adoptRetainedCheckpoints) or the supervisor to apply `retention` once the job
  /// has ended for good (applyRetention).
  bool retainOnFailure = false;
};

/// What the coordinator asks of its job (RunningJob implements it; tests fake it). Called from
/// the coordinator's driving thread, never with the coordinator's lock held.
class CheckpointTarget {
 public:
  virtual ~CheckpointTarget() = default;
  /// Starts checkpoint `id` at the sources; false once the job has ended.
  virtual bool triggerCheckpoint(int64_t id, CheckpointOptions options) = 0;
  /// The acknowledged checkpoint `id` is stored: notify every task. False when it is no longer
  /// pending (the job ended meanwhile).
  virtual bool completeCheckpoint(int64_t id) = 0;
  /// Aborts pending checkpoint `id` at every task (nothing when it is not pending).
  virtual void abortCheckpoint(int64_t id) = 0;
  /// Fails the whole job with `message`.
  virtual void failJob(const std::string& message) = 0;
  /// Starts savepoint `id` of a stop-with-savepoint (`mode` SUSPEND or DRAIN): as
  /// triggerCheckpoint, and the tasks learn from the job how to stop. The default (for targets
  /// that cannot stop) is a plain trigger.
  virtual bool triggerStopWithSavepoint(int64_t id, CheckpointOptions options,
                                        SavepointStopMode /*mode*/) {
    return triggerCheckpoint(id, options);
  }
  /// The acknowledged savepoint `id` (not a stop-with-savepoint's) is stored: it stops being
  /// pending without notifyCheckpointComplete (Flink's FLINK-25191: a savepoint commits no
  /// side effect and is no recovery point). False as completeCheckpoint. The default is for
  /// targets that do not tell the two apart.
  virtual bool completeSavepoint(int64_t id) { return completeCheckpoint(id); }
};

class CheckpointCoordinator {
 public:
  /// Flink's CheckpointFailureManager message.
  static constexpr const char* kTolerableFailureThresholdExceeded =
      "Exceeded checkpoint tolerable failure threshold.";

  /// The first periodic trigger is one interval after construction. Checkpoint ids start at
  /// `firstCheckpointId` (a restored job goes on after the checkpoint it restored).
  CheckpointCoordinator(CheckpointCoordinatorConfiguration configuration, CheckpointTarget& job,
                        std::unique_ptr<CheckpointStorage> storage, const Clock& clock,
                        int64_t firstCheckpointId = 1);
  /// Stops the timer thread if it still runs (without applying the retention policy).
  ~CheckpointCoordinator();
  CheckpointCoordinator(const CheckpointCoordinator&) = delete;
  CheckpointCoordinator& operator=(const CheckpointCoordinator&) = delete;

  // ---- From the job, any thread (only queue and wake) ----
  /// Every task acknowledged the checkpoint: it waits to be stored, then completed.
  void checkpointAcknowledged(std::shared_ptr<const CompletedCheckpoint> checkpoint);
  /// The job aborted checkpoint `id`.
  void checkpointAborted(int64_t id, CheckpointFailureReason reason);

  // ---- Savepoints, any thread (only queue and wake) ----
  /// Queues `request` (runtime/savepoint.h). runDueWork triggers it as soon as no checkpoint is
  /// pending, whatever the interval and min-pause (a coordinator with interval 0 triggers only
  /// savepoints); periodic checkpoints wait while one is queued or pending. Once every task
  /// acknowledged it, it is written to the request's directory (not the storage) and never
  /// discarded; as Flink's since 1.15 (FLINK-25191) the tasks are not notified of it (no sink
  /// commits on it: the next checkpoint commits what it holds) and it is no recovery point for
  /// a restart — except a stop-with-savepoint's, which is notified (the job ends on it, its
  /// sinks commit) and becomes the latest completed checkpoint. Declined, expired, not writable
  /// or the job ended: only the request fails. After shutdown() it fails at once.
  void triggerSavepoint(std::shared_ptr<SavepointRequest> request);

  // ---- Driving ----
  /// Does what is due at the clock's current time, in order: stores and completes the
  /// acknowledged checkpoints, counts aborted ones, aborts expired ones, fails the job past
  /// the tolerable failures, triggers the next checkpoint. Returns the clock time at which
  /// something is due next without an event (max when nothing is).
  int64_t runDueWork();
  /// Runs runDueWork on a thread of its own, waiting in between until the next due time or an
  /// event (for a clock that moves with real time).
  void startTimerThread();
  /// The job ended with `status` (FINISHED, CANCELED or FAILED): stops the timer thread and
  /// waits for it, drops what is still queued (the job no longer completes anything), applies
  /// the retention policy and closes the storage. Idempotent; any thread but the timer thread.
  void shutdown(JobStatus status);

  // ---- Observed state: from the driving thread, or while no timer thread runs ----
  /// The ids of the completed checkpoints kept in storage, oldest first.
  std::vector<int64_t> retainedCheckpointIds() const;
  /// Where the latest completed checkpoint was stored (empty: none, or kept in memory).
  std::string latestCompletedCheckpointLocation() const;
  /// Where the tasks write their state files of checkpoint `id` (CheckpointStorage::
  /// stateDirectory; empty: they hand over bytes). Any thread.
  std::filesystem::path stateDirectory(int64_t id) const { return storage_->stateDirectory(id); }
  int pendingCheckpointCount() const { return static_cast<int>(pending_.size()); }
  int consecutiveFailures() const { return consecutiveFailures_; }

  // ---- Restarts (runtime::JobSupervisor): after shutdown(), or before startTimerThread() ----
  /// The latest checkpoint this coordinator completed or adopted (kept in memory also when its
  /// storage discarded it); null: none.
  std::shared_ptr<const CompletedCheckpoint> latestCompletedCheckpoint() const {
    return latestCompleted_;
  }
  /// The id the next checkpoint would get (ids of checkpoints that never completed included):
  /// the coordinator of the job's next attempt goes on from it.
  int64_t nextCheckpointId() const { return nextCheckpointId_; }
  /// Takes over what `previous`, the shut-down coordinator of the job's failed attempt, kept:
  /// its retained checkpoints (num-retained and the retention policy now apply to them here,
  /// and no longer there) and its latest completed checkpoint. Before startTimerThread().
  void adoptRetainedCheckpoints(CheckpointCoordinator& previous);
  /// The job whose attempt ended FAILED with `retainOnFailure` ended for good with `status`
  /// (FAILED: the restart strategy gave up; CANCELED: cancelled between attempts): applies the
  /// retention policy to the checkpoints kept. After shutdown().
  void applyRetention(JobStatus status);

  // ---- High availability (runtime/high_availability.h): before startTimerThread() ----
  /// Completed checkpoints kept, (id, location as CheckpointStorage::store returned it),
  /// oldest first.
  using RetainedCheckpoints = std::vector<std::pair<int64_t, std::string>>;
  /// Told what the coordinator keeps before anything else hears of it (Flink's
  /// CompletedCheckpointStore::addCheckpointAndSubsumeOldestOne): after a new checkpoint was
  /// stored, with the checkpoints kept from then on (the new one last), before the job is told
  /// to complete it and before older ones beyond num-retained are discarded; and with nothing
  /// before the retention policy discards every kept checkpoint at the job's end. A throw from
  /// the first call fails that checkpoint like a storage failure (it is discarded). Called from
  /// the driving thread, or from the thread calling shutdown() or applyRetention().
  using RetainedCheckpointsHook = std::function<void(const RetainedCheckpoints& retained)>;
  void setRetainedCheckpointsHook(RetainedCheckpointsHook hook) { hook_ = std::move(hook); }
  /// Takes over the checkpoints a previous process of the job kept (high availability):
  /// num-retained and the retention policy apply to them here; `latest` is the last of them,
  /// read (the one the job restores).
  void adoptRetainedCheckpoints(RetainedCheckpoints retained,
                                std::shared_ptr<const CompletedCheckpoint> latest);

  /// Reports what becomes of the periodic checkpoints to `tracker` (savepoints are not
  /// counted). Before startTimerThread().
  void setStatsTracker(std::shared_ptr<CheckpointStatsTracker> tracker) {
    stats_ = std::move(tracker);
  }

 private:
  // Tells the hook (if any) that `retained` is kept; false when it threw.
  bool tellHook(const RetainedCheckpoints& retained) noexcept;

  static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  static constexpr int64_t kNotYet = std::numeric_limits<int64_t>::min();

  void storeAndComplete(const std::shared_ptr<const CompletedCheckpoint>& checkpoint, int64_t now);
  // Savepoints (driving thread): triggers the waiting one when nothing is pending; writes and
  // completes an acknowledged one; fails the request of pending savepoint `id` (true when `id`
  // is one).
  void maybeTriggerSavepoint(int64_t now);
  void completeSavepoint(const std::shared_ptr<const CompletedCheckpoint>& checkpoint,
                         SavepointRequest& request, int64_t now);
  bool failSavepoint(int64_t id, const char* reason);
  void recordFailure(int64_t now);
  void maybeTrigger(int64_t now);
  int64_t nextDueTime() const;
  bool triggerBlockedByPending() const;
  void timerLoop();
  // Whether the retention policy keeps the stored checkpoints of a job that ended with `status`.
  bool retains(JobStatus status) const;

  const CheckpointCoordinatorConfiguration configuration_;
  CheckpointTarget& job_;
  const std::unique_ptr<CheckpointStorage> storage_;
  const Clock& clock_;

  // Events queued by the job; guarded by mutex_, which is never held while calling out.
  mutable std::mutex mutex_;
  std::condition_variable wakeUp_;
  std::vector<std::shared_ptr<const CompletedCheckpoint>> acknowledged_;
  std::vector<std::pair<int64_t, CheckpointFailureReason>> aborted_;
  bool shutDown_ = false;
  std::deque<std::shared_ptr<SavepointRequest>> queuedSavepoints_;
  std::thread timerThread_;

  // Decision state, confined to the driving thread.
  int64_t nextCheckpointId_;
  int64_t nextTriggerTime_;
  int64_t lastCheckpointEnd_ = kNotYet;
  std::map<int64_t, int64_t> pending_;  // id → trigger time
  int consecutiveFailures_ = 0;
  bool triggeringStopped_ = false;  // the job ended or was failed by the coordinator
  std::deque<std::pair<int64_t, std::string>> retained_;  // id → location, oldest first
  std::shared_ptr<const CompletedCheckpoint> latestCompleted_;
  // Savepoints taken over from queuedSavepoints_ and not triggered yet, oldest first; those
  // triggered and pending (also in pending_), by id.
  std::deque<std::shared_ptr<SavepointRequest>> waitingSavepoints_;
  std::map<int64_t, std::shared_ptr<SavepointRequest>> pendingSavepoints_;
  RetainedCheckpointsHook hook_;
  std::shared_ptr<CheckpointStatsTracker> stats_;
};

}  // namespace eddy::runtime
