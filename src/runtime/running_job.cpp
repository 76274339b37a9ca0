#include "runtime/running_job.h"

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "common/check.h"
#include "eddy/connector/source.h"
#include "eddy/exceptions.h"
#include "eddy/state/operator_state_store.h"
#include "runtime/finalize_on_master.h"
#include "runtime/stream_task.h"

namespace eddy::runtime {

namespace {
// Enough queued batches per producer to keep it busy while the consumer works, few enough
// to bound memory: each element is at most one batch of kDefaultBatchSize records. Four per
// channel (eight for a single channel), as the shared queue of max(8, 4 x channels) before.
size_t channelCapacity(int channelCount) { return channelCount == 1 ? 8 : 4; }

// Flink's JobID: 16 random bytes as 32 lower-case hex digits.
std::string randomJobId() {
  std::random_device device;
  std::mt19937_64 random((uint64_t{device()} << 32) ^ device());
  uint64_t high = random();
  uint64_t low = random();
  return fmt::format("{:016x}{:016x}", high, low);
}
}  // namespace

namespace {

// A checkpoint whose tasks wrote their state into files (file-system storage) is read back once,
// when the job is created: every task restores from memory.
TaskSettings withRestoredStateInMemory(TaskSettings settings) {
  settings.restoredCheckpoint = withStateInMemory(std::move(settings.restoredCheckpoint));
  return settings;
}

}  // namespace

RunningJob::RunningJob(std::string name, graph::JobGraph graph, const Clock& clock,
                       TaskSettings settings, std::string jobId)
    : name_(std::move(name)),
      jobId_(jobId.empty() ? randomJobId() : std::move(jobId)),
      graph_(std::move(graph)),
      clock_(clock),
      settings_(withRestoredStateInMemory(std::move(settings))) {
  gates_.resize(graph_.vertices.size());
  mailboxes_.resize(graph_.vertices.size());
  finishedTasks_.resize(graph_.vertices.size());
  awaitingFinalCheckpoint_.resize(graph_.vertices.size());
  for (size_t v = 0; v < graph_.vertices.size(); ++v) {
    const graph::JobVertex& vertex = graph_.vertices[v];
    gates_[v].resize(vertex.parallelism);
    finishedTasks_[v].assign(static_cast<size_t>(vertex.parallelism), false);
    awaitingFinalCheckpoint_[v].assign(static_cast<size_t>(vertex.parallelism), false);
    for (int s = 0; s < vertex.parallelism; ++s) {
      if (!vertex.isSource) {
        gates_[v][s] = std::make_unique<InputGate>(vertex.inputChannelCount,
                                                   channelCapacity(vertex.inputChannelCount));
      }
      mailboxes_[v].push_back(std::make_unique<Mailbox>(gates_[v][s].get()));
    }
  }
}

RunningJob::~RunningJob() {
  cancel();
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  stopAsyncCalls();      // when the job never ran its tasks to their end
  coordinator_.reset();  // stops its timer thread if the job never ran
}

void RunningJob::setCheckpointCoordinator(std::unique_ptr<CheckpointCoordinator> coordinator) {
  EDDY_CHECK(threads_.empty());
  coordinator_ = std::move(coordinator);
}

void RunningJob::start() {
  createSourceCoordinators();  // before any reader registers
  startTime_ = std::chrono::steady_clock::now();
  int taskCount = 0;
  for (const graph::JobVertex& vertex : graph_.vertices) taskCount += vertex.parallelism;
  runningTasks_ = taskCount;
  for (size_t v = 0; v < graph_.vertices.size(); ++v) {
    for (int s = 0; s < graph_.vertices[v].parallelism; ++s) {
      threads_.emplace_back([this, v, s] { runSubtask(static_cast<int>(v), s); });
    }
  }
  if (coordinator_) coordinator_->startTimerThread();
}

void RunningJob::runSubtask(int vertex, int subtask) {
  std::unique_ptr<StreamTask> task;
  try {
    task = std::make_unique<StreamTask>(
        *this, graph_, vertex, subtask, gates_[vertex][subtask].get(),
        [this](int v, int s) { return gates_[v][s].get(); }, clock_, settings_);
    task->run();
  } catch (const TaskCancelled&) {
    // The job is being cancelled: leave quietly.
  } catch (const std::exception& error) {
    reportFailure(task ? task->failedOperatorName() : graph_.vertices[vertex].name, subtask,
                  graph_.vertices[vertex].parallelism, error.what());
  } catch (...) {
    reportFailure(task ? task->failedOperatorName() : graph_.vertices[vertex].name, subtask,
                  graph_.vertices[vertex].parallelism, "unknown exception");
  }
  task.reset();
  // Nothing runs this task's mail any more. (A task that failed or was cancelled leaves its
  // checkpoints pending; cancelGates aborts them.)
  mailboxes_[vertex][subtask]->close();
  if (runningTasks_.fetch_sub(1) == 1) {
    {
      std::lock_guard lock(checkpointMutex_);
      checkpointsStopped_ = true;
      while (!pendingCheckpoints_.empty()) {
        abortCheckpointLocked(pendingCheckpoints_.begin()->first, CheckpointFailureReason::JOB_ENDED);
      }
    }
    closeSourceCoordinators();
    // Every task ended: a job that succeeded commits its job-level output (BATCH file sinks).
    finalizeOnMasterIfSucceeded();
    if (coordinator_) {
      // Before waiters return: the retention policy has run when waitForCompletion returns.
      JobStatus endStatus;
      {
        std::lock_guard lock(mutex_);
        endStatus = failed_ ? JobStatus::FAILED
                            : (cancelRequested_ ? JobStatus::CANCELED : JobStatus::FINISHED);
      }
      coordinator_->shutdown(endStatus);
    }
    std::lock_guard lock(mutex_);
    netRuntimeMillis_ = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - startTime_)
                            .count();
    ended_ = true;
    finished_.notify_all();
  }
}

