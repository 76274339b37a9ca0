// Savepoints of DataStream jobs end to end (JobClient::triggerSavepoint and stopWithSavepoint,
// runtime/savepoint.h):
//  - a job with keyed state takes a savepoint mid-stream into the configured directory
//    (`<dir>/savepoint-<6 hex of the job id>-<12 hex>/_metadata`), checkpoints every 20 ms with
//    num-retained 1 go on and delete their older checkpoints, the job is cancelled: the savepoint
//    is still there, and a new job restored from it ends with exactly the sums of the whole
//    input (neither the state nor the source's position lost or counted twice);
//  - stop-with-savepoint without drain ends a job (FINISHED) with an event-time "window"
//    pending: it does not fire; a job restored from that savepoint fires it with all its
//    records; stopping that job with drain fires its own pending window before it ends;
//  - Flink's errors: no savepoint directory, a BATCH job.
// The source is gated: it emits only the numbers below a limit the test sets, so a savepoint
// cuts the stream at a known record and the windows that fire are known. Every wait has a
// deadline far beyond need, so a broken behaviour fails instead of hanging.
#include <gtest/gtest.h>
#include <eddy/eddy.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <regex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "runtime/checkpoint_storage.h"

namespace eddy {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// Whether `condition` holds within 60 s (polled).
bool eventually(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

/// A replayable, unbounded source of the numbers from..to, each with itself as its event
/// timestamp, that emits only the numbers below `*emitBelow` (the gate the test holds) and,
/// once it read them all, stays open — unless `endWhenRead`, then its input ends. Its splits
/// and its enumerator are those of NumberSequenceSource (fromSequence), so a restored reader
/// goes on from where the snapshot left it.
class GatedSequenceSource final
    : public connector::Source<int64_t, NumberSequenceSplit, std::vector<NumberSequenceSplit>> {
 public:
  using Enumerator = connector::StaticSplitEnumerator<NumberSequenceSplit>;

  GatedSequenceSource(int64_t from, int64_t to, std::shared_ptr<std::atomic<int64_t>> emitBelow,
                      bool endWhenRead)
      : sequence_(from, to), emitBelow_(std::move(emitBelow)), endWhenRead_(endWhenRead) {}

  Boundedness getBoundedness() const override { return Boundedness::CONTINUOUS_UNBOUNDED; }
  std::unique_ptr<connector::SourceReader<int64_t, NumberSequenceSplit>> createReader(
      connector::SourceReaderContext& /*context*/) const override {
    return std::make_unique<Reader>(emitBelow_, endWhenRead_);
  }
  std::unique_ptr<connector::SplitEnumerator<NumberSequenceSplit, std::vector<NumberSequenceSplit>>>
  createEnumerator(connector::SplitEnumeratorContext<NumberSequenceSplit>& context) const override {
    return std::make_unique<Enumerator>(context,
                                        sequence_.planSplits(context.currentParallelism()));
  }
  std::unique_ptr<connector::SplitEnumerator<NumberSequenceSplit, std::vector<NumberSequenceSplit>>>
  restoreEnumerator(connector::SplitEnumeratorContext<NumberSequenceSplit>& context,
                    std::vector<NumberSequenceSplit> checkpoint) const override {
    return Enumerator::restore(context, std::move(checkpoint));
  }
  const connector::SimpleVersionedSerializer<NumberSequenceSplit>& getSplitSerializer()
      const override {
    return *splitSerializer_;
  }
  const connector::SimpleVersionedSerializer<std::vector<NumberSequenceSplit>>&
  getEnumeratorCheckpointSerializer() const override {
    return stateSerializer_;
  }

 private:
  class Reader final : public connector::SourceReader<int64_t, NumberSequenceSplit> {
   public:
    Reader(std::shared_ptr<std::atomic<int64_t>> emitBelow, bool endWhenRead)
        : emitBelow_(std::move(emitBelow)), endWhenRead_(endWhenRead) {}
    InputStatus pollNext(ReaderOutput<int64_t>& output) override {
      const int64_t below = emitBelow_->load();
      int emitted = 0;
      while (!splits_.empty() && emitted < 256) {
        NumberSequenceSplit& split = splits_.front();
        if (split.next >= below) break;
        output.collect(split.next, split.next);
        ++emitted;
        if (split.next == split.last) {
          splits_.pop_front();
        } else {
          ++split.next;
        }
      }
      if (emitted > 0) return InputStatus::MORE_AVAILABLE;
      if (splits_.empty() && noMoreSplits_ && endWhenRead_) return InputStatus::END_OF_INPUT;
      return InputStatus::NOTHING_AVAILABLE;
    }
    void addSplits(std::vector<NumberSequenceSplit> splits) override {
      for (NumberSequenceSplit& split : splits) splits_.push_back(std::move(split));
    }
    void notifyNoMoreSplits() override { noMoreSplits_ = true; }
    std::vector<NumberSequenceSplit> snapshotState(int64_t /*checkpointId*/) override {
      return std::vector<NumberSequenceSplit>(splits_.begin(), splits_.end());
    }

   private:
    std::shared_ptr<std::atomic<int64_t>> emitBelow_;
    const bool endWhenRead_;
    std::deque<NumberSequenceSplit> splits_;  // each with next <= last
    bool noMoreSplits_ = false;
  };

  NumberSequenceSource sequence_;  // plans the splits
  std::shared_ptr<std::atomic<int64_t>> emitBelow_;
  const bool endWhenRead_;
  std::shared_ptr<const NumberSequenceSplitSerializer> splitSerializer_ =
      std::make_shared<NumberSequenceSplitSerializer>();
  connector::StaticSplitEnumeratorStateSerializer<NumberSequenceSplit> stateSerializer_{
      splitSerializer_, "GatedSequenceSource"};
};

/// What reached the sink, shared with the test.
class Collected {
 public:
  void add(const std::string& item) {
    std::lock_guard lock(mutex_);
    items_.push_back(item);
  }
  size_t size() {
    std::lock_guard lock(mutex_);
    return items_.size();
  }
  std::vector<std::string> sorted() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> items = items_;
    std::sort(items.begin(), items.end());
    return items;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> items_;
};

/// An event-time tumbling window of 100 ms per key (the key is the window's index): counts
/// its records (ValueState) and reports "<start>:<count>" when the watermark passes its end
/// (an event-time timer at start + 99).
class WindowCount final : public KeyedProcessFunction<int64_t, int64_t, std::string> {
 public:
  void open(const OpenContext&) override {
    count_ = getRuntimeContext().getState(ValueStateDescriptor<int64_t>("count"));
  }
  void processElement(const int64_t&, Context& context, Collector<std::string>&) override {
    std::optional<int64_t> count = count_->value();
    if (!count) context.timerService().registerEventTimeTimer(context.getCurrentKey() * 100 + 99);
    count_->update(count.value_or(0) + 1);
  }
  void onTimer(int64_t, OnTimerContext& context, Collector<std::string>& out) override {
    out.collect(std::to_string(context.getCurrentKey() * 100) + ":" +
                std::to_string(count_->value().value_or(0)));
    count_->clear();
  }

 private:
  ValueState<int64_t>* count_ = nullptr;
};

/// Sums the values per key (ValueState count and sum) and reports "<key>: count=<n> sum=<s>"
/// at event time 10^12, which only the end-of-time watermark reaches.
class KeyedSum final : public KeyedProcessFunction<int64_t, int64_t, std::string> {
 public:
  explicit KeyedSum(std::shared_ptr<std::atomic<int64_t>> processed)
      : processed_(std::move(processed)) {}
  void open(const OpenContext&) override {
    count_ = getRuntimeContext().getState(ValueStateDescriptor<int64_t>("count"));
    sum_ = getRuntimeContext().getState(ValueStateDescriptor<int64_t>("sum"));
  }
  void processElement(const int64_t& value, Context& context, Collector<std::string>&) override {
    std::optional<int64_t> count = count_->value();
    if (!count) context.timerService().registerEventTimeTimer(1'000'000'000'000);
    count_->update(count.value_or(0) + 1);
    sum_->update(sum_->value().value_or(0) + value);
    ++*processed_;
  }
  void onTimer(int64_t, OnTimerContext& context, Collector<std::string>& out) override {
    out.collect(std::to_string(context.getCurrentKey()) +
                ": count=" + std::to_string(count_->value().value_or(0)) +
                " sum=" + std::to_string(sum_->value().value_or(0)));
  }

 private:
  std::shared_ptr<std::atomic<int64_t>> processed_;
  ValueState<int64_t>* count_ = nullptr;
  ValueState<int64_t>* sum_ = nullptr;
};

class SavepointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("eddy-savepoint-test-" + std::to_string(device()));
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  /// numbers (the gated source, parallelism 1) → keyBy → `function` (parallelism 2) → sink.
  template <typename Function>
  static void buildJob(StreamExecutionEnvironment& env,
                       std::shared_ptr<std::atomic<int64_t>> emitBelow, bool endWhenRead,
                       const std::function<int64_t(int64_t)>& key, const Function& function,
                       std::shared_ptr<Collected> collected) {
    env.setParallelism(2);
    env.fromSource(std::make_shared<GatedSequenceSource>(0, 999, std::move(emitBelow), endWhenRead),
                   WatermarkStrategy<int64_t>::forMonotonousTimestamps(), "numbers")
        .setParallelism(1)
        .uid("numbers")
        .keyBy([key](int64_t value) { return key(value); })
        .process(function)
        .uid("state")
        .addSink([collected](const std::string& item) { collected->add(item); })
        .uid("sink");
  }

  /// The highest n of the complete `chk-<n>` directories in `directory`; -1: none.
  static int64_t latestCheckpointId(const fs::path& directory) {
    int64_t latest = -1;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(directory, error)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("chk-", 0) != 0 || !fs::exists(entry.path() / "_metadata", error)) continue;
      latest = std::max<int64_t>(latest, std::stoll(name.substr(4)));
    }
    return latest;
  }

  static bool isSavepointOf(const fs::path& path, const std::string& jobId,
                            const fs::path& directory) {
    return path.parent_path() == directory &&
           std::regex_match(path.filename().string(),
                            std::regex("savepoint-" + jobId.substr(0, 6) + "-[0-9a-f]{12}")) &&
           fs::exists(path / "_metadata");
  }

  fs::path root_;
};

