// OperatorSnapshot: what one subtask of one operator contributes to a checkpoint, and the
// contexts through which an operator writes it (snapshotState) and gets it back on a restore
// (initializeState), as Flink's OperatorSubtaskState, StateSnapshotContext and
// StateInitializationContext.
//
// A snapshot is bytes only, written by the operator (or, once the task hands operators their
// state backend, by the backend on its behalf): it holds no pointer into the operator, so the
// job can keep it, and the checkpoint coordinator write it to storage, while the operator goes
// on. Nothing here does file I/O. The byte formats inside the blobs belong to whoever wrote
// them and are described in docs/state_format.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "eddy/runtime/checkpoint_barrier.h"

namespace eddy::runtime {

struct OperatorContext;

struct OperatorSnapshot {
  /// Non-keyed state by name (Flink's operator state: source positions, sink transactions):
  /// bytes the operator wrote, restored to the same subtask. Redistribution over another
  /// parallelism (Flink's even-split and union list state) comes with operator list state.
  std::map<std::string, std::string> operatorState;
  /// Keyed state, one section per key group the subtask owns (state/key_group_snapshot.h
  /// describes a section), so that a restore at another parallelism can hand every key group
  /// to its new subtask.
  std::map<int, std::string> keyedState;
  /// The subtask had finished (all input ended, finish() done, end of input sent downstream)
  /// before the checkpoint reached it: everything it emitted is already in its consumers'
  /// snapshots, so it holds no state, and a restore starts it as finished instead of running
  /// it again (Flink's FinishedOperatorSubtaskState).
  bool finished = false;
  /// A state file the task wrote this snapshot into, straight from its frozen state, in the
  /// checkpoint's directory (file-system checkpoint storage; Flink's FileStateHandle): then
  /// operatorState and keyedState are empty here and everything is in the file, which a
  /// restore reads back (runtime::withStateInMemory).
  struct StateFile {
    std::string path;
    uint64_t size = 0;      // of the file
    uint64_t checksum = 0;  // its trailing XXH3-64
    int64_t stateBytes = 0; // the bytes of state in it, without framing
    friend bool operator==(const StateFile&, const StateFile&) = default;
  };
  std::optional<StateFile> stateFile;

  bool empty() const { return operatorState.empty() && keyedState.empty() && !stateFile; }
  friend bool operator==(const OperatorSnapshot&, const OperatorSnapshot&) = default;
};

/// Given to StreamOperator::snapshotState: which checkpoint, and where the snapshot goes.
struct StateSnapshotContext {
  int64_t checkpointId = 0;
  int64_t checkpointTimestamp = 0;
  CheckpointOptions options;
  /// Starts empty; the operator fills it. Owned by the task until it acknowledges the
  /// checkpoint to the job.
  OperatorSnapshot snapshot;
};

/// Given to StreamOperator::initializeState, before open().
struct StateInitializationContext {
  /// True when the job was started from a checkpoint or savepoint (Flink's isRestored()),
  /// also for an operator whose snapshot there is empty.
  bool restored = false;
  /// The operator subtask's snapshot in that checkpoint; never null: an empty snapshot when
  /// not restored or when the operator had no state. Valid during initializeState only.
  const OperatorSnapshot* previous = nullptr;
  /// The operator's context; the same object open() gets.
  OperatorContext* operatorContext = nullptr;

  bool isRestored() const { return restored; }
};

}  // namespace eddy::runtime
