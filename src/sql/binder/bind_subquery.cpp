// Subqueries in expressions: scalar subqueries, [NOT] IN and [NOT] EXISTS, each bound by a child
// binder and evaluated by a join onto the relation of the clause around it (its ClauseContext's
// subqueryInput): a LEFT join with a marker, a semi or anti join for a WHERE conjunct, the value
// of a scalar subquery, the counts SQL's three-valued NOT IN needs. How a correlated subquery's
// WHERE is tied to the outer query is decorrelation.cpp's.
#include "sql/binder/binder.h"

#include <algorithm>
#include <numeric>

#include "eddy/exceptions.h"
#include "sql/binder/call_analysis.h"
#include "sql/planner/plan_join.h"
#include "sql/planner/window_grouping.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;
using function::AggregateCall;
using function::AggregateKind;

Binder::Relation Binder::bindCorrelated(const Query& query, const ClauseContext& clause,
                                        Correlation& correlation) {
  correlation.outerScope = &clause.scope;
  // Outer keys above an aggregation read its output. (Only an EXISTS over an aggregation
  // without GROUP BY, validated alone, gets here from a clause that takes no subquery: none.)
  correlation.outerAggregates = clause.subqueryInput ? clause.aggregates : nullptr;
  if (clause.subqueryInput) correlation.outerInput = clause.subqueryInput->node;
  // Its own binder: the subquery's clauses build their own contexts; the scopes enclosing it
  // and the WITH items it sees are its parents'.
  Binder subquery(*this, clause.scope);
  if (query.is<SelectQuery>()) return subquery.bindSelect(query.as<SelectQuery>(), &correlation);
  return subquery.bindRelation(query);
}

Binder::SubqueryRows Binder::bindSubqueryRows(const Query& query, const ClauseContext& clause,
                                              bool needsValue, bool allowResiduals) {
  Correlation correlation;
  correlation.allowResiduals = allowResiduals;
  Relation relation = bindCorrelated(query, clause, correlation);
  size_t keyCount = correlation.innerKeys.size();
  if (!correlation.emptyGroupValues.empty()) {
    notSupported(query, "A correlated IN or EXISTS subquery that aggregates without GROUP BY");
  }
  SubqueryRows rows;
  rows.node = relation.node;
  for (size_t i = 0; i < keyCount; ++i) {
    rows.innerKeys.push_back(expression::column(static_cast<int>(i), relation.scope[i].type));
  }
  rows.outerKeys = std::move(correlation.outerKeys);
  if (!correlation.residuals.empty()) {
    // Over the subquery's output (keys, carried columns, items) followed by the outer scope:
    // an input column read is the carried column it became, outer column j follows the output.
    const int inputArity = correlation.inputArity;
    const int nodeArity = static_cast<int>(relation.scope.size());
    const std::vector<int>& carried = correlation.carried;
    auto map = [&](int column) {
      if (column >= inputArity) return nodeArity + column - inputArity;
      const auto position = std::find(carried.begin(), carried.end(), column) - carried.begin();
      return static_cast<int>(keyCount + static_cast<size_t>(position));
    };
    for (const BoundPtr& residual : correlation.residuals) {
      rows.residuals.push_back(expression::remapColumns(residual, map));
    }
    keyCount += correlation.carried.size();  // the value follows the carried columns
  }
  if (needsValue) {
    if (relation.scope.size() != keyCount + 1) {
      fail(query, "The subquery of IN must return exactly one column; it returns " +
                      std::to_string(relation.scope.size() - keyCount));
    }
    rows.value = expression::column(static_cast<int>(keyCount), relation.scope[keyCount].type);
  }
  return rows;
}

