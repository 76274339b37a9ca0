#include "runtime/checkpoint_coordinator.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <iterator>
#include <system_error>

namespace eddy::runtime {

CheckpointCoordinator::CheckpointCoordinator(CheckpointCoordinatorConfiguration configuration,
                                             CheckpointTarget& job,
                                             std::unique_ptr<CheckpointStorage> storage,
                                             const Clock& clock, int64_t firstCheckpointId)
    : configuration_(configuration),
      job_(job),
      storage_(std::move(storage)),
      clock_(clock),
      nextCheckpointId_(firstCheckpointId),
      nextTriggerTime_(clock.currentTimeMillis() + configuration.intervalMillis) {}

CheckpointCoordinator::~CheckpointCoordinator() {
  {
    std::lock_guard lock(mutex_);
    shutDown_ = true;
  }
  wakeUp_.notify_all();
  if (timerThread_.joinable()) timerThread_.join();
}

void CheckpointCoordinator::checkpointAcknowledged(
    std::shared_ptr<const CompletedCheckpoint> checkpoint) {
  {
    std::lock_guard lock(mutex_);
    acknowledged_.push_back(std::move(checkpoint));
  }
  wakeUp_.notify_all();
}

void CheckpointCoordinator::checkpointAborted(int64_t id, CheckpointFailureReason reason) {
  {
    std::lock_guard lock(mutex_);
    aborted_.emplace_back(id, reason);
  }
  wakeUp_.notify_all();
}

int64_t CheckpointCoordinator::runDueWork() {
  std::vector<std::shared_ptr<const CompletedCheckpoint>> acknowledged;
  std::vector<std::pair<int64_t, CheckpointFailureReason>> aborted;
  {
    std::lock_guard lock(mutex_);
    if (shutDown_) return kNever;
    acknowledged.swap(acknowledged_);
    aborted.swap(aborted_);
    for (auto& request : queuedSavepoints_) waitingSavepoints_.push_back(std::move(request));
    queuedSavepoints_.clear();
  }
  const int64_t now = clock_.currentTimeMillis();
  for (const auto& checkpoint : acknowledged) storeAndComplete(checkpoint, now);
  for (const auto& [id, reason] : aborted) {
    // Unknown ids were already settled here (expired, storage failed, completed).
    if (pending_.erase(id) == 0) continue;
    // A savepoint's failure fails its request only (Flink does not count it either).
    const bool savepoint = failSavepoint(
        id, reason == CheckpointFailureReason::JOB_ENDED ? kSavepointJobEnded : kSavepointDeclined);
    if (!savepoint) storage_->discard(id);  // what its tasks wrote before it failed
    if (reason == CheckpointFailureReason::JOB_ENDED) {
      triggeringStopped_ = true;
    } else if (!savepoint) {
      recordFailure(now);
    }
  }
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second + configuration_.timeoutMillis <= now) {
      int64_t id = it->first;
      it = pending_.erase(it);
      job_.abortCheckpoint(id);
      if (!failSavepoint(id, kSavepointExpired)) {
        storage_->discard(id);
        recordFailure(now);
      }
    } else {
      ++it;
    }
  }
  if (!triggeringStopped_ && consecutiveFailures_ > configuration_.tolerableFailedCheckpoints) {
    triggeringStopped_ = true;
    job_.failJob(kTolerableFailureThresholdExceeded);
  }
  maybeTriggerSavepoint(now);
  maybeTrigger(now);
  if (stats_) {
    stats_->reportInProgress(static_cast<int64_t>(pending_.size() - pendingSavepoints_.size()));
  }
  return nextDueTime();
}

