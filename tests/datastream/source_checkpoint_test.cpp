// Replayable DataStream sources (connector::Source, FLIP-27) through the checkpoints of real
// jobs: fromSequence's and fromCollection's sources checkpointed mid-stream (the readers'
// splits in their list state, the enumerator's unassigned splits in its state) and restored
// into a new job, at the same parallelism and at another one, give every element exactly once
// over what the first job's checkpoint holds and what the restored job adds; so does a source
// whose enumerator hands out splits one at a time on request while checkpoints are taken. The
// split and enumerator state formats round trip and reject another version or truncated bytes
// with a message naming the source; a restore whose reader splits are corrupted, whose
// enumerator state is missing or whose collection is shorter fails naming the source. A split
// source's legacy reader (createReader(subtaskIndex, parallelism)) reads what it read before.
//
// Jobs run on RunningJob, so that the second job restores from exactly the CompletedCheckpoint
// the first one completed, in memory. The sink keeps what reached it as its state, so the
// checkpoint holds exactly the records before the barrier; it blocks once it has some records
// until the test has triggered the checkpoint, so the checkpoint is taken mid-stream (the
// sources, backpressured, cannot run ahead by more than their channels hold). Every wait has a
// deadline far beyond need, so a broken behaviour fails instead of hanging.
#include <gtest/gtest.h>
#include <eddy/eddy.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/job_graph.h"
#include "runtime/running_job.h"

