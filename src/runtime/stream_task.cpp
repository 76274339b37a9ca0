#include "runtime/stream_task.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>

#include "common/check.h"
#include "eddy/connector/source.h"
#include "eddy/exceptions.h"
#include "runtime/checkpoint_storage.h"
#include "runtime/running_job.h"
#include "eddy/state/keyed_state_backend.h"
#include "eddy/state/operator_state_store.h"
#include "state/state_redistribution.h"

namespace eddy::runtime {

/// Feeds the next operator of the same chain by a direct call.
class ChainedOutput final : public Output {
 public:
  ChainedOutput(StreamTask& task, int operatorIndex, StreamOperator& next)
      : task_(task), operatorIndex_(operatorIndex), next_(next) {}

  void emitBatch(BatchPtr batch) override {
    if (batch->size() == 0) return;
    int caller = task_.currentOperator;
    task_.currentOperator = operatorIndex_;
    next_.processBatch(0, std::move(batch));
    task_.currentOperator = caller;
  }
  void emitWatermark(Watermark watermark) override {
    int caller = task_.currentOperator;
    task_.currentOperator = operatorIndex_;
    next_.processWatermark(watermark);
    task_.currentOperator = caller;
  }
  void emitWatermarkStatus(WatermarkStatus status) override {
    int caller = task_.currentOperator;
    task_.currentOperator = operatorIndex_;
    next_.processWatermarkStatus(status);
    task_.currentOperator = caller;
  }

 private:
  StreamTask& task_;
  int operatorIndex_;
  StreamOperator& next_;
};

/// Partitions batches over the subtasks of a downstream vertex and ships them through their
/// gates; a pending batch leaves when full, on flush(), or before any control element.
class NetworkOutput final : public Output {
 public:
  NetworkOutput(std::unique_ptr<Partitioner> partitioner, std::vector<InputGate*> targets,
                int channel)
      : partitioner_(std::move(partitioner)),
        targets_(std::move(targets)),
        channel_(channel),
        pending_(targets_.size()) {}

  void emitBatch(BatchPtr batch) override {
    if (batch->size() == 0) return;
    partitioner_->partition(std::move(batch), pending_);
    for (size_t target = 0; target < pending_.size(); ++target) {
      if (pending_[target] && pending_[target]->size() >= kDefaultBatchSize) {
        targets_[target]->push(channel_, std::move(pending_[target]));
      }
    }
  }
  void emitWatermark(Watermark watermark) override { broadcast(watermark); }
  void emitWatermarkStatus(WatermarkStatus status) override { broadcast(status); }
  /// After every pending batch: what the operator emitted before the barrier stays before it.
  void emitBarrier(const CheckpointBarrier& barrier) { broadcast(barrier); }
  void endOfInput() { broadcast(EndOfInput{}); }

  void flush() {
    for (size_t target = 0; target < pending_.size(); ++target) {
      if (pending_[target] && pending_[target]->size() > 0) {
        targets_[target]->push(channel_, std::move(pending_[target]));
      }
    }
  }

 private:
  template <typename Element>
  void broadcast(Element element) {
    flush();
    for (InputGate* target : targets_) target->push(channel_, element);
  }

  std::unique_ptr<Partitioner> partitioner_;
  std::vector<InputGate*> targets_;
  int channel_;
  std::vector<BatchPtr> pending_;
};

/// Hands every element to several outputs; batches are copied for all but the last.
class BroadcastingOutput final : public Output {
 public:
  explicit BroadcastingOutput(std::vector<Output*> outputs) : outputs_(std::move(outputs)) {}
  void emitBatch(BatchPtr batch) override {
    for (size_t i = 0; i + 1 < outputs_.size(); ++i) outputs_[i]->emitBatch(batch->clone());
    outputs_.back()->emitBatch(std::move(batch));
  }
  void emitWatermark(Watermark watermark) override {
    for (Output* output : outputs_) output->emitWatermark(watermark);
  }
  void emitWatermarkStatus(WatermarkStatus status) override {
    for (Output* output : outputs_) output->emitWatermarkStatus(status);
  }

