// The harness of the checkpoint tests of replayable table sources (nexmark, filesystem): a job of
// the source (uid "source") chained to a sink (uid "sink") of the same parallelism, run on
// RunningJob, so that a second job restores from the CompletedCheckpoint the first one completed,
// in memory.
//
// Each sink subtask keeps every row it gets, printed, as even-split operator list state "rows":
// the checkpoint holds exactly the rows before the barrier, and a restore at another
// parallelism deals them out to the new subtasks like the source's splits. With blockAfter set,
// every sink subtask blocks once it got that many rows, until the test released it: the sink
// runs in its source's task thread, so the source waits with it, and the test triggers the
// checkpoint while every source subtask is mid-stream; released, each source takes it right
// after the rows its sink has (its trigger mail runs before its next poll), so the checkpoint
// holds exactly blockAfter rows per subtask when blockAfter is a multiple of the sources'
// chunk size. Every wait has a deadline far beyond need.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "connectors/tests/connector_test_support.h"
#include "graph/job_graph.h"
#include "runtime/running_job.h"

namespace eddy::connectors::testing {

inline std::chrono::steady_clock::time_point checkpointTestDeadline() {
  return std::chrono::steady_clock::now() + std::chrono::seconds(60);
}

/// What the sink subtasks of one run share with the test.
struct SinkProbe {
  /// Rows per sink subtask after which it blocks until release(); 0: never blocks.
  size_t blockAfter = 0;
  /// When set, receivedKeys gets keyOf(row) of every row, in the order the rows came.
  std::function<int64_t(const Row&)> keyOf;

  std::mutex mutex;
  std::condition_variable changed;
  int blocked = 0;
  bool released = false;
  std::vector<std::string> received;    // the rows that reached the sinks in this run
  std::vector<int64_t> receivedKeys;    // with keyOf
  std::vector<std::string> finalState;  // restored + received of every subtask, at finish()

  /// Waits until `subtasks` sink subtasks are blocked.
  bool waitUntilBlocked(int subtasks) {
    std::unique_lock lock(mutex);
    return changed.wait_until(lock, checkpointTestDeadline(), [&] { return blocked >= subtasks; });
  }
  void release() {
    {
      std::lock_guard lock(mutex);
      released = true;
    }
    changed.notify_all();
  }
};

/// Keeps every row it gets, printed, as operator list state "rows" (see the file comment).
class RowListSink final : public runtime::StreamOperator {
 public:
  explicit RowListSink(std::shared_ptr<SinkProbe> probe) : probe_(std::move(probe)) {}

  void initializeState(runtime::StateInitializationContext& context) override {
    rows_ = context.operatorContext->operatorStateStore().getListState(
        ListStateDescriptor<std::string>("rows"));
  }
  void processBatch(int, runtime::BatchPtr batch) override {
    std::vector<std::string> printed;
    std::vector<int64_t> keys;
    for (const vector::Chunk& chunk : runtime::typedBatch<vector::Chunk>(*batch).records) {
      for (const Row& row : vector::chunkToRows(chunk)) {
        printed.push_back(row.toString());
        if (probe_->keyOf) keys.push_back(probe_->keyOf(row));
      }
    }
    receivedHere_ += printed.size();
    {
      std::lock_guard lock(probe_->mutex);
      probe_->received.insert(probe_->received.end(), printed.begin(), printed.end());
      probe_->receivedKeys.insert(probe_->receivedKeys.end(), keys.begin(), keys.end());
    }
    rows_->addAll(std::move(printed));
    if (probe_->blockAfter > 0 && !blocked_ && receivedHere_ >= probe_->blockAfter) {
      blocked_ = true;
      std::unique_lock lock(probe_->mutex);
      ++probe_->blocked;
      probe_->changed.notify_all();
      probe_->changed.wait_until(lock, checkpointTestDeadline(),
                                 [this] { return probe_->released; });
    }
  }
  void finish() override {
    std::vector<std::string> rows = rows_->get();
    std::lock_guard lock(probe_->mutex);
    probe_->finalState.insert(probe_->finalState.end(), rows.begin(), rows.end());
  }

