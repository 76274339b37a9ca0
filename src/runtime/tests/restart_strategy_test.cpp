// The restart strategies' decisions over sequences of failure times (no clock, no threads):
// fixed-delay running out of attempts, failure-rate's sliding window, exponential-delay's
// growing, capped and reset backoff, its jitter's range and attempt limit; Flink's descriptions
// (the "Recovery is suppressed by ..." text) and argument checks. Then the checkpoint
// coordinator's hand-over between the attempts of a restarted job: a failed attempt keeps its
// checkpoints (retainOnFailure), the next attempt's coordinator adopts them, num-retained counts
// over both, and the retention policy applies once the job has ended for good.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eddy/exceptions.h"
#include "runtime/checkpoint_coordinator.h"
#include "runtime/restart_strategy.h"

namespace eddy::runtime {
namespace {

using Decisions = std::vector<std::optional<int64_t>>;

/// The strategy's answers to failures at `times`, in order.
Decisions decide(RestartBackoffTimeStrategy& strategy, const std::vector<int64_t>& times) {
  Decisions decisions;
  for (int64_t time : times) decisions.push_back(strategy.notifyFailure(time));
  return decisions;
}

constexpr std::nullopt_t kGiveUp = std::nullopt;

TEST(RestartStrategyTest, NoneNeverRestarts) {
  NoRestartBackoffTimeStrategy strategy;
  EXPECT_EQ(decide(strategy, {0, 1000000}), (Decisions{kGiveUp, kGiveUp}));
  EXPECT_EQ(strategy.toString(), "NoRestartBackoffTimeStrategy");
}

TEST(RestartStrategyTest, FixedDelayRestartsItsAttemptsThenGivesUp) {
  FixedDelayRestartBackoffTimeStrategy strategy(3, 10);
  // However far apart the failures are: three restarts, each after the same delay.
  EXPECT_EQ(decide(strategy, {0, 5, 100000, 100001}), (Decisions{10, 10, 10, kGiveUp}));
  EXPECT_EQ(strategy.notifyFailure(200000), kGiveUp);
  EXPECT_EQ(strategy.toString(),
            "FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10)");

  FixedDelayRestartBackoffTimeStrategy never(0, 0);
  EXPECT_EQ(decide(never, {0}), (Decisions{kGiveUp}));
}

TEST(RestartStrategyTest, FailureRateAllowsTheMaximumWithinAnyInterval) {
  FailureRateRestartBackoffTimeStrategy strategy(2, 100, 5);
  // Two failures within 100 ms restart; a third within 100 ms of the first gives up.
  EXPECT_EQ(decide(strategy, {0, 10, 50}), (Decisions{5, 5, kGiveUp}));

  FailureRateRestartBackoffTimeStrategy spread(2, 100, 5);
  // 0, 10, 150: the oldest of the three is 150 ms back, outside the interval; the window then
  // slides: 10, 150, 160 spans 150 ms (restart); 150, 160, 170 spans 20 ms (give up).
  EXPECT_EQ(decide(spread, {0, 10, 150, 160, 170}), (Decisions{5, 5, 5, 5, kGiveUp}));

  FailureRateRestartBackoffTimeStrategy exactlyTheInterval(1, 100, 0);
  // Flink restarts only when the earliest failure lies more than the interval back.
  EXPECT_EQ(decide(exactlyTheInterval, {0, 100}), (Decisions{0, kGiveUp}));
  FailureRateRestartBackoffTimeStrategy justOutside(1, 100, 0);
  EXPECT_EQ(decide(justOutside, {0, 101, 202}), (Decisions{0, 0, 0}));

  EXPECT_EQ(strategy.toString(),
            "FailureRateRestartBackoffTimeStrategy(FailureRateRestartBackoffTimeStrategy("
            "failuresIntervalMS=100,backoffTimeMS=5,maxFailuresPerInterval=2)");
}

TEST(RestartStrategyTest, ExponentialDelayDoublesUpToTheMaximumAndResetsAfterTheThreshold) {
  // initial 10, max 100, x2, reset after 1000 ms without a due restart, no jitter.
  ExponentialDelayRestartBackoffTimeStrategy strategy(10, 100, 2.0, 1000, 0.0, 1000, 1);
  // Each failure comes after the restart before it was due (its time + its delay).
  EXPECT_EQ(decide(strategy, {0, 20, 50, 100, 200, 310, 420}),
            (Decisions{10, 20, 40, 80, 100, 100, 100}));
  // The last restart was due at 520; a failure 1000 ms after that starts over.
  EXPECT_EQ(decide(strategy, {1520, 1540}), (Decisions{10, 20}));
  // 999 ms after the due restart is not enough.
  EXPECT_EQ(decide(strategy, {1560 + 999}), (Decisions{40}));
}

TEST(RestartStrategyTest, ExponentialDelayMergesAFailureWhileARestartIsDue) {
  ExponentialDelayRestartBackoffTimeStrategy strategy(100, 1000, 2.0, 100000, 0.0, 1000, 1);
  EXPECT_EQ(strategy.notifyFailure(0), 100);
  // A second task of the same attempt fails before the restart: the same restart, no new one.
  EXPECT_EQ(strategy.notifyFailure(30), 70);
  EXPECT_EQ(strategy.notifyFailure(100), 0);
  EXPECT_EQ(strategy.notifyFailure(101), 200);  // the next attempt's failure
}

TEST(RestartStrategyTest, ExponentialDelayGivesUpAfterItsAttemptsUntilReset) {
  ExponentialDelayRestartBackoffTimeStrategy strategy(10, 1000, 1.5, 1000, 0.0, 2, 1);
  // 10, then (long) (10 x 1.5) = 15, then the third attempt is one too many.
  EXPECT_EQ(decide(strategy, {0, 20, 40}), (Decisions{10, 15, kGiveUp}));
  EXPECT_EQ(strategy.toString(),
            "ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=10, maxBackoffMS=1000, "
            "backoffMultiplier=1.5, resetBackoffThresholdMS=1000, jitterFactor=0.0, "
            "attemptsBeforeResetBackoff=2, currentRestartAttempt=3, nextRestartTimestamp=62)");

  ExponentialDelayRestartBackoffTimeStrategy resetting(10, 1000, 1.5, 1000, 0.0, 2, 1);
  // A reset (a failure 1000 ms after the due restart) gives the attempts back.
  EXPECT_EQ(decide(resetting, {0, 20, 1035, 1050}), (Decisions{10, 15, 10, 15}));
}

TEST(RestartStrategyTest, ExponentialDelayJitterStaysWithinItsShareOfTheBackoff) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    // 1000, 2000, 4000 +- 50 %, but never below the initial backoff or above the maximum.
    ExponentialDelayRestartBackoffTimeStrategy strategy(1000, 5000, 2.0, 1000000, 0.5, 1000,
                                                        seed);
    int64_t now = 0;
    const int64_t low[] = {1000, 1000, 2000};
    const int64_t high[] = {1500, 3000, 5000};
    for (int attempt = 0; attempt < 3; ++attempt) {
      std::optional<int64_t> delay = strategy.notifyFailure(now);
      ASSERT_TRUE(delay.has_value());
      EXPECT_GE(*delay, low[attempt]) << "seed " << seed << ", attempt " << attempt;
      EXPECT_LE(*delay, high[attempt]) << "seed " << seed << ", attempt " << attempt;
      now += *delay + 1;
    }
  }
  // The jitter varies with the seed (it is not always the same offset).
  std::vector<int64_t> firstDelays;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    ExponentialDelayRestartBackoffTimeStrategy strategy(1000, 5000, 2.0, 1000000, 0.5, 1000,
                                                        seed);
    firstDelays.push_back(*strategy.notifyFailure(0));
  }
  EXPECT_NE(*std::min_element(firstDelays.begin(), firstDelays.end()),
            *std::max_element(firstDelays.begin(), firstDelays.end()));
}

