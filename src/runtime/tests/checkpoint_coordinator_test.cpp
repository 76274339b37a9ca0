// The checkpoint coordinator's decisions, driven by a ManualClock and explicit runDueWork()
// calls against a fake job and a recording storage: no threads, no sleeps. Periodic triggers,
// min-pause, timeouts, max-concurrent, tolerable failures failing the job with Flink's
// message, storage failures, num-retained and the retention policy when the job ends.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/checkpoint_coordinator.h"

namespace eddy::runtime {
namespace {

class FakeJob : public CheckpointTarget {
 public:
  bool triggerCheckpoint(int64_t id, CheckpointOptions options) override {
    triggered.push_back(id);
    lastOptions = options;
    return !ended;
  }
  bool completeCheckpoint(int64_t id) override {
    completed.push_back(id);
    return !ended;
  }
  void abortCheckpoint(int64_t id) override { aborted.push_back(id); }
  void failJob(const std::string& message) override { failures.push_back(message); }

  std::vector<int64_t> triggered, completed, aborted;
  std::vector<std::string> failures;
  CheckpointOptions lastOptions;
  bool ended = false;
};

struct StorageLog {
  std::vector<int64_t> stored, discarded;
  std::set<int64_t> failOn;
  bool closed = false;
};

class RecordingStorage : public CheckpointStorage {
 public:
  explicit RecordingStorage(StorageLog& log) : log_(log) {}
  std::string store(const CompletedCheckpoint& checkpoint) override {
    if (log_.failOn.contains(checkpoint.id)) throw std::runtime_error("disk full");
    log_.stored.push_back(checkpoint.id);
    return "chk-" + std::to_string(checkpoint.id);
  }
  void discard(int64_t id) override { log_.discarded.push_back(id); }
  void close() override { log_.closed = true; }

 private:
  StorageLog& log_;
};

std::shared_ptr<const CompletedCheckpoint> acknowledged(int64_t id) {
  auto checkpoint = std::make_shared<CompletedCheckpoint>();
  checkpoint->id = id;
  return checkpoint;
}

class CheckpointCoordinatorTest : public ::testing::Test {
 protected:
  CheckpointCoordinator& coordinator(CheckpointCoordinatorConfiguration configuration) {
    coordinator_ = std::make_unique<CheckpointCoordinator>(
        configuration, job_, std::make_unique<RecordingStorage>(storage_), clock_);
    return *coordinator_;
  }
  /// Moves the clock to `millis` and runs what is due; returns the next due time.
  int64_t at(int64_t millis) {
    clock_.set(millis);
    return coordinator_->runDueWork();
  }

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

TEST_F(CheckpointCoordinatorTest, TriggersEveryIntervalAndCompletesAfterStoring) {
  CheckpointCoordinatorConfiguration configuration = every(100);
  configuration.alignment = CheckpointOptions::AlignmentType::AT_LEAST_ONCE;
  coordinator(configuration);
  EXPECT_EQ(at(0), 100);
  EXPECT_EQ(at(99), 100);
  EXPECT_TRUE(job_.triggered.empty());
  at(100);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1}));
  EXPECT_EQ(job_.lastOptions.alignment, CheckpointOptions::AlignmentType::AT_LEAST_ONCE);
  EXPECT_FALSE(job_.lastOptions.isSavepoint());
  coordinator_->checkpointAcknowledged(acknowledged(1));
  EXPECT_TRUE(job_.completed.empty());  // nothing happens outside runDueWork
  EXPECT_EQ(at(150), 200);
  EXPECT_EQ(storage_.stored, (std::vector<int64_t>{1}));
  EXPECT_EQ(job_.completed, (std::vector<int64_t>{1}));
  EXPECT_EQ(coordinator_->latestCompletedCheckpointLocation(), "chk-1");
  at(200);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2}));
}

