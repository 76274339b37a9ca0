// Keyed timers: one timer per (timestamp, key), firing in timestamp order when the watermark
// or the processing-time clock reaches it, deletable, and drained at the end of a key in
// BATCH mode; snapshotted by key group, asynchronously from a freeze.
#include "eddy/detail/runtime/keyed_timer_service.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "eddy/clock.h"
#include "state/heap_keyed_state_backend.h"

namespace eddy::runtime {
namespace {

/// Records registrations; fire(time) runs the due callbacks, as the task thread would.
class FakeProcessingTimeService final : public ProcessingTimeService {
 public:
  int64_t currentProcessingTime() const override { return now; }
  void registerTimer(int64_t time, std::function<void(int64_t)> callback) override {
    pending.emplace_back(time, std::move(callback));
  }
  void advanceTo(int64_t time) {
    now = time;
    auto due = std::move(pending);
    pending.clear();
    for (auto& [at, callback] : due) {
      if (at <= time) {
        callback(time);
      } else {
        pending.emplace_back(at, std::move(callback));
      }
    }
  }
  int64_t now = 0;
  std::vector<std::pair<int64_t, std::function<void(int64_t)>>> pending;
};

class KeyedTimerServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    timers.open(
        &clock,
        [this](int64_t time, const std::string& key) {
          fired.push_back("event " + key + "@" + std::to_string(time));
        },
        [this](int64_t time, const std::string& key) {
          fired.push_back("processing " + key + "@" + std::to_string(time));
        });
  }
  FakeProcessingTimeService clock;
  KeyedTimerService timers;
  std::vector<std::string> fired;
};

TEST_F(KeyedTimerServiceTest, EventTimersFireInOrderWhenTheWatermarkPasses) {
  timers.registerEventTimeTimer(30, "b");
  timers.registerEventTimeTimer(10, "a");
  timers.registerEventTimeTimer(10, "a");  // the same timer again: still one
  timers.registerEventTimeTimer(20, "c");
  EXPECT_EQ(timers.eventTimerCount(), 3u);
  timers.advanceWatermark(19);
  EXPECT_EQ(fired, (std::vector<std::string>{"event a@10"}));
  timers.advanceWatermark(30);
  EXPECT_EQ(fired, (std::vector<std::string>{"event a@10", "event c@20", "event b@30"}));
  EXPECT_EQ(timers.currentWatermark(), 30);
}

TEST_F(KeyedTimerServiceTest, DeletedTimersDoNotFire) {
  timers.registerEventTimeTimer(10, "a");
  timers.registerEventTimeTimer(10, "b");
  timers.deleteEventTimeTimer(10, "a");
  timers.advanceWatermark(100);
  EXPECT_EQ(fired, (std::vector<std::string>{"event b@10"}));
}

TEST_F(KeyedTimerServiceTest, ProcessingTimersFireWhenTheClockArrives) {
  timers.registerProcessingTimeTimer(50, "x");
  timers.registerProcessingTimeTimer(20, "y");
  timers.deleteProcessingTimeTimer(50, "x");
  timers.registerProcessingTimeTimer(60, "z");
  clock.advanceTo(25);
  EXPECT_EQ(fired, (std::vector<std::string>{"processing y@20"}));
  clock.advanceTo(70);
  EXPECT_EQ(fired, (std::vector<std::string>{"processing y@20", "processing z@60"}));
  EXPECT_EQ(timers.processingTimerCount(), 0u);
}

TEST_F(KeyedTimerServiceTest, EndOfKeyFiresEverythingAndRestartsTime) {
  timers.registerEventTimeTimer(5, "k");
  timers.registerProcessingTimeTimer(7, "k");
  timers.fireAllTimersAtEndOfKey();
  EXPECT_EQ(fired, (std::vector<std::string>{"event k@5", "processing k@7"}));
  EXPECT_EQ(timers.currentWatermark(), Watermark::kMin);
}

// An asynchronous snapshot of the timers: what the freeze copied is written after the timers
// changed (fired, deleted, registered) as a synchronous snapshot wrote it at the freeze, and a
// restore from it has the timers of the freeze, in both sets.
TEST_F(KeyedTimerServiceTest, AFrozenSnapshotWritesTheTimersOfItsFreeze) {
  constexpr int kMaxParallelism = 128;
  const KeyGroupRange allKeyGroups{0, kMaxParallelism - 1};
  ManualClock wallClock;
  HeapKeyedStateBackend backend(allKeyGroups, kMaxParallelism, wallClock);
  timers.registerWith(backend);
  for (int timestamp = 0; timestamp < 40; ++timestamp) {
    // Keys interleaved in time, one of them empty, runs of one key among them.
    const std::string key = timestamp % 5 == 0 ? "" : "key-" + std::to_string(timestamp % 7 / 2);
    timers.registerEventTimeTimer(100 + timestamp, key);
    timers.registerProcessingTimeTimer(1000 - timestamp, key);
  }
  const KeyedTimerService::TimerSet eventAtFreeze = timers.eventTimers();
  const KeyedTimerService::TimerSet processingAtFreeze = timers.processingTimers();
  std::map<int, std::string> atFreeze;
  backend.snapshotKeyGroups(atFreeze);
  std::unique_ptr<state::FrozenKeyedState> frozen = backend.freezeKeyGroups();

  timers.advanceWatermark(120);
  timers.deleteProcessingTimeTimer(1000, "");
  timers.registerEventTimeTimer(5000, "key-new");
  std::map<int, std::string> now;
  backend.snapshotKeyGroups(now);
  EXPECT_NE(now, atFreeze);

  std::map<int, std::string> written;
  frozen->write(written);
  EXPECT_EQ(written, atFreeze);
  HeapKeyedStateBackend restoredBackend(allKeyGroups, kMaxParallelism, wallClock);
  restoredBackend.restoreKeyGroups(written);
  KeyedTimerService restored;
  restored.registerWith(restoredBackend);
  EXPECT_EQ(restored.eventTimers(), eventAtFreeze);
  EXPECT_EQ(restored.processingTimers(), processingAtFreeze);
}

}  // namespace
}  // namespace eddy::runtime