namespace {

/// An aggregation for a subquery's side of a join: `columns` over `input`, grouped by the first
/// `groupCount` of them, with `calls` over the columns (named `callNames`). Where the keys
/// include a window's start and end (a correlation `L.window_start = R.window_start AND
/// L.window_end = R.window_end` over a window TVF) it is a window aggregation, which emits each
/// window's rows when the window closes and is insert-only, so the join on it becomes a window
/// join (Flink's window semi and anti joins: insert-only, state released with the window); else
/// a GroupAggregate.
LogicalNodePtr subqueryAggregate(const LogicalNodePtr& input, std::vector<BoundPtr> columns,
                                 std::vector<std::string> names, int groupCount,
                                 std::vector<AggregateCall> calls,
                                 std::vector<std::string> callNames) {
  LogicalNodePtr pre;
  const bool mergeable =
      input->kind == LogicalNodeKind::kProject &&
      std::all_of(static_cast<const LogicalProject&>(*input).expressions.begin(),
                  static_cast<const LogicalProject&>(*input).expressions.end(),
                  [](const BoundPtr& e) { return e->isDeterministic(); });
  if (mergeable) {
    // One projection over the subquery's input (as ProjectMerge would make it), so that a
    // window table function below it is seen.
    const auto& inner = static_cast<const LogicalProject&>(*input).expressions;
    std::vector<BoundPtr> merged;
    for (const BoundPtr& column : columns) merged.push_back(expression::inlineColumns(column, inner));
    pre = std::make_shared<LogicalProject>(input->inputs[0], std::move(merged), names);
  } else {
    pre = std::make_shared<LogicalProject>(input, std::move(columns), names);
  }
  std::vector<int> grouping(static_cast<size_t>(groupCount));
  std::iota(grouping.begin(), grouping.end(), 0);
  const bool windowed = windowGroupingOf(*pre, groupCount, calls).has_value();
  return std::make_shared<LogicalAggregate>(pre, std::move(grouping), std::move(calls),
                                            std::move(callNames), true,
                                            std::vector<std::vector<int>>{}, windowed);
}

}  // namespace

BoundPtr Binder::markSubquery(const Expression& node, const Query& query,
                              const ClauseContext& clause, const Expression* inOperand, bool semi,
                              SubqueryRows* bound) {
  if (!clause.subqueryInput) notSupported(node, "A subquery in this clause");
  Relation& outer = *clause.subqueryInput;
  BoundPtr operand = inOperand ? bindExpression(*inOperand, clause) : nullptr;
  SubqueryRows rows =
      bound ? std::move(*bound) : bindSubqueryRows(query, clause, inOperand != nullptr);
  // The subquery's side: (TRUE, value?, inner keys...), distinct, so each outer row has at
  // most one partner.
  std::vector<BoundPtr> columns = {expression::literal(Value(true))};
  std::vector<std::string> names = {"$marker"};
  if (rows.value) {
    columns.push_back(rows.value);
    names.push_back("$value");
  }
  for (size_t i = 0; i < rows.innerKeys.size(); ++i) {
    columns.push_back(rows.innerKeys[i]);
    names.push_back("$key" + std::to_string(i));
  }
  const int columnCount = static_cast<int>(columns.size());
  LogicalNodePtr right =
      subqueryAggregate(rows.node, std::move(columns), std::move(names), columnCount, {}, {});
  // The join condition over (outer columns, right columns).
  const int outerArity = outer.node->rowType->getFieldCount();
  const auto& rightFields = right->rowType->getFields();
  std::vector<BoundPtr> conditions;
  int column = outerArity + 1;
  if (rows.value) {
    conditions.push_back(expression::call("=", {operand, expression::column(column, rightFields[1].type)}));
    ++column;
  }
  for (const BoundPtr& key : rows.outerKeys) {
    conditions.push_back(expression::call(
        "=", {key, expression::column(column, rightFields[column - outerArity].type)}));
    ++column;
  }
  // A semi join (a WHERE conjunct that keeps only matched rows) is an INNER join with the
  // distinct partners: insert-only over insert-only inputs, as Flink's semi join.
  outer.node = planJoin(outer.node, right,
                        semi ? relational::JoinType::INNER : relational::JoinType::LEFT,
                        conditions.empty() ? nullptr : expression::conjunction(conditions));
  return expression::column(outerArity, LogicalType::simple(LogicalTypeRoot::BOOLEAN, semi ? false : true));
}

