// RestartBackoffTimeStrategy: whether a job whose task failed is restarted, and after how long
// (Flink's RestartBackoffTimeStrategy, `restart-strategy.type`). The four kinds are Flink's:
//
// - none: never (NoRestartBackoffTimeStrategy).
// - fixed-delay: `attempts` restarts, each `delay` after its failure.
// - failure-rate: restarts `delay` after each failure as long as no more than
//   `max-failures-per-interval` failures fall into any `failure-rate-interval`.
// - exponential-delay: the n-th restart after a reset waits initial-backoff x multiplier^n,
//   capped at max-backoff, +- jitter-factor of it; a failure that comes reset-backoff-threshold
//   or more after the previous restart was due resets the backoff (and the attempt count); more
//   than attempts-before-reset-backoff restarts without a reset give up.
//
// When a strategy gives up, the job fails with Flink's message "Recovery is suppressed by " +
// toString(); each toString() reproduces the text of Flink's class (failure-rate's doubled
// prefix included), so the message reads as Flink's does.
//
// A strategy is a pure decision object: the failure's time comes in as an argument (wall-clock
// milliseconds, as Flink's SystemClock), so a test drives it with any sequence of failure
// times. Not thread-safe: the job's supervisor (job_supervisor.h) calls it from its one thread.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>

namespace eddy::runtime {

enum class RestartStrategyType { NONE, FIXED_DELAY, FAILURE_RATE, EXPONENTIAL_DELAY };

/// The `restart-strategy.*` settings (times in milliseconds); the defaults are Flink's
/// RestartStrategyOptions. Only the fields of `type` are read.
struct RestartStrategyConfiguration {
  RestartStrategyType type = RestartStrategyType::NONE;
  // fixed-delay
  int64_t fixedDelayAttempts = 1;
  int64_t fixedDelayMillis = 1000;
  // failure-rate
  int64_t failureRateMaxFailuresPerInterval = 1;
  int64_t failureRateIntervalMillis = 60 * 1000;
  int64_t failureRateDelayMillis = 1000;
  // exponential-delay
  int64_t exponentialInitialBackoffMillis = 1000;
  int64_t exponentialMaxBackoffMillis = 60 * 1000;
  double exponentialBackoffMultiplier = 1.5;
  int64_t exponentialResetBackoffThresholdMillis = 60 * 60 * 1000;
  double exponentialJitterFactor = 0.1;
  int64_t exponentialAttemptsBeforeResetBackoff = std::numeric_limits<int32_t>::max();
};

class RestartBackoffTimeStrategy {
 public:
  virtual ~RestartBackoffTimeStrategy() = default;
  /// The job failed at `nowMillis` (wall clock): the milliseconds to wait before restarting it,
  /// or nothing when recovery is suppressed (the job fails for good).
  virtual std::optional<int64_t> notifyFailure(int64_t nowMillis) = 0;
  /// Flink's description of the strategy, as its message "Recovery is suppressed by ..." shows.
  virtual std::string toString() const = 0;
};

class NoRestartBackoffTimeStrategy final : public RestartBackoffTimeStrategy {
 public:
  std::optional<int64_t> notifyFailure(int64_t) override { return std::nullopt; }
  std::string toString() const override { return "NoRestartBackoffTimeStrategy"; }
};

class FixedDelayRestartBackoffTimeStrategy final : public RestartBackoffTimeStrategy {
 public:
  /// Throws ValidationException (Flink's argument checks) for negative values.
  FixedDelayRestartBackoffTimeStrategy(int64_t maxNumberRestartAttempts, int64_t backoffTimeMillis);
  std::optional<int64_t> notifyFailure(int64_t nowMillis) override;
  std::string toString() const override;

 private:
  const int64_t maxNumberRestartAttempts_;
  const int64_t backoffTimeMillis_;
  int64_t currentRestartAttempt_ = 0;
};

class FailureRateRestartBackoffTimeStrategy final : public RestartBackoffTimeStrategy {
 public:
  /// Throws ValidationException (Flink's argument checks) unless maxFailuresPerInterval > 0,
  /// failuresIntervalMillis > 0 and backoffTimeMillis >= 0.
  FailureRateRestartBackoffTimeStrategy(int64_t maxFailuresPerInterval,
                                        int64_t failuresIntervalMillis, int64_t backoffTimeMillis);
  std::optional<int64_t> notifyFailure(int64_t nowMillis) override;
  std::string toString() const override;

 private:
  const int64_t maxFailuresPerInterval_;
  const int64_t failuresIntervalMillis_;
  const int64_t backoffTimeMillis_;
  // The latest failures' times, at most maxFailuresPerInterval_ + 1, oldest first.
  std::deque<int64_t> failureTimestamps_;
};

class ExponentialDelayRestartBackoffTimeStrategy final : public RestartBackoffTimeStrategy {
 public:
  /// Throws ValidationException (Flink's argument checks, with Flink's messages) for values out
  /// of range. `jitterSeed` seeds the jitter's random numbers (tests fix it).
  ExponentialDelayRestartBackoffTimeStrategy(int64_t initialBackoffMillis,
                                             int64_t maxBackoffMillis, double backoffMultiplier,
                                             int64_t resetBackoffThresholdMillis,
                                             double jitterFactor,
                                             int64_t attemptsBeforeResetBackoff,
                                             uint64_t jitterSeed = std::random_device{}());
  std::optional<int64_t> notifyFailure(int64_t nowMillis) override;
  std::string toString() const override;

 private:
  /// Flink's DEFAULT_NEXT_RESTART_TIMESTAMP: before the first failure.
  static constexpr int64_t kNoRestartYet = std::numeric_limits<int32_t>::min();

  int64_t actualBackoffTime();

  const int64_t initialBackoffMillis_;
  const int64_t maxBackoffMillis_;
  const double backoffMultiplier_;
  const int64_t resetBackoffThresholdMillis_;
  const double jitterFactor_;
  const int64_t attemptsBeforeResetBackoff_;
  std::mt19937_64 random_;
  int64_t currentRestartAttempt_ = 0;
  int64_t nextRestartTimestamp_ = kNoRestartYet;
};

/// The strategy `configuration` describes. Throws ValidationException for settings Flink
/// rejects (with its messages, e.g. "Backoff multiplier must be greater than 1.").
std::unique_ptr<RestartBackoffTimeStrategy> createRestartBackoffTimeStrategy(
    const RestartStrategyConfiguration& configuration);

/// A double as Java's Double.toString writes it in the range Flink's options use ("1.5",
/// "2.0", "0.1"): the shortest digits that read back as the same value, with at least one
/// digit after the point.
std::string javaDoubleString(double value);

}  // namespace eddy::runtime