void CheckpointCoordinator::storeAndComplete(
    const std::shared_ptr<const CompletedCheckpoint>& checkpoint, int64_t now) {
  const int64_t id = checkpoint->id;
  auto pending = pending_.find(id);
  if (pending == pending_.end()) return;  // expired meanwhile: the job aborts it
  const int64_t triggerTime = pending->second;
  pending_.erase(pending);
  if (auto savepoint = pendingSavepoints_.find(id); savepoint != pendingSavepoints_.end()) {
    std::shared_ptr<SavepointRequest> request = std::move(savepoint->second);
    pendingSavepoints_.erase(savepoint);
    completeSavepoint(checkpoint, *request, now);
    return;
  }
  std::string location;
  try {
    location = storage_->store(*checkpoint);
  } catch (const std::exception&) {
    // Flink logs the cause and counts the failure; the job goes on until the tolerable number
    // of failures is exceeded.
    job_.abortCheckpoint(id);
    recordFailure(now);
    return;
  }
  const size_t keep = static_cast<size_t>(std::max(1, configuration_.numRetained));
  if (hook_) {
    // What is kept once this one completes, recorded before the job commits anything of it.
    RetainedCheckpoints kept(retained_.begin(), retained_.end());
    kept.emplace_back(id, location);
    if (kept.size() > keep) kept.erase(kept.begin(), kept.end() - static_cast<ptrdiff_t>(keep));
    if (!tellHook(kept)) {
      tellHook(RetainedCheckpoints(retained_.begin(), retained_.end()));  // back, if it moved
      storage_->discard(id);
      job_.abortCheckpoint(id);
      recordFailure(now);
      return;
    }
  }
  if (!job_.completeCheckpoint(id)) {
    if (hook_) tellHook(RetainedCheckpoints(retained_.begin(), retained_.end()));
    storage_->discard(id);  // the job ended before it could complete
    triggeringStopped_ = true;
    return;
  }
  lastCheckpointEnd_ = now;
  consecutiveFailures_ = 0;
  if (stats_) stats_->reportCompleted(*checkpoint, triggerTime, now);
  retained_.emplace_back(id, std::move(location));
  latestCompleted_ = checkpoint;
  while (retained_.size() > keep) {
    storage_->discard(retained_.front().first);
    retained_.pop_front();
  }
}

void CheckpointCoordinator::recordFailure(int64_t now) {
  lastCheckpointEnd_ = now;
  ++consecutiveFailures_;
  if (stats_) stats_->reportFailed();
}

bool CheckpointCoordinator::triggerBlockedByPending() const {
  // A savepoint goes first and alone: an overlapping checkpoint's barriers would abort it.
  if (!waitingSavepoints_.empty() || !pendingSavepoints_.empty()) return true;
  if (pending_.size() >= static_cast<size_t>(configuration_.maxConcurrentCheckpoints)) return true;
  // A minimum pause counts from the end of the previous checkpoint, so one runs at a time.
  return configuration_.minPauseMillis > 0 && !pending_.empty();
}

void CheckpointCoordinator::maybeTrigger(int64_t now) {
  if (triggeringStopped_ || configuration_.intervalMillis <= 0) return;
  if (now < nextTriggerTime_ || triggerBlockedByPending()) return;
  if (lastCheckpointEnd_ != kNotYet && now < lastCheckpointEnd_ + configuration_.minPauseMillis) {
    return;
  }
  const int64_t id = nextCheckpointId_++;
  storage_->initializeLocation(id);  // before any task writes its state file there
  pending_.emplace(id, now);
  nextTriggerTime_ = now + configuration_.intervalMillis;
  CheckpointOptions options;
  options.alignment = configuration_.alignment;
  if (!job_.triggerCheckpoint(id, options)) {
    pending_.erase(id);
    triggeringStopped_ = true;
  }
}

int64_t CheckpointCoordinator::nextDueTime() const {
  int64_t due = kNever;
  // A trigger blocked by pending checkpoints waits for their end, an event.
  if (!triggeringStopped_ && configuration_.intervalMillis > 0 && !triggerBlockedByPending()) {
    due = nextTriggerTime_;
    if (lastCheckpointEnd_ != kNotYet) {
      due = std::max(due, lastCheckpointEnd_ + configuration_.minPauseMillis);
    }
  }
  for (const auto& [id, triggerTime] : pending_) {
    due = std::min(due, triggerTime + configuration_.timeoutMillis);
  }
  return due;
}

