// The over aggregation over chunks, driven one subtask at a time by a harness that pushes
// chunks, watermarks and processing-time advances and collects the exact output: ROWS and RANGE
// frames, bounded and unbounded; peers of a RANGE frame; the inclusive RANGE lower bound;
// out-of-order rows processed in time order; late rows; several partitions in key order;
// MAX retracted out of a sliding frame; FILTER and DISTINCT calls; bounded state; BATCH against
// STREAMING; processing time; finish() flushing waiting rows; large outputs in bounded chunks.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "runtime/operators/over/over_aggregate_operator.h"
#include "runtime/operators/tests/operator_test_harness.h"
#include "runtime/operators/window/window_spec.h"

namespace eddy::runtime::operators {

using function::AggregateCall;
using function::AggregateKind;

using relational::OverFrameUnit;
namespace {

using testing::Rows;

constexpr int64_t kMinute = 60'000;

/// Epoch millis of a wall-clock text such as "2020-04-15T08:10" (read as UTC).
int64_t millis(std::string_view text) { return LocalDateTime::parse(text).getMillisecond(); }

LogicalTypePtr inputType() {
  return parseLogicalType("ROW<k STRING, ts TIMESTAMP(3), v INT, flag BOOLEAN>");
}

/// An input row of inputType(): key, wall-clock time on 2020-04-15 ("08:01" or
/// "08:01:00.001"), value, flag.
Row input(const char* key, std::string_view time, int value, bool flag = true) {
  return Row::of(key, LocalDateTime::parse("2020-04-15T" + std::string(time)), value, flag);
}

/// Drives one over aggregate subtask (Flink's KeyedOneInputStreamOperatorTestHarness);
/// watermarks come among the rows as "Watermark[<wall clock>]".
class OverHarness : public testing::OneInputOperatorTestHarness<OverAggregateOperator> {
 public:
  explicit OverHarness(std::shared_ptr<const OverAggregateSpec> spec,
                       RuntimeExecutionMode mode = RuntimeExecutionMode::STREAMING)
      : OneInputOperatorTestHarness(std::make_unique<OverAggregateOperator>(spec),
                                    spec->inputRowType,
                                    {.operatorName = "OverAggregate",
                                     .mode = mode,
                                     .watermarksAmongRows = testing::printWatermarkWallClock}) {}

