// The window operators over chunks, driven one subtask at a time by a harness that pushes
// chunks, watermarks and processing-time advances and collects the exact output: window
// aggregation over TUMBLE (out-of-order rows, late rows, the exclusive window end, empty
// windows), HOP, CUMULATE and SESSION windows, DISTINCT and FILTER calls, BATCH against
// STREAMING, processing-time windows, TIMESTAMP_LTZ windows in a non-UTC zone; checkpoints of
// the window aggregation (a restore at every point of a script gives the uninterrupted output,
// for every window kind; pending sessions merge across a restore in arrival order; a restore at
// another parallelism and back; processing-time windows fire after a restore; the watermark
// survives a restore; bytes that do not decode or do not fit the query are rejected); and the
// rows of the window table function for TUMBLE and HOP.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>

#include "eddy/detail/state/key_group_snapshot.h"
#include "runtime/operators/tests/operator_test_harness.h"
#include "runtime/operators/window/window_aggregate_operator.h"
#include "runtime/operators/window/window_table_function_operator.h"
#include "vector/chunk_operations.h"

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
                                    options(mode)) {}
  /// Subtask `subtask`, restored from its snapshots where it names them.
  WindowHarness(std::unique_ptr<StreamOperator> windowOperator, LogicalTypePtr inputRowType,
                testing::SubtaskOptions subtask)
      : OneInputOperatorTestHarness(std::move(windowOperator), std::move(inputRowType),
                                    options(RuntimeExecutionMode::STREAMING), std::move(subtask)) {}

  static testing::HarnessOptions options(RuntimeExecutionMode mode) {
    return {.operatorName = "Window",
            .mode = mode,
            .watermarksAmongRows = testing::printWatermarkWallClock};
  }

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

