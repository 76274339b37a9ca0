// KeyedProcessFunction with keyed state and timers, ProcessFunction, reduce and field
// aggregations, in both runtime modes.
#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include <map>
#include <set>

#include "datastream/test_sources.h"

namespace eddy {
namespace {

using Event = std::pair<std::string, int64_t>;  // (user, timestamp)

/// Emits a user the first time it is seen (the seed's deduplication example).
class Dedup : public KeyedProcessFunction<std::string, Event, std::string> {
 public:
  void open(const OpenContext&) override {
    seen_ = getRuntimeContext().getState(ValueStateDescriptor<std::string>("seen"));
  }
  void processElement(const Event& event, Context&, Collector<std::string>& out) override {
    if (!seen_->value()) {
      seen_->update(event.first);
      out.collect(event.first);
    }
  }

 private:
  ValueState<std::string>* seen_ = nullptr;
};

class KeyedProcessTest : public ::testing::TestWithParam<RuntimeExecutionMode> {};

TEST_P(KeyedProcessTest, ValueStateDeduplicates) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  env->setRuntimeMode(GetParam());
  auto users = env->fromElements(Event{"Bob", 1}, Event{"Alice", 2}, Event{"Bob", 3},
                                 Event{"Bob", 4}, Event{"Alice", 5})
                   .keyBy([](const Event& event) { return event.first; })
                   .process(Dedup())
                   .executeAndCollect(100);
  std::multiset<std::string> result(users.begin(), users.end());
  EXPECT_EQ(result, (std::multiset<std::string>{"Alice", "Bob"}));
}

/// Counts events per user and reports the count 10 ms (event time) after the first event.
class CountWithTimeout : public KeyedProcessFunction<std::string, Event, std::string> {
 public:
  void open(const OpenContext&) override {
    count_ = getRuntimeContext().getState(ValueStateDescriptor<int64_t>("count"));
  }
  void processElement(const Event&, Context& context, Collector<std::string>&) override {
    std::optional<int64_t> count = count_->value();
    if (!count) context.timerService().registerEventTimeTimer(*context.timestamp() + 10);
    count_->update(count.value_or(0) + 1);
  }
  void onTimer(int64_t timestamp, OnTimerContext& context, Collector<std::string>& out) override {
    out.collect(context.getCurrentKey() + "@" + std::to_string(timestamp) + "=" +
                std::to_string(*count_->value()) +
                (context.timeDomain() == TimeDomain::EVENT_TIME ? " (event time)" : ""));
    count_->clear();
  }

 private:
  ValueState<int64_t>* count_ = nullptr;
};

TEST_P(KeyedProcessTest, EventTimeTimersFireWithTheWatermark) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  env->setRuntimeMode(GetParam());
  auto strategy = WatermarkStrategy<Event>::forMonotonousTimestamps().withTimestampAssigner(
      [](const Event& event, int64_t) { return event.second; });
  auto reports = env->fromElements(Event{"Bob", 100}, Event{"Alice", 101}, Event{"Bob", 105},
                                   Event{"Bob", 130}, Event{"Alice", 140})
                     .assignTimestampsAndWatermarks(strategy)
                     .setParallelism(1)  // one in-order stream, so per-key order is fixed
                     .keyBy([](const Event& event) { return event.first; })
                     .process(CountWithTimeout())
                     .executeAndCollect(100);
  // The watermark follows the batch of five records, so every record is counted before the
  // first timer fires — in STREAMING as in BATCH (where a key's timers fire at its end).
  std::multiset<std::string> result(reports.begin(), reports.end());
  EXPECT_EQ(result, (std::multiset<std::string>{"Bob@110=3 (event time)",
                                                "Alice@111=2 (event time)"}));
}

TEST_P(KeyedProcessTest, ReduceEmitsRollingValuesInStreamingAndFinalValuesInBatch) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(3);
  env->setRuntimeMode(GetParam());
  auto sums = env->fromSequence(1, 10)
                  .keyBy([](int64_t value) { return value % 2; })
                  .reduce([](int64_t a, int64_t b) { return a + b; })
                  .executeAndCollect(100);
  std::multiset<int64_t> result(sums.begin(), sums.end());
  if (GetParam() == RuntimeExecutionMode::BATCH) {
    EXPECT_EQ(result, (std::multiset<int64_t>{25, 30}));
  } else {
    // fromSequence splits 1..10 over 3 subtasks, so the order of a key's records across
    // subtasks is not fixed; the final values and the number of updates are.
    EXPECT_EQ(result.size(), 10u);
    EXPECT_EQ(*result.rbegin(), 30);
    EXPECT_EQ(result.count(25), 1u);
  }
}

