// The interval join over chunks, through a harness that drives one subtask directly (rows on
// either side in a chosen order, watermarks, a manual processing-time clock): inclusive bounds,
// negative bounds, out-of-order rows, release of state by the watermark, late rows, padding of
// LEFT/RIGHT/FULL rows at release and at finish(), residual conditions, NULL keys and times,
// processing time, the held-back output watermark; BATCH results, and STREAMING equal to BATCH
// on generated data and in whole jobs.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/chunk_exchange.h"
#include "runtime/operators/join/interval_join_operator.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {

using relational::JoinType;
using relational::joinTypeName;
namespace {

using testing::Rows;

constexpr int64_t kHour = 3'600'000;

LogicalTypePtr leftType() { return parseLogicalType("ROW<lk STRING, lt BIGINT, lv INT>"); }
LogicalTypePtr rightType() { return parseLogicalType("ROW<rk STRING, rt BIGINT, rv INT>"); }
LogicalTypePtr outputType() {
  return parseLogicalType("ROW<lk STRING, lt BIGINT, lv INT, rk STRING, rt BIGINT, rv INT>");
}

/// ROW<lk, lt, lv> ⋈ ROW<rk, rt, rv> on lk = rk and lt + lower <= rt <= lt + upper, and
/// `condition` (over lk, lt, lv, rk, rt, rv) when given.
std::shared_ptr<const IntervalJoinSpec> intervalSpec(JoinType type, int64_t lower, int64_t upper,
                                                     expression::ExpressionPtr condition = nullptr,
                                                     bool processingTime = false) {
  auto spec = std::make_shared<IntervalJoinSpec>();
  spec->joinType = type;
  spec->leftRowType = leftType();
  spec->rightRowType = rightType();
  spec->leftKeys = {0};
  spec->rightKeys = {0};
  spec->leftTimeColumn = 1;
  spec->rightTimeColumn = 1;
  spec->lowerBound = lower;
  spec->upperBound = upper;
  spec->condition = std::move(condition);
  spec->processingTime = processingTime;
  spec->outputRowType = outputType();
  return spec;
}

/// lv < rv over the joined row.
expression::ExpressionPtr leftValueBelowRightValue() {
  auto intType = LogicalType::simple(LogicalTypeRoot::INTEGER);
  return expression::call("<", {expression::column(2, intType), expression::column(5, intType)});
}

/// Drives one IntervalJoinOperator subtask (Flink's KeyedTwoInputStreamOperatorTestHarness).
class IntervalJoinHarness : public testing::TwoInputOperatorTestHarness<IntervalJoinOperator> {
 public:
  explicit IntervalJoinHarness(std::shared_ptr<const IntervalJoinSpec> spec,
                               RuntimeExecutionMode mode = RuntimeExecutionMode::STREAMING,
                               bool withMetrics = true)
      : TwoInputOperatorTestHarness(
            std::make_unique<IntervalJoinOperator>(std::move(spec)), leftType(), rightType(),
            {.operatorName = "IntervalJoin", .mode = mode, .withMetrics = withMetrics}) {}