void RunningJob::finalizeOnMasterIfSucceeded() {
  {
    std::lock_guard lock(mutex_);
    if (failed_ || cancelRequested_) return;
  }
  for (const graph::JobVertex& vertex : graph_.vertices) {
    for (const graph::ChainedOperator& chained : vertex.operators) {
      const auto* finalizer =
          dynamic_cast<const FinalizeOnMaster*>(chained.transformation->operatorFactory.get());
      if (finalizer == nullptr) continue;
      try {
        finalizer->finalizeGlobal(vertex.parallelism);
      } catch (const std::exception& error) {
        std::lock_guard lock(mutex_);
        failed_ = true;
        failureMessage_ = "Job '" + name_ + "' failed: finalizing operator '" +
                          chained.transformation->name + "' threw: " + error.what();
        return;  // the other factories' output is not committed either
      }
    }
  }
}

void RunningJob::reportFailure(const std::string& operatorName, int subtaskIndex,
                               int parallelism, const std::string& message) {
  {
    std::lock_guard lock(mutex_);
    if (failed_ || cancelRequested_) return;  // the first failure is the cause
    failed_ = true;
    failureMessage_ = "Job '" + name_ + "' failed: operator '" + operatorName + "' (subtask " +
                      std::to_string(subtaskIndex + 1) + "/" + std::to_string(parallelism) +
                      ") threw: " + message;
  }
  cancelGates();
}

void RunningJob::cancelGates() {
  cancelled_ = true;
  {
    std::lock_guard lock(checkpointMutex_);
    checkpointsStopped_ = true;
    while (!pendingCheckpoints_.empty()) {
      abortCheckpointLocked(pendingCheckpoints_.begin()->first, CheckpointFailureReason::JOB_ENDED);
    }
  }
  for (auto& mailboxes : mailboxes_) {
    for (auto& mailbox : mailboxes) mailbox->close();  // wakes a waiting source task
  }
  for (auto& gates : gates_) {
    for (auto& gate : gates) {
      if (gate) gate->cancel();
    }
  }
}

void RunningJob::failJob(const std::string& message) {
  {
    std::lock_guard lock(mutex_);
    if (failed_ || cancelRequested_ || runningTasks_ == 0) return;
    failed_ = true;
    failureMessage_ = "Job '" + name_ + "' failed: " + message;
  }
  cancelGates();
}

void RunningJob::cancel() {
  {
    std::lock_guard lock(mutex_);
    if (runningTasks_ == 0 || failed_) return;
    cancelRequested_ = true;
  }
  cancelGates();
}

