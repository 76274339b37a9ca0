// Joins of FROM items: JOIN ... ON (planned by planJoin), JOIN ... USING and NATURAL JOIN (the
// named columns merged into one), and the dispatch to the joins of their own files (a temporal
// or lookup join: bind_temporal_join.cpp; a correlated UNNEST: bind_unnest.cpp).
#include "sql/binder/binder.h"

#include <algorithm>
#include <set>

#include "eddy/exceptions.h"
#include "sql/binder/call_analysis.h"
#include "sql/planner/plan_join.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

Binder::Relation Binder::bindJoin(const JoinReference& join) {
  using relational::JoinType;
  Relation left = bindTableReference(*join.left);
  if (join.right->is<UnnestReference>()) {
    // A correlated UNNEST: CROSS JOIN, comma, [INNER] JOIN .. ON cond (a filter above), or
    // LEFT JOIN .. ON TRUE (Flink's only outer form).
    if (join.natural || !join.usingColumns.empty()) {
      notSupported(join, "UNNEST with NATURAL or USING");
    }
    const bool leftOuter = join.joinType == JoinType::LEFT;
    if (join.joinType == JoinType::RIGHT || join.joinType == JoinType::FULL) {
      notSupported(join, "A RIGHT or FULL join with UNNEST");
    }
    if (join.syntax == JoinSyntax::kJoin && !join.condition) {
      fail(join, "INNER, LEFT, RIGHT or FULL join requires a condition (NATURAL keyword or ON or "
                 "USING clause)");
    }
    Relation result = bindUnnest(join.right->as<UnnestReference>(), &left, leftOuter);
    if (join.condition) {
      BoundPtr condition = bindExpression(*join.condition, {result.scope});
      if (condition->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
        fail(*join.condition, "ON clause must be a condition");
      }
      const bool alwaysTrue = condition->kind() == expression::ExpressionKind::kLiteral &&
                              static_cast<const expression::Literal&>(*condition).value() ==
                                  Value(true);
      if (leftOuter && !alwaysTrue) {
        fail(*join.condition, "A LEFT JOIN with UNNEST supports only the condition ON TRUE");
      }
      if (!alwaysTrue) result.node = std::make_shared<LogicalFilter>(result.node, condition);
    }
    return result;
  }
  const bool temporal = join.right->is<NamedTableReference>() &&
                        join.right->as<NamedTableReference>().systemTimeAsOf != nullptr;
  // The versioned side of a temporal join is the one table that may be read AS OF a time.
  Relation right = bindTableReference(*join.right, /*versioned=*/temporal);
  const JoinType joinType = join.joinType;
  if (temporal && (join.natural || !join.usingColumns.empty())) {
    notSupported(join, "A temporal join with NATURAL or USING");
  }
  if (join.natural || !join.usingColumns.empty()) return bindUsingJoin(join, left, right, joinType);
  bool needsCondition = join.syntax == JoinSyntax::kJoin;
  if (needsCondition && !join.condition) {
    fail(join, "INNER, LEFT, RIGHT or FULL join requires a condition (NATURAL keyword or ON or "
               "USING clause)");
  }

  Scope combined = left.scope;
  combined.insert(combined.end(), right.scope.begin(), right.scope.end());
  BoundPtr condition;
  if (join.condition) {
    bool hasAggregate = false;
    forEachAggregate(*join.condition, [&](const FunctionCallExpression&) { hasAggregate = true; });
    if (hasAggregate) fail(*join.condition, "Aggregate expression is illegal in ON clause");
    condition = bindExpression(*join.condition, {combined});
    if (condition->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
      fail(*join.condition, "ON clause must be a condition");
    }
  }
  if (temporal) return bindTemporalJoin(join, std::move(left), std::move(right), joinType, condition);
  Relation result;
  result.node = planJoin(left.node, right.node, joinType, condition);
  bool padLeft = joinType == JoinType::RIGHT || joinType == JoinType::FULL;
  bool padRight = joinType == JoinType::LEFT || joinType == JoinType::FULL;
  for (size_t i = 0; i < combined.size(); ++i) {
    ScopeColumn column = combined[i];
    if (i < left.scope.size() ? padLeft : padRight) column.type = column.type->copy(true);
    result.scope.push_back(std::move(column));
  }
  return result;
}

