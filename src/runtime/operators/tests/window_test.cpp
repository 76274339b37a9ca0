// The window operators over chunks, driven one subtask at a time by a harness that pushes
// chunks, watermarks and processing-time advances and collects the exact output: window
// aggregation over TUMBLE (out-of-order rows, late rows, the exclusive window end, empty
// windows), HOP, CUMULATE and SESSION windows, DISTINCT and FILTER calls, BATCH against
// STREAMING, processing-time windows, TIMESTAMP_LTZ windows in a non-UTC zone; and the rows of
// the window table function for TUMBLE and HOP.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include "runtime/operators/tests/operator_test_harness.h"
#include "runtime/operators/window/window_aggregate_operator.h"
#include "runtime/operators/window/window_table_function_operator.h"

namespace eddy::runtime::operators {

using function::AggregateCall;
using function::AggregateKind;
using relational::WindowKind;
using relational::WindowSpec;
using relational::windowKindName;

namespace {

using testing::Rows;
using relational::WindowOutputColumn;
using ColumnKind = relational::WindowOutputColumn::Kind;

constexpr int64_t kMinute = 60'000;
constexpr int64_t kDay = 24 * 60 * kMinute;

/// Epoch millis of a wall-clock text such as "2020-04-15T08:10" (read as UTC).
int64_t millis(std::string_view text) { return LocalDateTime::parse(text).getMillisecond(); }

LogicalTypePtr inputType() {
  return parseLogicalType("ROW<k STRING, ts TIMESTAMP(3), v INT, flag BOOLEAN>");
}
LogicalTypePtr instantInputType() {
  return parseLogicalType("ROW<k STRING, ts TIMESTAMP_LTZ(3), v INT, flag BOOLEAN>");
}

/// An input row of inputType(): key, wall-clock time on 2020-04-15 ("08:01" or a full
/// "2020-04-15T08:01" text), value, flag.
Row input(const char* key, std::string_view time, int value, bool flag = true) {
  std::string text = time.size() <= 12 ? "2020-04-15T" + std::string(time) : std::string(time);
  return Row::of(key, LocalDateTime::parse(text), value, flag);
}

/// Drives one window operator subtask (Flink's OneInputStreamOperatorTestHarness); watermarks
/// come among the rows as "Watermark[<wall clock>]".
class WindowHarness : public testing::OneInputOperatorTestHarness<> {
 public:
  WindowHarness(std::unique_ptr<StreamOperator> windowOperator, LogicalTypePtr inputRowType,
                RuntimeExecutionMode mode = RuntimeExecutionMode::STREAMING)
      : OneInputOperatorTestHarness(std::move(windowOperator), std::move(inputRowType),
                                    {.operatorName = "Window",
                                     .mode = mode,
                                     .watermarksAmongRows = testing::printWatermarkWallClock}) {}

