// The Sink V2 runtime (connector::detail::SinkWriterOperator, eddy/connector/sink.h) with a fake
// committing sink whose "outside system" records every commit: committables are committed only
// once their checkpoint has completed (an aborted checkpoint's wait for the next completion);
// a restore commits the restored checkpoint's committables again, exactly once in effect (a
// committable committed before is reported as such, never applied twice), and gives the writer
// its state; at another parallelism every committable of the old subtasks is committed by
// exactly one new subtask and every writer state reaches exactly one; the end of input commits
// everything without checkpointing and waits for the final checkpoint with it; a committer's
// retryLater keeps a committable for the next completion; an unknown commit failure fails the
// subtask; bad state bytes are refused naming the sink; sinkTo refuses a committing sink whose
// type hides its committer.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "connectors/tests/sink_subtask.h"
#include "eddy/state/operator_state_store.h"

namespace eddy::connectors {
namespace {

using testing::SinkSubtask;
using testing::SinkSubtaskOptions;

/// What a FakeWriter prepared: the records it flushed since its last prepareCommit.
struct FakeCommittable {
  std::string writerId;
  int64_t sequence = 0;
  std::vector<int64_t> records;
  std::string id() const { return writerId + "/" + std::to_string(sequence); }
  friend bool operator==(const FakeCommittable&, const FakeCommittable&) = default;
};

/// Version 1: `writerId:bytes sequence:i64 count:varint record:i64{count}`.
class FakeCommittableSerializer final
    : public connector::SimpleVersionedSerializer<FakeCommittable> {
 public:
  int getVersion() const override { return 1; }
  std::string serialize(const FakeCommittable& committable) const override {
    connector::SerializedFieldWriter writer;
    writer.writeBytes(committable.writerId);
    writer.writeInt64(committable.sequence);
    writer.writeVarint(committable.records.size());
    for (int64_t record : committable.records) writer.writeInt64(record);
    return writer.take();
  }
  FakeCommittable deserialize(int version, std::string_view bytes) const override {
    connector::checkSerializedVersion(version, 1, "a fake committable");
    connector::SerializedFieldReader reader(bytes, "a fake committable");
    FakeCommittable committable;
    committable.writerId = std::string(reader.readBytes());
    committable.sequence = reader.readInt64();
    const uint64_t count = reader.readVarint();
    if (count > reader.remaining()) reader.fail("it claims too many records");
    for (uint64_t i = 0; i < count; ++i) committable.records.push_back(reader.readInt64());
    reader.expectEnd();
    return committable;
  }
};

/// A FakeWriter's names: its id and the sequence number of its next committable, and the
/// subtask index it had.
struct FakeWriterState {
  std::string writerId;
  int subtask = 0;
  int64_t nextSequence = 0;
  friend bool operator==(const FakeWriterState&, const FakeWriterState&) = default;
};

/// Version 1: `writerId:bytes subtask:varint nextSequence:i64`.
class FakeWriterStateSerializer final
    : public connector::SimpleVersionedSerializer<FakeWriterState> {
 public:
  int getVersion() const override { return 1; }
  std::string serialize(const FakeWriterState& state) const override {
    connector::SerializedFieldWriter writer;
    writer.writeBytes(state.writerId);
    writer.writeVarint(static_cast<uint64_t>(state.subtask));
    writer.writeInt64(state.nextSequence);
    return writer.take();
  }
  FakeWriterState deserialize(int version, std::string_view bytes) const override {
    connector::checkSerializedVersion(version, 1, "a fake writer state");
    connector::SerializedFieldReader reader(bytes, "a fake writer state");
    FakeWriterState state;
    state.writerId = std::string(reader.readBytes());
    state.subtask = static_cast<int>(reader.readVarint());
    state.nextSequence = reader.readInt64();
    reader.expectEnd();
    return state;
  }
};

/// The outside system the fake sink commits to. One test thread.
struct FakeSystem {
  /// Committed committables by id; a commit that finds its id here is a repeated one.
  std::map<std::string, std::vector<int64_t>> committed;
  int applied = 0;           // commits that added a committable
  int alreadyCommitted = 0;  // commits of a committable committed before
  /// The next this many commit requests are answered with retryLater.
  int retryNext = 0;
  /// The retry count of each request seen, in order.
  std::vector<int> retriesSeen;
  bool failUnknown = false;
  int writersCreated = 0;
  /// The states each restoreWriter got, in the order of the calls.
  std::vector<std::vector<FakeWriterState>> restoredStates;

