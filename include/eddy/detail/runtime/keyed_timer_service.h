// KeyedTimerService: the event-time and processing-time timers of one keyed operator
// subtask, as Flink's InternalTimerService. A timer is a (timestamp, key) pair — the key as
// its serialized bytes — registered at most once. Event-time timers fire when the watermark
// reaches their timestamp; processing-time timers when the clock does (the service asks the
// task's ProcessingTimeService to wake it at the earliest one). Timers fire in timestamp
// order. Used only by the task thread that owns the operator.
//
// Timers live in state: registerWith(backend) makes both timer sets raw keyed state of the
// operator's keyed backend ("_timer_state/event_user-timers" and
// "_timer_state/processing_user-timers", Flink's names), so they are written into every key
// group section of a snapshot (as ListState blocks: per key, its timestamps as
// TypeSerializer<int64_t>) and restored by key group with the keyed state. Restored
// processing-time timers are scheduled in open(); those already due fire at the task's next
// timer check, as Flink's do after a restore.
//
// Internal (eddy/detail/): installed only because the DataStream keyed operator templates
// (eddy/detail/datastream/operators.h) hold one; users do not include it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"

namespace eddy::runtime {

class KeyedTimerService {
 public:
  /// Called for each due timer with its timestamp and key bytes.
  using FireCallback = std::function<void(int64_t timestamp, const std::string& keyBytes)>;

  KeyedTimerService() = default;
  // The raw states point at the timer sets: neither copied nor moved.
  KeyedTimerService(const KeyedTimerService&) = delete;
  KeyedTimerService& operator=(const KeyedTimerService&) = delete;

  static constexpr const char* kEventTimersStateName = "_timer_state/event_user-timers";
  static constexpr const char* kProcessingTimersStateName = "_timer_state/processing_user-timers";

  /// Makes the timers part of `backend`'s snapshots (see the file comment), restoring those it
  /// already restored. Before open(); the backend outlives the service's use of it.
  void registerWith(KeyedStateBackend& backend) {
    backend.registerRawKeyedState(kEventTimersStateName, state::StateKind::kList, eventState_);
    backend.registerRawKeyedState(kProcessingTimersStateName, state::StateKind::kList,
                                  processingState_);
  }

