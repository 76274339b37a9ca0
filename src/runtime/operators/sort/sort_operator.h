// SortOperator: ORDER BY with LIMIT/OFFSET over chunks, as Flink's BatchExecSort and
// BatchExecSortLimit (BATCH), and the streaming LIMIT without ORDER BY (StreamExecLimit).
//
// BATCH: the input chunks are buffered as they are; at the end of input the rows are sorted by
// the keys (a RowSorter over order-preserving key bytes; stable: equal keys keep their arrival
// order; NULLs first in ascending order, last in descending, as Flink's default; FLOAT/DOUBLE
// as Java's Double.compare), `offset` rows are skipped and at most `fetch` emitted, as +I,
// gathered from the buffered chunks a column at a time (with a fetch only the rows up to
// offset + fetch are put in order).
// STREAMING (no keys, insert-only input): rows pass through until `offset + fetch` have been
// seen; later rows are dropped. Runs at parallelism 1 (a global order).
// STREAMING temporal sort (timeColumn set): see SortSpec::timeColumn.
//
// Checkpoints (STREAMING): as Flink's TemporalSort and Limit, the state is keyed state under
// the empty key (both run at parallelism 1; a restore at another parallelism gives it to the
// subtask owning the empty key's key group). The temporal sort's waiting rows are raw keyed
// state "_temporal_sort/rows" (docs/state_format.md, "Temporal sort and limit"), in the order
// they are emitted in (time, then arrival), each row's columns as Values; a restore (in open())
// files them under their times again. Its watermark is union operator list state
// "_temporal_sort/watermark" (the lowest restored value wins), so a row late before the
// restore stays late. The LIMIT's count of rows seen is the ValueState "rows-seen" (BIGINT).
// Bytes that do not decode throw InternalError naming the state, the operator and the key
// group. BATCH keeps nothing across a checkpoint and registers no state.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/row.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"
#include "relational/ordering.h"
#include "runtime/operators/stored_rows/row_store.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

struct SortSpec {
  LogicalTypePtr rowType;
  std::vector<relational::SortKey> keys;
  int64_t offset = 0;
  int64_t fetch = -1;  // -1: no limit
  /// STREAMING ORDER BY a rowtime (Flink's TemporalSort): this column (the first key,
  /// ascending) holds the rowtime; rows wait until the watermark passes their time and are then
  /// emitted in key order; a row arriving behind the watermark is late (dropped and counted).
  /// -1: not a temporal sort.
  int timeColumn = -1;
};

class SortOperator final : public StreamOperator {
 public:
  explicit SortOperator(std::shared_ptr<const SortSpec> spec) : spec_(std::move(spec)) {}
  /// STREAMING: registers the state, restoring it (see the file comment).
  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void finish() override;
  /// STREAMING: writes the watermark (temporal sort) or the rows seen (LIMIT) into their state;
  /// the waiting rows are written by the keyed state backend.
  void snapshotState(StateSnapshotContext& context) override;

  /// Temporal sort: rows waiting for the watermark. For tests.
  size_t pendingRows() const;

  /// The state names (see the file comment).
  static constexpr const char* kRowsStateName = "_temporal_sort/rows";
  static constexpr const char* kWatermarkStateName = "_temporal_sort/watermark";
  static constexpr const char* kRowsSeenStateName = "rows-seen";

 private:
  /// Sorts `rows` by the keys (stable).
  void sortRows(std::vector<Row>& rows) const;
  /// Emits rows [begin, end) as +I in chunks.
  void emitRows(std::vector<Row>& rows, int64_t begin, int64_t end);
  void processTemporal(std::vector<vector::Chunk>& chunks);

  /// The temporal sort's waiting rows as raw keyed state under the empty key.
  class PendingRowsState final : public state::RawKeyedState {
   public:
    explicit PendingRowsState(SortOperator* sort) : sort_(sort) {}
    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override;
    void restoreKeyGroup(int keyGroup, std::string_view body) override;

   private:
    SortOperator* sort_;
  };
  /// Checkpoints: the block body of the waiting rows (docs/state_format.md), when `range`
  /// holds the empty key's key group.
  void snapshotPendingRows(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const;
  /// Checkpoints: files the rows of one block body under their times (all of them or, when the
  /// body does not decode, none: InternalError naming the state).
  void restorePendingRows(int keyGroup, std::string_view body);
  /// Makes the empty key current in the backend when this subtask owns its key group.
  bool selectEmptyKey();

  std::shared_ptr<const SortSpec> spec_;
  bool batchMode_ = true;
  RowStore chunks_;                   // BATCH: every input chunk, sorted at the end ..
  std::vector<int32_t> chunkSlots_;   // .. in arrival order
  int64_t seen_ = 0;       // STREAMING: rows passed so far
  // Temporal sort: the rows waiting for the watermark, by their time.
  std::map<int64_t, std::vector<Row>> pending_;
  int64_t currentWatermark_ = Watermark::kMin;
  // Checkpoints (STREAMING): the raw state of the waiting rows, the watermark's and the rows
  // seen's state.
  PendingRowsState pendingState_{this};
  ListState<int64_t>* watermarkState_ = nullptr;
  ValueState<int64_t>* rowsSeenState_ = nullptr;
};

}  // namespace eddy::runtime::operators
