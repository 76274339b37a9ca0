#include "runtime/stream_task.h"

#include <thread>

#include "common/check.h"
#include "runtime/running_job.h"

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

void SourceOperator::processBatch(int, BatchPtr) {
  throw InternalError("a source operator received input");
}

StreamTask::StreamTask(RunningJob& job, const graph::JobGraph& graph, int vertexIndex,
                       int subtaskIndex, InputGate* inputGate,
                       const std::function<InputGate*(int, int)>& gateOf, const Clock& clock)
    : job_(job),
      vertex_(graph.vertices[vertexIndex]),
      subtaskIndex_(subtaskIndex),
      inputGate_(inputGate),
      clock_(clock) {
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

void StreamTask::flushOutputs() {
  for (NetworkOutput* output : networkOutputs_) output->flush();
}

void StreamTask::openOperators() {
  // Downstream operators first, so that an operator never emits into an unopened one. Every
  // operator gets close() afterwards, even one whose open() did not run or failed.
  opened_ = true;
  for (size_t i = operators_.size(); i-- > 0;) {
    currentOperator = static_cast<int>(i);
    operators_[i]->open(contexts_[i]);
  }
  currentOperator = 0;
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
  while (true) {
    if (job_.cancelled()) throw TaskCancelled{};
    fireDueTimers();
    currentOperator = 0;
    SourceStatus status = source.emitNext();
    if (status == SourceStatus::END_OF_INPUT) return;
    if (status == SourceStatus::NOTHING_AVAILABLE) {
      flushOutputs();
      std::this_thread::sleep_until(nextWakeUp(std::chrono::milliseconds(1)));
    }
  }
}

void StreamTask::runInputLoop() {
  bool endOfInput = inputIndexOfChannel_.empty();
  while (!endOfInput) {
    fireDueTimers();
    std::optional<InputMessage> message = inputGate_->tryPop();
    if (!message) {
      flushOutputs();
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
        } else {
          forward(valve_->onEndOfInput(message.channel));
          const int input = inputIndexOfChannel_[message.channel];
          if (--openChannelsOfInput_[static_cast<size_t>(input)] == 0) head.endInput(input);
          endOfInput = valve_->allEnded();
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
