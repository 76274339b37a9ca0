// RowRefOutputQueue: output rows that are stored rows, queued as (RowKind, RowRef) pairs and
// emitted as chunks gathered from their RowStore a column at a time — the output of the
// operators whose results are rows they keep (the STREAMING and BATCH Top-N, the sink's upsert
// materializer).
//
// Queuing a row copies nothing: the operator may keep changing its state, as long as the rows
// queued stay in the store (no freeEmpty() or compact() of the store) until flush(). flush()
// emits the queue in order, in chunks of at most kDefaultBatchSize rows, each a batch of its
// own; columns beyond the store's (Top-N's rank number) are filled by the caller per chunk.
//
// Threading: owned and used by one operator subtask's task thread; not synchronized. The store
// belongs to the same operator and must stay where it is while the queue points at it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "eddy/runtime/record_batch.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/types/logical_type.h"
#include "runtime/operators/stored_rows/row_store.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

class RowRefOutputQueue {
 public:
  RowRefOutputQueue() = default;
  /// Output chunks are of `rowType`, whose first columns are `store`'s row type's.
  RowRefOutputQueue(const RowStore* store, LogicalTypePtr rowType)
      : store_(store), rowType_(std::move(rowType)) {}

  /// Queues stored row `row` as an output row of kind `kind`.
  void push(RowRef row, RowKind kind) {
    segmentOf_.push_back(row.segment);
    positionOf_.push_back(row.position);
    kinds_.push_back(kind);
  }
  size_t size() const { return kinds_.size(); }

  /// Emits the queued rows to `output` (see the file comment) and empties the queue.
  void flush(Output& output) {
    flush(output, [](vector::Chunk&, size_t) {});
  }
  /// The same, calling `completeChunk(chunk, firstRow)` before emitting each chunk, to fill
  /// the columns after the store's for the queued rows [firstRow, firstRow + chunk.size()).
  template <typename CompleteChunk>
  void flush(Output& output, CompleteChunk&& completeChunk) {
    for (size_t begin = 0; begin < size(); begin += kDefaultBatchSize) {
      const size_t end = std::min(size(), begin + kDefaultBatchSize);
      vector::Chunk chunk = gather(begin, end);
      completeChunk(chunk, begin);
      emit(std::move(chunk), output);
    }
    clear();
  }

 private:
  /// The queued rows [begin, end) as a chunk: the store's columns filled, the kinds set.
  vector::Chunk gather(size_t begin, size_t end) const;
  static void emit(vector::Chunk chunk, Output& output);
  void clear();

  const RowStore* store_ = nullptr;
  LogicalTypePtr rowType_;
  std::vector<int32_t> segmentOf_;
  std::vector<int32_t> positionOf_;
  std::vector<RowKind> kinds_;
};

}  // namespace eddy::runtime::operators
