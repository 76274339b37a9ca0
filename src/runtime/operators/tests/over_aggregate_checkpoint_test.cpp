// The over aggregate's partitions in checkpoints: a subtask snapshotted midway and restored into
// a fresh operator goes on exactly as the uninterrupted one — event time (accumulators, the
// rows of a bounded RANGE frame, rows waiting for the watermark, and the watermark: a row late
// before the checkpoint is late after it), ROWS and unbounded frames, processing time (frame
// rows expired by the restored subtask's timers) — a restore at another parallelism splits the
// partitions by key group (and merges them back), a snapshot of another query's calls is
// refused, and truncated bytes are refused naming the state; with a state TTL each partition's
// last write is restored, so expiry goes on from it.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/over/over_aggregate_operator.h"
#include "runtime/operators/tests/checkpoint_test_harness.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {

using function::AggregateCall;
using function::AggregateKind;

using relational::OverFrameUnit;
namespace {

using testing::Rows;

constexpr int64_t kMinute = 60'000;

LogicalTypePtr inputType() {
  return parseLogicalType("ROW<k STRING, ts TIMESTAMP(3), v INT, flag BOOLEAN>");
}

/// An input row: key, wall-clock time on 2020-04-15 ("08:01"), value, flag TRUE.
Row input(const char* key, std::string_view time, int value) {
  return Row::of(key, LocalDateTime::parse("2020-04-15T" + std::string(time)), value, true);
}

/// A processing-time input row (the time column is not read).
Row arrival(const char* key, int value) { return Row::of(key, nullptr, value, true); }

int64_t millis(std::string_view time) {
  return LocalDateTime::parse("2020-04-15T" + std::string(time)).getMillisecond();
}

/// SELECT k, ts, v, flag, SUM(v), COUNT(*), MAX(v) OVER (PARTITION BY k ORDER BY ts <unit>
/// BETWEEN <preceding> PRECEDING AND CURRENT ROW), or only SUM(v) with `onlySum`.
std::shared_ptr<const OverAggregateSpec> overSpec(OverFrameUnit unit,
                                                  std::optional<int64_t> preceding,
                                                  bool processingTime = false,
                                                  bool onlySum = false) {
  auto spec = std::make_shared<OverAggregateSpec>();
  spec->inputRowType = inputType();
  spec->partitionKeys = {0};
  spec->orderColumn = processingTime ? -1 : 1;
  spec->processingTime = processingTime;
  spec->unit = unit;
  spec->preceding = preceding;
  spec->calls = {
      AggregateCall{AggregateKind::SUM, 2, LogicalType::simple(LogicalTypeRoot::INTEGER)}};
  if (!onlySum) {
    spec->calls.push_back(AggregateCall{AggregateKind::COUNT_STAR, -1,
                                        LogicalType::simple(LogicalTypeRoot::BIGINT, false)});
    spec->calls.push_back(
        AggregateCall{AggregateKind::MAX, 2, LogicalType::simple(LogicalTypeRoot::INTEGER)});
  }
  std::vector<RowField> fields = inputType()->getFields();
  for (size_t i = 0; i < spec->calls.size(); ++i) {
    fields.push_back(RowField{"c" + std::to_string(i), spec->calls[i].resultType, std::nullopt});
  }
  spec->outputRowType = LogicalType::row(std::move(fields));
  return spec;
}

/// One OverAggregateOperator subtask, watermarks among the rows as "Watermark[<wall clock>]";
/// as subtask `subtask` (restored from its snapshots where given).
class OverHarness : public testing::OneInputOperatorTestHarness<OverAggregateOperator> {
 public:
  explicit OverHarness(const std::shared_ptr<const OverAggregateSpec>& spec,
                       testing::SubtaskOptions subtask = {},
                       const Clock* clock = &SystemClock::instance())
      : OneInputOperatorTestHarness(std::make_unique<OverAggregateOperator>(spec),
                                    spec->inputRowType,
                                    {.operatorName = "OverAggregate",
                                     .clock = clock,
                                     .watermarksAmongRows = testing::printWatermarkWallClock},
                                    std::move(subtask)) {}

