#include "runtime/operators/calc/calc_operator.h"

#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

CalcOperator::CalcOperator(std::shared_ptr<const CalcSpec> spec)
    : spec_(std::move(spec)), evaluator_(spec_->projections) {}

void CalcOperator::processWatermark(Watermark watermark) {
  evaluationContext_.setWatermark(watermark.timestamp);
  output().emitWatermark(watermark);
}

void CalcOperator::processBatch(int, BatchPtr batch) {
  auto& chunks = typedBatch<vector::Chunk>(*batch).records;
  auto results = std::make_unique<TypedBatch<vector::Chunk>>();
  for (vector::Chunk& input : chunks) {
    std::optional<vector::Chunk> selected;
    if (readColumns_.empty()) readColumns_ = evaluator_.readColumns(input.columnCount());
    if (spec_->condition) {
      std::vector<int32_t> rows = evaluator_.selectTrue(spec_->condition, input, evaluationContext_);
      if (rows.empty()) continue;
      if (static_cast<int64_t>(rows.size()) < input.size()) {
        // Only the columns the projections read (the others would be dropped).
        selected.emplace(vector::gather(input, rows.data(), static_cast<int64_t>(rows.size()),
                                        &readColumns_));
      }
    }
    // The batch is ours: the projection takes the columns it passes on instead of copying.
    vector::Chunk& rows = selected ? *selected : input;
    evaluator_.evaluate(std::move(rows), results_, evaluationContext_);
    vector::Chunk result(spec_->outputRowType);
    for (size_t i = 0; i < results_.size(); ++i) {
      result.mutableColumn(static_cast<int>(i)) = std::move(results_[i]);
    }
    result.mutableRowKinds() = std::move(rows.mutableRowKinds());
    results->push(std::move(result), kNoTimestamp);
  }
  output().emitBatch(std::move(results));
}

}  // namespace eddy::runtime::operators
