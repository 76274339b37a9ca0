// UNION, INTERSECT and EXCEPT [ALL]: both sides conformed to the least restrictive row type
// (Flink's rules: CHAR widens to VARCHAR), then a union (UNION DISTINCT: grouped by every
// column) or the plan of plan_set_operation.h.
#include "sql/binder/binder.h"

#include "function/type_rules.h"
#include "sql/binder/clause_syntax.h"
#include "sql/planner/plan_set_operation.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;
using function::AggregateCall;

Binder::Relation Binder::bindSetOperation(const SetOperationQuery& set) {
  const char* opName = set.op == SetOperator::kUnion       ? "UNION"
                       : set.op == SetOperator::kIntersect ? "INTERSECT"
                                                           : "EXCEPT";
  Relation left = bindRelation(*set.left);
  Relation right = bindRelation(*set.right);
  if (left.scope.size() != right.scope.size()) {
    fail(set, std::string("Column count mismatch in ") + opName);
  }
  std::vector<std::string> names;
  std::vector<LogicalTypePtr> types;
  for (size_t i = 0; i < left.scope.size(); ++i) {
    LogicalTypePtr type = function::leastRestrictive({left.scope[i].type, right.scope[i].type});
    if (!type) {
      fail(set, "Type mismatch in column " + std::to_string(i + 1) + " of " + opName);
    }
    if (type->getTypeRoot() == LogicalTypeRoot::CHAR) {
      type = LogicalType::varchar(type->getLength(), type->isNullable());
    }
    names.push_back(left.scope[i].name);
    types.push_back(type);
  }
  // Both sides become exactly the union's row type (casts, the left side's names).
  auto conform = [&](const Relation& side) -> LogicalNodePtr {
    std::vector<BoundPtr> columns;
    for (size_t i = 0; i < side.scope.size(); ++i) {
      columns.push_back(expression::castIfNeeded(
          expression::column(static_cast<int>(i), side.scope[i].type), types[i], context_));
    }
    return std::make_shared<LogicalProject>(side.node, std::move(columns), names);
  };
  Scope scope;
  for (size_t i = 0; i < names.size(); ++i) scope.push_back(ScopeColumn{"", names[i], types[i], false});
  if (set.op != SetOperator::kUnion) {
    return Relation{intersectOrExcept(conform(left), conform(right),
                                      set.op == SetOperator::kIntersect, set.all),
                    scope};
  }
  LogicalNodePtr result = std::make_shared<LogicalUnion>(
      std::vector<LogicalNodePtr>{conform(left), conform(right)}, rowTypeOf(names, types));
  if (!set.all) {
    std::vector<int> all;
    for (size_t i = 0; i < names.size(); ++i) all.push_back(static_cast<int>(i));
    result = std::make_shared<LogicalAggregate>(result, all, std::vector<AggregateCall>{},
                                                std::vector<std::string>{});
  }
  return Relation{result, scope};
}

}  // namespace eddy::sql
