#include "runtime/restart_strategy.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "eddy/exceptions.h"

namespace eddy::runtime {

namespace {

/// Flink's Preconditions.checkArgument: an IllegalArgumentException with `message`.
void checkArgument(bool condition, const char* message) {
  if (!condition) throw ValidationException(message);
}

}  // namespace

std::string javaDoubleString(double value) {
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, error == std::errc() ? end : buffer);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // n: inf, nan
  return text;
}

// ---- fixed-delay -----------------------------------------------------------------------

FixedDelayRestartBackoffTimeStrategy::FixedDelayRestartBackoffTimeStrategy(
    int64_t maxNumberRestartAttempts, int64_t backoffTimeMillis)
    : maxNumberRestartAttempts_(maxNumberRestartAttempts), backoffTimeMillis_(backoffTimeMillis) {
  checkArgument(maxNumberRestartAttempts >= 0,
                "Maximum number of restart attempts must be at least 0.");
  checkArgument(backoffTimeMillis >= 0,
                "Backoff time between restart attempts must be at least 0 ms.");
}

std::optional<int64_t> FixedDelayRestartBackoffTimeStrategy::notifyFailure(int64_t) {
  ++currentRestartAttempt_;
  if (currentRestartAttempt_ > maxNumberRestartAttempts_) return std::nullopt;
  return backoffTimeMillis_;
}

std::string FixedDelayRestartBackoffTimeStrategy::toString() const {
  return "FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=" +
         std::to_string(maxNumberRestartAttempts_) +
         ", backoffTimeMS=" + std::to_string(backoffTimeMillis_) + ")";
}

// ---- failure-rate ----------------------------------------------------------------------

FailureRateRestartBackoffTimeStrategy::FailureRateRestartBackoffTimeStrategy(
    int64_t maxFailuresPerInterval, int64_t failuresIntervalMillis, int64_t backoffTimeMillis)
    : maxFailuresPerInterval_(maxFailuresPerInterval),
      failuresIntervalMillis_(failuresIntervalMillis),
      backoffTimeMillis_(backoffTimeMillis) {
  checkArgument(maxFailuresPerInterval > 0,
                "Maximum number of restart attempts per time unit must be greater than 0.");
  checkArgument(failuresIntervalMillis > 0, "Failures interval must be greater than 0 ms.");
  checkArgument(backoffTimeMillis >= 0, "Backoff time must be at least 0 ms.");
}

std::optional<int64_t> FailureRateRestartBackoffTimeStrategy::notifyFailure(int64_t nowMillis) {
  // As Flink: the queue is "full" with one failure more than allowed; the job restarts while
  // the oldest of those lies further back than the interval.
  const auto full = [this] {
    return failureTimestamps_.size() > static_cast<size_t>(maxFailuresPerInterval_);
  };
  if (full()) failureTimestamps_.pop_front();
  failureTimestamps_.push_back(nowMillis);
  if (full() && nowMillis - failureTimestamps_.front() <= failuresIntervalMillis_) {
    return std::nullopt;
  }
  return backoffTimeMillis_;
}

std::string FailureRateRestartBackoffTimeStrategy::toString() const {
  // Flink's text, its class name twice and one parenthesis unclosed included.
  return "FailureRateRestartBackoffTimeStrategy(FailureRateRestartBackoffTimeStrategy("
         "failuresIntervalMS=" +
         std::to_string(failuresIntervalMillis_) +
         ",backoffTimeMS=" + std::to_string(backoffTimeMillis_) +
         ",maxFailuresPerInterval=" + std::to_string(maxFailuresPerInterval_) + ")";
}

// ---- exponential-delay -----------------------------------------------------------------

ExponentialDelayRestartBackoffTimeStrategy::ExponentialDelayRestartBackoffTimeStrategy(
    int64_t initialBackoffMillis, int64_t maxBackoffMillis, double backoffMultiplier,
    int64_t resetBackoffThresholdMillis, double jitterFactor, int64_t attemptsBeforeResetBackoff,
    uint64_t jitterSeed)
    : initialBackoffMillis_(initialBackoffMillis),
      maxBackoffMillis_(maxBackoffMillis),
      backoffMultiplier_(backoffMultiplier),
      resetBackoffThresholdMillis_(resetBackoffThresholdMillis),
      jitterFactor_(jitterFactor),
      attemptsBeforeResetBackoff_(attemptsBeforeResetBackoff),
      random_(jitterSeed) {
  checkArgument(initialBackoffMillis >= 1, "Initial backoff must be at least 1.");
  checkArgument(maxBackoffMillis >= 1, "Maximum backoff must be at least 1.");
  checkArgument(initialBackoffMillis <= maxBackoffMillis,
                "Initial backoff cannot be higher than maximum backoff.");
  checkArgument(backoffMultiplier > 1, "Backoff multiplier must be greater than 1.");
  checkArgument(resetBackoffThresholdMillis >= 1,
                "Threshold duration for exponential backoff reset must be at least 1.");
  checkArgument(0 <= jitterFactor && jitterFactor <= 1, "Jitter factor must be >= 0 and <= 1.");
  checkArgument(attemptsBeforeResetBackoff >= 1,
                "The attemptsBeforeResetBackoff must be at least 1.");
}