TEST_P(KeyedProcessTest, SumMinMaxOnTupleFieldsKeepTheFirstRecordsOtherFields) {
  using Reading = std::tuple<std::string, int, double>;
  auto run = [&](auto aggregate) {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->setParallelism(1);
    env->setRuntimeMode(GetParam());
    auto keyed = env->fromElements(Reading{"a", 1, 2.5}, Reading{"a", 2, 1.5},
                                   Reading{"b", 7, 9.0}, Reading{"a", 3, 4.0})
                     .keyBy([](const Reading& reading) { return std::get<0>(reading); });
    return aggregate(keyed).executeAndCollect(100);
  };
  auto sums = run([](auto keyed) { return keyed.sum(2); });
  auto mins = run([](auto keyed) { return keyed.min(2); });
  auto maxs = run([](auto keyed) { return keyed.max(1); });
  if (GetParam() == RuntimeExecutionMode::BATCH) {
    EXPECT_EQ(sums, (std::vector<Reading>{{"a", 1, 8.0}, {"b", 7, 9.0}}));
    EXPECT_EQ(mins, (std::vector<Reading>{{"a", 1, 1.5}, {"b", 7, 9.0}}));
    EXPECT_EQ(maxs, (std::vector<Reading>{{"a", 3, 2.5}, {"b", 7, 9.0}}));
  } else {
    EXPECT_EQ(sums, (std::vector<Reading>{{"a", 1, 2.5}, {"a", 1, 4.0}, {"b", 7, 9.0},
                                          {"a", 1, 8.0}}));
    EXPECT_EQ(maxs, (std::vector<Reading>{{"a", 1, 2.5}, {"a", 2, 2.5}, {"b", 7, 9.0},
                                          {"a", 3, 2.5}}));
  }
}

INSTANTIATE_TEST_SUITE_P(BothModes, KeyedProcessTest,
                         ::testing::Values(RuntimeExecutionMode::STREAMING,
                                           RuntimeExecutionMode::BATCH),
                         [](const auto& info) { return std::string(toString(info.param)); });

TEST(KeyedStreamTest, FieldAggregationOnANonNumericFieldIsAnError) {
  using Pair = std::pair<std::string, int>;
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto keyed = env->fromElements(Pair{"a", 1}).keyBy([](const Pair& p) { return p.first; });
  try {
    keyed.sum(0);
    FAIL() << "expected a ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()), "Aggregation field position 0 is not a number");
  }
  EXPECT_THROW(keyed.sum(2), ValidationException);
}

TEST(KeyedStreamTest, ProcessingTimeTimersFire) {
  class Delayed : public KeyedProcessFunction<int64_t, int64_t, std::string> {
   public:
    void processElement(const int64_t& value, Context& context,
                        Collector<std::string>&) override {
      context.timerService().registerProcessingTimeTimer(
          context.timerService().currentProcessingTime() + 20 + value);
    }
    void onTimer(int64_t, OnTimerContext& context, Collector<std::string>& out) override {
      out.collect("fired " + std::to_string(context.getCurrentKey()) +
                  (context.timeDomain() == TimeDomain::PROCESSING_TIME ? " on processing time"
                                                                       : ""));
    }
  };
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  // An unbounded source keeps the job running until the timers have fired.
  auto fired = env->fromSource(std::make_shared<testing_sources::OneBusySubtaskSource>(3),
                               WatermarkStrategy<int64_t>::noWatermarks(), "three")
                   .keyBy([](int64_t value) { return value; })
                   .process(Delayed())
                   .executeAndCollect(3);
  std::multiset<std::string> result(fired.begin(), fired.end());
  EXPECT_EQ(result, (std::multiset<std::string>{"fired 0 on processing time",
                                                "fired 1 on processing time",
                                                "fired 2 on processing time"}));
}

TEST(KeyedStreamTest, KeyedStateOutsideAKeyedStreamIsAnError) {
  class NotKeyed : public ProcessFunction<int, int> {
   public:
    void open(const OpenContext&) override {
      getRuntimeContext().getState(ValueStateDescriptor<int>("x"));
    }
    void processElement(const int&, Context&, Collector<int>&) override {}
  };
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->fromElements(1).process(NotKeyed()).addSink([](int) {});
  try {
    env->execute();
    FAIL() << "expected the job to fail";
  } catch (const JobExecutionException& error) {
    EXPECT_NE(std::string(error.what())
                  .find("Keyed state can only be used on a 'keyed stream', i.e., after a "
                        "'keyBy()' operation."),
              std::string::npos)
        << error.what();
  }
}

TEST(KeyedStreamTest, ProcessFunctionSeesTimestampsAndCannotSetTimers) {
  class Stamp : public ProcessFunction<int64_t, std::string> {
   public:
    void processElement(const int64_t& value, Context& context,
                        Collector<std::string>& out) override {
      out.collect(std::to_string(value) + "@" + std::to_string(context.timestamp().value_or(-1)));
      if (value == 3) context.timerService().registerEventTimeTimer(10);
    }
  };
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto stamped = env->fromElements(int64_t{1}, int64_t{2})
                     .assignTimestampsAndWatermarks(
                         WatermarkStrategy<int64_t>::forMonotonousTimestamps()
                             .withTimestampAssigner([](int64_t v, int64_t) { return v * 100; }))
                     .process(Stamp())
                     .executeAndCollect(10);
  EXPECT_EQ(stamped, (std::vector<std::string>{"1@100", "2@200"}));

  env->fromElements(int64_t{3}).process(Stamp()).addSink([](const std::string&) {});
  try {
    env->execute();
    FAIL() << "expected the job to fail";
  } catch (const JobExecutionException& error) {
    EXPECT_NE(std::string(error.what()).find("Setting timers is only supported on a keyed streams."),
              std::string::npos);
  }
}

}  // namespace
}  // namespace eddy
