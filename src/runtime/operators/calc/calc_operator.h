// CalcOperator: projection and filter over chunks (Flink's StreamExecCalc). For each chunk it
// selects the rows where the condition is TRUE (a selection vector from the vectorized
// evaluator, then one gather), evaluates every projection a vector at a time, and emits the
// result chunk with the input rows' RowKinds — a Calc never changes the changelog kind.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "expression/expression_evaluator.h"

namespace eddy::runtime::operators {

struct CalcSpec {
  LogicalTypePtr outputRowType;
  std::vector<expression::ExpressionPtr> projections;
  expression::ExpressionPtr condition;  // null: keep every row
};

class CalcOperator final : public StreamOperator {
 public:
  explicit CalcOperator(std::shared_ptr<const CalcSpec> spec);
  void processBatch(int inputIndex, BatchPtr batch) override;
  /// Keeps the watermark for CURRENT_WATERMARK, then forwards it.
  void processWatermark(Watermark watermark) override;

 private:
  std::shared_ptr<const CalcSpec> spec_;
  expression::ExpressionEvaluator evaluator_;
  /// What this instance's evaluations read besides their chunk (see EvaluationContext): the
  /// watermark CURRENT_WATERMARK reads.
  function::EvaluationContext evaluationContext_;
  std::vector<vector::Vector> results_;
  std::vector<bool> readColumns_;  // input columns the projections read (set by the first chunk)
};

}  // namespace eddy::runtime::operators
