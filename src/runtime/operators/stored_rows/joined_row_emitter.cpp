// JoinedRowRefs and JoinedRowEmitter: joined rows gathered from two stores (see the header).
#include "runtime/operators/stored_rows/joined_row_emitter.h"

#include <memory>
#include <utility>

namespace eddy::runtime::operators {

void JoinedRowRefs::clear() {
  leftSegmentOf_.clear();
  leftPositionOf_.clear();
  rightSegmentOf_.clear();
  rightPositionOf_.clear();
  kinds_.clear();
}

vector::Chunk JoinedRowRefs::gather(const RowStore& left, const RowStore& right,
                                    const LogicalTypePtr& rowType, bool rightColumns,
                                    const std::vector<bool>* onlyColumns) const {
  vector::Chunk chunk(rowType);
  left.gather(leftSegmentOf_, leftPositionOf_, chunk, 0, onlyColumns);
  if (rightColumns) {
    right.gather(rightSegmentOf_, rightPositionOf_, chunk, left.rowType()->getFieldCount(),
                 onlyColumns);
  }
  chunk.mutableRowKinds() = kinds_;
  return chunk;
}

void JoinedRowEmitter::flush(Output& output) {
  if (queued_.size() == 0) return;
  auto batch = std::make_unique<TypedBatch<vector::Chunk>>();
  batch->push(queued_.gather(*left_, *right_, rowType_, rightColumns_), kNoTimestamp);
  queued_.clear();
  output.emitBatch(std::move(batch));
}

}  // namespace eddy::runtime::operators