  /// Every committed record, sorted.
  std::vector<int64_t> records() const {
    std::vector<int64_t> all;
    for (const auto& [id, records] : committed)
      all.insert(all.end(), records.begin(), records.end());
    std::sort(all.begin(), all.end());
    return all;
  }
};

class FakeWriter final : public connector::CommittingSinkWriter<int64_t, FakeCommittable>,
                         public connector::StatefulSinkWriter<int64_t, FakeWriterState> {
 public:
  FakeWriter(std::string writerId, int subtask, int64_t nextSequence)
      : writerId_(std::move(writerId)), subtask_(subtask), nextSequence_(nextSequence) {}

  void write(const int64_t& element, const connector::SinkWriterContext&) override {
    buffered_.push_back(element);
  }
  void flush(bool endOfInput) override {
    EXPECT_FALSE(ended_) << "flushed after flush(true)";
    ended_ = endOfInput;
    flushed_.insert(flushed_.end(), buffered_.begin(), buffered_.end());
    buffered_.clear();
  }
  void writeWatermark(int64_t watermark) override { lastWatermark = watermark; }
  // Only flushed records: a prepareCommit without a flush before it loses the buffered ones.
  std::vector<FakeCommittable> prepareCommit() override {
    if (flushed_.empty()) return {};
    return {FakeCommittable{writerId_, nextSequence_++, std::exchange(flushed_, {})}};
  }
  std::vector<FakeWriterState> snapshotState(int64_t) override {
    return {FakeWriterState{writerId_, subtask_, nextSequence_}};
  }

  int64_t lastWatermark = runtime::Watermark::kMin;

 private:
  std::string writerId_;
  int subtask_;
  int64_t nextSequence_;
  std::vector<int64_t> buffered_;
  std::vector<int64_t> flushed_;
  bool ended_ = false;
};

class FakeCommitter final : public connector::Committer<FakeCommittable> {
 public:
  explicit FakeCommitter(FakeSystem& system) : system_(system) {}
  void commit(std::vector<connector::CommitRequest<FakeCommittable>>& requests) override {
    for (connector::CommitRequest<FakeCommittable>& request : requests) {
      system_.retriesSeen.push_back(request.getNumberOfRetries());
      if (system_.failUnknown) {
        request.signalFailedWithUnknownReason("the fake system is down");
        continue;
      }
      if (system_.retryNext > 0) {
        --system_.retryNext;
        request.retryLater();
        continue;
      }
      const FakeCommittable& committable = request.getCommittable();
      if (!system_.committed.emplace(committable.id(), committable.records).second) {
        ++system_.alreadyCommitted;
        request.signalAlreadyCommitted();
        continue;
      }
      ++system_.applied;
    }
  }

