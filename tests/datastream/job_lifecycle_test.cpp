// How jobs run and end: backpressure keeps memory bounded behind a slow sink, a failing user
// function fails the job with its message and operator name while the process stays
// healthy, cancellation stops unbounded jobs, and executeAndCollect(limit) ends them.
#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include <atomic>
#include <thread>

#include "datastream/test_sources.h"

namespace eddy {
namespace {

using namespace std::chrono_literals;

TEST(JobLifecycleTest, SlowSinkBackpressuresTheSource) {
  auto emitted = std::make_shared<std::atomic<int64_t>>(0);
  auto consumed = std::make_shared<std::atomic<int64_t>>(0);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  env->fromSource(std::make_shared<testing_sources::CountingSource>(emitted),
                  WatermarkStrategy<int64_t>::noWatermarks(), "counting")
      .map([](int64_t value) { return value * 2; })
      .addSink([consumed](int64_t) {
        ++*consumed;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      })
      .setParallelism(1);
  JobClient client = env->executeAsync("backpressure");
  std::this_thread::sleep_for(500ms);
  int64_t inFlight = emitted->load() - consumed->load();
  client.cancel();
  client.waitForCompletion();
  EXPECT_EQ(client.getJobStatus(), JobStatus::CANCELED);
  EXPECT_GT(consumed->load(), 0);
  // Without backpressure the sources would have produced millions of records by now. With
  // it, what is in flight is bounded by the gate (4 batches per channel) and the pending
  // output batches: a few tens of thousands of records.
  EXPECT_LT(inFlight, 40000) << "emitted " << emitted->load() << ", consumed " << consumed->load();
}

TEST(JobLifecycleTest, ExceptionInMapFailsTheJobWithItsMessage) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  env->fromSequence(1, 100000)
      .map([](int64_t value) -> int64_t {
        if (value == 777) throw std::runtime_error("bad record 777");
        return value;
      })
      .name("Validate")
      .addSink([](int64_t) {});
  try {
    env->execute("failing job");
    FAIL() << "the job should have failed";
  } catch (const JobExecutionException& error) {
    std::string message = error.what();
    EXPECT_NE(message.find("bad record 777"), std::string::npos) << message;
    EXPECT_NE(message.find("operator 'Validate'"), std::string::npos) << message;
    EXPECT_EQ(message.rfind("Job 'failing job' failed: operator 'Validate' (subtask ", 0), 0u)
        << message;
  }
  // The process stays healthy: the same environment runs the next job.
  auto sum = std::make_shared<std::atomic<int64_t>>(0);
  env->fromSequence(1, 1000).addSink([sum](int64_t value) { *sum += value; });
  env->execute("next job");
  EXPECT_EQ(sum->load(), 500500);
}

TEST(JobLifecycleTest, FailureInAnUnboundedJobStopsEveryThread) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(3);
  env->fromSource(std::make_shared<testing_sources::CountingSource>(),
                  WatermarkStrategy<int64_t>::noWatermarks(), "counting")
      .keyBy([](int64_t value) { return value % 10; })
      .reduce([](int64_t a, int64_t b) {
        if (b > 50000) throw std::invalid_argument("reduce gave up");
        return a + b;
      })
      .addSink([](int64_t) {});
  EXPECT_THROW(
      {
        try {
          env->execute("unbounded failing job");
        } catch (const JobExecutionException& error) {
          EXPECT_NE(std::string(error.what()).find("reduce gave up"), std::string::npos);
          EXPECT_NE(std::string(error.what()).find("'Keyed Reduce'"), std::string::npos);
          throw;
        }
      },
      JobExecutionException);
}

TEST(JobLifecycleTest, ExecuteAndCollectWithLimitStopsAnUnboundedJob) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  std::vector<int64_t> first = env->fromSource(std::make_shared<testing_sources::CountingSource>(),
                                               WatermarkStrategy<int64_t>::noWatermarks(),
                                               "counting")
                                   .filter([](int64_t value) { return value % 2 == 0; })
                                   .executeAndCollect(5);
  EXPECT_EQ(first, (std::vector<int64_t>{0, 2, 4, 6, 8}));
}

TEST(JobLifecycleTest, ExecuteClearsTheBuilder) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto count = std::make_shared<std::atomic<int>>(0);
  env->fromElements(1, 2, 3).addSink([count](int) { ++*count; });
  env->execute();
  EXPECT_EQ(count->load(), 3);
  EXPECT_THROW(env->execute(), ValidationException);  // nothing left to run
  EXPECT_EQ(count->load(), 3);
}

TEST(JobLifecycleTest, UnboundedSourceInBatchModeIsRejected) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setRuntimeMode(RuntimeExecutionMode::BATCH);
  env->fromSource(std::make_shared<testing_sources::CountingSource>(),
                  WatermarkStrategy<int64_t>::noWatermarks(), "clicks")
      .print();
  try {
    env->execute();
    FAIL() << "expected a ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_NE(std::string(error.what()).find("Unbounded source: 'Source: clicks'"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace eddy
