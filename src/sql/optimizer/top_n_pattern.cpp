// Finding and replacing the Rank of a Top-N (top_n_pattern.h).
#include "sql/optimizer/top_n_pattern.h"

namespace eddy::sql {

std::pair<const LogicalRank*, int> rankBelow(const LogicalNodePtr& node) {
  if (node->kind == LogicalNodeKind::kRank) {
    const auto* rank = static_cast<const LogicalRank*>(node.get());
    if (!rank->outputRankNumber) return {nullptr, -1};
    return {rank, node->rowType->getFieldCount() - 1};
  }
  if (node->kind != LogicalNodeKind::kProject || node->inputs[0]->kind != LogicalNodeKind::kRank) {
    return {nullptr, -1};
  }
  const auto* rank = static_cast<const LogicalRank*>(node->inputs[0].get());
  if (!rank->outputRankNumber) return {nullptr, -1};
  const int rankColumn = rank->rowType->getFieldCount() - 1;
  int position = -1;
  const auto& projections = static_cast<const LogicalProject&>(*node).expressions;
  for (size_t i = 0; i < projections.size(); ++i) {
    if (projections[i]->kind() != expression::ExpressionKind::kColumnReference)
      return {nullptr, -1};
    if (static_cast<const expression::ColumnReference&>(*projections[i]).index() == rankColumn) {
      position = static_cast<int>(i);
    }
  }
  return {rank, position};
}

LogicalNodePtr replaceRank(const LogicalNodePtr& node, std::shared_ptr<const LogicalRank> rank,
                           int dropColumn) {
  if (node->kind == LogicalNodeKind::kRank) return rank;
  const auto& project = static_cast<const LogicalProject&>(*node);
  std::vector<expression::ExpressionPtr> expressions;
  std::vector<std::string> names;
  const auto& fields = node->rowType->getFields();
  for (size_t i = 0; i < project.expressions.size(); ++i) {
    if (static_cast<int>(i) == dropColumn) continue;
    expressions.push_back(project.expressions[i]);
    names.push_back(fields[i].name);
  }
  return std::make_shared<LogicalProject>(rank, std::move(expressions), std::move(names));
}

}  // namespace eddy::sql