void RunningJob::waitForCompletion() {
  {
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [this] { return ended_; });
    if (!joined_) {
      joined_ = true;
      lock.unlock();
      for (std::thread& thread : threads_) {
        if (thread.joinable()) thread.join();
      }
      lock.lock();
    }
    if (failed_) throw JobExecutionException(failureMessage_);
  }
}

JobStatus RunningJob::status() const {
  std::lock_guard lock(mutex_);
  if (failed_) return JobStatus::FAILED;
  // Until ended_, the last task may still be finalizing (committing the job's output).
  if (runningTasks_ > 0 || !ended_) {
    return cancelRequested_ ? JobStatus::CANCELED : JobStatus::RUNNING;
  }
  return cancelRequested_ ? JobStatus::CANCELED : JobStatus::FINISHED;
}

// ---- checkpoints ---------------------------------------------------------------------

bool RunningJob::triggerCheckpoint(int64_t id, CheckpointOptions options) {
  std::lock_guard lock(checkpointMutex_);
  if (checkpointsStopped_ || cancelled()) return false;
  if (id <= latestTriggeredId_) {
    throw InternalError("checkpoint " + std::to_string(id) + " triggered after checkpoint " +
                        std::to_string(latestTriggeredId_) + ": ids must increase");
  }
  latestTriggeredId_ = id;
  // The sources' split enumerators first, the triggers after, under one lock (see
  // registerSourceReader): a split assigned after an enumerator's snapshot reaches its reader
  // after the reader's own snapshot of this checkpoint.
  std::unique_lock coordinatorLock(coordinatorMutex_);
  if (!snapshotSourceCoordinatorsLocked(id)) return false;
  const CheckpointBarrier barrier{id, clock_.currentTimeMillis(), options};
  PendingCheckpoint& pending =
      pendingCheckpoints_.try_emplace(id, barrier, graph_).first->second;
  for (size_t v = 0; v < graph_.vertices.size(); ++v) {
    for (int s = 0; s < graph_.vertices[v].parallelism; ++s) {
      if (finishedTasks_[v][static_cast<size_t>(s)]) {
        pending.acknowledgeFinished(static_cast<int>(v), s);
      } else if (graph_.vertices[v].isSource || awaitingFinalCheckpoint_[v][static_cast<size_t>(s)]) {
        mailboxes_[v][s]->put(TriggerCheckpointMail{barrier});
      }
    }
  }
  coordinatorLock.unlock();  // completing notifies the enumerators, which takes it again
  completeIfFullyAcknowledgedLocked(id);  // every task may have finished already
  return true;
}

bool RunningJob::triggerStopWithSavepoint(int64_t id, CheckpointOptions options,
                                          SavepointStopMode mode) {
  {
    // Before the triggers: a task reads it when it takes the savepoint.
    std::lock_guard lock(checkpointMutex_);
    stopSavepointId_ = id;
    stopSavepointMode_ = mode;
  }
  return triggerCheckpoint(id, options);
}

bool RunningJob::completeSavepoint(int64_t id) {
  std::lock_guard lock(checkpointMutex_);
  auto stored = beingStored_.find(id);
  if (stored == beingStored_.end()) return false;
  std::shared_ptr<const CompletedCheckpoint> checkpoint = std::move(stored->second);
  beingStored_.erase(stored);
  pendingCheckpoints_.erase(id);
  // No notification; a finished task waiting for the savepoint to end sees it no longer
  // pending, and this mail, which does nothing else, wakes it now.
  sendToAllTasksLocked(MailAction([] {}));
  recordOutcomeLocked(id, CheckpointOutcome{CheckpointStatus::COMPLETED, std::move(checkpoint)});
  return true;
}

std::filesystem::path RunningJob::stateDirectoryOf(int64_t checkpointId,
                                                  const CheckpointOptions& options) const {
  // A savepoint's state is handed over as bytes and written to its own directory.
  if (coordinator_ == nullptr || options.isSavepoint()) return {};
  return coordinator_->stateDirectory(checkpointId);
}

SavepointStopMode RunningJob::stopModeOf(int64_t checkpointId) const {
  std::lock_guard lock(checkpointMutex_);
  return checkpointId == stopSavepointId_ ? stopSavepointMode_ : SavepointStopMode::NONE;
}

