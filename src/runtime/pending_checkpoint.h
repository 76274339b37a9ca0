// PendingCheckpoint: a checkpoint the job triggered and not every task has acknowledged yet
// (Flink's PendingCheckpoint, without storage). It records which task acknowledged, collects
// the snapshots each task sent with its acknowledgement (one per chained operator, filed
// under the operator's uid and the task's subtask index), and becomes a CompletedCheckpoint
// once the last task acknowledged. A task that finished before the checkpoint reached it is
// acknowledged on its behalf with finished, empty snapshots (see OperatorSnapshot::finished).
// Not thread-safe: the RunningJob guards it with its checkpoint mutex.
#pragma once

#include <memory>
#include <vector>

#include "graph/job_graph.h"
#include "runtime/completed_checkpoint.h"

namespace eddy::runtime {

class PendingCheckpoint {
 public:
  /// `graph` must outlive the pending checkpoint.
  PendingCheckpoint(const CheckpointBarrier& barrier, const graph::JobGraph& graph);

  /// Files the task's snapshots (`chainSnapshots[i]` is its vertex's operator i) and how long
  /// it took them (CompletedCheckpoint::taskTimings). Returns false (and keeps nothing) when
  /// the task had already acknowledged.
  bool acknowledge(int vertex, int subtask, std::vector<OperatorSnapshot> chainSnapshots,
                   const SubtaskCheckpointTiming& timing);
  /// Acknowledges for a task that has finished: a finished, empty snapshot per operator.
  bool acknowledgeFinished(int vertex, int subtask);
  bool isFullyAcknowledged() const { return notYetAcknowledged_ == 0; }
  /// Whether the task acknowledged with snapshots it took (not as finished): it then waits for
  /// the checkpoint's completion or abort before it closes its operators.
  bool isAcknowledgedWithSnapshotBy(int vertex, int subtask) const;
  const CheckpointBarrier& barrier() const { return barrier_; }
  /// Once fully acknowledged: the collected snapshots. Leaves this object empty.
  std::shared_ptr<const CompletedCheckpoint> finalizeCheckpoint();

 private:
  bool fileSnapshots(int vertex, int subtask, std::vector<OperatorSnapshot> chainSnapshots);
  void recordTiming(int vertex, int subtask, const SubtaskCheckpointTiming& timing);

  enum class TaskState { WAITING, ACKNOWLEDGED, FINISHED };

  const graph::JobGraph& graph_;
  const CheckpointBarrier barrier_;
  std::vector<std::vector<TaskState>> tasks_;  // [vertex][subtask]
  int notYetAcknowledged_ = 0;
  std::unique_ptr<CompletedCheckpoint> checkpoint_;
};

}  // namespace eddy::runtime
