#include "runtime/running_job.h"

#include <algorithm>

#include "eddy/exceptions.h"
#include "runtime/stream_task.h"

namespace eddy::runtime {

namespace {
// Enough queued batches per producer to keep it busy while the consumer works, few enough
// to bound memory: each element is at most one batch of kDefaultBatchSize records. Four per
// channel (eight for a single channel), as the shared queue of max(8, 4 x channels) before.
size_t channelCapacity(int channelCount) { return channelCount == 1 ? 8 : 4; }
}  // namespace

RunningJob::RunningJob(std::string name, graph::JobGraph graph, const Clock& clock)
    : name_(std::move(name)), graph_(std::move(graph)), clock_(clock) {
  gates_.resize(graph_.vertices.size());
  for (size_t v = 0; v < graph_.vertices.size(); ++v) {
    const graph::JobVertex& vertex = graph_.vertices[v];
    gates_[v].resize(vertex.parallelism);
    if (vertex.isSource) continue;
    for (auto& gate : gates_[v]) {
      gate = std::make_unique<InputGate>(vertex.inputChannelCount,
                                         channelCapacity(vertex.inputChannelCount));
    }
  }
}

RunningJob::~RunningJob() {
  cancel();
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

void RunningJob::start() {
  startTime_ = std::chrono::steady_clock::now();
  int taskCount = 0;
  for (const graph::JobVertex& vertex : graph_.vertices) taskCount += vertex.parallelism;
  runningTasks_ = taskCount;
  for (size_t v = 0; v < graph_.vertices.size(); ++v) {
    for (int s = 0; s < graph_.vertices[v].parallelism; ++s) {
      threads_.emplace_back([this, v, s] { runSubtask(static_cast<int>(v), s); });
    }
  }
}

void RunningJob::runSubtask(int vertex, int subtask) {
  std::unique_ptr<StreamTask> task;
  try {
    task = std::make_unique<StreamTask>(
        *this, graph_, vertex, subtask, gates_[vertex][subtask].get(),
        [this](int v, int s) { return gates_[v][s].get(); }, clock_);
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
  if (runningTasks_.fetch_sub(1) == 1) {
    std::lock_guard lock(mutex_);
    netRuntimeMillis_ = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - startTime_)
                            .count();
    finished_.notify_all();
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
  for (auto& gates : gates_) {
    for (auto& gate : gates) {
      if (gate) gate->cancel();
    }
  }
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
    finished_.wait(lock, [this] { return runningTasks_ == 0; });
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
  if (runningTasks_ > 0) return cancelRequested_ ? JobStatus::CANCELED : JobStatus::RUNNING;
  return cancelRequested_ ? JobStatus::CANCELED : JobStatus::FINISHED;
}

}  // namespace eddy::runtime
