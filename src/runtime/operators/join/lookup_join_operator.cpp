#include "runtime/operators/join/lookup_join_operator.h"

#include "eddy/runtime/record_batch.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using relational::JoinType;

LookupJoinOperator::LookupJoinOperator(std::shared_ptr<const LookupJoinSpec> spec)
    : spec_(std::move(spec)),
      keyEvaluator_(spec_->keys),
      conditionEvaluator_(spec_->condition ? std::vector<expression::ExpressionPtr>{spec_->condition}
                                           : std::vector<expression::ExpressionPtr>{}) {
  std::vector<RowField> keyFields;
  for (size_t i = 0; i < spec_->keys.size(); ++i) {
    keyFields.push_back(RowField{"key" + std::to_string(i), spec_->keys[i]->type()->copy(false), {}});
  }
  keyRowType_ = LogicalType::row(std::move(keyFields), false);
}

void LookupJoinOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  lookup_ = spec_->createLookup();
}

void LookupJoinOperator::processBatch(int, BatchPtr batch) {
  auto out = std::make_unique<TypedBatch<vector::Chunk>>();
  for (const vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    if (chunk.size() == 0) continue;
    vector::Chunk result = join(chunk);
    if (result.size() > 0) out->push(std::move(result), kNoTimestamp);
  }
  if (!out->records.empty()) output().emitBatch(std::move(out));
}

vector::Chunk LookupJoinOperator::join(const vector::Chunk& input) {
  // 1. The probe keys of the rows whose keys are all non-NULL.
  keyEvaluator_.evaluate(input, keyValues_, evaluationContext_);
  vector::Chunk keys(keyRowType_);
  std::vector<int32_t> probeRows;  // the input row of each key row
  for (int64_t row = 0; row < input.size(); ++row) {
    bool nullKey = false;
    for (const vector::Vector& key : keyValues_) nullKey = nullKey || key.isNull(row);
    if (nullKey) continue;
    for (size_t k = 0; k < keyValues_.size(); ++k) {
      keys.mutableColumn(static_cast<int>(k)).appendFrom(keyValues_[k], row);
    }
    keys.mutableRowKinds().push_back(RowKind::INSERT);
    probeRows.push_back(static_cast<int32_t>(row));
  }
  // 2. The table's rows of those keys.
  vector::Chunk matches(spec_->tableRowType);
  std::vector<int32_t> keyRows;
  if (keys.size() > 0) lookup_(keys, matches, keyRows);
  std::vector<int32_t> matchInputRows(keyRows.size());
  for (size_t m = 0; m < keyRows.size(); ++m) {
    matchInputRows[m] = probeRows[static_cast<size_t>(keyRows[m])];
  }
  // 3. The pairs that pass the condition (all of them without one), by input row.
  std::vector<int32_t> passing;
  if (spec_->condition && !matchInputRows.empty()) {
    vector::Chunk pairs = vector::gather(input, matchInputRows.data(),
                                         static_cast<int64_t>(matchInputRows.size()));
    vector::Chunk combined(spec_->outputRowType);
    for (int c = 0; c < pairs.columnCount(); ++c) {
      combined.mutableColumn(c) = std::move(pairs.mutableColumn(c));
    }
    for (int c = 0; c < matches.columnCount(); ++c) {
      combined.mutableColumn(pairs.columnCount() + c) = matches.column(c);  // the whole column
    }
    combined.mutableRowKinds().assign(matchInputRows.size(), RowKind::INSERT);
    passing = conditionEvaluator_.selectTrue(spec_->condition, combined, evaluationContext_);
  } else {
    passing.resize(matchInputRows.size());
    for (size_t m = 0; m < passing.size(); ++m) passing[m] = static_cast<int32_t>(m);
  }
  // 4. Each input row's passing matches in order, or the NULL-padded row (LEFT).
  vector::Chunk result(spec_->outputRowType);
  result.reserve(input.size());
  const int inputColumns = input.columnCount();
  const int tableColumns = matches.columnCount();
  size_t next = 0;  // into passing (ascending, so by input row)
  for (int64_t row = 0; row < input.size(); ++row) {
    bool matched = false;
    for (; next < passing.size() && matchInputRows[static_cast<size_t>(passing[next])] == row; ++next) {
      const int64_t m = passing[next];
      for (int c = 0; c < inputColumns; ++c) result.mutableColumn(c).appendFrom(input.column(c), row);
      for (int c = 0; c < tableColumns; ++c) {
        result.mutableColumn(inputColumns + c).appendFrom(matches.column(c), m);
      }
      result.mutableRowKinds().push_back(input.rowKind(row));
      matched = true;
    }
    if (!matched && spec_->joinType == JoinType::LEFT) {
      for (int c = 0; c < inputColumns; ++c) result.mutableColumn(c).appendFrom(input.column(c), row);
      for (int c = 0; c < tableColumns; ++c) result.mutableColumn(inputColumns + c).appendNull();
      result.mutableRowKinds().push_back(input.rowKind(row));
    }
  }
  return result;
}

void LookupJoinOperator::processWatermark(Watermark watermark) {
  evaluationContext_.setWatermark(watermark.timestamp);
  output().emitWatermark(watermark);
}

}  // namespace eddy::runtime::operators