 private:
  FakeSystem& system_;
};

class FakeSink final : public connector::Sink<int64_t>,
                       public connector::SupportsCommitter<FakeCommittable>,
                       public connector::SupportsWriterState<int64_t, FakeWriterState> {
 public:
  explicit FakeSink(FakeSystem& system) : system_(system) {}

  std::unique_ptr<connector::SinkWriter<int64_t>> createWriter(
      connector::WriterInitContext& context) const override {
    return newWriter(context, nullptr);
  }
  std::unique_ptr<connector::StatefulSinkWriter<int64_t, FakeWriterState>> restoreWriter(
      connector::WriterInitContext& context,
      std::vector<FakeWriterState> recoveredState) const override {
    system_.restoredStates.push_back(recoveredState);
    const FakeWriterState* own = nullptr;
    for (const FakeWriterState& state : recoveredState) {
      if (state.subtask == context.getSubtaskId()) own = &state;
    }
    return newWriter(context, own);
  }
  std::unique_ptr<connector::Committer<FakeCommittable>> createCommitter(
      connector::CommitterInitContext&) const override {
    return std::make_unique<FakeCommitter>(system_);
  }
  const connector::SimpleVersionedSerializer<FakeCommittable>& getCommittableSerializer()
      const override {
    return committableSerializer_;
  }
  const connector::SimpleVersionedSerializer<FakeWriterState>& getWriterStateSerializer()
      const override {
    return stateSerializer_;
  }

 private:
  // A writer continues the names of the state of its own subtask index; any other gets new ones.
  std::unique_ptr<FakeWriter> newWriter(connector::WriterInitContext& context,
                                        const FakeWriterState* own) const {
    if (own != nullptr)
      return std::make_unique<FakeWriter>(own->writerId, own->subtask, own->nextSequence);
    return std::make_unique<FakeWriter>("w" + std::to_string(system_.writersCreated++),
                                        context.getSubtaskId(), 0);
  }

  FakeSystem& system_;
  FakeCommittableSerializer committableSerializer_;
  FakeWriterStateSerializer stateSerializer_;
};

using FakeSubtask = SinkSubtask<FakeSink>;

std::vector<int64_t> range(int64_t from, int64_t to) {
  std::vector<int64_t> values(static_cast<size_t>(to - from + 1));
  std::iota(values.begin(), values.end(), from);
  return values;
}

TEST(SinkWriterOperatorTest, CommittablesAreCommittedOnlyOnceTheirCheckpointCompletes) {
  FakeSystem system;
  auto sink = std::make_shared<const FakeSink>(system);
  FakeSubtask subtask(sink);

  subtask.write({1, 2});
  subtask.checkpoint(1);
  EXPECT_TRUE(system.committed.empty());  // pending for checkpoint 1
  subtask.write({3});
  subtask.checkpoint(2);
  EXPECT_EQ(subtask.sinkOperator().pendingCommittables(), 2u);

  // Completing 1 commits what was prepared for it, not what came after.
  subtask.complete(1);
  EXPECT_EQ(system.committed, (std::map<std::string, std::vector<int64_t>>{{"w0/0", {1, 2}}}));

  // An aborted checkpoint's committable waits for the next completion, which commits it with
  // its own.
  subtask.abort(2);
  subtask.write({4, 5});
  subtask.checkpoint(3);
  EXPECT_EQ(system.committed.size(), 1u);
  subtask.complete(3);
  EXPECT_EQ(system.committed, (std::map<std::string, std::vector<int64_t>>{
                                  {"w0/0", {1, 2}}, {"w0/1", {3}}, {"w0/2", {4, 5}}}));
  EXPECT_EQ(system.applied, 3);
  EXPECT_EQ(system.alreadyCommitted, 0);
  EXPECT_EQ(subtask.sinkOperator().pendingCommittables(), 0u);

  // A checkpoint without records prepares nothing.
  subtask.watermark(42);
  subtask.checkpoint(4);
  subtask.complete(4);
  EXPECT_EQ(system.applied, 3);
}

TEST(SinkWriterOperatorTest, ARestoreCommitsTheCheckpointsCommittablesAndContinuesTheWriter) {
  // The uninterrupted run.
  FakeSystem reference;
  {
    FakeSubtask subtask(std::make_shared<const FakeSink>(reference));
    subtask.write({1, 2});
    subtask.checkpoint(1);
    subtask.complete(1);
    subtask.write({3, 4});
    subtask.checkpoint(2);
    subtask.complete(2);
    subtask.write({5});
    subtask.checkpoint(3);
    subtask.complete(3);
  }

  FakeSystem system;
  auto sink = std::make_shared<const FakeSink>(system);
  runtime::OperatorSnapshot atTwo;
  {
    FakeSubtask subtask(sink);
    subtask.write({1, 2});
    subtask.checkpoint(1);
    subtask.complete(1);
    subtask.write({3, 4});
    atTwo = subtask.checkpoint(2);  // holds {3, 4}; its completion never reaches the subtask
    subtask.write({5});
    subtask.crash();
  }
  EXPECT_EQ(system.committed, (std::map<std::string, std::vector<int64_t>>{{"w0/0", {1, 2}}}));
  EXPECT_TRUE(atTwo.operatorState.contains(std::string(state::kOperatorListStatePrefix) +
                                           "SinkCommittables"));
  EXPECT_TRUE(atTwo.operatorState.contains(std::string(state::kOperatorListStatePrefix) +
                                           "SinkWriterState"));

  // The restored subtask commits checkpoint 2's committable before it writes anything, and its
  // writer goes on with the names of the state.
  {
    FakeSubtask restored(sink, SinkSubtaskOptions{.restoredFrom = {atTwo}});
    EXPECT_EQ(system.committed,
              (std::map<std::string, std::vector<int64_t>>{{"w0/0", {1, 2}}, {"w0/1", {3, 4}}}));
    ASSERT_EQ(system.restoredStates.size(), 1u);
    EXPECT_EQ(system.restoredStates[0], (std::vector<FakeWriterState>{{"w0", 0, 2}}));
    restored.write({5});  // replayed after the checkpoint
    restored.checkpoint(3);
    restored.complete(3);
  }
  EXPECT_EQ(system.committed, reference.committed);
  EXPECT_EQ(system.records(), range(1, 5));
  EXPECT_EQ(system.applied, 3);

  // A second restore of the same checkpoint (its commit ran already) commits nothing twice.
  {
    FakeSubtask again(sink, SinkSubtaskOptions{.restoredFrom = {atTwo}});
    EXPECT_EQ(system.alreadyCommitted, 1);
  }
  EXPECT_EQ(system.applied, 3);
  EXPECT_EQ(system.records(), range(1, 5));
}

TEST(SinkWriterOperatorTest, ARestoreAtAnotherParallelismCommitsEveryCommittableOnce) {
  FakeSystem system;
  auto sink = std::make_shared<const FakeSink>(system);

  // Two subtasks, each with a committed checkpoint and a pending one in checkpoint 2.
  std::vector<runtime::OperatorSnapshot> atTwo;
  for (int index = 0; index < 2; ++index) {
    FakeSubtask subtask(sink, SinkSubtaskOptions{.subtaskIndex = index, .parallelism = 2});
    subtask.write({index * 100 + 1});
    subtask.checkpoint(1);
    subtask.complete(1);
    subtask.write({index * 100 + 2, index * 100 + 3});
    atTwo.push_back(subtask.checkpoint(2));
    subtask.crash();
  }
  EXPECT_EQ(system.records(), (std::vector<int64_t>{1, 101}));

  // Restored as three: each pending committable is committed by exactly one of them.
  std::vector<runtime::OperatorSnapshot> atThree;
  {
    auto subtasks = testing::restoreSubtasks<FakeSink>(sink, atTwo, 3);
    EXPECT_EQ(system.records(), (std::vector<int64_t>{1, 2, 3, 101, 102, 103}));
    EXPECT_EQ(system.applied, 4);
    EXPECT_EQ(system.alreadyCommitted, 0);
    // Every old writer state reached exactly one new subtask.
    std::multiset<std::string> statesSeen;
    for (const auto& states : system.restoredStates) {
      for (const FakeWriterState& state : states) statesSeen.insert(state.writerId);
    }
    EXPECT_EQ(statesSeen, (std::multiset<std::string>{"w0", "w1"}));
    EXPECT_EQ(system.restoredStates.size(), 3u);
    for (int index = 0; index < 3; ++index) {
      subtasks[static_cast<size_t>(index)]->write({1000 + index});
      atThree.push_back(subtasks[static_cast<size_t>(index)]->checkpoint(3));
    }
    for (auto& subtask : subtasks) subtask->crash();
  }

  // Back to one: it commits the three pending committables of checkpoint 3.
  {
    FakeSubtask merged(sink, SinkSubtaskOptions{.restoredFrom = atThree});
    EXPECT_EQ(system.records(), (std::vector<int64_t>{1, 2, 3, 101, 102, 103, 1000, 1001, 1002}));
    EXPECT_EQ(system.applied, 7);
    EXPECT_EQ(system.alreadyCommitted, 0);
    ASSERT_EQ(system.restoredStates.size(), 4u);
    EXPECT_EQ(system.restoredStates[3].size(), 3u);
  }
}

TEST(SinkWriterOperatorTest, WithoutCheckpointingTheEndOfInputCommitsEverything) {
  for (RuntimeExecutionMode mode : {RuntimeExecutionMode::STREAMING, RuntimeExecutionMode::BATCH}) {
    FakeSystem system;
    FakeSubtask subtask(
        std::make_shared<const FakeSink>(system),
        SinkSubtaskOptions{.mode = mode, .checkpointing = mode == RuntimeExecutionMode::BATCH});
    subtask.write({1, 2, 3});
    EXPECT_TRUE(system.committed.empty());
    subtask.finish();
    EXPECT_FALSE(subtask.needsFinalCheckpoint()) << toString(mode);
    EXPECT_EQ(system.records(), range(1, 3)) << toString(mode);
  }
}

TEST(SinkWriterOperatorTest, WithCheckpointingTheFinalCheckpointCommitsTheRest) {
  FakeSystem system;
  FakeSubtask subtask(std::make_shared<const FakeSink>(system));
  subtask.write({1});
  subtask.checkpoint(1);
  subtask.write({2, 3});
  subtask.finish();
  EXPECT_TRUE(subtask.needsFinalCheckpoint());
  EXPECT_TRUE(system.committed.empty());

  // A checkpoint taken before the end of input completing later commits only its own.
  subtask.complete(1);
  EXPECT_EQ(system.records(), (std::vector<int64_t>{1}));

  // The final checkpoint holds the end of input's committable; its completion commits it.
  const runtime::OperatorSnapshot final = subtask.checkpoint(2);
  EXPECT_EQ(system.records(), (std::vector<int64_t>{1}));
  subtask.complete(2);
  EXPECT_EQ(system.records(), range(1, 3));

  // A restore from the final checkpoint (killed after it completed) adds nothing.
  FakeSubtask restored(std::make_shared<const FakeSink>(system),
                       SinkSubtaskOptions{.restoredFrom = {final}});
  EXPECT_EQ(system.records(), range(1, 3));
  EXPECT_EQ(system.alreadyCommitted, 1);
}

TEST(SinkWriterOperatorTest, ACommittableToRetryStaysPendingUntilTheNextCompletion) {
  FakeSystem system;
  auto sink = std::make_shared<const FakeSink>(system);
  FakeSubtask subtask(sink);
  subtask.write({1});
  subtask.checkpoint(1);
  system.retryNext = 1;
  subtask.complete(1);
  EXPECT_TRUE(system.committed.empty());
  // Still in the next snapshot, and committed (with its retry count) at the next completion.
  const runtime::OperatorSnapshot atTwo = subtask.checkpoint(2);
  subtask.complete(2);
  EXPECT_EQ(system.records(), (std::vector<int64_t>{1}));
  EXPECT_EQ(system.retriesSeen, (std::vector<int>{0, 1}));

  // Without checkpoints the end of input retries a few times, then fails.
  FakeSystem stubborn;
  stubborn.retryNext = 1000;
  FakeSubtask unlucky(std::make_shared<const FakeSink>(stubborn),
                      SinkSubtaskOptions{.checkpointing = false});
  unlucky.write({1});
  try {
    unlucky.finish();
    FAIL() << "the end of input committed what the committer refused";
  } catch (const ConnectorException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Sink 'Sink: Writer' could not commit 1 committables at the end of input: its "
              "committer asked to retry them 10 times");
  }
  EXPECT_EQ(stubborn.retriesSeen.size(), 10u);
}

// The final checkpoint's completion is the last one a finished task sees: a committable the
// committer asks to retry is retried then (not dropped when the task ends), and a committer
// that never commits fails the subtask.
TEST(SinkWriterOperatorTest, AfterTheFinalCheckpointARetryIsRetriedAtOnce) {
  FakeSystem system;
  FakeSubtask subtask(std::make_shared<const FakeSink>(system));
  subtask.write({1, 2});
  subtask.finish();
  subtask.checkpoint(1);
  system.retryNext = 2;
  subtask.complete(1);
  EXPECT_EQ(system.records(), range(1, 2));
  EXPECT_EQ(system.retriesSeen, (std::vector<int>{0, 1, 2}));

  FakeSystem stubborn;
  FakeSubtask unlucky(std::make_shared<const FakeSink>(stubborn));
  unlucky.write({1});
  unlucky.finish();
  unlucky.checkpoint(1);
  stubborn.retryNext = 1000;
  try {
    unlucky.complete(1);
    FAIL() << "the final checkpoint dropped what the committer refused";
  } catch (const ConnectorException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Sink 'Sink: Writer' could not commit 1 committables after the final checkpoint: "
              "its committer asked to retry them 10 times");
  }
}