CheckpointOutcome RunningJob::waitForCheckpoint(
    int64_t id, std::chrono::steady_clock::time_point deadline) const {
  std::unique_lock lock(checkpointMutex_);
  checkpointChanged_.wait_until(lock, deadline, [&] { return outcomes_.contains(id); });
  auto found = outcomes_.find(id);
  return found == outcomes_.end() ? CheckpointOutcome{} : found->second;
}

void RunningJob::acknowledgeCheckpoint(int vertex, int subtask, int64_t id,
                                       std::vector<OperatorSnapshot> chainSnapshots,
                                       const SubtaskCheckpointTiming& timing) {
  std::lock_guard lock(checkpointMutex_);
  auto pending = pendingCheckpoints_.find(id);
  if (pending == pendingCheckpoints_.end()) return;  // aborted meanwhile
  pending->second.acknowledge(vertex, subtask, std::move(chainSnapshots), timing);
  completeIfFullyAcknowledgedLocked(id);
}

void RunningJob::declineCheckpoint(int /*vertex*/, int /*subtask*/, int64_t id) {
  std::lock_guard lock(checkpointMutex_);
  if (pendingCheckpoints_.contains(id)) abortCheckpointLocked(id, CheckpointFailureReason::DECLINED);
}

bool RunningJob::completeCheckpoint(int64_t id) {
  std::lock_guard lock(checkpointMutex_);
  auto stored = beingStored_.find(id);
  if (stored == beingStored_.end()) return false;
  std::shared_ptr<const CompletedCheckpoint> checkpoint = std::move(stored->second);
  beingStored_.erase(stored);
  completeCheckpointLocked(id, std::move(checkpoint));
  return true;
}

void RunningJob::abortCheckpoint(int64_t id) {
  std::lock_guard lock(checkpointMutex_);
  // Asked by the coordinator, which already counted the failure; the reason is not reported
  // back to it as a new one (it ignores ids it no longer holds pending).
  if (pendingCheckpoints_.contains(id)) abortCheckpointLocked(id, CheckpointFailureReason::EXPIRED);
}

void RunningJob::taskAwaitsFinalCheckpoint(int vertex, int subtask) {
  std::lock_guard lock(checkpointMutex_);
  awaitingFinalCheckpoint_[static_cast<size_t>(vertex)][static_cast<size_t>(subtask)] = true;
  // A checkpoint triggered before: its barriers may never reach this task (they went after the
  // end of its inputs, or the inputs had finished), so it is triggered here.
  for (const auto& [id, pending] : pendingCheckpoints_) {
    if (beingStored_.contains(id) || pending.isAcknowledgedWithSnapshotBy(vertex, subtask)) continue;
    mailboxes_[static_cast<size_t>(vertex)][static_cast<size_t>(subtask)]->put(
        TriggerCheckpointMail{pending.barrier()});
  }
}

void RunningJob::taskFinished(int vertex, int subtask) {
  std::lock_guard lock(checkpointMutex_);
  finishedTasks_[static_cast<size_t>(vertex)][static_cast<size_t>(subtask)] = true;
  awaitingFinalCheckpoint_[static_cast<size_t>(vertex)][static_cast<size_t>(subtask)] = false;
  std::vector<int64_t> ids;
  for (auto& [id, pending] : pendingCheckpoints_) {
    if (pending.acknowledgeFinished(vertex, subtask)) ids.push_back(id);
  }
  for (int64_t id : ids) completeIfFullyAcknowledgedLocked(id);
}

bool RunningJob::hasPendingCheckpointAcknowledgedBy(int vertex, int subtask) const {
  std::lock_guard lock(checkpointMutex_);
  for (const auto& [id, pending] : pendingCheckpoints_) {
    if (pending.isAcknowledgedWithSnapshotBy(vertex, subtask)) return true;
  }
  return false;
}

void RunningJob::completeIfFullyAcknowledgedLocked(int64_t id) {
  auto pending = pendingCheckpoints_.find(id);
  if (pending == pendingCheckpoints_.end() || !pending->second.isFullyAcknowledged()) return;
  if (beingStored_.contains(id)) return;
  std::shared_ptr<const CompletedCheckpoint> checkpoint =
      withSourceCoordinatorStatesLocked(id, pending->second.finalizeCheckpoint());
  if (coordinator_) {
    // Stays pending until the coordinator has stored it and calls completeCheckpoint.
    beingStored_.emplace(id, checkpoint);
    coordinator_->checkpointAcknowledged(std::move(checkpoint));
    return;
  }
  completeCheckpointLocked(id, std::move(checkpoint));
}

