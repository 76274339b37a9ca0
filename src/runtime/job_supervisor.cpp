#include "runtime/job_supervisor.h"

#include <exception>
#include <utility>

#include "eddy/exceptions.h"

namespace eddy::runtime {

JobSupervisor::JobSupervisor(std::string name, graph::JobGraph graph, const Clock& clock,
                             TaskSettings settings, std::optional<JobCheckpointing> checkpointing,
                             const RestartStrategyConfiguration& restartStrategy, std::string jobId)
    : name_(std::move(name)),
      graph_(std::move(graph)),
      clock_(clock),
      settings_(std::move(settings)),
      checkpointing_(std::move(checkpointing)),
      restartable_(restartStrategy.type != RestartStrategyType::NONE),
      strategy_(createRestartBackoffTimeStrategy(restartStrategy)),
      jobId_(std::move(jobId)),
      restoreFrom_(settings_.restoredCheckpoint),
      nextCheckpointId_(settings_.restoredCheckpoint ? settings_.restoredCheckpoint->id + 1 : 1) {
  attempt_ = createAttempt(nullptr);
  jobId_ = attempt_->jobId();
}

JobSupervisor::~JobSupervisor() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<RunningJob> JobSupervisor::createAttempt(CheckpointCoordinator* previous) {
  TaskSettings settings = settings_;
  settings.restoredCheckpoint = restoreFrom_;
  auto attempt = std::make_shared<RunningJob>(name_, graph_, clock_, std::move(settings), jobId_);
  if (checkpointing_) {
    CheckpointCoordinatorConfiguration configuration = checkpointing_->configuration;
    configuration.retainOnFailure = true;  // for the next attempt; see end()
    auto coordinator = std::make_unique<CheckpointCoordinator>(
        configuration, *attempt, checkpointing_->createStorage(attempt->jobId()), clock_,
        nextCheckpointId_);
    if (previous != nullptr) {
      coordinator->adoptRetainedCheckpoints(*previous);
    } else if (!checkpointing_->recoveredCheckpoints.empty()) {
      coordinator->adoptRetainedCheckpoints(checkpointing_->recoveredCheckpoints, restoreFrom_);
    }
    if (checkpointing_->retainedCheckpointsHook) {
      coordinator->setRetainedCheckpointsHook(checkpointing_->retainedCheckpointsHook);
    }
    coordinator->setStatsTracker(checkpointStats_);
    attempt->setCheckpointCoordinator(std::move(coordinator));
  }
  return attempt;
}

void JobSupervisor::start() {
  std::shared_ptr<RunningJob> first = currentAttempt();
  startTime_ = std::chrono::steady_clock::now();
  first->start();  // throws before any task runs; then nothing else starts
  thread_ = std::thread([this] { supervise(); });
}

void JobSupervisor::supervise() {
  std::shared_ptr<RunningJob> attempt = currentAttempt();
  // An attempt whose start() threw: it never ran, so there is nothing to wait for.
  std::optional<std::string> startFailure;
  while (true) {
    std::optional<std::string> failure = std::exchange(startFailure, std::nullopt);
    if (!failure) {
      try {
        attempt->waitForCompletion();
      } catch (const JobExecutionException& error) {
        failure = error.what();
      }
    }
    if (!failure) {
      end(attempt, false, attempt->status(), "");  // FINISHED, or CANCELED by cancel()
      return;
    }
    bool cancelled;
    {
      std::lock_guard lock(mutex_);
      cancelled = cancelRequested_;
    }
    if (cancelled) {
      // Cancelled while the attempt was failing: CANCELED, as Flink's cancel during FAILING.
      end(attempt, true, JobStatus::CANCELED, "");
      return;
    }
    std::optional<int64_t> delay =
        strategy_->notifyFailure(SystemClock::instance().currentTimeMillis());
    if (!delay) {
      std::string message = std::move(*failure);
      if (restartable_) {
        // Flink's JobException, and the attempt's failure (the root cause) after it.
        const std::string prefix = "Job '" + name_ + "' failed: ";
        std::string cause = message.starts_with(prefix) ? message.substr(prefix.size()) : message;
        message = prefix + "Recovery is suppressed by " + strategy_->toString() +
                  "\nCaused by: " + cause;
      }
      end(attempt, true, JobStatus::FAILED, std::move(message));
      return;
    }
    {
      std::unique_lock lock(mutex_);
      ++numRestarts_;
      restarting_ = true;
      cancelled = changed_.wait_for(lock, std::chrono::milliseconds(*delay),
                                    [this] { return cancelRequested_; });
    }
    if (cancelled) {
      end(attempt, true, JobStatus::CANCELED, "");
      return;
    }
    // The next attempt restores from the latest checkpoint any attempt completed (each
    // coordinator hands it on to the next), else from what this one restored from.
    CheckpointCoordinator* coordinator = attempt->checkpointCoordinator();
    if (coordinator != nullptr) {
      if (auto latest = coordinator->latestCompletedCheckpoint()) restoreFrom_ = std::move(latest);
      nextCheckpointId_ = coordinator->nextCheckpointId();
    }
    std::shared_ptr<RunningJob> next;
    try {
      next = createAttempt(coordinator);
    } catch (const std::exception& error) {
      end(attempt, true, JobStatus::FAILED, "Job '" + name_ + "' failed: " + error.what());
      return;
    }
    {
      std::lock_guard lock(mutex_);
      attempt_ = next;
      restarting_ = false;
    }
    attempt = std::move(next);  // releases the attempt before, whose checkpoints are adopted
    try {
      attempt->start();
    } catch (const std::exception& error) {
      // RunningJob::start throws before any task runs: a failure of the attempt, for the
      // strategy to judge like any other.
      startFailure = "Job '" + name_ + "' failed: " + error.what();
    }
    std::lock_guard lock(mutex_);
    // A cancel() between the swap and start() reached an attempt that could not stop yet.
    if (cancelRequested_ && !startFailure) attempt->cancel();
  }
}

void JobSupervisor::end(const std::shared_ptr<RunningJob>& lastAttempt, bool lastAttemptFailed,
                        JobStatus status, std::string failureMessage) {
  // A failed attempt's coordinator kept its checkpoints for a restart that does not come now.
  if (lastAttemptFailed) {
    if (CheckpointCoordinator* coordinator = lastAttempt->checkpointCoordinator()) {
      coordinator->applyRetention(status);
    }
  }
  if (checkpointing_ && checkpointing_->jobEnded) checkpointing_->jobEnded(status);
  std::lock_guard lock(mutex_);
  restarting_ = false;
  endStatus_ = status;
  failureMessage_ = std::move(failureMessage);
  netRuntimeMillis_ = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - startTime_)
                          .count();
  ended_ = true;
  changed_.notify_all();
}