TEST_F(SavepointTest, ASavepointMidStreamRestoresIntoANewJobWithExactFinalValues) {
  const fs::path savepoints = root_ / "savepoints";
  const fs::path checkpoints = root_ / "checkpoints";
  auto processed = std::make_shared<std::atomic<int64_t>>(0);
  std::string path;
  std::string jobId;
  {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->configure({{"execution.checkpointing.interval", "20 ms"},
                    {"state.checkpoints.dir", checkpoints.string()},
                    {"execution.checkpointing.num-retained", "1"},
                    {"execution.checkpointing.savepoint-dir", savepoints.string()}});
    auto first = std::make_shared<Collected>();
    buildJob(*env, std::make_shared<std::atomic<int64_t>>(500), false,
             [](int64_t value) { return value % 4; }, KeyedSum(processed), first);
    JobClient client = env->executeAsync("sums");
    jobId = client.getJobID();
    // The source stops at 500: the savepoint holds the state of exactly 0..499.
    ASSERT_TRUE(eventually([&] { return processed->load() == 500; }));
    std::future<std::string> savepoint = client.triggerSavepoint();  // the configured directory
    ASSERT_EQ(savepoint.wait_for(60s), std::future_status::ready);
    path = savepoint.get();
    EXPECT_TRUE(isSavepointOf(path, jobId, savepoints)) << path;
    const int64_t savepointId = runtime::readCheckpoint(path)->id;
    EXPECT_TRUE(runtime::readCheckpoint(path)->options.isSavepoint());
    // Checkpoints go on after it; num-retained 1 deletes each older one, never the savepoint.
    ASSERT_TRUE(
        eventually([&] { return latestCheckpointId(checkpoints / jobId) >= savepointId + 2; }));
    EXPECT_EQ(client.getJobStatus(), JobStatus::RUNNING);
    client.cancel();
    client.waitForCompletion();
    EXPECT_TRUE(first->sorted().empty());  // no report: the end of time never came
  }
  // The job's end deleted its checkpoints (NO_EXTERNALIZED_CHECKPOINTS); the savepoint stays.
  EXPECT_EQ(latestCheckpointId(checkpoints / jobId), -1);
  ASSERT_TRUE(fs::exists(fs::path(path) / "_metadata"));

  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->configure({{"execution.state-recovery.path", path}});
  auto second = std::make_shared<Collected>();
  auto restoredProcessed = std::make_shared<std::atomic<int64_t>>(0);
  buildJob(*env, std::make_shared<std::atomic<int64_t>>(1000), true,
           [](int64_t value) { return value % 4; }, KeyedSum(restoredProcessed), second);
  env->execute("sums restored");
  // 500..999 read once more, on top of the restored sums of 0..499.
  EXPECT_EQ(restoredProcessed->load(), 500);
  EXPECT_EQ(second->sorted(), (std::vector<std::string>{"0: count=250 sum=124500",
                                                        "1: count=250 sum=124750",
                                                        "2: count=250 sum=125000",
                                                        "3: count=250 sum=125250"}));
}