void RunningJob::completeCheckpointLocked(int64_t id,
                                          std::shared_ptr<const CompletedCheckpoint> checkpoint) {
  pendingCheckpoints_.erase(id);
  notifySourceCoordinatorsOfCompletionLocked(id);
  // Mail first, outcome after: a finished task that sees nothing pending any more finds the
  // notification in its mailbox already.
  sendToAllTasksLocked(CheckpointCompleteMail{id});
  recordOutcomeLocked(id, CheckpointOutcome{CheckpointStatus::COMPLETED, std::move(checkpoint)});
}

void RunningJob::abortCheckpointLocked(int64_t id, CheckpointFailureReason reason) {
  pendingCheckpoints_.erase(id);
  beingStored_.erase(id);
  pendingSourceCoordinatorStates_.erase(id);
  if (coordinator_) coordinator_->checkpointAborted(id, reason);
  sendToAllTasksLocked(CheckpointAbortedMail{id});
  recordOutcomeLocked(id, CheckpointOutcome{CheckpointStatus::ABORTED, nullptr});
}

void RunningJob::recordOutcomeLocked(int64_t id, CheckpointOutcome outcome) {
  outcomes_[id] = std::move(outcome);
  while (outcomes_.size() > kRetainedOutcomes) outcomes_.erase(outcomes_.begin());
  checkpointChanged_.notify_all();
}

void RunningJob::sendToAllTasksLocked(const Mail& mail) {
  // A task that has ended closed its mailbox, which drops the mail.
  for (auto& mailboxes : mailboxes_) {
    for (auto& mailbox : mailboxes) mailbox->put(mail);
  }
}

// ---- source coordinators -------------------------------------------------------------
// The split enumerators of the job's connector::Source sources (see registerSourceReader).

/// One source vertex's coordinator: the source's enumerator (with its serializers) and the
/// context through which it reaches the vertex's readers: their tasks' mailboxes.
class RunningJob::SourceCoordinatorHost final : public connector::detail::SourceCoordinatorContext {
 public:
  SourceCoordinatorHost(RunningJob& job, int vertex) : job_(job), vertex_(vertex) {}

  const graph::ChainedOperator& source() const {
    return job_.graph_.vertices[static_cast<size_t>(vertex_)].operators[0];
  }

  int currentParallelism() const override {
    return job_.graph_.vertices[static_cast<size_t>(vertex_)].parallelism;
  }
  void assignSplits(int subtask, std::vector<std::string> splits) override {
    mailboxOf(subtask, "assigned splits to").put(AddSplitsMail{std::move(splits)});
  }
  void signalNoMoreSplits(int subtask) override {
    mailboxOf(subtask, "signalled no more splits to").put(NoMoreSplitsMail{});
  }
  void runAsync(std::function<std::function<void()>()> call, std::chrono::milliseconds initialDelay,
                std::chrono::milliseconds period) override {
    job_.scheduleAsyncCall(AsyncCall{vertex_, std::move(call),
                                     std::chrono::steady_clock::now() + initialDelay, period});
  }
  const std::string& sourceName() const override { return source().transformation->name; }

  std::unique_ptr<connector::detail::SourceCoordinator> coordinator;

 private:
  Mailbox& mailboxOf(int subtask, const char* what) const {
    if (subtask < 0 || subtask >= currentParallelism()) {
      throw ValidationException(fmt::format(
          "The split enumerator of source '{}' {} subtask {}, but the source has {} subtasks",
          sourceName(), what, subtask, currentParallelism()));
    }
    return *job_.mailboxes_[static_cast<size_t>(vertex_)][static_cast<size_t>(subtask)];
  }

  RunningJob& job_;
  const int vertex_;
};

namespace {

// Whether any subtask of operator `uid` kept reader splits in `checkpoint`.
bool hasSourceReaderState(const CompletedCheckpoint& checkpoint, const std::string& uid) {
  auto found = checkpoint.operators.find(uid);
  if (found == checkpoint.operators.end()) return false;
  const std::string name = std::string(state::kOperatorListStatePrefix) +
                           std::string(connector::detail::kSourceReaderStateName);
  for (const OperatorSnapshot& snapshot : found->second) {
    if (snapshot.operatorState.contains(name)) return true;
  }
  return false;
}

}  // namespace

