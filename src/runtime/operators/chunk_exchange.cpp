#include "runtime/operators/chunk_exchange.h"

#include "eddy/state/key_group_range.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

ChunkKeyPartitioner::ChunkKeyPartitioner(std::vector<int> keyColumns, int numberOfTargets,
                                         int maxParallelism)
    : keyColumns_(std::move(keyColumns)),
      numberOfTargets_(numberOfTargets),
      maxParallelism_(maxParallelism),
      rowsOfTarget_(numberOfTargets) {}

HashPartitionerFactory ChunkKeyPartitioner::factory(std::vector<int> keyColumns) {
  return [keyColumns](int numberOfTargets, int maxParallelism) {
    return std::unique_ptr<Partitioner>(
        new ChunkKeyPartitioner(keyColumns, numberOfTargets, maxParallelism));
  };
}

void ChunkKeyPartitioner::partition(BatchPtr batch, std::vector<BatchPtr>& pending) {
  for (vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    for (auto& rows : rowsOfTarget_) rows.clear();
    for (int64_t row = 0; row < chunk.size(); ++row) {
      int target = 0;
      if (!keyColumns_.empty()) {
        keyBytes_.clear();
        vector::appendKeyBytes(chunk, keyColumns_, row, keyBytes_);
        target = computeOperatorIndexForKeyGroup(maxParallelism_, numberOfTargets_,
                                                 assignToKeyGroup(keyBytes_, maxParallelism_));
      }
      rowsOfTarget_[target].push_back(static_cast<int32_t>(row));
    }
    for (int target = 0; target < numberOfTargets_; ++target) {
      const auto& rows = rowsOfTarget_[target];
      if (rows.empty()) continue;
      auto& out = partitioning::pendingBatch<vector::Chunk>(pending, target);
      if (static_cast<int64_t>(rows.size()) == chunk.size()) {
        out.push(std::move(chunk), kNoTimestamp);  // every row goes here: no copy
        break;
      }
      out.push(vector::gather(chunk, rows.data(), static_cast<int64_t>(rows.size())),
               kNoTimestamp);
    }
  }
}

void ChunkToRowsOperator::processBatch(int, BatchPtr batch) {
  auto rows = std::make_unique<TypedBatch<Row>>();
  for (const vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    for (int64_t i = 0; i < chunk.size(); ++i) rows->push(chunk.rowAt(i), kNoTimestamp);
  }
  output().emitBatch(std::move(rows));
}

}  // namespace eddy::runtime::operators
