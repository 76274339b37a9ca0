// FilterPushDown (passes.h).
#include "sql/optimizer/passes.h"
#include "sql/optimizer/plan_rewriting.h"
#include "sql/planner/plan_join.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

LogicalNodePtr pushFilters(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kFilter) return node;
  const auto& filter = static_cast<const LogicalFilter&>(*node);
  const LogicalNodePtr& input = node->inputs[0];
  if (!filter.condition->isDeterministic()) return node;
  switch (input->kind) {
    case LogicalNodeKind::kFilter: {
      // Two filters: one, the lower condition first (AND evaluates its right operand only
      // where the left one holds, so the lower filter's guards still apply).
      const auto& lower = static_cast<const LogicalFilter&>(*input);
      if (!lower.condition->isDeterministic()) return node;
      return pushFilters(std::make_shared<LogicalFilter>(
          input->inputs[0], expression::conjunction({lower.condition, filter.condition})));
    }
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(*input);
      if (!allDeterministic(project.expressions)) return node;
      LogicalNodePtr pushed = pushFilters(std::make_shared<LogicalFilter>(
          input->inputs[0], expression::inlineColumns(filter.condition, project.expressions)));
      return std::make_shared<LogicalProject>(pushed, project.expressions, namesOf(*input));
    }
    case LogicalNodeKind::kUnion: {
      std::vector<LogicalNodePtr> inputs;
      for (const LogicalNodePtr& branch : input->inputs) {
        inputs.push_back(pushFilters(std::make_shared<LogicalFilter>(branch, filter.condition)));
      }
      return std::make_shared<LogicalUnion>(std::move(inputs), input->rowType);
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(*input);
      // A filter above a temporal join stays there: merged into the join's condition it could
      // add equi keys and change which versions a row is matched against.
      if (relational::outputsLeftOnly(join.joinType) && !join.temporal) {
        // A SEMI/ANTI join outputs its left input's columns at their positions: the filter
        // applies to the left input (and may become keys of a join there).
        return join.with(
            pushFilters(std::make_shared<LogicalFilter>(input->inputs[0], filter.condition)),
            input->inputs[1], join.condition);
      }
      if (join.joinType != relational::JoinType::INNER || join.temporal) return node;
      return planJoin(input->inputs[0], input->inputs[1], join.joinType,
                      expression::conjunction({join.fullCondition(), filter.condition}));
    }
    default:
      return node;
  }
}

}  // namespace eddy::sql
