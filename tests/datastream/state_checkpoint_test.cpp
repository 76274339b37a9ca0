// Keyed DataStream state and timers in checkpoints, and CheckpointedFunction's operator state:
// an operator subtask is snapshotted as the task does it (snapshotState, then the context's
// stores), and a fresh instance initialized from that snapshot must hold exactly the same
// values and fire exactly the same timers.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "eddy/clock.h"
#include "eddy/datastream/checkpointed_function.h"
#include "eddy/datastream/functions.h"
#include "eddy/detail/datastream/operators.h"
#include "eddy/runtime/operator_snapshot.h"
#include "eddy/runtime/stream_operator.h"

namespace eddy {
namespace {

using runtime::OperatorSnapshot;
using Event = std::pair<std::string, int32_t>;

/// Processing time moved by hand: registered callbacks run once advanceTo reaches them.
class ManualTimers final : public runtime::ProcessingTimeService {
 public:
  explicit ManualTimers(ManualClock& clock) : clock_(clock) {}
  int64_t currentProcessingTime() const override { return clock_.currentTimeMillis(); }
  void registerTimer(int64_t time, std::function<void(int64_t)> callback) override {
    timers_.emplace(time, std::move(callback));
  }
  void advanceTo(int64_t now) {
    clock_.set(now);
    while (!timers_.empty() && timers_.begin()->first <= now) {
      auto timer = timers_.extract(timers_.begin());
      timer.mapped()(timer.key());
    }
  }

 private:
  ManualClock& clock_;
  std::multimap<int64_t, std::function<void(int64_t)>> timers_;
};

/// Collects emitted strings.
class StringsOutput final : public runtime::Output {
 public:
  void emitBatch(runtime::BatchPtr batch) override {
    for (const std::string& record : runtime::typedBatch<std::string>(*batch).records) {
      records.push_back(record);
    }
  }
  void emitWatermark(runtime::Watermark) override {}
  void emitWatermarkStatus(runtime::WatermarkStatus) override {}
  std::vector<std::string> take() { return std::exchange(records, {}); }
  std::vector<std::string> records;
};

/// One operator subtask owning all key groups, initialized from `restored` (null: fresh).
class Subtask {
 public:
  Subtask(std::unique_ptr<runtime::StreamOperator> op, const OperatorSnapshot* restored,
          int64_t now)
      : clock_(now), timers_(clock_), operator_(std::move(op)) {
    context_.operatorName = "stateful";
    context_.keyGroupRange = KeyGroupRange{0, 127};
    context_.maxParallelism = 128;
    context_.output = &output_;
    context_.processingTimeService = &timers_;
    context_.clock = &clock_;
    context_.restoredSnapshot = restored;
    runtime::StateInitializationContext initialization;
    initialization.restored = restored != nullptr;
    initialization.previous = restored != nullptr ? restored : &empty_;
    initialization.operatorContext = &context_;
    operator_->initializeState(initialization);
    operator_->open(context_);
  }
  ~Subtask() { operator_->close(); }

  template <typename T>
  std::vector<std::string> push(std::vector<std::pair<T, int64_t>> records) {
    auto batch = std::make_unique<runtime::TypedBatch<T>>();
    for (auto& [record, timestamp] : records) batch->push(std::move(record), timestamp);
    operator_->processBatch(0, std::move(batch));
    return output_.take();
  }
  std::vector<std::string> watermark(int64_t timestamp) {
    operator_->processWatermark(runtime::Watermark{timestamp});
    return output_.take();
  }
  std::vector<std::string> advanceProcessingTime(int64_t now) {
    timers_.advanceTo(now);
    return output_.take();
  }
  /// What the task puts into a checkpoint for this subtask.
  OperatorSnapshot snapshot(int64_t checkpointId) {
    runtime::StateSnapshotContext context;
    context.checkpointId = checkpointId;
    operator_->snapshotState(context);
    context_.snapshotStateStores(context.snapshot);
    return context.snapshot;
  }

