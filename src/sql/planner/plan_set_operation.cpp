// intersectOrExcept (plan_set_operation.h).
#include "sql/planner/plan_set_operation.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;
using function::AggregateCall;
using function::AggregateKind;

LogicalNodePtr intersectOrExcept(const LogicalNodePtr& left, const LogicalNodePtr& right,
                                 bool intersect, bool all) {
  // Both sides, each row marked with its side, grouped by all columns: a row of the result is
  // a group seen on the left and (INTERSECT) also / (EXCEPT) never on the right. As an
  // aggregate it retracts correctly in STREAMING.
  // A column is nullable when it is on either side (each side's projection reads its own
  // types; the union's row type is the merged one).
  std::vector<RowField> fields = left->rowType->getFields();
  const int arity = static_cast<int>(fields.size());
  const auto& rightFields = right->rowType->getFields();
  for (int i = 0; i < arity; ++i) {
    if (rightFields[i].type->isNullable()) fields[i].type = fields[i].type->copy(true);
  }
  auto marked = [&](const LogicalNodePtr& side, bool isLeft) -> LogicalNodePtr {
    std::vector<BoundPtr> columns;
    std::vector<std::string> names;
    const auto& sideFields = side->rowType->getFields();
    for (int i = 0; i < arity; ++i) {
      columns.push_back(expression::column(i, sideFields[i].type));
      names.push_back(fields[i].name);
    }
    columns.push_back(expression::literal(Value(isLeft)));
    names.push_back("$left");
    columns.push_back(expression::literal(Value(!isLeft)));
    names.push_back("$right");
    return std::make_shared<LogicalProject>(side, std::move(columns), std::move(names));
  };
  LogicalNodePtr leftMarked = marked(left, true);
  std::vector<RowField> unionFields = fields;
  for (size_t i = static_cast<size_t>(arity); i < leftMarked->rowType->getFields().size(); ++i) {
    unionFields.push_back(leftMarked->rowType->getFields()[i]);
  }
  LogicalNodePtr both = std::make_shared<LogicalUnion>(
      std::vector<LogicalNodePtr>{leftMarked, marked(right, false)},
      LogicalType::row(std::move(unionFields), false));
  std::vector<int> grouping;
  for (int i = 0; i < arity; ++i) grouping.push_back(i);
  LogicalTypePtr count = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
  std::vector<AggregateCall> calls = {AggregateCall{AggregateKind::COUNT_STAR, -1, count, arity},
                                      AggregateCall{AggregateKind::COUNT_STAR, -1, count, arity + 1}};
  LogicalNodePtr counted = std::make_shared<LogicalAggregate>(
      both, grouping, std::move(calls), std::vector<std::string>{"$leftCount", "$rightCount"});
  BoundPtr zero = expression::literal(Value(int64_t{0}));
  BoundPtr leftCount = expression::column(arity, count);
  BoundPtr rightCount = expression::column(arity + 1, count);
  BoundPtr onLeft = expression::call(">", {leftCount, zero});
  // ALL: INTERSECT keeps a row min(left, right) times, EXCEPT left - right times (Flink's
  // ReplicateRows after the same aggregate).
  BoundPtr onRight = all && !intersect ? expression::call(">", {leftCount, rightCount})
                                       : expression::call(intersect ? ">" : "=", {rightCount, zero});
  LogicalNodePtr kept = std::make_shared<LogicalFilter>(
      counted, expression::conjunction({onLeft, onRight}));
  std::vector<BoundPtr> columns;
  std::vector<std::string> names;
  for (int i = 0; i < arity; ++i) {
    columns.push_back(expression::column(i, fields[i].type));
    names.push_back(fields[i].name);
  }
  if (all) {
    BoundPtr times = intersect ? expression::caseWhen({expression::call("<", {leftCount, rightCount})},
                                                      {leftCount}, rightCount)
                               : expression::call("-", {leftCount, rightCount});
    std::vector<BoundPtr> withCount = columns;
    std::vector<std::string> withCountNames = names;
    withCount.push_back(times);
    withCountNames.push_back("$times");
    kept = std::make_shared<LogicalUnnest>(
        std::make_shared<LogicalProject>(kept, std::move(withCount), std::move(withCountNames)),
        expression::column(arity, count), false, false);
  }
  return std::make_shared<LogicalProject>(kept, std::move(columns), std::move(names));
}

}  // namespace eddy::sql
