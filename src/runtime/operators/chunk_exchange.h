// Moving chunks between the Table runtime's operators: the HASH partitioner that routes each
// row of a chunk by the key group of its key columns (the rows for one subtask are gathered
// into one chunk), and the conversion at the end of a table pipeline: chunks into Rows
// (collect, print, toDataStream).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "eddy/row.h"
#include "eddy/runtime/partitioner.h"
#include "eddy/runtime/stream_operator.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// HASH partitioning of chunk rows by `keyColumns` (no key columns: every row to subtask 0,
/// Flink's SINGLETON distribution for a global aggregate).
class ChunkKeyPartitioner final : public Partitioner {
 public:
  ChunkKeyPartitioner(std::vector<int> keyColumns, int numberOfTargets, int maxParallelism);
  void partition(BatchPtr batch, std::vector<BatchPtr>& pending) override;

  static HashPartitionerFactory factory(std::vector<int> keyColumns);

 private:
  std::vector<int> keyColumns_;
  int numberOfTargets_;
  int maxParallelism_;
  std::string keyBytes_;
  std::vector<std::vector<int32_t>> rowsOfTarget_;
};

/// Converts chunks into Rows with their RowKind and the row type's field names.
class ChunkToRowsOperator final : public StreamOperator {
 public:
  void processBatch(int inputIndex, BatchPtr batch) override;
};

}  // namespace eddy::runtime::operators