void RunningJob::createSourceCoordinators() {
  const CompletedCheckpoint* restored = settings_.restoredCheckpoint.get();
  sourceCoordinators_.resize(graph_.vertices.size());
  for (size_t v = 0; v < graph_.vertices.size(); ++v) {
    const graph::JobVertex& vertex = graph_.vertices[v];
    if (!vertex.isSource || !vertex.operators[0].sourceCoordinatorProvider) continue;
    const graph::ChainedOperator& source = vertex.operators[0];
    const std::string* state = nullptr;
    if (restored != nullptr) {
      auto found = restored->sourceCoordinators.find(source.uid);
      if (found != restored->sourceCoordinators.end()) {
        state = &found->second;
      } else if (hasSourceReaderState(*restored, source.uid)) {
        // A fresh enumerator would hand out again what the restored readers hold.
        throw ValidationException(fmt::format(
            "Cannot restore source '{}' (uid {}) from checkpoint {}: the checkpoint holds the "
            "splits of its readers but not the state of its split enumerator",
            source.transformation->name, source.uid, restored->id));
      }
    }
    auto host = std::make_unique<SourceCoordinatorHost>(*this, static_cast<int>(v));
    host->coordinator = source.sourceCoordinatorProvider->createCoordinator(*host, state);
    sourceCoordinators_[v] = std::move(host);
  }
  std::lock_guard lock(coordinatorMutex_);
  for (const auto& host : sourceCoordinators_) {
    if (host) host->coordinator->start();
  }
}

void RunningJob::registerSourceReader(int vertex, int subtask) {
  std::lock_guard lock(coordinatorMutex_);
  const auto& host = sourceCoordinators_[static_cast<size_t>(vertex)];
  if (host) host->coordinator->addReader(subtask);
}

void RunningJob::requestSourceSplit(int vertex, int subtask) {
  std::lock_guard lock(coordinatorMutex_);
  const auto& host = sourceCoordinators_[static_cast<size_t>(vertex)];
  if (host) host->coordinator->handleSplitRequest(subtask);
}

bool RunningJob::snapshotSourceCoordinatorsLocked(int64_t id) {
  std::map<std::string, std::string> states;
  for (size_t v = 0; v < sourceCoordinators_.size(); ++v) {
    const auto& host = sourceCoordinators_[v];
    if (!host) continue;
    try {
      states.emplace(host->source().uid, host->coordinator->snapshotState(id));
    } catch (const std::exception& error) {
      failFromSourceTasks(static_cast<int>(v),
                          fmt::format("its split enumerator failed to snapshot checkpoint {}: {}",
                                      id, error.what()));
      return false;
    }
  }
  if (!states.empty()) pendingSourceCoordinatorStates_[id] = std::move(states);
  return true;
}

std::shared_ptr<const CompletedCheckpoint> RunningJob::withSourceCoordinatorStatesLocked(
    int64_t id, std::shared_ptr<const CompletedCheckpoint> checkpoint) {
  auto states = pendingSourceCoordinatorStates_.find(id);
  if (states == pendingSourceCoordinatorStates_.end()) return checkpoint;
  // PendingCheckpoint::finalizeCheckpoint hands over the checkpoint it built (a non-const
  // object nobody else holds yet): the states are added before it is shared. (A
  // finalizeCheckpoint that took them would need no cast.)
  EDDY_CHECK(checkpoint.use_count() == 1);
  std::const_pointer_cast<CompletedCheckpoint>(checkpoint)->sourceCoordinators =
      std::move(states->second);
  pendingSourceCoordinatorStates_.erase(states);
  return checkpoint;
}

void RunningJob::notifySourceCoordinatorsOfCompletionLocked(int64_t id) {
  std::lock_guard lock(coordinatorMutex_);
  for (size_t v = 0; v < sourceCoordinators_.size(); ++v) {
    const auto& host = sourceCoordinators_[v];
    if (!host) continue;
    try {
      host->coordinator->notifyCheckpointComplete(id);
    } catch (const std::exception& error) {
      failFromSourceTasks(
          static_cast<int>(v),
          fmt::format("its split enumerator failed in notifyCheckpointComplete({}): {}", id,
                      error.what()));
    }
  }
}

