// The rank operator's state in checkpoints: a subtask snapshotted midway and restored into a
// fresh operator goes on exactly as the uninterrupted one — Top-2 with the rank number over an
// insert-only and over an updating input (rows kept before the checkpoint pushed out of the top
// or retracted after it, with Flink's -U/+U/-D), the deduplications (keeping the last row by
// time; keeping the first row on processing time, whose state is a ValueState), and the window
// Top-N (its buffered windows and its watermark: a row of a window emitted before the
// checkpoint is late after it); a restore at another parallelism splits the partitions by key
// group (and merges them back); truncated bytes are refused naming the state; with a state TTL
// each partition's last write is restored, so expiry goes on from it.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/rank/rank_operator.h"
#include "runtime/operators/tests/checkpoint_test_harness.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {

using relational::RankKind;
using relational::SortKey;
namespace {

using testing::Rows;

LogicalTypePtr itemType() { return parseLogicalType("ROW<k STRING, item STRING, score INT>"); }

/// ROW_NUMBER() OVER (PARTITION BY k ORDER BY score DESC) <= 2, with the rank number.
std::shared_ptr<const RankSpec> topTwoSpec(bool inputInsertOnly) {
  auto spec = std::make_shared<RankSpec>();
  spec->inputRowType = itemType();
  spec->partitionKeys = {0};
  spec->sortKeys = {SortKey{2, false, false}};
  spec->rankKind = RankKind::ROW_NUMBER;
  spec->rankEnd = 2;
  spec->outputRankNumber = true;
  spec->inputInsertOnly = inputInsertOnly;
  spec->outputRowType =
      parseLogicalType("ROW<k STRING, item STRING, score INT, rn BIGINT NOT NULL>");
  return spec;
}

/// One RankOperator subtask, as subtask `subtask` (restored from its snapshots where given).
class RankHarness : public testing::OneInputOperatorTestHarness<RankOperator> {
 public:
  RankHarness(const std::shared_ptr<const RankSpec>& spec, testing::SubtaskOptions subtask = {},
              const Clock* clock = &SystemClock::instance())
      : OneInputOperatorTestHarness(std::make_unique<RankOperator>(spec), spec->inputRowType,
                                    {.operatorName = "Rank", .clock = clock},
                                    std::move(subtask)) {}
  size_t stateRows() const { return operatorUnderTest().stateRows(); }
};

using Script = testing::Script<RankHarness>;

/// Makes harnesses of `spec`, as expectRestoreChangesNothing asks.
auto harnesses(std::shared_ptr<const RankSpec> spec) {
  return [spec](testing::SubtaskOptions subtask) {
    return std::make_unique<RankHarness>(spec, std::move(subtask));
  };
}

// Insert-only input: only the top two rows are kept. After the restore a higher row pushes the
// pre-checkpoint row (a, x, 10) out of rank 2, every rank changing by -U/+U, as Flink's
// AppendOnlyTopNFunction emits it.
TEST(RankCheckpointTest, TopTwoOverInsertOnlyInputPushesAPreCheckpointRowOut) {
  Script before = [](RankHarness& rank) {
    return rank.push({Row::of("a", "x", 10), Row::of("a", "y", 20), Row::of("b", "z", 5)});
  };
  Script after = [](RankHarness& rank) {
    return testing::concat({rank.push({Row::of("a", "w", 30)}), rank.push({Row::of("a", "v", 15)}),
                            rank.push({Row::of("b", "u", 7)}), rank.finish()});
  };
  {
    RankHarness rank(topTwoSpec(true));
    EXPECT_EQ(before(rank), (Rows{"+I[a, x, 10, 1]", "-U[a, x, 10, 1]", "+U[a, y, 20, 1]",
                                  "+I[a, x, 10, 2]", "+I[b, z, 5, 1]"}));
    EXPECT_EQ(rank.stateRows(), 3u);
  }
  EXPECT_EQ(
      testing::expectRestoreChangesNothing<RankHarness>(harnesses(topTwoSpec(true)), before, after),
      (Rows{"-U[a, y, 20, 1]", "+U[a, w, 30, 1]", "-U[a, x, 10, 2]", "+U[a, y, 20, 2]",
            "-U[b, z, 5, 1]", "+U[b, u, 7, 1]", "+I[b, z, 5, 2]"}));
}

// Updating input: every live row is kept, also (a, q, 5) below the top. After the restore the
// retraction of the pre-checkpoint top row moves the others up (-U/+U per rank), deleting the
// last rank when no row is left for it (-D), as Flink's RetractableTopNFunction.
TEST(RankCheckpointTest, TopTwoOverUpdatingInputRetractsPreCheckpointRows) {
  Script before = [](RankHarness& rank) {
    return rank.push({Row::of("a", "x", 10), Row::of("a", "y", 20), Row::of("a", "q", 5)});
  };
  Script after = [](RankHarness& rank) {
    return testing::concat({rank.push({Row::ofKind(RowKind::UPDATE_BEFORE, "a", "y", 20)}),
                            rank.push({Row::ofKind(RowKind::DELETE, "a", "x", 10)}),
                            rank.push({Row::of("a", "m", 50)}), rank.finish()});
  };
  {
    RankHarness rank(topTwoSpec(false));
    EXPECT_EQ(before(rank),
              (Rows{"+I[a, x, 10, 1]", "-U[a, x, 10, 1]", "+U[a, y, 20, 1]", "+I[a, x, 10, 2]"}));
    EXPECT_EQ(rank.stateRows(), 3u);
  }
  EXPECT_EQ(testing::expectRestoreChangesNothing<RankHarness>(harnesses(topTwoSpec(false)), before,
                                                              after),
            (Rows{"-U[a, y, 20, 1]", "+U[a, x, 10, 1]", "-U[a, x, 10, 2]", "+U[a, q, 5, 2]",
                  "-U[a, x, 10, 1]", "+U[a, q, 5, 1]", "-D[a, q, 5, 2]", "-U[a, q, 5, 1]",
                  "+U[a, m, 50, 1]", "+I[a, q, 5, 2]"}));
}

// Deduplication keeping the last row by time (ORDER BY ts DESC): the row held before the
// checkpoint is replaced after it by a row of a later or equal time, not by an earlier one.
TEST(RankCheckpointTest, DeduplicationKeepsTheRowHeldBeforeTheCheckpoint) {
  auto spec = std::make_shared<RankSpec>();
  spec->inputRowType = parseLogicalType("ROW<k STRING, v INT, ts BIGINT>");
  spec->partitionKeys = {0};
  spec->sortKeys = {SortKey{2, false, false}};
  spec->rankEnd = 1;
  spec->inputInsertOnly = true;
  spec->deduplicate = true;
  spec->outputRowType = spec->inputRowType;
  Script before = [](RankHarness& rank) {
    return rank.push({Row::of("a", 1, int64_t{100}), Row::of("b", 2, int64_t{100})});
  };
  Script after = [](RankHarness& rank) {
    return testing::concat({rank.push({Row::of("a", 3, int64_t{90})}),
                            rank.push({Row::of("a", 4, int64_t{100})}),
                            rank.push({Row::of("b", 5, int64_t{101})}), rank.finish()});
  };
  EXPECT_EQ(testing::expectRestoreChangesNothing<RankHarness>(harnesses(spec), before, after),
            (Rows{"-U[a, 1, 100]", "+U[a, 4, 100]", "-U[b, 2, 100]", "+U[b, 5, 101]"}));
}

// Deduplication keeping the first row on processing time: which keys were seen is the
// ValueState "rows" of the keyed backend, so a key seen before the checkpoint stays seen.
TEST(RankCheckpointTest, FirstRowDeduplicationRemembersTheKeysSeen) {
  auto spec = std::make_shared<RankSpec>();
  spec->inputRowType = parseLogicalType("ROW<k STRING, v INT>");
  spec->partitionKeys = {0};
  spec->sortKeys = {SortKey{1, true, true}};
  spec->rankEnd = 1;
  spec->inputInsertOnly = true;
  spec->keepFirstArrival = true;
  spec->outputRowType = spec->inputRowType;
  Script before = [](RankHarness& rank) {
    return rank.push({Row::of("a", 1), Row::of("b", 2), Row::of("a", 3)});
  };
  Script after = [](RankHarness& rank) {
    return testing::concat({rank.push({Row::of("a", 4), Row::of("c", 5)}),
                            rank.push({Row::of("b", 6)}), rank.finish()});
  };
  EXPECT_EQ(testing::expectRestoreChangesNothing<RankHarness>(harnesses(spec), before, after),
            Rows{"+I[c, 5]"});
}

/// Top-2 of v per k in each window (PARTITION BY k, window_end ORDER BY v DESC), no rank number.
std::shared_ptr<const RankSpec> windowTopTwoSpec() {
  auto spec = std::make_shared<RankSpec>();
  spec->inputRowType = parseLogicalType("ROW<k STRING, window_end TIMESTAMP(3), v INT>");
  spec->partitionKeys = {0, 1};
  spec->sortKeys = {SortKey{2, false, false}};
  spec->rankEnd = 2;
  spec->inputInsertOnly = true;
  spec->windowEndColumn = 1;
  spec->outputRowType = spec->inputRowType;
  return spec;
}

/// A row of windowTopTwoSpec's input in the window ending at `end` ("08:10") on 2020-04-15.
Row windowRow(const char* key, std::string_view end, int value) {
  return Row::of(key, LocalDateTime::parse("2020-04-15T" + std::string(end)), value);
}

int64_t windowTime(std::string_view end) {
  return LocalDateTime::parse("2020-04-15T" + std::string(end)).getMillisecond() - 1;
}

// The windows still buffered come back and fire at the same watermark; the restored watermark
// makes a row of the window fired before the checkpoint late after it.
TEST(RankCheckpointTest, WindowTopNKeepsItsWindowsAndItsWatermark) {
  Script before = [](RankHarness& rank) {
    return testing::concat({rank.push({windowRow("a", "08:10", 1), windowRow("a", "08:10", 3),
                                       windowRow("a", "08:10", 2), windowRow("b", "08:10", 5),
                                       windowRow("a", "08:20", 7)}),
                            rank.watermark(windowTime("08:10"))});
  };
  Script after = [](RankHarness& rank) {
    Rows out = testing::concat({rank.push({windowRow("a", "08:10", 9)}),
                                rank.push({windowRow("a", "08:20", 8), windowRow("a", "08:20", 1),
                                           windowRow("b", "08:30", 4)}),
                                rank.watermark(windowTime("08:20")), rank.finish()});
    EXPECT_EQ(rank.lateRecordsDropped(), 1);
    return out;
  };
  {
    RankHarness rank(windowTopTwoSpec());
    EXPECT_EQ(before(rank), (Rows{"+I[a, 2020-04-15T08:10, 3]", "+I[a, 2020-04-15T08:10, 2]",
                                  "+I[b, 2020-04-15T08:10, 5]"}));
    EXPECT_EQ(rank.stateRows(), 1u);
  }
  EXPECT_EQ(testing::expectRestoreChangesNothing<RankHarness>(harnesses(windowTopTwoSpec()), before,
                                                              after),
            (Rows{"+I[a, 2020-04-15T08:20, 8]", "+I[a, 2020-04-15T08:20, 7]",
                  "+I[b, 2020-04-15T08:30, 4]"}));
}

// A snapshot at parallelism 1 restored at 2: each subtask gets the partitions of its key
// groups; the union of what they emit for the rows the exchange sends them is the uninterrupted
// output; their snapshots restored at parallelism 1 again go on as well.
TEST(RankCheckpointTest, RestoreAtAnotherParallelismSplitsThePartitionsByKeyGroup) {
  const auto spec = topTwoSpec(false);
  std::vector<Row> first, second, third;
  for (int i = 0; i < 16; ++i) {
    const std::string key = "key" + std::to_string(i);
    first.push_back(Row::of(key, "low", 10));
    first.push_back(Row::of(key, "high", 20));
    first.push_back(Row::of(key, "below", 5));
    second.push_back(Row::ofKind(RowKind::DELETE, key, "high", 20));
    third.push_back(Row::of(key, "top", 30));
  }
  const size_t firstSubtaskRows = testing::rowsOfSubtask(first, itemType(), {0}, 0, 2).size();
  ASSERT_GT(firstSubtaskRows, 0u);
  ASSERT_LT(firstSubtaskRows, first.size());  // both subtasks get partitions

  const Rows after = testing::expectRescalingChangesNothing<RankHarness>(
      harnesses(spec), [&](RankHarness& rank) { return rank.push(first); },
      [&](RankHarness& rank, int subtask, int parallelism) {
        return rank.push(testing::rowsOfSubtask(second, itemType(), {0}, subtask, parallelism));
      },
      [&](RankHarness& rank, int, int) {
        EXPECT_EQ(rank.stateRows(), 32u);
        return rank.push(third);
      },
      [](const RankHarness& rank) { return rank.stateRows(); });
  EXPECT_EQ(after.size(), 16u * 4);  // -U/+U at both ranks
}

// With a state TTL each partition's last write is in the snapshot ("_rank/last-writes"):
// after the restore a partition expires the TTL after its last write before the checkpoint,
// not after the restore. A snapshot taken without a TTL restores with the restore's time.
TEST(RankCheckpointTest, AStateTtlGoesOnFromThePartitionsLastWritesAfterARestore) {
  auto spec = std::make_shared<RankSpec>(*topTwoSpec(true));
  spec->stateTtlMillis = 1000;
  ManualClock clock(0);
  OperatorSnapshot snapshot;
  {
    RankHarness rank(spec, {}, &clock);
    EXPECT_EQ(rank.push({Row::of("a", "x", 10)}), (Rows{"+I[a, x, 10, 1]"}));  // at 0
    clock.advance(600);
    EXPECT_EQ(rank.push({Row::of("b", "y", 20)}), (Rows{"+I[b, y, 20, 1]"}));  // at 600
    snapshot = rank.snapshot(1);
  }
  clock.advance(300);  // 900
  RankHarness restored(spec, {.restoredFrom = {snapshot}}, &clock);
  EXPECT_EQ(restored.snapshot(2), snapshot);
  clock.advance(100);  // 1000: a's partition (written at 0) has expired, b's (600) has not
  EXPECT_EQ(restored.push({Row::of("a", "w", 5), Row::of("b", "v", 5)}),
            (Rows{"+I[a, w, 5, 1]", "+I[b, v, 5, 2]"}));

  OperatorSnapshot withoutTtl;
  {
    RankHarness rank(topTwoSpec(true), {}, &clock);
    EXPECT_EQ(rank.push({Row::of("c", "z", 1)}), (Rows{"+I[c, z, 1, 1]"}));
    withoutTtl = rank.snapshot(3);
  }
  RankHarness stamped(spec, {.restoredFrom = {withoutTtl}}, &clock);  // at 1000
  clock.advance(999);
  EXPECT_EQ(stamped.push({Row::of("c", "u", 0)}), (Rows{"+I[c, u, 0, 2]"}));
}

TEST(RankCheckpointTest, TruncatedStateIsRefusedNamingIt) {
  {
    const auto spec = topTwoSpec(false);
    RankHarness rank(spec);
    rank.push({Row::of("a", "x", 10), Row::of("a", "y", 20), Row::of("b", "z", 5)});
    const OperatorSnapshot snapshot = rank.snapshot(1);
    {
      RankHarness restored(spec, {.restoredFrom = {snapshot}});  // intact: restores
      EXPECT_EQ(restored.stateRows(), 3u);
    }
    testing::expectEveryTruncationRefused(
        snapshot, RankOperator::kRowsStateName, "Rank",
        [&](const OperatorSnapshot& cut) { RankHarness restored(spec, {.restoredFrom = {cut}}); });
  }
  const auto spec = windowTopTwoSpec();
  RankHarness rank(spec);
  rank.push({windowRow("a", "08:10", 1), windowRow("a", "08:10", 3), windowRow("b", "08:20", 5)});
  const OperatorSnapshot snapshot = rank.snapshot(1);
  {
    RankHarness restored(spec, {.restoredFrom = {snapshot}});
    EXPECT_EQ(restored.stateRows(), 3u);
  }
  testing::expectEveryTruncationRefused(
      snapshot, RankOperator::kWindowRowsStateName, "Rank",
      [&](const OperatorSnapshot& cut) { RankHarness restored(spec, {.restoredFrom = {cut}}); });
}

}  // namespace
}  // namespace eddy::runtime::operators