 private:
  std::vector<Output*> outputs_;
};

/// The output of an operator nothing consumes (a sink).
class DiscardingOutput final : public Output {
 public:
  void emitBatch(BatchPtr) override {}
  void emitWatermark(Watermark) override {}
  void emitWatermarkStatus(WatermarkStatus) override {}
};

/// A split-reading source operator's way to its source's coordinator in the job and to its
/// task's mailbox.
class TaskSourceReaderGateway final : public connector::detail::SourceReaderGateway {
 public:
  TaskSourceReaderGateway(RunningJob& job, int vertex, int subtask, Mailbox& mailbox)
      : job_(job), vertex_(vertex), subtask_(subtask), mailbox_(mailbox) {}
  void registerReader() override { job_.registerSourceReader(vertex_, subtask_); }
  void sendSplitRequest() override { job_.requestSourceSplit(vertex_, subtask_); }
  void notifyAvailable() override {
    // Waking the task is all the mail does; one is enough until it ran.
    if (wakeUpPending_.exchange(true)) return;
    mailbox_.put(MailAction([this] { wakeUpPending_ = false; }));
  }

 private:
  RunningJob& job_;
  const int vertex_;
  const int subtask_;
  Mailbox& mailbox_;
  std::atomic<bool> wakeUpPending_{false};
};

void SourceOperator::processBatch(int, BatchPtr) {
  throw InternalError("a source operator received input");
}

StreamTask::StreamTask(RunningJob& job, const graph::JobGraph& graph, int vertexIndex,
                       int subtaskIndex, InputGate* inputGate,
                       const std::function<InputGate*(int, int)>& gateOf, const Clock& clock,
                       const TaskSettings& settings)
    : job_(job),
      vertex_(graph.vertices[vertexIndex]),
      vertexIndex_(vertexIndex),
      subtaskIndex_(subtaskIndex),
      inputGate_(inputGate),
      clock_(clock),
      settings_(settings),
      mailbox_(job.mailbox(vertexIndex, subtaskIndex)),
      maxParallelism_(graph.maxParallelism) {
  const size_t chainLength = vertex_.operators.size();
  operators_.reserve(chainLength);
  contexts_.resize(chainLength);
  for (size_t i = 0; i < chainLength; ++i) {
    const runtime::Transformation& transformation = *vertex_.operators[i].transformation;
    operators_.push_back(transformation.operatorFactory->createOperator());
    OperatorContext& context = contexts_[i];
    context.operatorName = transformation.name;
    context.subtaskIndex = subtaskIndex;
    context.parallelism = vertex_.parallelism;
    context.maxParallelism = graph.maxParallelism;
    context.executionMode = graph.executionMode;
    context.keyGroupRange = computeKeyGroupRangeForOperatorIndex(
        graph.maxParallelism, vertex_.parallelism, subtaskIndex);
    context.processingTimeService = this;
    context.clock = &clock;
    context.metrics = &job.metrics();
    context.stateBackendType = settings.stateBackendType;
    context.checkpointingEnabled = settings.checkpointingEnabled;
  }

  // Wire each operator's output: chained successors and network edges.
  for (size_t i = 0; i < chainLength; ++i) {
    const graph::ChainedOperator& chained = vertex_.operators[i];
    std::vector<Output*> targets;
    for (int successor : chained.chainedSuccessors) {
      outputs_.push_back(std::make_unique<ChainedOutput>(*this, successor, *operators_[successor]));
      targets.push_back(outputs_.back().get());
    }
    for (int edgeIndex : chained.networkEdges) {
      const graph::JobEdge& edge = graph.edges[edgeIndex];
      const graph::JobVertex& target = graph.vertices[edge.targetVertex];
      std::vector<InputGate*> gates;
      for (int s = 0; s < target.parallelism; ++s) gates.push_back(gateOf(edge.targetVertex, s));
      std::unique_ptr<Partitioner> partitioner =
          edge.partitionKind == PartitionKind::HASH
              ? edge.hashPartitionerFactory(target.parallelism, graph.maxParallelism)
              : edge.recordType->createPartitioner(edge.partitionKind, subtaskIndex,
                                                   target.parallelism);
      auto output = std::make_unique<NetworkOutput>(std::move(partitioner), std::move(gates),
                                                    edge.channelOffset + subtaskIndex);
      networkOutputs_.push_back(output.get());
      targets.push_back(output.get());
      outputs_.push_back(std::move(output));
    }
    if (targets.empty()) {
      outputs_.push_back(std::make_unique<DiscardingOutput>());
      contexts_[i].output = outputs_.back().get();
    } else if (targets.size() == 1) {
      contexts_[i].output = targets[0];
    } else {
      outputs_.push_back(std::make_unique<BroadcastingOutput>(std::move(targets)));
      contexts_[i].output = outputs_.back().get();
    }
  }

  if (vertex_.isSource) {
    splitReader_ = dynamic_cast<connector::detail::SplitReadingOperator*>(operators_[0].get());
    if (splitReader_ != nullptr) {
      readerGateway_ =
          std::make_unique<TaskSourceReaderGateway>(job, vertexIndex, subtaskIndex, mailbox_);
      splitReader_->setReaderGateway(*readerGateway_);
    }
  }

  if (!vertex_.isSource) {
    inputIndexOfChannel_.assign(vertex_.inputChannelCount, 0);
    for (int edgeIndex : vertex_.inputEdges) {
      const graph::JobEdge& edge = graph.edges[edgeIndex];
      int upstreamParallelism = graph.vertices[edge.sourceVertex].parallelism;
      for (int s = 0; s < upstreamParallelism; ++s) {
        inputIndexOfChannel_[edge.channelOffset + s] = edge.targetInputIndex;
      }
      if (static_cast<int>(openChannelsOfInput_.size()) <= edge.targetInputIndex) {
        openChannelsOfInput_.resize(static_cast<size_t>(edge.targetInputIndex) + 1, 0);
      }
      openChannelsOfInput_[static_cast<size_t>(edge.targetInputIndex)] += upstreamParallelism;
    }
    valve_ = std::make_unique<WatermarkValve>(vertex_.inputChannelCount);
    CheckpointBarrierHandler::Actions& actions = *this;  // a private base: converted here
    barrierHandler_ =
        std::make_unique<CheckpointBarrierHandler>(vertex_.inputChannelCount, *inputGate_, actions);
  }
}

StreamTask::~StreamTask() = default;

std::string StreamTask::failedOperatorName() const {
  return contexts_[currentOperator].operatorName;
}

void StreamTask::registerTimer(int64_t time, std::function<void(int64_t)> callback) {
  timers_.push(Timer{time, timerSequence_++, std::move(callback)});
}

void StreamTask::fireDueTimers() {
  if (timers_.empty()) return;
  int64_t now = clock_.currentTimeMillis();
  while (!timers_.empty() && timers_.top().time <= now) {
    Timer timer = timers_.top();
    timers_.pop();
    timer.callback(timer.time);
  }
}

std::chrono::steady_clock::time_point StreamTask::nextWakeUp(
    std::chrono::milliseconds maximum) const {
  auto wakeUp = std::chrono::steady_clock::now() + maximum;
  if (!timers_.empty()) {
    int64_t untilTimer = timers_.top().time - clock_.currentTimeMillis();
    auto timerWakeUp =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max<int64_t>(0, untilTimer));
    wakeUp = std::min(wakeUp, timerWakeUp);
  }
  return wakeUp;
}

