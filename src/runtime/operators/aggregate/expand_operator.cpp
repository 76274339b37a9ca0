#include "runtime/operators/aggregate/expand_operator.h"

#include "eddy/state/key_group_range.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

LogicalTypePtr expandRowType(const LogicalTypePtr& inputRowType, size_t callCount) {
  std::vector<RowField> fields = inputRowType->getFields();
  fields.push_back(RowField{"$bucket", LogicalType::simple(LogicalTypeRoot::INTEGER, false), {}});
  for (size_t k = 0; k < callCount; ++k) {
    fields.push_back(RowField{"$filter" + std::to_string(k),
                              LogicalType::simple(LogicalTypeRoot::BOOLEAN, false), {}});
  }
  return LogicalType::row(std::move(fields), false);
}

ExpandOperator::ExpandOperator(std::shared_ptr<const ExpandSpec> spec) : spec_(std::move(spec)) {}

void ExpandOperator::processBatch(int, BatchPtr batch) {
  auto out = std::make_unique<TypedBatch<vector::Chunk>>();
  const int copies = static_cast<int>(spec_->bucketColumns.size());
  for (vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    if (chunk.size() == 0) continue;
    for (int copy = 0; copy < copies; ++copy) {
      out->push(expand(chunk, copy, copy + 1 == copies), kNoTimestamp);
    }
  }
  if (!out->records.empty()) output().emitBatch(std::move(out));
}

vector::Chunk ExpandOperator::expand(vector::Chunk& chunk, int copy, bool last) {
  const int64_t rows = chunk.size();
  const int inputColumns = chunk.columnCount();
  vector::Chunk result(spec_->outputRowType);
  for (int column = 0; column < inputColumns; ++column) {
    result.mutableColumn(column) =
        last ? std::move(chunk.mutableColumn(column)) : chunk.column(column);
  }
  result.mutableRowKinds() = last ? std::move(chunk.mutableRowKinds()) : chunk.rowKinds();

  // The bucket: the key group of the argument's key bytes among bucketCount groups (the hash
  // the exchange uses, so equal values share a bucket in every subtask).
  const std::vector<int> argument{spec_->bucketColumns[copy]};
  buckets_.resize(rows);
  for (int64_t row = 0; row < rows; ++row) {
    keyBytes_.clear();
    vector::appendKeyBytes(result, argument, row, keyBytes_);
    buckets_[row] = assignToKeyGroup(keyBytes_, spec_->bucketCount);
  }
  result.mutableColumn(inputColumns) =
      vector::Vector::fromBuffers(spec_->outputRowType->getFields()[inputColumns].type, rows, {},
                                  reinterpret_cast<const std::byte*>(buckets_.data()), {}, {}, {});

  filter_.resize(rows);
  for (size_t k = 0; k < spec_->calls.size(); ++k) {
    const ExpandSpec::CallFilter& call = spec_->calls[k];
    if (call.copy != copy) {
      std::fill(filter_.begin(), filter_.end(), 0);
    } else if (call.filterColumn < 0) {
      std::fill(filter_.begin(), filter_.end(), 1);
    } else {
      const vector::Vector& own = result.column(call.filterColumn);
      const bool* values = own.data<bool>();
      for (int64_t row = 0; row < rows; ++row) filter_[row] = !own.isNull(row) && values[row];
    }
    const int column = inputColumns + 1 + static_cast<int>(k);
    result.mutableColumn(column) = vector::Vector::fromBuffers(
        spec_->outputRowType->getFields()[column].type, rows, {},
        reinterpret_cast<const std::byte*>(filter_.data()), {}, {}, {});
  }
  return result;
}

}  // namespace eddy::runtime::operators
