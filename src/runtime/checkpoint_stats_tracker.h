// CheckpointStatsTracker: collects a job's checkpoint statistics (eddy/runtime/
// checkpoint_statistics.h) as Flink's CheckpointStatsTracker does: the coordinator of each
// attempt reports what becomes of its checkpoints, clients read a copy at any time. One per
// job (runtime::JobSupervisor owns it), shared by the coordinators of its attempts, so the
// figures cover restarts. Thread-safe: reports come from a coordinator's driving thread,
// reads from any thread.
#pragma once

#include <cstdint>
#include <mutex>

#include "eddy/runtime/checkpoint_statistics.h"

namespace eddy::runtime {

struct CompletedCheckpoint;

class CheckpointStatsTracker {
 public:
  /// Checkpoint `checkpoint`, triggered at `triggerTimestamp`, was stored and completed at
  /// `completionTimestamp` (milliseconds, the coordinator's clock).
  void reportCompleted(const CompletedCheckpoint& checkpoint, int64_t triggerTimestamp,
                       int64_t completionTimestamp);
  /// A checkpoint failed: declined, expired, or it could not be stored.
  void reportFailed();
  /// How many checkpoints are pending now (the coordinator reports after each change).
  void reportInProgress(int64_t count);

  CheckpointStatistics snapshot() const;

 private:
  mutable std::mutex mutex_;
  CheckpointStatistics statistics_;
};

}  // namespace eddy::runtime