std::chrono::steady_clock::time_point StreamTask::sourceWakeUp(
    std::chrono::milliseconds idleWait) const {
  std::optional<std::chrono::steady_clock::time_point> pollBy;
  if (splitReader_ != nullptr) pollBy = splitReader_->pollAgainBy();
  if (!pollBy) return nextWakeUp(idleWait);
  // Mail (its notifyAvailable, assignments, triggers) ends the wait; the bound only re-checks
  // cancellation, as the input loop's.
  return std::min(nextWakeUp(std::chrono::milliseconds(100)), *pollBy);
}

void StreamTask::flushOutputs() {
  for (NetworkOutput* output : networkOutputs_) output->flush();
}

void StreamTask::openOperators() {
  // Downstream operators first, so that an operator never emits into an unopened one; each
  // restores its state right before its open(), as in Flink. Every operator gets close()
  // afterwards, even one whose open() did not run or failed.
  opened_ = true;
  for (size_t i = operators_.size(); i-- > 0;) {
    currentOperator = static_cast<int>(i);
    StateInitializationContext initialization;
    initialization.restored = settings_.restoredCheckpoint != nullptr;
    initialization.previous = &restoredSnapshotOf(i);
    initialization.operatorContext = &contexts_[i];
    // The stores the operator creates (its keyed backend, its operator state) restore from it.
    contexts_[i].restoredSnapshot = initialization.previous;
    operators_[i]->initializeState(initialization);
    operators_[i]->open(contexts_[i]);
  }
  currentOperator = 0;
}

