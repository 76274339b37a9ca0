#include "runtime/checkpoint_coordinator.h"

#include <algorithm>
#include <chrono>
#include <exception>

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
  }
  const int64_t now = clock_.currentTimeMillis();
  for (const auto& checkpoint : acknowledged) storeAndComplete(checkpoint, now);
  for (const auto& [id, reason] : aborted) {
    // Unknown ids were already settled here (expired, storage failed, completed).
    if (pending_.erase(id) == 0) continue;
    if (reason == CheckpointFailureReason::JOB_ENDED) {
      triggeringStopped_ = true;
    } else {
      recordFailure(now);
    }
  }
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second + configuration_.timeoutMillis <= now) {
      int64_t id = it->first;
      it = pending_.erase(it);
      job_.abortCheckpoint(id);
      recordFailure(now);
    } else {
      ++it;
    }
  }
  if (!triggeringStopped_ && consecutiveFailures_ > configuration_.tolerableFailedCheckpoints) {
    triggeringStopped_ = true;
    job_.failJob(kTolerableFailureThresholdExceeded);
  }
  maybeTrigger(now);
  return nextDueTime();
}

void CheckpointCoordinator::storeAndComplete(
    const std::shared_ptr<const CompletedCheckpoint>& checkpoint, int64_t now) {
  const int64_t id = checkpoint->id;
  if (pending_.erase(id) == 0) return;  // expired meanwhile: the job aborts it
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
  if (!job_.completeCheckpoint(id)) {
    storage_->discard(id);  // the job ended before it could complete
    triggeringStopped_ = true;
    return;
  }
  lastCheckpointEnd_ = now;
  consecutiveFailures_ = 0;
  retained_.emplace_back(id, std::move(location));
  latestCompleted_ = checkpoint;
  while (retained_.size() > static_cast<size_t>(std::max(1, configuration_.numRetained))) {
    storage_->discard(retained_.front().first);
    retained_.pop_front();
  }
}

void CheckpointCoordinator::recordFailure(int64_t now) {
  lastCheckpointEnd_ = now;
  ++consecutiveFailures_;
}

bool CheckpointCoordinator::triggerBlockedByPending() const {
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
      return shutDown_ || !acknowledged_.empty() || !aborted_.empty();
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
  {
    std::lock_guard lock(mutex_);
    if (shutDown_) return;
    shutDown_ = true;
    acknowledged_.clear();  // the job completes nothing any more
    aborted_.clear();
  }
  wakeUp_.notify_all();
  if (timerThread_.joinable()) timerThread_.join();
  pending_.clear();
  const bool keep =
      retains(status) || (status == JobStatus::FAILED && configuration_.retainOnFailure);
  if (!keep) {
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
  for (const auto& [id, location] : retained_) storage_->discard(id);
  retained_.clear();
  storage_->close();  // again: the job's directory may be empty only now
}

std::vector<int64_t> CheckpointCoordinator::retainedCheckpointIds() const {
  std::vector<int64_t> ids;
  for (const auto& [id, location] : retained_) ids.push_back(id);
  return ids;
}

std::string CheckpointCoordinator::latestCompletedCheckpointLocation() const {
  return retained_.empty() ? std::string() : retained_.back().second;
}

}  // namespace eddy::runtime