  using OneInputOperatorTestHarness::watermark;
  Rows watermark(std::string_view time) { return watermark(millis(time)); }
  size_t stateRows() const { return operatorUnderTest().stateRows(); }
};

using Script = testing::Script<OverHarness>;

/// Makes harnesses of `spec`, as expectRestoreChangesNothing asks.
auto harnesses(std::shared_ptr<const OverAggregateSpec> spec) {
  return [spec](testing::SubtaskOptions subtask) {
    return std::make_unique<OverHarness>(spec, std::move(subtask));
  };
}

// RANGE 2 minutes on event time. At the checkpoint a's frame holds 08:03 (08:01 expired at the
// watermark 08:03), b's 08:02, and a's 08:05 waits; after the restore the frames go on from
// them and a row behind the restored watermark is late.
Script eventTimeBefore = [](OverHarness& over) {
  return testing::concat({over.push({input("a", "08:01", 1), input("a", "08:03", 3),
                                     input("b", "08:02", 2), input("a", "08:05", 5)}),
                          over.watermark("08:03")});
};
Script eventTimeAfter = [](OverHarness& over) {
  Rows out = testing::concat(
      {over.push({input("a", "08:04", 4), input("b", "08:04", 6), input("a", "08:02", 9)}),
       over.watermark("08:05"), over.finish()});
  EXPECT_EQ(over.lateRecordsDropped(), 1);
  return out;
};

TEST(OverAggregateCheckpointTest, EventTimeRangeFrameAndWaitingRowsComeBack) {
  const auto spec = overSpec(OverFrameUnit::RANGE, 2 * kMinute);
  {
    OverHarness over(spec);
    EXPECT_EQ(eventTimeBefore(over),
              (Rows{"+I[a, 2020-04-15T08:01, 1, true, 1, 1, 1]",
                    "+I[a, 2020-04-15T08:03, 3, true, 4, 2, 3]",
                    "+I[b, 2020-04-15T08:02, 2, true, 2, 1, 2]", "Watermark[2020-04-15T08:03]"}));
    EXPECT_EQ(over.stateRows(), 3u);  // a: 08:03 and the waiting 08:05; b: 08:02
  }
  EXPECT_EQ(testing::expectRestoreChangesNothing<OverHarness>(harnesses(spec), eventTimeBefore,
                                                              eventTimeAfter),
            (Rows{"+I[a, 2020-04-15T08:04, 4, true, 7, 2, 4]",
                  "+I[a, 2020-04-15T08:05, 5, true, 12, 3, 5]",
                  "+I[b, 2020-04-15T08:04, 6, true, 8, 2, 6]", "Watermark[2020-04-15T08:05]"}));
}

// ROWS 1 PRECEDING (the last row of the frame), ROWS and RANGE UNBOUNDED (accumulators only).
TEST(OverAggregateCheckpointTest, RowsAndUnboundedFramesComeBack) {
  EXPECT_EQ(testing::expectRestoreChangesNothing<OverHarness>(
                harnesses(overSpec(OverFrameUnit::ROWS, 1)), eventTimeBefore, eventTimeAfter),
            (Rows{"+I[a, 2020-04-15T08:04, 4, true, 7, 2, 4]",
                  "+I[a, 2020-04-15T08:05, 5, true, 9, 2, 5]",
                  "+I[b, 2020-04-15T08:04, 6, true, 8, 2, 6]", "Watermark[2020-04-15T08:05]"}));
  const Rows unbounded{"+I[a, 2020-04-15T08:04, 4, true, 8, 3, 4]",
                       "+I[a, 2020-04-15T08:05, 5, true, 13, 4, 5]",
                       "+I[b, 2020-04-15T08:04, 6, true, 8, 2, 6]", "Watermark[2020-04-15T08:05]"};
  EXPECT_EQ(
      testing::expectRestoreChangesNothing<OverHarness>(
          harnesses(overSpec(OverFrameUnit::ROWS, std::nullopt)), eventTimeBefore, eventTimeAfter),
      unbounded);
  EXPECT_EQ(
      testing::expectRestoreChangesNothing<OverHarness>(
          harnesses(overSpec(OverFrameUnit::RANGE, std::nullopt)), eventTimeBefore, eventTimeAfter),
      unbounded);
}

// RANGE 1000 ms on processing time: the frame rows' arrival times are in the snapshot; the
// restored subtask (whose clock starts at 0 here) expires them by its own timers at the same
// clock times.
TEST(OverAggregateCheckpointTest, ProcessingTimeFrameRowsExpireAfterTheRestore) {
  const auto spec = overSpec(OverFrameUnit::RANGE, 1000, /*processingTime=*/true);
  Script before = [](OverHarness& over) {
    over.advanceProcessingTime(1000);
    Rows out = over.push({arrival("a", 1), arrival("b", 2)});
    over.advanceProcessingTime(1500);
    return testing::concat({out, over.push({arrival("a", 3)})});
  };
  Script after = [](OverHarness& over) {
    Rows out = testing::concat({over.advanceProcessingTime(2200),
                                over.push({arrival("a", 5), arrival("b", 7)}),
                                over.advanceProcessingTime(3000), over.push({arrival("a", 1)})});
    EXPECT_EQ(over.stateRows(), 3u);  // a: 2200 and 3000; b: 2200
    return testing::concat({out, over.finish()});
  };
  {
    OverHarness over(spec);
    EXPECT_EQ(before(over), (Rows{"+I[a, null, 1, true, 1, 1, 1]", "+I[b, null, 2, true, 2, 1, 2]",
                                  "+I[a, null, 3, true, 4, 2, 3]"}));
  }
  EXPECT_EQ(testing::expectRestoreChangesNothing<OverHarness>(harnesses(spec), before, after),
            (Rows{"+I[a, null, 5, true, 8, 2, 5]", "+I[b, null, 7, true, 7, 1, 7]",
                  "+I[a, null, 1, true, 6, 2, 5]"}));
}

// A snapshot at parallelism 1 restored at 2: each subtask gets the partitions of its key
// groups (and the watermark); the union of what they emit for the rows the exchange sends them
// is the uninterrupted output; their snapshots restored at parallelism 1 again go on as well.
TEST(OverAggregateCheckpointTest, RestoreAtAnotherParallelismSplitsThePartitionsByKeyGroup) {
  const auto spec = overSpec(OverFrameUnit::RANGE, 2 * kMinute);
  std::vector<Row> first, second, third;
  for (int i = 0; i < 16; ++i) {
    const std::string key = "key" + std::to_string(i);
    first.push_back(input(key.c_str(), "08:01", i));
    first.push_back(input(key.c_str(), "08:02", 100 + i));
    first.push_back(input(key.c_str(), "08:05", 200 + i));  // waits
    second.push_back(input(key.c_str(), "08:03", 300 + i));
    third.push_back(input(key.c_str(), "08:06", 400 + i));
  }
  const size_t firstSubtaskRows = testing::rowsOfSubtask(first, inputType(), {0}, 0, 2).size();
  ASSERT_GT(firstSubtaskRows, 0u);
  ASSERT_LT(firstSubtaskRows, first.size());  // both subtasks get partitions

  const Rows after = testing::expectRescalingChangesNothing<OverHarness>(
      harnesses(spec),
      [&](OverHarness& over) {
        return testing::concat({over.push(first), over.watermark("08:02")});
      },
      [&](OverHarness& over, int subtask, int parallelism) {
        return testing::concat(
            {over.push(testing::rowsOfSubtask(second, inputType(), {0}, subtask, parallelism)),
             over.watermark("08:05")});
      },
      [&](OverHarness& over, int, int) {
        return testing::concat({over.push(third), over.finish()});
      },
      [](const OverHarness& over) { return over.stateRows(); });
  EXPECT_EQ(testing::sortedRowsOnly(after).size(), 32u);
}

// The snapshot of an over aggregate with three calls restored into one with one call.
TEST(OverAggregateCheckpointTest, ASnapshotOfOtherCallsIsRefused) {
  OverHarness over(overSpec(OverFrameUnit::RANGE, 2 * kMinute));
  over.push({input("a", "08:01", 1)});
  const OperatorSnapshot snapshot = over.snapshot(1);
  try {
    OverHarness restored(overSpec(OverFrameUnit::RANGE, 2 * kMinute, false, /*onlySum=*/true),
                         {.restoredFrom = {snapshot}});
    ADD_FAILURE() << "restored";
  } catch (const ValidationException& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(OverAggregateOperator::kPartitionsStateName), std::string::npos)
        << message;
    EXPECT_NE(message.find("accumulator values"), std::string::npos) << message;
  }
}

