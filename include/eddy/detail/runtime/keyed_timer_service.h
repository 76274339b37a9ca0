// KeyedTimerService: the event-time and processing-time timers of one keyed operator
// subtask, as Flink's InternalTimerService. A timer is a (timestamp, key) pair — the key as
// its serialized bytes — registered at most once. Event-time timers fire when the watermark
// reaches their timestamp; processing-time timers when the clock does (the service asks the
// task's ProcessingTimeService to wake it at the earliest one). Timers fire in timestamp
// order. Used only by the task thread that owns the operator.
//
// Internal (eddy/detail/): installed only because the DataStream keyed operator templates
// (eddy/detail/datastream/operators.h) hold one; users do not include it.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "eddy/runtime/stream_operator.h"

namespace eddy::runtime {

class KeyedTimerService {
 public:
  /// Called for each due timer with its timestamp and key bytes.
  using FireCallback = std::function<void(int64_t timestamp, const std::string& keyBytes)>;

  void open(ProcessingTimeService* processingTimeService, FireCallback onEventTime,
            FireCallback onProcessingTime) {
    processingTimeService_ = processingTimeService;
    onEventTime_ = std::move(onEventTime);
    onProcessingTime_ = std::move(onProcessingTime);
  }

  int64_t currentWatermark() const { return currentWatermark_; }

  void registerEventTimeTimer(int64_t timestamp, std::string_view keyBytes) {
    eventTimers_.emplace(timestamp, std::string(keyBytes));
  }
  void deleteEventTimeTimer(int64_t timestamp, std::string_view keyBytes) {
    eventTimers_.erase({timestamp, std::string(keyBytes)});
  }
  void registerProcessingTimeTimer(int64_t timestamp, std::string_view keyBytes) {
    bool earliest = processingTimers_.empty() || timestamp < processingTimers_.begin()->first;
    processingTimers_.emplace(timestamp, std::string(keyBytes));
    if (earliest && processingTimeService_ != nullptr) {
      processingTimeService_->registerTimer(timestamp,
                                            [this](int64_t time) { fireProcessingTimers(time); });
    }
  }
  void deleteProcessingTimeTimer(int64_t timestamp, std::string_view keyBytes) {
    processingTimers_.erase({timestamp, std::string(keyBytes)});
  }

  /// Fires every event-time timer at or before `watermark`, including timers registered by
  /// the callbacks themselves.
  void advanceWatermark(int64_t watermark) {
    currentWatermark_ = watermark;
    while (!eventTimers_.empty() && eventTimers_.begin()->first <= watermark) {
      auto timer = eventTimers_.extract(eventTimers_.begin());
      onEventTime_(timer.value().first, timer.value().second);
    }
  }

  /// BATCH mode: fires every remaining timer, event-time and processing-time, as if both
  /// clocks had reached the end of time; then time restarts for the next key. Keys are
  /// processed one after another, so the remaining timers all belong to the key that ends.
  void fireAllTimersAtEndOfKey() {
    while (!eventTimers_.empty() || !processingTimers_.empty()) {
      advanceWatermark(Watermark::kMax);
      while (!processingTimers_.empty()) {
        auto timer = processingTimers_.extract(processingTimers_.begin());
        onProcessingTime_(timer.value().first, timer.value().second);
      }
    }
    currentWatermark_ = Watermark::kMin;
  }

  size_t eventTimerCount() const { return eventTimers_.size(); }
  size_t processingTimerCount() const { return processingTimers_.size(); }

 private:
  void fireProcessingTimers(int64_t now) {
    while (!processingTimers_.empty() && processingTimers_.begin()->first <= now) {
      auto timer = processingTimers_.extract(processingTimers_.begin());
      onProcessingTime_(timer.value().first, timer.value().second);
    }
    if (!processingTimers_.empty()) {
      processingTimeService_->registerTimer(processingTimers_.begin()->first,
                                            [this](int64_t time) { fireProcessingTimers(time); });
    }
  }

  ProcessingTimeService* processingTimeService_ = nullptr;
  FireCallback onEventTime_;
  FireCallback onProcessingTime_;
  int64_t currentWatermark_ = Watermark::kMin;
  std::set<std::pair<int64_t, std::string>> eventTimers_;
  std::set<std::pair<int64_t, std::string>> processingTimers_;
};

}  // namespace eddy::runtime
