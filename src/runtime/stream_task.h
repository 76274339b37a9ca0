// StreamTask: runs one subtask of a JobGraph vertex — its chain of operators — on the
// calling thread, from open to close. A source chain is driven by polling its head; any
// other chain by popping its input gate. Between inputs the task fires due processing-time
// timers and, when its gate is empty, flushes partially filled output batches so that
// records never wait for a batch to fill while the task idles.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "graph/job_graph.h"
#include "runtime/input_gate.h"
#include "runtime/watermark_valve.h"

namespace eddy::runtime {

class RunningJob;
class NetworkOutput;

class StreamTask final : public ProcessingTimeService {
 public:
  /// `gateOf(vertex, subtask)` returns the input gate of any subtask of the job.
  StreamTask(RunningJob& job, const graph::JobGraph& graph, int vertexIndex, int subtaskIndex,
             InputGate* inputGate, const std::function<InputGate*(int, int)>& gateOf,
             const Clock& clock);
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
  void runSourceLoop();
  void runInputLoop();
  void processMessage(InputMessage& message, bool& endOfInput);
  void finishAndEndOutputs();
  void closeOperators() noexcept;
  void fireDueTimers();
  void flushOutputs();
  std::chrono::steady_clock::time_point nextWakeUp(std::chrono::milliseconds maximum) const;

  RunningJob& job_;
  const graph::JobVertex& vertex_;
  const int subtaskIndex_;
  InputGate* inputGate_;
  const Clock& clock_;

  std::vector<std::unique_ptr<StreamOperator>> operators_;
  std::vector<OperatorContext> contexts_;
  std::vector<std::unique_ptr<Output>> outputs_;  // everything the operators emit into
  std::vector<NetworkOutput*> networkOutputs_;
  std::vector<int> inputIndexOfChannel_;
  std::vector<int> openChannelsOfInput_;  // per input index: channels that have not ended
  std::unique_ptr<WatermarkValve> valve_;
  bool opened_ = false;

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
};

}  // namespace eddy::runtime
