// WindowAssigner: the window arithmetic over a relational::WindowSpec (the time window of one of
// Flink's windowing table-valued functions — TUMBLE, HOP, CUMULATE or SESSION over a time
// attribute — as the planner hands it to the window operators WindowTableFunctionOperator and
// WindowAggregateOperator), shared by those operators (Flink's
// TimeWindow.getWindowStartWithOffset and the table runtime's
// Tumbling/Sliding/Cumulative/SessionWindowAssigner).
//
// A window is [start, end), end exclusive. Windows are computed in the *window scale*: the time
// column's own milliseconds for a TIMESTAMP, or, when the time is an instant (TIMESTAMP_LTZ or
// processing time) and `timeZone` is set, the wall-clock milliseconds of that instant in the
// zone, so that a TUMBLE of one day aligns to local midnight. window_start and window_end are
// reported in the window scale (TIMESTAMP(3)); the window's *window time* — its last
// millisecond, window_time, and the time at which it fires — is end - 1 in the column's scale,
// or zone.toEpochMillis(end) - 1 (an instant) when zoned. A window fires when the watermark (or
// the processing-time clock) reaches its window time.
//
//   TUMBLE(size, offset)         start = floor((t - offset) / size) * size + offset (floor
//                                toward -infinity), one window per row
//   HOP(slide, size, offset)     windows of `size` starting at every multiple of `slide`
//                                (+ offset); a row is in every one containing it (size / slide
//                                of them when slide divides size)
//   CUMULATE(step, size, offset) s = the TUMBLE(size, offset) start; windows [s, s + step),
//                                [s, s + 2 step) ... [s, s + size); a row at t is in every one
//                                whose end > t. size must be a multiple of step.
//   SESSION(gap)                 a row opens [t, t + gap); sessions of one key whose intervals
//                                intersect — overlapping or merely touching ([a, b) and [b, c)),
//                                as Flink's TimeWindow.intersects — merge into one
//
// Everything here is an immutable value or a pure function; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/session_time_zone.h"
#include "eddy/types/logical_type.h"
#include "relational/window.h"
#include "vector/vector.h"

namespace eddy::runtime::operators {

/// A window [start, end) in the window scale.
struct TimeWindow {
  int64_t start = 0;
  int64_t end = 0;

  bool operator==(const TimeWindow&) const = default;
};

/// Flink's TimeWindow.getWindowStartWithOffset: the start of the `size`-aligned window
/// (shifted by `offset`) containing `timestamp`, rounding toward -infinity.
int64_t windowStartWithOffset(int64_t timestamp, int64_t offset, int64_t size);

/// The message Flink fails with when a row's time attribute is NULL.
inline constexpr const char* kNullRowTimeMessage =
    "RowTime field should not be null, please convert it to a non-null long value.";

/// The window arithmetic of one WindowSpec (see the file comment). A small immutable value.
class WindowAssigner {
 public:
  /// Validates `spec` against `inputRowType` (the operator's input ROW type): positive size
  /// (and slide for HOP/CUMULATE), CUMULATE's size a multiple of its step, an event-time
  /// column of type TIMESTAMP or TIMESTAMP_LTZ. Throws ValidationException otherwise.
  WindowAssigner(const relational::WindowSpec& spec, const LogicalType& inputRowType);

  const relational::WindowSpec& spec() const { return spec_; }

  /// The event time of row `row` of the time column (epoch millis); throws TableException
  /// with kNullRowTimeMessage for NULL.
  static int64_t rowTime(const vector::Vector& timeColumn, int64_t row);
  /// A row time (or processing time) in the window scale: its wall clock when zoned.
  int64_t toWindowScale(int64_t time) const {
    return spec_.timeZone ? spec_.timeZone->toLocalMillis(time) : time;
  }
  /// Replaces `windows` by the windows containing `windowScaleTime`, in the order of Flink's
  /// assigners: HOP latest start first, CUMULATE smallest end first; SESSION gives [t, t+gap).
  void assignWindows(int64_t windowScaleTime, std::vector<TimeWindow>& windows) const;
  /// The window time of a window ending at `end` (window scale): end - 1, or
  /// zone.toEpochMillis(end) - 1 when zoned. The window fires when time reaches it.
  int64_t windowTime(int64_t end) const {
    return spec_.timeZone ? spec_.timeZone->toEpochMillis(end) - 1 : end - 1;
  }

 private:
  relational::WindowSpec spec_;
};

}  // namespace eddy::runtime::operators
