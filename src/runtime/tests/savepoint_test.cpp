// Savepoints at the checkpoint coordinator, driven by a ManualClock and explicit runDueWork()
// calls against a fake job (no threads, no sleeps): a coordinator without periodic
// checkpoints takes one; it waits for a pending checkpoint and holds periodic ones back; it is
// written to `<dir>/savepoint-<6 hex of the job id>-<12 hex>/` in the checkpoint format, not
// to the checkpoint storage, so num-retained never discards it; it completes without telling
// the tasks and is no recovery point (Flink's FLINK-25191), unlike a stop-with-savepoint's,
// which also ends the triggering; its failures fail only the request with Flink's reasons; the
// job's end fails what is still asked for.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <memory>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "eddy/exceptions.h"
#include "runtime/checkpoint_coordinator.h"
#include "runtime/checkpoint_storage.h"
#include "runtime/savepoint.h"

namespace eddy::runtime {
namespace {

namespace fs = std::filesystem;

constexpr const char* kJobId = "0123456789abcdef0123456789abcdef";

class FakeJob : public CheckpointTarget {
 public:
  bool triggerCheckpoint(int64_t id, CheckpointOptions options) override {
    triggered.push_back(id);
    options_.push_back(options);
    return !ended;
  }
  bool triggerStopWithSavepoint(int64_t id, CheckpointOptions options,
                                SavepointStopMode mode) override {
    stopModes.push_back(mode);
    return triggerCheckpoint(id, options);
  }
  bool completeCheckpoint(int64_t id) override {
    completed.push_back(id);
    return !ended;
  }
  bool completeSavepoint(int64_t id) override {
    completedSilently.push_back(id);
    return !ended;
  }
  void abortCheckpoint(int64_t id) override { aborted.push_back(id); }
  void failJob(const std::string& message) override { failures.push_back(message); }

  std::vector<int64_t> triggered, completed, completedSilently, aborted;
  std::vector<CheckpointOptions> options_;
  std::vector<SavepointStopMode> stopModes;
  std::vector<std::string> failures;
  bool ended = false;
};

struct StorageLog {
  std::vector<int64_t> stored, discarded;
};

class RecordingStorage : public CheckpointStorage {
 public:
  explicit RecordingStorage(StorageLog& log) : log_(log) {}
  std::string store(const CompletedCheckpoint& checkpoint) override {
    log_.stored.push_back(checkpoint.id);
    return "chk-" + std::to_string(checkpoint.id);
  }
  void discard(int64_t id) override { log_.discarded.push_back(id); }

 private:
  StorageLog& log_;
};

/// What every task acknowledged for checkpoint `id`: one operator with a counter.
std::shared_ptr<const CompletedCheckpoint> acknowledged(int64_t id, bool savepoint,
                                                        const std::string& counter = "7") {
  auto checkpoint = std::make_shared<CompletedCheckpoint>();
  checkpoint->id = id;
  checkpoint->timestamp = 1000 + id;
  if (savepoint) checkpoint->options.snapshotType = SnapshotType::SAVEPOINT;
  OperatorSnapshot snapshot;
  snapshot.operatorState["counter"] = counter;
  checkpoint->operators["counter"].push_back(std::move(snapshot));
  return checkpoint;
}

/// The message the future throws, or "<no error>".
std::string errorOf(std::future<std::string>& future) {
  try {
    future.get();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "<no error>";
}

class SavepointCoordinatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("eddy-savepoint-test-" + std::to_string(device()));
    fs::create_directories(root_);
  }
  void TearDown() override {
    coordinator_.reset();
    fs::remove_all(root_);
  }
  CheckpointCoordinator& coordinator(CheckpointCoordinatorConfiguration configuration) {
    coordinator_ = std::make_unique<CheckpointCoordinator>(
        configuration, job_, std::make_unique<RecordingStorage>(storage_), clock_);
    return *coordinator_;
  }
  int64_t at(int64_t millis) {
    clock_.set(millis);
    return coordinator_->runDueWork();
  }
  /// Asks for a savepoint into root_/savepoints.
  std::future<std::string> askSavepoint(SavepointStopMode mode = SavepointStopMode::NONE) {
    auto request = std::make_shared<SavepointRequest>(root_ / "savepoints", kJobId, mode);
    std::future<std::string> future = request->future();
    coordinator_->triggerSavepoint(std::move(request));
    return future;
  }
  std::vector<fs::path> savepointDirectories() const {
    std::vector<fs::path> found;
    if (!fs::exists(root_ / "savepoints")) return found;
    for (const auto& entry : fs::directory_iterator(root_ / "savepoints")) {
      found.push_back(entry.path());
    }
    return found;
  }

