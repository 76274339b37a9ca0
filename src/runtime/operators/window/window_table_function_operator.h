// WindowTableFunctionOperator: a windowing table-valued function that is not followed by a
// window aggregation — `SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10'
// MINUTES))` — as Flink's WindowTableFunctionOperator. Each input row is emitted once per window
// that contains it (TUMBLE: one; HOP and CUMULATE: several, in the order of Flink's assigners,
// see window_spec.h), extended by three columns: window_start TIMESTAMP(3) NOT NULL, window_end
// TIMESTAMP(3) NOT NULL and window_time (TIMESTAMP(3), or TIMESTAMP_LTZ(3) when the spec is
// zoned) — all three as millisecond timestamps computed by WindowAssigner.
//
// Event time (STREAMING): a window whose window time (end - 1) is at or behind the current
// watermark is late and skipped; a row all of whose windows are late is dropped and counted in
// JobMetrics::numLateRecordsDropped. A NULL time attribute fails the job with Flink's message.
// Processing time: windows by the clock at the chunk's arrival; nothing is late. BATCH: no
// watermarks arrive, so nothing is late. Watermarks are forwarded unchanged. Rows keep their
// RowKind (the planner feeds insert-only input). SESSION windows need the rows of a key
// together and are not supported here: construction throws.
//
// The operator is stateless apart from the current watermark, so it needs no keyed input and
// checkpoints nothing. Threading and ownership: one operator per subtask, called only by its
// task thread (see StreamOperator); the spec is the shared immutable definition.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "runtime/operators/window/window_spec.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// The definition of one window TVF (built by the planner, shared by all subtasks).
struct WindowTableFunctionSpec {
  LogicalTypePtr inputRowType;
  relational::WindowSpec window;
  /// The input fields, then window_start, window_end, window_time (see the file comment).
  LogicalTypePtr outputRowType;
};

class WindowTableFunctionOperator final : public StreamOperator {
 public:
  /// Throws ValidationException for an invalid window (see WindowAssigner) or a SESSION
  /// window, InternalError when outputRowType is not the input fields plus three timestamps.
  explicit WindowTableFunctionOperator(std::shared_ptr<const WindowTableFunctionSpec> spec);

  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;

 private:
  vector::Chunk windowChunk(const vector::Chunk& chunk);

  std::shared_ptr<const WindowTableFunctionSpec> spec_;
  WindowAssigner assigner_;
  bool eventTime_ = true;  // STREAMING over a time column: late windows are skipped
  int64_t currentWatermark_ = Watermark::kMin;
  // Per-chunk buffers, reused: the input row of each output row and its window.
  std::vector<int32_t> selectedRows_;
  std::vector<TimeWindow> selectedWindows_;
  std::vector<TimeWindow> windows_;
};

}  // namespace eddy::runtime::operators
