// JoinCondition: the residual (non-equi) condition of the joins that keep both inputs in
// RowStores (the regular and the interval join), evaluated over their candidate pairs.
//
// A join collects the candidate pairs of a window of probe rows (a probe row and each stored
// row of the other side that its keys, and for the interval join its time bounds, let it
// meet) and asks once for all of them: the pairs are gathered into one chunk of the joined row
// type, only the columns the condition reads (markReadColumns), and the condition selects the
// TRUE rows (ExpressionEvaluator::selectTrue).
//
// Threading: built with the operator instance, used by its thread; evaluate() keeps nothing
// between calls but the evaluation context (per-call state of the condition's functions).
#pragma once

#include <cstdint>
#include <vector>

#include "eddy/types/logical_type.h"
#include "expression/bound_expression.h"
#include "expression/expression_evaluator.h"
#include "runtime/operators/stored_rows/joined_row_emitter.h"
#include "runtime/operators/stored_rows/row_store.h"

namespace eddy::runtime::operators {

/// Sets `columns[i]` for every column `expression` reads.
void markReadColumns(const expression::BoundExpression& expression, std::vector<bool>& columns);

class JoinCondition {
 public:
  JoinCondition() : evaluator_({}) {}
  /// `condition` (nullptr: none) reads rows of `joinedRowType`: the left columns, then the
  /// right ones.
  JoinCondition(expression::ExpressionPtr condition, LogicalTypePtr joinedRowType);

  /// For every pair of `candidates` (halves in `left` and `right`), whether the condition is
  /// TRUE for it (1) or not (0); all 1 without a condition.
  std::vector<uint8_t> evaluate(const JoinedRowRefs& candidates, const RowStore& left,
                                const RowStore& right);
  /// The join's current watermark, which CURRENT_WATERMARK in the condition reads.
  void setWatermark(int64_t watermark) { evaluationContext_.setWatermark(watermark); }

 private:
  expression::ExpressionPtr condition_;
  LogicalTypePtr joinedRowType_;
  std::vector<bool> readColumns_;  // the joined columns the condition reads
  expression::ExpressionEvaluator evaluator_;
  /// What this instance's evaluations read besides their chunk (see EvaluationContext).
  function::EvaluationContext evaluationContext_;
};

}  // namespace eddy::runtime::operators
