// CompletedCheckpoint: what a job collected for one checkpoint once every task acknowledged
// it — the snapshot of every operator subtask, by operator uid (graph::ChainedOperator::uid,
// the name a restored job finds its state by) and subtask index, and the state of every
// source's split enumerator, by the source's uid. It lives in memory; the
// checkpoint coordinator writes it to `<state.checkpoints.dir>/<job-id>/chk-<n>/` and reads it
// back for a restore. Immutable once built, so it is shared (shared_ptr) between the job, its
// waiters and a restored job's tasks.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "eddy/runtime/checkpoint_barrier.h"
#include "eddy/runtime/operator_snapshot.h"

namespace eddy::runtime {

/// How long one subtask's part of a checkpoint took (runtime/checkpoint_statistics.h).
struct SubtaskCheckpointTiming {
  int64_t syncDurationMicros = 0;
  int64_t alignmentDurationMicros = 0;
  int64_t asyncDurationMicros = 0;  // writing the frozen state, off the task thread
};

/// The tasks' timings of one checkpoint, reduced to what the statistics report.
struct CheckpointTaskTimings {
  int64_t maxSyncDurationMicros = 0;
  std::string maxSyncSubtask;  // "<task name> (<subtask + 1>/<parallelism>)"
  int64_t maxAlignmentDurationMicros = 0;
  int64_t maxAsyncDurationMicros = 0;
  int snapshottingSubtasks = 0;
};

struct CompletedCheckpoint {
  int64_t id = 0;
  int64_t timestamp = 0;
  CheckpointOptions options;
  /// operator uid → one snapshot per subtask, indexed by subtask (the vector's size is the
  /// operator's parallelism when the checkpoint was taken).
  std::map<std::string, std::vector<OperatorSnapshot>> operators;
  /// The state of each replayable source's split enumerator (connector::Source), by the source
  /// operator's uid: the bytes of docs/state_format.md "Source splits and split enumerators",
  /// taken when the checkpoint was triggered, before any reader of the source took its
  /// snapshot. A restore hands them to the enumerator (restoreEnumerator). Sources of the
  /// legacy shape have none.
  std::map<std::string, std::string> sourceCoordinators;
  /// How the tasks took it; in memory only (a checkpoint read back from storage has none).
  CheckpointTaskTimings taskTimings;

  /// The bytes of state it holds: operator and enumerator state, without framing.
  int64_t stateSize() const {
    int64_t bytes = 0;
    for (const auto& [uid, subtasks] : operators) {
      for (const OperatorSnapshot& snapshot : subtasks) {
        for (const auto& [name, value] : snapshot.operatorState) bytes += std::ssize(value);
        for (const auto& [group, value] : snapshot.keyedState) bytes += std::ssize(value);
        if (snapshot.stateFile) bytes += snapshot.stateFile->stateBytes;
      }
    }
    for (const auto& [uid, state] : sourceCoordinators) bytes += std::ssize(state);
    return bytes;
  }
};

enum class CheckpointStatus {
  /// Neither completed nor aborted (yet, or before the wait gave up).
  PENDING,
  COMPLETED,
  /// A task declined it, or the job failed or was cancelled before it completed.
  ABORTED,
};

struct CheckpointOutcome {
  CheckpointStatus status = CheckpointStatus::PENDING;
  /// Set when COMPLETED.
  std::shared_ptr<const CompletedCheckpoint> checkpoint;
};

}  // namespace eddy::runtime