void Binder::semiJoinSubquery(SubqueryRows rows, const ClauseContext& clause,
                              const Expression* inOperand, bool anti) {
  Relation& outer = *clause.subqueryInput;
  // The IN operand first: a subquery in it adds columns to the outer side.
  BoundPtr operand = inOperand ? bindExpression(*inOperand, clause) : nullptr;
  // The condition over (outer columns, subquery columns): the IN value, the keys, the others.
  const int outerArity = outer.node->rowType->getFieldCount();
  const int rowsArity = rows.node->rowType->getFieldCount();
  // Subquery column r -> outerArity + r; outer column j (after the subquery's) -> j.
  auto map = [&](int column) {
    return column < rowsArity ? outerArity + column : column - rowsArity;
  };
  std::vector<BoundPtr> conditions;
  if (rows.value) {
    conditions.push_back(
        expression::call("=", {operand, expression::remapColumns(rows.value, map)}));
  }
  for (size_t i = 0; i < rows.outerKeys.size(); ++i) {
    conditions.push_back(expression::call(
        "=", {rows.outerKeys[i], expression::remapColumns(rows.innerKeys[i], map)}));
  }
  for (const BoundPtr& residual : rows.residuals) {
    conditions.push_back(expression::remapColumns(residual, map));
  }
  outer.node = planJoin(outer.node, rows.node,
                        anti ? relational::JoinType::ANTI : relational::JoinType::SEMI,
                        expression::conjunction(conditions));
}

namespace {

/// Whether `node` is one of the conjuncts of the clause's WHERE or HAVING.
bool isTopLevelConjunct(const Expression& node, std::span<const Expression* const> conjuncts) {
  return std::find(conjuncts.begin(), conjuncts.end(), &node) != conjuncts.end();
}

}  // namespace

