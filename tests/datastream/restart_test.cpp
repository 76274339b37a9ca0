// Restarts after a task failure (`restart-strategy.*`), end to end on DataStream jobs: a
// checkpointed job whose map throws once restores its keyed counters from the latest completed
// checkpoint and goes on to exact final counts, reporting one restart; a job that fails more
// often than fixed-delay allows fails with Flink's "Recovery is suppressed by ..." message and
// the root cause; `none` fails at the first failure with the plain message; without
// checkpoints a restart starts from scratch; checkpointing alone restarts (Flink's default,
// exponential-delay); cancel() during a restart's delay ends the job CANCELED at once.
//
// The jobs read a Feed: records the test hands over while the job runs, taken by whichever
// attempt's reader polls (gone once taken, like a queue; nothing here relies on a source
// replaying from a position). Every wait is on a signal the job opens or on the job's status,
// bounded by a deadline far beyond need, so a broken behaviour fails instead of hanging.
#include <gtest/gtest.h>
#include <eddy/eddy.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "datastream/test_sources.h"

namespace eddy {
namespace {

using namespace std::chrono_literals;

/// (key, the number of the key's records counted so far).
using Count = std::pair<int64_t, int64_t>;

constexpr auto kDeadline = 60s;

class Signal {
 public:
  void open() {
    {
      std::lock_guard lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }
  bool wait() {
    std::unique_lock lock(mutex_);
    return opened_.wait_for(lock, kDeadline, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

/// Records handed to a running job; see the file comment. Thread-safe.
class Feed {
 public:
  /// Appends from, from + 1, ..., to - 1.
  void push(int64_t from, int64_t to) {
    std::lock_guard lock(mutex_);
    for (int64_t value = from; value < to; ++value) records_.push_back(value);
  }
  /// No records follow: a reader that took the last one ends its input.
  void end() {
    std::lock_guard lock(mutex_);
    ended_ = true;
  }
  /// Up to `limit` records; `ended` once none is left and end() was called.
  std::vector<int64_t> take(size_t limit, bool& ended) {
    std::lock_guard lock(mutex_);
    std::vector<int64_t> taken;
    while (taken.size() < limit && !records_.empty()) {
      taken.push_back(records_.front());
      records_.pop_front();
    }
    ended = ended_ && records_.empty();
    return taken;
  }

 private:
  std::mutex mutex_;
  std::deque<int64_t> records_;
  bool ended_ = false;
};

/// Reads a Feed (one reader per attempt and subtask, all taking from the same feed).
class FeedSource final : public Source<int64_t> {
 public:
  explicit FeedSource(std::shared_ptr<Feed> feed) : feed_(std::move(feed)) {}
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }
  std::unique_ptr<SourceReader<int64_t>> createReader(int, int) const override {
    return std::make_unique<Reader>(feed_);
  }

 private:
  class Reader final : public SourceReader<int64_t> {
   public:
    explicit Reader(std::shared_ptr<Feed> feed) : feed_(std::move(feed)) {}
    InputStatus pollNext(ReaderOutput<int64_t>& output) override {
      bool ended = false;
      for (int64_t value : feed_->take(256, ended)) output.collect(value);
      if (ended) return InputStatus::END_OF_INPUT;
      return InputStatus::NOTHING_AVAILABLE;  // polled again soon
    }

   private:
    std::shared_ptr<Feed> feed_;
  };
  std::shared_ptr<Feed> feed_;
};

/// 0, 1, ..., count - 1, then the end: from the beginning in every attempt (it keeps no
/// position), as a source that is not replayable does after a restore.
class RangeSource final : public Source<int64_t> {
 public:
  explicit RangeSource(int64_t count) : count_(count) {}
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }
  std::unique_ptr<SourceReader<int64_t>> createReader(int, int) const override {
    return std::make_unique<Reader>(count_);
  }

 private:
  class Reader final : public SourceReader<int64_t> {
   public:
    explicit Reader(int64_t count) : count_(count) {}
    InputStatus pollNext(ReaderOutput<int64_t>& output) override {
      for (int i = 0; i < 16 && next_ < count_; ++i) output.collect(next_++);
      return next_ < count_ ? InputStatus::MORE_AVAILABLE : InputStatus::END_OF_INPUT;
    }

   private:
    int64_t count_;
    int64_t next_ = 0;
  };
  int64_t count_;
};

/// Counts the records of each key in keyed ValueState and emits the new count.
class CountPerKey : public KeyedProcessFunction<int64_t, int64_t, Count> {
 public:
  void open(const OpenContext&) override {
    count_ = getRuntimeContext().getState(ValueStateDescriptor<int64_t>("count"));
  }
  void processElement(const int64_t&, Context& context, Collector<Count>& out) override {
    const int64_t count = count_->value().value_or(0) + 1;
    count_->update(count);
    out.collect(Count{context.getCurrentKey(), count});
  }

 private:
  ValueState<int64_t>* count_ = nullptr;
};

/// What the checkpoint observer saw, shared with the test.
struct ObserverProbe {
  /// Set before the job starts.
  int64_t expected = -1;
  /// Opened once a checkpoint whose snapshot has seen `expected` records completed.
  Signal checkpointedExpected;

  std::mutex mutex;
  std::condition_variable changed;
  /// Per initialization (one per attempt): the restored count of records seen, or "fresh".
  std::vector<std::string> initializations;

  bool waitForInitializations(size_t count) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, kDeadline, [&] { return initializations.size() >= count; });
  }
};

/// Forwards the counts and counts them (operator state "seen"); tells the probe when a
/// checkpoint that has seen the expected number completed. Its snapshot of a checkpoint holds
/// everything upstream processed before that checkpoint's barrier (aligned checkpoints), so
/// such a checkpoint also holds the keyed counters of all those records.
class CheckpointObserver final : public runtime::StreamOperator {
 public:
  explicit CheckpointObserver(std::shared_ptr<ObserverProbe> probe) : probe_(std::move(probe)) {}

