// CheckpointedFunction: a user function that takes part in checkpoints itself, as Flink's
// org.apache.flink.streaming.api.checkpoint.CheckpointedFunction. A ProcessFunction or
// KeyedProcessFunction that also derives from CheckpointedFunction gets
// - initializeState(FunctionInitializationContext&) once per subtask, before open(): it
//   registers its operator state (getOperatorStateStore().getListState / getUnionListState)
//   and, on a keyed stream, keyed state (getKeyedStateStore()), which come back filled from the
//   checkpoint when isRestored();
// - snapshotState(FunctionSnapshotContext&) when a checkpoint is taken: it moves what it keeps
//   in members into that state (the runtime writes the state into the checkpoint right after).
// Both are called on the subtask's task thread, like every other call on the function. The
// stores belong to the runtime and stay valid until the function is closed.
#pragma once

#include <cstdint>
#include <optional>

#include "eddy/runtime/stream_operator.h"
#include "eddy/state/keyed_state_backend.h"
#include "eddy/state/operator_state_store.h"

namespace eddy {

/// Which checkpoint snapshotState is taking (Flink's FunctionSnapshotContext).
class FunctionSnapshotContext {
 public:
  FunctionSnapshotContext(int64_t checkpointId, int64_t checkpointTimestamp)
      : checkpointId_(checkpointId), checkpointTimestamp_(checkpointTimestamp) {}
  int64_t getCheckpointId() const { return checkpointId_; }
  int64_t getCheckpointTimestamp() const { return checkpointTimestamp_; }

 private:
  int64_t checkpointId_;
  int64_t checkpointTimestamp_;
};

/// Keyed state of the current key, by descriptor (Flink's KeyedStateStore).
class KeyedStateStore {
 public:
  explicit KeyedStateStore(KeyedStateBackend& backend) : backend_(backend) {}
  template <typename V>
  ValueState<V>* getState(const ValueStateDescriptor<V>& descriptor) {
    return backend_.getValueState(descriptor);
  }
  template <typename V>
  ListState<V>* getListState(const ListStateDescriptor<V>& descriptor) {
    return backend_.getListState(descriptor);
  }
  template <typename K, typename V>
  MapState<K, V>* getMapState(const MapStateDescriptor<K, V>& descriptor) {
    return backend_.getMapState(descriptor);
  }
  template <typename V>
  ReducingState<V>* getReducingState(const ReducingStateDescriptor<V>& descriptor) {
    return backend_.getReducingState(descriptor);
  }
  template <typename IN, typename ACC, typename OUT>
  AggregatingState<IN, OUT>* getAggregatingState(
      const AggregatingStateDescriptor<IN, ACC, OUT>& descriptor) {
    return backend_.getAggregatingState(descriptor);
  }

 private:
  KeyedStateBackend& backend_;
};

/// What initializeState gets (Flink's FunctionInitializationContext).
class FunctionInitializationContext {
 public:
  /// `keyedState`: null on a non-keyed stream.
  FunctionInitializationContext(bool restored, runtime::OperatorContext& operatorContext,
                                KeyedStateBackend* keyedState)
      : restored_(restored), operatorContext_(operatorContext) {
    if (keyedState != nullptr) keyedStateStore_.emplace(*keyedState);
  }

  /// Whether the job was started from a checkpoint or savepoint.
  bool isRestored() const { return restored_; }
  /// The subtask's operator state (created on the first call).
  OperatorStateStore& getOperatorStateStore() { return operatorContext_.operatorStateStore(); }
  /// The keyed state; null on a non-keyed stream (as Flink's).
  KeyedStateStore* getKeyedStateStore() {
    return keyedStateStore_ ? &*keyedStateStore_ : nullptr;
  }

 private:
  bool restored_;
  runtime::OperatorContext& operatorContext_;
  std::optional<KeyedStateStore> keyedStateStore_;
};

/// See the file comment.
class CheckpointedFunction {
 public:
  virtual ~CheckpointedFunction() = default;
  virtual void snapshotState(const FunctionSnapshotContext& context) = 0;
  virtual void initializeState(FunctionInitializationContext& context) = 0;
};

}  // namespace eddy
