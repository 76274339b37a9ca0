// ProjectMerge (passes.h).
#include "sql/optimizer/passes.h"
#include "sql/optimizer/plan_rewriting.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

namespace {

bool isIdentity(const LogicalProject& project) {
  const LogicalNode& input = *project.inputs[0];
  if (project.expressions.size() != static_cast<size_t>(input.rowType->getFieldCount()))
    return false;
  const auto& inputFields = input.rowType->getFields();
  const auto& fields = project.rowType->getFields();
  for (size_t i = 0; i < project.expressions.size(); ++i) {
    const auto& e = project.expressions[i];
    if (e->kind() != expression::ExpressionKind::kColumnReference ||
        static_cast<const expression::ColumnReference&>(*e).index() != static_cast<int>(i) ||
        fields[i].name != inputFields[i].name || !(*fields[i].type == *inputFields[i].type)) {
      return false;
    }
  }
  return true;
}

}  // namespace

LogicalNodePtr mergeProjects(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kProject) return node;
  const auto& project = static_cast<const LogicalProject&>(*node);
  if (isIdentity(project)) return node->inputs[0];
  const LogicalNodePtr& input = node->inputs[0];
  if (input->kind != LogicalNodeKind::kProject) return node;
  const auto& inner = static_cast<const LogicalProject&>(*input);
  if (!allDeterministic(inner.expressions)) return node;
  std::vector<BoundPtr> merged;
  for (const BoundPtr& e : project.expressions) {
    merged.push_back(expression::inlineColumns(e, inner.expressions));
  }
  auto result =
      std::make_shared<LogicalProject>(input->inputs[0], std::move(merged), namesOf(*node));
  return isIdentity(*result) ? input->inputs[0] : result;
}

}  // namespace eddy::sql