  void initializeState(runtime::StateInitializationContext& context) override {
    auto seen = context.previous->operatorState.find("seen");
    std::string shown = "fresh";
    if (context.isRestored() && seen != context.previous->operatorState.end()) {
      seen_ = std::stoll(seen->second);
      shown = seen->second;
    }
    {
      std::lock_guard lock(probe_->mutex);
      probe_->initializations.push_back(shown);
    }
    probe_->changed.notify_all();
  }
  void processBatch(int, runtime::BatchPtr batch) override {
    seen_ += static_cast<int64_t>(batch->size());
    output().emitBatch(std::move(batch));
  }
  void snapshotState(runtime::StateSnapshotContext& context) override {
    context.snapshot.operatorState["seen"] = std::to_string(seen_);
    snapshots_[context.checkpointId] = seen_;
  }
  void notifyCheckpointComplete(int64_t checkpointId) override {
    auto snapshot = snapshots_.find(checkpointId);
    if (snapshot != snapshots_.end() && snapshot->second == probe_->expected) {
      probe_->checkpointedExpected.open();
    }
  }

 private:
  std::shared_ptr<ObserverProbe> probe_;
  int64_t seen_ = 0;
  std::map<int64_t, int64_t> snapshots_;  // task thread only
};

/// The latest count the sink received per key.
struct LatestCounts {
  std::mutex mutex;
  std::map<int64_t, int64_t> counts;