  /// Starts the service; restored processing-time timers are scheduled from here on.
  void open(ProcessingTimeService* processingTimeService, FireCallback onEventTime,
            FireCallback onProcessingTime) {
    processingTimeService_ = processingTimeService;
    onEventTime_ = std::move(onEventTime);
    onProcessingTime_ = std::move(onProcessingTime);
    if (!processingTimers_.empty() && processingTimeService_ != nullptr) {
      processingTimeService_->registerTimer(processingTimers_.begin()->first,
                                            [this](int64_t time) { fireProcessingTimers(time); });
    }
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

  using TimerSet = std::set<std::pair<int64_t, std::string>>;
  const TimerSet& eventTimers() const { return eventTimers_; }
  const TimerSet& processingTimers() const { return processingTimers_; }

 private:
  /// A timer set as it was at a freeze: its timers copied into flat arrays (timestamps and key
  /// bytes), written later (on the task's async snapshot writer) as the set's state blocks.
  class FrozenTimers final : public state::FrozenKeyGroupBodies {
   public:
    FrozenTimers(const TimerSet& timers, KeyGroupRange range, int maxParallelism)
        : FrozenKeyGroupBodies(range), maxParallelism_(maxParallelism) {
      timers_.reserve(timers.size());
      std::string_view lastKey;
      for (const auto& [timestamp, keyBytes] : timers) {
        // Timers of one key often follow each other: their bytes are kept once.
        if (timers_.empty() || keyBytes != lastKey) {
          lastKey = keyBytes;
          keyBytes_.append(keyBytes);
        }
        timers_.push_back(Timer{timestamp, 0, static_cast<uint32_t>(keyBytes.size()),
                                keyBytes_.size() - keyBytes.size()});
      }
    }

   protected:
    void write(std::vector<std::string>& bodies) override {
      const auto bytesOf = [&](const Timer& timer) {
        return std::string_view(keyBytes_).substr(timer.keyBegin, timer.keySize);
      };
      // One flat array sorted by key group, key bytes and timestamp, then written in runs.
      std::vector<Timer> inRange;
      inRange.reserve(timers_.size());
      int lastKeyGroup = 0;
      for (size_t i = 0; i < timers_.size(); ++i) {
        Timer timer = timers_[i];
        // The timers of one key that follow each other share its bytes (keyBegin, keySize).
        if (i == 0 || timer.keyBegin != timers_[i - 1].keyBegin ||
            timer.keySize != timers_[i - 1].keySize) {
          lastKeyGroup = assignToKeyGroup(bytesOf(timer), maxParallelism_);
        }
        timer.keyGroup = lastKeyGroup;
        if (range().contains(timer.keyGroup)) inRange.push_back(timer);
      }
      std::sort(inRange.begin(), inRange.end(), [&](const Timer& left, const Timer& right) {
        if (left.keyGroup != right.keyGroup) return left.keyGroup < right.keyGroup;
        if (int order = bytesOf(left).compare(bytesOf(right)); order != 0) return order < 0;
        return left.timestamp < right.timestamp;
      });
      for (size_t groupStart = 0; groupStart < inRange.size();) {
        const int keyGroup = inRange[groupStart].keyGroup;
        size_t groupEnd = groupStart;
        size_t keys = 0;
        for (; groupEnd < inRange.size() && inRange[groupEnd].keyGroup == keyGroup; ++groupEnd) {
          if (groupEnd == groupStart ||
              bytesOf(inRange[groupEnd]) != bytesOf(inRange[groupEnd - 1])) {
            ++keys;
          }
        }
        std::string& body = bodies[static_cast<size_t>(keyGroup - range().startKeyGroup)];
        serialization::writeVarint(keys, body);
        for (size_t keyStart = groupStart; keyStart < groupEnd;) {
          const std::string_view keyBytes = bytesOf(inRange[keyStart]);
          size_t keyEnd = keyStart + 1;
          while (keyEnd < groupEnd && bytesOf(inRange[keyEnd]) == keyBytes) ++keyEnd;
          state::writeLengthPrefixed(keyBytes, body);
          serialization::writeVarint(keyEnd - keyStart, body);
          for (size_t i = keyStart; i < keyEnd; ++i) {
            state::writeSerializedValue<int64_t, TypeSerializer<int64_t>>(inRange[i].timestamp,
                                                                          body);
          }
          keyStart = keyEnd;
        }
        groupStart = groupEnd;
      }
      timers_ = {};
      std::string().swap(keyBytes_);
    }

   private:
    struct Timer {
      int64_t timestamp = 0;
      int keyGroup = 0;
      uint32_t keySize = 0;
      size_t keyBegin = 0;  // in keyBytes_
    };
    const int maxParallelism_;
    std::vector<Timer> timers_;  // in the set's order (timestamp, then key bytes)
    std::string keyBytes_;
  };

  /// One timer set as raw keyed state: per key group, per key, its timestamps in order. A
  /// snapshot only copies the timers on the task thread (freezeKeyGroups); they are grouped,
  /// sorted and written on the async writer.
  class TimerSetState final : public state::RawKeyedState {
   public:
    explicit TimerSetState(TimerSet& timers) : timers_(timers) {}

    std::unique_ptr<state::FrozenKeyGroups> freezeKeyGroups(KeyGroupRange range,
                                                            int maxParallelism) const override {
      return std::make_unique<FrozenTimers>(timers_, range, maxParallelism);
    }

    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override {
      FrozenTimers frozen(timers_, range, maxParallelism);
      state::writeAllKeyGroups(frozen, range, bodies);
    }

    void restoreKeyGroup(int /*keyGroup*/, std::string_view body) override {
      uint64_t keyCount = serialization::readVarint(body);
      for (uint64_t k = 0; k < keyCount; ++k) {
        std::string keyBytes(state::readLengthPrefixed(body));
        uint64_t count = serialization::readVarint(body);
        for (uint64_t i = 0; i < count; ++i) {
          int64_t timestamp = state::readSerializedValue<int64_t, TypeSerializer<int64_t>>(
              state::readLengthPrefixed(body));
          timers_.emplace(timestamp, keyBytes);
        }
      }
      if (!body.empty()) throw InternalError("trailing bytes after the timers of a key group");
    }

   private:
    TimerSet& timers_;
  };

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
  TimerSet eventTimers_;
  TimerSet processingTimers_;
  TimerSetState eventState_{eventTimers_};
  TimerSetState processingState_{processingTimers_};
};

}  // namespace eddy::runtime
