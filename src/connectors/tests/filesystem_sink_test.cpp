// The filesystem sink's exactly-once commits, one operator instance driven through its hooks:
// STREAMING files hidden until the checkpoint that closed them completes, aborted checkpoints,
// a restore after a crash (the checkpoint's files committed, later ones deleted), finish();
// BATCH files staged until the job commits, nothing left by a failed job; the removal of files
// that killed jobs abandoned. Every assertion is on the files of a temporary directory.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "connectors/filesystem/file_sink.h"
#include "connectors/filesystem/file_source.h"
#include "connectors/filesystem/filesystem_factory.h"
#include "connectors/tests/connector_test_support.h"
#include "eddy/state/operator_state_store.h"
#include "state/state_redistribution.h"

namespace eddy::connectors {
namespace {

namespace fs = std::filesystem;

using testing::collectChunks;
using testing::readFile;
using testing::TemporaryDirectory;
using testing::intType;
using testing::rowsOf;
using testing::rowType;
using testing::stringType;
using testing::tableContext;


/// Every file under `directory` (relative paths, sorted), hidden ones included.
std::vector<std::string> filesUnder(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(directory)) {
    if (entry.is_regular_file()) {
      names.push_back(entry.path().lexically_relative(directory).generic_string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

LogicalTypePtr scoreType() {
  return rowType({{"id", intType()}, {"name", stringType()}, {"score", intType()}});
}

ConnectorContext csvTable(const fs::path& path) {
  return tableContext(scoreType(), {{"connector", "filesystem"},
                                    {"path", path.string()},
                                    {"format", "csv"}});
}

std::shared_ptr<const FileSinkOperatorFactory> sinkFactory(const ConnectorContext& context) {
  auto factory = FactoryRegistry::builtIn()
                     .factoryFor(context)
                     .createDynamicTableSink(context)
                     ->createSinkOperator();
  return std::dynamic_pointer_cast<const FileSinkOperatorFactory>(factory);
}

/// The rows eddy's own FileSource reads from the table, sorted.
std::vector<std::string> rowsRead(const ConnectorContext& context) {
  auto source = FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(context);
  std::vector<std::string> rows;
  for (const Row& row : rowsOf(collectChunks(source->createSource(), 1))) {
    rows.push_back(row.toString());
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// One sink subtask driven through its hooks, as a task would.
class SinkSubtask {
 public:
  SinkSubtask(const FileSinkOperatorFactory& factory, int subtaskIndex, int parallelism,
              RuntimeExecutionMode mode = RuntimeExecutionMode::STREAMING,
              bool checkpointing = false)
      : sink_(factory.createOperator()) {
    context_.checkpointingEnabled = checkpointing;
    context_.operatorName = "Sink: t";
    context_.subtaskIndex = subtaskIndex;
    context_.parallelism = parallelism;
    context_.executionMode = mode;
    context_.output = &output_;
  }
  /// initializeState (restored from `previous` when given), then open.
  void start(const runtime::OperatorSnapshot* previous = nullptr) {
    runtime::OperatorSnapshot empty;
    runtime::StateInitializationContext initialization;
    initialization.restored = previous != nullptr;
    initialization.previous = previous ? previous : &empty;
    initialization.operatorContext = &context_;
    context_.restoredSnapshot = initialization.previous;  // as the task: the stores restore
    sink_->initializeState(initialization);
    sink_->open(context_);
  }
  void write(std::vector<Row> rows) {
    auto batch = std::make_unique<runtime::TypedBatch<vector::Chunk>>();
    batch->push(vector::rowsToChunk(rows, scoreType()), runtime::kNoTimestamp);
    sink_->processBatch(0, std::move(batch));
  }
  runtime::OperatorSnapshot checkpoint(int64_t id) {
    sink_->prepareSnapshotPreBarrier(id);
    runtime::StateSnapshotContext snapshot;
    snapshot.checkpointId = id;
    sink_->snapshotState(snapshot);
    context_.snapshotStateStores(snapshot.snapshot);  // as the task does after snapshotState
    return snapshot.snapshot;
  }
  runtime::StreamOperator& sink() { return *sink_; }
  const FileSinkOperator& fileSink() const { return static_cast<FileSinkOperator&>(*sink_); }

 private:
  testing::RecordingOutput output_;
  runtime::OperatorContext context_;
  std::unique_ptr<runtime::StreamOperator> sink_;
};

std::string partName(const std::string& uuid, int subtask, int counter) {
  return "part-" + uuid + "-" + std::to_string(subtask) + "-" + std::to_string(counter);
}
std::string inProgressName(const std::string& uuid, int subtask, int counter) {
  return "." + partName(uuid, subtask, counter) + ".inprogress";
}

TEST(FileSystemSinkTest, FilesBecomeVisibleWhenTheirCheckpointCompletes) {
  TemporaryDirectory directory;
  const fs::path& table = directory.path();
  ConnectorContext context = csvTable(table);
  auto factory = sinkFactory(context);
  ASSERT_NE(factory, nullptr);
  const std::string uuid = factory->spec().fileNameUuid;
  SinkSubtask subtask(*factory, 0, 1);
  subtask.start();

  // Rows before checkpoint 1: closed into a hidden file pending for it, which readers skip.
  subtask.write({Row::of(1, "a", 1), Row::of(2, "b", 2)});
  runtime::OperatorSnapshot snapshot = subtask.checkpoint(1);
  EXPECT_TRUE(snapshot.operatorState.contains(std::string(state::kOperatorListStatePrefix) +
                                              std::string(FileSinkOperator::kStateName)));
  EXPECT_EQ(filesUnder(table), std::vector<std::string>{inProgressName(uuid, 0, 0)});
  EXPECT_EQ(readFile(table / inProgressName(uuid, 0, 0)), "1,a,1\n2,b,2\n");
  EXPECT_EQ(rowsRead(context), std::vector<std::string>{});

  subtask.sink().notifyCheckpointComplete(1);
  EXPECT_EQ(filesUnder(table), std::vector<std::string>{partName(uuid, 0, 0)});
  EXPECT_EQ(readFile(table / partName(uuid, 0, 0)), "1,a,1\n2,b,2\n");
  EXPECT_EQ(rowsRead(context), (std::vector<std::string>{"+I[1, a, 1]", "+I[2, b, 2]"}));

  // Rows after it stay hidden; an aborted checkpoint keeps its file pending.
  subtask.write({Row::of(3, "c", 3)});
  EXPECT_EQ(filesUnder(table), std::vector<std::string>{partName(uuid, 0, 0)});
  subtask.checkpoint(2);
  subtask.sink().notifyCheckpointAborted(2);
  EXPECT_EQ(filesUnder(table),
            (std::vector<std::string>{inProgressName(uuid, 0, 1), partName(uuid, 0, 0)}));
  EXPECT_EQ(rowsRead(context), (std::vector<std::string>{"+I[1, a, 1]", "+I[2, b, 2]"}));

  // The next completed checkpoint commits the aborted one's file with its own.
  subtask.write({Row::of(4, "d", 4)});
  subtask.checkpoint(3);
  subtask.sink().notifyCheckpointComplete(3);
  EXPECT_EQ(filesUnder(table), (std::vector<std::string>{partName(uuid, 0, 0),
                                                          partName(uuid, 0, 1),
                                                          partName(uuid, 0, 2)}));
  EXPECT_EQ(readFile(table / partName(uuid, 0, 1)), "3,c,3\n");
  EXPECT_EQ(readFile(table / partName(uuid, 0, 2)), "4,d,4\n");

  // finish() commits what came after the last checkpoint.
  subtask.write({Row::of(5, "e", 5)});
  subtask.sink().finish();
  subtask.sink().close();
  EXPECT_EQ(filesUnder(table),
            (std::vector<std::string>{partName(uuid, 0, 0), partName(uuid, 0, 1),
                                      partName(uuid, 0, 2), partName(uuid, 0, 3)}));
  EXPECT_EQ(readFile(table / partName(uuid, 0, 3)), "5,e,5\n");
  EXPECT_EQ(subtask.fileSink().partFilePaths(),
            (std::vector<fs::path>{table / partName(uuid, 0, 0), table / partName(uuid, 0, 1),
                                   table / partName(uuid, 0, 2), table / partName(uuid, 0, 3)}));
  EXPECT_EQ(rowsRead(context), (std::vector<std::string>{"+I[1, a, 1]", "+I[2, b, 2]",
                                                          "+I[3, c, 3]", "+I[4, d, 4]",
                                                          "+I[5, e, 5]"}));
}

// With checkpoints, finish() leaves the last rows in progress: the final checkpoint (which the
// task waits for) closes them to pending and its completion commits them.
TEST(FileSystemSinkTest, WithCheckpointsTheFinalCheckpointCommitsTheLastRows) {
  TemporaryDirectory directory;
  const fs::path& table = directory.path();
  ConnectorContext context = csvTable(table);
  auto factory = sinkFactory(context);
  const std::string uuid = factory->spec().fileNameUuid;
  SinkSubtask subtask(*factory, 0, 1, RuntimeExecutionMode::STREAMING, /*checkpointing=*/true);
  subtask.start();
  subtask.write({Row::of(1, "a", 1)});
  subtask.sink().finish();
  EXPECT_TRUE(subtask.sink().needsFinalCheckpoint());
  EXPECT_EQ(filesUnder(table), std::vector<std::string>{inProgressName(uuid, 0, 0)});
  EXPECT_EQ(readFile(table / inProgressName(uuid, 0, 0)), "1,a,1\n");
  subtask.checkpoint(7);
  EXPECT_EQ(rowsRead(context), std::vector<std::string>{});
  subtask.sink().notifyCheckpointComplete(7);
  subtask.sink().close();
  EXPECT_EQ(filesUnder(table), std::vector<std::string>{partName(uuid, 0, 0)});
  EXPECT_EQ(rowsRead(context), std::vector<std::string>{"+I[1, a, 1]"});
}

// At another parallelism every new subtask sees every old subtask's state (union list state)
// and takes over those with old % new == its index: each old pending file is committed once,
// each old file written after the checkpoint deleted once; new files do not collide.
TEST(FileSystemSinkTest, ARestoreAtAnotherParallelismCommitsEveryOldFileOnce) {
  TemporaryDirectory directory;
  const fs::path& table = directory.path();
  ConnectorContext context = csvTable(table);
  auto factory = sinkFactory(context);
  const std::string uuid = factory->spec().fileNameUuid;
  std::vector<runtime::OperatorSnapshot> atTwo;
  {
    SinkSubtask first(*factory, 0, 2);
    SinkSubtask second(*factory, 1, 2);
    first.start();
    second.start();
    first.write({Row::of(1, "a", 1)});
    second.write({Row::of(2, "b", 2)});
    atTwo.push_back(first.checkpoint(1));
    atTwo.push_back(second.checkpoint(1));
    first.write({Row::of(3, "c", 3)});  // after the checkpoint: lost with the failure
    second.write({Row::of(4, "d", 4)});
    first.checkpoint(2);  // flushed into files checkpoint 2 never completes
    second.checkpoint(2);
    // The process dies: no close(), no notification.
  }
  EXPECT_EQ(filesUnder(table).size(), 4u);
  std::vector<runtime::OperatorSnapshot> atOne =
      state::redistributeOperatorSnapshots(atTwo, 1, 128);
  auto restoredFactory = sinkFactory(context);
  SinkSubtask restored(*restoredFactory, 0, 1);
  restored.start(&atOne[0]);
  EXPECT_EQ(filesUnder(table),
            (std::vector<std::string>{partName(uuid, 0, 0), partName(uuid, 1, 0)}));
  restored.write({Row::of(5, "e", 5)});
  restored.checkpoint(2);
  restored.sink().notifyCheckpointComplete(2);
  restored.sink().close();
  // Subtask 0 goes on from its old counter (the deleted file's); subtask 1's names stay its own.
  EXPECT_EQ(filesUnder(table), (std::vector<std::string>{partName(uuid, 0, 0), partName(uuid, 0, 1),
                                                          partName(uuid, 1, 0)}));
  EXPECT_EQ(rowsRead(context),
            (std::vector<std::string>{"+I[1, a, 1]", "+I[2, b, 2]", "+I[5, e, 5]"}));
}

TEST(FileSystemSinkTest, ARestoreCommitsTheCheckpointsFilesAndDeletesLaterOnes) {
  TemporaryDirectory directory;
  const fs::path& table = directory.path();
  ConnectorContext context = csvTable(table);
  auto crashedFactory = sinkFactory(context);
  const std::string uuid = crashedFactory->spec().fileNameUuid;
  auto crashed = std::make_unique<SinkSubtask>(*crashedFactory, 0, 2);
  crashed->start();
  crashed->write({Row::of(1, "a", 1), Row::of(2, "b", 2)});
  runtime::OperatorSnapshot checkpoint1 = crashed->checkpoint(1);
  // Checkpoint 1 completes, but the process dies before the notification reaches the sink;
  // checkpoint 2 is taken and never completes.
  crashed->write({Row::of(3, "c", 3)});
  crashed->checkpoint(2);
  crashed->write({Row::of(4, "d", 4)});  // buffered: lost with the process
  // An in-progress file flushed after checkpoint 1, the other subtask's, another job's.
  directory.write(inProgressName(uuid, 0, 5), "6,f,6\n");
  directory.write(inProgressName(uuid, 1, 0), "7,g,7\n");
  const std::string otherUuid = "00000000-0000-4000-8000-000000000001";
  directory.write(inProgressName(otherUuid, 0, 0), "8,h,8\n");
  ASSERT_EQ(filesUnder(table).size(), 5u);
  // The crashed instance is abandoned without close() (kept alive: a crash runs nothing).

  // The job restarts (planned again: a new factory) from checkpoint 1.
  auto restoredFactory = sinkFactory(context);
  ASSERT_NE(restoredFactory->spec().fileNameUuid, uuid);
  SinkSubtask restored(*restoredFactory, 0, 2);
  restored.start(&checkpoint1);
  EXPECT_EQ(filesUnder(table),
            (std::vector<std::string>{inProgressName(otherUuid, 0, 0), inProgressName(uuid, 1, 0),
                                      partName(uuid, 0, 0)}));
  EXPECT_EQ(readFile(table / partName(uuid, 0, 0)), "1,a,1\n2,b,2\n");
  EXPECT_EQ(rowsRead(context), (std::vector<std::string>{"+I[1, a, 1]", "+I[2, b, 2]"}));

  // Restoring from the same checkpoint again is fine: its file is already committed.
  {
    SinkSubtask again(*sinkFactory(context), 0, 2);
    again.start(&checkpoint1);
    again.sink().close();
  }
  EXPECT_EQ(filesUnder(table),
            (std::vector<std::string>{inProgressName(otherUuid, 0, 0), inProgressName(uuid, 1, 0),
                                      partName(uuid, 0, 0)}));

  // The restored subtask goes on with the restored UUID and counter.
  restored.write({Row::of(3, "c", 3)});
  restored.sink().finish();
  restored.sink().close();
  EXPECT_EQ(filesUnder(table),
            (std::vector<std::string>{inProgressName(otherUuid, 0, 0), inProgressName(uuid, 1, 0),
                                      partName(uuid, 0, 0), partName(uuid, 0, 1)}));
  EXPECT_EQ(readFile(table / partName(uuid, 0, 1)), "3,c,3\n");
  EXPECT_EQ(rowsRead(context),
            (std::vector<std::string>{"+I[1, a, 1]", "+I[2, b, 2]", "+I[3, c, 3]"}));
}

TEST(FileSystemSinkTest, PartitionedFilesAreCommittedPerPartition) {
  TemporaryDirectory directory;
  const fs::path& table = directory.path();
  ConnectorContext context =
      tableContext(scoreType(), {{"connector", "filesystem"},
                                 {"path", table.string()},
                                 {"format", "csv"}});
  context.partitionKeys = {"name"};
  auto factory = sinkFactory(context);
  const std::string uuid = factory->spec().fileNameUuid;
  SinkSubtask subtask(*factory, 0, 1);
  subtask.start();
  subtask.write({Row::of(1, "x", 1), Row::of(2, "y", 2), Row::of(3, "x", 3)});
  subtask.checkpoint(1);
  EXPECT_EQ(filesUnder(table), (std::vector<std::string>{"name=x/" + inProgressName(uuid, 0, 0),
                                                          "name=y/" + inProgressName(uuid, 0, 1)}));
  subtask.sink().notifyCheckpointComplete(1);
  EXPECT_EQ(filesUnder(table), (std::vector<std::string>{"name=x/" + partName(uuid, 0, 0),
                                                          "name=y/" + partName(uuid, 0, 1)}));
  EXPECT_EQ(readFile(table / "name=x" / partName(uuid, 0, 0)), "1,1\n3,3\n");
  EXPECT_EQ(readFile(table / "name=y" / partName(uuid, 0, 1)), "2,2\n");
  subtask.sink().finish();
  subtask.sink().close();
}

TEST(FileSystemSinkTest, BatchFilesAreVisibleOnlyWhenTheWholeJobSucceeded) {
  TemporaryDirectory directory;
  const fs::path& table = directory.path();
  ConnectorContext context = csvTable(table);
  auto factory = sinkFactory(context);
  const std::string uuid = factory->spec().fileNameUuid;
  const std::string staging = ".staging-" + uuid + "/";
  SinkSubtask first(*factory, 0, 2, RuntimeExecutionMode::BATCH);
  SinkSubtask second(*factory, 1, 2, RuntimeExecutionMode::BATCH);
  first.start();
  second.start();
  first.write({Row::of(1, "a", 1)});
  second.write({Row::of(2, "b", 2)});
  first.sink().finish();
  first.sink().close();
  // One subtask finished: its file is staged, nothing is visible.
  EXPECT_EQ(filesUnder(table), std::vector<std::string>{staging + partName(uuid, 0, 0)});
  EXPECT_EQ(rowsRead(context), std::vector<std::string>{});
  second.sink().finish();
  second.sink().close();
  factory->finalizeGlobal(2);  // the job succeeded (idempotent where the last finish committed)
  EXPECT_EQ(filesUnder(table),
            (std::vector<std::string>{partName(uuid, 0, 0), partName(uuid, 1, 0)}));
  EXPECT_EQ(readFile(table / partName(uuid, 1, 0)), "2,b,2\n");
  EXPECT_EQ(rowsRead(context), (std::vector<std::string>{"+I[1, a, 1]", "+I[2, b, 2]"}));
}

TEST(FileSystemSinkTest, AFailedBatchJobLeavesNothing) {
  TemporaryDirectory directory;
  const fs::path& table = directory.path();
  ConnectorContext context = csvTable(table);
  directory.write("old.csv", "0,old,0\n");
  {
    auto factory = sinkFactory(context);
    SinkSubtask first(*factory, 0, 2, RuntimeExecutionMode::BATCH);
    SinkSubtask second(*factory, 1, 2, RuntimeExecutionMode::BATCH);
    first.start();
    second.start();
    first.write({Row::of(1, "a", 1)});
    second.write({Row::of(2, "b", 2)});
    first.sink().finish();
    first.sink().close();
    second.sink().close();  // failed: no finish()
    EXPECT_EQ(filesUnder(table).size(), 2u);  // old.csv and the first subtask's staged file
  }
  // The job is gone: its staging directory with it.
  EXPECT_EQ(filesUnder(table), std::vector<std::string>{"old.csv"});
  EXPECT_EQ(rowsRead(context), std::vector<std::string>{"+I[0, old, 0]"});
}

TEST(FileSystemSinkTest, TheNextWriteRemovesFilesThatKilledJobsAbandoned) {
  TemporaryDirectory directory;
  const fs::path& table = directory.path();
  ConnectorContext context = csvTable(table);
  const std::string oldUuid = "00000000-0000-4000-8000-000000000002";
  const std::string recentUuid = "00000000-0000-4000-8000-000000000003";
  const auto longAgo = fs::file_time_type::clock::now() - kAbandonedFileAge - std::chrono::hours(1);
  for (const fs::path& file :
       {directory.write(inProgressName(oldUuid, 0, 0), "1,a,1\n"),
        directory.write("dt=1/" + inProgressName(oldUuid, 1, 3), "2,b,2\n"),
        directory.write(".staging-" + oldUuid + "/" + partName(oldUuid, 0, 0), "3,c,3\n")}) {
    fs::last_write_time(file, longAgo);
  }
  fs::last_write_time(table / (".staging-" + oldUuid), longAgo);
  directory.write(inProgressName(recentUuid, 0, 0), "4,d,4\n");  // a job that may be running
  directory.write(".hidden/" + inProgressName(oldUuid, 2, 0), "5,e,5\n");  // not eddy's place
  directory.write("data.csv", "6,f,6\n");
  auto factory = sinkFactory(context);
  SinkSubtask subtask(*factory, 0, 1);
  subtask.start();
  EXPECT_EQ(filesUnder(table),
            (std::vector<std::string>{".hidden/" + inProgressName(oldUuid, 2, 0),
                                      inProgressName(recentUuid, 0, 0), "data.csv"}));
  EXPECT_FALSE(fs::exists(table / (".staging-" + oldUuid)));
  subtask.sink().close();
}

}  // namespace
}  // namespace eddy::connectors