  using OneInputOperatorTestHarness::watermark;
  /// The watermark at a wall-clock time on 2020-04-15 ("08:03").
  Rows watermark(std::string_view time) {
    return watermark(millis("2020-04-15T" + std::string(time)));
  }
  size_t stateRows() const { return operatorUnderTest().stateRows(); }
  size_t partitionCount() const { return operatorUnderTest().partitionCount(); }
};

AggregateCall sumOfValues() {
  return AggregateCall{AggregateKind::SUM, 2, LogicalType::simple(LogicalTypeRoot::INTEGER)};
}
AggregateCall countStar() {
  return AggregateCall{AggregateKind::COUNT_STAR, -1,
                       LogicalType::simple(LogicalTypeRoot::BIGINT, false)};
}
AggregateCall maxOfValues() {
  return AggregateCall{AggregateKind::MAX, 2, LogicalType::simple(LogicalTypeRoot::INTEGER)};
}

/// SELECT k, ts, v, flag, <calls> OVER (PARTITION BY k ORDER BY ts <unit> BETWEEN <preceding>
/// PRECEDING AND CURRENT ROW) — by default SUM(v), COUNT(*), MAX(v), named c0, c1, ...
std::shared_ptr<OverAggregateSpec> overSpec(OverFrameUnit unit, std::optional<int64_t> preceding,
                                            std::vector<AggregateCall> calls = {
                                                sumOfValues(), countStar(), maxOfValues()}) {
  auto spec = std::make_shared<OverAggregateSpec>();
  spec->inputRowType = inputType();
  spec->partitionKeys = {0};
  spec->orderColumn = 1;
  spec->unit = unit;
  spec->preceding = preceding;
  std::vector<RowField> fields = inputType()->getFields();
  for (size_t i = 0; i < calls.size(); ++i) {
    fields.push_back(RowField{"c" + std::to_string(i), calls[i].resultType, std::nullopt});
  }
  spec->calls = std::move(calls);
  spec->outputRowType = LogicalType::row(std::move(fields));
  return spec;
}

TEST(OverAggregateTest, RowsTwoPrecedingInTimeOrderWithEqualTimesInArrivalOrder) {
  OverHarness harness(overSpec(OverFrameUnit::ROWS, 2));
  // Out of order within the watermark: processed by time, 08:03 (3) before 08:03 (4).
  EXPECT_EQ(harness.push({input("a", "08:01", 1), input("a", "08:03", 3), input("a", "08:05", 5)}),
            Rows{});
  EXPECT_EQ(harness.push({input("a", "08:02", 2), input("a", "08:03", 4)}), Rows{});
  EXPECT_EQ(harness.watermark("08:03"),
            (Rows{"+I[a, 2020-04-15T08:01, 1, true, 1, 1, 1]",
                  "+I[a, 2020-04-15T08:02, 2, true, 3, 2, 2]",
                  "+I[a, 2020-04-15T08:03, 3, true, 6, 3, 3]",
                  "+I[a, 2020-04-15T08:03, 4, true, 9, 3, 4]", "Watermark[2020-04-15T08:03]"}));
  // The frame keeps its last 3 rows; 08:05 still waits.
  EXPECT_EQ(harness.stateRows(), 4u);
  harness.push({input("a", "08:04", 0)});
  EXPECT_EQ(harness.lateRecordsDropped(), 0);
  // finish() processes what still waits.
  EXPECT_EQ(harness.finish(), (Rows{"+I[a, 2020-04-15T08:04, 0, true, 7, 3, 4]",
                                    "+I[a, 2020-04-15T08:05, 5, true, 9, 3, 5]"}));
  EXPECT_EQ(harness.stateRows(), 0u);
}

TEST(OverAggregateTest, MaxIsRetractedWhenItLeavesASlidingFrame) {
  OverHarness harness(overSpec(OverFrameUnit::ROWS, 2, {maxOfValues()}));
  harness.push({input("a", "08:01", 9), input("a", "08:02", 1), input("a", "08:03", 2),
                input("a", "08:04", 3), input("a", "08:05", 9), input("a", "08:06", 0)});
  EXPECT_EQ(harness.finish(),
            (Rows{"+I[a, 2020-04-15T08:01, 9, true, 9]", "+I[a, 2020-04-15T08:02, 1, true, 9]",
                  "+I[a, 2020-04-15T08:03, 2, true, 9]", "+I[a, 2020-04-15T08:04, 3, true, 3]",
                  "+I[a, 2020-04-15T08:05, 9, true, 9]", "+I[a, 2020-04-15T08:06, 0, true, 9]"}));

  OverHarness range(overSpec(OverFrameUnit::RANGE, 2 * kMinute, {maxOfValues()}));
  range.push({input("a", "08:00", 9), input("a", "08:01", 1), input("a", "08:02", 2),
              input("a", "08:02:00.001", 3)});
  EXPECT_EQ(
      range.finish(),
      (Rows{"+I[a, 2020-04-15T08:00, 9, true, 9]", "+I[a, 2020-04-15T08:01, 1, true, 9]",
            "+I[a, 2020-04-15T08:02, 2, true, 9]", "+I[a, 2020-04-15T08:02:00.001, 3, true, 3]"}));
}

TEST(OverAggregateTest, RangeTenMinutesIncludesPeersAndItsExactLowerBound) {
  OverHarness harness(overSpec(OverFrameUnit::RANGE, 10 * kMinute));
  harness.push({input("a", "08:00", 1), input("a", "08:10", 2)});
  // A peer of 08:10 in a later chunk, still before the watermark.
  harness.push({input("a", "08:10:00.001", 4), input("a", "08:10", 3)});
  // 08:00 is exactly 10 minutes before 08:10: inside. Peers get equal values.
  EXPECT_EQ(harness.watermark("08:10"),
            (Rows{"+I[a, 2020-04-15T08:00, 1, true, 1, 1, 1]",
                  "+I[a, 2020-04-15T08:10, 2, true, 6, 3, 3]",
                  "+I[a, 2020-04-15T08:10, 3, true, 6, 3, 3]", "Watermark[2020-04-15T08:10]"}));
  // 08:00 is 10 minutes and 1 ms before 08:10:00.001: outside.
  EXPECT_EQ(harness.watermark(millis("2020-04-15T08:10") + 1),
            (Rows{"+I[a, 2020-04-15T08:10:00.001, 4, true, 9, 3, 4]",
                  "Watermark[2020-04-15T08:10:00.001]"}));
  // State: rows leave when no future frame can hold them; then the partition goes.
  EXPECT_EQ(harness.stateRows(), 3u);
  harness.watermark("08:20");
  EXPECT_EQ(harness.stateRows(), 1u);
  harness.watermark(millis("2020-04-15T08:20") + 1);
  EXPECT_EQ(harness.stateRows(), 0u);
  EXPECT_EQ(harness.partitionCount(), 0u);
  // A row after the partition is gone starts from empty accumulators.
  harness.push({input("a", "08:30", 7)});
  EXPECT_EQ(harness.finish(), (Rows{"+I[a, 2020-04-15T08:30, 7, true, 7, 1, 7]"}));
}

TEST(OverAggregateTest, UnboundedPrecedingRowsAndRange) {
  std::vector<Row> rows = {input("a", "08:01", 1), input("a", "08:02", 2), input("a", "08:02", 3),
                           input("a", "08:03", 4)};
  OverHarness rowsFrame(overSpec(OverFrameUnit::ROWS, std::nullopt));
  rowsFrame.push(rows);
  EXPECT_EQ(rowsFrame.watermark("08:02"),
            (Rows{"+I[a, 2020-04-15T08:01, 1, true, 1, 1, 1]",
                  "+I[a, 2020-04-15T08:02, 2, true, 3, 2, 2]",
                  "+I[a, 2020-04-15T08:02, 3, true, 6, 3, 3]", "Watermark[2020-04-15T08:02]"}));
  EXPECT_EQ(rowsFrame.stateRows(), 1u);  // unbounded frames keep accumulators, not rows
  EXPECT_EQ(rowsFrame.finish(), (Rows{"+I[a, 2020-04-15T08:03, 4, true, 10, 4, 4]"}));

  // RANGE: peers of 08:02 see each other.
  OverHarness rangeFrame(overSpec(OverFrameUnit::RANGE, std::nullopt));
  rangeFrame.push(rows);
  EXPECT_EQ(rangeFrame.watermark("08:02"),
            (Rows{"+I[a, 2020-04-15T08:01, 1, true, 1, 1, 1]",
                  "+I[a, 2020-04-15T08:02, 2, true, 6, 3, 3]",
                  "+I[a, 2020-04-15T08:02, 3, true, 6, 3, 3]", "Watermark[2020-04-15T08:02]"}));
  EXPECT_EQ(rangeFrame.finish(), (Rows{"+I[a, 2020-04-15T08:03, 4, true, 10, 4, 4]"}));
}

TEST(OverAggregateTest, LateRowsAreDroppedAndCounted) {
  OverHarness harness(overSpec(OverFrameUnit::ROWS, std::nullopt));
  harness.push({input("a", "08:05", 1)});
  EXPECT_EQ(harness.watermark("08:05"),
            (Rows{"+I[a, 2020-04-15T08:05, 1, true, 1, 1, 1]", "Watermark[2020-04-15T08:05]"}));
  // At the watermark or behind it: late. One millisecond after: accepted.
  EXPECT_EQ(
      harness.push({input("a", "08:05", 2), input("b", "08:01", 3), input("a", "08:05:00.001", 4)}),
      Rows{});
  EXPECT_EQ(harness.lateRecordsDropped(), 2);
  EXPECT_EQ(harness.finish(), (Rows{"+I[a, 2020-04-15T08:05:00.001, 4, true, 5, 2, 4]"}));
}

TEST(OverAggregateTest, PartitionsHaveTheirOwnFramesAndAreEmittedInKeyOrder) {
  OverHarness harness(overSpec(OverFrameUnit::ROWS, 1));
  harness.push({input("c", "08:01", 100), input("b", "08:02", 10), input("a", "08:03", 1),
                input("b", "08:01", 20), input("a", "08:01", 2), input("c", "08:09", 200)});
  // Partition by partition (key bytes: a, b, c), each in time order.
  EXPECT_EQ(harness.watermark("08:05"), (Rows{"+I[a, 2020-04-15T08:01, 2, true, 2, 1, 2]",
                                              "+I[a, 2020-04-15T08:03, 1, true, 3, 2, 2]",
                                              "+I[b, 2020-04-15T08:01, 20, true, 20, 1, 20]",
                                              "+I[b, 2020-04-15T08:02, 10, true, 30, 2, 20]",
                                              "+I[c, 2020-04-15T08:01, 100, true, 100, 1, 100]",
                                              "Watermark[2020-04-15T08:05]"}));
  harness.push({input("a", "08:06", 4)});
  EXPECT_EQ(harness.watermark("08:10"), (Rows{"+I[a, 2020-04-15T08:06, 4, true, 5, 2, 4]",
                                              "+I[c, 2020-04-15T08:09, 200, true, 300, 2, 200]",
                                              "Watermark[2020-04-15T08:10]"}));
  EXPECT_EQ(harness.partitionCount(), 3u);
}

TEST(OverAggregateTest, FilterAndDistinctCallsSlideToo) {
  AggregateCall distinctValues{AggregateKind::COUNT, 2,
                               LogicalType::simple(LogicalTypeRoot::BIGINT, false)};
  distinctValues.distinct = true;
  AggregateCall flaggedSum = sumOfValues();
  flaggedSum.filterColumn = 3;
  OverHarness harness(overSpec(OverFrameUnit::ROWS, 2, {distinctValues, flaggedSum}));
  harness.push({input("a", "08:01", 1, true), input("a", "08:02", 1, false),
                input("a", "08:03", 2, false), input("a", "08:04", 3, false),
                input("a", "08:05", 3, true)});
  EXPECT_EQ(
      harness.finish(),
      (Rows{"+I[a, 2020-04-15T08:01, 1, true, 1, 1]", "+I[a, 2020-04-15T08:02, 1, false, 1, 1]",
            "+I[a, 2020-04-15T08:03, 2, false, 2, 1]", "+I[a, 2020-04-15T08:04, 3, false, 3, null]",
            "+I[a, 2020-04-15T08:05, 3, true, 2, 3]"}));
}

TEST(OverAggregateTest, BatchEmitsTheRowsOfStreamingAtFinish) {
  std::vector<Row> rows = {
      input("b", "08:03", 1),  input("a", "08:07", 2),  input("c", "08:14", 3),
      input("a", "08:01", 4),  input("b", "08:11", 5),  input("a", "08:26", 6),
      input("a", "08:07", 7),  input("b", "08:13", 8),  input("a", "08:16", 9),
      input("c", "08:14", 10), input("a", "08:06", 11), input("a", "08:17", 12)};
  for (OverFrameUnit unit : {OverFrameUnit::ROWS, OverFrameUnit::RANGE}) {
    for (std::optional<int64_t> preceding : {std::optional<int64_t>(), std::optional<int64_t>(2),
                                             std::optional<int64_t>(10 * kMinute)}) {
      if (unit == OverFrameUnit::ROWS && preceding == 10 * kMinute) continue;
      if (unit == OverFrameUnit::RANGE && preceding == 2) continue;
      SCOPED_TRACE(std::string(unit == OverFrameUnit::ROWS ? "ROWS " : "RANGE ") +
                   (preceding ? std::to_string(*preceding) : "UNBOUNDED"));
      OverHarness streaming(overSpec(unit, preceding));
      streaming.push(std::vector<Row>(rows.begin(), rows.begin() + 6));
      Rows streamed = streaming.watermark("08:05");
      streaming.push(std::vector<Row>(rows.begin() + 6, rows.end()));
      Rows rest = streaming.watermark(Watermark::kMax);
      streamed.insert(streamed.end(), rest.begin(), rest.end());
      EXPECT_EQ(streaming.stateRows(), 0u);
      EXPECT_EQ(streaming.partitionCount(), 0u);

      OverHarness batch(overSpec(unit, preceding), RuntimeExecutionMode::BATCH);
      batch.push(std::vector<Row>(rows.begin(), rows.begin() + 6));
      // A watermark processes nothing in BATCH mode.
      EXPECT_EQ(batch.watermark("08:05"), Rows{"Watermark[2020-04-15T08:05]"});
      batch.push(std::vector<Row>(rows.begin() + 6, rows.end()));
      Rows batched = batch.finish();
      EXPECT_EQ(batched.size(), rows.size());
      // Same rows; a single kMax watermark gives the same order too.
      Rows streamedRows;
      for (const std::string& row : streamed) {
        if (row.rfind("Watermark", 0) != 0) streamedRows.push_back(row);
      }
      EXPECT_EQ(std::multiset<std::string>(batched.begin(), batched.end()),
                std::multiset<std::string>(streamedRows.begin(), streamedRows.end()));
      OverHarness once(overSpec(unit, preceding));
      once.push(rows);
      Rows onceRows = once.watermark(Watermark::kMax);
      ASSERT_FALSE(onceRows.empty());
      EXPECT_EQ(onceRows.back(), "Watermark[MAX]");
      onceRows.pop_back();
      EXPECT_EQ(onceRows, batched);
    }
  }
}

/// The output of `rows` (in arrival order) computed from the frame definitions directly: per
/// partition, rows in processing order (time, then arrival); SUM(v), COUNT(*), MAX(v) over
/// the frame of each.
std::multiset<std::string> referenceOutput(const std::vector<Row>& rows, OverFrameUnit unit,
                                           std::optional<int64_t> preceding) {
  struct Entry {
    int64_t time;
    size_t arrival;
  };
  std::map<std::string, std::vector<Entry>> partitions;
  for (size_t i = 0; i < rows.size(); ++i) {
    partitions[rows[i].getField(0).get<std::string>()].push_back(
        Entry{rows[i].getField(1).get<LocalDateTime>().getMillisecond(), i});
  }
  std::multiset<std::string> expected;
  for (auto& [key, entries] : partitions) {
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& left, const Entry& right) { return left.time < right.time; });
    for (size_t i = 0; i < entries.size(); ++i) {
      int32_t sum = 0;
      int64_t count = 0;
      int32_t max = INT32_MIN;
      for (size_t j = 0; j < entries.size(); ++j) {
        bool inFrame = false;
        if (unit == OverFrameUnit::ROWS) {
          inFrame = j <= i && (!preceding || i - j <= static_cast<size_t>(*preceding));
        } else {
          inFrame = entries[j].time <= entries[i].time &&
                    (!preceding || entries[j].time >= entries[i].time - *preceding);
        }
        if (!inFrame) continue;
        int32_t value = rows[entries[j].arrival].getField(2).get<int32_t>();
        sum += value;
        ++count;
        max = std::max(max, value);
      }
      const Row& row = rows[entries[i].arrival];
      expected.insert(Row::of(key, row.getField(1).get<LocalDateTime>(),
                              row.getField(2).get<int32_t>(), row.getField(3).get<bool>(), sum,
                              count, max)
                          .toString());
    }
  }
  return expected;
}