Binder::Relation Binder::bindUsingJoin(const JoinReference& join, const Relation& left,
                                      const Relation& right,
                                      relational::JoinType joinType) {
  using relational::JoinType;
  // The visible column of a side called `name`; -1 when none.
  auto find = [&](const Scope& scope, const std::string& name, const char* side) {
    int found = -1;
    for (size_t i = 0; i < scope.size(); ++i) {
      if (scope[i].hidden || scope[i].name != name) continue;
      if (found >= 0) fail(join, "Column name '" + name + "' in USING clause is not unique on one side of join");
      found = static_cast<int>(i);
    }
    if (found < 0 && side) fail(join, "Column '" + name + "' not found in " + side + " table");
    return found;
  };
  std::vector<std::string> names = join.usingColumns;
  if (join.natural) {
    for (const ScopeColumn& column : left.scope) {
      if (!column.hidden && find(right.scope, column.name, nullptr) >= 0) names.push_back(column.name);
    }
  }
  std::vector<int> leftColumns;
  std::vector<int> rightColumns;
  std::vector<BoundPtr> equalities;
  const int leftArity = static_cast<int>(left.scope.size());
  for (const std::string& name : names) {
    if (std::count(names.begin(), names.end(), name) > 1) {
      fail(join, "Duplicate column name '" + name + "' in USING clause");
    }
    int l = find(left.scope, name, "left");
    int r = find(right.scope, name, "right");
    leftColumns.push_back(l);
    rightColumns.push_back(r);
    try {
      equalities.push_back(expression::call(
          "=", {expression::column(l, left.scope[l].type),
                expression::column(leftArity + r, right.scope[r].type)}));
    } catch (const ValidationException& error) {
      fail(join, "Column '" + name + "' matched using NATURAL keyword or USING clause has "
                 "incompatible types: " + error.what());
    }
  }
  BoundPtr condition = equalities.empty() ? nullptr : expression::conjunction(std::move(equalities));
  LogicalNodePtr joined = planJoin(left.node, right.node, joinType, condition);
  bool padLeft = joinType == JoinType::RIGHT || joinType == JoinType::FULL;
  bool padRight = joinType == JoinType::LEFT || joinType == JoinType::FULL;
  // Output: each USING column once (the left's value; the right's for a RIGHT join; COALESCE of
  // both for a FULL join), then both sides' columns, the merged ones hidden.
  std::vector<BoundPtr> projection;
  std::vector<std::string> outputNames;
  Relation result;
  const auto& fields = joined->rowType->getFields();
  for (size_t k = 0; k < names.size(); ++k) {
    BoundPtr l = expression::column(leftColumns[k], fields[leftColumns[k]].type);
    BoundPtr r = expression::column(leftArity + rightColumns[k], fields[leftArity + rightColumns[k]].type);
    BoundPtr merged = joinType == JoinType::RIGHT ? r
                      : joinType == JoinType::FULL ? expression::coalesce({l, r})
                                                    : l;
    result.scope.push_back(ScopeColumn{"", names[k], merged->type(), false});
    outputNames.push_back(names[k]);
    projection.push_back(std::move(merged));
  }
  for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
    bool fromLeft = i < leftArity;
    ScopeColumn column = fromLeft ? left.scope[i] : right.scope[i - leftArity];
    if (fromLeft ? padLeft : padRight) column.type = column.type->copy(true);
    const std::vector<int>& merged = fromLeft ? leftColumns : rightColumns;
    column.hidden = column.hidden ||
                    std::find(merged.begin(), merged.end(), fromLeft ? i : i - leftArity) != merged.end();
    projection.push_back(expression::column(i, fields[i].type));
    outputNames.push_back(fields[i].name);
    result.scope.push_back(std::move(column));
  }
  // Field names of a row are unique (the hidden columns become `uid0`, ... as Calcite names
  // repeated join columns); the scope keeps the names SQL refers to.
  std::set<std::string> used;
  for (std::string& name : outputNames) {
    std::string unique = name;
    for (int suffix = 0; !used.insert(unique).second; ++suffix) unique = name + std::to_string(suffix);
    name = unique;
  }
  result.node = std::make_shared<LogicalProject>(joined, std::move(projection), std::move(outputNames));
  return result;
}

}  // namespace eddy::sql