const OperatorSnapshot& StreamTask::restoredSnapshotOf(size_t chainIndex) {
  static const OperatorSnapshot kNone;
  const CompletedCheckpoint* checkpoint = settings_.restoredCheckpoint.get();
  if (checkpoint == nullptr) return kNone;
  const std::string& uid = vertex_.operators[chainIndex].uid;
  auto found = checkpoint->operators.find(uid);
  if (found == checkpoint->operators.end()) return kNone;  // an operator new to the job
  const std::vector<OperatorSnapshot>& subtasks = found->second;
  if (subtasks.size() == static_cast<size_t>(vertex_.parallelism)) {
    // Key groups and list state are where they were, union list state aside.
    bool hasUnion = false;
    for (const auto& [name, blob] : subtasks[static_cast<size_t>(subtaskIndex_)].operatorState) {
      hasUnion = hasUnion || name.starts_with(state::kOperatorListStatePrefix);
    }
    if (!hasUnion) return subtasks[static_cast<size_t>(subtaskIndex_)];
  }
  // Another parallelism (or list state, which may be union state): this subtask's share.
  try {
    std::vector<OperatorSnapshot> assigned =
        state::redistributeOperatorSnapshots(subtasks, vertex_.parallelism, maxParallelism_);
    rescaledSnapshots_.push_back(std::make_unique<OperatorSnapshot>(
        std::move(assigned[static_cast<size_t>(subtaskIndex_)])));
  } catch (const ValidationException& error) {
    throw ValidationException("Cannot restore operator '" + contexts_[chainIndex].operatorName +
                              "' (uid " + uid + ") from checkpoint " +
                              std::to_string(checkpoint->id) + ": " + error.what());
  }
  return *rescaledSnapshots_.back();
}

void StreamTask::run() {
  try {
    openOperators();
    if (vertex_.isSource) {
      runSourceLoop();
    } else {
      runInputLoop();
    }
    finishAndEndOutputs();
    if (drainSavepoint_) {
      // Stop-with-savepoint --drain: what the chain emitted went downstream before the end of
      // its outputs; the savepoint's snapshot is taken now and is this task's final checkpoint.
      firstFinalCheckpointId_ = drainSavepoint_->id;
      performCheckpoint(*drainSavepoint_);
    }
    awaitFinalCheckpointIfNeeded();
    awaitAcknowledgedCheckpoints();
  } catch (...) {
    int failed = currentOperator;
    closeOperators();
    currentOperator = failed;
    throw;
  }
  closeOperators();
}

void StreamTask::runSourceLoop() {
  auto& source = static_cast<SourceOperator&>(*operators_[0]);
  std::chrono::milliseconds idleWait = settings_.sourceIdleWaitInitial;
  while (true) {
    if (job_.cancelled()) throw TaskCancelled{};
    processMail();
    if (drainSavepoint_) {
      // Stop-with-savepoint --drain (Flink's advanceToEndOfEventTime): the input ends here,
      // with the end-of-time watermark, so every event-time timer and window fires.
      currentOperator = 0;
      contexts_[0].output->emitWatermark(Watermark{Watermark::kMax});
      return;
    }
    if (suspendedForSavepoint_ >= 0) {
      waitWhileSuspended();
      continue;
    }
    fireDueTimers();
    currentOperator = 0;
    SourceStatus status = source.emitNext();
    if (status == SourceStatus::END_OF_INPUT) return;
    if (status == SourceStatus::MORE_AVAILABLE) {
      idleWait = settings_.sourceIdleWaitInitial;
      continue;
    }
    // Nothing available: sleep until mail, the next timer, or the back-off's next poll (for a
    // split reader that signals availability, until it is woken or its requested time).
    flushOutputs();
    if (!mailbox_.hasMail()) mailbox_.waitForMail(sourceWakeUp(idleWait));
    idleWait = std::min(idleWait * 2, settings_.sourceIdleWaitMaximum);
  }
}

void StreamTask::runInputLoop() {
  bool endOfInput = inputIndexOfChannel_.empty();
  while (!endOfInput) {
    processMail();
    if (suspendedForSavepoint_ >= 0) {
      waitWhileSuspended();
      continue;
    }
    fireDueTimers();
    std::optional<InputMessage> message = inputGate_->tryPop();
    if (!message) {
      flushOutputs();
      if (mailbox_.hasMail()) continue;
      // Mail put from now on wakes this pop (Mailbox::put → InputGate::wakeUp).
      message = inputGate_->pop(nextWakeUp(std::chrono::milliseconds(100)));
      if (!message) continue;
    }
    processMessage(*message, endOfInput);
  }
}