/// Subtask `subtaskIndex` of `parallelism` of a window aggregation, restored from `previous`
/// (the snapshots of every old subtask; none: a fresh start).
std::unique_ptr<WindowHarness> subtaskHarness(std::shared_ptr<const WindowAggregateSpec> spec,
                                              std::vector<OperatorSnapshot> previous,
                                              int subtaskIndex = 0, int parallelism = 1) {
  LogicalTypePtr inputRowType = spec->inputRowType;
  return std::make_unique<WindowHarness>(
      std::make_unique<WindowAggregateOperator>(std::move(spec)), std::move(inputRowType),
      testing::SubtaskOptions{.subtaskIndex = subtaskIndex,
                              .parallelism = parallelism,
                              .restoredFrom = std::move(previous)});
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

// --- Checkpoints of the window aggregation. ---

/// One step of a script: a chunk of rows, or a watermark (wall clock on 2020-04-15).
struct Step {
  std::vector<Row> rows;
  std::optional<std::string> watermark;
};

Step rowsStep(std::vector<Row> rows) { return Step{std::move(rows), std::nullopt}; }
Step watermarkStep(std::string_view time) { return Step{{}, "2020-04-15T" + std::string(time)}; }

/// Runs steps [begin, end) of `script`; returns their output.
Rows runSteps(WindowHarness& harness, const std::vector<Step>& script, size_t begin, size_t end) {
  Rows output;
  for (size_t i = begin; i < end; ++i) {
    Rows emitted = script[i].watermark ? harness.watermark(*script[i].watermark)
                                       : harness.push(script[i].rows);
    output.insert(output.end(), emitted.begin(), emitted.end());
  }
  return output;
}

/// Out-of-order rows of three keys, late rows, sessions that merge and windows of every kind
/// pending at every step.
std::vector<Step> checkpointScript() {
  return {rowsStep({input("a", "00:01", 1), input("b", "00:03", 2), input("a", "00:07", 3)}),
          watermarkStep("00:04"),
          rowsStep({input("a", "00:12", 4), input("c", "00:02", 5), input("b", "00:09", 6)}),
          watermarkStep("00:10"),
          rowsStep({input("a", "00:05", 7), input("b", "00:14", 8), input("c", "00:16", 9),
                    input("a", "00:09", 10)}),
          watermarkStep("00:15"),
          rowsStep({input("a", "00:13", 11), input("b", "00:21", 12), input("b", "00:11", 13)}),
          watermarkStep("00:22"),
          // c 00:01 is late for every kind: its windows (its new session) fired at 00:10.
          rowsStep({input("c", "00:24", 14), input("c", "00:01", 16), input("a", "00:30", 15)})};
}

/// COUNT(*), SUM(v), FIRST_VALUE(v), LAST_VALUE(v) and COUNT(DISTINCT v): accumulators of
/// numbers, arrival order and a distinct table.
std::vector<AggregateCall> checkpointCalls() {
  AggregateCall firstValue{AggregateKind::FIRST_VALUE, 2,
                           LogicalType::simple(LogicalTypeRoot::INTEGER)};
  AggregateCall lastValue{AggregateKind::LAST_VALUE, 2,
                          LogicalType::simple(LogicalTypeRoot::INTEGER)};
  AggregateCall distinctValues{AggregateKind::COUNT, 2,
                               LogicalType::simple(LogicalTypeRoot::BIGINT, false)};
  distinctValues.distinct = true;
  std::vector<AggregateCall> calls = {countStar(), sumOfValues(), firstValue, lastValue,
                                      distinctValues};
  for (AggregateCall& call : calls) call.retractable = false;  // as the planner's
  return calls;
}

TEST(WindowTest, ARestoreAtAnyStepGivesTheUninterruptedOutput) {
  const std::vector<Step> script = checkpointScript();
  for (WindowKind kind :
       {WindowKind::TUMBLE, WindowKind::HOP, WindowKind::CUMULATE, WindowKind::SESSION}) {
    SCOPED_TRACE(windowKindName(kind));
    auto spec =
        aggregateSpec(window(kind, 10 * kMinute, kind == WindowKind::SESSION ? 0 : 5 * kMinute),
                      checkpointCalls());
    auto uninterrupted = subtaskHarness(spec, {});
    Rows expected = runSteps(*uninterrupted, script, 0, script.size());
    Rows finished = uninterrupted->finish();
    expected.insert(expected.end(), finished.begin(), finished.end());
    ASSERT_GE(uninterrupted->lateRecordsDropped(), 1);
    for (size_t cut = 0; cut <= script.size(); ++cut) {
      SCOPED_TRACE("snapshot after step " + std::to_string(cut));
      auto before = subtaskHarness(spec, {});
      Rows output = runSteps(*before, script, 0, cut);
      OperatorSnapshot snapshot = before->snapshot(1);
      auto after = subtaskHarness(spec, {snapshot});
      // The restored state is the snapshotted state: it snapshots to the same bytes.
      EXPECT_EQ(after->snapshot(2), snapshot);
      Rows rest = runSteps(*after, script, cut, script.size());
      output.insert(output.end(), rest.begin(), rest.end());
      finished = after->finish();
      output.insert(output.end(), finished.begin(), finished.end());
      EXPECT_EQ(output, expected);
      EXPECT_EQ(before->lateRecordsDropped() + after->lateRecordsDropped(),
                uninterrupted->lateRecordsDropped());
    }
  }
}

TEST(WindowTest, TumbleWindowsPendingAtASnapshotFireAfterTheRestore) {
  auto spec = aggregateSpec(window(WindowKind::TUMBLE, 10 * kMinute));
  OperatorSnapshot snapshot;
  {
    auto before = subtaskHarness(spec, {});
    before->push({input("a", "08:01", 1), input("b", "08:03", 10), input("a", "08:12", 2)});
    EXPECT_EQ(before->watermark("2020-04-15T08:05"), Rows{"Watermark[2020-04-15T08:05]"});
    snapshot = before->snapshot(7);
    // The windows are keyed state, the watermark operator list state.
    EXPECT_FALSE(snapshot.keyedState.empty());
    EXPECT_TRUE(snapshot.operatorState.contains(
        "_operator_list_state/" + std::string(WindowAggregateOperator::kWatermarkStateName)));
  }
  auto after = subtaskHarness(spec, {snapshot});
  after->push({input("a", "08:07", 4), input("c", "08:15", 5)});
  EXPECT_EQ(
      after->watermark("2020-04-15T08:10"),
      (Rows{"+I[a, 2020-04-15T08:00, 2020-04-15T08:10, 2, 5]",
            "+I[b, 2020-04-15T08:00, 2020-04-15T08:10, 1, 10]", "Watermark[2020-04-15T08:10]"}));
  EXPECT_EQ(after->finish(), (Rows{"+I[a, 2020-04-15T08:10, 2020-04-15T08:20, 1, 2]",
                                   "+I[c, 2020-04-15T08:10, 2020-04-15T08:20, 1, 5]"}));
}

// An asynchronous snapshot of HOP windows: what the freeze copied is written after more rows
// changed the windows' accumulators, new windows opened and a watermark fired some, as a
// synchronous snapshot wrote it at the freeze; a restore from it fires the frozen windows.
TEST(WindowTest, AnAsynchronousSnapshotWritesTheWindowsOfItsFreeze) {
  auto spec = aggregateSpec(window(WindowKind::HOP, 10 * kMinute, 5 * kMinute));
  auto before = subtaskHarness(spec, {});
  before->push({input("a", "08:01", 1), input("b", "08:03", 10), input("a", "08:07", 2)});
  const OperatorSnapshot atFreeze = before->snapshot(1);
  auto frozen = before->freezeSnapshot(2);
  before->push({input("a", "08:04", 5), input("c", "08:12", 7)});
  EXPECT_FALSE(before->watermark("2020-04-15T08:06").empty());  // fires [07:55, 08:05)
  EXPECT_NE(before->snapshot(3).keyedState, atFreeze.keyedState);
  const OperatorSnapshot written = frozen.write();
  EXPECT_EQ(written.keyedState, atFreeze.keyedState);
  auto after = subtaskHarness(spec, {written});
  EXPECT_EQ(after->finish(),
            (Rows{"+I[a, 2020-04-15T07:55, 2020-04-15T08:05, 1, 1]",
                  "+I[b, 2020-04-15T07:55, 2020-04-15T08:05, 1, 10]",
                  "+I[a, 2020-04-15T08:00, 2020-04-15T08:10, 2, 3]",
                  "+I[b, 2020-04-15T08:00, 2020-04-15T08:10, 1, 10]",
                  "+I[a, 2020-04-15T08:05, 2020-04-15T08:15, 1, 2]"}));
}

TEST(WindowTest, TheWatermarkSurvivesARestoreSoAFiredWindowStaysFired) {
  auto spec = aggregateSpec(window(WindowKind::TUMBLE, 10 * kMinute));
  auto before = subtaskHarness(spec, {});
  before->push({input("a", "08:01", 1), input("a", "08:12", 2)});
  EXPECT_EQ(
      before->watermark("2020-04-15T08:10"),
      (Rows{"+I[a, 2020-04-15T08:00, 2020-04-15T08:10, 1, 1]", "Watermark[2020-04-15T08:10]"}));
  auto after = subtaskHarness(spec, {before->snapshot(1)});
  // Before any watermark reaches the restored operator, a row of the fired window is late, as
  // in the uninterrupted run; it does not open that window again.
  after->push({input("a", "08:09", 4)});
  EXPECT_EQ(after->lateRecordsDropped(), 1);
  // A watermark behind the restored one is forwarded and fires nothing.
  EXPECT_EQ(after->watermark("2020-04-15T08:00"), Rows{"Watermark[2020-04-15T08:00]"});
  EXPECT_EQ(after->finish(), (Rows{"+I[a, 2020-04-15T08:10, 2020-04-15T08:20, 1, 2]"}));
}

TEST(WindowTest, SessionsPendingAtASnapshotMergeAfterTheRestoreInArrivalOrder) {
  AggregateCall firstValue{AggregateKind::FIRST_VALUE, 2,
                           LogicalType::simple(LogicalTypeRoot::INTEGER)};
  AggregateCall lastValue{AggregateKind::LAST_VALUE, 2,
                          LogicalType::simple(LogicalTypeRoot::INTEGER)};
  auto spec =
      aggregateSpec(window(WindowKind::SESSION, 5 * kMinute), {countStar(), firstValue, lastValue});
  auto before = subtaskHarness(spec, {});
  // Two sessions of a: [00:00, 00:07) with 2 and 3, and [00:08, 00:13) with 1, which arrived
  // first.
  before->push({input("a", "00:08", 1), input("a", "00:00", 2), input("a", "00:02", 3),
                input("b", "00:01", 10)});
  EXPECT_EQ(before->watermark("2020-04-15T00:03"), Rows{"Watermark[2020-04-15T00:03]"});
  auto after = subtaskHarness(spec, {before->snapshot(1)});
  // 00:06 bridges them: one session [00:00, 00:13); the calls see the rows in arrival order,
  // 1, 2, 3 (the restored ones) and then 4.
  after->push({input("a", "00:06", 4)});
  EXPECT_EQ(
      after->watermark("2020-04-15T00:13"),
      (Rows{"+I[b, 2020-04-15T00:01, 2020-04-15T00:06, 1, 10, 10]",
            "+I[a, 2020-04-15T00:00, 2020-04-15T00:13, 4, 1, 4]", "Watermark[2020-04-15T00:13]"}));
  EXPECT_EQ(after->finish(), Rows{});
}

// The same for sessions (written at the freeze: an asynchronous copy measured no shorter pause
// on Nexmark q11): rows that merge, extend and open sessions after the freeze, and a watermark
// that fires one, leave the frozen snapshot as a synchronous one at the freeze.
TEST(WindowTest, AnAsynchronousSnapshotWritesTheSessionsOfItsFreeze) {
  auto spec = aggregateSpec(window(WindowKind::SESSION, 5 * kMinute));
  auto before = subtaskHarness(spec, {});
  before->push({input("a", "00:08", 1), input("a", "00:00", 2), input("b", "00:01", 10)});
  const OperatorSnapshot atFreeze = before->snapshot(1);
  auto frozen = before->freezeSnapshot(2);
  before->push({input("a", "00:04", 3), input("c", "00:02", 7), input("b", "00:03", 1)});
  EXPECT_FALSE(before->watermark("2020-04-15T00:12").empty());  // fires b's session
  EXPECT_NE(before->snapshot(3).keyedState, atFreeze.keyedState);
  const OperatorSnapshot written = frozen.write();
  EXPECT_EQ(written.keyedState, atFreeze.keyedState);
  auto after = subtaskHarness(spec, {written});
  EXPECT_EQ(after->finish(), (Rows{"+I[a, 2020-04-15T00:00, 2020-04-15T00:05, 1, 2]",
                                   "+I[b, 2020-04-15T00:01, 2020-04-15T00:06, 1, 10]",
                                   "+I[a, 2020-04-15T00:08, 2020-04-15T00:13, 1, 1]"}));
}

TEST(WindowTest, ProcessingTimeWindowsFireAfterARestore) {
  WindowSpec windowSpec = window(WindowKind::TUMBLE, 10 * kMinute);
  windowSpec.processingTime = true;
  windowSpec.timeColumn = -1;
  auto spec = aggregateSpec(windowSpec);
  auto before = subtaskHarness(spec, {});
  before->advanceProcessingTime(millis("2020-04-15T08:01"));
  before->push({input("a", "2000-01-01T00:00", 1), input("b", "2000-01-01T00:00", 2)});
  auto after = subtaskHarness(spec, {before->snapshot(1)});
  after->advanceProcessingTime(millis("2020-04-15T08:04"));
  after->push({input("a", "2000-01-01T00:00", 4)});
  // The restore scheduled the restored window's timer again.
  EXPECT_EQ(after->advanceProcessingTime(millis("2020-04-15T08:10") - 1),
            (Rows{"+I[a, 2020-04-15T08:00, 2020-04-15T08:10, 2, 5]",
                  "+I[b, 2020-04-15T08:00, 2020-04-15T08:10, 1, 2]"}));
  EXPECT_EQ(after->finish(), Rows{});
}

/// The key group (of 128) of `row`'s key, k.
int keyGroupOf(const Row& row) {
  vector::Chunk chunk = vector::rowsToChunk({row}, inputType());
  std::string keyBytes;
  vector::appendKeyBytes(chunk, {0}, 0, keyBytes);
  return assignToKeyGroup(keyBytes, 128);
}

/// The subtask of `parallelism` that the exchange sends `row` to.
int subtaskOf(const Row& row, int parallelism) {
  return computeOperatorIndexForKeyGroup(128, parallelism, keyGroupOf(row));
}

/// The rows, without the watermarks, sorted: subtasks emit their keys' windows independently.
Rows sortedRows(Rows rows) {
  std::erase_if(rows, [](const std::string& row) { return row.starts_with("Watermark"); });
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(WindowTest, ARestoreAtAnotherParallelismSplitsTheKeysByKeyGroup) {
  auto spec = aggregateSpec(window(WindowKind::TUMBLE, 10 * kMinute));
  auto rowsAt = [](std::string_view time, int value) {
    std::vector<Row> rows;
    for (int key = 0; key < 16; ++key) {
      rows.push_back(input(("k" + std::to_string(key)).c_str(), time, value + key));
    }
    return rows;
  };
  // Before the first snapshot (parallelism 1): [00:00, 00:10) fires, [00:10, 00:20) is
  // pending. Before the second (parallelism 2): late rows, [00:10, 00:20) fires, [00:20, 00:30)
  // is pending. After it (parallelism 1 again): [00:20, 00:30) fires at the end.
  std::vector<Row> first = rowsAt("00:01", 0);
  for (Row& row : rowsAt("00:12", 100)) first.push_back(std::move(row));
  std::vector<Row> late = rowsAt("00:03", 200);
  std::vector<Row> second = rowsAt("00:15", 300);
  for (Row& row : rowsAt("00:25", 400)) second.push_back(std::move(row));
  std::vector<Row> third = rowsAt("00:27", 500);

  auto uninterrupted = subtaskHarness(spec, {});
  Rows expected;
  auto collect = [](Rows& into, const Rows& rows) {
    into.insert(into.end(), rows.begin(), rows.end());
  };
  collect(expected, uninterrupted->push(first));
  collect(expected, uninterrupted->watermark("2020-04-15T00:10"));
  collect(expected, uninterrupted->push(late));
  collect(expected, uninterrupted->push(second));
  collect(expected, uninterrupted->watermark("2020-04-15T00:20"));
  collect(expected, uninterrupted->push(third));
  collect(expected, uninterrupted->finish());
  ASSERT_EQ(sortedRows(expected).size(), 48u);  // 16 keys, three windows each
  ASSERT_EQ(uninterrupted->lateRecordsDropped(), 16);

  Rows output;
  auto single = subtaskHarness(spec, {});
  collect(output, single->push(first));
  collect(output, single->watermark("2020-04-15T00:10"));
  std::vector<OperatorSnapshot> singleSnapshot = {single->snapshot(1)};
  std::vector<OperatorSnapshot> rescaledSnapshots;
  {
    std::vector<std::unique_ptr<WindowHarness>> subtasks;
    for (int index = 0; index < 2; ++index) {
      subtasks.push_back(subtaskHarness(spec, singleSnapshot, index, 2));
    }
    // The exchange sends each key to the subtask owning its key group; both own some keys.
    std::set<std::string> keysOfSubtask[2];
    for (const std::vector<Row>* rows : {&late, &second}) {
      std::vector<Row> routed[2];
      for (const Row& row : *rows) {
        int subtask = subtaskOf(row, 2);
        routed[subtask].push_back(row);
        keysOfSubtask[subtask].insert(row.getField(0).get<std::string>());
      }
      for (int index = 0; index < 2; ++index) {
        if (!routed[index].empty()) collect(output, subtasks[index]->push(routed[index]));
      }
    }
    EXPECT_FALSE(keysOfSubtask[0].empty());
    EXPECT_FALSE(keysOfSubtask[1].empty());
    for (int index = 0; index < 2; ++index) {
      SCOPED_TRACE("new subtask " + std::to_string(index));
      // Both got the restored watermark: the rows of the fired window are late in both.
      EXPECT_EQ(subtasks[index]->lateRecordsDropped(),
                static_cast<int64_t>(keysOfSubtask[index].size()));
      Rows fired = subtasks[index]->watermark("2020-04-15T00:20");
      // Each holds the windows of its own keys only: "+I[k3, ...".
      for (const std::string& row : sortedRows(fired)) {
        EXPECT_TRUE(keysOfSubtask[index].contains(row.substr(3, row.find(',') - 3))) << row;
      }
      collect(output, fired);
      rescaledSnapshots.push_back(subtasks[index]->snapshot(2));
    }
  }
  // Back to one subtask, from both subtasks' snapshots.
  auto merged = subtaskHarness(spec, rescaledSnapshots);
  collect(output, merged->push(third));
  collect(output, merged->finish());
  EXPECT_EQ(sortedRows(output), sortedRows(expected));
}

/// A global window aggregation (no GROUP BY key): window_start, window_end, COUNT(*).
std::shared_ptr<const WindowAggregateSpec> globalAggregateSpec() {
  auto spec = std::make_shared<WindowAggregateSpec>(
      *aggregateSpec(window(WindowKind::TUMBLE, 10 * kMinute), {countStar()}));
  spec->keyColumns.clear();
  spec->outputColumns.erase(spec->outputColumns.begin());
  spec->outputRowType = parseLogicalType(
      "ROW<window_start TIMESTAMP(3) NOT NULL, window_end TIMESTAMP(3) NOT NULL, "
      "c0 BIGINT NOT NULL>");
  return spec;
}

TEST(WindowTest, AGlobalWindowAggregateIsInTheKeyGroupOfTheEmptyKey) {
  auto before = subtaskHarness(globalAggregateSpec(), {});
  before->push({input("a", "08:01", 1), input("b", "08:03", 2)});
  OperatorSnapshot snapshot = before->snapshot(1);
  ASSERT_EQ(snapshot.keyedState.size(), 128u);  // a section per key group, one with windows
  const int keyGroup = assignToKeyGroup("", 128);
  for (const auto& [group, section] : snapshot.keyedState) {
    EXPECT_EQ(section.size() > 3, group == keyGroup) << "key group " << group;
  }
  auto after = subtaskHarness(globalAggregateSpec(), {snapshot});
  after->push({input("c", "08:05", 3)});
  EXPECT_EQ(after->finish(), (Rows{"+I[2020-04-15T08:00, 2020-04-15T08:10, 3]"}));
}

/// `section` with the body of its block `stateName` cut by its last byte (the framing stays
/// valid, so the backend hands the cut body to the state).
std::string truncateBlock(std::string_view section, std::string_view stateName) {
  std::string out(section.substr(0, 1));  // version
  section.remove_prefix(1);
  serialization::writeVarint(serialization::readVarint(section), out);  // key group
  uint64_t blockCount = serialization::readVarint(section);
  serialization::writeVarint(blockCount, out);
  for (uint64_t i = 0; i < blockCount; ++i) {
    std::string_view name = state::readLengthPrefixed(section);
    state::writeLengthPrefixed(name, out);
    out.append(section.substr(0, 2));  // kind, flags
    section.remove_prefix(2);
    std::string_view body = state::readLengthPrefixed(section);
    if (name == stateName) body.remove_suffix(1);
    state::writeLengthPrefixed(body, out);
  }
  return out;
}

TEST(WindowTest, ARestoreOfBytesThatDoNotDecodeNamesTheState) {
  for (WindowKind kind : {WindowKind::TUMBLE, WindowKind::SESSION}) {
    SCOPED_TRACE(windowKindName(kind));
    auto spec = aggregateSpec(window(kind, 10 * kMinute));
    auto before = subtaskHarness(spec, {});
    before->push({input("a", "08:01", 1), input("a", "08:02", 2)});
    OperatorSnapshot snapshot = before->snapshot(1);
    const int keyGroup = keyGroupOf(input("a", "08:01", 1));
    const std::string stateName = kind == WindowKind::SESSION
                                      ? WindowAggregateOperator::kSessionsStateName
                                      : WindowAggregateOperator::kWindowsStateName;
    snapshot.keyedState[keyGroup] = truncateBlock(snapshot.keyedState[keyGroup], stateName);
    try {
      subtaskHarness(spec, {snapshot});
      FAIL() << "restored a truncated block";
    } catch (const InternalError& e) {
      EXPECT_EQ(std::string(e.what()),
                "Cannot restore state '" + stateName + "' of operator 'Window' in key group " +
                    std::to_string(keyGroup) + ": truncated byte string in a state snapshot");
    }
  }
}

TEST(WindowTest, ARestoreIntoAnotherQueryIsRejected) {
  auto before = subtaskHarness(aggregateSpec(window(WindowKind::TUMBLE, 10 * kMinute)), {});
  before->push({input("a", "08:01", 1)});
  OperatorSnapshot snapshot = before->snapshot(1);
  // COUNT(*) alone instead of COUNT(*), SUM(v): one accumulator value instead of three.
  try {
    subtaskHarness(aggregateSpec(window(WindowKind::TUMBLE, 10 * kMinute), {countStar()}),
                   {snapshot});
    FAIL() << "restored the windows of another query";
  } catch (const ValidationException& e) {
    EXPECT_EQ(std::string(e.what()),
              "Cannot restore state '_window_aggregate/windows' of operator 'Window': the "
              "snapshot's windows have 3 accumulator values, the query's calls 1; was the query "
              "changed?");
  }
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