namespace eddy {
namespace {

using namespace std::chrono_literals;
using runtime::CompletedCheckpoint;

constexpr const char* kSourceName = "Source: numbers";

std::chrono::steady_clock::time_point deadline() { return std::chrono::steady_clock::now() + 60s; }

class Signal {
 public:
  void open() {
    {
      std::lock_guard lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }
  /// Bounded, so that a failed test never leaves a task thread waiting for ever.
  bool wait() {
    std::unique_lock lock(mutex_);
    return opened_.wait_until(lock, deadline(), [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

/// What a CollectingSink saw, shared with the test.
template <typename T>
struct SinkProbe {
  /// The sink blocks once it holds this many records (0: never) until `release` opens.
  size_t blockAfter = 0;
  Signal blocked;
  Signal release;
  std::mutex mutex;
  std::vector<T> restored;    // the sink's state restored from the checkpoint
  std::vector<T> received;    // records that reached it in this run
  std::vector<T> finalState;  // restored + received, at finish()
};

/// Keeps every record it gets as its state (operator state "collected",
/// TypeSerializer<std::vector<T>>).
template <typename T>
class CollectingSink final : public runtime::StreamOperator {
 public:
  explicit CollectingSink(std::shared_ptr<SinkProbe<T>> probe) : probe_(std::move(probe)) {}

  void initializeState(runtime::StateInitializationContext& context) override {
    auto found = context.previous->operatorState.find("collected");
    if (found == context.previous->operatorState.end()) return;
    std::string_view bytes = found->second;
    collected_ = TypeSerializer<std::vector<T>>::deserialize(bytes);
    std::lock_guard lock(probe_->mutex);
    probe_->restored = collected_;
  }
  void processBatch(int, runtime::BatchPtr batch) override {
    const std::vector<T>& records = runtime::typedBatch<T>(*batch).records;
    {
      std::lock_guard lock(probe_->mutex);
      probe_->received.insert(probe_->received.end(), records.begin(), records.end());
    }
    collected_.insert(collected_.end(), records.begin(), records.end());
    if (probe_->blockAfter > 0 && !blocked_ && collected_.size() >= probe_->blockAfter) {
      blocked_ = true;
      probe_->blocked.open();
      probe_->release.wait();
    }
  }
  void snapshotState(runtime::StateSnapshotContext& context) override {
    std::string bytes;
    TypeSerializer<std::vector<T>>::serialize(collected_, bytes);
    context.snapshot.operatorState["collected"] = std::move(bytes);
  }
  void finish() override {
    std::lock_guard lock(probe_->mutex);
    probe_->finalState = collected_;
  }

 private:
  std::shared_ptr<SinkProbe<T>> probe_;
  std::vector<T> collected_;
  bool blocked_ = false;
};

/// source (uid "source", its parallelism) → REBALANCE → CollectingSink (uid "sink", parallelism
/// 1), the source run by the DataStream source operator as fromSource runs it.
template <typename T>
class SourceJob {
 public:
  SourceJob(std::shared_ptr<const Source<T>> source, int sourceParallelism,
            std::shared_ptr<SinkProbe<T>> probe) {
    runtime::Transformation* sourceNode = add(runtime::Transformation::Kind::SOURCE, kSourceName,
                                              "source", sourceParallelism, {});
    sourceNode->bounded = source->getBoundedness() == Boundedness::BOUNDED;
    sourceNode->operatorFactory = std::make_shared<runtime::LambdaOperatorFactory>(
        [source]() -> std::unique_ptr<runtime::StreamOperator> {
          return std::make_unique<operators::SourceReaderOperator<T>>(
              source, WatermarkStrategy<T>::noWatermarks());
        });
    runtime::Transformation* rebalance =
        add(runtime::Transformation::Kind::PARTITION, "Rebalance", "", -1, {sourceNode});
    rebalance->partitionKind = runtime::PartitionKind::REBALANCE;
    runtime::Transformation* sink =
        add(runtime::Transformation::Kind::SINK, "sink", "sink", 1, {rebalance});
    sink->operatorFactory = std::make_shared<runtime::LambdaOperatorFactory>(
        [probe]() -> std::unique_ptr<runtime::StreamOperator> {
          return std::make_unique<CollectingSink<T>>(probe);
        });
  }

  /// Starts the job, restored from `checkpoint` when given.
  std::shared_ptr<runtime::RunningJob> start(
      std::shared_ptr<const CompletedCheckpoint> checkpoint = nullptr) const {
    std::vector<const runtime::Transformation*> all;
    for (const auto& node : nodes_) all.push_back(node.get());
    graph::JobGraphSettings graphSettings;
    graphSettings.defaultParallelism = 1;
    runtime::TaskSettings settings;
    settings.restoredCheckpoint = std::move(checkpoint);
    auto job = std::make_shared<runtime::RunningJob>(
        "sources", graph::buildJobGraph(all, graphSettings), SystemClock::instance(),
        std::move(settings));
    job->start();
    return job;
  }

 private:
  runtime::Transformation* add(runtime::Transformation::Kind kind, std::string name,
                               std::string uid, int parallelism,
                               std::vector<runtime::Transformation*> inputs) {
    auto node = std::make_unique<runtime::Transformation>();
    node->id = static_cast<int>(nodes_.size()) + 1;
    node->kind = kind;
    node->name = std::move(name);
    node->uid = std::move(uid);
    node->parallelism = parallelism;
    node->inputs = std::move(inputs);
    node->outputType = std::make_shared<runtime::TypedRecordOps<T>>();
    nodes_.push_back(std::move(node));
    return nodes_.back().get();
  }

  std::vector<std::unique_ptr<runtime::Transformation>> nodes_;
};

/// Waits until the sink blocked, triggers checkpoint 1, releases the sink and returns the
/// checkpoint once completed (null when it did not complete).
template <typename T>
std::shared_ptr<const CompletedCheckpoint> checkpointMidStream(runtime::RunningJob& job,
                                                               SinkProbe<T>& probe) {
  if (!probe.blocked.wait()) return nullptr;
  const bool triggered = job.triggerCheckpoint(1, runtime::CheckpointOptions{});
  probe.release.open();
  if (!triggered) return nullptr;
  runtime::CheckpointOutcome outcome = job.waitForCheckpoint(1, deadline());
  return outcome.status == runtime::CheckpointStatus::COMPLETED ? outcome.checkpoint : nullptr;
}

template <typename T>
std::vector<T> sinkStateOf(const CompletedCheckpoint& checkpoint) {
  std::string_view bytes = checkpoint.operators.at("sink").at(0).operatorState.at("collected");
  return TypeSerializer<std::vector<T>>::deserialize(bytes);
}

/// What the restored run ends with, after a first run of `source` at `before` subtasks was
/// checkpointed mid-stream (its sink blocked after `blockAfter` records) and cancelled, and a
/// second run of `restoredSource` at `after` subtasks restored from that checkpoint. Fails the
/// test (returning nothing) when a step did not work.
template <typename T>
std::optional<std::vector<T>> runCheckpointedAndRestored(
    std::shared_ptr<const Source<T>> source, std::shared_ptr<const Source<T>> restoredSource,
    int before, int after, size_t blockAfter, size_t total) {
  auto first = std::make_shared<SinkProbe<T>>();
  first->blockAfter = blockAfter;
  std::shared_ptr<const CompletedCheckpoint> checkpoint;
  {
    SourceJob<T> job(source, before, first);
    std::shared_ptr<runtime::RunningJob> running = job.start();
    checkpoint = checkpointMidStream(*running, *first);
    running->cancel();  // as a failure would end it: what it emitted after the checkpoint is lost
    running->waitForCompletion();
  }
  EXPECT_TRUE(checkpoint) << "checkpoint 1 did not complete";
  if (!checkpoint) return std::nullopt;
  const std::vector<T> checkpointed = sinkStateOf<T>(*checkpoint);
  // Mid-stream: the sink had its records, the sources were far from their end.
  EXPECT_GE(checkpointed.size(), blockAfter);
  EXPECT_LT(checkpointed.size(), total / 2);
  EXPECT_EQ(checkpoint->sourceCoordinators.count("source"), 1u);

  auto second = std::make_shared<SinkProbe<T>>();
  SourceJob<T> job(restoredSource, after, second);
  std::shared_ptr<runtime::RunningJob> restored = job.start(checkpoint);
  restored->waitForCompletion();
  std::lock_guard lock(second->mutex);
  EXPECT_EQ(second->restored, checkpointed);
  EXPECT_FALSE(second->received.empty());
  return second->finalState;
}

void expectSequenceExactlyOnce(int before, int after) {
  constexpr int64_t kLast = 300'000;
  std::optional<std::vector<int64_t>> numbers = runCheckpointedAndRestored<int64_t>(
      std::make_shared<NumberSequenceSource>(1, kLast),
      std::make_shared<NumberSequenceSource>(1, kLast), before, after, 5000, kLast);
  ASSERT_TRUE(numbers);
  std::sort(numbers->begin(), numbers->end());
  ASSERT_EQ(numbers->size(), static_cast<size_t>(kLast));
  for (int64_t i = 0; i < kLast; ++i) ASSERT_EQ((*numbers)[static_cast<size_t>(i)], i + 1);
}

TEST(SourceCheckpointTest, SequenceRestoredAtTheSameParallelismContinuesExactlyOnce) {
  expectSequenceExactlyOnce(1, 1);
  expectSequenceExactlyOnce(2, 2);
}

TEST(SourceCheckpointTest, SequenceRestoredFromOneSubtaskToThreeContinuesExactlyOnce) {
  expectSequenceExactlyOnce(1, 3);
}

TEST(SourceCheckpointTest, SequenceRestoredFromThreeSubtasksToOneContinuesExactlyOnce) {
  expectSequenceExactlyOnce(3, 1);
}

std::vector<std::string> words(size_t count) {
  std::vector<std::string> elements;
  elements.reserve(count);
  for (size_t i = 0; i < count; ++i) elements.push_back("w" + std::to_string(i));
  return elements;
}

void expectCollectionExactlyOnce(int before, int after) {
  constexpr size_t kCount = 200'000;
  std::optional<std::vector<std::string>> elements = runCheckpointedAndRestored<std::string>(
      std::make_shared<CollectionSource<std::string>>(words(kCount)),
      std::make_shared<CollectionSource<std::string>>(words(kCount)), before, after, 4000,
      kCount);
  ASSERT_TRUE(elements);
  std::vector<std::string> expected = words(kCount);
  std::sort(expected.begin(), expected.end());
  std::sort(elements->begin(), elements->end());
  EXPECT_TRUE(*elements == expected) << elements->size() << " elements, expected " << kCount;
}

TEST(SourceCheckpointTest, CollectionRestoredContinuesExactlyOnce) {
  expectCollectionExactlyOnce(1, 1);  // fromCollection's parallelism
}

TEST(SourceCheckpointTest, ParallelCollectionRestoredAtAnotherParallelismContinuesExactlyOnce) {
  expectCollectionExactlyOnce(2, 3);
}

/// The numbers 0 .. splits * splitSize - 1 in `splits` ranges that the enumerator hands out one
/// at a time, to the reader that asks (Flink's IteratorSourceEnumerator): its state is the
/// splits not handed out yet, so a checkpoint has splits on both sides.
class PulledRangesSource final
    : public connector::Source<int64_t, NumberSequenceSplit, std::vector<NumberSequenceSplit>> {
 public:
  PulledRangesSource(int splits, int64_t splitSize) : splits_(splits), splitSize_(splitSize) {}
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }

  std::unique_ptr<connector::SourceReader<int64_t, NumberSequenceSplit>> createReader(
      connector::SourceReaderContext& context) const override {
    return std::make_unique<Reader>(context);
  }
  std::unique_ptr<connector::SplitEnumerator<NumberSequenceSplit, std::vector<NumberSequenceSplit>>>
  createEnumerator(connector::SplitEnumeratorContext<NumberSequenceSplit>& context) const override {
    std::vector<NumberSequenceSplit> all;
    for (int i = 0; i < splits_; ++i) {
      all.push_back(NumberSequenceSplit{"r" + std::to_string(i), i * splitSize_,
                                        (i + 1) * splitSize_ - 1});
    }
    return std::make_unique<Enumerator>(context, std::move(all));
  }
  std::unique_ptr<connector::SplitEnumerator<NumberSequenceSplit, std::vector<NumberSequenceSplit>>>
  restoreEnumerator(connector::SplitEnumeratorContext<NumberSequenceSplit>& context,
                    std::vector<NumberSequenceSplit> checkpoint) const override {
    return std::make_unique<Enumerator>(context, std::move(checkpoint));
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
  class Enumerator final
      : public connector::SplitEnumerator<NumberSequenceSplit, std::vector<NumberSequenceSplit>> {
   public:
    Enumerator(connector::SplitEnumeratorContext<NumberSequenceSplit>& context,
               std::vector<NumberSequenceSplit> splits)
        : context_(context), splits_(splits.begin(), splits.end()) {}
    void handleSplitRequest(int subtask) override {
      if (splits_.empty()) {
        context_.signalNoMoreSplits(subtask);
        return;
      }
      context_.assignSplit(splits_.front(), subtask);
      splits_.pop_front();
    }
    void addSplitsBack(std::vector<NumberSequenceSplit> splits, int) override {
      splits_.insert(splits_.begin(), splits.begin(), splits.end());
    }
    void addReader(int) override {}
    std::vector<NumberSequenceSplit> snapshotState(int64_t) override {
      return std::vector<NumberSequenceSplit>(splits_.begin(), splits_.end());
    }

   private:
    connector::SplitEnumeratorContext<NumberSequenceSplit>& context_;
    std::deque<NumberSequenceSplit> splits_;
  };

  /// Reads one split at a time; asks for the next one when it has none.
  class Reader final : public connector::SourceReader<int64_t, NumberSequenceSplit> {
   public:
    explicit Reader(connector::SourceReaderContext& context) : context_(context) {}
    InputStatus pollNext(ReaderOutput<int64_t>& output) override {
      if (splits_.empty()) {
        if (noMoreSplits_) return InputStatus::END_OF_INPUT;
        if (!requested_) {
          requested_ = true;
          context_.sendSplitRequest();
        }
        return InputStatus::NOTHING_AVAILABLE;
      }
      NumberSequenceSplit& split = splits_.front();
      const int64_t last = std::min(split.last, split.next + 999);
      for (int64_t value = split.next; value <= last; ++value) output.collect(value);
      split.next = last + 1;
      if (split.next > split.last) splits_.pop_front();
      return InputStatus::MORE_AVAILABLE;
    }
    void addSplits(std::vector<NumberSequenceSplit> splits) override {
      splits_.insert(splits_.end(), splits.begin(), splits.end());
      requested_ = false;
    }
    void notifyNoMoreSplits() override { noMoreSplits_ = true; }
    std::vector<NumberSequenceSplit> snapshotState(int64_t) override {
      return std::vector<NumberSequenceSplit>(splits_.begin(), splits_.end());
    }
    bool signalsAvailability() const override { return true; }  // it waits for assignments

   private:
    connector::SourceReaderContext& context_;
    std::deque<NumberSequenceSplit> splits_;
    bool requested_ = false;
    bool noMoreSplits_ = false;
  };

  int splits_;
  int64_t splitSize_;
  std::shared_ptr<const NumberSequenceSplitSerializer> splitSerializer_ =
      std::make_shared<NumberSequenceSplitSerializer>();
  connector::StaticSplitEnumeratorStateSerializer<NumberSequenceSplit> stateSerializer_{
      splitSerializer_, "PulledRangesSource"};
};

TEST(SourceCheckpointTest, SplitsHandedOutOnRequestAreInExactlyOneSideOfTheCheckpoint) {
  constexpr int kSplits = 400;
  constexpr int64_t kSplitSize = 500;
  constexpr int64_t kTotal = kSplits * kSplitSize;
  auto source = std::make_shared<PulledRangesSource>(kSplits, kSplitSize);
  auto first = std::make_shared<SinkProbe<int64_t>>();
  first->blockAfter = 3000;
  std::shared_ptr<const CompletedCheckpoint> checkpoint;
  {
    SourceJob<int64_t> job(source, 2, first);
    std::shared_ptr<runtime::RunningJob> running = job.start();
    checkpoint = checkpointMidStream(*running, *first);
    running->cancel();
    running->waitForCompletion();
  }
  ASSERT_TRUE(checkpoint);
  // The enumerator still had splits to hand out, and the readers had splits of their own.
  const std::string& coordinatorState = checkpoint->sourceCoordinators.at("source");
  ASSERT_FALSE(coordinatorState.empty());
  EXPECT_EQ(static_cast<uint8_t>(coordinatorState[0]),
            connector::detail::kSourceCoordinatorStateVersion);
  std::vector<NumberSequenceSplit> unassigned = connector::readVersionAndDeserialize(
      source->getEnumeratorCheckpointSerializer(), std::string_view(coordinatorState).substr(1));
  EXPECT_GT(unassigned.size(), 0u);
  EXPECT_LT(unassigned.size(), static_cast<size_t>(kSplits));
  const std::vector<int64_t> checkpointed = sinkStateOf<int64_t>(*checkpoint);
  EXPECT_GE(checkpointed.size(), 3000u);

  // Restored at three subtasks: the enumerator hands out the rest, the readers read their own.
  auto second = std::make_shared<SinkProbe<int64_t>>();
  SourceJob<int64_t> job(std::make_shared<PulledRangesSource>(kSplits, kSplitSize), 3, second);
  std::shared_ptr<runtime::RunningJob> restored = job.start(checkpoint);
  restored->waitForCompletion();
  std::lock_guard lock(second->mutex);
  std::vector<int64_t> numbers = second->finalState;
  std::sort(numbers.begin(), numbers.end());
  ASSERT_EQ(numbers.size(), static_cast<size_t>(kTotal));
  for (int64_t i = 0; i < kTotal; ++i) ASSERT_EQ(numbers[static_cast<size_t>(i)], i);
}

/// A coordinator context of a source with `parallelism` readers that records, per subtask,
/// the splits it was assigned and whether it was told that no more come.
class RecordingCoordinatorContext final : public connector::detail::SourceCoordinatorContext {
 public:
  explicit RecordingCoordinatorContext(int parallelism) : parallelism_(parallelism) {}
  int currentParallelism() const override { return parallelism_; }
  void assignSplits(int subtask, std::vector<std::string> splits) override {
    for (std::string& split : splits) assigned[subtask].push_back(std::move(split));
  }
  void signalNoMoreSplits(int subtask) override { noMoreSplits.push_back(subtask); }
  void runAsync(std::function<std::function<void()>()> call, std::chrono::milliseconds,
                std::chrono::milliseconds) override {
    asyncCalls.push_back(std::move(call));
  }
  const std::string& sourceName() const override { return name_; }

  std::map<int, std::vector<std::string>> assigned;  // versioned split bytes
  std::vector<int> noMoreSplits;
  std::vector<std::function<std::function<void()>()>> asyncCalls;  // never run here

 private:
  int parallelism_;
  std::string name_ = kSourceName;
};

std::vector<NumberSequenceSplit> decodeSplits(const NumberSequenceSource& source,
                                              const std::vector<std::string>& splits) {
  std::vector<NumberSequenceSplit> decoded;
  for (const std::string& bytes : splits) {
    decoded.push_back(connector::readVersionAndDeserialize(source.getSplitSerializer(), bytes));
  }
  return decoded;
}

TEST(SourceCheckpointTest, EnumeratorStateRoundTripsAndIsDealtOutOnceAfterARestore) {
  NumberSequenceSource source(1, 1000);
  const std::vector<std::vector<NumberSequenceSplit>> plan = source.planSplits(2);
  ASSERT_EQ(plan.size(), 2u);
  ASSERT_EQ(plan[1].size(), 4u);
  EXPECT_EQ(plan[0].front().next, 1);
  EXPECT_EQ(plan[1].back().last, 1000);

  // Reader 0 registered before the checkpoint, reader 1 not: its splits are the state.
  RecordingCoordinatorContext before(2);
  std::unique_ptr<connector::detail::SourceCoordinator> coordinator =
      source.createCoordinator(before, nullptr);
  coordinator->start();
  coordinator->addReader(0);
  EXPECT_EQ(decodeSplits(source, before.assigned[0]), plan[0]);
  EXPECT_EQ(before.noMoreSplits, std::vector<int>{0});
  const std::string state = coordinator->snapshotState(1);

  // The bytes: the coordinator's format byte, then the enumerator state, which round trips.
  ASSERT_FALSE(state.empty());
  EXPECT_EQ(static_cast<uint8_t>(state[0]), connector::detail::kSourceCoordinatorStateVersion);
  const auto& serializer = source.getEnumeratorCheckpointSerializer();
  std::vector<NumberSequenceSplit> unassigned =
      connector::readVersionAndDeserialize(serializer, std::string_view(state).substr(1));
  EXPECT_EQ(unassigned, plan[1]);
  EXPECT_EQ(connector::readVersionAndDeserialize(
                serializer, connector::writeVersionAndSerialize(serializer, unassigned)),
            plan[1]);

  // Restored at three readers: reader 1's four splits, round robin, each exactly once.
  RecordingCoordinatorContext after(3);
  std::unique_ptr<connector::detail::SourceCoordinator> restored =
      source.createCoordinator(after, &state);
  restored->start();
  for (int subtask = 0; subtask < 3; ++subtask) restored->addReader(subtask);
  EXPECT_EQ(decodeSplits(source, after.assigned[0]),
            (std::vector<NumberSequenceSplit>{plan[1][0], plan[1][3]}));
  EXPECT_EQ(decodeSplits(source, after.assigned[1]), std::vector<NumberSequenceSplit>{plan[1][1]});
  EXPECT_EQ(decodeSplits(source, after.assigned[2]), std::vector<NumberSequenceSplit>{plan[1][2]});
  EXPECT_EQ(after.noMoreSplits, (std::vector<int>{0, 1, 2}));
  // Nothing is left to hand out twice.
  const std::string drained = restored->snapshotState(2);
  EXPECT_TRUE(connector::readVersionAndDeserialize(serializer, std::string_view(drained).substr(1))
                  .empty());
}

/// The message of the exception `action` throws, which must be an EddyException.
template <typename Action>
std::string errorOf(Action action) {
  try {
    action();
  } catch (const EddyException& error) {
    return error.what();
  }
  return "<no exception>";
}

TEST(SourceCheckpointTest, SplitAndStateBytesOfAnotherVersionOrTruncatedNameTheSource) {
  const NumberSequenceSplitSerializer sequenceSplits;
  const std::string sequenceBytes = sequenceSplits.serialize(NumberSequenceSplit{"7", 10, 99});
  EXPECT_EQ(sequenceSplits.deserialize(1, sequenceBytes), (NumberSequenceSplit{"7", 10, 99}));
  EXPECT_EQ(errorOf([&] { sequenceSplits.deserialize(2, sequenceBytes); }),
            "Cannot read a NumberSequenceSource split: it has format version 2, and this eddy "
            "reads version 1");
  for (size_t length = 0; length < sequenceBytes.size(); ++length) {
    const std::string message =
        errorOf([&] { sequenceSplits.deserialize(1, sequenceBytes.substr(0, length)); });
    EXPECT_EQ(message.rfind("Cannot read a NumberSequenceSource split: ", 0), 0u) << message;
    EXPECT_NE(message.find("(corrupted or truncated)"), std::string::npos) << message;
  }
  EXPECT_NE(errorOf([&] { sequenceSplits.deserialize(1, sequenceBytes + "x"); })
                .find("1 bytes follow its last field"),
            std::string::npos);
  // A split without even its version.
  EXPECT_NE(errorOf([&] { connector::readVersionAndDeserialize(sequenceSplits, ""); })
                .find("they end before their format version"),
            std::string::npos);

  const CollectionSplitSerializer collectionSplits;
  const std::string collectionBytes = collectionSplits.serialize(CollectionSplit{"2", 3, 300, 4});
  EXPECT_EQ(collectionSplits.deserialize(1, collectionBytes), (CollectionSplit{"2", 3, 300, 4}));
  EXPECT_NE(errorOf([&] { collectionSplits.deserialize(3, collectionBytes); })
                .find("CollectionSource split: it has format version 3"),
            std::string::npos);
  const std::string collectionCut = collectionBytes.substr(0, collectionBytes.size() - 1);
  EXPECT_EQ(errorOf([&] { collectionSplits.deserialize(1, collectionCut); }),
            "Cannot read a CollectionSource split: truncated varint in serialized data "
            "(corrupted or truncated)");

  // The enumerator state, and a coordinator restored from bad bytes, name the source too.
  NumberSequenceSource source(1, 100);
  const auto& states = source.getEnumeratorCheckpointSerializer();
  const std::string stateBytes = states.serialize(source.planSplits(1)[0]);
  EXPECT_EQ(errorOf([&] { states.deserialize(1, stateBytes.substr(0, stateBytes.size() - 2)); }),
            "Cannot read the split enumerator state of a NumberSequenceSource: a byte string is "
            "cut off (corrupted or truncated)");
  EXPECT_NE(errorOf([&] { states.deserialize(9, stateBytes); })
                .find("the split enumerator state of a NumberSequenceSource"),
            std::string::npos);
  RecordingCoordinatorContext context(1);
  const std::string badFormat = "\x07" + stateBytes;
  EXPECT_EQ(errorOf([&] { source.createCoordinator(context, &badFormat); }),
            "Cannot restore the split enumerator of source 'Source: numbers': its state has an "
            "unknown format 7");
  const std::string truncated = std::string(1, '\x01') + "\x01" + stateBytes.substr(0, 3);
  EXPECT_EQ(errorOf([&] { source.createCoordinator(context, &truncated); })
                .rfind("Cannot restore the split enumerator of source 'Source: numbers': ", 0),
            0u);
}

/// A checkpoint of a fromSequence job at parallelism 1 taken mid-stream.
std::shared_ptr<const CompletedCheckpoint> sequenceCheckpoint(int64_t last) {
  auto probe = std::make_shared<SinkProbe<int64_t>>();
  probe->blockAfter = 2000;
  SourceJob<int64_t> job(std::make_shared<NumberSequenceSource>(1, last), 1, probe);
  std::shared_ptr<runtime::RunningJob> running = job.start();
  std::shared_ptr<const CompletedCheckpoint> checkpoint = checkpointMidStream(*running, *probe);
  running->cancel();
  running->waitForCompletion();
  return checkpoint;
}

/// The message with which a restored job of `source` fails.
template <typename T>
std::string restoreFailure(std::shared_ptr<const Source<T>> source,
                           std::shared_ptr<const CompletedCheckpoint> checkpoint) {
  SourceJob<T> job(std::move(source), 1, std::make_shared<SinkProbe<T>>());
  try {
    job.start(std::move(checkpoint))->waitForCompletion();
  } catch (const EddyException& error) {
    return error.what();
  }
  return "<no failure>";
}

TEST(SourceCheckpointTest, ARestoreWithCorruptedReaderSplitsFailsNamingTheSource) {
  std::shared_ptr<const CompletedCheckpoint> checkpoint = sequenceCheckpoint(200'000);
  ASSERT_TRUE(checkpoint);
  auto corrupted = std::make_shared<CompletedCheckpoint>(*checkpoint);
  const std::string blobName = std::string(state::kOperatorListStatePrefix) +
                               std::string(connector::detail::kSourceReaderStateName);
  std::string& blob = corrupted->operators.at("source").at(0).operatorState.at(blobName);
  state::OperatorListStateBlob list = state::decodeOperatorListState(blob);
  ASSERT_FALSE(list.elements.empty());
  const std::string cut(list.elements[0].substr(0, list.elements[0].size() - 3));
  std::vector<std::string_view> elements = list.elements;
  elements[0] = cut;
  std::string rewritten;
  state::encodeOperatorListState(list.mode, elements, rewritten);
  blob = std::move(rewritten);

  const std::string message =
      restoreFailure<int64_t>(std::make_shared<NumberSequenceSource>(1, 200'000), corrupted);
  EXPECT_NE(message.find("operator 'Source: numbers'"), std::string::npos) << message;
  EXPECT_NE(message.find("Source 'Source: numbers' cannot read a split: Cannot read a "
                         "NumberSequenceSource split"),
            std::string::npos)
      << message;
}

TEST(SourceCheckpointTest, ARestoreWithoutTheEnumeratorStateIsRefused) {
  std::shared_ptr<const CompletedCheckpoint> checkpoint = sequenceCheckpoint(200'000);
  ASSERT_TRUE(checkpoint);
  auto withoutEnumerator = std::make_shared<CompletedCheckpoint>(*checkpoint);
  withoutEnumerator->sourceCoordinators.clear();
  EXPECT_EQ(restoreFailure<int64_t>(std::make_shared<NumberSequenceSource>(1, 200'000),
                                    withoutEnumerator),
            "Cannot restore source 'Source: numbers' (uid source) from checkpoint 1: the "
            "checkpoint holds the splits of its readers but not the state of its split "
            "enumerator");
}

TEST(SourceCheckpointTest, ACollectionRestoredWithFewerElementsIsRefused) {
  auto probe = std::make_shared<SinkProbe<std::string>>();
  probe->blockAfter = 3000;
  std::shared_ptr<const CompletedCheckpoint> checkpoint;
  {
    SourceJob<std::string> job(std::make_shared<CollectionSource<std::string>>(words(100'000)), 1,
                               probe);
    std::shared_ptr<runtime::RunningJob> running = job.start();
    checkpoint = checkpointMidStream(*running, *probe);
    running->cancel();
    running->waitForCompletion();
  }
  ASSERT_TRUE(checkpoint);
  const std::string message = restoreFailure<std::string>(
      std::make_shared<CollectionSource<std::string>>(words(10)), checkpoint);
  EXPECT_NE(message.find("Cannot restore a CollectionSource: its split"), std::string::npos)
      << message;
  EXPECT_NE(message.find("but the collection has 10 elements"), std::string::npos) << message;
}

/// Every record a legacy reader emits until its end.
template <typename T>
std::vector<T> readAll(SourceReader<T>& reader) {
  operators::BatchReaderOutput<T> output;
  std::vector<T> records;
  for (int polls = 0; polls < 100'000; ++polls) {
    InputStatus status = reader.pollNext(output);
    auto batch = output.take();
    records.insert(records.end(), batch->records.begin(), batch->records.end());
    if (status == InputStatus::END_OF_INPUT) break;
  }
  return records;
}

TEST(SourceCheckpointTest, TheLegacyReaderOfASplitSourceReadsItsFreshStartShare) {
  // As before the split shape: contiguous ranges for sequences, every n-th element for
  // collections, in order.
  const NumberSequenceSource sequence(1, 10);
  const Source<int64_t>& sequenceBase = sequence;
  EXPECT_EQ(readAll(*sequenceBase.createReader(0, 3)), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(readAll(*sequenceBase.createReader(1, 3)), (std::vector<int64_t>{4, 5, 6}));
  EXPECT_EQ(readAll(*sequenceBase.createReader(2, 3)), (std::vector<int64_t>{7, 8, 9, 10}));
  const CollectionSource<std::string> collection({"a", "b", "c", "d", "e", "f", "g"});
  const Source<std::string>& collectionBase = collection;
  EXPECT_EQ(readAll(*collectionBase.createReader(0, 1)),
            (std::vector<std::string>{"a", "b", "c", "d", "e", "f", "g"}));
  EXPECT_EQ(readAll(*collectionBase.createReader(1, 3)), (std::vector<std::string>{"b", "e"}));
  EXPECT_EQ(readAll(*collectionBase.createReader(3, 9)), std::vector<std::string>{"d"});
  EXPECT_TRUE(readAll(*collectionBase.createReader(8, 9)).empty());
}

}  // namespace
}  // namespace eddy