void StreamTask::processMessage(InputMessage& message, bool& endOfInput) {
  StreamOperator& head = *operators_[0];
  currentOperator = 0;
  auto forward = [&head](const WatermarkValve::Forward& forward) {
    if (forward.flushedWatermark) head.processWatermark(*forward.flushedWatermark);
    if (forward.status) head.processWatermarkStatus(*forward.status);
    if (forward.watermark) head.processWatermark(*forward.watermark);
  };
  std::visit(
      [&](auto& element) {
        using Element = std::decay_t<decltype(element)>;
        if constexpr (std::is_same_v<Element, BatchPtr>) {
          head.processBatch(inputIndexOfChannel_[message.channel], std::move(element));
        } else if constexpr (std::is_same_v<Element, Watermark>) {
          forward(valve_->onWatermark(message.channel, element));
        } else if constexpr (std::is_same_v<Element, WatermarkStatus>) {
          forward(valve_->onWatermarkStatus(message.channel, element));
        } else if constexpr (std::is_same_v<Element, CheckpointBarrier>) {
          barrierHandler_->processBarrier(message.channel, element);
        } else {
          static_assert(std::is_same_v<Element, EndOfInput>);
          forward(valve_->onEndOfInput(message.channel));
          const int input = inputIndexOfChannel_[message.channel];
          if (--openChannelsOfInput_[static_cast<size_t>(input)] == 0) head.endInput(input);
          endOfInput = valve_->allEnded();
          // An ended channel is aligned for every checkpoint: this may complete one.
          barrierHandler_->processEndOfInput(message.channel);
        }
      },
      message.element);
}

void StreamTask::finishAndEndOutputs() {
  // The head's inputs ended one by one (processMessage); a chained operator's one input ends
  // when the operator before it has finished.
  for (size_t i = 0; i < operators_.size(); ++i) {
    currentOperator = static_cast<int>(i);
    if (i > 0) operators_[i]->endInput(0);
    operators_[i]->finish();
  }
  currentOperator = 0;
  for (NetworkOutput* output : networkOutputs_) output->endOfInput();
  finished_ = true;
}

void StreamTask::awaitFinalCheckpointIfNeeded() {
  if (!settings_.checkpointingEnabled) return;
  bool needed = false;
  for (const auto& op : operators_) needed = needed || op->needsFinalCheckpoint();
  if (!needed) return;
  // Flink's final checkpoint: the job triggers this task as it triggers sources (its inputs
  // have all ended, so no barrier reaches it) until a checkpoint it acknowledged from now on
  // has completed; that completion commits what its operators wrote after the last one.
  awaitingFinalCheckpoint_ = true;
  job_.taskAwaitsFinalCheckpoint(vertexIndex_, subtaskIndex_);
  while (!finalCheckpointCompleted_) {
    if (job_.cancelled()) throw TaskCancelled{};
    processMail();
    if (finalCheckpointCompleted_) break;
    mailbox_.waitForMail(std::chrono::steady_clock::now() + std::chrono::milliseconds(100));
  }
  awaitingFinalCheckpoint_ = false;
}

void StreamTask::awaitAcknowledgedCheckpoints() {
  // Flink's checkpoints after tasks finish, simply: from now on the job acknowledges every
  // checkpoint for this task as finished; a checkpoint it acknowledged with snapshots before
  // finishing still completes or aborts, and its operators hear which before they close.
  // Snapshots still being written are acknowledged first.
  asyncSnapshots_.drain();
  job_.taskFinished(vertexIndex_, subtaskIndex_);
  while (job_.hasPendingCheckpointAcknowledgedBy(vertexIndex_, subtaskIndex_)) {
    if (job_.cancelled()) throw TaskCancelled{};
    processMail();
    // The bound only re-checks cancellation: the job puts the notification before the
    // checkpoint stops being pending, and the mail ends the wait.
    mailbox_.waitForMail(std::chrono::steady_clock::now() + std::chrono::milliseconds(100));
  }
  processMail();
}

void StreamTask::runQueuedMail() {
  while (std::optional<Mail> mail = mailbox_.tryTake()) runMail(*mail);
}