  void record(const Count& count) {
    std::lock_guard lock(mutex);
    counts[count.first] = count.second;
  }
  std::map<int64_t, int64_t> get() {
    std::lock_guard lock(mutex);
    return counts;
  }
};

/// A map that throws for the next `*failuresLeft` records it maps (counted over all attempts),
/// then forwards.
auto failingMap(std::shared_ptr<std::atomic<int>> failuresLeft) {
  return [failuresLeft](int64_t value) -> int64_t {
    if (failuresLeft->fetch_sub(1) > 0) {
      throw std::runtime_error("bad record " + std::to_string(value));
    }
    return value;
  };
}

/// Waits until the job has decided `restarts` restarts (the job's own thread decides them:
/// there is no signal to wait for, so this looks every millisecond until the deadline).
bool waitForRestarts(const JobClient& client, int64_t restarts) {
  const auto deadline = std::chrono::steady_clock::now() + kDeadline;
  while (client.getNumRestarts() < restarts) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

TEST(RestartTest, AFailedJobRestoresItsLatestCheckpointAndGoesOn) {
  auto feed = std::make_shared<Feed>();
  auto probe = std::make_shared<ObserverProbe>();
  probe->expected = 100;
  auto results = std::make_shared<LatestCounts>();
  auto failuresLeft = std::make_shared<std::atomic<int>>(0);

  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  env->configure({{"execution.checkpointing.interval", "20 ms"},
                  {"restart-strategy.type", "fixed-delay"},
                  {"restart-strategy.fixed-delay.attempts", "2"},
                  {"restart-strategy.fixed-delay.delay", "10 ms"}});
  env->fromSource(std::make_shared<FeedSource>(feed), WatermarkStrategy<int64_t>::noWatermarks(),
                  "feed")
      .uid("feed")
      .map(failingMap(failuresLeft))
      .name("Validate")
      .uid("validate")
      .keyBy([](int64_t value) { return value % 4; })
      .process(CountPerKey())
      .setParallelism(2)
      .uid("count")
      .transform<Count>("observer",
                        std::make_shared<runtime::LambdaOperatorFactory>(
                            [probe]() -> std::unique_ptr<runtime::StreamOperator> {
                              return std::make_unique<CheckpointObserver>(probe);
                            }))
      .uid("observer")
      .addSink([results](const Count& count) { results->record(count); })
      .uid("sink");
  JobClient client = env->executeAsync("counting");

  // 100 records, 25 per key, all in a completed checkpoint; then one that fails the map.
  feed->push(0, 100);
  ASSERT_TRUE(probe->checkpointedExpected.wait());
  EXPECT_EQ(client.getNumRestarts(), 0);
  // The coordinator counts a checkpoint right after it told the operators (Flink's statistics
  // also arrive after the notification): the count may trail the signal by a moment.
  runtime::CheckpointStatistics beforeFailure = client.getCheckpointStatistics();
  for (int wait = 0; beforeFailure.numCompleted < 1 && wait < 500; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    beforeFailure = client.getCheckpointStatistics();
  }
  failuresLeft->store(1);
  feed->push(-1, 0);
  // The second attempt restores the counters of the 100 records (what the failed attempt took
  // after them, the failing record, is gone); 40 more, 10 per key, and the end.
  ASSERT_TRUE(probe->waitForInitializations(2));
  feed->push(100, 140);
  feed->end();
  JobExecutionResult result = client.waitForCompletion();

  EXPECT_EQ(result.getNumRestarts(), 1);
  EXPECT_EQ(client.getNumRestarts(), 1);
  EXPECT_EQ(client.getJobStatus(), JobStatus::FINISHED);
  {
    std::lock_guard lock(probe->mutex);
    EXPECT_EQ(probe->initializations, (std::vector<std::string>{"fresh", "100"}));
  }
  // 25 restored + 10: the counters went on from the checkpoint (a fresh start would say 10).
  EXPECT_EQ(results->get(), (std::map<int64_t, int64_t>{{0, 35}, {1, 35}, {2, 35}, {3, 35}}));

  // The checkpoint statistics cover both attempts: the restart did not reset them.
  ASSERT_GE(beforeFailure.numCompleted, 1);
  const runtime::CheckpointStatistics statistics = client.getCheckpointStatistics();
  EXPECT_GE(statistics.numCompleted, beforeFailure.numCompleted);
  EXPECT_EQ(statistics.numInProgress, 0);
  ASSERT_TRUE(statistics.latestCompleted.has_value());
  // The counters of four keys and the observer's "seen" count.
  EXPECT_GT(statistics.latestCompleted->stateSizeBytes, 0);
  EXPECT_GT(statistics.latestCompleted->numSnapshottingSubtasks, 0);
  EXPECT_FALSE(statistics.latestCompleted->maxSyncSubtask.empty());
  EXPECT_EQ(statistics.endToEndDurationMillis.count, statistics.numCompleted);
  EXPECT_GE(statistics.longestSyncDurationMicros, statistics.latestCompleted->maxSyncDurationMicros);
}

/// source (a record 0 in every attempt, then nothing) → a map that always throws.
void buildAlwaysFailingJob(StreamExecutionEnvironment& env,
                           std::shared_ptr<std::atomic<int>> calls) {
  env.setParallelism(1);
  env.fromSource(std::make_shared<testing_sources::OneBusySubtaskSource>(1),
                 WatermarkStrategy<int64_t>::noWatermarks(), "numbers")
      .map([calls](int64_t value) -> int64_t {
        ++*calls;
        if (value >= 0) throw std::runtime_error("bad record " + std::to_string(value));
        return value;
      })
      .name("Validate")
      .addSink([](int64_t) {});
}

TEST(RestartTest, AJobFailingMoreOftenThanFixedDelayAllowsFailsWithFlinksMessage) {
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->configure({{"execution.checkpointing.interval", "20 ms"},
                  {"restart-strategy.type", "fixed-delay"},
                  {"restart-strategy.fixed-delay.attempts", "2"},
                  {"restart-strategy.fixed-delay.delay", "10 ms"}});
  buildAlwaysFailingJob(*env, calls);
  try {
    env->execute("always failing");
    ADD_FAILURE() << "the job did not fail";
  } catch (const JobExecutionException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Job 'always failing' failed: Recovery is suppressed by "
              "FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2, backoffTimeMS=10)\n"
              "Caused by: operator 'Validate' (subtask 1/1) threw: bad record 0");
  }
  EXPECT_EQ(calls->load(), 3);  // the first attempt and two restarts
}

TEST(RestartTest, NoneFailsTheJobAtTheFirstFailure) {
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->configure({{"execution.checkpointing.interval", "20 ms"},
                  {"restart-strategy.type", "none"}});
  buildAlwaysFailingJob(*env, calls);
  JobClient client = env->executeAsync("no restarts");
  try {
    client.waitForCompletion();
    ADD_FAILURE() << "the job did not fail";
  } catch (const JobExecutionException& error) {
    // The message of a job that could never restart stays the failure's own.
    EXPECT_EQ(std::string(error.what()),
              "Job 'no restarts' failed: operator 'Validate' (subtask 1/1) threw: bad record 0");
  }
  EXPECT_EQ(calls->load(), 1);
  EXPECT_EQ(client.getNumRestarts(), 0);
  EXPECT_EQ(client.getJobStatus(), JobStatus::FAILED);
}

TEST(RestartTest, WithoutCheckpointsARestartStartsFromScratch) {
  auto results = std::make_shared<LatestCounts>();
  auto failuresLeft = std::make_shared<std::atomic<int>>(1);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  env->configure({{"restart-strategy.type", "fixed-delay"},
                  {"restart-strategy.fixed-delay.attempts", "1"},
                  {"restart-strategy.fixed-delay.delay", "0 ms"}});
  env->fromSource(std::make_shared<RangeSource>(100), WatermarkStrategy<int64_t>::noWatermarks(),
                  "range")
      .map(failingMap(failuresLeft))
      .keyBy([](int64_t value) { return value % 4; })
      .process(CountPerKey())
      .addSink([results](const Count& count) { results->record(count); });
  JobExecutionResult result = env->execute("from scratch");
  EXPECT_EQ(result.getNumRestarts(), 1);
  // The second attempt counted all 100 records anew: nothing of the first attempt's state.
  EXPECT_EQ(results->get(), (std::map<int64_t, int64_t>{{0, 25}, {1, 25}, {2, 25}, {3, 25}}));
}

TEST(RestartTest, CheckpointingAloneRestartsWithExponentialDelay) {
  // Flink's default with checkpointing and no strategy: exponential-delay, 1 s at first.
  auto feed = std::make_shared<Feed>();
  feed->push(0, 10);
  feed->end();
  auto failuresLeft = std::make_shared<std::atomic<int>>(1);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  env->enableCheckpointing(20);
  env->fromSource(std::make_shared<FeedSource>(feed), WatermarkStrategy<int64_t>::noWatermarks(),
                  "feed")
      .map(failingMap(failuresLeft))
      .addSink([](int64_t) {});
  JobClient client = env->executeAsync("default strategy");
  JobExecutionResult result = client.waitForCompletion();
  EXPECT_EQ(result.getNumRestarts(), 1);
  EXPECT_EQ(client.getJobStatus(), JobStatus::FINISHED);
}

TEST(RestartTest, CancelDuringTheRestartDelayEndsTheJobAtOnce) {
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->configure({{"execution.checkpointing.interval", "20 ms"},
                  {"restart-strategy.type", "fixed-delay"},
                  {"restart-strategy.fixed-delay.attempts", "5"},
                  {"restart-strategy.fixed-delay.delay", "1 h"}});
  buildAlwaysFailingJob(*env, calls);
  JobClient client = env->executeAsync("waiting to restart");
  const std::string jobId = client.getJobID();
  // The restart is decided (and counted, as Flink counts it) before its delay of an hour.
  ASSERT_TRUE(waitForRestarts(client, 1));
  EXPECT_EQ(client.getJobStatus(), JobStatus::RESTARTING);
  const auto cancelled = std::chrono::steady_clock::now();
  client.cancel();
  client.waitForCompletion();  // no exception: cancelled
  EXPECT_LT(std::chrono::steady_clock::now() - cancelled, 10s);
  EXPECT_EQ(client.getJobStatus(), JobStatus::CANCELED);
  EXPECT_EQ(client.getJobID(), jobId);
  EXPECT_EQ(calls->load(), 1);  // no second attempt ran
}

}  // namespace
}  // namespace eddy
