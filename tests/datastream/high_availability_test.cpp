// High availability end to end on DataStream jobs (`high-availability.type`,
// `high-availability.storageDir`, `kubernetes.cluster-id`): a checkpointed job keeps a record of
// its latest completed checkpoint in `<storageDir>/<cluster id>/<job name>.job`; when it fails,
// the same program run again (the same job name, no restore path named) resumes from that
// checkpoint with the same job id and exact keyed counts, and the record is gone once that run
// finishes; a restore path the second run names is not read, as HA's checkpoint wins (Flink's
// order); a cancelled job's record is removed, so the next run starts afresh; a record whose
// checkpoint is corrupted fails the next start with the message naming both files and leaves
// the record in place.
//
// A second *process* with the same cluster id is refused by the cluster lock: that needs two
// processes and is tested in src/runtime/tests/high_availability_test.cpp (fork) and by
// fault_tolerance.kill9_sql_ha (two `eddy sql` processes).
//
// The jobs read a Feed: records the test hands over while the job runs (gone once taken; the
// source keeps no position, so nothing here relies on a source replaying). Every wait is on a
// signal the job opens or on its end, bounded by a deadline far beyond need.
#include <gtest/gtest.h>
#include <eddy/eddy.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace eddy {
namespace {

namespace fs = std::filesystem;
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

/// Records handed to a running job. Thread-safe.
class Feed {
 public:
  void push(int64_t from, int64_t to) {
    std::lock_guard lock(mutex_);
    for (int64_t value = from; value < to; ++value) records_.push_back(value);
  }
  void end() {
    std::lock_guard lock(mutex_);
    ended_ = true;
  }
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
      return InputStatus::NOTHING_AVAILABLE;
    }

   private:
    std::shared_ptr<Feed> feed_;
  };
  std::shared_ptr<Feed> feed_;
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

/// What one run of the program saw, shared with the test.
struct RunProbe {
  /// Set before the job starts: the records a checkpoint must have seen to open the signal.
  int64_t expected = -1;
  Signal checkpointedExpected;
  std::mutex mutex;
  /// "fresh", or the restored number of records seen.
  std::string initialization;
  std::map<int64_t, int64_t> latestCounts;  // what the sink received last, per key
};

/// Forwards the counts and counts them (operator state "seen"); opens the probe's signal once
/// a checkpoint that has seen `expected` records completed (aligned: the keyed counters of
/// those records are in it too).
class CheckpointObserver final : public runtime::StreamOperator {
 public:
  explicit CheckpointObserver(std::shared_ptr<RunProbe> probe) : probe_(std::move(probe)) {}