// ROWS UNBOUNDED on event time with a state TTL of 1 s (wall clock): the snapshot holds each
// partition's last write, so after the restore a (last written at 0) has expired at 1000 and
// starts afresh while b (written at 600) goes on.
TEST(OverAggregateCheckpointTest, AStateTtlGoesOnFromThePartitionsLastWritesAfterARestore) {
  auto spec = std::make_shared<OverAggregateSpec>(*overSpec(OverFrameUnit::ROWS, std::nullopt));
  spec->stateTtlMillis = 1000;
  ManualClock clock(0);
  OperatorSnapshot snapshot;
  {
    OverHarness over(spec, {}, &clock);
    EXPECT_EQ(testing::concat({over.push({input("a", "08:01", 1), input("b", "08:02", 2)}),
                               over.watermark("08:02")}),
              (Rows{"+I[a, 2020-04-15T08:01, 1, true, 1, 1, 1]",
                    "+I[b, 2020-04-15T08:02, 2, true, 2, 1, 2]", "Watermark[2020-04-15T08:02]"}));
    clock.advance(600);
    EXPECT_EQ(testing::concat({over.push({input("b", "08:03", 3)}), over.watermark("08:03")}),
              (Rows{"+I[b, 2020-04-15T08:03, 3, true, 5, 2, 3]", "Watermark[2020-04-15T08:03]"}));
    snapshot = over.snapshot(1);
  }
  clock.advance(300);  // 900
  OverHarness restored(spec, {.restoredFrom = {snapshot}}, &clock);
  EXPECT_EQ(restored.snapshot(2), snapshot);
  clock.advance(100);  // 1000
  EXPECT_EQ(testing::concat({restored.push({input("a", "08:04", 4), input("b", "08:04", 6)}),
                             restored.watermark("08:04")}),
            (Rows{"+I[a, 2020-04-15T08:04, 4, true, 4, 1, 4]",
                  "+I[b, 2020-04-15T08:04, 6, true, 11, 3, 6]", "Watermark[2020-04-15T08:04]"}));
}

TEST(OverAggregateCheckpointTest, TruncatedStateIsRefusedNamingIt) {
  const auto spec = overSpec(OverFrameUnit::RANGE, 2 * kMinute);
  OverHarness over(spec);
  eventTimeBefore(over);
  const OperatorSnapshot snapshot = over.snapshot(1);
  {
    OverHarness restored(spec, {.restoredFrom = {snapshot}});  // intact: restores
    EXPECT_EQ(restored.stateRows(), 3u);
  }
  testing::expectEveryTruncationRefused(
      snapshot, OverAggregateOperator::kPartitionsStateName, "OverAggregate",
      [&](const OperatorSnapshot& cut) { OverHarness restored(spec, {.restoredFrom = {cut}}); });
}

}  // namespace
}  // namespace eddy::runtime::operators
