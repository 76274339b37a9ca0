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
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "eddy/row.h"
#include "eddy/runtime/stream_operator.h"
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
  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void finish() override;

 private:
  /// Sorts `rows` by the keys (stable).
  void sortRows(std::vector<Row>& rows) const;
  /// Emits rows [begin, end) as +I in chunks.
  void emitRows(std::vector<Row>& rows, int64_t begin, int64_t end);
  void processTemporal(std::vector<vector::Chunk>& chunks);

  std::shared_ptr<const SortSpec> spec_;
  bool batchMode_ = true;
  RowStore chunks_;                   // BATCH: every input chunk, sorted at the end ..
  std::vector<int32_t> chunkSlots_;   // .. in arrival order
  int64_t seen_ = 0;       // STREAMING: rows passed so far
  // Temporal sort: the rows waiting for the watermark, by their time.
  std::map<int64_t, std::vector<Row>> pending_;
  int64_t currentWatermark_ = Watermark::kMin;
};

}  // namespace eddy::runtime::operators