BoundPtr Binder::bindInSubquery(const InExpression& in, const ClauseContext& clause) {
  if (aggregatesWithoutGroupBy(*in.subquery)) {
    // Its one row's value v: `x IN (v)` is `x = v` (NOT IN: NOT (x = v)), also for a correlated
    // subquery, whose keys without rows get the aggregation's value over no rows (COUNT's 0).
    if (!clause.subqueryInput) notSupported(in, "A subquery in this clause");
    BoundPtr operand = bindExpression(*in.operand, clause);
    BoundPtr value = bindScalarSubquery(*in.subquery, *in.subquery, clause);
    BoundPtr result = expression::call("=", {operand, value});
    return in.negated ? expression::call("NOT", {result}) : result;
  }
  if (isTopLevelConjunct(in, clause.topLevelConjuncts) && !in.negated) {
    // WHERE x IN (...) AND ...: a row without a match is filtered out, FALSE or UNKNOWN. With
    // a correlation other than `inner = outer`, a semi join.
    std::optional<SubqueryRows> rows;
    if (clause.subqueryInput) {
      rows = bindSubqueryRows(*in.subquery, clause, true, /*allowResiduals=*/true);
      if (!rows->residuals.empty()) {
        semiJoinSubquery(std::move(*rows), clause, in.operand.get(), false);
        return expression::literal(Value(true));
      }
    }
    return expression::call("IS NOT NULL", {markSubquery(in, *in.subquery, clause,
                                                         in.operand.get(), true,
                                                         rows ? &*rows : nullptr)});
  }
  // SQL's three-valued IN: TRUE with a match; otherwise FALSE when the subquery is empty or
  // (x is not NULL and the subquery has no NULL), else UNKNOWN. The subquery's row count and
  // NULL count come from a global aggregate joined onto every row.
  if (!clause.subqueryInput) notSupported(in, "A subquery in this clause");
  BoundPtr operand = bindExpression(*in.operand, clause);
  BoundPtr marker = markSubquery(in, *in.subquery, clause, in.operand.get());
  SubqueryRows rows = bindSubqueryRows(*in.subquery, clause, true);
  Relation& outer = *clause.subqueryInput;
  LogicalTypePtr count = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
  // The counts per correlation key (one global row when uncorrelated): the keys, then whether
  // the value is NULL.
  const int keyCount = static_cast<int>(rows.innerKeys.size());
  std::vector<BoundPtr> flagged = rows.innerKeys;
  std::vector<std::string> flaggedNames;
  for (int i = 0; i < keyCount; ++i) flaggedNames.push_back("$key" + std::to_string(i));
  flagged.push_back(expression::call("IS NULL", {rows.value}));
  flaggedNames.push_back("$isNull");
  LogicalNodePtr stats = subqueryAggregate(
      rows.node, std::move(flagged), std::move(flaggedNames), keyCount,
      std::vector<AggregateCall>{AggregateCall{AggregateKind::COUNT_STAR, -1, count, -1},
                                 AggregateCall{AggregateKind::COUNT_STAR, -1, count, keyCount}},
      std::vector<std::string>{"$rows", "$nulls"});
  const int outerArity = outer.node->rowType->getFieldCount();
  std::vector<BoundPtr> keyEqualities;
  const auto& statsFields = stats->rowType->getFields();
  for (int i = 0; i < keyCount; ++i) {
    keyEqualities.push_back(expression::call(
        "=", {rows.outerKeys[static_cast<size_t>(i)],
              expression::column(outerArity + i, statsFields[static_cast<size_t>(i)].type)}));
  }
  outer.node = planJoin(outer.node, stats, relational::JoinType::LEFT,
                        keyEqualities.empty() ? nullptr : expression::conjunction(keyEqualities));
  LogicalTypePtr nullableCount = count->copy(true);
  BoundPtr rowCount = expression::column(outerArity + keyCount, nullableCount);
  BoundPtr nullCount = expression::column(outerArity + keyCount + 1, nullableCount);
  BoundPtr zero = expression::literal(Value(int64_t{0}));
  BoundPtr empty = expression::call("=", {expression::coalesce({rowCount, zero}), zero});
  BoundPtr unknown = expression::call(
      "OR", {expression::call("IS NULL", {operand}), expression::call(">", {nullCount, zero})});
  BoundPtr result = expression::caseWhen(
      {expression::call("IS NOT NULL", {marker}), empty, unknown},
      {expression::literal(Value(true)), expression::literal(Value(false)),
       expression::literal(Value(), LogicalType::simple(LogicalTypeRoot::BOOLEAN))},
      expression::literal(Value(false)));
  return in.negated ? expression::call("NOT", {result}) : result;
}

// [NOT] EXISTS (query): TRUE for an aggregation without GROUP BY (one row, whatever it
// aggregates); a semi (anti) join for a WHERE conjunct; elsewhere the marker of a LEFT join.
BoundPtr Binder::bindExistsSubquery(const Expression& node, const ClauseContext& clause) {
  const Query& query = *node.as<ExistsExpression>().query;
  if (aggregatesWithoutGroupBy(query)) {
    // An aggregation without GROUP BY has one row, whatever it aggregates: TRUE (once the
    // subquery is known to be valid).
    Correlation correlation;
    correlation.allowResiduals = true;
    correlation.validateOnly = true;
    bindCorrelated(query, clause, correlation);
    return expression::literal(Value(true));
  }
  // WHERE EXISTS (...) AND ...: a semi join; elsewhere the marker of a LEFT join.
  const bool topLevel = isTopLevelConjunct(node, clause.topLevelConjuncts);
  // With a correlation other than `inner = outer`: WHERE [NOT] EXISTS is a semi (anti)
  // join; the conjunct is then TRUE (NOT FALSE) for the rows it leaves.
  const bool negatedTopLevel =
      std::any_of(clause.topLevelConjuncts.begin(), clause.topLevelConjuncts.end(),
                  [&](const Expression* conjunct) {
                    return conjunct->is<UnaryExpression>() &&
                           conjunct->as<UnaryExpression>().op == UnaryOperator::kNot &&
                           conjunct->as<UnaryExpression>().operand.get() == &node;
                  });
  std::optional<SubqueryRows> rows;
  if ((topLevel || negatedTopLevel) && clause.subqueryInput) {
    rows = bindSubqueryRows(query, clause, false, /*allowResiduals=*/true);
    if (!rows->residuals.empty()) {
      semiJoinSubquery(std::move(*rows), clause, nullptr, negatedTopLevel);
      return expression::literal(Value(!negatedTopLevel));
    }
  }
  return expression::call(
      "IS NOT NULL", {markSubquery(node, query, clause, nullptr, topLevel,
                                   rows ? &*rows : nullptr)});
}