  void initializeState(runtime::StateInitializationContext& context) override {
    auto seen = context.previous->operatorState.find("seen");
    std::lock_guard lock(probe_->mutex);
    probe_->initialization = "fresh";
    if (context.isRestored() && seen != context.previous->operatorState.end()) {
      seen_ = std::stoll(seen->second);
      probe_->initialization = seen->second;
    }
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
  std::shared_ptr<RunProbe> probe_;
  int64_t seen_ = 0;
  std::map<int64_t, int64_t> snapshots_;  // task thread only
};

/// The program: feed → a map that throws for the next `*failuresLeft` records → count per key
/// (value % 4, parallelism 2) → observer → sink. The same uids in every run.
void buildProgram(StreamExecutionEnvironment& env, std::shared_ptr<Feed> feed,
                  std::shared_ptr<RunProbe> probe, std::shared_ptr<std::atomic<int>> failuresLeft) {
  env.setParallelism(1);
  env.fromSource(std::make_shared<FeedSource>(feed), WatermarkStrategy<int64_t>::noWatermarks(),
                 "feed")
      .uid("feed")
      .map([failuresLeft](int64_t value) -> int64_t {
        if (failuresLeft->fetch_sub(1) > 0) {
          throw std::runtime_error("bad record " + std::to_string(value));
        }
        return value;
      })
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
      .addSink([probe](const Count& count) {
        std::lock_guard lock(probe->mutex);
        probe->latestCounts[count.first] = count.second;
      })
      .uid("sink");
}

std::string readFile(const fs::path& path) {
  std::ifstream input(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(input), std::istreambuf_iterator<char>());
}

/// The value of the record line `key <value>` (the job record is text, docs/state_format.md).
std::string recordValue(const std::string& record, const std::string& key) {
  std::istringstream lines(record);
  std::string line, value;
  while (std::getline(lines, line)) {
    if (line.rfind(key + " ", 0) == 0) value = line.substr(key.size() + 1);  // the last one
  }
  return value;
}

class HighAvailabilityJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("eddy-ha-datastream-test-" + std::to_string(device()));
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  /// The options every run of the program gets: checkpoints every 20 ms, no restarts (a failure
  /// ends the job: the process "dies"), HA in root_/ha under `clusterId`.
  std::map<std::string, std::string> options(const std::string& clusterId) const {
    return {{"execution.checkpointing.interval", "20 ms"},
            {"state.checkpoints.dir", (root_ / "checkpoints").string()},
            {"restart-strategy.type", "none"},
            {"high-availability.type", "kubernetes"},
            {"high-availability.storageDir", (root_ / "ha").string()},
            {"kubernetes.cluster-id", clusterId}};
  }
  fs::path recordOf(const std::string& clusterId) const {
    return root_ / "ha" / clusterId / "counting.job";
  }

  /// Runs the program: 100 records (25 per key), waits until a checkpoint holds them all, then
  /// ends the job with `end` ("fail": a record fails the map; "cancel"). Returns the job id.
  std::string runUntilCheckpointed(const std::string& clusterId, const std::string& end) {
    auto feed = std::make_shared<Feed>();
    auto probe = std::make_shared<RunProbe>();
    probe->expected = 100;
    auto failuresLeft = std::make_shared<std::atomic<int>>(0);
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->configure(options(clusterId));
    buildProgram(*env, feed, probe, failuresLeft);
    JobClient client = env->executeAsync("counting");
    feed->push(0, 100);
    EXPECT_TRUE(probe->checkpointedExpected.wait());
    // While it runs, the record names the job and its latest checkpoint.
    const std::string record = readFile(recordOf(clusterId));
    EXPECT_EQ(recordValue(record, "job-name"), "counting");
    EXPECT_EQ(recordValue(record, "job-id"), client.getJobID());
    const std::string latest = recordValue(record, "checkpoint");
    EXPECT_NE(latest.find(" " + (root_ / "checkpoints" / client.getJobID()).string() + "/chk-"),
              std::string::npos)
        << latest;
    if (end == "fail") {
      failuresLeft->store(1);
      feed->push(-1, 0);
      EXPECT_THROW(client.waitForCompletion(), JobExecutionException);
      EXPECT_EQ(client.getJobStatus(), JobStatus::FAILED);
    } else {
      client.cancel();
      client.waitForCompletion();
      EXPECT_EQ(client.getJobStatus(), JobStatus::CANCELED);
    }
    {
      std::lock_guard lock(probe->mutex);
      EXPECT_EQ(probe->initialization, "fresh");
    }
    return client.getJobID();
  }

  fs::path root_;
};