  fs::path root_;
  ManualClock clock_{0};
  FakeJob job_;
  StorageLog storage_;
  std::unique_ptr<CheckpointCoordinator> coordinator_;
};

CheckpointCoordinatorConfiguration every(int64_t intervalMillis) {
  CheckpointCoordinatorConfiguration configuration;
  configuration.intervalMillis = intervalMillis;
  return configuration;
}

TEST_F(SavepointCoordinatorTest, ACoordinatorWithoutPeriodicCheckpointsTakesASavepoint) {
  CheckpointCoordinatorConfiguration configuration = every(0);
  configuration.alignment = CheckpointOptions::AlignmentType::AT_LEAST_ONCE;
  coordinator(configuration);
  EXPECT_EQ(at(0), std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(job_.triggered.empty());
  std::future<std::string> savepoint = askSavepoint();
  at(5);
  ASSERT_EQ(job_.triggered, (std::vector<int64_t>{1}));
  EXPECT_TRUE(job_.options_[0].isSavepoint());
  // A consistent cut also in an AT_LEAST_ONCE job.
  EXPECT_EQ(job_.options_[0].alignment, CheckpointOptions::AlignmentType::ALIGNED);
  EXPECT_TRUE(job_.stopModes.empty());
  EXPECT_EQ(savepoint.wait_for(std::chrono::seconds(0)), std::future_status::timeout);

  coordinator_->checkpointAcknowledged(acknowledged(1, true, "41"));
  at(10);
  // Completed without notifying the tasks (Flink's FLINK-25191): nothing commits on it.
  EXPECT_TRUE(job_.completed.empty());
  EXPECT_EQ(job_.completedSilently, (std::vector<int64_t>{1}));
  ASSERT_EQ(savepoint.wait_for(std::chrono::seconds(0)), std::future_status::ready);
  const std::string path = savepoint.get();
  std::vector<fs::path> directories = savepointDirectories();
  ASSERT_EQ(directories.size(), 1u);
  EXPECT_EQ(path, directories[0].string());
  EXPECT_TRUE(std::regex_match(directories[0].filename().string(),
                               std::regex("savepoint-012345-[0-9a-f]{12}")))
      << directories[0];
  EXPECT_TRUE(fs::exists(directories[0] / "_metadata"));
  // Not the checkpoints' storage: nothing there, nothing num-retained could discard.
  EXPECT_TRUE(storage_.stored.empty());
  EXPECT_TRUE(coordinator_->retainedCheckpointIds().empty());
  // No recovery point for a restart either.
  EXPECT_EQ(coordinator_->latestCompletedCheckpoint(), nullptr);
  // Restored like a checkpoint.
  std::shared_ptr<const CompletedCheckpoint> restored = readCheckpoint(path);
  EXPECT_EQ(restored->id, 1);
  EXPECT_TRUE(restored->options.isSavepoint());
  EXPECT_EQ(restored->operators.at("counter").at(0).operatorState.at("counter"), "41");
}

TEST_F(SavepointCoordinatorTest, WaitsForThePendingCheckpointAndIsNeverDiscarded) {
  coordinator(every(100));  // num-retained 1
  at(100);
  ASSERT_EQ(job_.triggered, (std::vector<int64_t>{1}));
  std::future<std::string> savepoint = askSavepoint();
  at(110);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1}));  // after checkpoint 1 ended
  coordinator_->checkpointAcknowledged(acknowledged(1, false));
  at(120);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(job_.options_[1].isSavepoint());
  // While the savepoint is pending, no periodic checkpoint overlaps it.
  at(200);
  at(300);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2}));
  coordinator_->checkpointAcknowledged(acknowledged(2, true));
  at(310);
  const std::string path = savepoint.get();
  EXPECT_EQ(job_.completed, (std::vector<int64_t>{1}));
  EXPECT_EQ(job_.completedSilently, (std::vector<int64_t>{2}));
  EXPECT_EQ(coordinator_->latestCompletedCheckpoint()->id, 1);
  // Periodic checkpoints go on at once (the interval was due), one at a time.
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_FALSE(job_.options_[2].isSavepoint());
  coordinator_->checkpointAcknowledged(acknowledged(3, false));
  at(320);
  at(410);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2, 3, 4}));
  coordinator_->checkpointAcknowledged(acknowledged(4, false));
  at(420);
  // num-retained 1 discarded checkpoints 1 and 3; the savepoint (2) is not the storage's.
  EXPECT_EQ(storage_.stored, (std::vector<int64_t>{1, 3, 4}));
  EXPECT_EQ(storage_.discarded, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(coordinator_->retainedCheckpointIds(), (std::vector<int64_t>{4}));
  coordinator_->shutdown(JobStatus::CANCELED);  // NO_EXTERNALIZED_CHECKPOINTS: all go
  EXPECT_EQ(storage_.discarded, (std::vector<int64_t>{1, 3, 4}));
  EXPECT_TRUE(fs::exists(fs::path(path) / "_metadata"));
}

