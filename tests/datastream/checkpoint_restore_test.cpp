// Checkpoints of a DataStream job end to end: a job configured with Flink's options
// (`execution.checkpointing.interval`, `state.checkpoints.dir`, RETAIN_ON_CANCELLATION) writes
// `<dir>/<job id>/chk-<n>/_metadata` with its operator's counter; a second job started with
// `execution.state-recovery.path` = that directory gets exactly that counter in
// initializeState. Every wait is on a signal the operator opens, bounded by a deadline far
// beyond need, so a broken behaviour fails instead of hanging; nothing passes by waiting.
#include <gtest/gtest.h>
#include <eddy/eddy.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "datastream/test_sources.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

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
    return opened_.wait_for(lock, 60s, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

/// What the counting operator saw, shared with the test.
struct CounterProbe {
  int64_t expected = 0;
  /// Opened once a checkpoint whose snapshot holds `expected` has completed.
  Signal checkpointedExpected;
  /// Opened in initializeState.
  Signal initialized;
  std::mutex mutex;
  bool restored = false;
  std::string restoredCounter;  // "<none>" when the snapshot had no counter
};

/// Counts the records it sees; its snapshot is the counter in decimal, operator state
/// "counter".
class CountingOperator final : public runtime::StreamOperator {
 public:
  explicit CountingOperator(std::shared_ptr<CounterProbe> probe) : probe_(std::move(probe)) {}

  void initializeState(runtime::StateInitializationContext& context) override {
    {
      std::lock_guard lock(probe_->mutex);
      probe_->restored = context.isRestored();
      auto counter = context.previous->operatorState.find("counter");
      probe_->restoredCounter =
          counter == context.previous->operatorState.end() ? "<none>" : counter->second;
      if (counter != context.previous->operatorState.end()) count_ = std::stoll(counter->second);
    }
    probe_->initialized.open();
  }
  void processBatch(int, runtime::BatchPtr batch) override {
    count_ += static_cast<int64_t>(batch->size());
  }
  void snapshotState(runtime::StateSnapshotContext& context) override {
    context.snapshot.operatorState["counter"] = std::to_string(count_);
    snapshotCounts_[context.checkpointId] = count_;
  }
  void notifyCheckpointComplete(int64_t checkpointId) override {
    auto snapshot = snapshotCounts_.find(checkpointId);
    if (snapshot != snapshotCounts_.end() && snapshot->second == probe_->expected) {
      probe_->checkpointedExpected.open();
    }
  }

 private:
  std::shared_ptr<CounterProbe> probe_;
  int64_t count_ = 0;
  std::map<int64_t, int64_t> snapshotCounts_;  // task thread only
};

/// source (emits `count` records, then idles) → counter, both with fixed uids.
void buildJob(StreamExecutionEnvironment& env, int64_t count, std::shared_ptr<CounterProbe> probe,
              const std::string& counterUid = "counter") {
  env.setParallelism(1);
  env.fromSource(std::make_shared<testing_sources::OneBusySubtaskSource>(count),
                 WatermarkStrategy<int64_t>::noWatermarks(), "numbers")
      .uid("numbers")
      .transform<int64_t>("counter",
                          std::make_shared<runtime::LambdaOperatorFactory>(
                              [probe]() -> std::unique_ptr<runtime::StreamOperator> {
                                return std::make_unique<CountingOperator>(probe);
                              }))
      .uid(counterUid)
      .addSink([](int64_t) {})
      .uid("sink");
}

class CheckpointRestoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("eddy-checkpoint-restore-test-" + std::to_string(device()));
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(CheckpointRestoreTest, ASecondJobRestoresTheCounterOfTheFirstJobsCheckpoint) {
  constexpr int64_t kRecords = 1000;
  auto first = std::make_shared<CounterProbe>();
  first->expected = kRecords;
  std::string jobId;
  {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->configure({{"execution.checkpointing.interval", "10 ms"},
                    {"state.checkpoints.dir", root_.string()},
                    {"execution.checkpointing.externalized-checkpoint-retention",
                     "RETAIN_ON_CANCELLATION"}});
    buildJob(*env, kRecords, first);
    JobClient client = env->executeAsync("counting");
    jobId = client.getJobID();
    ASSERT_TRUE(first->checkpointedExpected.wait());
    client.cancel();
    client.waitForCompletion();
  }
  EXPECT_EQ(jobId.size(), 32u);
  // num-retained is 1: exactly one complete checkpoint is left, and it holds kRecords (every
  // checkpoint after the signal does).
  std::vector<fs::path> checkpoints;
  for (const auto& entry : fs::directory_iterator(root_ / jobId)) checkpoints.push_back(entry.path());
  ASSERT_EQ(checkpoints.size(), 1u);
  EXPECT_EQ(checkpoints[0].filename().string().rfind("chk-", 0), 0u);
  EXPECT_TRUE(fs::exists(checkpoints[0] / "_metadata"));

  auto second = std::make_shared<CounterProbe>();
  second->expected = -1;  // never
  {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->configure({{"execution.state-recovery.path", checkpoints[0].string()}});
    buildJob(*env, 0, second);
    JobClient client = env->executeAsync("restored");
    ASSERT_TRUE(second->initialized.wait());
    client.cancel();
    client.waitForCompletion();
  }
  std::lock_guard lock(second->mutex);
  EXPECT_TRUE(second->restored);
  EXPECT_EQ(second->restoredCounter, std::to_string(kRecords));
}

// Flink's StateAssignmentOperation: state of an operator the new job lacks fails the start,
// naming the operator, unless ignore-unclaimed-state drops it.
TEST_F(CheckpointRestoreTest, StateNoOperatorClaimsFailsTheStartUnlessIgnored) {
  auto first = std::make_shared<CounterProbe>();
  first->expected = 10;
  fs::path checkpoint;
  {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->configure({{"execution.checkpointing.interval", "10 ms"},
                    {"state.checkpoints.dir", root_.string()},
                    {"execution.checkpointing.externalized-checkpoint-retention",
                     "RETAIN_ON_CANCELLATION"}});
    buildJob(*env, 10, first);
    JobClient client = env->executeAsync("counting");
    ASSERT_TRUE(first->checkpointedExpected.wait());
    client.cancel();
    client.waitForCompletion();
    checkpoint = *fs::directory_iterator(root_ / client.getJobID());
  }
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->configure({{"execution.state-recovery.path", checkpoint.string()}});
  buildJob(*env, 0, std::make_shared<CounterProbe>(), "renamed-counter");
  try {
    env->executeAsync("renamed");
    FAIL() << "started without the counter's state";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Failed to rollback to checkpoint/savepoint " + checkpoint.string() +
                  ". Cannot map checkpoint/savepoint state for operator counter to the new "
                  "program, because the operator is not available in the new program. If you "
                  "want to allow to skip this, you can set "
                  "'execution.state-recovery.ignore-unclaimed-state' to true.");
  }
  auto probe = std::make_shared<CounterProbe>();
  auto ignoring = StreamExecutionEnvironment::getExecutionEnvironment();
  ignoring->configure({{"execution.state-recovery.path", checkpoint.string()},
                       {"execution.savepoint.ignore-unclaimed-state", "true"}});
  buildJob(*ignoring, 0, probe, "renamed-counter");
  JobClient client = ignoring->executeAsync("renamed");
  ASSERT_TRUE(probe->initialized.wait());
  client.cancel();
  client.waitForCompletion();
  std::lock_guard lock(probe->mutex);
  EXPECT_TRUE(probe->restored);
  EXPECT_EQ(probe->restoredCounter, "<none>");
}

