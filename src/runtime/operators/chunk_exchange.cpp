#include "runtime/operators/chunk_exchange.h"

#include <fmt/format.h>

#include "eddy/exceptions.h"
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
  if (numberOfTargets_ == 1) {  // one receiver takes every row: no key to hash
    auto& out = partitioning::pendingBatch<vector::Chunk>(pending, 0);
    for (vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
      if (chunk.size() > 0) out.push(std::move(chunk), kNoTimestamp);
    }
    return;
  }
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
    const vector::Vector* rowtime = rowtimeColumn_ >= 0 ? &chunk.column(rowtimeColumn_) : nullptr;
    for (int64_t i = 0; i < chunk.size(); ++i) {
      int64_t timestamp = kNoTimestamp;
      if (rowtime && !rowtime->isNull(i)) timestamp = rowtime->data<int64_t>()[i];
      rows->push(chunk.rowAt(i), timestamp);
    }
  }
  output().emitBatch(std::move(rows));
}

void RowsToChunksOperator::processBatch(int, BatchPtr batch) {
  auto& rows = typedBatch<Row>(*batch);
  auto chunks = std::make_unique<TypedBatch<vector::Chunk>>();
  vector::Chunk chunk(spec_->rowType);
  chunk.reserve(static_cast<int64_t>(rows.records.size()));
  for (size_t i = 0; i < rows.records.size(); ++i) append(chunk, rows.records[i], rows.timestamps[i]);
  if (chunk.size() > 0) chunks->push(std::move(chunk), kNoTimestamp);
  output().emitBatch(std::move(chunks));
}

void RowsToChunksOperator::append(vector::Chunk& chunk, const Row& row, int64_t timestamp) const {
  RowKind kind = row.getKind();
  if (!spec_->acceptsChanges && kind != RowKind::INSERT) {
    throw ValidationException(fmt::format(
        "fromDataStream() accepts only insert-only streams, but the DataStream carries the row "
        "{} of kind {}. Use fromChangelogStream() to interpret a stream of changes.",
        row.toString(), rowKindName(kind)));
  }
  if (spec_->upsert && kind == RowKind::UPDATE_BEFORE) {
    throw ValidationException(fmt::format(
        "The changelog stream is declared as ChangelogMode.upsert() but carries the "
        "UPDATE_BEFORE row {}; use ChangelogMode.all() for a stream with retractions.",
        row.toString()));
  }
  const int fieldCount = chunk.columnCount() - (spec_->rowtimeColumn ? 1 : 0);
  const auto& fields = spec_->rowType->getFields();
  if (row.isNameBased() || row.getArity() != fieldCount) {
    throw ValidationException(fmt::format(
        "Cannot convert the DataStream record {} into a row of {}: it has {} fields, the "
        "table has {} physical columns.",
        row.toString(), spec_->rowType->asSummaryString(),
        row.isNameBased() ? std::string("named") : std::to_string(row.getArity()), fieldCount));
  }
  const int64_t size = chunk.size();
  int column = 0;
  try {
    for (; column < fieldCount; ++column) chunk.mutableColumn(column).appendValue(row.getField(column));
  } catch (const ValidationException& error) {
    for (int appended = 0; appended < column; ++appended) chunk.mutableColumn(appended).resize(size);
    throw ValidationException(fmt::format(
        "Cannot convert the DataStream record {} into a row of {}: field '{}' (position {}) {}.",
        row.toString(), spec_->rowType->asSummaryString(), fields[column].name, column,
        error.what()));
  }
  if (spec_->rowtimeColumn) {
    vector::Vector& rowtime = chunk.mutableColumn(fieldCount);
    if (timestamp == kNoTimestamp) {
      rowtime.appendNull();
    } else {
      rowtime.appendTimestamp(timestamp, 0);
    }
  }
  chunk.mutableRowKinds().push_back(kind);
}

void emitChunk(std::unique_ptr<vector::Chunk>& output, Output& out) {
  if (output->size() == 0) return;
  auto next = std::make_unique<vector::Chunk>(output->rowType());
  next->reserveLike(*output);
  auto batch = std::make_unique<TypedBatch<vector::Chunk>>();
  batch->push(std::move(*output), kNoTimestamp);
  output = std::move(next);
  out.emitBatch(std::move(batch));
}

}  // namespace eddy::runtime::operators
