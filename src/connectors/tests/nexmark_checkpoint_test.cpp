// The nexmark source is replayable: a job checkpointed mid-stream and restored into a new job,
// at the same and at another parallelism, ends with every event exactly once over the
// checkpoint's rows and the restored run's, each equal to the event the uninterrupted first run
// generated (and to what one reader of the source generates alone: fresh starts are unchanged);
// restored at a lower parallelism, a reader reads its splits in block order, so its event time
// does not go back; a table whose events.num differs is refused; the split format round trips
// and names the source when it cannot be read. Fresh starts are covered by nexmark_test.cpp.
// The jobs run on the harness of source_checkpoint_harness.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "connectors/nexmark/nexmark_factory.h"
#include "connectors/nexmark/nexmark_source.h"
#include "connectors/tests/connector_test_support.h"
#include "connectors/tests/source_checkpoint_harness.h"
#include "eddy/types/temporal.h"

namespace eddy::connectors {
namespace {

using testing::collectChunks;
using testing::rowsOf;
using testing::tableContext;

// 2015-07-15 00:00:00 UTC, the default event time of event 0.
constexpr int64_t kBaseMillis = 1'436'918'400'000;
// 100 blocks of 1024 events; at 1000 events per second of event time event n is at
// kBaseMillis + n, so every row (its dateTime column set) is distinct and names its event.
constexpr int64_t kEvents = 102'400;
constexpr size_t kBlockAfter = 8 * 1024;  // rows per sink subtask before the checkpoint

// Every column kind: ids, random prices and strings (channels, item names), timestamps.
std::shared_ptr<Source<vector::Chunk>> nexmark(int64_t events = kEvents) {
  ConnectorContext context =
      tableContext(nexmarkPhysicalRowType(), {{"connector", "nexmark"},
                                              {"events.num", std::to_string(events)},
                                              {"first-event.rate", "1000"},
                                              {"seed", "7"}});
  auto table = FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(context);
  table->applyProjection(
      {{0}, {1, 6}, {2, 5}, {3, 5}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {3, 2}, {3, 3}});
  return table->createSource();
}

// The event number of a row of nexmark(): its dateTime (columns 1..3, one of them set).
int64_t eventNumberOf(const Row& row) {
  for (int column = 1; column <= 3; ++column) {
    const Value& value = row.getField(column);
    if (!value.isNull()) return value.get<LocalDateTime>().getMillisecond() - kBaseMillis;
  }
  return -1;
}

// What one reader of the whole stream generates, printed and sorted.
std::vector<std::string> referenceRows() {
  std::vector<std::string> rows;
  for (const Row& row : rowsOf(collectChunks(nexmark(), 1))) rows.push_back(row.toString());
  std::sort(rows.begin(), rows.end());
  return rows;
}

void expectRestoredEventsEqualTheUninterruptedRun(int before, int after) {
  SCOPED_TRACE("parallelism " + std::to_string(before) + " -> " + std::to_string(after));
  testing::CheckpointedRuns runs =
      testing::runCheckpointedAndRestored([] { return nexmark(); }, before, after, kBlockAfter);
  const std::vector<std::string> expected = referenceRows();
  ASSERT_EQ(expected.size(), static_cast<size_t>(kEvents));
  testing::expectEveryRowOnceAsUninterrupted(runs, expected, before, kBlockAfter);
}

TEST(NexmarkCheckpointTest, RestoredEventsContinueTheCheckpointedRun) {
  expectRestoredEventsEqualTheUninterruptedRun(2, 2);
  expectRestoredEventsEqualTheUninterruptedRun(1, 1);
}

TEST(NexmarkCheckpointTest, RestoredAtAnotherParallelismTheSplitsContinueWhole) {
  expectRestoredEventsEqualTheUninterruptedRun(2, 1);
  expectRestoredEventsEqualTheUninterruptedRun(1, 3);
  expectRestoredEventsEqualTheUninterruptedRun(3, 2);
}

TEST(NexmarkCheckpointTest, AReaderWithSeveralSplitsReadsThemInBlockOrder) {
  // At 2 subtasks each checkpoint holds 8 blocks per subtask: subtask 0 read blocks 0, 2, ..,
  // 14 and goes on at 16, subtask 1 read 1, 3, .., 15 and goes on at 17. Restored at 1, the
  // reader has both splits and reads blocks 16, 17, 18, ..: events 16384 .. kEvents - 1 in
  // order, so its event time never goes back.
  testing::CheckpointedRuns runs = testing::runCheckpointedAndRestored(
      [] { return nexmark(); }, 2, 1, kBlockAfter, eventNumberOf);
  ASSERT_TRUE(runs.checkpoint);
  ASSERT_EQ(runs.checkpointed, 2 * kBlockAfter);
  std::vector<int64_t> expected;
  for (int64_t event = 16 * 1024; event < kEvents; ++event) expected.push_back(event);
  ASSERT_EQ(runs.restoredReceivedKeys.size(), expected.size());
  EXPECT_TRUE(runs.restoredReceivedKeys == expected);
}

TEST(NexmarkCheckpointTest, ARestoreIntoATableWithOtherEventsNumIsRefused) {
  auto first = std::make_shared<testing::SinkProbe>();
  first->blockAfter = kBlockAfter;
  std::shared_ptr<const runtime::CompletedCheckpoint> checkpoint;
  {
    std::vector<std::unique_ptr<runtime::Transformation>> nodes;
    auto job = testing::startSourceCheckpointJob(nexmark(), 1, first, nullptr, nodes);
    checkpoint = testing::checkpointEverySubtaskMidStream(*job, *first, 1);
    job->cancel();
    job->waitForCompletion();
  }
  ASSERT_TRUE(checkpoint);
  auto second = std::make_shared<testing::SinkProbe>();
  std::vector<std::unique_ptr<runtime::Transformation>> nodes;
  auto job = testing::startSourceCheckpointJob(nexmark(2 * kEvents), 1, second, checkpoint, nodes);
  try {
    job->waitForCompletion();
    ADD_FAILURE() << "the restore with another events.num did not fail";
  } catch (const JobExecutionException& error) {
    EXPECT_NE(std::string(error.what())
                  .find("Cannot restore a nexmark source: its split '0' ends at event 102400, "
                        "but the table's 'events.num' gives 204800 (a restored job needs the "
                        "same 'events.num')"),
              std::string::npos)
        << error.what();
  }
}

TEST(NexmarkCheckpointTest, SplitBytesRoundTripAndNameTheSourceWhenTheyCannotBeRead) {
  auto source = std::dynamic_pointer_cast<NexmarkSource>(nexmark());
  ASSERT_TRUE(source);
  std::vector<std::vector<NexmarkSplit>> plan = source->planSplits(3);
  ASSERT_EQ(plan.size(), 3u);
  ASSERT_EQ(plan[1].size(), 1u);
  EXPECT_EQ(plan[1][0], (NexmarkSplit{"1", 1, 3, kEvents}));  // blocks 1, 4, 7, ..
  // An unbounded source's splits end at INT64_MAX; a subtask without blocks gets none.
  auto unbounded = std::dynamic_pointer_cast<NexmarkSource>(nexmark(0));
  ASSERT_TRUE(unbounded);
  EXPECT_EQ(unbounded->planSplits(2)[0][0].endEvent, std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(std::dynamic_pointer_cast<NexmarkSource>(nexmark(1000))->planSplits(2)[1].empty());

  NexmarkSplit split{"1", 31, 3, kEvents};
  const auto& serializer = source->getSplitSerializer();
  const std::string bytes = serializer.serialize(split);
  EXPECT_EQ(serializer.deserialize(1, bytes), split);
  auto errorOf = [&](int version, const std::string& serialized) -> std::string {
    try {
      serializer.deserialize(version, serialized);
    } catch (const EddyException& error) {
      return error.what();
    }
    return "<no exception>";
  };
  EXPECT_EQ(errorOf(2, bytes),
            "Cannot read a NexmarkSource split: it has format version 2, and this eddy reads "
            "version 1");
  EXPECT_EQ(
      errorOf(1, bytes.substr(0, bytes.size() - 3)).rfind("Cannot read a NexmarkSource split: ", 0),
      0u);
  EXPECT_EQ(errorOf(1, bytes + "x"),
            "Cannot read a NexmarkSource split: 1 bytes follow its last field (corrupted or "
            "truncated)");
  auto splitBytes = [](int64_t nextBlock, uint64_t stride) {
    connector::SerializedFieldWriter writer;
    writer.writeBytes("0");
    writer.writeInt64(nextBlock);
    writer.writeVarint(stride);
    writer.writeInt64(kEvents);
    return writer.take();
  };
  EXPECT_EQ(serializer.deserialize(1, splitBytes(5, 2)), (NexmarkSplit{"0", 5, 2, kEvents}));
  EXPECT_EQ(errorOf(1, splitBytes(5, 0)),
            "Cannot read a NexmarkSource split: its block stride 0 is out of range (corrupted "
            "or truncated)");
  EXPECT_EQ(errorOf(1, splitBytes(-1, 2)),
            "Cannot read a NexmarkSource split: its next block -1 or its end event 102400 is "
            "negative (corrupted or truncated)");

  // The enumerator's state: the splits not assigned yet, each versioned.
  const auto& stateSerializer = source->getEnumeratorCheckpointSerializer();
  const std::vector<NexmarkSplit> unassigned = {split, NexmarkSplit{"2", 2, 3, kEvents}};
  EXPECT_EQ(stateSerializer.deserialize(1, stateSerializer.serialize(unassigned)), unassigned);
  try {
    stateSerializer.deserialize(2, stateSerializer.serialize(unassigned));
    ADD_FAILURE() << "version 2 was read";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Cannot read the split enumerator state of a NexmarkSource: it has format version "
              "2, and this eddy reads version 1");
  }
}

}  // namespace
}  // namespace eddy::connectors
