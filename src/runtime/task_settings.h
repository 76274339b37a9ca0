// TaskSettings: how the tasks of one RunningJob run, beyond what the job graph says. The
// defaults are what a job gets from execute(); tests (and, next, the checkpoint coordinator's
// restore) set the rest. Copied into every task; immutable while the job runs.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "runtime/completed_checkpoint.h"

namespace eddy::runtime {

struct TaskSettings {
  /// A source that had nothing available (SourceStatus::NOTHING_AVAILABLE) is polled again
  /// after this wait, doubled on every further empty poll up to sourceIdleWaitMaximum, and
  /// reset by a poll that emits. Mail (a checkpoint trigger) and due processing-time timers
  /// end the wait early. The sources have no availability signal yet (FLIP-27's isAvailable
  /// comes with the connector SPI), so this bounded back-off is how they are polled without
  /// spinning; the maximum bounds the latency a source that becomes available again sees.
  std::chrono::milliseconds sourceIdleWaitInitial{1};
  std::chrono::milliseconds sourceIdleWaitMaximum{10};
  /// The checkpoint the job starts from (initializeState gets its operators' snapshots);
  /// null for a fresh start.
  std::shared_ptr<const CompletedCheckpoint> restoredCheckpoint;
  /// `state.backend.type`: the keyed state backend each operator subtask gets
  /// (OperatorContext::keyedStateBackend); "hashmap" is the only one so far.
  std::string stateBackendType = "hashmap";
  /// The job takes checkpoints: a task whose operators need a final checkpoint
  /// (StreamOperator::needsFinalCheckpoint) waits for one after finishing.
  bool checkpointingEnabled = false;
};

}  // namespace eddy::runtime
