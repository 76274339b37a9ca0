// RunningJob: one job executing on the local machine. It creates a task per subtask of every
// JobGraph vertex, runs each task on its own thread, and collects the outcome. The first
// failure of any task cancels all others (every gate wakes and throws TaskCancelled), so a
// failed job stops all its threads and never hangs. Thread-safe; owned through shared_ptr by
// the job client(s) waiting on it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "eddy/clock.h"
#include "eddy/datastream/job_status.h"
#include "graph/job_graph.h"
#include "eddy/runtime/stream_operator.h"
#include "runtime/input_gate.h"

namespace eddy::runtime {

class RunningJob : public std::enable_shared_from_this<RunningJob> {
 public:
  RunningJob(std::string name, graph::JobGraph graph, const Clock& clock);
  ~RunningJob();

  /// Starts all task threads.
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

  // Called by tasks.
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  void reportFailure(const std::string& operatorName, int subtaskIndex, int parallelism,
                     const std::string& message);

 private:
  void cancelGates();
  void runSubtask(int vertex, int subtask);

  const std::string name_;
  const graph::JobGraph graph_;
  const Clock& clock_;
  // gates_[vertex][subtask]; null for source vertices.
  std::vector<std::vector<std::unique_ptr<InputGate>>> gates_;
  std::vector<std::thread> threads_;
  std::atomic<bool> cancelled_{false};
  std::atomic<int> runningTasks_{0};
  JobMetrics metrics_;

  mutable std::mutex mutex_;
  std::condition_variable finished_;
  bool joined_ = false;
  bool failed_ = false;
  bool cancelRequested_ = false;
  std::string failureMessage_;
  std::chrono::steady_clock::time_point startTime_;
  int64_t netRuntimeMillis_ = 0;
};

}  // namespace eddy::runtime
