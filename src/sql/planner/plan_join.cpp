// planJoin (plan_join.h): equi keys and the residual condition of a join's condition.
#include "sql/planner/plan_join.h"

#include "function/type_rules.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

namespace {

/// Which input an expression over a join's concatenated row reads: 0 only the left (the
/// first `leftArity` columns), 1 only the right, -1 both or none.
int sideOf(const BoundPtr& expression, int leftArity) {
  std::vector<int> columns;
  expression::collectColumns(expression, columns);
  if (columns.empty()) return -1;
  bool anyLeft = false, anyRight = false;
  for (int column : columns) (column < leftArity ? anyLeft : anyRight) = true;
  if (anyLeft && anyRight) return -1;
  return anyLeft ? 0 : 1;
}

}  // namespace

LogicalNodePtr planJoin(LogicalNodePtr left, LogicalNodePtr right,
                        relational::JoinType joinType, const BoundPtr& condition,
                        std::optional<TemporalJoinTime> temporal) {
  const int leftArity = left->rowType->getFieldCount();
  const int rightArity = right->rowType->getFieldCount();
  // Split the condition into equi keys (`=` between an expression of each side, of one type)
  // and the residual predicate.
  std::vector<BoundPtr> leftKeyExpressions, rightKeyExpressions, residual;
  if (condition) {
    for (const BoundPtr& conjunct : expression::conjunctsOf(condition)) {
      // TRUE (a cross join's condition, a decided subquery conjunct) adds nothing.
      if (expression::isLiteralTrue(conjunct)) continue;
      if (expression::isCallTo(*conjunct, "=")) {
        BoundPtr a = conjunct->children()[0];
        BoundPtr b = conjunct->children()[1];
        int sideA = sideOf(a, leftArity), sideB = sideOf(b, leftArity);
        if (sideA == 1 && sideB == 0) {
          std::swap(a, b);
          std::swap(sideA, sideB);
        }
        // Strings of different lengths (VARCHAR(3) = STRING) compare as they are: both sides
        // become keys of their common type.
        if (sideA == 0 && sideB == 1 && !(*a->type()->copy(true) == *b->type()->copy(true)) &&
            ((function::isCharacterString(*a->type()) && function::isCharacterString(*b->type())) ||
             (function::isBinaryString(*a->type()) && function::isBinaryString(*b->type())))) {
          if (LogicalTypePtr common = function::leastRestrictive({a->type(), b->type()})) {
            a = expression::castIfNeeded(a, common);
            b = expression::castIfNeeded(b, common);
          }
        }
        if (sideA == 0 && sideB == 1 && *a->type()->copy(true) == *b->type()->copy(true)) {
          leftKeyExpressions.push_back(a);
          rightKeyExpressions.push_back(
              expression::remapColumns(b, [leftArity](int column) { return column - leftArity; }));
          continue;
        }
      }
      residual.push_back(conjunct);
    }
  }
  // Key expressions that are not plain columns are computed by a projection below the join.
  auto keyColumns = [](LogicalNodePtr& input, const std::vector<BoundPtr>& keys) {
    const auto& fields = input->rowType->getFields();
    std::vector<BoundPtr> projection;
    std::vector<std::string> names;
    for (size_t i = 0; i < fields.size(); ++i) {
      projection.push_back(expression::column(static_cast<int>(i), fields[i].type));
      names.push_back(fields[i].name);
    }
    std::vector<int> columns;
    for (const BoundPtr& key : keys) {
      if (key->kind() == expression::ExpressionKind::kColumnReference) {
        columns.push_back(static_cast<const expression::ColumnReference&>(*key).index());
      } else {
        columns.push_back(static_cast<int>(projection.size()));
        names.push_back("$f" + std::to_string(projection.size()));
        projection.push_back(key);
      }
    }
    if (projection.size() > fields.size()) {
      input = std::make_shared<LogicalProject>(input, std::move(projection), std::move(names));
    }
    return columns;
  };
  std::vector<int> leftKeys = keyColumns(left, leftKeyExpressions);
  std::vector<int> rightKeys = keyColumns(right, rightKeyExpressions);
  const int leftExtra = left->rowType->getFieldCount() - leftArity;
  const int rightExtra = right->rowType->getFieldCount() - rightArity;
  BoundPtr residualCondition;
  if (!residual.empty()) {
    residualCondition = expression::remapColumns(
        expression::conjunction(std::move(residual)),
        [leftArity, leftExtra](int column) { return column < leftArity ? column : column + leftExtra; });
  }
  LogicalNodePtr join =
      temporal ? std::make_shared<LogicalJoin>(left, right, joinType, std::move(leftKeys),
                                               std::move(rightKeys), residualCondition, *temporal)
               : std::make_shared<LogicalJoin>(left, right, joinType, std::move(leftKeys),
                                               std::move(rightKeys), residualCondition);
  // Drop the computed key columns again (a SEMI/ANTI join outputs the left columns only).
  const bool leftOnly = relational::outputsLeftOnly(joinType);
  if (leftExtra == 0 && (rightExtra == 0 || leftOnly)) return join;
  std::vector<BoundPtr> projection;
  std::vector<std::string> names;
  const auto& fields = join->rowType->getFields();
  for (int i = 0; i < leftArity + (leftOnly ? 0 : rightArity); ++i) {
    int column = i < leftArity ? i : i + leftExtra;
    projection.push_back(expression::column(column, fields[column].type));
    names.push_back(fields[column].name);
  }
  return std::make_shared<LogicalProject>(join, std::move(projection), std::move(names));
}

}  // namespace eddy::sql
