#include "runtime/operators/normalize/changelog_normalize_operator.h"

#include "eddy/runtime/record_batch.h"
#include "runtime/operators/chunk_exchange.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

ChangelogNormalizeOperator::ChangelogNormalizeOperator(LogicalTypePtr rowType,
                                                       std::vector<int> keyColumns,
                                                       bool generateUpdateBefore)
    : rowType_(std::move(rowType)),
      keyColumns_(std::move(keyColumns)),
      generateUpdateBefore_(generateUpdateBefore) {}

ChangelogNormalizeOperator::~ChangelogNormalizeOperator() = default;

void ChangelogNormalizeOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  stateBackend_ =
      &state::heapKeyedStateBackendOf(context.keyedStateBackend(), context.operatorName);
  lastRow_ = stateBackend_->getValueState(ValueStateDescriptor<std::vector<Value>>("last-row"));
  output_ = std::make_unique<vector::Chunk>(rowType_);
}

void ChangelogNormalizeOperator::append(const std::vector<Value>& row, RowKind kind) {
  for (size_t column = 0; column < row.size(); ++column) {
    output_->mutableColumn(static_cast<int>(column)).appendValue(row[column]);
  }
  output_->mutableRowKinds().push_back(kind);
  if (output_->size() >= static_cast<int64_t>(kDefaultBatchSize)) emitOutput();
}

void ChangelogNormalizeOperator::emitOutput() { emitChunk(output_, output()); }

void ChangelogNormalizeOperator::processBatch(int, BatchPtr batch) {
  const int arity = rowType_->getFieldCount();
  for (const vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    for (int64_t r = 0; r < chunk.size(); ++r) {
      keyBytes_.clear();
      vector::appendKeyBytes(chunk, keyColumns_, r, keyBytes_);
      stateBackend_->setCurrentKey(keyBytes_, assignToKeyGroup(keyBytes_, context().maxParallelism));
      // In place on the heap backend; a copy from backends that keep values serialized.
      std::optional<std::vector<Value>> copied;
      const std::vector<Value>* previous = lastRow_->valuePointer();
      if (!previous && (copied = lastRow_->value())) previous = &*copied;
      if (chunk.rowKind(r) == RowKind::DELETE || chunk.rowKind(r) == RowKind::UPDATE_BEFORE) {
        if (previous) {
          append(*previous, RowKind::DELETE);
          lastRow_->clear();
        }
        continue;
      }
      std::vector<Value> row;
      row.reserve(arity);
      for (int c = 0; c < arity; ++c) row.push_back(chunk.column(c).valueAt(r));
      if (previous) {
        if (*previous == row) continue;
        if (generateUpdateBefore_) append(*previous, RowKind::UPDATE_BEFORE);
        append(row, RowKind::UPDATE_AFTER);
      } else {
        append(row, RowKind::INSERT);
      }
      lastRow_->update(std::move(row));
    }
  }
  emitOutput();
}

}  // namespace eddy::runtime::operators