void StreamTask::runMail(Mail& mail) {
  std::visit(
      [&](auto& action) {
        using Action = std::decay_t<decltype(action)>;
        if constexpr (std::is_same_v<Action, TriggerCheckpointMail>) {
          // Sources are triggered, and finished tasks awaiting their final checkpoint; another
          // finished task is acknowledged by the job. A source draining for a stop-with-
          // savepoint ends its input first (runSourceLoop) and snapshots after finish() (run).
          if (vertex_.isSource && !finished_ && !drainSavepoint_ &&
              job_.stopModeOf(action.barrier.id) == SavepointStopMode::DRAIN) {
            drainSavepoint_ = action.barrier;
          } else if ((vertex_.isSource && !finished_) || awaitingFinalCheckpoint_) {
            performCheckpoint(action.barrier);
          }
        } else if constexpr (std::is_same_v<Action, CheckpointCompleteMail>) {
          notifyCheckpointComplete(action.checkpointId);
        } else if constexpr (std::is_same_v<Action, CheckpointAbortedMail>) {
          notifyCheckpointAborted(action.checkpointId);
        } else if constexpr (std::is_same_v<Action, AddSplitsMail>) {
          // A reader that has ended reads nothing more (an enumerator assigns nothing after
          // signalNoMoreSplits).
          if (splitReader_ != nullptr && !finished_) {
            currentOperator = 0;
            splitReader_->handleAddSplits(action.splits);
          }
        } else if constexpr (std::is_same_v<Action, NoMoreSplitsMail>) {
          if (splitReader_ != nullptr && !finished_) {
            currentOperator = 0;
            splitReader_->handleNoMoreSplits();
          }
        } else {
          action();
        }
      },
      mail);
}

void StreamTask::performCheckpoint(const CheckpointBarrier& barrier,
                                   int64_t alignmentDurationMicros) {
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < operators_.size(); ++i) {
    currentOperator = static_cast<int>(i);
    operators_[i]->prepareSnapshotPreBarrier(barrier.id);
  }
  std::vector<OperatorSnapshot> snapshots;
  snapshots.reserve(operators_.size());
  // By default, what the operator keeps in its stores: operator list state written now, key
  // groups frozen, to be written on the async writer.
  std::vector<std::unique_ptr<state::FrozenKeyedState>> frozen;
  bool anyFrozen = false;
  for (size_t i = 0; i < operators_.size(); ++i) {
    currentOperator = static_cast<int>(i);
    StateSnapshotContext context{barrier.id, barrier.timestamp, barrier.options, {}};
    operators_[i]->snapshotState(context);
    frozen.push_back(contexts_[i].freezeStateStores(context.snapshot));
    anyFrozen = anyFrozen || frozen.back() != nullptr;
    snapshots.push_back(std::move(context.snapshot));
  }
  currentOperator = 0;
  // A finished task has ended its outputs: its consumers count those channels as aligned.
  if (!finished_) {
    for (NetworkOutput* output : networkOutputs_) output->emitBarrier(barrier);
  }
  if (awaitingFinalCheckpoint_ && firstFinalCheckpointId_ < 0) firstFinalCheckpointId_ = barrier.id;
  SubtaskCheckpointTiming timing;
  timing.syncDurationMicros = std::chrono::duration_cast<std::chrono::microseconds>(
                                  std::chrono::steady_clock::now() - start)
                                  .count();
  timing.alignmentDurationMicros = alignmentDurationMicros;
  if (!anyFrozen) {
    job_.acknowledgeCheckpoint(vertexIndex_, subtaskIndex_, barrier.id, std::move(snapshots),
                               timing);
  } else {
    submitAsyncSnapshot(barrier.id, barrier.options, std::move(snapshots), std::move(frozen),
                        timing);
  }
  // Stop-with-savepoint without drain: nothing more leaves this task until the savepoint ended.
  if (!finished_ && job_.stopModeOf(barrier.id) == SavepointStopMode::SUSPEND) {
    suspendedForSavepoint_ = barrier.id;
  }
}