  using OneInputOperatorTestHarness::watermark;
  Rows watermark(std::string_view wallClock) { return watermark(millis(wallClock)); }
};

WindowSpec window(WindowKind kind, int64_t size, int64_t slide = 0) {
  WindowSpec spec;
  spec.kind = kind;
  spec.timeColumn = 1;
  spec.size = size;
  spec.slide = slide;
  return spec;
}

AggregateCall countStar() {
  return AggregateCall{AggregateKind::COUNT_STAR, -1,
                       LogicalType::simple(LogicalTypeRoot::BIGINT, false)};
}
AggregateCall sumOfValues() {
  return AggregateCall{AggregateKind::SUM, 2, LogicalType::simple(LogicalTypeRoot::INTEGER)};
}

/// SELECT k, window_start, window_end, COUNT(*), SUM(v) FROM TABLE(<window>) GROUP BY k,
/// window_start, window_end — or the given calls, named c0, c1, ...
std::shared_ptr<const WindowAggregateSpec> aggregateSpec(
    WindowSpec windowSpec, std::vector<AggregateCall> calls = {countStar(), sumOfValues()},
    LogicalTypePtr inputRowType = inputType()) {
  auto spec = std::make_shared<WindowAggregateSpec>();
  spec->inputRowType = std::move(inputRowType);
  spec->window = std::move(windowSpec);
  spec->keyColumns = {0};
  std::vector<RowField> fields = {
      {"k", LogicalType::varchar(LogicalType::kMaxLength), std::nullopt},
      {"window_start", LogicalType::timestamp(3, TimestampKind::REGULAR, false), std::nullopt},
      {"window_end", LogicalType::timestamp(3, TimestampKind::REGULAR, false), std::nullopt}};
  spec->outputColumns = {relational::WindowOutputColumn{ColumnKind::KEY, 0},
                         relational::WindowOutputColumn{ColumnKind::WINDOW_START, 0},
                         relational::WindowOutputColumn{ColumnKind::WINDOW_END, 0}};
  for (size_t i = 0; i < calls.size(); ++i) {
    fields.push_back(RowField{"c" + std::to_string(i), calls[i].resultType, std::nullopt});
    spec->outputColumns.push_back(relational::WindowOutputColumn{ColumnKind::CALL, static_cast<int>(i)});
  }
  spec->calls = std::move(calls);
  spec->outputRowType = LogicalType::row(std::move(fields));
  return spec;
}

WindowHarness aggregateHarness(std::shared_ptr<const WindowAggregateSpec> spec,
                               RuntimeExecutionMode mode = RuntimeExecutionMode::STREAMING) {
  LogicalTypePtr inputRowType = spec->inputRowType;
  return WindowHarness(std::make_unique<WindowAggregateOperator>(std::move(spec)),
                       std::move(inputRowType), mode);
}

TEST(WindowTest, KindNamesAreFlinks) {
  EXPECT_EQ(windowKindName(WindowKind::TUMBLE), "TUMBLE");
  EXPECT_EQ(windowKindName(WindowKind::HOP), "HOP");
  EXPECT_EQ(windowKindName(WindowKind::CUMULATE), "CUMULATE");
  EXPECT_EQ(windowKindName(WindowKind::SESSION), "SESSION");
}

TEST(WindowTest, AssignerAlignsWindowsAsFlink) {
  std::vector<TimeWindow> windows;
  // TUMBLE floors toward -infinity, also before the epoch, and shifts by the offset.
  WindowAssigner(window(WindowKind::TUMBLE, 10), *inputType()).assignWindows(-3, windows);
  EXPECT_EQ(windows, (std::vector<TimeWindow>{{-10, 0}}));
  WindowSpec shifted = window(WindowKind::TUMBLE, 10);
  shifted.offset = 3;
  WindowAssigner(shifted, *inputType()).assignWindows(2, windows);
  EXPECT_EQ(windows, (std::vector<TimeWindow>{{-7, 3}}));
  // HOP: latest start first; CUMULATE: smallest end first.
  WindowAssigner(window(WindowKind::HOP, 10, 5), *inputType()).assignWindows(7, windows);
  EXPECT_EQ(windows, (std::vector<TimeWindow>{{5, 15}, {0, 10}}));
  WindowAssigner(window(WindowKind::CUMULATE, 10, 2), *inputType()).assignWindows(13, windows);
  EXPECT_EQ(windows, (std::vector<TimeWindow>{{10, 14}, {10, 16}, {10, 18}, {10, 20}}));
}

TEST(WindowTest, InvalidWindowsAreRejected) {
  EXPECT_THROW(WindowAssigner(window(WindowKind::TUMBLE, 0), *inputType()), ValidationException);
  EXPECT_THROW(WindowAssigner(window(WindowKind::HOP, 10, 0), *inputType()), ValidationException);
  try {
    WindowAssigner(window(WindowKind::CUMULATE, 10, 3), *inputType());
    FAIL();
  } catch (const ValidationException& e) {
    EXPECT_EQ(std::string(e.what()),
              "CUMULATE window requires size must be an integral multiple of step, but got size "
              "10 ms and step 3 ms.");
  }
  WindowSpec notATime = window(WindowKind::TUMBLE, 10);
  notATime.timeColumn = 2;
  EXPECT_THROW(WindowAssigner(notATime, *inputType()), ValidationException);
}

TEST(WindowTest, TumbleFiresWhenTheWatermarkReachesTheWindowTime) {
  auto harness = aggregateHarness(aggregateSpec(window(WindowKind::TUMBLE, 10 * kMinute)));
  // Out of order within the watermark: all count.
  EXPECT_EQ(harness.push({input("b", "08:03", 10), input("a", "08:07", 2), input("a", "08:01", 1),
                          input("a", "08:05", 4)}),
            Rows{});
  EXPECT_EQ(harness.watermark("2020-04-15T08:05"), Rows{"Watermark[2020-04-15T08:05]"});
  EXPECT_EQ(harness.push({input("a", "08:02", 8), input("c", "08:12", 5)}), Rows{});
  EXPECT_EQ(harness.watermark(millis("2020-04-15T08:10") - 2),
            Rows{"Watermark[2020-04-15T08:09:59.998]"});
  // window_time = end - 1 ms: the window fires at the watermark 08:09:59.999, keys in order,
  // before the watermark is forwarded.
  EXPECT_EQ(harness.watermark(millis("2020-04-15T08:10") - 1),
            (Rows{"+I[a, 2020-04-15T08:00, 2020-04-15T08:10, 4, 15]",
                  "+I[b, 2020-04-15T08:00, 2020-04-15T08:10, 1, 10]",
                  "Watermark[2020-04-15T08:09:59.999]"}));
  EXPECT_EQ(harness.finish(), (Rows{"+I[c, 2020-04-15T08:10, 2020-04-15T08:20, 1, 5]"}));
  EXPECT_EQ(harness.lateRecordsDropped(), 0);
}

TEST(WindowTest, LateRowsAreDroppedAndCountedAndTheWindowEndIsExclusive) {
  auto harness = aggregateHarness(aggregateSpec(window(WindowKind::TUMBLE, 10 * kMinute)));
  harness.push({input("a", "08:01", 1)});
  EXPECT_EQ(
      harness.watermark("2020-04-15T08:10"),
      (Rows{"+I[a, 2020-04-15T08:00, 2020-04-15T08:10, 1, 1]", "Watermark[2020-04-15T08:10]"}));
  // 08:09 belongs to the fired window: late. 08:10 is the next window's first millisecond.
  EXPECT_EQ(harness.push({input("a", "08:09:59.999", 2), input("a", "08:10", 3)}), Rows{});
  EXPECT_EQ(harness.lateRecordsDropped(), 1);
  // Nothing arrives for [08:20, 08:30): that window is never emitted.
  harness.push({input("a", "08:35", 4)});
  EXPECT_EQ(
      harness.watermark("2020-04-15T08:40"),
      (Rows{"+I[a, 2020-04-15T08:10, 2020-04-15T08:20, 1, 3]",
            "+I[a, 2020-04-15T08:30, 2020-04-15T08:40, 1, 4]", "Watermark[2020-04-15T08:40]"}));
  EXPECT_EQ(harness.finish(), Rows{});
}

TEST(WindowTest, NullRowTimeFailsWithFlinksMessage) {
  auto harness = aggregateHarness(aggregateSpec(window(WindowKind::TUMBLE, 10 * kMinute)));
  try {
    harness.push({Row::of("a", nullptr, 1, true)});
    FAIL();
  } catch (const TableException& e) {
    EXPECT_EQ(std::string(e.what()),
              "RowTime field should not be null, please convert it to a non-null long value.");
  }
}

TEST(WindowTest, HopAssignsARowToEveryWindowContainingIt) {
  auto harness =
      aggregateHarness(aggregateSpec(window(WindowKind::HOP, 10 * kMinute, 5 * kMinute)));
  harness.push({input("a", "00:07", 1), input("a", "00:12", 2)});
  EXPECT_EQ(
      harness.watermark("2020-04-15T00:10"),
      (Rows{"+I[a, 2020-04-15T00:00, 2020-04-15T00:10, 1, 1]", "Watermark[2020-04-15T00:10]"}));
  // [00:00, 00:10) has fired, [00:05, 00:15) has not: only the fired window of 00:08 is
  // skipped, and the row is not late.
  harness.push({input("a", "00:08", 4)});
  EXPECT_EQ(harness.lateRecordsDropped(), 0);
  EXPECT_EQ(
      harness.watermark("2020-04-15T00:20"),
      (Rows{"+I[a, 2020-04-15T00:05, 2020-04-15T00:15, 3, 7]",
            "+I[a, 2020-04-15T00:10, 2020-04-15T00:20, 1, 2]", "Watermark[2020-04-15T00:20]"}));
  // A row all of whose windows fired is late.
  harness.push({input("a", "00:14", 8)});
  EXPECT_EQ(harness.lateRecordsDropped(), 1);
}

TEST(WindowTest, CumulateEmitsEveryStepWithGrowingResults) {
  auto harness =
      aggregateHarness(aggregateSpec(window(WindowKind::CUMULATE, 6 * kMinute, 2 * kMinute)));
  harness.push({input("a", "00:00:30", 1), input("a", "00:03", 2), input("a", "00:05", 4),
                input("a", "00:07", 8)});
  EXPECT_EQ(
      harness.watermark("2020-04-15T00:02"),
      (Rows{"+I[a, 2020-04-15T00:00, 2020-04-15T00:02, 1, 1]", "Watermark[2020-04-15T00:02]"}));
  EXPECT_EQ(
      harness.watermark("2020-04-15T00:04"),
      (Rows{"+I[a, 2020-04-15T00:00, 2020-04-15T00:04, 2, 3]", "Watermark[2020-04-15T00:04]"}));
  EXPECT_EQ(
      harness.watermark("2020-04-15T00:08"),
      (Rows{"+I[a, 2020-04-15T00:00, 2020-04-15T00:06, 3, 7]",
            "+I[a, 2020-04-15T00:06, 2020-04-15T00:08, 1, 8]", "Watermark[2020-04-15T00:08]"}));
  EXPECT_EQ(harness.finish(), (Rows{"+I[a, 2020-04-15T00:06, 2020-04-15T00:10, 1, 8]",
                                    "+I[a, 2020-04-15T00:06, 2020-04-15T00:12, 1, 8]"}));
}

TEST(WindowTest, SessionsMergeWhenARowBridgesThem) {
  auto harness = aggregateHarness(aggregateSpec(window(WindowKind::SESSION, 5 * kMinute)));
  harness.push({input("a", "00:00", 1), input("a", "00:08", 2), input("b", "00:05", 10)});
  EXPECT_EQ(harness.watermark("2020-04-15T00:04"), Rows{"Watermark[2020-04-15T00:04]"});
  // [00:04, 00:09) intersects [00:00, 00:05) and [00:08, 00:13): one session [00:00, 00:13).
  harness.push({input("a", "00:04", 4)});
  EXPECT_EQ(
      harness.watermark("2020-04-15T00:13"),
      (Rows{"+I[b, 2020-04-15T00:05, 2020-04-15T00:10, 1, 10]",
            "+I[a, 2020-04-15T00:00, 2020-04-15T00:13, 3, 7]", "Watermark[2020-04-15T00:13]"}));
  // Sessions that merely touch merge too (Flink's TimeWindow.intersects); a new session
  // entirely behind the watermark is late.
  harness.push({input("a", "00:20", 1), input("a", "00:25", 2), input("c", "00:01", 5)});
  EXPECT_EQ(harness.lateRecordsDropped(), 1);
  EXPECT_EQ(harness.finish(), (Rows{"+I[a, 2020-04-15T00:20, 2020-04-15T00:30, 2, 3]"}));
}

TEST(WindowTest, SessionCallsSeeRowsInArrivalOrder) {
  AggregateCall firstValue{AggregateKind::FIRST_VALUE, 2,
                           LogicalType::simple(LogicalTypeRoot::INTEGER)};
  AggregateCall lastValue{AggregateKind::LAST_VALUE, 2,
                          LogicalType::simple(LogicalTypeRoot::INTEGER)};
  auto harness = aggregateHarness(
      aggregateSpec(window(WindowKind::SESSION, 5 * kMinute), {firstValue, lastValue}));
  // Arrival order 1, 2, 3; the bridging row 3 merges the session of 2 into that of 1.
  harness.push({input("a", "00:00", 1), input("a", "00:08", 2), input("a", "00:04", 3)});
  EXPECT_EQ(harness.finish(), (Rows{"+I[a, 2020-04-15T00:00, 2020-04-15T00:13, 1, 3]"}));
}

TEST(WindowTest, DistinctAndFilterCallsGoThroughAggregateCall) {
  AggregateCall distinctValues{AggregateKind::COUNT, 2,
                               LogicalType::simple(LogicalTypeRoot::BIGINT, false)};
  distinctValues.distinct = true;
  AggregateCall flaggedSum = sumOfValues();
  flaggedSum.filterColumn = 3;
  auto harness = aggregateHarness(
      aggregateSpec(window(WindowKind::TUMBLE, 10 * kMinute), {distinctValues, flaggedSum}));
  harness.push({input("a", "08:01", 1, true), input("a", "08:02", 1, false),
                input("a", "08:03", 2, false), input("a", "08:04", 5, true),
                input("b", "08:04", 7, false)});
  EXPECT_EQ(harness.finish(), (Rows{"+I[a, 2020-04-15T08:00, 2020-04-15T08:10, 3, 6]",
                                    "+I[b, 2020-04-15T08:00, 2020-04-15T08:10, 1, null]"}));
}

TEST(WindowTest, BatchEmitsTheRowsOfStreamingAtFinish) {
  std::vector<Row> rows = {input("b", "00:03", 1), input("a", "00:07", 2), input("c", "00:14", 3),
                           input("a", "00:01", 4), input("b", "00:11", 5), input("a", "00:26", 6)};
  for (WindowKind kind :
       {WindowKind::TUMBLE, WindowKind::HOP, WindowKind::CUMULATE, WindowKind::SESSION}) {
    SCOPED_TRACE(windowKindName(kind));
    WindowSpec spec = window(kind, 10 * kMinute, kind == WindowKind::SESSION ? 0 : 5 * kMinute);
    auto streaming = aggregateHarness(aggregateSpec(spec));
    streaming.push(rows);
    Rows streamed = streaming.watermark(Watermark::kMax);
    ASSERT_FALSE(streamed.empty());
    EXPECT_EQ(streamed.back(), "Watermark[MAX]");
    streamed.pop_back();
    auto batch = aggregateHarness(aggregateSpec(spec), RuntimeExecutionMode::BATCH);
    batch.push(rows);
    // A watermark fires nothing in BATCH mode.
    EXPECT_EQ(batch.watermark(Watermark::kMax), Rows{"Watermark[MAX]"});
    Rows batched = batch.finish();
    EXPECT_FALSE(batched.empty());
    EXPECT_EQ(batched, streamed);
  }
}

TEST(WindowTest, ProcessingTimeWindowsFireByTimer) {
  WindowSpec spec = window(WindowKind::TUMBLE, 10 * kMinute);
  spec.processingTime = true;
  spec.timeColumn = -1;
  auto harness = aggregateHarness(aggregateSpec(spec));
  // The time column is ignored: windows follow the clock at arrival.
  harness.advanceProcessingTime(millis("2020-04-15T08:01"));
  harness.push({input("a", "2000-01-01T00:00", 1), input("b", "2000-01-01T00:00", 2)});
  harness.advanceProcessingTime(millis("2020-04-15T08:04"));
  harness.push({input("a", "2000-01-01T00:00", 4)});
  // Watermarks are forwarded and fire nothing.
  EXPECT_EQ(harness.watermark("2020-04-15T09:00"), Rows{"Watermark[2020-04-15T09:00]"});
  EXPECT_EQ(harness.advanceProcessingTime(millis("2020-04-15T08:10") - 2), Rows{});
  EXPECT_EQ(harness.advanceProcessingTime(millis("2020-04-15T08:10") - 1),
            (Rows{"+I[a, 2020-04-15T08:00, 2020-04-15T08:10, 2, 5]",
                  "+I[b, 2020-04-15T08:00, 2020-04-15T08:10, 1, 2]"}));
  // A window still open when the input ends fires at finish().
  harness.advanceProcessingTime(millis("2020-04-15T08:12"));
  harness.push({input("a", "2000-01-01T00:00", 8)});
  EXPECT_EQ(harness.finish(), (Rows{"+I[a, 2020-04-15T08:10, 2020-04-15T08:20, 1, 8]"}));
  EXPECT_EQ(harness.advanceProcessingTime(millis("2020-04-15T09:00")), Rows{});
}

TEST(WindowTest, LocalZonedWindowsAlignToTheZonesWallClock) {
  // TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' DAY) over a TIMESTAMP_LTZ in Asia/Shanghai
  // (UTC+8): days start at local midnight, 16:00Z.
  WindowSpec spec = window(WindowKind::TUMBLE, kDay);
  spec.timeZone = common::SessionTimeZone::of("Asia/Shanghai");
  auto aggregate = std::make_shared<WindowAggregateSpec>(
      *aggregateSpec(spec, {countStar()}, instantInputType()));
  aggregate->outputColumns.insert(aggregate->outputColumns.begin() + 3,
                                  relational::WindowOutputColumn{ColumnKind::WINDOW_TIME, 0});
  aggregate->outputRowType = parseLogicalType(
      "ROW<k STRING, window_start TIMESTAMP(3) NOT NULL, window_end TIMESTAMP(3) NOT NULL, "
      "window_time TIMESTAMP_LTZ(3) NOT NULL, c0 BIGINT NOT NULL>");
  auto harness = aggregateHarness(aggregate);
  harness.push({Row::of("a", Instant::parse("2020-04-15T15:30:00Z"), 1, true),
                Row::of("a", Instant::parse("2020-04-15T16:30:00Z"), 2, true),
                Row::of("a", Instant::parse("2020-04-15T02:00:00Z"), 3, true)});
  EXPECT_EQ(harness.watermark(millis("2020-04-15T16:00") - 2),
            Rows{"Watermark[2020-04-15T15:59:59.998]"});
  EXPECT_EQ(harness.watermark(millis("2020-04-15T16:00") - 1),
            (Rows{"+I[a, 2020-04-15T00:00, 2020-04-16T00:00, 2020-04-15T15:59:59.999Z, 2]",
                  "Watermark[2020-04-15T15:59:59.999]"}));
  EXPECT_EQ(harness.finish(),
            (Rows{"+I[a, 2020-04-16T00:00, 2020-04-17T00:00, 2020-04-16T15:59:59.999Z, 1]"}));
}

// --- The window table function. ---

std::shared_ptr<const WindowTableFunctionSpec> tableFunctionSpec(WindowSpec windowSpec) {
  auto spec = std::make_shared<WindowTableFunctionSpec>();
  spec->inputRowType = inputType();
  spec->window = std::move(windowSpec);
  spec->outputRowType = parseLogicalType(
      "ROW<k STRING, ts TIMESTAMP(3), v INT, flag BOOLEAN, window_start TIMESTAMP(3) NOT NULL, "
      "window_end TIMESTAMP(3) NOT NULL, window_time TIMESTAMP(3) NOT NULL>");
  return spec;
}

WindowHarness tableFunctionHarness(WindowSpec windowSpec) {
  return WindowHarness(
      std::make_unique<WindowTableFunctionOperator>(tableFunctionSpec(std::move(windowSpec))),
      inputType());
}

TEST(WindowTest, TableFunctionTumbleAppendsTheWindowColumns) {
  auto harness = tableFunctionHarness(window(WindowKind::TUMBLE, 10 * kMinute));
  EXPECT_EQ(harness.push({input("a", "08:01", 1), input("b", "08:10", 2)}),
            (Rows{"+I[a, 2020-04-15T08:01, 1, true, 2020-04-15T08:00, 2020-04-15T08:10, "
                  "2020-04-15T08:09:59.999]",
                  "+I[b, 2020-04-15T08:10, 2, true, 2020-04-15T08:10, 2020-04-15T08:20, "
                  "2020-04-15T08:19:59.999]"}));
  EXPECT_EQ(harness.watermark("2020-04-15T08:10"), Rows{"Watermark[2020-04-15T08:10]"});
  EXPECT_EQ(harness.push({input("a", "08:09", 3), input("a", "08:11", 4)}),
            (Rows{"+I[a, 2020-04-15T08:11, 4, true, 2020-04-15T08:10, 2020-04-15T08:20, "
                  "2020-04-15T08:19:59.999]"}));
  EXPECT_EQ(harness.lateRecordsDropped(), 1);
  EXPECT_EQ(harness.finish(), Rows{});
}

TEST(WindowTest, TableFunctionHopEmitsOneRowPerWindow) {
  auto harness = tableFunctionHarness(window(WindowKind::HOP, 10 * kMinute, 5 * kMinute));
  // Flink's sliding assigner lists the latest window first.
  EXPECT_EQ(harness.push({input("a", "00:07", 1)}),
            (Rows{"+I[a, 2020-04-15T00:07, 1, true, 2020-04-15T00:05, 2020-04-15T00:15, "
                  "2020-04-15T00:14:59.999]",
                  "+I[a, 2020-04-15T00:07, 1, true, 2020-04-15T00:00, 2020-04-15T00:10, "
                  "2020-04-15T00:09:59.999]"}));
  // After the watermark 00:10, only the second window of 00:08 is still open.
  harness.watermark("2020-04-15T00:10");
  EXPECT_EQ(harness.push({input("a", "00:08", 2)}),
            (Rows{"+I[a, 2020-04-15T00:08, 2, true, 2020-04-15T00:05, 2020-04-15T00:15, "
                  "2020-04-15T00:14:59.999]"}));
  EXPECT_EQ(harness.lateRecordsDropped(), 0);
}

TEST(WindowTest, TableFunctionSplitsLargeOutputsIntoBoundedChunks) {
  auto harness = tableFunctionHarness(window(WindowKind::HOP, 10 * kMinute, kMinute));
  std::vector<Row> rows(300, input("a", "00:07", 1));
  EXPECT_EQ(harness.push(rows).size(), 3000u);  // CollectingOutput checks each chunk's size
}

TEST(WindowTest, TableFunctionRejectsSessionWindowsAndNullTimes) {
  EXPECT_THROW(WindowTableFunctionOperator(tableFunctionSpec(window(WindowKind::SESSION, 10))),
               ValidationException);
  auto harness = tableFunctionHarness(window(WindowKind::TUMBLE, 10 * kMinute));
  try {
    harness.push({Row::of("a", nullptr, 1, true)});
    FAIL();
  } catch (const TableException& e) {
    EXPECT_EQ(std::string(e.what()),
              "RowTime field should not be null, please convert it to a non-null long value.");
  }
}

}  // namespace
}  // namespace eddy::runtime::operators
