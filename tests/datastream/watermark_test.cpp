// Watermarks across a job: sources generate them per subtask, operators see the minimum of
// their inputs, an idle source subtask (withIdleness) stops holding it back, and a bounded
// source ends with the end-of-time watermark.
#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include "datastream/test_sources.h"

namespace eddy {
namespace {

/// Registers one timer per record at the record's timestamp and reports when it fires.
class TimerProbe : public KeyedProcessFunction<int, int64_t, std::string> {
 public:
  void processElement(const int64_t& value, Context& context, Collector<std::string>&) override {
    context.timerService().registerEventTimeTimer(value);
  }
  void onTimer(int64_t timestamp, OnTimerContext& context, Collector<std::string>& out) override {
    out.collect("timer " + std::to_string(timestamp) + " at watermark " +
                std::to_string(context.timerService().currentWatermark()));
  }
};

TEST(WatermarkTest, IdleSourceSubtaskDoesNotHoldBackTheWatermark) {
  // Subtask 0 of the source emits 0..99 with timestamps; subtask 1 emits nothing, ever. The
  // single downstream subtask takes the minimum of both: without idleness it would stay at
  // MIN forever and no timer would fire.
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto strategy = WatermarkStrategy<int64_t>::forMonotonousTimestamps().withIdleness(
      std::chrono::milliseconds(20));
  auto fired = env->fromSource(std::make_shared<testing_sources::OneBusySubtaskSource>(100),
                               strategy, "one busy subtask")
                   .keyBy([](int64_t) { return 0; })
                   .process(TimerProbe())
                   .setParallelism(1)
                   .executeAndCollect(3);
  ASSERT_EQ(fired.size(), 3u);
  EXPECT_EQ(fired[0].rfind("timer 0 at watermark ", 0), 0u) << fired[0];
  EXPECT_EQ(fired[1].rfind("timer 1 at watermark ", 0), 0u) << fired[1];
  EXPECT_EQ(fired[2].rfind("timer 2 at watermark ", 0), 0u) << fired[2];
}

TEST(WatermarkTest, BoundedSourceEndsWithTheEndOfTime) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  // No watermarks during the job: the timers fire only at the end of input.
  auto fired = env->fromElements(int64_t{5}, int64_t{1})
                   .assignTimestampsAndWatermarks(
                       WatermarkStrategy<int64_t>::noWatermarks().withTimestampAssigner(
                           [](int64_t value, int64_t) { return value; }))
                   .keyBy([](int64_t) { return 0; })
                   .process(TimerProbe())
                   .executeAndCollect(10);
  std::string endOfTime = std::to_string(runtime::Watermark::kMax);
  EXPECT_EQ(fired, (std::vector<std::string>{"timer 1 at watermark " + endOfTime,
                                             "timer 5 at watermark " + endOfTime}));
}

/// One reader reading two splits side by side: per poll one record of split "fast" (times
/// 1000, 1001, ...; released after 5 polls) and one of split "slow" (times 10, 11, ...; 20
/// polls). With `useSplits` they go through split outputs, else through the main output.
class TwoSplitSource final : public Source<int64_t> {
 public:
  explicit TwoSplitSource(bool useSplits) : useSplits_(useSplits) {}
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }
  std::unique_ptr<SourceReader<int64_t>> createReader(int, int) const override {
    return std::make_unique<Reader>(useSplits_);
  }

 private:
  class Reader final : public SourceReader<int64_t> {
   public:
    explicit Reader(bool useSplits) : useSplits_(useSplits) {}
    InputStatus pollNext(ReaderOutput<int64_t>& output) override {
      if (poll_ < 5) emit(output, "fast", 1000 + poll_);
      if (poll_ == 5 && useSplits_) output.releaseOutputForSplit("fast");
      emit(output, "slow", 10 + poll_);
      return ++poll_ < 20 ? InputStatus::MORE_AVAILABLE : InputStatus::END_OF_INPUT;
    }

   private:
    void emit(ReaderOutput<int64_t>& output, const std::string& split, int64_t time) {
      if (useSplits_) {
        output.createOutputForSplit(split).collect(time, time);
      } else {
        output.collect(time, time);
      }
    }
    bool useSplits_;
    int64_t poll_ = 0;
  };
  bool useSplits_;
};

/// Emits "late <t>" for a record whose timestamp is not after the watermark it meets.
class LatenessProbe : public KeyedProcessFunction<int, int64_t, std::string> {
 public:
  void processElement(const int64_t& value, Context& context, Collector<std::string>& out) override {
    if (value <= context.timerService().currentWatermark()) {
      out.collect("late " + std::to_string(value));
    }
  }
};