void StreamTask::submitAsyncSnapshot(int64_t checkpointId, const CheckpointOptions& options,
                                     std::vector<OperatorSnapshot> snapshots,
                                     std::vector<std::unique_ptr<state::FrozenKeyedState>> frozen,
                                     SubtaskCheckpointTiming timing) {
  struct Work {
    std::vector<OperatorSnapshot> snapshots;
    std::vector<std::unique_ptr<state::FrozenKeyedState>> frozen;
  };
  auto work = std::make_shared<Work>(Work{std::move(snapshots), std::move(frozen)});
  // With file-system storage each operator's state goes straight into its own state file in
  // the checkpoint's directory, and the acknowledgement names the file (Flink's
  // CheckpointStateOutputStream); else the bytes travel in the acknowledgement.
  std::filesystem::path directory = job_.stateDirectoryOf(checkpointId, options);
  asyncSnapshots_.submit([this, work, checkpointId, timing, directory]() mutable {
    const auto start = std::chrono::steady_clock::now();
    try {
      for (size_t i = 0; i < work->frozen.size(); ++i) {
        if (work->frozen[i] == nullptr) continue;
        OperatorSnapshot& snapshot = work->snapshots[i];
        if (directory.empty()) {
          work->frozen[i]->write(snapshot.keyedState);
        } else {
          const std::string name = "task-" + std::to_string(vertexIndex_) + "-op-" +
                                   std::to_string(i) + "-subtask-" + std::to_string(subtaskIndex_);
          snapshot.stateFile =
              writeTaskStateFile(directory / name, snapshot.operatorState, *work->frozen[i]);
          snapshot.operatorState.clear();
        }
        work->frozen[i].reset();
      }
    } catch (...) {
      // Flink declines a checkpoint whose asynchronous part failed; the task goes on.
      job_.declineCheckpoint(vertexIndex_, subtaskIndex_, checkpointId);
      return;
    }
    timing.asyncDurationMicros = std::chrono::duration_cast<std::chrono::microseconds>(
                                     std::chrono::steady_clock::now() - start)
                                     .count();
    job_.acknowledgeCheckpoint(vertexIndex_, subtaskIndex_, checkpointId,
                               std::move(work->snapshots), timing);
  });
}

void StreamTask::waitWhileSuspended() {
  if (job_.cancelled()) throw TaskCancelled{};
  if (!stoppedBySavepoint_) {
    flushOutputs();
    if (!mailbox_.hasMail()) {
      // The bound only re-checks cancellation: the savepoint's outcome arrives as mail.
      mailbox_.waitForMail(std::chrono::steady_clock::now() + std::chrono::milliseconds(100));
    }
    processMail();
  }
  // Completed: the task ends here, without finish() (no window fires, no end-of-input
  // watermark); its state is in the savepoint. TaskCancelled is the job's quiet stop.
  if (stoppedBySavepoint_) throw TaskCancelled{};
}

void StreamTask::notifyCheckpointComplete(int64_t checkpointId) {
  for (size_t i = 0; i < operators_.size(); ++i) {
    currentOperator = static_cast<int>(i);
    operators_[i]->notifyCheckpointComplete(checkpointId);
  }
  currentOperator = 0;
  if (firstFinalCheckpointId_ >= 0 && checkpointId >= firstFinalCheckpointId_) {
    finalCheckpointCompleted_ = true;
  }
  if (checkpointId == suspendedForSavepoint_) stoppedBySavepoint_ = true;
}

void StreamTask::notifyCheckpointAborted(int64_t checkpointId) {
  if (barrierHandler_ && !finished_) barrierHandler_->abortCheckpoint(checkpointId);
  if (checkpointId == suspendedForSavepoint_) suspendedForSavepoint_ = -1;  // it goes on
  for (size_t i = 0; i < operators_.size(); ++i) {
    currentOperator = static_cast<int>(i);
    operators_[i]->notifyCheckpointAborted(checkpointId);
  }
  currentOperator = 0;
}

void StreamTask::triggerCheckpointOnBarrier(const CheckpointBarrier& barrier) {
  performCheckpoint(barrier, barrierHandler_->alignmentDurationMicros());
}

void StreamTask::abortCheckpointOnBarrier(int64_t checkpointId) {
  // The job aborts it everywhere and sends every task, this one too, the abort notification.
  job_.declineCheckpoint(vertexIndex_, subtaskIndex_, checkpointId);
}

void StreamTask::closeOperators() noexcept {
  if (!opened_) return;
  opened_ = false;
  for (auto& op : operators_) {
    try {
      op->close();
    } catch (...) {
      // A failure while closing must not hide the failure that made us close.
    }
  }
}

}  // namespace eddy::runtime