TEST(OverAggregateTest, StreamingAndBatchMatchTheFrameDefinitionsOnGeneratedRows) {
  // Times on a 15 s grid with many peers, so RANGE frames hit their exact lower bound.
  std::mt19937 random(42);
  std::vector<Row> rows;
  const char* keys[] = {"a", "b", "c"};
  for (int i = 0; i < 400; ++i) {
    int64_t time = millis("2020-04-15T08:00") + static_cast<int64_t>(random() % 80) * 15'000;
    rows.push_back(Row::of(keys[random() % 3], LocalDateTime::ofEpochMillis(time),
                           static_cast<int32_t>(random() % 100), true));
  }
  // Rows arrive in a time order disturbed by up to 3 minutes: sort by time plus a jitter.
  std::vector<std::pair<int64_t, Row>> shuffled;
  for (Row& row : rows) {
    int64_t jitter = static_cast<int64_t>(random() % 12) * 15'000;
    shuffled.emplace_back(row.getField(1).get<LocalDateTime>().getMillisecond() + jitter, row);
  }
  std::stable_sort(shuffled.begin(), shuffled.end(),
                   [](const auto& left, const auto& right) { return left.first < right.first; });
  rows.clear();
  for (auto& [order, row] : shuffled) rows.push_back(std::move(row));

  struct Frame {
    OverFrameUnit unit;
    std::optional<int64_t> preceding;
  };
  for (const Frame& frame :
       {Frame{OverFrameUnit::ROWS, 0}, Frame{OverFrameUnit::ROWS, 3},
        Frame{OverFrameUnit::ROWS, std::nullopt}, Frame{OverFrameUnit::RANGE, 0},
        Frame{OverFrameUnit::RANGE, 2 * kMinute}, Frame{OverFrameUnit::RANGE, std::nullopt}}) {
    SCOPED_TRACE(std::string(frame.unit == OverFrameUnit::ROWS ? "ROWS " : "RANGE ") +
                 (frame.preceding ? std::to_string(*frame.preceding) : "UNBOUNDED"));
    std::multiset<std::string> expected = referenceOutput(rows, frame.unit, frame.preceding);

    // STREAMING: chunks of 1 to 20 rows, each followed (mostly) by the highest watermark that
    // makes no later row late.
    OverHarness streaming(overSpec(frame.unit, frame.preceding));
    std::multiset<std::string> streamed;
    size_t maxStateRows = 0;
    for (size_t begin = 0; begin < rows.size();) {
      size_t end = std::min(rows.size(), begin + 1 + random() % 20);
      for (const std::string& row :
           streaming.push(std::vector<Row>(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                                           rows.begin() + static_cast<std::ptrdiff_t>(end)))) {
        streamed.insert(row);
      }
      begin = end;
      if (begin == rows.size() || random() % 4 == 0) continue;
      int64_t watermark = Watermark::kMax;
      for (size_t i = begin; i < rows.size(); ++i) {
        watermark =
            std::min(watermark, rows[i].getField(1).get<LocalDateTime>().getMillisecond() - 1);
      }
      Rows released = streaming.watermark(watermark);
      ASSERT_FALSE(released.empty());
      released.pop_back();  // the watermark
      streamed.insert(released.begin(), released.end());
      maxStateRows = std::max(maxStateRows, streaming.stateRows());
    }
    Rows rest = streaming.watermark(Watermark::kMax);
    rest.pop_back();
    streamed.insert(rest.begin(), rest.end());
    EXPECT_EQ(streaming.lateRecordsDropped(), 0);
    EXPECT_EQ(streamed, expected);
    EXPECT_EQ(streaming.stateRows(), 0u);
    // Bounded frames keep few rows: waiting rows (3 minutes of disorder) plus frames.
    if (frame.preceding) {
      EXPECT_LT(maxStateRows, 150u);
    }

    OverHarness batch(overSpec(frame.unit, frame.preceding), RuntimeExecutionMode::BATCH);
    batch.push(rows);
    Rows batched = batch.finish();
    EXPECT_EQ(std::multiset<std::string>(batched.begin(), batched.end()), expected);
  }
}