TEST(RestartStrategyTest, FlinksDefaultsAndArgumentChecks) {
  RestartStrategyConfiguration defaults;
  defaults.type = RestartStrategyType::EXPONENTIAL_DELAY;
  defaults.exponentialJitterFactor = 0;  // for exact delays; Flink's default is 0.1
  std::unique_ptr<RestartBackoffTimeStrategy> strategy = createRestartBackoffTimeStrategy(defaults);
  // 1 s, x1.5 ... capped at 1 min.
  EXPECT_EQ(strategy->notifyFailure(0), 1000);
  EXPECT_EQ(strategy->notifyFailure(2000), 1500);
  EXPECT_EQ(strategy->notifyFailure(4000), 2250);
  EXPECT_EQ(strategy->toString().rfind(
                "ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=1000, "
                "maxBackoffMS=60000, backoffMultiplier=1.5, resetBackoffThresholdMS=3600000, "
                "jitterFactor=0.0, attemptsBeforeResetBackoff=2147483647, ",
                0),
            0u)
      << strategy->toString();

  RestartStrategyConfiguration fixed;
  fixed.type = RestartStrategyType::FIXED_DELAY;
  EXPECT_EQ(createRestartBackoffTimeStrategy(fixed)->toString(),
            "FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=1, backoffTimeMS=1000)");
  EXPECT_EQ(createRestartBackoffTimeStrategy(RestartStrategyConfiguration{})->toString(),
            "NoRestartBackoffTimeStrategy");

  auto rejected = [](RestartStrategyConfiguration configuration) -> std::string {
    try {
      createRestartBackoffTimeStrategy(configuration);
    } catch (const ValidationException& error) {
      return error.what();
    }
    return "(accepted)";
  };
  RestartStrategyConfiguration exponential = defaults;
  exponential.exponentialBackoffMultiplier = 1.0;
  EXPECT_EQ(rejected(exponential), "Backoff multiplier must be greater than 1.");
  exponential = defaults;
  exponential.exponentialInitialBackoffMillis = 120000;
  EXPECT_EQ(rejected(exponential), "Initial backoff cannot be higher than maximum backoff.");
  exponential = defaults;
  exponential.exponentialJitterFactor = 1.5;
  EXPECT_EQ(rejected(exponential), "Jitter factor must be >= 0 and <= 1.");
  exponential = defaults;
  exponential.exponentialAttemptsBeforeResetBackoff = 0;
  EXPECT_EQ(rejected(exponential), "The attemptsBeforeResetBackoff must be at least 1.");
  RestartStrategyConfiguration rate;
  rate.type = RestartStrategyType::FAILURE_RATE;
  rate.failureRateIntervalMillis = 0;
  EXPECT_EQ(rejected(rate), "Failures interval must be greater than 0 ms.");
}

