// Clock: where the runtime reads processing time (wall-clock milliseconds since the epoch).
// Processing-time timers and state TTL read it; tests substitute a ManualClock to make
// time-dependent behaviour deterministic. Implementations are thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace eddy {

class Clock {
 public:
  virtual ~Clock() = default;
  /// Milliseconds since 1970-01-01T00:00:00Z.
  virtual int64_t currentTimeMillis() const = 0;
};

/// The system's wall clock.
class SystemClock final : public Clock {
 public:
  int64_t currentTimeMillis() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  /// A process-wide instance.
  static const SystemClock& instance() {
    static const SystemClock clock;
    return clock;
  }
};

/// A clock that only moves when told to (tests).
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t startMillis = 0) : now_(startMillis) {}
  int64_t currentTimeMillis() const override { return now_.load(std::memory_order_acquire); }
  void advance(int64_t millis) { now_.fetch_add(millis, std::memory_order_acq_rel); }
  void set(int64_t millis) { now_.store(millis, std::memory_order_release); }

 private:
  std::atomic<int64_t> now_;
};

}  // namespace eddy