TEST(OverAggregateTest, ProcessingTimeProcessesRowsOnArrival) {
  auto spec = overSpec(OverFrameUnit::RANGE, 10, {sumOfValues(), countStar()});
  spec->processingTime = true;
  spec->orderColumn = -1;
  OverHarness harness(spec);
  harness.advanceProcessingTime(1000);
  // The time column is not read (NULL here); a row's frame holds the rows that arrived before.
  EXPECT_EQ(harness.push({Row::of("a", nullptr, 1, true), Row::of("a", nullptr, 2, true),
                          Row::of("b", nullptr, 3, true)}),
            (Rows{"+I[a, null, 1, true, 1, 1]", "+I[a, null, 2, true, 3, 2]",
                  "+I[b, null, 3, true, 3, 1]"}));
  harness.advanceProcessingTime(1010);
  EXPECT_EQ(harness.push({Row::of("a", nullptr, 4, true)}), (Rows{"+I[a, null, 4, true, 7, 3]"}));
  // Watermarks are forwarded and process nothing.
  EXPECT_EQ(harness.watermark(5000), Rows{"Watermark[1970-01-01T00:00:05]"});
  // Once the clock passes 1000 + 10 ms, the rows of 1000 leave every future frame: a timer
  // drops them, and b's partition with them.
  EXPECT_EQ(harness.stateRows(), 4u);
  EXPECT_EQ(harness.advanceProcessingTime(1011), Rows{});
  EXPECT_EQ(harness.stateRows(), 1u);
  EXPECT_EQ(harness.partitionCount(), 1u);
  EXPECT_EQ(harness.push({Row::of("a", nullptr, 5, true), Row::of("b", nullptr, 6, true)}),
            (Rows{"+I[a, null, 5, true, 9, 2]", "+I[b, null, 6, true, 6, 1]"}));
  EXPECT_EQ(harness.finish(), Rows{});
}