TEST(RestartStrategyTest, DoublesReadAsJavaWritesThem) {
  EXPECT_EQ(javaDoubleString(2.0), "2.0");
  EXPECT_EQ(javaDoubleString(1.5), "1.5");
  EXPECT_EQ(javaDoubleString(0.1), "0.1");
  EXPECT_EQ(javaDoubleString(0.0), "0.0");
}

// ---- checkpoints across attempts ------------------------------------------------------------

class FakeJob : public CheckpointTarget {
 public:
  bool triggerCheckpoint(int64_t, CheckpointOptions) override { return true; }
  bool completeCheckpoint(int64_t) override { return true; }
  void abortCheckpoint(int64_t) override {}
  void failJob(const std::string&) override {}
};

class RecordingStorage : public CheckpointStorage {
 public:
  explicit RecordingStorage(std::vector<int64_t>& discarded) : discarded_(discarded) {}
  std::string store(const CompletedCheckpoint& checkpoint) override {
    return "chk-" + std::to_string(checkpoint.id);
  }
  void discard(int64_t id) override { discarded_.push_back(id); }

 private:
  std::vector<int64_t>& discarded_;
};

std::shared_ptr<const CompletedCheckpoint> acknowledged(int64_t id) {
  auto checkpoint = std::make_shared<CompletedCheckpoint>();
  checkpoint->id = id;
  return checkpoint;
}