TEST_F(CheckpointCoordinatorTest, MinPauseCountsFromTheEndOfThePreviousCheckpoint) {
  CheckpointCoordinatorConfiguration configuration = every(100);
  configuration.minPauseMillis = 250;
  configuration.maxConcurrentCheckpoints = 5;  // a min pause still means one at a time
  coordinator(configuration);
  at(100);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1}));
  EXPECT_EQ(at(200), 100 + 10 * 60 * 1000);  // blocked by the pending one: only its timeout
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1}));
  coordinator_->checkpointAcknowledged(acknowledged(1));
  EXPECT_EQ(at(150 + 100), 250 + 250);  // ended at 250: not before 500
  EXPECT_EQ(at(499), 500);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1}));
  at(500);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2}));
}

TEST_F(CheckpointCoordinatorTest, ACheckpointNotCompleteBeforeTheTimeoutIsAborted) {
  CheckpointCoordinatorConfiguration configuration = every(100);
  configuration.timeoutMillis = 50;
  configuration.tolerableFailedCheckpoints = 5;
  coordinator(configuration);
  EXPECT_EQ(at(100), 150);
  EXPECT_EQ(at(149), 150);
  EXPECT_TRUE(job_.aborted.empty());
  at(150);
  EXPECT_EQ(job_.aborted, (std::vector<int64_t>{1}));
  EXPECT_EQ(coordinator_->consecutiveFailures(), 1);
  EXPECT_EQ(coordinator_->pendingCheckpointCount(), 0);
  // A late acknowledgement of the expired checkpoint is ignored.
  coordinator_->checkpointAcknowledged(acknowledged(1));
  at(160);
  EXPECT_TRUE(storage_.stored.empty());
  EXPECT_TRUE(job_.completed.empty());
  EXPECT_TRUE(job_.failures.empty());
}

TEST_F(CheckpointCoordinatorTest, NoMoreThanMaxConcurrentCheckpointsArePending) {
  CheckpointCoordinatorConfiguration configuration = every(100);
  configuration.maxConcurrentCheckpoints = 2;
  coordinator(configuration);
  at(100);
  at(200);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2}));
  at(300);
  at(340);
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(coordinator_->pendingCheckpointCount(), 2);
  // Once one ends, the overdue trigger happens at once.
  coordinator_->checkpointAcknowledged(acknowledged(1));
  // Two pending again: the next thing due without an event is checkpoint 2's timeout.
  EXPECT_EQ(at(350), 200 + 10 * 60 * 1000);
  EXPECT_EQ(job_.completed, (std::vector<int64_t>{1}));
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2, 3}));
}

TEST_F(CheckpointCoordinatorTest, MoreFailuresInARowThanTolerableFailTheJob) {
  CheckpointCoordinatorConfiguration configuration = every(100);
  configuration.tolerableFailedCheckpoints = 2;
  coordinator(configuration);
  at(100);
  coordinator_->checkpointAborted(1, CheckpointFailureReason::DECLINED);
  at(200);  // failure 1; triggers 2
  coordinator_->checkpointAborted(2, CheckpointFailureReason::DECLINED);
  at(300);  // failure 2; triggers 3
  coordinator_->checkpointAcknowledged(acknowledged(3));
  at(400);  // a completed checkpoint resets the count; triggers 4
  EXPECT_EQ(coordinator_->consecutiveFailures(), 0);
  coordinator_->checkpointAborted(4, CheckpointFailureReason::DECLINED);
  at(500);
  coordinator_->checkpointAborted(5, CheckpointFailureReason::DECLINED);
  at(600);
  EXPECT_TRUE(job_.failures.empty());
  // Aborts because the job ended are not the checkpoint's failures.
  coordinator_->checkpointAborted(6, CheckpointFailureReason::JOB_ENDED);
  at(650);
  EXPECT_EQ(coordinator_->consecutiveFailures(), 2);
  EXPECT_TRUE(job_.failures.empty());
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
}

