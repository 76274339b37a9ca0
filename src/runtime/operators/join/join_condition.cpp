// JoinCondition: one evaluation of the residual condition per window of candidate pairs (see
// the header).
#include "runtime/operators/join/join_condition.h"

#include <utility>

#include "common/check.h"

namespace eddy::runtime::operators {

void markReadColumns(const expression::BoundExpression& expression, std::vector<bool>& columns) {
  if (expression.kind() == expression::ExpressionKind::kColumnReference) {
    int index = static_cast<const expression::ColumnReference&>(expression).index();
    EDDY_CHECK_LT(index, static_cast<int>(columns.size()));
    columns[static_cast<size_t>(index)] = true;
  }
  for (const expression::ExpressionPtr& child : expression.children()) {
    markReadColumns(*child, columns);
  }
}

JoinCondition::JoinCondition(expression::ExpressionPtr condition, LogicalTypePtr joinedRowType)
    : condition_(std::move(condition)), joinedRowType_(std::move(joinedRowType)), evaluator_({}) {
  readColumns_.assign(static_cast<size_t>(joinedRowType_->getFieldCount()), false);
  if (condition_) markReadColumns(*condition_, readColumns_);
}

std::vector<uint8_t> JoinCondition::evaluate(const JoinedRowRefs& candidates, const RowStore& left,
                                             const RowStore& right) {
  if (!condition_) return std::vector<uint8_t>(static_cast<size_t>(candidates.size()), 1);
  std::vector<uint8_t> matches(static_cast<size_t>(candidates.size()), 0);
  if (candidates.size() == 0) return matches;
  const vector::Chunk joined =
      candidates.gather(left, right, joinedRowType_, /*rightColumns=*/true, &readColumns_);
  for (int32_t selected : evaluator_.selectTrue(condition_, joined, evaluationContext_)) {
    matches[static_cast<size_t>(selected)] = 1;
  }
  return matches;
}

}  // namespace eddy::runtime::operators