 private:
  ManualClock clock_;
  ManualTimers timers_;
  StringsOutput output_;
  OperatorSnapshot empty_;
  runtime::OperatorContext context_;
  std::unique_ptr<runtime::StreamOperator> operator_;
};

/// Keeps a count (ValueState), the values seen (ListState) and the last value per parity
/// (MapState with a 10 s TTL); each record registers an event-time timer 1 s after it, and the
/// first record of a key a processing-time timer 500 ms later. A timer prints the key's state.
class StatefulFunction final : public KeyedProcessFunction<std::string, Event, std::string> {
 public:
  void open(const OpenContext&) override {
    count_ = getRuntimeContext().getState(ValueStateDescriptor<int32_t>("count"));
    seen_ = getRuntimeContext().getListState(ListStateDescriptor<int32_t>("seen"));
    MapStateDescriptor<int32_t, std::string> last("last");
    last.enableTimeToLive(StateTtlConfig::newBuilder(std::chrono::milliseconds(10000)).build());
    last_ = getRuntimeContext().getMapState(last);
  }
  void processElement(const Event& event, Context& context, Collector<std::string>&) override {
    const int32_t count = count_->value().value_or(0) + 1;
    count_->update(count);
    seen_->add(event.second);
    last_->put(event.second % 2, "v" + std::to_string(event.second));
    context.timerService().registerEventTimeTimer(*context.timestamp() + 1000);
    if (count == 1) {
      context.timerService().registerProcessingTimeTimer(
          context.timerService().currentProcessingTime() + 500);
    }
  }
  void onTimer(int64_t timestamp, OnTimerContext& context, Collector<std::string>& out) override {
    std::string seen;
    for (int32_t value : seen_->get()) seen += (seen.empty() ? "" : ",") + std::to_string(value);
    std::vector<std::pair<int32_t, std::string>> last = last_->entries();
    std::sort(last.begin(), last.end());
    std::string lastText;
    for (const auto& [parity, value] : last) {
      lastText += (lastText.empty() ? "" : ",") + std::to_string(parity) + ":" + value;
    }
    out.collect(context.getCurrentKey() +
                (context.timeDomain() == TimeDomain::EVENT_TIME ? " event@" : " processing@") +
                std::to_string(timestamp) + " count=" + std::to_string(count_->value().value_or(0)) +
                " seen=[" + seen + "] last={" + lastText + "}");
  }