TEST_F(CheckpointCoordinatorTest, TheFirstFailureBeyondTheToleranceFailsTheJobWithFlinksMessage) {
  CheckpointCoordinatorConfiguration configuration = every(100);
  configuration.tolerableFailedCheckpoints = 1;
  configuration.timeoutMillis = 1000;
  coordinator(configuration);
  at(100);
  coordinator_->checkpointAborted(1, CheckpointFailureReason::DECLINED);
  at(200);
  EXPECT_TRUE(job_.failures.empty());
  at(1200);  // checkpoint 2 expires: the second failure in a row
  EXPECT_EQ(job_.aborted, (std::vector<int64_t>{2}));
  EXPECT_EQ(job_.failures,
            (std::vector<std::string>{"Exceeded checkpoint tolerable failure threshold."}));
  // Nothing is triggered any more.
  EXPECT_EQ(at(5000), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(job_.triggered, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(job_.failures.size(), 1u);
}

TEST_F(CheckpointCoordinatorTest, ACheckpointThatCannotBeStoredFailsAndIsAbortedAtTheJob) {
  CheckpointCoordinatorConfiguration configuration = every(100);
  coordinator(configuration);  // no failure tolerated
  storage_.failOn = {1};
  at(100);
  coordinator_->checkpointAcknowledged(acknowledged(1));
  at(110);
  EXPECT_EQ(job_.aborted, (std::vector<int64_t>{1}));
  EXPECT_TRUE(job_.completed.empty());
  EXPECT_EQ(job_.failures,
            (std::vector<std::string>{"Exceeded checkpoint tolerable failure threshold."}));
}

TEST_F(CheckpointCoordinatorTest, OnlyTheNumRetainedLatestCheckpointsAreKept) {
  CheckpointCoordinatorConfiguration configuration = every(100);
  configuration.numRetained = 2;
  coordinator(configuration);
  for (int64_t id = 1; id <= 4; ++id) {
    at(100 * id);
    coordinator_->checkpointAcknowledged(acknowledged(id));
    at(100 * id + 10);
  }
  EXPECT_EQ(storage_.stored, (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(storage_.discarded, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(coordinator_->retainedCheckpointIds(), (std::vector<int64_t>{3, 4}));
}

TEST_F(CheckpointCoordinatorTest, ACheckpointStoredAfterTheJobEndedIsDiscarded) {
  coordinator(every(100));
  at(100);
  job_.ended = true;
  coordinator_->checkpointAcknowledged(acknowledged(1));
  EXPECT_EQ(at(120), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(storage_.stored, (std::vector<int64_t>{1}));
  EXPECT_EQ(storage_.discarded, (std::vector<int64_t>{1}));
  EXPECT_TRUE(coordinator_->retainedCheckpointIds().empty());
}

struct RetentionCase {
  CheckpointRetention retention;
  JobStatus status;
  bool kept;
};

TEST_F(CheckpointCoordinatorTest, TheRetentionPolicyDecidesWhatRemainsWhenTheJobEnds) {
  const std::vector<RetentionCase> cases = {
      {CheckpointRetention::NO_EXTERNALIZED_CHECKPOINTS, JobStatus::FAILED, false},
      {CheckpointRetention::NO_EXTERNALIZED_CHECKPOINTS, JobStatus::CANCELED, false},
      {CheckpointRetention::DELETE_ON_CANCELLATION, JobStatus::CANCELED, false},
      {CheckpointRetention::DELETE_ON_CANCELLATION, JobStatus::FAILED, true},
      {CheckpointRetention::RETAIN_ON_CANCELLATION, JobStatus::CANCELED, true},
      {CheckpointRetention::RETAIN_ON_CANCELLATION, JobStatus::FAILED, true},
      {CheckpointRetention::RETAIN_ON_CANCELLATION, JobStatus::FINISHED, false},
  };
  for (const RetentionCase& testCase : cases) {
    storage_ = StorageLog{};
    job_ = FakeJob{};
    clock_.set(0);
    CheckpointCoordinatorConfiguration configuration = every(100);
    configuration.retention = testCase.retention;
    coordinator(configuration);
    at(100);
    coordinator_->checkpointAcknowledged(acknowledged(1));
    at(110);
    coordinator_->shutdown(testCase.status);
    EXPECT_EQ(storage_.discarded, testCase.kept ? std::vector<int64_t>{} : std::vector<int64_t>{1})
        << static_cast<int>(testCase.retention) << " " << static_cast<int>(testCase.status);
    EXPECT_TRUE(storage_.closed);
    coordinator_->shutdown(testCase.status);  // idempotent
    EXPECT_EQ(storage_.discarded.size(), testCase.kept ? 0u : 1u);
  }
}

TEST_F(CheckpointCoordinatorTest, StatisticsCountOutcomesAndMeasureEachCompletedCheckpoint) {
  CheckpointCoordinatorConfiguration configuration = every(100);
  configuration.timeoutMillis = 50;
  configuration.tolerableFailedCheckpoints = 5;
  coordinator(configuration);
  auto tracker = std::make_shared<CheckpointStatsTracker>();
  coordinator_->setStatsTracker(tracker);
  at(100);
  EXPECT_EQ(tracker->snapshot().numInProgress, 1);
  // Checkpoint 1: 7 bytes of keyed state, 3 of operator state, 2 of an enumerator's.
  auto first = std::make_shared<CompletedCheckpoint>();
  first->id = 1;
  first->operators["op"].resize(2);
  first->operators["op"][0].keyedState[3] = "1234567";
  first->operators["op"][1].operatorState["offsets"] = "abc";
  first->sourceCoordinators["src"] = "xy";
  first->taskTimings = {.maxSyncDurationMicros = 1500,
                        .maxSyncSubtask = "Window (2/2)",
                        .maxAlignmentDurationMicros = 40,
                        .snapshottingSubtasks = 3};
  coordinator_->checkpointAcknowledged(first);
  at(130);
  CheckpointStatistics statistics = tracker->snapshot();
  EXPECT_EQ(statistics.numCompleted, 1);
  EXPECT_EQ(statistics.numInProgress, 0);
  ASSERT_TRUE(statistics.latestCompleted.has_value());
  EXPECT_EQ(statistics.latestCompleted->id, 1);
  EXPECT_EQ(statistics.latestCompleted->triggerTimestamp, 100);
  EXPECT_EQ(statistics.latestCompleted->endToEndDurationMillis, 30);
  EXPECT_EQ(statistics.latestCompleted->stateSizeBytes, 12);
  EXPECT_EQ(statistics.latestCompleted->maxSyncDurationMicros, 1500);
  EXPECT_EQ(statistics.latestCompleted->maxSyncSubtask, "Window (2/2)");
  EXPECT_EQ(statistics.latestCompleted->maxAlignmentDurationMicros, 40);
  EXPECT_EQ(statistics.latestCompleted->numSnapshottingSubtasks, 3);
  // Checkpoint 2 expires: a failure, the latest completed stays checkpoint 1.
  at(200);
  at(250);
  statistics = tracker->snapshot();
  EXPECT_EQ(statistics.numFailed, 1);
  EXPECT_EQ(statistics.latestCompleted->id, 1);
  // Checkpoint 3: faster, smaller, a shorter pause; the summary keeps both.
  at(300);
  auto third = std::make_shared<CompletedCheckpoint>();
  third->id = 3;
  third->taskTimings.maxSyncDurationMicros = 500;
  third->taskTimings.maxSyncSubtask = "Source (1/1)";
  coordinator_->checkpointAcknowledged(third);
  at(310);
  statistics = tracker->snapshot();
  EXPECT_EQ(statistics.numCompleted, 2);
  EXPECT_EQ(statistics.latestCompleted->id, 3);
  EXPECT_EQ(statistics.endToEndDurationMillis.min, 10);
  EXPECT_EQ(statistics.endToEndDurationMillis.max, 30);
  EXPECT_EQ(statistics.endToEndDurationMillis.average(), 20);
  EXPECT_EQ(statistics.stateSizeBytes.max, 12);
  EXPECT_EQ(statistics.stateSizeBytes.min, 0);
  EXPECT_EQ(statistics.longestSyncDurationMicros, 1500);
  EXPECT_EQ(statistics.longestSyncSubtask, "Window (2/2)");
}

}  // namespace
}  // namespace eddy::runtime