TEST(CheckpointHandOverTest, TheNextAttemptsCoordinatorTakesOverTheCheckpointsOfTheFailedOne) {
  ManualClock clock(0);
  FakeJob job;
  std::vector<int64_t> discarded;
  CheckpointCoordinatorConfiguration configuration;
  configuration.intervalMillis = 100;
  configuration.numRetained = 2;
  configuration.retainOnFailure = true;  // the user's policy: NO_EXTERNALIZED_CHECKPOINTS

  CheckpointCoordinator first(configuration, job, std::make_unique<RecordingStorage>(discarded),
                              clock);
  EXPECT_EQ(first.latestCompletedCheckpoint(), nullptr);
  clock.set(100);
  first.runDueWork();  // triggers 1
  first.checkpointAcknowledged(acknowledged(1));
  clock.set(200);
  first.runDueWork();  // completes 1, triggers 2, which never completes
  first.shutdown(JobStatus::FAILED);
  EXPECT_TRUE(discarded.empty());  // kept for the next attempt
  ASSERT_NE(first.latestCompletedCheckpoint(), nullptr);
  EXPECT_EQ(first.latestCompletedCheckpoint()->id, 1);
  EXPECT_EQ(first.nextCheckpointId(), 3);  // 2 was triggered: it is not used again

  CheckpointCoordinator second(configuration, job, std::make_unique<RecordingStorage>(discarded),
                               clock, first.nextCheckpointId());
  second.adoptRetainedCheckpoints(first);
  EXPECT_TRUE(first.retainedCheckpointIds().empty());
  EXPECT_EQ(second.retainedCheckpointIds(), (std::vector<int64_t>{1}));
  EXPECT_EQ(second.latestCompletedCheckpoint()->id, 1);
  for (int64_t id : {3, 4}) {
    clock.advance(100);
    second.runDueWork();  // triggers id
    second.checkpointAcknowledged(acknowledged(id));
    clock.advance(1);
    second.runDueWork();  // completes it
  }
  // num-retained counts over both attempts: 1 (the first attempt's) made room for 4.
  EXPECT_EQ(second.retainedCheckpointIds(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(discarded, (std::vector<int64_t>{1}));
  EXPECT_EQ(second.latestCompletedCheckpoint()->id, 4);

  // The second attempt fails too and the strategy gives up: the job's policy applies now.
  second.shutdown(JobStatus::FAILED);
  EXPECT_EQ(discarded, (std::vector<int64_t>{1}));
  second.applyRetention(JobStatus::FAILED);
  EXPECT_EQ(discarded, (std::vector<int64_t>{1, 3, 4}));
  EXPECT_TRUE(second.retainedCheckpointIds().empty());

  // RETAIN_ON_CANCELLATION keeps them when the job is cancelled while it waits to restart.
  discarded.clear();
  configuration.retention = CheckpointRetention::RETAIN_ON_CANCELLATION;
  CheckpointCoordinator retaining(configuration, job,
                                  std::make_unique<RecordingStorage>(discarded), clock);
  clock.advance(100);
  retaining.runDueWork();
  retaining.checkpointAcknowledged(acknowledged(1));
  clock.advance(1);
  retaining.runDueWork();
  retaining.shutdown(JobStatus::FAILED);
  retaining.applyRetention(JobStatus::CANCELED);
  EXPECT_TRUE(discarded.empty());
  EXPECT_EQ(retaining.retainedCheckpointIds(), (std::vector<int64_t>{1}));
}

}  // namespace
}  // namespace eddy::runtime