TEST_F(SavepointTest, StopWithoutDrainLeavesAPendingWindowForTheRestoredJobWhichDrainFires) {
  const fs::path savepoints = root_ / "savepoints";
  std::string path;
  {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();  // no checkpointing
    auto first = std::make_shared<Collected>();
    buildJob(*env, std::make_shared<std::atomic<int64_t>>(350), false,
             [](int64_t value) { return value / 100; }, WindowCount(), first);
    JobClient client = env->executeAsync("windows");
    // 0..349 read: the watermark (349 - 1) fired [0, 300); [300, 400) holds 50 records.
    ASSERT_TRUE(eventually([&] { return first->size() == 3; }));
    std::future<std::string> stopped = client.stopWithSavepoint(false, savepoints.string());
    path = stopped.get();  // once the job has ended
    EXPECT_TRUE(isSavepointOf(path, client.getJobID(), savepoints)) << path;
    EXPECT_EQ(client.getJobStatus(), JobStatus::FINISHED);
    // No end-of-input watermark: the pending window did not fire.
    EXPECT_EQ(first->sorted(), (std::vector<std::string>{"0:100", "100:100", "200:100"}));
  }
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->configure({{"execution.state-recovery.path", path}});
  auto second = std::make_shared<Collected>();
  buildJob(*env, std::make_shared<std::atomic<int64_t>>(1000), false,
           [](int64_t value) { return value / 100; }, WindowCount(), second);
  JobClient client = env->executeAsync("windows restored");
  // 350..999 read: [300, 400) fires with its 50 restored records and 50 new ones, up to
  // [800, 900); [900, 1000) waits for a watermark past 999 that the open source never sends.
  ASSERT_TRUE(eventually([&] { return second->size() == 6; }));
  std::string drained = client.stopWithSavepoint(true, "file://" + savepoints.string()).get();
  EXPECT_TRUE(isSavepointOf(drained, client.getJobID(), savepoints)) << drained;
  EXPECT_EQ(client.getJobStatus(), JobStatus::FINISHED);
  // Drained: the end-of-time watermark fired the pending window before the job stopped.
  EXPECT_EQ(second->sorted(), (std::vector<std::string>{"300:100", "400:100", "500:100",
                                                        "600:100", "700:100", "800:100",
                                                        "900:100"}));
}