TEST(SinkWriterOperatorTest, AnUnknownCommitFailureFailsTheSubtask) {
  FakeSystem system;
  FakeSubtask subtask(std::make_shared<const FakeSink>(system));
  subtask.write({1});
  subtask.checkpoint(1);
  system.failUnknown = true;
  try {
    subtask.complete(1);
    FAIL() << "no failure";
  } catch (const ConnectorException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Sink 'Sink: Writer' failed to commit: the fake system is down");
  }
}

TEST(SinkWriterOperatorTest, BadStateBytesAreRefusedNamingTheSink) {
  FakeSystem system;
  auto sink = std::make_shared<const FakeSink>(system);
  runtime::OperatorSnapshot snapshot;
  {
    FakeSubtask subtask(sink);
    subtask.write({1, 2, 3});
    snapshot = subtask.checkpoint(1);
    subtask.crash();
  }
  const std::string committables =
      std::string(state::kOperatorListStatePrefix) + "SinkCommittables";
  const state::OperatorListStateBlob blob =
      state::decodeOperatorListState(snapshot.operatorState.at(committables));
  ASSERT_EQ(blob.elements.size(), 1u);
  const std::string element(blob.elements[0]);

  auto withElement = [&](std::string_view replaced) {
    runtime::OperatorSnapshot cut = snapshot;
    std::string bytes;
    state::encodeOperatorListState(blob.mode, {replaced}, bytes);
    cut.operatorState[committables] = bytes;
    return cut;
  };
  // Every truncation of the element is an InternalError naming the sink and what it read.
  for (size_t keep = 0; keep < element.size(); ++keep) {
    try {
      FakeSubtask restored(
          sink, SinkSubtaskOptions{
                    .restoredFrom = {withElement(std::string_view(element).substr(0, keep))}});
      ADD_FAILURE() << "a committable cut to " << keep << " bytes was restored";
    } catch (const InternalError& error) {
      EXPECT_TRUE(
          std::string(error.what())
              .starts_with("Sink 'Sink: Writer' cannot read its committables: Cannot read a"))
          << error.what();
    }
  }
  // Another element format version is a ValidationException.
  std::string otherVersion = element;
  otherVersion[0] = 2;
  try {
    FakeSubtask restored(sink, SinkSubtaskOptions{.restoredFrom = {withElement(otherVersion)}});
    ADD_FAILURE() << "version 2 was restored";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Sink 'Sink: Writer' cannot read its committables: Cannot read a committable: it "
              "has format version 2, and this eddy reads version 1");
  }
  EXPECT_TRUE(system.committed.empty());
}

TEST(SinkWriterOperatorTest, SinkToRefusesACommittingSinkPassedAsAPlainSink) {
  FakeSystem system;
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);  // the fake system is not thread-safe
  auto stream = env->fromSequence(1, 3);
  std::shared_ptr<connector::Sink<int64_t>> hidden = std::make_shared<FakeSink>(system);
  try {
    stream.sinkTo(hidden);
    FAIL() << "sinkTo took a sink whose committer it cannot see";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "sinkTo got a sink whose committer or writer state its type hides; pass the sink "
              "as std::shared_ptr of its own class.");
  }
  stream.sinkTo(std::make_shared<FakeSink>(system)).name("fake");
  env->execute("fake sink");
  EXPECT_EQ(system.records(), range(1, 3));
}

}  // namespace
}  // namespace eddy::connectors
