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