TEST_F(CheckpointRestoreTest, TheOlderRestoreKeyWorksAndAMissingPathFailsTheStart) {
  auto probe = std::make_shared<CounterProbe>();
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  const fs::path missing = root_ / "nothing" / "chk-3";
  env->configure({{"execution.savepoint.path", missing.string()}});
  EXPECT_EQ(env->getRestorePath(), missing.string());
  buildJob(*env, 0, probe);
  try {
    env->executeAsync("restored");
    FAIL() << "started from a missing checkpoint";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Cannot find checkpoint or savepoint file/directory '" + missing.string() + "'.");
  }
}

TEST_F(CheckpointRestoreTest, CheckpointOptionsReachTheCheckpointConfig) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->configure({{"execution.checkpointing.interval", "1 min"},
                  {"execution.checkpointing.mode", "at_least_once"},
                  {"execution.checkpointing.timeout", "2 min"},
                  {"execution.checkpointing.min-pause", "30 s"},
                  {"execution.checkpointing.max-concurrent-checkpoints", "2"},
                  {"execution.checkpointing.tolerable-failed-checkpoints", "3"},
                  {"state.checkpoints.num-retained", "4"},
                  {"state.checkpoints.dir", "file:///tmp/checkpoints"},
                  {"execution.checkpointing.externalized-checkpoint-retention",
                   "DELETE_ON_CANCELLATION"}});
  const CheckpointConfig& config = env->getCheckpointConfig();
  EXPECT_TRUE(config.isCheckpointingEnabled());
  EXPECT_EQ(config.getCheckpointInterval(), 60'000);
  EXPECT_EQ(config.getCheckpointingMode(), CheckpointingMode::AT_LEAST_ONCE);
  EXPECT_EQ(config.getCheckpointTimeout(), 120'000);
  EXPECT_EQ(config.getMinPauseBetweenCheckpoints(), 30'000);
  EXPECT_EQ(config.getMaxConcurrentCheckpoints(), 2);
  EXPECT_EQ(config.getTolerableCheckpointFailureNumber(), 3);
  EXPECT_EQ(config.getNumRetainedCheckpoints(), 4);
  EXPECT_EQ(config.getCheckpointStorage(), "file:///tmp/checkpoints");
  EXPECT_EQ(config.getExternalizedCheckpointRetention(),
            ExternalizedCheckpointRetention::DELETE_ON_CANCELLATION);
  EXPECT_THROW(env->configure({{"execution.checkpointing.timeout", "soon"}}), ValidationException);
  EXPECT_EQ(env->getCheckpointConfig().getCheckpointTimeout(), 120'000);  // unchanged
}

}  // namespace
}  // namespace eddy