TEST_F(SavepointCoordinatorTest, AFailedSavepointFailsItsRequestOnly) {
  CheckpointCoordinatorConfiguration configuration = every(0);
  configuration.timeoutMillis = 50;
  configuration.tolerableFailedCheckpoints = 0;
  coordinator(configuration);
  std::future<std::string> declined = askSavepoint();
  at(0);
  coordinator_->checkpointAborted(1, CheckpointFailureReason::DECLINED);
  at(10);
  EXPECT_EQ(errorOf(declined),
            "Failed to take a savepoint of job 0123456789abcdef0123456789abcdef: Checkpoint was "
            "declined.");
  std::future<std::string> expired = askSavepoint();
  at(20);
  ASSERT_EQ(job_.triggered, (std::vector<int64_t>{1, 2}));
  at(69);
  EXPECT_TRUE(job_.aborted.empty());
  at(70);
  EXPECT_EQ(job_.aborted, (std::vector<int64_t>{2}));
  EXPECT_EQ(errorOf(expired),
            "Failed to take a savepoint of job 0123456789abcdef0123456789abcdef: Checkpoint "
            "expired before completing.");
  // Not counted against tolerable-failed-checkpoints (0 here): the job was not failed.
  EXPECT_TRUE(job_.failures.empty());
  EXPECT_EQ(coordinator_->consecutiveFailures(), 0);
  EXPECT_TRUE(savepointDirectories().empty());
}

TEST_F(SavepointCoordinatorTest, ADirectoryThatCannotBeCreatedFailsTheSavepoint) {
  coordinator(every(0));
  std::ofstream(root_ / "savepoints") << "a file, not a directory";
  std::future<std::string> savepoint = askSavepoint();
  at(0);
  coordinator_->checkpointAcknowledged(acknowledged(1, true));
  at(10);
  EXPECT_EQ(job_.aborted, (std::vector<int64_t>{1}));
  EXPECT_TRUE(job_.completed.empty());
  EXPECT_TRUE(job_.completedSilently.empty());
  try {
    savepoint.get();
    FAIL() << "the savepoint completed";
  } catch (const ConnectorException& error) {
    const std::string expected =
        "Failed to create savepoint directory at " + (root_ / "savepoints").string();
    EXPECT_EQ(std::string(error.what()).rfind(expected, 0), 0u) << error.what();
  }
  EXPECT_TRUE(job_.failures.empty());
}