TEST(OverAggregateTest, ProcessingTimeRowsFrame) {
  auto spec = overSpec(OverFrameUnit::ROWS, 1, {sumOfValues()});
  spec->processingTime = true;
  OverHarness harness(spec);
  harness.advanceProcessingTime(1000);
  EXPECT_EQ(harness.push({input("a", "08:09", 1), input("a", "08:01", 2), input("a", "08:05", 4)}),
            (Rows{"+I[a, 2020-04-15T08:09, 1, true, 1]", "+I[a, 2020-04-15T08:01, 2, true, 3]",
                  "+I[a, 2020-04-15T08:05, 4, true, 6]"}));
  EXPECT_EQ(harness.stateRows(), 2u);
}

TEST(OverAggregateTest, FinishFlushesWaitingRowsAndBoundsOutputChunks) {
  OverHarness harness(overSpec(OverFrameUnit::ROWS, std::nullopt, {countStar()}));
  std::vector<Row> rows;
  for (int i = 0; i < 3000; ++i) rows.push_back(input("a", "08:01", i));
  harness.push(rows);
  EXPECT_EQ(harness.watermark("08:00"), Rows{"Watermark[2020-04-15T08:00]"});
  Rows output = harness.finish();  // CollectingOutput checks each chunk's size
  ASSERT_EQ(output.size(), 3000u);
  EXPECT_EQ(output.back(), "+I[a, 2020-04-15T08:01, 2999, true, 3000]");
}

TEST(OverAggregateTest, NullRowTimeFailsWithFlinksMessage) {
  OverHarness harness(overSpec(OverFrameUnit::ROWS, 2));
  try {
    harness.push({Row::of("a", nullptr, 1, true)});
    FAIL();
  } catch (const TableException& e) {
    EXPECT_EQ(std::string(e.what()), kNullRowTimeMessage);
  }
}

TEST(OverAggregateTest, InconsistentSpecsAreRejected) {
  EXPECT_THROW(OverAggregateOperator(overSpec(OverFrameUnit::ROWS, -1)), InternalError);
  auto notATime = overSpec(OverFrameUnit::RANGE, 10);
  notATime->orderColumn = 2;
  EXPECT_THROW(OverAggregateOperator{notATime}, InternalError);
  auto missingColumn = overSpec(OverFrameUnit::RANGE, 10);
  missingColumn->outputRowType = inputType();
  EXPECT_THROW(OverAggregateOperator{missingColumn}, InternalError);
}

}  // namespace
}  // namespace eddy::runtime::operators
