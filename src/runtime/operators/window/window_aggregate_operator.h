// WindowAggregateOperator: GROUP BY window_start, window_end [, keys] over a windowing TVF, as
// Flink's StreamExecWindowAggregate (SlicingWindowOperator; for SESSION its unslicing
// counterpart) and BatchExecHashWindowAggregate. The operator assigns windows itself from its
// WindowSpec (no WindowTableFunctionOperator runs in front of it); its output is insert-only:
// one +I row per (key, window) that received at least one row, emitted once, when the window
// fires. Empty windows are never emitted.
//
// Input: insert-only chunks (any other RowKind is accumulated as if inserted — the planner
// never feeds a changelog here), partitioned by the key columns (a HASH edge), so all rows of a
// key meet in one subtask.
//
// STREAMING, event time: a row is added to every window containing it whose window time
// (end - 1, see window_spec.h) is still ahead of the current watermark; a row all of whose
// windows are behind it is late: dropped and counted in JobMetrics::numLateRecordsDropped (HOP
// and CUMULATE skip only a row's late windows). When a watermark arrives, every window whose
// window time is <= the watermark fires and its state is released; then the watermark is
// forwarded. Processing time: windows by the clock at the chunk's arrival, fired by a
// ProcessingTimeService timer at the window time (epoch millis).
//
// SESSION: per key, a row opens [t, t + gap); sessions whose intervals intersect, touching
// ones included (Flink's TimeWindow.intersects), merge into their cover. A row whose merged
// session is already behind the watermark is late. AggregateCall accumulators have no merge
// operation, so a session keeps the input values its calls read (the argument and FILTER
// columns) and aggregates them, in arrival order, when it fires.
//
// finish(): every pending window fires, in event time and processing time alike — accepted
// data is never dropped silently at the end of a bounded input. BATCH: no watermarks arrive and
// nothing is late; every window fires at finish().
//
// Emission order (deterministic): the windows due at one firing are emitted by window end
// ascending, then by key bytes (vector::appendKeyBytes); output chunks hold at most
// kDefaultBatchSize rows.
//
// State lives in plain member containers: a hash map from (window end, key bytes) to the
// window's accumulators (SESSION: from key bytes to the key's sessions), and an ordered index
// from window time to the windows due then. Checkpointing of window operators comes later; the
// state is not part of a snapshot yet.
//
// Threading and ownership: one operator per subtask, called only by its task thread (timer
// callbacks included, see ProcessingTimeService). The spec is the shared immutable definition.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "function/aggregate/aggregate_call.h"
#include "runtime/operators/window/window_spec.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// The definition of one window aggregation (built by the planner, shared by all subtasks).
struct WindowAggregateSpec {
  LogicalTypePtr inputRowType;
  relational::WindowSpec window;
  /// GROUP BY columns other than the window's (input columns); may be empty.
  std::vector<int> keyColumns;
  /// Over input columns, as GroupAggregateOperator's (FILTER and DISTINCT included).
  std::vector<function::AggregateCall> calls;
  /// The output row, in order.
  std::vector<relational::WindowOutputColumn> outputColumns;
  LogicalTypePtr outputRowType;
};

class WindowAggregateOperator final : public StreamOperator {
 public:
  /// Throws ValidationException for an invalid window (see WindowAssigner), InternalError when
  /// outputColumns does not fit outputRowType or indexes out of range.
  explicit WindowAggregateOperator(std::shared_ptr<const WindowAggregateSpec> spec);
  ~WindowAggregateOperator() override;

  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void finish() override;

 private:
  /// The accumulators of one (key, window) of TUMBLE, HOP or CUMULATE.
  struct WindowState {
    std::vector<Value> keyValues;
    TimeWindow window;
    std::vector<function::Accumulator> accumulators;
  };
  /// The values a session's calls read from one input row (inputColumns_), with the row's
  /// arrival sequence.
  struct SessionRow {
    uint64_t sequence = 0;
    std::vector<Value> values;
  };
  struct Session {
    TimeWindow window;
    std::vector<SessionRow> rows;
  };
  /// The pending sessions of one key: sorted by start, pairwise not intersecting.
  struct SessionKey {
    std::vector<Value> keyValues;
    std::vector<Session> sessions;
  };

  void processChunk(const vector::Chunk& chunk);
  void processSessionRow(const vector::Chunk& chunk, int64_t row, int64_t time);
  bool isLate(int64_t end) const;
  void countLateRow();
  /// Appends `end` (order-preserving, 8 bytes) and then keyBytes_ to `out`, cleared first:
  /// the key of a window in windows_ and in pendingWindows_.
  void makeWindowKey(int64_t end, std::string_view keyBytes, std::string& out) const;
  /// Adds a window to the index of pending windows (registering a processing-time timer for a
  /// new window time).
  void addPending(int64_t end, const std::string& windowKey);
  void removePending(int64_t end, const std::string& windowKey);
  /// Fires every pending window whose window time is <= `time`, in emission order.
  void fireWindows(int64_t time);
  void fireSession(const std::string& keyBytes, int64_t end);
  void onProcessingTime(int64_t time);

  std::vector<function::Accumulator> newAccumulators() const;
  void accumulateRow(const vector::Chunk& chunk, int64_t row,
                     std::vector<function::Accumulator>& accumulators) const;
  void appendResult(const std::vector<Value>& keyValues, const TimeWindow& window,
                    const std::vector<function::Accumulator>& accumulators);
  void emitOutput();

  std::shared_ptr<const WindowAggregateSpec> spec_;
  WindowAssigner assigner_;
  bool batchMode_ = false;
  bool eventTime_ = true;  // STREAMING over a time column: watermarks fire, rows may be late
  int64_t currentWatermark_ = Watermark::kMin;
  std::unique_ptr<vector::Chunk> output_;

  // TUMBLE, HOP, CUMULATE: (window end, key bytes) → accumulators.
  absl::flat_hash_map<std::string, WindowState> windows_;
  // SESSION: key bytes → the key's sessions.
  absl::flat_hash_map<std::string, SessionKey> sessionKeys_;
  // The input columns the calls read (arguments and filters), and each column's position in
  // a SessionRow, or -1.
  std::vector<int> inputColumns_;
  std::vector<int> positionInSessionRow_;
  uint64_t nextSequence_ = 0;
  // Window time → window keys of the windows (sessions) that fire then.
  std::map<int64_t, absl::flat_hash_set<std::string>> pendingWindows_;

  // Per-row buffers, reused.
  std::string keyBytes_;
  std::string windowKey_;
  std::vector<TimeWindow> assigned_;
};

}  // namespace eddy::runtime::operators
