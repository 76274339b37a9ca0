// JobSupervisor: one job through all its attempts (Flink's scheduler restarting a job under its
// RestartBackoffTimeStrategy, for one process). A RunningJob runs once; when one of its tasks
// fails, the supervisor asks the restart strategy (restart_strategy.h), waits the delay it gives
// (status RESTARTING; cancel() ends the wait at once) and starts a new RunningJob of the same
// JobGraph, with the same job id (its checkpoints stay in one directory), restored from the
// latest checkpoint any attempt completed — or, when none did, from what the first attempt
// started from (a restore path, else nothing: a restart from scratch, as Flink's). Its
// checkpoint ids go on after the last one triggered. When the strategy gives up, the job fails
// with Flink's message, "Recovery is suppressed by <strategy>", and the last failure as its
// cause.
//
// Checkpoints across attempts: each attempt's CheckpointCoordinator is built with
// `retainOnFailure`, so a failed attempt leaves its stored checkpoints in place; the next one's
// coordinator adopts them (num-retained counts over attempts), and once the job has ended for
// good after a failed attempt the supervisor applies the retention policy for the job's final
// status. Under high availability (runtime/high_availability.h) the first attempt starts with
// the job id and the kept checkpoints of the job's previous process, and every coordinator
// records what it keeps through the JobCheckpointing hooks.
//
// Threads and ownership. The supervisor owns the current attempt (the one before is released
// when the next starts; a reader of its counters may hold it a little longer, see
// JobClient::getMetrics) and one thread of its own, which waits for each attempt to end,
// decides and starts the next. Its public methods are thread-safe; JobClient handles share it
// through shared_ptr, and the last handle going away cancels the job and joins everything.
//
// BATCH jobs are given `none` by the environment: their sinks stage output per job, which a
// second attempt would stage again.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "eddy/clock.h"
#include "eddy/datastream/job_status.h"
#include "graph/job_graph.h"
#include "runtime/checkpoint_coordinator.h"
#include "runtime/checkpoint_stats_tracker.h"
#include "runtime/checkpoint_storage.h"
#include "runtime/restart_strategy.h"
#include "runtime/running_job.h"
#include "runtime/task_settings.h"

namespace eddy::runtime {

/// How the attempts of a checkpointed job checkpoint.
struct JobCheckpointing {
  CheckpointCoordinatorConfiguration configuration;
  /// The storage of one attempt's coordinator, for the job's id (called once per attempt).
  std::function<std::unique_ptr<CheckpointStorage>(const std::string& jobId)> createStorage;

  // ---- High availability (runtime/high_availability.h); empty without ----
  /// The checkpoints a previous process of the job kept, oldest first (the last is what the
  /// first attempt restores): the first attempt's coordinator adopts them.
  CheckpointCoordinator::RetainedCheckpoints recoveredCheckpoints;
  /// Given to every attempt's coordinator (CheckpointCoordinator::setRetainedCheckpointsHook).
  CheckpointCoordinator::RetainedCheckpointsHook retainedCheckpointsHook;
  /// Called once the job has ended for good (FINISHED, CANCELED or FAILED), on the
  /// supervising thread, after the retention policy ran and before waiters return.
  std::function<void(JobStatus)> jobEnded;
};

class JobSupervisor {
 public:
  /// `settings.restoredCheckpoint`: what the first attempt starts from. `checkpointing`:
  /// nothing for a job that takes no checkpoints. `jobId`: the job's id (high availability
  /// reuses the one of the job's previous process); empty: a new random one. Throws
  /// ValidationException for a restart strategy Flink rejects (createRestartBackoffTimeStrategy).
  JobSupervisor(std::string name, graph::JobGraph graph, const Clock& clock, TaskSettings settings,
                std::optional<JobCheckpointing> checkpointing,
                const RestartStrategyConfiguration& restartStrategy, std::string jobId = {});
  /// Cancels the job if it still runs and joins its threads.
  ~JobSupervisor();
  JobSupervisor(const JobSupervisor&) = delete;
  JobSupervisor& operator=(const JobSupervisor&) = delete;

  /// Starts the first attempt (throwing what RunningJob::start throws, before anything runs)
  /// and the supervising thread. Once.
  void start();
  const std::string& name() const { return name_; }
  /// The job's id, the same for every attempt.
  const std::string& jobId() const { return jobId_; }
  /// RUNNING while an attempt runs, RESTARTING from an attempt's failure until the next attempt
  /// starts (while a restart is possible), then FINISHED, CANCELED or FAILED.
  JobStatus status() const;
  /// Stops the job: the running attempt, or the wait for the next one. Waiting callers return
  /// without an error.
  void cancel();
  /// Blocks until the job has ended for good. Throws JobExecutionException when it failed.
  void waitForCompletion();
  /// Wall-clock milliseconds from start() to the end (0 before the end).
  int64_t netRuntimeMillis() const;
  /// Restarts the strategy granted so far (Flink's numRestarts: counted when a restart is
  /// decided, before its delay).
  int64_t numRestarts() const;
  /// The attempt running now, or the last one; never null after start().
  std::shared_ptr<RunningJob> currentAttempt() const;
  /// The checkpoints of every attempt so far (all zero without checkpointing). Any thread.
  CheckpointStatistics checkpointStatistics() const { return checkpointStats_->snapshot(); }

 private:
  // A new attempt restored from restoreFrom_, its coordinator taking over what `previous` (the
  // failed attempt's coordinator, null for the first attempt) kept.
  std::shared_ptr<RunningJob> createAttempt(CheckpointCoordinator* previous);
  void supervise();
  // Ends the job with `status` (and `failureMessage` when FAILED) once `lastAttempt` ended:
  // applies the retention policy to the checkpoints a failed last attempt kept.
  void end(const std::shared_ptr<RunningJob>& lastAttempt, bool lastAttemptFailed,
           JobStatus status, std::string failureMessage);

  const std::string name_;
  const graph::JobGraph graph_;
  const Clock& clock_;
  const TaskSettings settings_;
  const std::optional<JobCheckpointing> checkpointing_;
  const bool restartable_;  // the strategy is not `none`
  std::unique_ptr<RestartBackoffTimeStrategy> strategy_;  // the supervising thread's
  std::string jobId_;  // set by the constructor, then only read
  const std::shared_ptr<CheckpointStatsTracker> checkpointStats_ =
      std::make_shared<CheckpointStatsTracker>();

  // What the next attempt restores from and where its checkpoint ids start; the supervising
  // thread's.
  std::shared_ptr<const CompletedCheckpoint> restoreFrom_;
  int64_t nextCheckpointId_ = 1;

  mutable std::mutex mutex_;
  std::condition_variable changed_;  // ended_, cancelRequested_
  std::shared_ptr<RunningJob> attempt_;
  bool restarting_ = false;  // between a granted restart and the next attempt's start
  bool cancelRequested_ = false;
  bool ended_ = false;
  bool joined_ = false;
  JobStatus endStatus_ = JobStatus::FINISHED;
  std::string failureMessage_;
  int64_t numRestarts_ = 0;
  std::chrono::steady_clock::time_point startTime_;
  int64_t netRuntimeMillis_ = 0;
  std::thread thread_;
};

}  // namespace eddy::runtime