 private:
  ValueState<int32_t>* count_ = nullptr;
  ListState<int32_t>* seen_ = nullptr;
  MapState<int32_t, std::string>* last_ = nullptr;
};

std::unique_ptr<runtime::StreamOperator> statefulOperator() {
  auto keyOf = [](const Event& event) { return event.first; };
  return std::make_unique<operators::KeyedProcessOperator<StatefulFunction, decltype(keyOf)>>(
      StatefulFunction{}, keyOf);
}

std::vector<std::pair<Event, int64_t>> events() {
  return {{{"a", 1}, 100}, {{"b", 3}, 150}, {{"a", 2}, 200}};
}

const std::vector<std::string> kEventTimers{
    "a event@1100 count=2 seen=[1,2] last={0:v2,1:v1}",
    "b event@1150 count=1 seen=[3] last={1:v3}",
    "a event@1200 count=2 seen=[1,2] last={0:v2,1:v1}",
};
const std::vector<std::string> kProcessingTimers{
    "a processing@1500 count=2 seen=[1,2] last={0:v2,1:v1}",
    "b processing@1500 count=1 seen=[3] last={1:v3}",
};

TEST(KeyedStateCheckpointTest, RestoredInstanceHasTheSameStateAndFiresTheSameTimers) {
  OperatorSnapshot snapshot;
  {
    Subtask original(statefulOperator(), nullptr, 1000);
    EXPECT_EQ(original.push(events()), std::vector<std::string>{});
    snapshot = original.snapshot(1);
    // The original goes on as the restored one will.
    EXPECT_EQ(original.watermark(1200), kEventTimers);
    EXPECT_EQ(original.advanceProcessingTime(1500), kProcessingTimers);
  }
  EXPECT_EQ(snapshot.keyedState.size(), 128u);  // a section per key group of the subtask
  Subtask restored(statefulOperator(), &snapshot, 1000);
  EXPECT_EQ(restored.watermark(1099), std::vector<std::string>{});
  EXPECT_EQ(restored.watermark(1200), kEventTimers);
  EXPECT_EQ(restored.advanceProcessingTime(1499), std::vector<std::string>{});
  EXPECT_EQ(restored.advanceProcessingTime(1500), kProcessingTimers);
  // Every timer fired once: nothing is left.
  EXPECT_EQ(restored.watermark(100000), std::vector<std::string>{});
  EXPECT_EQ(restored.advanceProcessingTime(100000), std::vector<std::string>{});
}

TEST(KeyedStateCheckpointTest, DueProcessingTimeTimersFireAfterRestoreAndTtlContinues) {
  OperatorSnapshot snapshot;
  {
    Subtask original(statefulOperator(), nullptr, 1000);
    original.push(events());
    snapshot = original.snapshot(1);
  }
  // Restored 10 s after the map entries were written: their TTL (10 s) has run out, the other
  // states have none; both processing-time timers are overdue and fire at the first check.
  Subtask restored(statefulOperator(), &snapshot, 11000);
  EXPECT_EQ(restored.advanceProcessingTime(11000),
            (std::vector<std::string>{"a processing@1500 count=2 seen=[1,2] last={}",
                                      "b processing@1500 count=1 seen=[3] last={}"}));
}

TEST(KeyedStateCheckpointTest, ASnapshotOfTheRestoredInstanceEqualsTheFirst) {
  // One map entry per key: a MapState's entries are written in no particular order.
  OperatorSnapshot first;
  {
    Subtask original(statefulOperator(), nullptr, 1000);
    original.push<Event>({{{"a", 1}, 100}, {{"b", 3}, 150}, {{"a", 3}, 200}});
    first = original.snapshot(1);
  }
  Subtask restored(statefulOperator(), &first, 1000);
  EXPECT_EQ(restored.snapshot(2), first);
}

/// Buffers its input in a member and keeps the buffer in operator list state across
/// checkpoints; each record prints whether the subtask was restored and the buffer.
class BufferingFunction final : public ProcessFunction<int32_t, std::string>,
                                public CheckpointedFunction {
 public:
  void initializeState(FunctionInitializationContext& context) override {
    restored_ = context.isRestored();
    keyed_ = context.getKeyedStateStore() != nullptr;
    state_ = context.getOperatorStateStore().getListState(ListStateDescriptor<int32_t>("buffer"));
    if (context.isRestored()) buffer_ = state_->get();
  }
  void snapshotState(const FunctionSnapshotContext&) override { state_->update(buffer_); }
  void processElement(const int32_t& value, Context&, Collector<std::string>& out) override {
    buffer_.push_back(value);
    std::string text;
    for (int32_t element : buffer_) text += (text.empty() ? "" : ",") + std::to_string(element);
    out.collect(std::string(restored_ ? "restored" : "fresh") + (keyed_ ? " keyed" : "") + " [" +
                text + "]");
  }

 private:
  ListState<int32_t>* state_ = nullptr;
  std::vector<int32_t> buffer_;
  bool restored_ = false;
  bool keyed_ = false;
};

TEST(CheckpointedFunctionTest, RestoresItsOperatorListState) {
  OperatorSnapshot snapshot;
  {
    Subtask original(std::make_unique<operators::ProcessOperator<BufferingFunction>>(
                         BufferingFunction{}),
                     nullptr, 0);
    EXPECT_EQ(original.push<int32_t>({{1, 0}, {2, 0}}),
              (std::vector<std::string>{"fresh [1]", "fresh [1,2]"}));
    snapshot = original.snapshot(1);
    EXPECT_EQ(original.push<int32_t>({{9, 0}}), std::vector<std::string>{"fresh [1,2,9]"});
  }
  EXPECT_EQ(snapshot.operatorState.size(), 1u);
  EXPECT_EQ(snapshot.keyedState.size(), 0u);
  Subtask restored(std::make_unique<operators::ProcessOperator<BufferingFunction>>(
                       BufferingFunction{}),
                   &snapshot, 0);
  EXPECT_EQ(restored.push<int32_t>({{3, 0}}), std::vector<std::string>{"restored [1,2,3]"});
}

}  // namespace
}  // namespace eddy
