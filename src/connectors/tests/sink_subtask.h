// SinkSubtask: one subtask of a Sink V2 sink (eddy/connector/sink.h) driven through its
// operator's hooks on the test's thread, as a task would drive it: initializeState (restored from
// the snapshots of every old subtask, redistributed to this subtask as the task does), open,
// batches, watermarks, checkpoints (prepareSnapshotPreBarrier, snapshotState, then the state
// stores), completions, finish and close. crash() drops the operator without close(), as a
// SIGKILL would (what it wrote stays on disk). Header-only; one test thread.
#pragma once

#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "connectors/tests/connector_test_support.h"
#include "state/state_redistribution.h"

namespace eddy::connectors::testing {

struct SinkSubtaskOptions {
  int subtaskIndex = 0;
  int parallelism = 1;
  RuntimeExecutionMode mode = RuntimeExecutionMode::STREAMING;
  bool checkpointing = true;
  /// The snapshots of every old subtask (index = old subtask); empty: a fresh start.
  std::vector<runtime::OperatorSnapshot> restoredFrom = {};
};

template <typename SinkType>
class SinkSubtask {
 public:
  using Operator = connector::detail::SinkWriterOperator<SinkType>;
  using Record = typename SinkType::InputType;

  /// initializeState and open; throws what they throw.
  SinkSubtask(std::shared_ptr<const SinkType> sink, SinkSubtaskOptions options = {})
      : operator_(std::make_unique<Operator>(std::move(sink))) {
    context_.operatorName = "Sink: Writer";
    context_.subtaskIndex = options.subtaskIndex;
    context_.parallelism = options.parallelism;
    context_.executionMode = options.mode;
    context_.checkpointingEnabled = options.checkpointing;
    context_.output = &output_;
    if (!options.restoredFrom.empty()) {
      restored_ = std::move(
          state::redistributeOperatorSnapshots(options.restoredFrom, options.parallelism,
                                               128)[static_cast<size_t>(options.subtaskIndex)]);
    }
    context_.restoredSnapshot = &restored_;
    runtime::StateInitializationContext initialization;
    initialization.restored = !options.restoredFrom.empty();
    initialization.previous = &restored_;
    initialization.operatorContext = &context_;
    operator_->initializeState(initialization);
    operator_->open(context_);
  }
  ~SinkSubtask() {
    if (operator_) operator_->close();
  }
  SinkSubtask(const SinkSubtask&) = delete;
  SinkSubtask& operator=(const SinkSubtask&) = delete;

  /// One batch; record i has timestamp i (kNoTimestamp when `timestamps` is false).
  void write(std::vector<Record> records, bool timestamps = false) {
    auto batch = std::make_unique<runtime::TypedBatch<Record>>();
    int64_t timestamp = 0;
    for (Record& record : records) {
      batch->push(std::move(record), timestamps ? timestamp++ : runtime::kNoTimestamp);
    }
    operator_->processBatch(0, std::move(batch));
  }
  void watermark(int64_t timestamp) { operator_->processWatermark(runtime::Watermark{timestamp}); }
  runtime::OperatorSnapshot checkpoint(int64_t checkpointId) {
    operator_->prepareSnapshotPreBarrier(checkpointId);
    runtime::StateSnapshotContext snapshot;
    snapshot.checkpointId = checkpointId;
    operator_->snapshotState(snapshot);
    context_.snapshotStateStores(snapshot.snapshot);  // as the task does after snapshotState
    return std::move(snapshot.snapshot);
  }
  void complete(int64_t checkpointId) { operator_->notifyCheckpointComplete(checkpointId); }
  void abort(int64_t checkpointId) { operator_->notifyCheckpointAborted(checkpointId); }
  void finish() { operator_->finish(); }
  /// finish, as the task asks after it.
  bool needsFinalCheckpoint() const { return operator_->needsFinalCheckpoint(); }
  /// The end of the subtask's life after a failure: close() runs.
  void close() {
    std::unique_ptr<Operator> closing = std::move(operator_);
    closing->close();
  }
  /// A SIGKILL: the operator goes without close().
  void crash() { operator_.reset(); }

  Operator& sinkOperator() { return *operator_; }

 private:
  RecordingOutput output_;
  runtime::OperatorSnapshot restored_;
  runtime::OperatorContext context_;
  std::unique_ptr<Operator> operator_;
};

/// Runs `make(subtask)` for each new subtask of `parallelism` restored from `previous`.
template <typename SinkType>
std::vector<std::unique_ptr<SinkSubtask<SinkType>>> restoreSubtasks(
    const std::shared_ptr<const SinkType>& sink,
    const std::vector<runtime::OperatorSnapshot>& previous, int parallelism,
    bool checkpointing = true) {
  std::vector<std::unique_ptr<SinkSubtask<SinkType>>> subtasks;
  for (int subtask = 0; subtask < parallelism; ++subtask) {
    subtasks.push_back(std::make_unique<SinkSubtask<SinkType>>(
        sink, SinkSubtaskOptions{.subtaskIndex = subtask,
                                 .parallelism = parallelism,
                                 .checkpointing = checkpointing,
                                 .restoredFrom = previous}));
  }
  return subtasks;
}

}  // namespace eddy::connectors::testing
