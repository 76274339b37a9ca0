// The time window of one of Flink's windowing table-valued functions (TUMBLE, HOP, CUMULATE,
// SESSION over a time attribute) and the columns a window aggregation outputs, as the plan
// describes them and the window operators take them (runtime/operators/window/window_spec.h
// holds the window arithmetic over a WindowSpec: WindowAssigner).
//
// A window is [start, end), end exclusive, computed in the *window scale*: the time column's
// own milliseconds for a TIMESTAMP, or, when the time is an instant (TIMESTAMP_LTZ or
// processing time) and `timeZone` is set, the wall-clock milliseconds of that instant in the
// zone, so that a TUMBLE of one day aligns to local midnight.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/session_time_zone.h"

namespace eddy::relational {

enum class WindowKind { TUMBLE, HOP, CUMULATE, SESSION };

/// The name of the table function: "TUMBLE", "HOP", "CUMULATE", "SESSION".
std::string windowKindName(WindowKind kind);

/// The window of a windowing TVF. Built by the planner, shared immutably by the subtasks of one
/// operator.
struct WindowSpec {
  WindowKind kind = WindowKind::TUMBLE;
  /// The input column holding the time attribute, TIMESTAMP(p) or TIMESTAMP_LTZ(p) (int64 epoch
  /// millis in the chunk; nanoseconds within the millisecond are ignored). Unused (may be -1)
  /// with processingTime.
  int timeColumn = -1;
  /// Assign windows by the wall clock at arrival
  /// (context.processingTimeService->currentProcessingTime(), an instant) instead of timeColumn.
  bool processingTime = false;
  int64_t size = 0;    ///< TUMBLE/HOP size, CUMULATE max size, SESSION gap (ms); > 0
  int64_t slide = 0;   ///< HOP slide, CUMULATE step (ms); > 0 for those two
  int64_t offset = 0;  ///< TUMBLE/HOP/CUMULATE offset (ms), Flink's `offset` argument
  /// Set when the time is an instant (TIMESTAMP_LTZ or proctime): windows align to this zone's
  /// wall clock, window_start/window_end are wall-clock TIMESTAMP(3) millis, and a window's
  /// event/processing time end is zone.toEpochMillis(window_end). Unset: the time column is a
  /// TIMESTAMP and start/end are in its own scale (a proctime without zone is read as UTC).
  std::optional<common::SessionTimeZone> timeZone;
};

/// One output column of a window aggregation.
struct WindowOutputColumn {
  /// KEY: the aggregation's keyColumns[index]'s value; CALL: calls[index]'s result;
  /// WINDOW_START / WINDOW_END: the window bounds (window scale, TIMESTAMP(3)); WINDOW_TIME: the
  /// window time (TIMESTAMP(3), or TIMESTAMP_LTZ(3) when zoned). The window columns must be
  /// timestamps.
  enum class Kind { KEY, WINDOW_START, WINDOW_END, WINDOW_TIME, CALL } kind = Kind::KEY;
  int index = 0;  ///< into keyColumns (KEY) or calls (CALL); unused otherwise
};

}  // namespace eddy::relational
