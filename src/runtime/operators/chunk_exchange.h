// Moving chunks between the Table runtime's operators: emitting a row-by-row output chunk, the
// HASH partitioner that routes each row of a chunk by the key group of its key columns (the
// rows for one subtask are gathered into one chunk), and the conversion at the end of a table
// pipeline: chunks into Rows (collect, print, toDataStream).
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

/// Converts chunks into Rows with their RowKind and the row type's field names. With a
/// `rowtimeColumn` (StreamTableEnvironment::toDataStream of a table with one rowtime
/// attribute) each Row's record timestamp is that column's epoch milliseconds.
class ChunkToRowsOperator final : public StreamOperator {
 public:
  explicit ChunkToRowsOperator(int rowtimeColumn = -1) : rowtimeColumn_(rowtimeColumn) {}
  void processBatch(int inputIndex, BatchPtr batch) override;

 private:
  int rowtimeColumn_;
};

/// Converts the Rows of a DataStream into chunks (StreamTableEnvironment::fromDataStream and
/// fromChangelogStream): field i of each Row becomes column i of `rowType`; with
/// `rowtimeColumn` the last column is the record's timestamp as TIMESTAMP_LTZ(3) (null when
/// the record has none). A Row that does not fit, or of a kind the source does not accept,
/// fails the job with a message naming the row.
class RowsToChunksOperator final : public StreamOperator {
 public:
  struct Spec {
    LogicalTypePtr rowType;
    bool rowtimeColumn = false;
    /// False: only INSERT rows are accepted (fromDataStream).
    bool acceptsChanges = false;
    /// Accepts +I/+U/-D but not -U (fromChangelogStream in upsert mode).
    bool upsert = false;
  };
  explicit RowsToChunksOperator(std::shared_ptr<const Spec> spec) : spec_(std::move(spec)) {}
  void processBatch(int inputIndex, BatchPtr batch) override;

 private:
  void append(vector::Chunk& chunk, const Row& row, int64_t timestamp) const;
  std::shared_ptr<const Spec> spec_;
};

/// Emits `*output` when it has rows and starts the next output chunk, with room for as many
/// rows and string bytes as the one emitted: an operator that appends its output row by row
/// then fills the next chunk without regrowing its buffers.
void emitChunk(std::unique_ptr<vector::Chunk>& output, Output& out);

}  // namespace eddy::runtime::operators