std::optional<int64_t> ExponentialDelayRestartBackoffTimeStrategy::notifyFailure(
    int64_t nowMillis) {
  // A failure while a restart is still due belongs to the same attempt (Flink merges the
  // failures of the tasks of one attempt); it neither counts nor moves the restart.
  if (nowMillis > nextRestartTimestamp_) {
    if (nowMillis - nextRestartTimestamp_ >= resetBackoffThresholdMillis_) {
      currentRestartAttempt_ = 0;  // ran long enough without failing
    }
    nextRestartTimestamp_ = nowMillis + actualBackoffTime();
    ++currentRestartAttempt_;
  }
  if (currentRestartAttempt_ > attemptsBeforeResetBackoff_) return std::nullopt;
  return std::max<int64_t>(0, nextRestartTimestamp_ - nowMillis);
}

int64_t ExponentialDelayRestartBackoffTimeStrategy::actualBackoffTime() {
  // Flink: (long) (initial * multiplier^attempt), then +- jitter, then within [initial, max].
  // The jitter is taken of the uncapped backoff, as Flink does; the power is bounded only so
  // that the conversion and the sum cannot overflow.
  constexpr double kBound = 0x1p61;
  const double power = static_cast<double>(initialBackoffMillis_) *
                       std::pow(backoffMultiplier_, static_cast<double>(currentRestartAttempt_));
  const int64_t backoff = static_cast<int64_t>(std::min(power, kBound));
  int64_t jitter = 0;
  if (jitterFactor_ != 0) {
    const auto offset = static_cast<int64_t>(static_cast<double>(backoff) * jitterFactor_);
    jitter = std::uniform_int_distribution<int64_t>(-offset, offset)(random_);
  }
  return std::max(initialBackoffMillis_, std::min(backoff + jitter, maxBackoffMillis_));
}

std::string ExponentialDelayRestartBackoffTimeStrategy::toString() const {
  return "ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=" +
         std::to_string(initialBackoffMillis_) +
         ", maxBackoffMS=" + std::to_string(maxBackoffMillis_) +
         ", backoffMultiplier=" + javaDoubleString(backoffMultiplier_) +
         ", resetBackoffThresholdMS=" + std::to_string(resetBackoffThresholdMillis_) +
         ", jitterFactor=" + javaDoubleString(jitterFactor_) +
         ", attemptsBeforeResetBackoff=" + std::to_string(attemptsBeforeResetBackoff_) +
         ", currentRestartAttempt=" + std::to_string(currentRestartAttempt_) +
         ", nextRestartTimestamp=" + std::to_string(nextRestartTimestamp_) + ")";
}

// ---- configuration ---------------------------------------------------------------------

std::unique_ptr<RestartBackoffTimeStrategy> createRestartBackoffTimeStrategy(
    const RestartStrategyConfiguration& configuration) {
  switch (configuration.type) {
    case RestartStrategyType::NONE:
      break;
    case RestartStrategyType::FIXED_DELAY:
      return std::make_unique<FixedDelayRestartBackoffTimeStrategy>(
          configuration.fixedDelayAttempts, configuration.fixedDelayMillis);
    case RestartStrategyType::FAILURE_RATE:
      return std::make_unique<FailureRateRestartBackoffTimeStrategy>(
          configuration.failureRateMaxFailuresPerInterval, configuration.failureRateIntervalMillis,
          configuration.failureRateDelayMillis);
    case RestartStrategyType::EXPONENTIAL_DELAY:
      return std::make_unique<ExponentialDelayRestartBackoffTimeStrategy>(
          configuration.exponentialInitialBackoffMillis, configuration.exponentialMaxBackoffMillis,
          configuration.exponentialBackoffMultiplier,
          configuration.exponentialResetBackoffThresholdMillis,
          configuration.exponentialJitterFactor,
          configuration.exponentialAttemptsBeforeResetBackoff);
  }
  return std::make_unique<NoRestartBackoffTimeStrategy>();
}

}  // namespace eddy::runtime
