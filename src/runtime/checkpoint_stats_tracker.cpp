#include "runtime/checkpoint_stats_tracker.h"

#include "runtime/completed_checkpoint.h"

namespace eddy::runtime {

void CheckpointStatsTracker::reportCompleted(const CompletedCheckpoint& checkpoint,
                                             int64_t triggerTimestamp,
                                             int64_t completionTimestamp) {
  CompletedCheckpointStatistics completed;
  completed.id = checkpoint.id;
  completed.triggerTimestamp = triggerTimestamp;
  completed.endToEndDurationMillis = completionTimestamp - triggerTimestamp;
  completed.stateSizeBytes = checkpoint.stateSize();
  const CheckpointTaskTimings& timings = checkpoint.taskTimings;
  completed.maxSyncDurationMicros = timings.maxSyncDurationMicros;
  completed.maxSyncSubtask = timings.maxSyncSubtask;
  completed.maxAlignmentDurationMicros = timings.maxAlignmentDurationMicros;
  completed.maxAsyncDurationMicros = timings.maxAsyncDurationMicros;
  completed.numSnapshottingSubtasks = timings.snapshottingSubtasks;

  std::lock_guard lock(mutex_);
  CheckpointStatistics& s = statistics_;
  ++s.numCompleted;
  s.endToEndDurationMillis.add(completed.endToEndDurationMillis);
  s.stateSizeBytes.add(completed.stateSizeBytes);
  s.maxSyncDurationMicros.add(completed.maxSyncDurationMicros);
  s.maxAlignmentDurationMicros.add(completed.maxAlignmentDurationMicros);
  s.maxAsyncDurationMicros.add(completed.maxAsyncDurationMicros);
  if (s.longestSyncSubtask.empty() ||
      completed.maxSyncDurationMicros > s.longestSyncDurationMicros) {
    s.longestSyncDurationMicros = completed.maxSyncDurationMicros;
    s.longestSyncSubtask = completed.maxSyncSubtask;
  }
  s.latestCompleted = std::move(completed);
}

void CheckpointStatsTracker::reportFailed() {
  std::lock_guard lock(mutex_);
  ++statistics_.numFailed;
}

void CheckpointStatsTracker::reportInProgress(int64_t count) {
  std::lock_guard lock(mutex_);
  statistics_.numInProgress = count;
}

CheckpointStatistics CheckpointStatsTracker::snapshot() const {
  std::lock_guard lock(mutex_);
  return statistics_;
}

}  // namespace eddy::runtime