TEST_F(SavepointTest, WithoutADirectoryTheSavepointFailsWithFlinksMessageAndTheJobGoesOn) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto collected = std::make_shared<Collected>();
  auto processed = std::make_shared<std::atomic<int64_t>>(0);
  buildJob(*env, std::make_shared<std::atomic<int64_t>>(10), false,
           [](int64_t value) { return value % 4; }, KeyedSum(processed), collected);
  JobClient client = env->executeAsync("no directory");
  for (bool stop : {false, true}) {
    std::future<std::string> savepoint =
        stop ? client.stopWithSavepoint(false) : client.triggerSavepoint();
    try {
      savepoint.get();
      FAIL() << "a savepoint without a directory";
    } catch (const ValidationException& error) {
      EXPECT_EQ(std::string(error.what()),
                "No savepoint directory configured. You can either specify a directory while "
                "cancelling via -s :targetDirectory or configure a cluster-wide default via key "
                "'execution.checkpointing.savepoint-dir'.");
    }
  }
  EXPECT_EQ(client.getJobStatus(), JobStatus::RUNNING);
  client.cancel();
  client.waitForCompletion();
}

TEST_F(SavepointTest, ABatchJobTakesNoSavepoint) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setRuntimeMode(RuntimeExecutionMode::BATCH);
  env->setParallelism(1);
  auto collected = std::make_shared<Collected>();
  env->fromSequence(1, 3)
      .map([](int64_t value) { return std::to_string(value); })
      .addSink([collected](const std::string& item) { collected->add(item); });
  JobClient client = env->executeAsync("batch");
  try {
    client.triggerSavepoint((root_ / "savepoints").string()).get();
    FAIL() << "a savepoint of a BATCH job";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()), "Job " + client.getJobID() + " is not a streaming job.");
  }
  client.waitForCompletion();
  EXPECT_EQ(collected->sorted(), (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_FALSE(fs::exists(root_ / "savepoints"));
}

}  // namespace
}  // namespace eddy
