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
// from window time to the windows due then.
//
// Checkpoints (STREAMING): the pending windows are raw keyed state of the task's keyed state
// backend (OperatorContext::keyedStateBackend, registered in open()), "_window_aggregate/windows"
// (TUMBLE, HOP, CUMULATE: per key, each window's start, key values and accumulators) or
// "_window_aggregate/sessions" (per key, each session's bounds, key values and input rows with
// their arrival sequence), so every snapshot of the backend holds them by key group (the key
// group of the key bytes, as the exchange routes rows) and a restore at another parallelism
// reads exactly the keys of its key groups (docs/state_format.md, "Window aggregate"). The index
// of due windows and the processing-time timers are not written: a restore rebuilds them from
// the windows' ends (a processing-time window already due fires at the first timer check).
// Snapshots of TUMBLE, HOP and CUMULATE windows are asynchronous: the freeze copies each
// window's key bytes, bounds and values flat (FrozenWindows), and the task's async writer hashes,
// sorts and serializes them; sessions are written at the freeze. The
// event-time watermark is written too, unlike Flink's: as union operator list state
// "_window_aggregate/watermark", restored as the lowest of the old subtasks' values. Without it
// a row behind the old watermark arriving before the first watermark after a restore would open
// a window that had already fired and emit it a second time, which breaks the one-row-per-window
// contract (and an uninterrupted run drops that row as late). Bytes that do not decode throw
// InternalError naming the state, the operator and the key group; a snapshot of another query
// (other key columns or calls) throws ValidationException. Nothing is buffered across records,
// so prepareSnapshotPreBarrier has nothing to emit. BATCH registers no state.
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
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state.h"
#include "eddy/state/keyed_state_backend.h"
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
  // The raw keyed state points at the operator: neither copied nor moved.
  WindowAggregateOperator(const WindowAggregateOperator&) = delete;
  WindowAggregateOperator& operator=(const WindowAggregateOperator&) = delete;

  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void finish() override;
  /// Writes the watermark into its operator list state; the windows are written by the keyed
  /// state backend (see the file comment).
  void snapshotState(StateSnapshotContext& context) override;

  /// The names of the operator's state (see the file comment).
  static constexpr const char* kWindowsStateName = "_window_aggregate/windows";
  static constexpr const char* kSessionsStateName = "_window_aggregate/sessions";
  static constexpr const char* kWatermarkStateName = "_window_aggregate/watermark";

 private:
  /// The pending windows (or sessions) as raw keyed state: written from and restored into
  /// windows_ (sessionKeys_).
  class PendingWindowsState final : public state::RawKeyedState {
   public:
    explicit PendingWindowsState(WindowAggregateOperator* windowOperator)
        : operator_(windowOperator) {}
    /// TUMBLE, HOP and CUMULATE: the windows copied flat, written on the async writer.
    std::unique_ptr<state::FrozenKeyGroups> freezeKeyGroups(KeyGroupRange range,
                                                            int maxParallelism) const override;
    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override;
    void restoreKeyGroup(int keyGroup, std::string_view body) override;

   private:
    WindowAggregateOperator* operator_;
  };

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

  /// Checkpoints: the name of the raw keyed state (windows or sessions).
  const char* pendingStateName() const;
  /// Checkpoints: appends the block bodies of the windows (sessions) of `range`'s key groups
  /// (docs/state_format.md).
  void snapshotWindows(KeyGroupRange range, int maxParallelism,
                       std::vector<std::string>& bodies) const;
  /// Checkpoints: the windows as they are now, to be written later (snapshotWindows = freeze,
  /// then write).
  std::unique_ptr<state::FrozenKeyGroups> freezeWindows(KeyGroupRange range,
                                                        int maxParallelism) const;
  void snapshotSessions(KeyGroupRange range, int maxParallelism,
                        std::vector<std::string>& bodies) const;
  /// Checkpoints: decodes the block body of `keyGroup` and adds its windows (sessions) to the
  /// state, replacing a key's windows of the same end (a key's sessions); all of it or, when it
  /// does not decode, nothing (InternalError naming the state, see the file comment).
  void restoreWindows(int keyGroup, std::string_view body);
  void restoreSessions(int keyGroup, std::string_view body);
  /// Checkpoints: reads a key's bytes from `body` and checks that they hash to `keyGroup`.
  std::string_view readRestoredKey(int keyGroup, std::string_view& body) const;
  /// Checkpoints: the ValidationException for a snapshot whose `what` does not fit the query.
  [[noreturn]] void throwRestoredShapeMismatch(const std::string& what) const;

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

  // Checkpoints (STREAMING): windows_ or sessionKeys_ as raw keyed state, and the watermark's
  // union list state (event time only).
  PendingWindowsState pendingState_{this};
  std::vector<size_t> accumulatorSizes_;  // per call, createAccumulator's number of values
  ListState<int64_t>* watermarkState_ = nullptr;

  // Per-row buffers, reused.
  std::string keyBytes_;
  std::string windowKey_;
  std::vector<TimeWindow> assigned_;
};

}  // namespace eddy::runtime::operators
