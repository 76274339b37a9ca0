// CheckpointStatistics: what a job's checkpoints cost, as Flink's checkpoint statistics
// (CheckpointStatsSnapshot: the counts, the latest completed checkpoint, a summary over the
// completed ones; per subtask the synchronous and alignment durations). Read with
// JobClient::getCheckpointStatistics(); the figures cover every attempt of the job (restarts
// included) and periodic checkpoints only: savepoints are not counted.
//
// The synchronous duration of a subtask is how long its task stopped processing records to
// take the snapshot: the operators' prepareSnapshotPreBarrier (mini-batch flushes) and
// snapshotState, and forwarding the barrier. It is the pause a checkpoint causes in the data
// flow (Flink's "Sync Duration"); writing the files happens afterwards on the coordinator's
// thread and is part of the end-to-end duration only. The alignment duration is how long a
// task with several input channels waited, between the first and the last barrier of the
// checkpoint (Flink's "Alignment Duration"; zero for one channel and for AT_LEAST_ONCE).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace eddy::runtime {

/// The figures of one completed checkpoint.
struct CompletedCheckpointStatistics {
  int64_t id = 0;
  /// When the coordinator triggered it (milliseconds since the epoch, the job's clock).
  int64_t triggerTimestamp = 0;
  /// From the trigger until it was stored (`_metadata` written) and the job told to complete
  /// it, in milliseconds (Flink's end-to-end duration).
  int64_t endToEndDurationMillis = 0;
  /// The bytes of state it holds: every operator subtask's keyed and operator state and the
  /// split enumerators' state (Flink's checkpointed data size for a full checkpoint), before
  /// the storage's framing and checksums.
  int64_t stateSizeBytes = 0;
  /// The longest synchronous part of one subtask's snapshot, in microseconds, and which
  /// subtask: "<task name> (<subtask + 1>/<parallelism>)".
  int64_t maxSyncDurationMicros = 0;
  std::string maxSyncSubtask;
  /// The longest barrier alignment of one subtask, in microseconds.
  int64_t maxAlignmentDurationMicros = 0;
  /// The longest asynchronous part of one subtask's snapshot (writing its frozen keyed state
  /// into bytes, off the task thread), in microseconds (Flink's async duration).
  int64_t maxAsyncDurationMicros = 0;
  /// The subtasks that took a snapshot for it (finished subtasks do not).
  int numSnapshottingSubtasks = 0;
};

/// Minimum, maximum and sum of one figure over the completed checkpoints.
struct CheckpointStatisticsSummary {
  int64_t count = 0;
  int64_t min = 0;
  int64_t max = 0;
  int64_t sum = 0;

  void add(int64_t value) {
    min = count == 0 ? value : std::min(min, value);
    max = count == 0 ? value : std::max(max, value);
    sum += value;
    ++count;
  }
  /// 0 without values.
  int64_t average() const { return count == 0 ? 0 : sum / count; }
};

struct CheckpointStatistics {
  /// Flink's numberOfCompletedCheckpoints, numberOfFailedCheckpoints (declined, expired, not
  /// writable; not those aborted because the job ended), numberOfInProgressCheckpoints.
  int64_t numCompleted = 0;
  int64_t numFailed = 0;
  int64_t numInProgress = 0;
  /// The most recently completed one (Flink's lastCheckpoint* metrics); none before the first.
  std::optional<CompletedCheckpointStatistics> latestCompleted;
  /// Over every completed checkpoint.
  CheckpointStatisticsSummary endToEndDurationMillis;
  CheckpointStatisticsSummary stateSizeBytes;
  /// Each checkpoint's longest subtask sync duration (microseconds), and alignment.
  CheckpointStatisticsSummary maxSyncDurationMicros;
  CheckpointStatisticsSummary maxAlignmentDurationMicros;
  CheckpointStatisticsSummary maxAsyncDurationMicros;
  /// The longest sync duration of any subtask in any completed checkpoint, and where.
  int64_t longestSyncDurationMicros = 0;
  std::string longestSyncSubtask;
};

}  // namespace eddy::runtime