TEST_F(SavepointCoordinatorTest, AStopWithSavepointEndsTheTriggering) {
  coordinator(every(100));
  std::future<std::string> stop = askSavepoint(SavepointStopMode::DRAIN);
  at(10);
  ASSERT_EQ(job_.triggered, (std::vector<int64_t>{1}));
  EXPECT_EQ(job_.stopModes, (std::vector<SavepointStopMode>{SavepointStopMode::DRAIN}));
  coordinator_->checkpointAcknowledged(acknowledged(1, true));
  at(20);
  EXPECT_FALSE(stop.get().empty());
  // Notified: the job ends on it and its sinks commit; a restart would go back to it.
  EXPECT_EQ(job_.completed, (std::vector<int64_t>{1}));
  EXPECT_TRUE(job_.completedSilently.empty());
  ASSERT_NE(coordinator_->latestCompletedCheckpoint(), nullptr);
  EXPECT_EQ(coordinator_->latestCompletedCheckpoint()->id, 1);
  // The job ends on it: no periodic checkpoint, and a later savepoint is refused.
  at(100);
  at(200);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1}));
  std::future<std::string> later = askSavepoint();
  at(210);
  EXPECT_EQ(errorOf(later),
            "Failed to take a savepoint of job 0123456789abcdef0123456789abcdef: Not all "
            "required tasks are currently running.");
}

TEST_F(SavepointCoordinatorTest, TheJobsEndFailsWhatIsStillAskedFor) {
  coordinator(every(0));
  std::future<std::string> pending = askSavepoint();
  at(0);
  ASSERT_EQ(job_.triggered, (std::vector<int64_t>{1}));
  std::future<std::string> queued = askSavepoint();
  coordinator_->shutdown(JobStatus::FINISHED);
  const std::string ended =
      "Failed to take a savepoint of job 0123456789abcdef0123456789abcdef: The job ended before "
      "the savepoint completed.";
  EXPECT_EQ(errorOf(pending), ended);
  EXPECT_EQ(errorOf(queued), ended);
  std::future<std::string> afterwards = askSavepoint();
  EXPECT_EQ(errorOf(afterwards),
            "Failed to take a savepoint of job 0123456789abcdef0123456789abcdef: Not all "
            "required tasks are currently running.");
}

TEST_F(SavepointCoordinatorTest, AJobThatEndedBeforeTheTriggerFailsTheRequest) {
  coordinator(every(0));
  job_.ended = true;
  std::future<std::string> savepoint = askSavepoint();
  at(0);
  EXPECT_EQ(errorOf(savepoint),
            "Failed to take a savepoint of job 0123456789abcdef0123456789abcdef: Not all "
            "required tasks are currently running.");
}

TEST(SavepointDirectoryTest, TakesLocalPathsAndFileUris) {
  EXPECT_EQ(savepointDirectoryPath("/tmp/savepoints", "k"), fs::path("/tmp/savepoints"));
  EXPECT_EQ(savepointDirectoryPath("file:///tmp/savepoints", "k"), fs::path("/tmp/savepoints"));
  EXPECT_EQ(savepointDirectoryPath("file:/tmp/savepoints/", "k"), fs::path("/tmp/savepoints/"));
  EXPECT_EQ(savepointDirectoryPath("relative", "k"), fs::current_path() / "relative");
  try {
    savepointDirectoryPath("hdfs://namenode/savepoints", "state.savepoints.dir");
    FAIL() << "accepted hdfs";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "'state.savepoints.dir' = 'hdfs://namenode/savepoints': eddy writes savepoints on "
              "the local file system only, not 'hdfs'.");
  }
}

TEST(SavepointDirectoryTest, NamesMatchFlinksAndDifferEachTime) {
  std::random_device device;
  const fs::path root =
      fs::temp_directory_path() / ("eddy-savepoint-names-" + std::to_string(device()));
  SavepointRequest request(root, kJobId, SavepointStopMode::NONE);
  CompletedCheckpoint checkpoint;
  checkpoint.id = 3;
  checkpoint.options.snapshotType = SnapshotType::SAVEPOINT;
  const std::string first = writeSavepoint(checkpoint, request);
  const std::string second = writeSavepoint(checkpoint, request);
  EXPECT_NE(first, second);
  for (const std::string& path : {first, second}) {
    EXPECT_EQ(fs::path(path).parent_path(), root);
    EXPECT_TRUE(std::regex_match(fs::path(path).filename().string(),
                                 std::regex("savepoint-012345-[0-9a-f]{12}")))
        << path;
    EXPECT_EQ(readCheckpoint(path)->id, 3);
  }
  fs::remove_all(root);
}

}  // namespace
}  // namespace eddy::runtime