TEST_F(HighAvailabilityJobTest, TheSameProgramRunAgainResumesFromTheLatestCheckpoint) {
  const std::string jobId = runUntilCheckpointed("resume", "fail");
  // The failed job's record and the checkpoint it names stay.
  const std::string record = readFile(recordOf("resume"));
  ASSERT_FALSE(record.empty());
  const std::string latest = recordValue(record, "checkpoint");
  const fs::path checkpoint = latest.substr(latest.find(' ') + 1);
  EXPECT_TRUE(fs::exists(checkpoint / "_metadata")) << checkpoint;

  // Run again, naming a restore path that does not exist: HA's checkpoint wins, the path is
  // not read. 40 more records (10 per key), then the end.
  auto feed = std::make_shared<Feed>();
  auto probe = std::make_shared<RunProbe>();
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto again = options("resume");
  again["execution.state-recovery.path"] = (root_ / "no-such-savepoint").string();
  env->configure(again);
  buildProgram(*env, feed, probe, std::make_shared<std::atomic<int>>(0));
  JobClient client = env->executeAsync("counting");
  EXPECT_EQ(client.getJobID(), jobId);  // the job's id is the previous run's
  feed->push(100, 140);
  feed->end();
  client.waitForCompletion();
  EXPECT_EQ(client.getJobStatus(), JobStatus::FINISHED);
  {
    std::lock_guard lock(probe->mutex);
    EXPECT_EQ(probe->initialization, "100");
    // 25 restored + 10 per key: the counters went on from the checkpoint (afresh: 10).
    EXPECT_EQ(probe->latestCounts,
              (std::map<int64_t, int64_t>{{0, 35}, {1, 35}, {2, 35}, {3, 35}}));
  }
  // Finished: the record is gone, and so are the job's checkpoints.
  EXPECT_FALSE(fs::exists(recordOf("resume")));
  EXPECT_FALSE(fs::exists(root_ / "checkpoints" / jobId));
}

TEST_F(HighAvailabilityJobTest, ACancelledJobsRecordIsRemovedAndTheNextRunStartsAfresh) {
  const std::string jobId = runUntilCheckpointed("cancel", "cancel");
  EXPECT_FALSE(fs::exists(recordOf("cancel")));

  auto feed = std::make_shared<Feed>();
  auto probe = std::make_shared<RunProbe>();
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->configure(options("cancel"));
  buildProgram(*env, feed, probe, std::make_shared<std::atomic<int>>(0));
  JobClient client = env->executeAsync("counting");
  EXPECT_NE(client.getJobID(), jobId);
  feed->push(100, 140);
  feed->end();
  client.waitForCompletion();
  std::lock_guard lock(probe->mutex);
  EXPECT_EQ(probe->initialization, "fresh");
  EXPECT_EQ(probe->latestCounts, (std::map<int64_t, int64_t>{{0, 10}, {1, 10}, {2, 10}, {3, 10}}));
}

TEST_F(HighAvailabilityJobTest, ACorruptedRecordedCheckpointFailsTheStartNamingBothFiles) {
  runUntilCheckpointed("corrupt", "fail");
  const fs::path recordFile = recordOf("corrupt");
  const std::string record = readFile(recordFile);
  const std::string latest = recordValue(record, "checkpoint");
  const std::string id = latest.substr(0, latest.find(' '));
  const fs::path metadata = fs::path(latest.substr(latest.find(' ') + 1)) / "_metadata";
  fs::resize_file(metadata, 10);  // truncated

  auto feed = std::make_shared<Feed>();
  auto probe = std::make_shared<RunProbe>();
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->configure(options("corrupt"));
  buildProgram(*env, feed, probe, std::make_shared<std::atomic<int>>(0));
  try {
    env->executeAsync("counting");
    FAIL() << "started although its recorded checkpoint is truncated";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Cannot resume job 'counting' from its latest completed checkpoint chk-" + id +
                  ", recorded in '" + recordFile.string() +
                  "' (high-availability cluster 'corrupt'): The checkpoint file '" +
                  metadata.string() + "' is truncated: it has 10 bytes. Remove '" +
                  recordFile.string() + "' to start the job without it.");
  }
  // Nothing ran, and the record is left for whoever looks into it.
  EXPECT_EQ(readFile(recordFile), record);
  std::lock_guard lock(probe->mutex);
  EXPECT_EQ(probe->initialization, "");
}

}  // namespace
}  // namespace eddy