void CheckpointCoordinator::startTimerThread() {
  timerThread_ = std::thread([this] { timerLoop(); });
}

void CheckpointCoordinator::timerLoop() {
  while (true) {
    const int64_t due = runDueWork();
    std::unique_lock lock(mutex_);
    auto eventOrShutdown = [this] {
      return shutDown_ || !acknowledged_.empty() || !aborted_.empty() ||
             !queuedSavepoints_.empty();
    };
    if (due == kNever) {
      wakeUp_.wait(lock, eventOrShutdown);
    } else {
      const int64_t wait = due - clock_.currentTimeMillis();
      if (wait > 0) wakeUp_.wait_for(lock, std::chrono::milliseconds(wait), eventOrShutdown);
    }
    if (shutDown_) return;
  }
}

void CheckpointCoordinator::shutdown(JobStatus status) {
  std::deque<std::shared_ptr<SavepointRequest>> unsettled;
  {
    std::lock_guard lock(mutex_);
    if (shutDown_) return;
    shutDown_ = true;
    acknowledged_.clear();  // the job completes nothing any more
    aborted_.clear();
    unsettled.swap(queuedSavepoints_);
  }
  wakeUp_.notify_all();
  if (timerThread_.joinable()) timerThread_.join();
  // What the tasks wrote of checkpoints still pending goes with storage_->close() below.
  pending_.clear();
  if (stats_) stats_->reportInProgress(0);
  // Their requests fail as they go (SavepointRequest's destructor): the job ended.
  unsettled.clear();
  waitingSavepoints_.clear();
  pendingSavepoints_.clear();
  const bool keep =
      retains(status) || (status == JobStatus::FAILED && configuration_.retainOnFailure);
  if (!keep) {
    if (hook_ && !retained_.empty()) tellHook({});
    for (const auto& [id, location] : retained_) storage_->discard(id);
    retained_.clear();
  }
  storage_->close();
}

bool CheckpointCoordinator::retains(JobStatus status) const {
  switch (configuration_.retention) {
    case CheckpointRetention::NO_EXTERNALIZED_CHECKPOINTS:
      return false;
    case CheckpointRetention::DELETE_ON_CANCELLATION:
      return status == JobStatus::FAILED;
    case CheckpointRetention::RETAIN_ON_CANCELLATION:
      return status == JobStatus::FAILED || status == JobStatus::CANCELED;
  }
  return false;
}

void CheckpointCoordinator::adoptRetainedCheckpoints(CheckpointCoordinator& previous) {
  retained_ = std::move(previous.retained_);
  previous.retained_.clear();
  latestCompleted_ = previous.latestCompleted_;
}

void CheckpointCoordinator::applyRetention(JobStatus status) {
  if (retains(status)) return;
  if (hook_ && !retained_.empty()) tellHook({});
  for (const auto& [id, location] : retained_) storage_->discard(id);
  retained_.clear();
  storage_->close();  // again: the job's directory may be empty only now
}

void CheckpointCoordinator::adoptRetainedCheckpoints(
    RetainedCheckpoints retained, std::shared_ptr<const CompletedCheckpoint> latest) {
  retained_.assign(std::make_move_iterator(retained.begin()),
                   std::make_move_iterator(retained.end()));
  latestCompleted_ = std::move(latest);
}

bool CheckpointCoordinator::tellHook(const RetainedCheckpoints& retained) noexcept {
  if (!hook_) return true;
  try {
    hook_(retained);
    return true;
  } catch (...) {
    return false;
  }
}