JobStatus JobSupervisor::status() const {
  std::lock_guard lock(mutex_);
  if (ended_) return endStatus_;
  if (cancelRequested_) return JobStatus::CANCELED;  // stopping, as a cancelled RunningJob
  if (restarting_) return JobStatus::RESTARTING;
  const JobStatus status = attempt_->status();
  // An attempt that failed before the supervisor judged it: a restart may follow.
  if (status == JobStatus::FAILED && restartable_) return JobStatus::RESTARTING;
  return status;
}

void JobSupervisor::cancel() {
  std::shared_ptr<RunningJob> attempt;
  {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    cancelRequested_ = true;
    attempt = attempt_;
  }
  changed_.notify_all();  // ends a restart's delay
  attempt->cancel();
}

void JobSupervisor::waitForCompletion() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return ended_; });
  if (!joined_) {
    joined_ = true;
    lock.unlock();
    if (thread_.joinable()) thread_.join();
    lock.lock();
  }
  if (endStatus_ == JobStatus::FAILED) throw JobExecutionException(failureMessage_);
}

int64_t JobSupervisor::netRuntimeMillis() const {
  std::lock_guard lock(mutex_);
  return netRuntimeMillis_;
}

int64_t JobSupervisor::numRestarts() const {
  std::lock_guard lock(mutex_);
  return numRestarts_;
}

std::shared_ptr<RunningJob> JobSupervisor::currentAttempt() const {
  std::lock_guard lock(mutex_);
  return attempt_;
}

}  // namespace eddy::runtime
