// Checkpoints through running jobs: barrier alignment between a fast and a slow input (the
// snapshot holds exactly the records before the barriers), AT_LEAST_ONCE not blocking, the
// order of the checkpoint hooks along a chain and across tasks, a finished source not
// blocking a checkpoint, a waiting source woken by the trigger mail rather than by polling,
// and an aborted checkpoint. Every wait has a deadline far beyond need, so that a broken
// behaviour fails the test instead of hanging it; nothing passes by waiting.
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "graph/job_graph.h"
#include "runtime/running_job.h"

namespace eddy::runtime {
namespace {

using namespace std::chrono_literals;
using Alignment = CheckpointOptions::AlignmentType;

std::chrono::steady_clock::time_point deadline() { return std::chrono::steady_clock::now() + 60s; }

/// What the operators of a test job did, in order, from all task threads.
class EventLog {
 public:
  void add(std::string entry) {
    {
      std::lock_guard lock(mutex_);
      entries_.push_back(std::move(entry));
    }
    changed_.notify_all();
  }
  /// Waits until `entry` was added; false after the deadline.
  bool waitFor(const std::string& entry) {
    std::unique_lock lock(mutex_);
    return changed_.wait_until(lock, deadline(), [&] {
      return std::find(entries_.begin(), entries_.end(), entry) != entries_.end();
    });
  }
  std::vector<std::string> entries() const {
    std::lock_guard lock(mutex_);
    return entries_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> entries_;
};

/// Something a test opens once for a task thread to go on.
class Signal {
 public:
  void open() {
    {
      std::lock_guard lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }
  /// Bounded so that a failed test never leaves a task thread waiting for ever.
  void wait() {
    std::unique_lock lock(mutex_);
    opened_.wait_until(lock, deadline(), [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

BatchPtr batchOf(const std::vector<int64_t>& values) {
  auto batch = std::make_unique<TypedBatch<int64_t>>();
  for (int64_t value : values) batch->push(value, kNoTimestamp);
  return batch;
}

std::string joined(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  std::string text;
  for (int64_t value : values) text += (text.empty() ? "" : ",") + std::to_string(value);
  return text;
}

/// Logs every checkpoint hook as "<name> <hook> <id>"; tracks what completed.
class LoggingHooks {
 public:
  LoggingHooks(std::string name, std::shared_ptr<EventLog> log)
      : name_(std::move(name)), log_(std::move(log)) {}
  void logHook(const char* hook, int64_t id) { log_->add(name_ + " " + hook + " " + std::to_string(id)); }
  void add(const std::string& what) { log_->add(name_ + " " + what); }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::shared_ptr<EventLog> log_;
};

/// A source whose every poll is `step` (run on the task thread); it snapshots how many records
/// it emitted as operator state "position".
class TestSource final : public SourceOperator {
 public:
  using Step = std::function<SourceStatus(TestSource&)>;
  TestSource(std::string name, std::shared_ptr<EventLog> log, Step step)
      : hooks_(std::move(name), std::move(log)), step_(std::move(step)) {}

  SourceStatus emitNext() override {
    ++polls;
    return step_(*this);
  }
  void emit(const std::vector<int64_t>& values) {
    position += static_cast<int64_t>(values.size());
    output().emitBatch(batchOf(values));
  }
  void emitWatermark(int64_t timestamp) { output().emitWatermark(Watermark{timestamp}); }
  void log(const std::string& what) { hooks_.add(what); }

  void prepareSnapshotPreBarrier(int64_t id) override { hooks_.logHook("prepare", id); }
  void snapshotState(StateSnapshotContext& context) override {
    hooks_.logHook("snapshot", context.checkpointId);
    context.snapshot.operatorState["position"] = std::to_string(position);
    snapshotted.push_back(context.checkpointId);
  }
  void notifyCheckpointComplete(int64_t id) override {
    hooks_.logHook("complete", id);
    completed.push_back(id);
  }
  void notifyCheckpointAborted(int64_t id) override { hooks_.logHook("aborted", id); }
  void close() override { hooks_.add("close"); }

  bool hasCompleted(int64_t id) const {
    return std::find(completed.begin(), completed.end(), id) != completed.end();
  }

  int64_t position = 0;
  int64_t polls = 0;
  std::vector<int64_t> snapshotted;
  std::vector<int64_t> completed;

 private:
  LoggingHooks hooks_;
  Step step_;
};

/// Records every value it gets ("<name> got <value>"), forwards it, snapshots the values seen
/// so far as operator state "seen"; optionally emits `flushedOnPrepare` in
/// prepareSnapshotPreBarrier, as a mini-batch operator flushes its buffer.
class RecordingOperator final : public StreamOperator {
 public:
  RecordingOperator(std::string name, std::shared_ptr<EventLog> log,
                    std::optional<int64_t> flushedOnPrepare = std::nullopt)
      : hooks_(std::move(name), std::move(log)), flushedOnPrepare_(flushedOnPrepare) {}

  void processBatch(int, BatchPtr batch) override {
    for (int64_t value : typedBatch<int64_t>(*batch).records) {
      seen_.push_back(value);
      hooks_.add("got " + std::to_string(value));
    }
    output().emitBatch(std::move(batch));
  }
  void prepareSnapshotPreBarrier(int64_t id) override {
    hooks_.logHook("prepare", id);
    if (flushedOnPrepare_) output().emitBatch(batchOf({*flushedOnPrepare_}));
  }
  void snapshotState(StateSnapshotContext& context) override {
    hooks_.logHook("snapshot", context.checkpointId);
    context.snapshot.operatorState["seen"] = joined(seen_);
  }
  void notifyCheckpointComplete(int64_t id) override { hooks_.logHook("complete", id); }
  void notifyCheckpointAborted(int64_t id) override { hooks_.logHook("aborted", id); }
  void finish() override { hooks_.add("finish"); }

 private:
  LoggingHooks hooks_;
  std::optional<int64_t> flushedOnPrepare_;
  std::vector<int64_t> seen_;
};

/// Builds a job from transformations of int64_t records; every operator's uid is its name.
class CheckpointTest : public ::testing::Test {
 protected:
  Transformation* add(Transformation::Kind kind, const std::string& name,
                      std::vector<Transformation*> inputs,
                      std::function<std::unique_ptr<StreamOperator>()> create) {
    auto transformation = std::make_unique<Transformation>();
    transformation->id = static_cast<int>(owned_.size()) + 1;
    transformation->kind = kind;
    transformation->name = name;
    transformation->uid = name;
    transformation->parallelism = 1;
    transformation->inputs = std::move(inputs);
    transformation->bounded = false;
    transformation->outputType = std::make_shared<TypedRecordOps<int64_t>>();
    if (create) {
      transformation->operatorFactory = std::make_shared<LambdaOperatorFactory>(std::move(create));
    }
    owned_.push_back(std::move(transformation));
    return owned_.back().get();
  }
  Transformation* source(const std::string& name, TestSource::Step step) {
    return add(Transformation::Kind::SOURCE, name, {}, [this, name, step] {
      return std::make_unique<TestSource>(name, log_, step);
    });
  }
  Transformation* recorder(const std::string& name, std::vector<Transformation*> inputs,
                           std::optional<int64_t> flushedOnPrepare = std::nullopt) {
    const auto kind =
        inputs.size() == 2 && inputs[0] != inputs[1] && twoInput_ ? Transformation::Kind::TWO_INPUT
                                                                  : Transformation::Kind::ONE_INPUT;
    return add(kind, name, std::move(inputs), [this, name, flushedOnPrepare] {
      return std::make_unique<RecordingOperator>(name, log_, flushedOnPrepare);
    });
  }
  /// A REBALANCE edge: what follows runs in a task of its own.
  Transformation* rebalance(Transformation* input) {
    Transformation* node = add(Transformation::Kind::PARTITION, "Rebalance", {input}, nullptr);
    node->uid.clear();
    node->partitionKind = PartitionKind::REBALANCE;
    return node;
  }
  std::shared_ptr<RunningJob> start(TaskSettings settings = {}) {
    std::vector<const Transformation*> all;
    for (const auto& transformation : owned_) all.push_back(transformation.get());
    graph::JobGraphSettings graphSettings;
    graphSettings.defaultParallelism = 1;
    auto job = std::make_shared<RunningJob>("checkpoints", graph::buildJobGraph(all, graphSettings),
                                            SystemClock::instance(), std::move(settings));
    job->start();
    return job;
  }
  static const OperatorSnapshot& snapshotOf(const CheckpointOutcome& outcome,
                                            const std::string& uid) {
    return outcome.checkpoint->operators.at(uid).at(0);
  }
  int64_t count(const std::string& entry) const {
    std::vector<std::string> entries = log_->entries();
    return std::count(entries.begin(), entries.end(), entry);
  }
  /// Index of the only occurrence of `entry` in the log (fails when it is not exactly once).
  int64_t position(const std::vector<std::string>& entries, const std::string& entry) const {
    EXPECT_EQ(std::count(entries.begin(), entries.end(), entry), 1) << entry;
    return std::find(entries.begin(), entries.end(), entry) - entries.begin();
  }

  std::shared_ptr<EventLog> log_ = std::make_shared<EventLog>();
  bool twoInput_ = true;
  std::vector<std::unique_ptr<Transformation>> owned_;
};

/// The fast source: 1, 2, 3; nothing until it has snapshotted checkpoint 1; then 4, 5, 6 and a
/// watermark (which pushes them into the consumer's gate at once), then its end.
TestSource::Step fastSource() {
  return [](TestSource& source) {
    if (source.position < 3) {
      source.emit({source.position + 1});
      return SourceStatus::MORE_AVAILABLE;
    }
    if (source.snapshotted.empty()) return SourceStatus::NOTHING_AVAILABLE;
    source.emit({4, 5, 6});
    source.emitWatermark(100);
    source.log("sent 4 5 6");
    return SourceStatus::END_OF_INPUT;
  };
}

/// The slow source: 101, 102; then a poll that takes until `release` opens (the trigger mail
/// waits behind it) and emits 103; then 104 and its end.
TestSource::Step slowSource(std::shared_ptr<Signal> release) {
  return [release](TestSource& source) {
    if (source.position < 2) {
      source.emit({101 + source.position});
      return SourceStatus::MORE_AVAILABLE;
    }
    if (source.position == 2) {
      source.log("busy");
      release->wait();
      source.emit({103});
      return SourceStatus::MORE_AVAILABLE;
    }
    source.emit({104});
    return SourceStatus::END_OF_INPUT;
  };
}

TEST_F(CheckpointTest, AlignedBarriersHoldBackTheFastInputUntilTheSlowOneDeliveredItsBarrier) {
  auto release = std::make_shared<Signal>();
  Transformation* fast = source("fast", fastSource());
  Transformation* slow = source("slow", slowSource(release));
  recorder("join", {fast, slow});
  std::shared_ptr<RunningJob> job = start();
  ASSERT_TRUE(log_->waitFor("join got 3"));
  ASSERT_TRUE(log_->waitFor("slow busy"));

  ASSERT_TRUE(job->triggerCheckpoint(1, CheckpointOptions{}));
  // The fast source took the checkpoint and sent records behind its barrier; the slow one
  // is still busy, so the join holds the fast channel blocked.
  ASSERT_TRUE(log_->waitFor("fast sent 4 5 6"));
  release->open();
  CheckpointOutcome outcome = job->waitForCheckpoint(1, deadline());
  ASSERT_EQ(outcome.status, CheckpointStatus::COMPLETED);
  job->waitForCompletion();

  EXPECT_EQ(snapshotOf(outcome, "join").operatorState.at("seen"), "1,2,3,101,102,103");
  EXPECT_EQ(snapshotOf(outcome, "fast").operatorState.at("position"), "3");
  EXPECT_EQ(snapshotOf(outcome, "slow").operatorState.at("position"), "3");
  std::vector<std::string> entries = log_->entries();
  EXPECT_LT(position(entries, "join snapshot 1"), position(entries, "join got 4"));
  EXPECT_LT(position(entries, "join got 6"), position(entries, "join finish"));
  EXPECT_EQ(count("join got 104"), 1);
  // Each task heard of the completion once, the fast source too although it had finished.
  EXPECT_EQ(count("join complete 1"), 1);
  EXPECT_EQ(count("fast complete 1"), 1);
  EXPECT_EQ(count("slow complete 1"), 1);
}

TEST_F(CheckpointTest, AtLeastOnceBarriersDoNotBlockTheFastInput) {
  auto release = std::make_shared<Signal>();
  Transformation* fast = source("fast", fastSource());
  Transformation* slow = source("slow", slowSource(release));
  recorder("join", {fast, slow});
  std::shared_ptr<RunningJob> job = start();
  ASSERT_TRUE(log_->waitFor("join got 3"));
  ASSERT_TRUE(log_->waitFor("slow busy"));

  ASSERT_TRUE(job->triggerCheckpoint(
      1, CheckpointOptions{SnapshotType::CHECKPOINT, Alignment::AT_LEAST_ONCE}));
  // The slow source is still busy, its barrier not sent: the join reads on regardless.
  ASSERT_TRUE(log_->waitFor("join got 6"));
  release->open();
  CheckpointOutcome outcome = job->waitForCheckpoint(1, deadline());
  ASSERT_EQ(outcome.status, CheckpointStatus::COMPLETED);
  job->waitForCompletion();

  // Records behind the fast barrier are in the snapshot: after a restore they would be
  // replayed again (at least once).
  EXPECT_EQ(snapshotOf(outcome, "join").operatorState.at("seen"), "1,2,3,4,5,6,101,102,103");
  EXPECT_EQ(snapshotOf(outcome, "fast").operatorState.at("position"), "3");
}

TEST_F(CheckpointTest, HooksRunInChainOrderAndCompletionComesAfterEveryTaskAcknowledged) {
  Transformation* numbers = source("numbers", [](TestSource& source) {
    if (source.position < 3) {
      source.emit({source.position + 1});
      return SourceStatus::MORE_AVAILABLE;
    }
    return source.hasCompleted(1) ? SourceStatus::END_OF_INPUT : SourceStatus::NOTHING_AVAILABLE;
  });
  // numbers -> first -> second in one task, then a REBALANCE edge to the sink's task.
  Transformation* first = recorder("first", {numbers}, /*flushedOnPrepare=*/1000);
  Transformation* second = recorder("second", {first});
  recorder("sink", {rebalance(second)});
  std::shared_ptr<RunningJob> job = start();
  ASSERT_TRUE(log_->waitFor("sink got 3"));

  ASSERT_TRUE(job->triggerCheckpoint(1, CheckpointOptions{}));
  CheckpointOutcome outcome = job->waitForCheckpoint(1, deadline());
  ASSERT_EQ(outcome.status, CheckpointStatus::COMPLETED);
  job->waitForCompletion();

  std::vector<std::string> entries = log_->entries();
  auto at = [&](const std::string& entry) { return position(entries, entry); };
  // Head first: what `first` flushes in its prepare reaches `second` before second's prepare.
  EXPECT_LT(at("numbers prepare 1"), at("first prepare 1"));
  EXPECT_LT(at("first prepare 1"), at("second got 1000"));
  EXPECT_LT(at("second got 1000"), at("second prepare 1"));
  // Every operator of the chain prepares before any snapshots.
  EXPECT_LT(at("second prepare 1"), at("numbers snapshot 1"));
  EXPECT_LT(at("numbers snapshot 1"), at("first snapshot 1"));
  EXPECT_LT(at("first snapshot 1"), at("second snapshot 1"));
  // The barrier left the chain's task after its snapshots, behind the flushed record.
  EXPECT_LT(at("second snapshot 1"), at("sink prepare 1"));
  EXPECT_LT(at("sink got 1000"), at("sink prepare 1"));
  EXPECT_EQ(snapshotOf(outcome, "sink").operatorState.at("seen"), "1,2,3,1000");
  EXPECT_EQ(snapshotOf(outcome, "second").operatorState.at("seen"), "1,2,3,1000");
  EXPECT_EQ(snapshotOf(outcome, "first").operatorState.at("seen"), "1,2,3");
  // Completion reaches every operator once, after the last task (the sink) acknowledged.
  for (const char* name : {"numbers", "first", "second", "sink"}) {
    EXPECT_GT(at(std::string(name) + " complete 1"), at("sink snapshot 1")) << name;
  }
}

TEST_F(CheckpointTest, AFinishedSourceDoesNotBlockACheckpoint) {
  Transformation* bounded = source("bounded", [](TestSource& source) {
    source.emit({1, 2});
    return SourceStatus::END_OF_INPUT;
  });
  Transformation* unbounded = source("unbounded", [](TestSource& source) {
    if (source.position == 0) {
      source.emit({10});
      return SourceStatus::MORE_AVAILABLE;
    }
    return source.hasCompleted(1) ? SourceStatus::END_OF_INPUT : SourceStatus::NOTHING_AVAILABLE;
  });
  twoInput_ = false;  // a union: one input, two channels
  recorder("sink", {bounded, unbounded});
  std::shared_ptr<RunningJob> job = start();
  ASSERT_TRUE(log_->waitFor("bounded close"));  // its task has ended
  ASSERT_TRUE(log_->waitFor("sink got 10"));

  ASSERT_TRUE(job->triggerCheckpoint(1, CheckpointOptions{}));
  CheckpointOutcome outcome = job->waitForCheckpoint(1, deadline());
  ASSERT_EQ(outcome.status, CheckpointStatus::COMPLETED);
  job->waitForCompletion();

  const OperatorSnapshot& finished = snapshotOf(outcome, "bounded");
  EXPECT_TRUE(finished.finished);
  EXPECT_TRUE(finished.empty());
  EXPECT_FALSE(snapshotOf(outcome, "unbounded").finished);
  EXPECT_EQ(snapshotOf(outcome, "unbounded").operatorState.at("position"), "1");
  EXPECT_EQ(snapshotOf(outcome, "sink").operatorState.at("seen"), "1,2,10");
  EXPECT_EQ(count("bounded snapshot 1"), 0);
  EXPECT_EQ(count("bounded complete 1"), 0);
  EXPECT_EQ(count("sink complete 1"), 1);
}

TEST_F(CheckpointTest, ASourceWithNothingAvailableWakesForTheTriggerInsteadOfPolling) {
  auto polled = std::make_shared<Signal>();
  Transformation* idle = source("idle", [polled](TestSource& source) {
    source.log("poll " + std::to_string(source.polls));
    if (source.polls == 1) {
      source.emit({7});
      polled->open();
      return SourceStatus::NOTHING_AVAILABLE;
    }
    return source.hasCompleted(1) ? SourceStatus::END_OF_INPUT : SourceStatus::NOTHING_AVAILABLE;
  });
  recorder("sink", {idle});  // chained: one task
  TaskSettings settings;
  // Far beyond the test's deadlines: only mail can end the source's wait.
  settings.sourceIdleWaitInitial = std::chrono::hours(1);
  settings.sourceIdleWaitMaximum = std::chrono::hours(1);
  std::shared_ptr<RunningJob> job = start(settings);
  polled->wait();

  ASSERT_TRUE(job->triggerCheckpoint(1, CheckpointOptions{}));
  CheckpointOutcome outcome = job->waitForCheckpoint(1, deadline());
  ASSERT_EQ(outcome.status, CheckpointStatus::COMPLETED);
  job->waitForCompletion();
  EXPECT_EQ(snapshotOf(outcome, "idle").operatorState.at("position"), "1");
  EXPECT_EQ(snapshotOf(outcome, "sink").operatorState.at("seen"), "7");
  // One poll before the trigger; the trigger and (the task being the whole job) the
  // completion ran as mail; one poll after them, which ended the source. A polling loop
  // would have polled again and again while nothing was available.
  std::vector<std::string> entries = log_->entries();
  EXPECT_EQ(std::count_if(entries.begin(), entries.end(),
                          [](const std::string& entry) { return entry.starts_with("idle poll"); }),
            2)
      << ::testing::PrintToString(entries);
  EXPECT_LT(position(entries, "idle poll 1"), position(entries, "idle snapshot 1"));
  EXPECT_LT(position(entries, "idle snapshot 1"), position(entries, "idle complete 1"));
  EXPECT_LT(position(entries, "idle complete 1"), position(entries, "idle poll 2"));
}

TEST_F(CheckpointTest, ADeclinedCheckpointIsAbortedEverywhereAndTheNextOneCompletes) {
  auto release = std::make_shared<Signal>();
  Transformation* numbers = source("numbers", [release](TestSource& source) {
    if (source.polls == 1) {
      source.emit({1});
      return SourceStatus::MORE_AVAILABLE;
    }
    if (source.polls == 2) {
      source.log("busy");
      release->wait();
    }
    return source.hasCompleted(2) ? SourceStatus::END_OF_INPUT : SourceStatus::NOTHING_AVAILABLE;
  });
  recorder("sink", {rebalance(numbers)});
  std::shared_ptr<RunningJob> job = start();
  ASSERT_TRUE(log_->waitFor("numbers busy"));

  ASSERT_TRUE(job->triggerCheckpoint(1, CheckpointOptions{}));
  // The sink's task (vertex 1) declines checkpoint 1, as a task whose alignment a newer
  // barrier overtook does.
  job->declineCheckpoint(1, 0, 1);
  EXPECT_EQ(job->waitForCheckpoint(1, deadline()).status, CheckpointStatus::ABORTED);
  release->open();
  ASSERT_TRUE(log_->waitFor("numbers aborted 1"));
  ASSERT_TRUE(log_->waitFor("sink aborted 1"));

  ASSERT_TRUE(job->triggerCheckpoint(2, CheckpointOptions{}));
  CheckpointOutcome outcome = job->waitForCheckpoint(2, deadline());
  ASSERT_EQ(outcome.status, CheckpointStatus::COMPLETED);
  job->waitForCompletion();
  EXPECT_EQ(snapshotOf(outcome, "sink").operatorState.at("seen"), "1");
  EXPECT_EQ(count("numbers aborted 1"), 1);
  EXPECT_EQ(count("sink aborted 1"), 1);
  EXPECT_EQ(count("numbers complete 1"), 0);
  EXPECT_EQ(count("sink complete 1"), 0);
  EXPECT_EQ(count("numbers complete 2"), 1);
  EXPECT_EQ(count("sink complete 2"), 1);
  // The job has ended: nothing more is triggered.
  EXPECT_FALSE(job->triggerCheckpoint(3, CheckpointOptions{}));
}

}  // namespace
}  // namespace eddy::runtime