BoundPtr Binder::bindScalarSubquery(const Node& subquery, const Query& query,
                                    const ClauseContext& clause) {
  if (!clause.subqueryInput) notSupported(subquery, "A subquery in this clause");
  Relation& outer = *clause.subqueryInput;
  Correlation correlation;
  Relation relation = bindCorrelated(query, clause, correlation);
  const int keyCount = static_cast<int>(correlation.innerKeys.size());
  if (relation.scope.size() != static_cast<size_t>(keyCount) + 1) {
    fail(subquery, "A scalar subquery must return exactly one column; it returns " +
                       std::to_string(relation.scope.size() - static_cast<size_t>(keyCount)));
  }
  LogicalTypePtr type = relation.scope[static_cast<size_t>(keyCount)].type->copy(true);
  const int outerArity = outer.node->rowType->getFieldCount();
  // The join condition: each outer key equals its inner key (the right side's first columns).
  auto keyEqualities = [&]() -> BoundPtr {
    std::vector<BoundPtr> equalities;
    for (int i = 0; i < keyCount; ++i) {
      equalities.push_back(expression::call(
          "=", {correlation.outerKeys[static_cast<size_t>(i)],
                expression::column(outerArity + i, relation.scope[static_cast<size_t>(i)].type)}));
    }
    return equalities.empty() ? nullptr : expression::conjunction(std::move(equalities));
  };
  if (!correlation.emptyGroupValues.empty()) {
    // An aggregation without GROUP BY: one row per correlation key, joined with a marker; a
    // row whose key has no rows gets the aggregation's value over no rows (COUNT's 0).
    BoundPtr emptyValue = correlation.emptyGroupValues[0];
    bool nullWhenEmpty = emptyValue->kind() == expression::ExpressionKind::kLiteral &&
                         static_cast<const expression::Literal&>(*emptyValue).value().isNull();
    LogicalNodePtr right = relation.node;
    if (!nullWhenEmpty) {
      std::vector<BoundPtr> columns;
      std::vector<std::string> names;
      for (int i = 0; i <= keyCount; ++i) {
        columns.push_back(expression::column(i, relation.scope[static_cast<size_t>(i)].type));
        names.push_back(relation.scope[static_cast<size_t>(i)].name);
      }
      columns.push_back(expression::literal(Value(true)));
      names.push_back("$marker");
      right = std::make_shared<LogicalProject>(right, std::move(columns), uniquifyNames(names));
    }
    outer.node = planJoin(outer.node, right, relational::JoinType::LEFT, keyEqualities());
    BoundPtr value = expression::column(outerArity + keyCount, type);
    if (nullWhenEmpty) return value;
    BoundPtr marker = expression::column(outerArity + keyCount + 1,
                                         LogicalType::simple(LogicalTypeRoot::BOOLEAN, true));
    return expression::caseWhen({expression::call("IS NULL", {marker})},
                                {expression::castIfNeeded(emptyValue, type)}, value);
  }
  // Otherwise at most one row per correlation key (or in all): the value, NULL without rows,
  // an error with more (SINGLE_VALUE).
  std::vector<int> grouping;
  for (int i = 0; i < keyCount; ++i) grouping.push_back(i);
  LogicalNodePtr single = std::make_shared<LogicalAggregate>(
      relation.node, std::move(grouping),
      std::vector<AggregateCall>{AggregateCall{AggregateKind::SINGLE_VALUE, keyCount, type, -1}},
      std::vector<std::string>{"$value"});
  outer.node = planJoin(outer.node, single, relational::JoinType::LEFT, keyEqualities());
  return expression::column(outerArity + keyCount, type);
}

}  // namespace eddy::sql