  Rows advanceClock(int64_t time) { return advanceProcessingTime(time); }
  size_t bufferedRows() const { return operatorUnderTest().bufferedRows(); }
};

Rows sorted(Rows rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(IntervalJoinTest, InnerJoinBoundsAreInclusiveOnBothSides) {
  // rt BETWEEN lt - 5 AND lt + 10.
  IntervalJoinHarness join(intervalSpec(JoinType::INNER, -5, 10));
  EXPECT_EQ(join.left({Row::of("a", 100, 1)}), Rows{});
  EXPECT_EQ(join.right({Row::of("a", 94, 10), Row::of("a", 95, 11), Row::of("a", 110, 12),
                        Row::of("a", 111, 13)}),
            (Rows{"+I[a, 100, 1, a, 95, 11]", "+I[a, 100, 1, a, 110, 12]"}));
  // The same bounds seen from a stored right row.
  EXPECT_EQ(join.right({Row::of("b", 100, 20)}), Rows{});
  EXPECT_EQ(join.left({Row::of("b", 89, 1), Row::of("b", 90, 2), Row::of("b", 105, 3),
                       Row::of("b", 106, 4)}),
            (Rows{"+I[b, 90, 2, b, 100, 20]", "+I[b, 105, 3, b, 100, 20]"}));
  EXPECT_EQ(join.bufferedRows(), 10u);
  EXPECT_EQ(join.finish(), Rows{});
  EXPECT_EQ(join.bufferedRows(), 0u);
}

TEST(IntervalJoinTest, NegativeLowerBoundFromBetween) {
  // l.t BETWEEN r.t - INTERVAL '1' HOUR AND r.t + INTERVAL '2' HOUR
  //   <=> l.t - 2 h <= r.t <= l.t + 1 h.
  IntervalJoinHarness join(intervalSpec(JoinType::INNER, -2 * kHour, kHour));
  EXPECT_EQ(join.left({Row::of("k", 10 * kHour, 1)}), Rows{});
  EXPECT_EQ(join.right({Row::of("k", 8 * kHour - 1, 1), Row::of("k", 8 * kHour, 2),
                        Row::of("k", 11 * kHour, 3), Row::of("k", 11 * kHour + 1, 4)}),
            (Rows{"+I[k, 36000000, 1, k, 28800000, 2]", "+I[k, 36000000, 1, k, 39600000, 3]"}));
  EXPECT_EQ(join.bufferedRows(), 5u);
  // The left row goes at 10 h + 1 h, a right row at its time + 2 h; the output watermark is
  // held back by max(1 h, 2 h).
  EXPECT_EQ(join.watermark(12 * kHour), Rows{});
  EXPECT_EQ(join.bufferedRows(), 2u);
  EXPECT_EQ(join.takeWatermarks(), std::vector<int64_t>{10 * kHour});

  // Both bounds negative: rt BETWEEN lt - 10 AND lt - 5.
  IntervalJoinHarness before(intervalSpec(JoinType::INNER, -10, -5));
  EXPECT_EQ(before.left({Row::of("k", 100, 1)}), Rows{});
  EXPECT_EQ(before.right({Row::of("k", 89, 1), Row::of("k", 90, 2), Row::of("k", 95, 3),
                          Row::of("k", 96, 4)}),
            (Rows{"+I[k, 100, 1, k, 90, 2]", "+I[k, 100, 1, k, 95, 3]"}));
  // The left row is released at 100 - 5 (no right row after 95 can join it).
  EXPECT_EQ(before.watermark(95), Rows{});
  EXPECT_EQ(before.bufferedRows(), 4u);
  EXPECT_EQ(before.takeWatermarks(), std::vector<int64_t>{85});
}

TEST(IntervalJoinTest, WatermarkDelayIsTheLargerRelativeSize) {
  auto delay = [](int64_t lower, int64_t upper) {
    return intervalJoinWatermarkDelay(*intervalSpec(JoinType::INNER, lower, upper));
  };
  EXPECT_EQ(delay(-5, 10), 10);
  EXPECT_EQ(delay(-10, 5), 10);
  EXPECT_EQ(delay(-10, -5), 10);
  EXPECT_EQ(delay(1, 2), 2);
  EXPECT_EQ(delay(0, 0), 0);
}

TEST(IntervalJoinTest, OutOfOrderRowsWithinTheWatermarkStillJoin) {
  // rt BETWEEN lt AND lt + 10.
  IntervalJoinHarness join(intervalSpec(JoinType::INNER, 0, 10));
  EXPECT_EQ(join.watermark(100), Rows{});
  EXPECT_EQ(join.left({Row::of("a", 150, 1)}), Rows{});
  EXPECT_EQ(join.left({Row::of("a", 120, 2)}), Rows{});  // out of order
  EXPECT_EQ(join.left({Row::of("a", 95, 3)}), Rows{});   // behind the watermark, not late
  EXPECT_EQ(join.right({Row::of("a", 125, 10)}), Rows{"+I[a, 120, 2, a, 125, 10]"});
  EXPECT_EQ(join.right({Row::of("a", 101, 11)}), Rows{"+I[a, 95, 3, a, 101, 11]"});
  EXPECT_EQ(join.right({Row::of("a", 155, 12)}), Rows{"+I[a, 150, 1, a, 155, 12]"});
  // At the watermark: joins what is stored, is not stored itself (no left row can come).
  EXPECT_EQ(join.right({Row::of("a", 100, 13)}), Rows{"+I[a, 95, 3, a, 100, 13]"});
  EXPECT_EQ(join.bufferedRows(), 6u);
  EXPECT_EQ(join.lateRecordsDropped(), 0);
  // A right row matching several stored left rows sees them in time order.
  EXPECT_EQ(join.right({Row::of("a", 130, 14)}), (Rows{"+I[a, 120, 2, a, 130, 14]"}));
  EXPECT_EQ(join.right({Row::of("a", 105, 15)}), Rows{"+I[a, 95, 3, a, 105, 15]"});
}

TEST(IntervalJoinTest, StateIsReleasedOnceTheWatermarkPasses) {
  IntervalJoinHarness join(intervalSpec(JoinType::INNER, -5, 10));
  EXPECT_EQ(join.left({Row::of("a", 100, 1)}), Rows{});
  EXPECT_EQ(join.right({Row::of("a", 100, 2)}), Rows{"+I[a, 100, 1, a, 100, 2]"});
  EXPECT_EQ(join.bufferedRows(), 2u);
  join.watermark(104);
  EXPECT_EQ(join.bufferedRows(), 2u);
  join.watermark(105);  // the right row (at 100): no left row <= 100 + 5 can come
  EXPECT_EQ(join.bufferedRows(), 1u);
  join.watermark(109);
  EXPECT_EQ(join.bufferedRows(), 1u);
  join.watermark(110);  // the left row: no right row <= 110 can come
  EXPECT_EQ(join.bufferedRows(), 0u);
  // A new right row finds nothing and is stored until 111 + 5.
  EXPECT_EQ(join.right({Row::of("a", 111, 3)}), Rows{});
  EXPECT_EQ(join.bufferedRows(), 1u);
  join.watermark(116);
  EXPECT_EQ(join.bufferedRows(), 0u);
  EXPECT_EQ(join.lateRecordsDropped(), 0);
}

TEST(IntervalJoinTest, LateRowsAreDroppedAndCounted) {
  // A row is late at lt + 10 + 5 (left) or rt + 5 + 10 (right).
  IntervalJoinHarness join(intervalSpec(JoinType::INNER, -5, 10));
  join.watermark(150);
  EXPECT_EQ(join.right({Row::of("a", 196, 1)}), Rows{});
  join.watermark(200);
  // Behind its release but not late: joins the stored right row, is not stored.
  EXPECT_EQ(join.left({Row::of("a", 186, 2)}), Rows{"+I[a, 186, 2, a, 196, 1]"});
  EXPECT_EQ(join.left({Row::of("a", 185, 3)}), Rows{});
  EXPECT_EQ(join.lateRecordsDropped(), 1);
  EXPECT_EQ(join.right({Row::of("a", 185, 4), Row::of("b", 184, 5), Row::of("a", 186, 6)}), Rows{});
  EXPECT_EQ(join.lateRecordsDropped(), 3);
  EXPECT_EQ(join.bufferedRows(), 1u);

  // An outer side's late row is emitted padded at once (and still counted).
  IntervalJoinHarness left(intervalSpec(JoinType::LEFT, -5, 10));
  left.watermark(200);
  EXPECT_EQ(left.left({Row::of("a", 185, 3), Row::of("a", 186, 4)}),
            (Rows{"+I[a, 185, 3, null, null, null]", "+I[a, 186, 4, null, null, null]"}));
  EXPECT_EQ(left.lateRecordsDropped(), 1);
  EXPECT_EQ(left.right({Row::of("a", 185, 5)}), Rows{});  // the inner side: dropped
  EXPECT_EQ(left.lateRecordsDropped(), 2);
  EXPECT_EQ(left.bufferedRows(), 0u);

  // Without job metrics (a harness outside a job) late rows are still dropped.
  IntervalJoinHarness unmetered(intervalSpec(JoinType::INNER, -5, 10),
                                RuntimeExecutionMode::STREAMING, /*withMetrics=*/false);
  unmetered.watermark(200);
  EXPECT_EQ(unmetered.left({Row::of("a", 100, 1)}), Rows{});
  EXPECT_EQ(unmetered.bufferedRows(), 0u);
}

// A window join (the times are window ends, bounds [0, 0], read 1 ms earlier, late rows
// dropped): a window closes when the watermark reaches its last millisecond (end - 1), its
// unjoined outer rows are padded then, and a later row of it is dropped and counted, padded or
// not, whatever its key.
TEST(IntervalJoinTest, WindowJoinClosesAtTheWindowsLastMillisecond) {
  auto spec = std::make_shared<IntervalJoinSpec>(*intervalSpec(JoinType::LEFT, 0, 0));
  spec->dropLateRows = true;
  spec->timeShift = -1;
  IntervalJoinHarness join(spec);
  EXPECT_EQ(join.left({Row::of("a", 100, 1), Row::of("b", 100, 2)}), Rows{});
  EXPECT_EQ(join.right({Row::of("a", 100, 3)}), Rows{"+I[a, 100, 1, a, 100, 3]"});
  EXPECT_EQ(join.watermark(98), Rows{});
  EXPECT_EQ(join.watermark(99), Rows{"+I[b, 100, 2, null, null, null]"});
  EXPECT_EQ(join.bufferedRows(), 0u);
  Row nullKey = Row::of("x", 100, 6);
  nullKey.setField(0, Value());
  EXPECT_EQ(join.left({Row::of("c", 100, 4), nullKey}), Rows{});
  EXPECT_EQ(join.right({Row::of("a", 100, 5)}), Rows{});
  EXPECT_EQ(join.lateRecordsDropped(), 3);
  // A NULL key of a window still open: padded (it matches nothing), not late.
  EXPECT_EQ(join.left({Row::of(Value(), 200, 7)}), Rows{"+I[null, 200, 7, null, null, null]"});
  EXPECT_EQ(join.lateRecordsDropped(), 3);
}

// Windows on a TIMESTAMP_LTZ rowtime: the window ends are wall-clock times of the session zone
// (here 8 hours ahead of UTC); a window closes when the watermark (an instant) reaches the
// instant its end names, minus 1 ms.
TEST(IntervalJoinTest, WindowJoinOfZonedWindowEndsClosesAtTheirInstant) {
  auto spec = std::make_shared<IntervalJoinSpec>(*intervalSpec(JoinType::LEFT, 0, 0));
  spec->dropLateRows = true;
  spec->timeShift = -1;
  spec->timeZone = common::SessionTimeZone::of("Asia/Shanghai");
  IntervalJoinHarness join(spec);
  constexpr int64_t kEightHours = 8 * 3600 * 1000;
  EXPECT_EQ(join.left({Row::of("a", kEightHours + 100, 1), Row::of("b", kEightHours + 100, 2)}),
            Rows{});
  EXPECT_EQ(join.right({Row::of("a", kEightHours + 100, 3)}),
            Rows{"+I[a, 28800100, 1, a, 28800100, 3]"});
  EXPECT_EQ(join.watermark(98), Rows{});
  EXPECT_EQ(join.watermark(99), Rows{"+I[b, 28800100, 2, null, null, null]"});
  EXPECT_EQ(join.bufferedRows(), 0u);
  EXPECT_EQ(join.left({Row::of("c", kEightHours + 100, 4)}), Rows{});
  EXPECT_EQ(join.lateRecordsDropped(), 1);
}

TEST(IntervalJoinTest, MostlyLateChunkKeepsOnlyItsStoredRows) {
  IntervalJoinHarness join(intervalSpec(JoinType::INNER, 0, 10));
  join.watermark(100);
  std::vector<Row> lefts;
  for (int i = 0; i < 9; ++i) lefts.push_back(Row::of("a", 50, i));
  lefts.push_back(Row::of("a", 95, 9));
  EXPECT_EQ(join.left(lefts), Rows{});
  EXPECT_EQ(join.lateRecordsDropped(), 9);
  EXPECT_EQ(join.bufferedRows(), 1u);
  EXPECT_EQ(join.right({Row::of("a", 101, 7)}), Rows{"+I[a, 95, 9, a, 101, 7]"});
}

TEST(IntervalJoinTest, LeftJoinPadsAtReleaseAndAtFinish) {
  IntervalJoinHarness join(intervalSpec(JoinType::LEFT, 0, 10));
  EXPECT_EQ(join.left({Row::of("a", 100, 1), Row::of("a", 200, 2)}), Rows{});
  EXPECT_EQ(join.right({Row::of("a", 205, 3)}), Rows{"+I[a, 200, 2, a, 205, 3]"});
  EXPECT_EQ(join.watermark(109), Rows{});
  EXPECT_EQ(join.watermark(110), Rows{"+I[a, 100, 1, null, null, null]"});
  EXPECT_EQ(join.watermark(210), Rows{});  // the joined left row goes without padding
  EXPECT_EQ(join.bufferedRows(), 0u);
  EXPECT_EQ(join.left({Row::of("b", 300, 4)}), Rows{});
  EXPECT_EQ(join.finish(), Rows{"+I[b, 300, 4, null, null, null]"});
  EXPECT_EQ(join.bufferedRows(), 0u);
}

TEST(IntervalJoinTest, RightJoinPadsAtReleaseAndAtFinish) {
  // rt BETWEEN lt - 5 AND lt: a right row waits for left rows up to rt + 5.
  IntervalJoinHarness join(intervalSpec(JoinType::RIGHT, -5, 0));
  EXPECT_EQ(join.right({Row::of("a", 100, 1)}), Rows{});
  EXPECT_EQ(join.left({Row::of("a", 103, 2)}), Rows{"+I[a, 103, 2, a, 100, 1]"});
  EXPECT_EQ(join.left({Row::of("a", 90, 3)}), Rows{});  // a left row never padded
  EXPECT_EQ(join.right({Row::of("a", 120, 3)}), Rows{});
  EXPECT_EQ(join.watermark(124), Rows{});
  EXPECT_EQ(join.watermark(125), Rows{"+I[null, null, null, a, 120, 3]"});
  EXPECT_EQ(join.right({Row::of("c", 500, 4)}), Rows{});
  EXPECT_EQ(join.finish(), Rows{"+I[null, null, null, c, 500, 4]"});
}

TEST(IntervalJoinTest, FullJoinPadsBothSides) {
  IntervalJoinHarness join(intervalSpec(JoinType::FULL, 0, 10));
  EXPECT_EQ(join.left({Row::of("x", 300, 1)}), Rows{});
  EXPECT_EQ(join.right({Row::of("y", 400, 2)}), Rows{});
  EXPECT_EQ(join.left({Row::of("z", 50, 3)}), Rows{});
  EXPECT_EQ(join.right({Row::of("z", 55, 4)}), Rows{"+I[z, 50, 3, z, 55, 4]"});
  EXPECT_EQ(join.right({Row::of("z", 30, 5)}), Rows{});
  EXPECT_EQ(join.watermark(305), Rows{"+I[null, null, null, z, 30, 5]"});
  EXPECT_EQ(join.bufferedRows(), 2u);
  // At finish, by release time: x's left row (310), then y's right row (400).
  EXPECT_EQ(join.finish(),
            (Rows{"+I[x, 300, 1, null, null, null]", "+I[null, null, null, y, 400, 2]"}));
  EXPECT_EQ(join.bufferedRows(), 0u);
}

TEST(IntervalJoinTest, ResidualConditionDecidesWhatJoins) {
  IntervalJoinHarness join(intervalSpec(JoinType::LEFT, 0, 10, leftValueBelowRightValue()));
  EXPECT_EQ(join.left({Row::of("a", 100, 4), Row::of("a", 100, 50), Row::of("a", 100, nullptr)}),
            Rows{});
  EXPECT_EQ(join.right({Row::of("a", 105, 9)}), Rows{"+I[a, 100, 4, a, 105, 9]"});
  EXPECT_EQ(join.right({Row::of("a", 106, 3)}), Rows{});
  EXPECT_EQ(join.right({Row::of("a", 107, 60), Row::of("a", 108, 1)}),
            (Rows{"+I[a, 100, 4, a, 107, 60]", "+I[a, 100, 50, a, 107, 60]"}));
  // The NULL-valued row (condition NULL) never joined.
  EXPECT_EQ(join.watermark(110), Rows{"+I[a, 100, null, null, null, null]"});
}

TEST(IntervalJoinTest, NullKeysAndNullTimesNeverMatch) {
  IntervalJoinHarness full(intervalSpec(JoinType::FULL, 0, 10));
  EXPECT_EQ(full.left({Row::of(nullptr, 100, 1)}), Rows{"+I[null, 100, 1, null, null, null]"});
  EXPECT_EQ(full.right({Row::of(nullptr, 100, 2)}), Rows{"+I[null, null, null, null, 100, 2]"});
  EXPECT_EQ(full.left({Row::of("a", nullptr, 3)}), Rows{"+I[a, null, 3, null, null, null]"});
  EXPECT_EQ(full.right({Row::of("a", nullptr, 4)}), Rows{"+I[null, null, null, a, null, 4]"});
  EXPECT_EQ(full.bufferedRows(), 0u);
  EXPECT_EQ(full.lateRecordsDropped(), 0);
  IntervalJoinHarness inner(intervalSpec(JoinType::INNER, 0, 10));
  EXPECT_EQ(inner.left({Row::of(nullptr, 100, 1), Row::of("a", nullptr, 2)}), Rows{});
  EXPECT_EQ(inner.right({Row::of(nullptr, 100, 3), Row::of("a", nullptr, 4)}), Rows{});
  EXPECT_EQ(inner.bufferedRows(), 0u);
}

TEST(IntervalJoinTest, WithoutEquiKeysRowsJoinByTimeAlone) {
  auto spec = std::make_shared<IntervalJoinSpec>(*intervalSpec(JoinType::LEFT, 0, 10));
  spec->leftKeys = {};
  spec->rightKeys = {};
  IntervalJoinHarness join(spec);
  EXPECT_EQ(join.left({Row::of("a", 100, 1), Row::of(nullptr, 100, 2), Row::of("c", 150, 3)}),
            Rows{});
  EXPECT_EQ(join.right({Row::of("b", 105, 4)}),
            (Rows{"+I[a, 100, 1, b, 105, 4]", "+I[null, 100, 2, b, 105, 4]"}));
  EXPECT_EQ(join.watermark(160), Rows{"+I[c, 150, 3, null, null, null]"});
  EXPECT_EQ(join.bufferedRows(), 0u);
}

TEST(IntervalJoinTest, WatermarkIsHeldBackAndNeverGoesBackwards) {
  // Delay max(10, 5) = 10.
  IntervalJoinHarness join(intervalSpec(JoinType::LEFT, -5, 10));
  join.watermark(Watermark::kMin);
  EXPECT_EQ(join.takeEvents(), Rows{});
  join.left({Row::of("a", 100, 1)});
  join.watermark(100);
  EXPECT_EQ(join.takeEvents(), Rows{"watermark 90"});
  join.watermark(100);
  join.watermark(95);
  EXPECT_EQ(join.takeEvents(), Rows{});
  // The padded row (time 100, ahead of the watermark 90 sent before it) comes first.
  join.watermark(110);
  EXPECT_EQ(join.takeEvents(), (Rows{"+I[a, 100, 1, null, null, null]", "watermark 100"}));
  join.left({Row::of("a", 120, 2)});
  join.watermark(Watermark::kMax);  // end of input: everything is released first
  EXPECT_EQ(join.takeEvents(), (Rows{"+I[a, 120, 2, null, null, null]",
                                     "watermark " + std::to_string(Watermark::kMax)}));
  EXPECT_EQ(join.bufferedRows(), 0u);
  EXPECT_EQ(join.finish(), Rows{});
}

TEST(IntervalJoinTest, ProcessingTimeJoinsByArrivalAndExpiresByTimers) {
  // rt BETWEEN lt AND lt + 10 on the arrival clock; the time columns are not read.
  IntervalJoinHarness join(intervalSpec(JoinType::LEFT, 0, 10, nullptr, /*processingTime=*/true));
  join.advanceClock(100);
  EXPECT_EQ(join.left({Row::of("a", nullptr, 1)}), Rows{});
  EXPECT_EQ(join.advanceClock(105), Rows{});
  EXPECT_EQ(join.right({Row::of("a", nullptr, 2)}), Rows{"+I[a, null, 1, a, null, 2]"});
  EXPECT_EQ(join.bufferedRows(), 2u);
  EXPECT_EQ(join.advanceClock(106), Rows{});  // the right row (at 105) can meet no more rows
  EXPECT_EQ(join.bufferedRows(), 1u);
  EXPECT_EQ(join.left({Row::of("b", nullptr, 3)}), Rows{});  // at 106
  EXPECT_EQ(join.advanceClock(110), Rows{});
  EXPECT_EQ(join.bufferedRows(), 2u);
  EXPECT_EQ(join.advanceClock(111), Rows{});  // the joined left row at 100 goes unpadded
  EXPECT_EQ(join.bufferedRows(), 1u);
  EXPECT_EQ(join.advanceClock(116), Rows{});
  EXPECT_EQ(join.advanceClock(117), Rows{"+I[b, null, 3, null, null, null]"});
  EXPECT_EQ(join.bufferedRows(), 0u);
  // Watermarks pass unchanged; nothing is late in processing time.
  join.watermark(50);
  EXPECT_EQ(join.takeWatermarks(), std::vector<int64_t>{50});
  EXPECT_EQ(join.lateRecordsDropped(), 0);
  // finish() pads what is still stored.
  EXPECT_EQ(join.left({Row::of("c", nullptr, 4)}), Rows{});
  EXPECT_EQ(join.finish(), Rows{"+I[c, null, 4, null, null, null]"});
}

TEST(IntervalJoinTest, ProcessingTimeRowsOfTheSameMillisecondJoin) {
  IntervalJoinHarness join(intervalSpec(JoinType::INNER, 0, 0, nullptr, /*processingTime=*/true));
  join.advanceClock(100);
  EXPECT_EQ(join.left({Row::of("a", nullptr, 1)}), Rows{});
  EXPECT_EQ(join.right({Row::of("a", nullptr, 2)}), Rows{"+I[a, null, 1, a, null, 2]"});
  EXPECT_EQ(join.advanceClock(101), Rows{});
  EXPECT_EQ(join.bufferedRows(), 0u);
  EXPECT_EQ(join.right({Row::of("a", nullptr, 3)}), Rows{});  // at 101: the left row is gone
}

TEST(IntervalJoinTest, TimestampTimeColumns) {
  auto type = parseLogicalType("ROW<k STRING, ts TIMESTAMP(3)>");
  auto spec = std::make_shared<IntervalJoinSpec>();
  spec->leftRowType = type;
  spec->rightRowType = type;
  spec->leftKeys = {0};
  spec->rightKeys = {0};
  spec->leftTimeColumn = 1;
  spec->rightTimeColumn = 1;
  spec->lowerBound = 0;
  spec->upperBound = 1000;
  spec->outputRowType =
      parseLogicalType("ROW<k STRING, ts TIMESTAMP(3), k0 STRING, ts0 TIMESTAMP(3)>");
  IntervalJoinHarness join(spec);
  const int64_t base = 1'609'459'200'000;  // 2021-01-01T00:00
  EXPECT_EQ(join.push(0, {Row::of("a", LocalDateTime::ofEpochMillis(base))}, type), Rows{});
  Rows joined = join.push(1,
                          {Row::of("a", LocalDateTime::ofEpochMillis(base + 1000)),
                           Row::of("a", LocalDateTime::ofEpochMillis(base + 1001))},
                          type);
  ASSERT_EQ(joined.size(), 1u);
  EXPECT_NE(joined[0].find("2021-01-01T00:00:01"), std::string::npos) << joined[0];
  join.watermark(base + 1000);
  EXPECT_EQ(join.bufferedRows(), 1u);  // the right row at base + 1001
}

TEST(IntervalJoinTest, OutputComesInChunksOfAtMostTheBatchSize) {
  IntervalJoinHarness join(intervalSpec(JoinType::INNER, -5, 5));
  std::vector<Row> lefts;
  for (int i = 0; i < 1500; ++i) lefts.push_back(Row::of("k", 100, i));
  EXPECT_EQ(join.left(lefts), Rows{});
  std::vector<Row> rights;
  for (int i = 0; i < 20; ++i) rights.push_back(Row::of("k", 100 + (i % 3), -i));
  Rows output = join.right(rights);  // 30000 candidates: several condition windows
  ASSERT_EQ(output.size(), 30000u);
  EXPECT_EQ(output.front(), "+I[k, 100, 0, k, 100, 0]");
  EXPECT_EQ(output[1], "+I[k, 100, 1, k, 100, 0]");
  EXPECT_EQ(output.back(), "+I[k, 100, 1499, k, 101, -19]");
}

TEST(IntervalJoinTest, BatchJoinsAtFinishInArrivalOrder) {
  auto run = [](JoinType type) {
    IntervalJoinHarness join(intervalSpec(type, 0, 10), RuntimeExecutionMode::BATCH);
    Rows early = join.left({Row::of("a", 100, 1), Row::of("b", 100, 2)});
    Rows more = join.right({Row::of("b", 105, 20), Row::of("c", 100, 30)});
    Rows late = join.left({Row::of("b", 108, 3), Row::of(nullptr, 100, 4)});
    Rows last =
        join.right({Row::of("b", 101, 21), Row::of(nullptr, 100, 40), Row::of("b", 200, 22)});
    Rows watermark = join.watermark(Watermark::kMax);
    EXPECT_TRUE(early.empty() && more.empty() && late.empty() && last.empty() && watermark.empty());
    EXPECT_EQ(join.takeWatermarks(), std::vector<int64_t>{});
    EXPECT_EQ(join.bufferedRows(), 9u);
    Rows result = join.finish();
    EXPECT_EQ(join.bufferedRows(), 0u);
    return result;
  };
  const Rows inner = {"+I[b, 100, 2, b, 105, 20]", "+I[b, 100, 2, b, 101, 21]"};
  EXPECT_EQ(run(JoinType::INNER), inner);
  EXPECT_EQ(run(JoinType::LEFT),
            (Rows{"+I[a, 100, 1, null, null, null]", inner[0], inner[1],
                  "+I[b, 108, 3, null, null, null]", "+I[null, 100, 4, null, null, null]"}));
  EXPECT_EQ(run(JoinType::RIGHT),
            (Rows{inner[0], inner[1], "+I[null, null, null, c, 100, 30]",
                  "+I[null, null, null, null, 100, 40]", "+I[null, null, null, b, 200, 22]"}));
  EXPECT_EQ(run(JoinType::FULL),
            (Rows{"+I[a, 100, 1, null, null, null]", inner[0], inner[1],
                  "+I[b, 108, 3, null, null, null]", "+I[null, 100, 4, null, null, null]",
                  "+I[null, null, null, c, 100, 30]", "+I[null, null, null, null, 100, 40]",
                  "+I[null, null, null, b, 200, 22]"}));
}

TEST(IntervalJoinTest, BatchRejectsUpdatingInput) {
  IntervalJoinHarness join(intervalSpec(JoinType::INNER, 0, 10), RuntimeExecutionMode::BATCH);
  EXPECT_THROW(join.left({Row::ofKind(RowKind::DELETE, "a", 1, 1)}), InternalError);
  IntervalJoinHarness streaming(intervalSpec(JoinType::INNER, 0, 10));
  EXPECT_THROW(streaming.right({Row::ofKind(RowKind::UPDATE_AFTER, "a", 1, 1)}), InternalError);
}

/// Rows with keys k0..k4, times in [0, 2000) and values in [0, 100), from a fixed LCG.
std::vector<Row> generatedRows(uint64_t seed, int count, bool withNulls) {
  uint64_t state = seed;
  auto next = [&state](uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % bound);
  };
  std::vector<Row> rows;
  for (int i = 0; i < count; ++i) {
    int64_t key = next(5);
    int64_t time = next(2000);
    int64_t value = next(100);
    if (withNulls && i % 37 == 0) {
      rows.push_back(Row::of(nullptr, time, static_cast<int>(value)));
    } else {
      rows.push_back(Row::of("k" + std::to_string(key), time, static_cast<int>(value)));
    }
  }
  return rows;
}

TEST(IntervalJoinTest, StreamingEqualsBatchOnGeneratedData) {
  const std::vector<Row> lefts = generatedRows(1, 300, true);
  const std::vector<Row> rights = generatedRows(2, 300, true);
  for (JoinType type : {JoinType::INNER, JoinType::LEFT, JoinType::RIGHT, JoinType::FULL}) {
    auto spec = intervalSpec(type, -15, 25, leftValueBelowRightValue());
    IntervalJoinHarness batch(spec, RuntimeExecutionMode::BATCH);
    batch.left(lefts);
    batch.right(rights);
    Rows expected = sorted(batch.finish());

    // STREAMING: rows in rounds of 10 ms of event time, each round followed by the watermark
    // it completes, so no row is late; state is released as the watermark moves.
    IntervalJoinHarness streaming(spec);
    Rows actual;
    size_t mostBuffered = 0;
    auto append = [&actual](Rows rows) { actual.insert(actual.end(), rows.begin(), rows.end()); };
    for (int64_t round = 0; round < 200; ++round) {
      for (int side = 0; side < 2; ++side) {
        std::vector<Row> chunk;
        for (const Row& row : side == 0 ? lefts : rights) {
          int64_t time = row.getFieldAs<int64_t>(1);
          if (time >= round * 10 && time < round * 10 + 10) chunk.push_back(row);
        }
        if (!chunk.empty()) append(streaming.push(side, chunk));
      }
      append(streaming.watermark(round * 10 + 9));
      mostBuffered = std::max(mostBuffered, streaming.bufferedRows());
    }
    append(streaming.finish());
    EXPECT_EQ(sorted(actual), expected) << joinTypeName(type);
    EXPECT_EQ(streaming.lateRecordsDropped(), 0);
    EXPECT_EQ(streaming.bufferedRows(), 0u);
    EXPECT_LT(mostBuffered, 60u) << "state is released as the watermark passes";
    EXPECT_GT(expected.size(), 20u);
  }
}

/// Runs left ⋈ right as a job: two collection sources, each HASH-partitioned by its key
/// columns, the IntervalJoinOperator via transformTwoInput, then rows. Returns them sorted.
Rows runJob(const std::vector<Row>& lefts, const std::vector<Row>& rights,
            std::shared_ptr<const IntervalJoinSpec> spec, RuntimeExecutionMode mode,
            int parallelism) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(parallelism);
  env->setRuntimeMode(mode);
  auto left =
      env->fromCollection(std::vector<vector::Chunk>{vector::rowsToChunk(lefts, leftType())})
          .partitionCustom(ChunkKeyPartitioner::factory(spec->leftKeys));
  auto right =
      env->fromCollection(std::vector<vector::Chunk>{vector::rowsToChunk(rights, rightType())})
          .partitionCustom(ChunkKeyPartitioner::factory(spec->rightKeys));
  auto rows = left.transformTwoInput<vector::Chunk>(
                      "IntervalJoin", right, std::make_shared<LambdaOperatorFactory>([spec] {
                        return std::make_unique<IntervalJoinOperator>(spec);
                      }))
                  .transform<Row>("ChunkToRows", std::make_shared<LambdaOperatorFactory>([] {
                                    return std::make_unique<ChunkToRowsOperator>();
                                  }))
                  .executeAndCollect(10000);
  Rows printed;
  for (const Row& row : rows) printed.push_back(row.toString());
  return sorted(std::move(printed));
}

TEST(IntervalJoinTest, JobFullJoinInBothModesAtParallelismOneAndTwo) {
  const std::vector<Row> lefts = generatedRows(3, 100, true);
  const std::vector<Row> rights = generatedRows(4, 100, true);
  auto spec = intervalSpec(JoinType::FULL, -20, 30);
  IntervalJoinHarness reference(spec, RuntimeExecutionMode::BATCH);
  reference.left(lefts);
  reference.right(rights);
  const Rows expected = sorted(reference.finish());
  for (RuntimeExecutionMode mode : {RuntimeExecutionMode::BATCH, RuntimeExecutionMode::STREAMING}) {
    for (int parallelism : {1, 2}) {
      EXPECT_EQ(runJob(lefts, rights, spec, mode, parallelism), expected)
          << "parallelism " << parallelism;
    }
  }
}

}  // namespace
}  // namespace eddy::runtime::operators