 private:
  std::shared_ptr<SinkProbe> probe_;
  ListState<std::string>* rows_ = nullptr;  // in the operator state store
  size_t receivedHere_ = 0;
  bool blocked_ = false;
};

/// `source` (uid "source") chained to a RowListSink (uid "sink"), both at `parallelism`,
/// started; restored from `restored` when it is set. `nodes` keeps the transformations alive.
inline std::shared_ptr<runtime::RunningJob> startSourceCheckpointJob(
    std::shared_ptr<const Source<vector::Chunk>> source, int parallelism,
    std::shared_ptr<SinkProbe> probe, std::shared_ptr<const runtime::CompletedCheckpoint> restored,
    std::vector<std::unique_ptr<runtime::Transformation>>& nodes) {
  auto add = [&nodes, parallelism](runtime::Transformation::Kind kind, std::string name,
                                   std::string uid, std::vector<runtime::Transformation*> inputs) {
    auto node = std::make_unique<runtime::Transformation>();
    node->id = static_cast<int>(nodes.size()) + 1;
    node->kind = kind;
    node->name = std::move(name);
    node->uid = std::move(uid);
    node->parallelism = parallelism;
    node->inputs = std::move(inputs);
    node->outputType = std::make_shared<runtime::TypedRecordOps<vector::Chunk>>();
    nodes.push_back(std::move(node));
    return nodes.back().get();
  };
  runtime::Transformation* sourceNode =
      add(runtime::Transformation::Kind::SOURCE, "Source: t", "source", {});
  sourceNode->bounded = source->getBoundedness() == Boundedness::BOUNDED;
  sourceNode->operatorFactory = std::make_shared<runtime::LambdaOperatorFactory>(
      [source]() -> std::unique_ptr<runtime::StreamOperator> {
        return std::make_unique<operators::SourceReaderOperator<vector::Chunk>>(
            source, WatermarkStrategy<vector::Chunk>::noWatermarks());
      });
  // The same parallelism and no partitioning: a FORWARD edge, so the sink is chained.
  runtime::Transformation* sink =
      add(runtime::Transformation::Kind::SINK, "sink", "sink", {sourceNode});
  sink->operatorFactory = std::make_shared<runtime::LambdaOperatorFactory>(
      [probe]() -> std::unique_ptr<runtime::StreamOperator> {
        return std::make_unique<RowListSink>(probe);
      });
  std::vector<const runtime::Transformation*> all;
  for (const auto& node : nodes) all.push_back(node.get());
  graph::JobGraphSettings graphSettings;
  graphSettings.defaultParallelism = parallelism;
  runtime::TaskSettings settings;
  settings.restoredCheckpoint = std::move(restored);
  auto job = std::make_shared<runtime::RunningJob>("source checkpoint test",
                                                   graph::buildJobGraph(all, graphSettings),
                                                   SystemClock::instance(), std::move(settings));
  job->start();
  return job;
}

/// Waits until all `parallelism` sink subtasks blocked, triggers checkpoint 1, releases them;
/// the checkpoint once completed, else null.
inline std::shared_ptr<const runtime::CompletedCheckpoint> checkpointEverySubtaskMidStream(
    runtime::RunningJob& job, SinkProbe& probe, int parallelism) {
  if (!probe.waitUntilBlocked(parallelism)) {
    probe.release();
    return nullptr;
  }
  const bool triggered = job.triggerCheckpoint(1, runtime::CheckpointOptions{});
  probe.release();
  if (!triggered) return nullptr;
  runtime::CheckpointOutcome outcome = job.waitForCheckpoint(1, checkpointTestDeadline());
  return outcome.status == runtime::CheckpointStatus::COMPLETED ? outcome.checkpoint : nullptr;
}

/// The elements of the operator list state `name` of operator `uid` over all its subtasks'
/// snapshots in `checkpoint`, in subtask order (views into the checkpoint).
inline std::vector<std::string_view> listStateElements(
    const runtime::CompletedCheckpoint& checkpoint, const std::string& uid, std::string_view name) {
  std::vector<std::string_view> elements;
  auto found = checkpoint.operators.find(uid);
  if (found == checkpoint.operators.end()) return elements;
  const std::string blobName = std::string(state::kOperatorListStatePrefix) + std::string(name);
  for (const runtime::OperatorSnapshot& snapshot : found->second) {
    auto blob = snapshot.operatorState.find(blobName);
    if (blob == snapshot.operatorState.end()) continue;
    for (std::string_view element : state::decodeOperatorListState(blob->second).elements) {
      elements.push_back(element);
    }
  }
  return elements;
}

/// What a checkpointed run and its restore gave (see runCheckpointedAndRestored).
struct CheckpointedRuns {
  std::shared_ptr<const runtime::CompletedCheckpoint> checkpoint;
  /// The rows of the first run, which went on to its end after the checkpoint, sorted.
  std::vector<std::string> uninterrupted;
  /// The rows in the checkpoint's sink state.
  size_t checkpointed = 0;
  /// The restored run: the rows its sinks got, and those plus the restored ones, sorted.
  std::vector<std::string> restoredReceived;
  std::vector<int64_t> restoredReceivedKeys;
  std::vector<std::string> restoredFinal;
};

/// Runs `makeSource()` at `before` subtasks, checkpointed once every sink subtask has
/// `blockAfter` rows and then run to its end, and a new `makeSource()` (as a new process would
/// build it) at `after` subtasks restored from that checkpoint. With keyOf, the restored run's
/// sinks record the keys of their rows in arrival order.
inline CheckpointedRuns runCheckpointedAndRestored(
    const std::function<std::shared_ptr<Source<vector::Chunk>>()>& makeSource, int before,
    int after, size_t blockAfter, std::function<int64_t(const Row&)> keyOf = {}) {
  CheckpointedRuns runs;
  auto first = std::make_shared<SinkProbe>();
  first->blockAfter = blockAfter;
  {
    std::vector<std::unique_ptr<runtime::Transformation>> nodes;
    auto job = startSourceCheckpointJob(makeSource(), before, first, nullptr, nodes);
    runs.checkpoint = checkpointEverySubtaskMidStream(*job, *first, before);
    job->waitForCompletion();  // uninterrupted: it reads everything
  }
  if (!runs.checkpoint) return runs;
  {
    std::lock_guard lock(first->mutex);
    runs.uninterrupted = first->finalState;
  }
  std::sort(runs.uninterrupted.begin(), runs.uninterrupted.end());
  runs.checkpointed = listStateElements(*runs.checkpoint, "sink", "rows").size();

  auto second = std::make_shared<SinkProbe>();
  second->keyOf = std::move(keyOf);
  {
    std::vector<std::unique_ptr<runtime::Transformation>> nodes;
    auto job = startSourceCheckpointJob(makeSource(), after, second, runs.checkpoint, nodes);
    job->waitForCompletion();
  }
  std::lock_guard lock(second->mutex);
  runs.restoredReceived = second->received;
  runs.restoredReceivedKeys = second->receivedKeys;
  runs.restoredFinal = second->finalState;
  std::sort(runs.restoredFinal.begin(), runs.restoredFinal.end());
  return runs;
}

/// Checks what every test of a replayable source asserts of runCheckpointedAndRestored's
/// result: a checkpoint with `before * blockAfter` rows and the source's enumerator state;
/// `expected` rows (sorted, distinct) in the uninterrupted run; the restored run got exactly the
/// rest, and with the checkpoint's rows it has each row once.
inline void expectEveryRowOnceAsUninterrupted(const CheckpointedRuns& runs,
                                              const std::vector<std::string>& expected, int before,
                                              size_t blockAfter) {
  ASSERT_TRUE(runs.checkpoint) << "no checkpoint completed mid-stream";
  EXPECT_EQ(runs.checkpoint->sourceCoordinators.count("source"), 1u);
  EXPECT_EQ(runs.checkpointed, static_cast<size_t>(before) * blockAfter);
  ASSERT_EQ(std::adjacent_find(expected.begin(), expected.end()), expected.end())
      << "the test's rows are not distinct";
  ASSERT_EQ(runs.uninterrupted.size(), expected.size());
  EXPECT_TRUE(runs.uninterrupted == expected) << "the uninterrupted run read other rows";
  EXPECT_EQ(runs.restoredReceived.size(), expected.size() - runs.checkpointed);
  ASSERT_EQ(runs.restoredFinal.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(runs.restoredFinal[i], expected[i]) << "row " << i << " of the sorted rows";
  }
}

}  // namespace eddy::connectors::testing
