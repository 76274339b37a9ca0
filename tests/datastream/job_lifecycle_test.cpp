// How jobs run and end: backpressure keeps memory bounded behind a slow sink, a failing user
// function fails the job with its message and operator name while the process stays
// healthy, cancellation stops unbounded jobs, and executeAndCollect(limit) ends them.
#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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

/// What the operators of the endInput test saw, in order (all run on one task thread each;
/// the mutex orders the two tasks' entries).
struct InputEndLog {
  std::mutex mutex;
  std::vector<std::string> entries;
  std::atomic<bool> rightEnded{false};
  void add(std::string entry) {
    std::lock_guard lock(mutex);
    entries.push_back(std::move(entry));
  }
};

/// Records its batches (per input), endInput calls and finish; forwards the batches.
class RecordingOperator final : public runtime::StreamOperator {
 public:
  RecordingOperator(std::shared_ptr<InputEndLog> log, std::string name)
      : log_(std::move(log)), name_(std::move(name)) {}
  void processBatch(int inputIndex, runtime::BatchPtr batch) override {
    log_->add(name_ + " batch " + std::to_string(inputIndex));
    output().emitBatch(std::move(batch));
  }
  void endInput(int inputIndex) override {
    log_->add(name_ + " end " + std::to_string(inputIndex));
    if (name_ == "join" && inputIndex == 1) log_->rightEnded = true;
  }
  void finish() override { log_->add(name_ + " finish"); }

 private:
  std::shared_ptr<InputEndLog> log_;
  std::string name_;
};

/// Emits 1, then waits (up to 10 s) until the join saw its right input end, then emits 2 and
/// ends: the left input is still running when the right one ends.
class WaitForRightEndSource final : public Source<int64_t> {
 public:
  explicit WaitForRightEndSource(std::shared_ptr<InputEndLog> log) : log_(std::move(log)) {}
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }
  std::unique_ptr<SourceReader<int64_t>> createReader(int, int) const override {
    return std::make_unique<Reader>(log_);
  }

 private:
  class Reader final : public SourceReader<int64_t> {
   public:
    explicit Reader(std::shared_ptr<InputEndLog> log) : log_(std::move(log)) {}
    InputStatus pollNext(ReaderOutput<int64_t>& output) override {
      if (step_ == 0) {
        output.collect(1);
        ++step_;
        deadline_ = std::chrono::steady_clock::now() + 10s;
        return InputStatus::MORE_AVAILABLE;
      }
      if (step_ == 1) {
        if (!log_->rightEnded && std::chrono::steady_clock::now() < deadline_) {
          return InputStatus::NOTHING_AVAILABLE;
        }
        output.collect(2);
        ++step_;
        return InputStatus::MORE_AVAILABLE;
      }
      return InputStatus::END_OF_INPUT;
    }

   private:
    std::shared_ptr<InputEndLog> log_;
    int step_ = 0;
    std::chrono::steady_clock::time_point deadline_;
  };
  std::shared_ptr<InputEndLog> log_;
};

TEST(JobLifecycleTest, ATwoInputOperatorLearnsWhichInputEnded) {
  auto log = std::make_shared<InputEndLog>();
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  DataStream<int64_t> left = env->fromSource(std::make_shared<WaitForRightEndSource>(log),
                                             WatermarkStrategy<int64_t>::noWatermarks(), "left");
  DataStream<int64_t> right = env->fromElements(int64_t{10}, int64_t{20});
  auto factory = [log](std::string name) {
    return std::make_shared<runtime::LambdaOperatorFactory>(
        [log, name] { return std::make_unique<RecordingOperator>(log, name); });
  };
  auto values = std::make_shared<std::atomic<int64_t>>(0);
  left.transformTwoInput<int64_t>("join", right, factory("join"))
      .transform<int64_t>("chained", factory("chained"))
      .addSink([values](int64_t value) { *values += value; });
  env->execute();
  EXPECT_EQ(values->load(), 33);
  std::vector<std::string> entries = log->entries;
  auto position = [&](const std::string& entry) {
    return std::find(entries.begin(), entries.end(), entry) - entries.begin();
  };
  auto last = [&](const std::string& entry) {
    return entries.rend() - std::find(entries.rbegin(), entries.rend(), entry) - 1;
  };
  ASSERT_EQ(std::count(entries.begin(), entries.end(), "join end 0"), 1)
      << ::testing::PrintToString(entries);
  ASSERT_EQ(std::count(entries.begin(), entries.end(), "join end 1"), 1);
  // The right input ended while the left one still ran: its second batch came after.
  EXPECT_LT(position("join end 1"), last("join batch 0")) << ::testing::PrintToString(entries);
  EXPECT_LT(last("join batch 1"), position("join end 1"));
  EXPECT_LT(last("join batch 0"), position("join end 0"));
  EXPECT_LT(position("join end 0"), position("join finish"));
  // The chained operator's input ends when the join has finished.
  EXPECT_LT(position("join finish"), position("chained end 0"));
  EXPECT_LT(position("chained end 0"), position("chained finish"));
  EXPECT_EQ(std::count(entries.begin(), entries.end(), "chained end 0"), 1);
}

}  // namespace
}  // namespace eddy