void RunningJob::failFromSourceTasks(int vertex, const std::string& message) {
  // Thrown on a task thread, the failure names the source operator and fails the job as any
  // operator's does. A task that has ended drops the mail: when every task of the source has
  // finished, the job is failed directly, from a thread of its own (the caller holds the
  // checkpoint lock, which failJob takes).
  for (auto& mailbox : mailboxes_[static_cast<size_t>(vertex)]) {
    mailbox->put(MailAction([message] { throw ConnectorException(message); }));
  }
  const std::vector<bool>& finished = finishedTasks_[static_cast<size_t>(vertex)];
  if (std::find(finished.begin(), finished.end(), false) != finished.end()) return;
  if (std::shared_ptr<RunningJob> self = weak_from_this().lock()) {
    const std::string& name = graph_.vertices[static_cast<size_t>(vertex)].operators[0].transformation->name;
    std::thread([self, failure = "source '" + name + "': " + message] {
      self->failJob(failure);
    }).detach();
  }
}

void RunningJob::scheduleAsyncCall(AsyncCall call) {
  AsyncCalls& calls = *asyncCalls_;
  std::lock_guard lock(calls.mutex);
  if (calls.stopped) return;  // the job has ended
  calls.queue.push_back(std::move(call));
  if (!calls.started) {
    calls.started = true;
    std::thread([shared = asyncCalls_, this] { runAsyncCalls(shared, this); }).detach();
  }
  calls.changed.notify_all();
}

void RunningJob::runAsyncCalls(const std::shared_ptr<AsyncCalls>& shared, RunningJob* job) {
  AsyncCalls& calls = *shared;
  std::unique_lock lock(calls.mutex);
  while (!calls.stopped) {
    auto next =
        std::min_element(calls.queue.begin(), calls.queue.end(),
                         [](const AsyncCall& a, const AsyncCall& b) { return a.due < b.due; });
    if (next == calls.queue.end()) {
      calls.changed.wait(lock);
      continue;
    }
    if (next->due > std::chrono::steady_clock::now()) {
      calls.changed.wait_until(lock, next->due);
      continue;
    }
    AsyncCall call = std::move(*next);
    calls.queue.erase(next);
    lock.unlock();
    std::function<void()> handle;
    std::string failure;
    try {
      handle = call.call();
    } catch (const std::exception& error) {
      failure = error.what();
    } catch (...) {
      failure = "an unknown exception";
    }
    {
      std::lock_guard handling(calls.handling);
      if (calls.stopped) return;  // the job may be gone: touch nothing of it
      job->handleAsyncResult(call.vertex, handle, failure);
    }
    lock.lock();
    if (call.period.count() > 0 && failure.empty()) {
      call.due = std::chrono::steady_clock::now() + call.period;
      calls.queue.push_back(std::move(call));
    }
  }
}

void RunningJob::handleAsyncResult(int vertex, const std::function<void()>& handle,
                                   std::string failure) {
  std::lock_guard checkpointLock(checkpointMutex_);
  std::lock_guard coordinatorLock(coordinatorMutex_);
  if (handle && failure.empty()) {
    try {
      handle();
    } catch (const std::exception& error) {
      failure = error.what();
    } catch (...) {
      failure = "an unknown exception";
    }
  }
  if (failure.empty()) return;
  try {
    failFromSourceTasks(vertex, "its split enumerator failed in an asynchronous call: " + failure);
  } catch (...) {
    // Nothing is left to tell: the source's tasks have ended and no thread could be started.
  }
}

void RunningJob::stopAsyncCalls() noexcept {
  AsyncCalls& calls = *asyncCalls_;
  {
    std::lock_guard lock(calls.mutex);
    calls.stopped = true;
    calls.queue.clear();
    calls.changed.notify_all();
  }
  std::lock_guard handling(calls.handling);  // a handler that runs has finished
}

void RunningJob::closeSourceCoordinators() noexcept {
  stopAsyncCalls();  // no handler runs once an enumerator is closed
  std::lock_guard lock(coordinatorMutex_);
  for (const auto& host : sourceCoordinators_) {
    if (!host) continue;
    try {
      host->coordinator->close();
    } catch (...) {
      // The job has ended; nothing is left to fail.
    }
  }
}

}  // namespace eddy::runtime