std::vector<int64_t> CheckpointCoordinator::retainedCheckpointIds() const {
  std::vector<int64_t> ids;
  for (const auto& [id, location] : retained_) ids.push_back(id);
  return ids;
}

std::string CheckpointCoordinator::latestCompletedCheckpointLocation() const {
  return retained_.empty() ? std::string() : retained_.back().second;
}

// ---- savepoints -----------------------------------------------------------------------

void CheckpointCoordinator::triggerSavepoint(std::shared_ptr<SavepointRequest> request) {
  {
    std::lock_guard lock(mutex_);
    if (!shutDown_) {
      queuedSavepoints_.push_back(std::move(request));
      request = nullptr;
    }
  }
  if (request) {
    request->fail(kSavepointTasksNotRunning);  // the job has ended
    return;
  }
  wakeUp_.notify_all();
}

void CheckpointCoordinator::maybeTriggerSavepoint(int64_t now) {
  if (triggeringStopped_) {
    // The job ended, or a stop-with-savepoint completed: nothing is triggered any more.
    for (const auto& request : waitingSavepoints_) request->fail(kSavepointTasksNotRunning);
    waitingSavepoints_.clear();
    return;
  }
  // One at a time, after the checkpoints that are pending (min-pause and the interval do not
  // apply: Flink's savepoints are forced).
  if (waitingSavepoints_.empty() || !pending_.empty()) return;
  std::shared_ptr<SavepointRequest> request = std::move(waitingSavepoints_.front());
  waitingSavepoints_.pop_front();
  const int64_t id = nextCheckpointId_++;
  pending_.emplace(id, now);
  pendingSavepoints_.emplace(id, request);
  CheckpointOptions options;
  options.snapshotType = SnapshotType::SAVEPOINT;
  // Always a consistent cut, also in AT_LEAST_ONCE jobs (a stop-with-savepoint ends the job on
  // it): nothing behind a barrier reaches the snapshot.
  options.alignment = CheckpointOptions::AlignmentType::ALIGNED;
  const bool triggered = request->mode() == SavepointStopMode::NONE
                             ? job_.triggerCheckpoint(id, options)
                             : job_.triggerStopWithSavepoint(id, options, request->mode());
  if (!triggered) {
    pending_.erase(id);
    pendingSavepoints_.erase(id);
    request->fail(kSavepointTasksNotRunning);
    triggeringStopped_ = true;
  }
}

void CheckpointCoordinator::completeSavepoint(
    const std::shared_ptr<const CompletedCheckpoint>& checkpoint, SavepointRequest& request,
    int64_t now) {
  std::string location;
  try {
    location = writeSavepoint(*checkpoint, request);
  } catch (...) {
    job_.abortCheckpoint(checkpoint->id);
    request.fail(std::current_exception());
    return;
  }
  // A stop-with-savepoint's completion is notified: the job ends on it, so its sinks commit
  // what it holds. Another savepoint's is not (Flink's FLINK-25191): a restart goes back to the
  // latest checkpoint, which must find nothing committed beyond it.
  const bool stops = request.mode() != SavepointStopMode::NONE;
  const bool completed = stops ? job_.completeCheckpoint(checkpoint->id)
                               : job_.completeSavepoint(checkpoint->id);
  if (!completed) {
    std::error_code ignored;
    std::filesystem::remove_all(location, ignored);
    request.fail(kSavepointJobEnded);
    triggeringStopped_ = true;
    return;
  }
  lastCheckpointEnd_ = now;
  if (stops) {
    latestCompleted_ = checkpoint;
    triggeringStopped_ = true;  // the job ends on it: no checkpoint follows
  }
  request.complete(location);
}

bool CheckpointCoordinator::failSavepoint(int64_t id, const char* reason) {
  auto found = pendingSavepoints_.find(id);
  if (found == pendingSavepoints_.end()) return false;
  found->second->fail(reason);
  pendingSavepoints_.erase(found);
  return true;
}

}  // namespace eddy::runtime