// Flink's per-split watermarks: a reader that reads splits side by side and emits each
// through its own SourceOutput gets one watermark generator per split, and the source's
// watermark is the lowest of the live splits'; a released split stops holding it back.
TEST(WatermarkTest, SplitOutputsKeepALaggingSplitInTime) {
  for (bool useSplits : {true, false}) {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->setParallelism(1);
    auto late = env->fromSource(std::make_shared<TwoSplitSource>(useSplits),
                                WatermarkStrategy<int64_t>::forMonotonousTimestamps(),
                                "two splits")
                    .keyBy([](int64_t) { return 0; })
                    .process(LatenessProbe())
                    .executeAndCollect(100);
    if (useSplits) {
      EXPECT_EQ(late, std::vector<std::string>{}) << "split outputs";
    } else {
      // One generator for both: the fast split's times make every later slow record late.
      ASSERT_EQ(late.size(), 19u) << "main output";
      EXPECT_EQ(late.front(), "late 11");
    }
  }
}

/// The watermarks an operator emits.
struct WatermarkRecorder final : runtime::Output {
  void emitBatch(runtime::BatchPtr) override {}
  void emitWatermark(runtime::Watermark watermark) override {
    watermarks.push_back(watermark.timestamp);
  }
  void emitWatermarkStatus(runtime::WatermarkStatus) override {}
  std::vector<int64_t> watermarks;
};

TEST(WatermarkTest, ReleasedSplitNoLongerHoldsTheWatermarkBack) {
  auto strategy = WatermarkStrategy<int64_t>::forMonotonousTimestamps();
  operators::WatermarkTracker<int64_t> tracker(strategy, false);
  operators::BatchReaderOutput<int64_t> output;
  output.createOutputForSplit("a").collect(int64_t{100}, 100);
  output.createOutputForSplit("b").collect(int64_t{5}, 5);
  std::vector<int32_t> splits;
  auto batch = output.take(&splits);
  EXPECT_EQ(splits, (std::vector<int32_t>{0, 1}));
  tracker.onBatch(*batch, splits);
  WatermarkRecorder recorder;
  tracker.emitWatermarkIfAdvanced(recorder, &output);
  output.releaseOutputForSplit("b");
  tracker.emitWatermarkIfAdvanced(recorder, &output);
  EXPECT_EQ(recorder.watermarks, (std::vector<int64_t>{4, 99}));
  // Split "b" created again is a new split with a fresh generator: at MIN until it has a
  // record, so the watermark stays; then it follows b's records (never going back).
  output.createOutputForSplit("b").collect(int64_t{150}, 150);
  batch = output.take(&splits);
  EXPECT_EQ(splits, (std::vector<int32_t>{2}));
  tracker.onBatch(*batch, splits);
  tracker.emitWatermarkIfAdvanced(recorder, &output);
  EXPECT_EQ(recorder.watermarks, (std::vector<int64_t>{4, 99}));  // a (99) is the lowest
}

TEST(WatermarkTest, IdleSplitNoLongerHoldsTheWatermarkBack) {
  auto strategy = WatermarkStrategy<int64_t>::forMonotonousTimestamps().withIdleness(
      std::chrono::milliseconds(10));
  operators::WatermarkTracker<int64_t> tracker(strategy, false);
  operators::BatchReaderOutput<int64_t> output;
  WatermarkRecorder recorder;
  std::vector<int32_t> splits;
  output.createOutputForSplit("a").collect(int64_t{100}, 100);
  output.createOutputForSplit("b").collect(int64_t{5}, 5);
  auto batch = output.take(&splits);
  tracker.onBatch(*batch, splits, 1000);
  tracker.emitWatermarkIfAdvanced(recorder, &output, 1000);
  // 8 ms later only "a" has records; at 1012 "b" has had none for 12 ms: idle, left out.
  output.createOutputForSplit("a").collect(int64_t{200}, 200);
  batch = output.take(&splits);
  tracker.onBatch(*batch, splits, 1008);
  tracker.emitWatermarkIfAdvanced(recorder, &output, 1009);
  tracker.emitWatermarkIfAdvanced(recorder, &output, 1012);
  EXPECT_EQ(recorder.watermarks, (std::vector<int64_t>{4, 199}));
}

TEST(WatermarkTest, BoundedOutOfOrdernessTrailsTheLargestTimestamp) {
  auto generator = WatermarkStrategy<int64_t>::forBoundedOutOfOrderness(
                       std::chrono::milliseconds(10))
                       .createWatermarkGenerator();
  EXPECT_EQ(generator->currentWatermark(), runtime::Watermark::kMin);
  generator->onEvent(100);
  EXPECT_EQ(generator->currentWatermark(), 89);
  generator->onEvent(95);  // late, but within the bound: the watermark stays
  EXPECT_EQ(generator->currentWatermark(), 89);
  generator->onEvent(120);
  EXPECT_EQ(generator->currentWatermark(), 109);

  auto monotonous = WatermarkStrategy<int64_t>::forMonotonousTimestamps().createWatermarkGenerator();
  monotonous->onEvent(100);
  EXPECT_EQ(monotonous->currentWatermark(), 99);
  EXPECT_EQ(WatermarkStrategy<int64_t>::noWatermarks().createWatermarkGenerator()->currentWatermark(),
            runtime::Watermark::kMin);
}

}  // namespace
}  // namespace eddy
