#include "runtime/pending_checkpoint.h"

#include <algorithm>
#include <string>

#include "common/check.h"

namespace eddy::runtime {

PendingCheckpoint::PendingCheckpoint(const CheckpointBarrier& barrier,
                                     const graph::JobGraph& graph)
    : graph_(graph), barrier_(barrier), checkpoint_(std::make_unique<CompletedCheckpoint>()) {
  checkpoint_->id = barrier.id;
  checkpoint_->timestamp = barrier.timestamp;
  checkpoint_->options = barrier.options;
  tasks_.resize(graph.vertices.size());
  for (size_t v = 0; v < graph.vertices.size(); ++v) {
    const graph::JobVertex& vertex = graph.vertices[v];
    tasks_[v].assign(static_cast<size_t>(vertex.parallelism), TaskState::WAITING);
    notYetAcknowledged_ += vertex.parallelism;
    for (const graph::ChainedOperator& chained : vertex.operators) {
      checkpoint_->operators[chained.uid].resize(static_cast<size_t>(vertex.parallelism));
    }
  }
}

bool PendingCheckpoint::acknowledge(int vertex, int subtask,
                                    std::vector<OperatorSnapshot> chainSnapshots,
                                    const SubtaskCheckpointTiming& timing) {
  if (!fileSnapshots(vertex, subtask, std::move(chainSnapshots))) return false;
  recordTiming(vertex, subtask, timing);
  return true;
}

bool PendingCheckpoint::fileSnapshots(int vertex, int subtask,
                                      std::vector<OperatorSnapshot> chainSnapshots) {
  TaskState& state = tasks_.at(static_cast<size_t>(vertex)).at(static_cast<size_t>(subtask));
  if (state != TaskState::WAITING) return false;
  const std::vector<graph::ChainedOperator>& chain =
      graph_.vertices[static_cast<size_t>(vertex)].operators;
  EDDY_CHECK_EQ(chainSnapshots.size(), chain.size());
  for (size_t i = 0; i < chain.size(); ++i) {
    checkpoint_->operators[chain[i].uid][static_cast<size_t>(subtask)] =
        std::move(chainSnapshots[i]);
  }
  state = TaskState::ACKNOWLEDGED;
  --notYetAcknowledged_;
  return true;
}

void PendingCheckpoint::recordTiming(int vertex, int subtask,
                                     const SubtaskCheckpointTiming& timing) {
  CheckpointTaskTimings& timings = checkpoint_->taskTimings;
  ++timings.snapshottingSubtasks;
  if (timing.syncDurationMicros >= timings.maxSyncDurationMicros) {
    const graph::JobVertex& task = graph_.vertices[static_cast<size_t>(vertex)];
    timings.maxSyncDurationMicros = timing.syncDurationMicros;
    timings.maxSyncSubtask = task.name + " (" + std::to_string(subtask + 1) + "/" +
                             std::to_string(task.parallelism) + ")";
  }
  timings.maxAlignmentDurationMicros =
      std::max(timings.maxAlignmentDurationMicros, timing.alignmentDurationMicros);
  timings.maxAsyncDurationMicros =
      std::max(timings.maxAsyncDurationMicros, timing.asyncDurationMicros);
}

bool PendingCheckpoint::acknowledgeFinished(int vertex, int subtask) {
  const size_t chainLength = graph_.vertices[static_cast<size_t>(vertex)].operators.size();
  std::vector<OperatorSnapshot> finished(chainLength);
  for (OperatorSnapshot& snapshot : finished) snapshot.finished = true;
  if (!fileSnapshots(vertex, subtask, std::move(finished))) return false;
  tasks_[static_cast<size_t>(vertex)][static_cast<size_t>(subtask)] = TaskState::FINISHED;
  return true;
}

bool PendingCheckpoint::isAcknowledgedWithSnapshotBy(int vertex, int subtask) const {
  return tasks_.at(static_cast<size_t>(vertex)).at(static_cast<size_t>(subtask)) ==
         TaskState::ACKNOWLEDGED;
}

std::shared_ptr<const CompletedCheckpoint> PendingCheckpoint::finalizeCheckpoint() {
  EDDY_CHECK_EQ(notYetAcknowledged_, 0);
  EDDY_CHECK(checkpoint_ != nullptr);
  return std::shared_ptr<const CompletedCheckpoint>(std::move(checkpoint_));
}

}  // namespace eddy::runtime
