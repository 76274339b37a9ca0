// RowRefOutputQueue: queued stored rows gathered into output chunks (see the header).
#include "runtime/operators/stored_rows/row_ref_output_queue.h"

#include <memory>
#include <utility>

namespace eddy::runtime::operators {

vector::Chunk RowRefOutputQueue::gather(size_t begin, size_t end) const {
  const auto from = static_cast<std::ptrdiff_t>(begin);
  const auto to = static_cast<std::ptrdiff_t>(end);
  const std::vector<int32_t> segments(segmentOf_.begin() + from, segmentOf_.begin() + to);
  const std::vector<int32_t> positions(positionOf_.begin() + from, positionOf_.begin() + to);
  vector::Chunk chunk(rowType_);
  store_->gather(segments, positions, chunk, 0);
  chunk.mutableRowKinds().assign(kinds_.begin() + from, kinds_.begin() + to);
  return chunk;
}

void RowRefOutputQueue::emit(vector::Chunk chunk, Output& output) {
  auto batch = std::make_unique<TypedBatch<vector::Chunk>>();
  batch->push(std::move(chunk), kNoTimestamp);
  output.emitBatch(std::move(batch));
}

void RowRefOutputQueue::clear() {
  segmentOf_.clear();
  positionOf_.clear();
  kinds_.clear();
}

}  // namespace eddy::runtime::operators
