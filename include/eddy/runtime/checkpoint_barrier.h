// CheckpointBarrier: the marker a checkpoint sends through the data channels, as Flink's
// CheckpointBarrier. A source task emits it, between two of its batches, when the job
// triggers checkpoint `id`; every task that has received it on all its input channels
// snapshots its operators and forwards it. Everything a channel carried before the barrier
// belongs to the checkpoint, everything after it to the next one (Chandy–Lamport).
#pragma once

#include <cstdint>

namespace eddy::runtime {

/// What a snapshot is taken for (Flink's SnapshotType: CheckpointType / SavepointType).
enum class SnapshotType {
  /// Taken by the job (periodically, later by the coordinator); owned and deleted by it.
  CHECKPOINT,
  /// Triggered by the user; self-contained and kept until the user deletes it.
  SAVEPOINT,
};

/// How a checkpoint is taken (Flink's CheckpointOptions, without the storage location: the
/// coordinator owns where snapshots go).
struct CheckpointOptions {
  /// Flink's CheckpointOptions.AlignmentType. ALIGNED is what the EXACTLY_ONCE checkpointing
  /// mode sends: a task stops reading a channel whose barrier arrived until every channel has
  /// delivered it, so the snapshot holds exactly the records before the barrier.
  /// AT_LEAST_ONCE does not block: records behind the barrier of a fast channel may be in
  /// the snapshot and are replayed again after a restore.
  enum class AlignmentType { ALIGNED, AT_LEAST_ONCE };

  SnapshotType snapshotType = SnapshotType::CHECKPOINT;
  AlignmentType alignment = AlignmentType::ALIGNED;

  bool isExactlyOnceMode() const { return alignment == AlignmentType::ALIGNED; }
  bool isSavepoint() const { return snapshotType == SnapshotType::SAVEPOINT; }
  friend bool operator==(const CheckpointOptions&, const CheckpointOptions&) = default;
};

struct CheckpointBarrier {
  /// Checkpoint ids increase over a job's life; a barrier with a higher id is newer.
  int64_t id = 0;
  /// When the checkpoint was triggered (the job clock's milliseconds since the epoch).
  int64_t timestamp = 0;
  CheckpointOptions options;
  friend bool operator==(const CheckpointBarrier&, const CheckpointBarrier&) = default;
};

}  // namespace eddy::runtime
