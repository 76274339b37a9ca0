// The datagen source is replayable: a job checkpointed mid-stream and restored into a new job,
// at the same and at another parallelism, ends with every row of the sequence exactly once over
// the checkpoint's rows and the restored run's, and every restored row, random fields
// included, equals the row the uninterrupted first run generated for that index (each split's
// random generator is in the checkpoint); a restored reader is paced from its restored
// position, without a burst; the split format round trips and names the source when it cannot
// be read. Fresh starts are covered by datagen_test.cpp.
//
// Jobs run on RunningJob, so that the second job restores from the CompletedCheckpoint the
// first one completed, in memory. The sink keeps (id, row) for every row it gets as its state,
// so the checkpoint holds exactly the rows before the barrier; it blocks once it has some rows
// until the test triggered the checkpoint, so the checkpoint is taken mid-stream. Every wait
// has a deadline far beyond need.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "connectors/datagen/datagen_factory.h"
#include "connectors/tests/connector_test_support.h"
#include "graph/job_graph.h"
#include "runtime/running_job.h"

namespace eddy::connectors {
namespace {

using namespace std::chrono_literals;
using runtime::CompletedCheckpoint;
using testing::bigintType;
using testing::intType;
using testing::rowType;
using testing::tableContext;
using IndexedRow = std::pair<int64_t, std::string>;  // the id field, the row as printed

std::chrono::steady_clock::time_point deadline() { return std::chrono::steady_clock::now() + 60s; }

class Signal {
 public:
  void open() {
    {
      std::lock_guard lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }
  bool wait() {
    std::unique_lock lock(mutex_);
    return opened_.wait_until(lock, deadline(), [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

struct SinkProbe {
  size_t blockAfter = 0;  // rows; 0: never blocks
  Signal blocked;
  Signal release;
  std::mutex mutex;
  std::vector<IndexedRow> received;    // rows that reached the sink in this run
  std::vector<IndexedRow> finalState;  // restored + received, at finish()
};

/// Keeps (id, row) of every row it gets as operator state "rows".
class RowSink final : public runtime::StreamOperator {
 public:
  explicit RowSink(std::shared_ptr<SinkProbe> probe) : probe_(std::move(probe)) {}

  void initializeState(runtime::StateInitializationContext& context) override {
    auto found = context.previous->operatorState.find("rows");
    if (found == context.previous->operatorState.end()) return;
    std::string_view bytes = found->second;
    rows_ = TypeSerializer<std::vector<IndexedRow>>::deserialize(bytes);
  }
  void processBatch(int, runtime::BatchPtr batch) override {
    std::vector<IndexedRow> rows;
    for (const vector::Chunk& chunk : runtime::typedBatch<vector::Chunk>(*batch).records) {
      for (const Row& row : vector::chunkToRows(chunk)) {
        rows.emplace_back(row.getFieldAs<int64_t>(0), row.toString());
      }
    }
    {
      std::lock_guard lock(probe_->mutex);
      probe_->received.insert(probe_->received.end(), rows.begin(), rows.end());
    }
    rows_.insert(rows_.end(), rows.begin(), rows.end());
    if (probe_->blockAfter > 0 && !blocked_ && rows_.size() >= probe_->blockAfter) {
      blocked_ = true;
      probe_->blocked.open();
      probe_->release.wait();
    }
  }
  void snapshotState(runtime::StateSnapshotContext& context) override {
    std::string bytes;
    TypeSerializer<std::vector<IndexedRow>>::serialize(rows_, bytes);
    context.snapshot.operatorState["rows"] = std::move(bytes);
  }
  void finish() override {
    std::lock_guard lock(probe_->mutex);
    probe_->finalState = rows_;
  }

 private:
  std::shared_ptr<SinkProbe> probe_;
  std::vector<IndexedRow> rows_;
  bool blocked_ = false;
};

std::shared_ptr<Source<vector::Chunk>> dataGen(LogicalTypePtr type,
                                               std::map<std::string, std::string> options) {
  options["connector"] = "datagen";
  ConnectorContext context = tableContext(std::move(type), std::move(options));
  return FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(context)
      ->createSource();
}

/// datagen (uid "source", `parallelism`) → REBALANCE → RowSink (uid "sink", parallelism 1).
std::shared_ptr<runtime::RunningJob> startJob(
    std::shared_ptr<const Source<vector::Chunk>> source, int parallelism,
    std::shared_ptr<SinkProbe> probe, std::shared_ptr<const CompletedCheckpoint> restored,
    std::vector<std::unique_ptr<runtime::Transformation>>& nodes) {
  auto add = [&nodes](runtime::Transformation::Kind kind, std::string name, std::string uid,
                      int nodeParallelism, std::vector<runtime::Transformation*> inputs) {
    auto node = std::make_unique<runtime::Transformation>();
    node->id = static_cast<int>(nodes.size()) + 1;
    node->kind = kind;
    node->name = std::move(name);
    node->uid = std::move(uid);
    node->parallelism = nodeParallelism;
    node->inputs = std::move(inputs);
    node->outputType = std::make_shared<runtime::TypedRecordOps<vector::Chunk>>();
    nodes.push_back(std::move(node));
    return nodes.back().get();
  };
  runtime::Transformation* sourceNode =
      add(runtime::Transformation::Kind::SOURCE, "Source: datagen", "source", parallelism, {});
  sourceNode->bounded = source->getBoundedness() == Boundedness::BOUNDED;
  sourceNode->operatorFactory = std::make_shared<runtime::LambdaOperatorFactory>(
      [source]() -> std::unique_ptr<runtime::StreamOperator> {
        return std::make_unique<operators::SourceReaderOperator<vector::Chunk>>(
            source, WatermarkStrategy<vector::Chunk>::noWatermarks());
      });
  runtime::Transformation* rebalance =
      add(runtime::Transformation::Kind::PARTITION, "Rebalance", "", -1, {sourceNode});
  rebalance->partitionKind = runtime::PartitionKind::REBALANCE;
  runtime::Transformation* sink =
      add(runtime::Transformation::Kind::SINK, "sink", "sink", 1, {rebalance});
  sink->operatorFactory = std::make_shared<runtime::LambdaOperatorFactory>(
      [probe]() -> std::unique_ptr<runtime::StreamOperator> {
        return std::make_unique<RowSink>(probe);
      });
  std::vector<const runtime::Transformation*> all;
  for (const auto& node : nodes) all.push_back(node.get());
  graph::JobGraphSettings graphSettings;
  graphSettings.defaultParallelism = 1;
  runtime::TaskSettings settings;
  settings.restoredCheckpoint = std::move(restored);
  auto job = std::make_shared<runtime::RunningJob>(
      "datagen", graph::buildJobGraph(all, graphSettings), SystemClock::instance(),
      std::move(settings));
  job->start();
  return job;
}

/// Waits until the sink blocked, triggers checkpoint 1, releases the sink; the checkpoint once
/// completed, else null.
std::shared_ptr<const CompletedCheckpoint> checkpointMidStream(runtime::RunningJob& job,
                                                               SinkProbe& probe) {
  if (!probe.blocked.wait()) return nullptr;
  const bool triggered = job.triggerCheckpoint(1, runtime::CheckpointOptions{});
  probe.release.open();
  if (!triggered) return nullptr;
  runtime::CheckpointOutcome outcome = job.waitForCheckpoint(1, deadline());
  return outcome.status == runtime::CheckpointStatus::COMPLETED ? outcome.checkpoint : nullptr;
}

// An id sequence with random fields of several kinds (no time-based ones: those read the clock).
LogicalTypePtr randomRowType() {
  return rowType({{"id", bigintType()},
                  {"i", intType()},
                  {"x", LogicalType::simple(LogicalTypeRoot::DOUBLE)},
                  {"s", LogicalType::varchar(12)},
                  {"n", intType()}});
}

std::map<std::string, std::string> randomRowOptions(int64_t rows, int64_t rowsPerSecond) {
  return {{"rows-per-second", std::to_string(rowsPerSecond)},
          {"fields.id.kind", "sequence"},
          {"fields.id.start", "0"},
          {"fields.id.end", std::to_string(rows - 1)},
          {"fields.i.min", "-1000000"},
          {"fields.i.max", "1000000"},
          {"fields.s.length", "12"},
          {"fields.n.null-rate", "0.3"}};
}

// A first run at `before` subtasks that is checkpointed mid-stream and runs to its end, then a
// run at `after` subtasks restored from that checkpoint: the restored run's rows must be those
// of the first run. At 200,000 rows/s, at most three readers get at least 20,480 rows/s each,
// so every chunk is 1024 rows (or the rest of its split) from its split's start, in both runs:
// the generators are drawn from in the same order. A reader waits between its chunks, so each
// chunk leaves its task at once. Half a second per run.
void expectRestoredRowsEqualTheUninterruptedRun(int before, int after) {
  constexpr int64_t kRows = 102'400;
  constexpr int64_t kRowsPerSecond = 200'000;
  auto first = std::make_shared<SinkProbe>();
  first->blockAfter = 8192;
  std::shared_ptr<const CompletedCheckpoint> checkpoint;
  std::vector<std::unique_ptr<runtime::Transformation>> firstNodes;
  {
    auto job = startJob(dataGen(randomRowType(), randomRowOptions(kRows, kRowsPerSecond)), before,
                        first, nullptr, firstNodes);
    checkpoint = checkpointMidStream(*job, *first);
    job->waitForCompletion();  // uninterrupted: it generates every row
  }
  ASSERT_TRUE(checkpoint);
  std::map<int64_t, std::string> uninterrupted;
  {
    std::lock_guard lock(first->mutex);
    for (const auto& [id, row] : first->finalState) uninterrupted.emplace(id, row);
  }
  ASSERT_EQ(uninterrupted.size(), static_cast<size_t>(kRows));
  std::string_view checkpointBytes =
      checkpoint->operators.at("sink").at(0).operatorState.at("rows");
  const size_t checkpointed =
      TypeSerializer<std::vector<IndexedRow>>::deserialize(checkpointBytes).size();
  EXPECT_GE(checkpointed, 8192u);
  EXPECT_LT(checkpointed, static_cast<size_t>(kRows / 2));
  EXPECT_EQ(checkpoint->sourceCoordinators.count("source"), 1u);

  auto second = std::make_shared<SinkProbe>();
  std::vector<std::unique_ptr<runtime::Transformation>> secondNodes;
  // A new source definition from the same options, as a new process would build it.
  auto job = startJob(dataGen(randomRowType(), randomRowOptions(kRows, kRowsPerSecond)), after,
                      second, checkpoint, secondNodes);
  job->waitForCompletion();
  std::lock_guard lock(second->mutex);
  EXPECT_EQ(second->received.size(), static_cast<size_t>(kRows) - checkpointed);
  std::vector<IndexedRow> rows = second->finalState;
  std::sort(rows.begin(), rows.end());
  ASSERT_EQ(rows.size(), static_cast<size_t>(kRows));
  for (int64_t id = 0; id < kRows; ++id) {
    const IndexedRow& row = rows[static_cast<size_t>(id)];
    ASSERT_EQ(row.first, id);
    ASSERT_EQ(row.second, uninterrupted.at(id)) << "row " << id;
  }
}

TEST(DataGenCheckpointTest, RestoredSequenceAndRandomValuesContinueTheCheckpointedRun) {
  expectRestoredRowsEqualTheUninterruptedRun(2, 2);
}

TEST(DataGenCheckpointTest, RestoredAtAnotherParallelismTheSplitsContinueWhole) {
  expectRestoredRowsEqualTheUninterruptedRun(2, 1);
  expectRestoredRowsEqualTheUninterruptedRun(1, 3);
}

TEST(DataGenCheckpointTest, ARestoredReaderIsPacedFromItsPositionWithoutABurst) {
  // 4000 rows/s at one subtask: chunks of 200 rows, the first at once.
  constexpr int64_t kRows = 3000;
  auto type = rowType({{"id", bigintType()}});
  auto options = [] {
    return std::map<std::string, std::string>{{"rows-per-second", "4000"},
                                              {"fields.id.kind", "sequence"},
                                              {"fields.id.start", "0"},
                                              {"fields.id.end", std::to_string(kRows - 1)}};
  };
  auto first = std::make_shared<SinkProbe>();
  first->blockAfter = 400;
  std::shared_ptr<const CompletedCheckpoint> checkpoint;
  std::vector<std::unique_ptr<runtime::Transformation>> firstNodes;
  {
    auto job = startJob(dataGen(type, options()), 1, first, nullptr, firstNodes);
    checkpoint = checkpointMidStream(*job, *first);
    job->cancel();
    job->waitForCompletion();
  }
  ASSERT_TRUE(checkpoint);
  std::string_view checkpointBytes =
      checkpoint->operators.at("sink").at(0).operatorState.at("rows");
  const auto checkpointed = static_cast<int64_t>(
      TypeSerializer<std::vector<IndexedRow>>::deserialize(checkpointBytes).size());
  ASSERT_LT(checkpointed, kRows - 1000);

  auto second = std::make_shared<SinkProbe>();
  std::vector<std::unique_ptr<runtime::Transformation>> secondNodes;
  const auto started = std::chrono::steady_clock::now();
  auto job = startJob(dataGen(type, options()), 1, second, checkpoint, secondNodes);
  job->waitForCompletion();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::lock_guard lock(second->mutex);
  ASSERT_EQ(second->finalState.size(), static_cast<size_t>(kRows));
  // The rest, but one chunk, at 4000 rows/s: no burst for the time the first job ran.
  const auto rest = static_cast<double>(kRows - checkpointed);
  EXPECT_GE(seconds, (rest - 200) / 4000 * 0.9) << rest << " rows";
  std::vector<int64_t> ids;
  for (const auto& [id, row] : second->finalState) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  for (int64_t id = 0; id < kRows; ++id) ASSERT_EQ(ids[static_cast<size_t>(id)], id);
}

TEST(DataGenCheckpointTest, SplitBytesRoundTripAndNameTheSourceWhenTheyCannotBeRead) {
  auto source = std::dynamic_pointer_cast<DataGenSource>(
      dataGen(randomRowType(), randomRowOptions(1000, 100)));
  ASSERT_TRUE(source);
  std::vector<std::vector<DataGenSplit>> plan = source->planSplits(3, 42);
  ASSERT_EQ(plan.size(), 3u);
  ASSERT_EQ(plan[1].size(), 1u);
  DataGenSplit split = plan[1][0];
  EXPECT_EQ(split.nextRow, 333);  // the fresh start's share: 1000 * 1 / 3
  EXPECT_EQ(split.endRow, 666);
  EXPECT_EQ(split.rateDivisor, 3);  // a third of rows-per-second
  split.random.discard(12345);  // a generator that has been drawn from
  const auto& serializer = source->getSplitSerializer();
  const std::string bytes = serializer.serialize(split);
  DataGenSplit restored = serializer.deserialize(1, bytes);
  EXPECT_EQ(restored, split);
  EXPECT_EQ(restored.random(), split.random());  // the same next draw

  auto errorOf = [&](int version, const std::string& serialized) -> std::string {
    try {
      serializer.deserialize(version, serialized);
    } catch (const EddyException& error) {
      return error.what();
    }
    return "<no exception>";
  };
  EXPECT_EQ(errorOf(2, bytes),
            "Cannot read a DataGenSource split: it has format version 2, and this eddy reads "
            "version 1");
  EXPECT_EQ(errorOf(1, bytes.substr(0, bytes.size() - 10)).rfind(
                "Cannot read a DataGenSource split: ", 0),
            0u);
  // A generator state that does not parse; a rate divisor that is no parallelism.
  auto splitBytes = [](uint64_t rateDivisor, const std::string& random) {
    connector::SerializedFieldWriter writer;
    writer.writeBytes("1");
    writer.writeInt64(0);
    writer.writeInt64(10);
    writer.writeVarint(rateDivisor);
    writer.writeBytes(random);
    return writer.take();
  };
  EXPECT_EQ(errorOf(1, splitBytes(2, "12 34 not-a-state")),
            "Cannot read a DataGenSource split: its random generator state does not parse "
            "(corrupted or truncated)");
  std::ostringstream state;
  state << split.random;
  EXPECT_EQ(serializer.deserialize(1, splitBytes(2, state.str())).rateDivisor, 2);
  EXPECT_EQ(errorOf(1, splitBytes(0, state.str())),
            "Cannot read a DataGenSource split: its rate divisor 0 is out of range (corrupted or "
            "truncated)");
}

}  // namespace
}  // namespace eddy::connectors
