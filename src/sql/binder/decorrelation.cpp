// Decorrelation: the WHERE of a correlated subquery, whose conjuncts are the subquery's own
// filters, `inner = outer` correlation keys, or other conditions over both queries
// (residuals, taken by a semi or anti join), and, where no such join can take the residuals,
// Calcite's value generator that turns them into keys (decorrelateResiduals).
#include "sql/binder/binder.h"

#include <algorithm>
#include <numeric>

#include "eddy/exceptions.h"
#include "expression/expression_evaluator.h"
#include "function/scalar/cast.h"
#include "sql/binder/clause_syntax.h"
#include "sql/planner/plan_join.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;
using function::AggregateCall;

namespace {

/// Whether `conjunct` is a subquery or compares one (`x = (SELECT ..)`): when it is not the
/// subquery's own condition, binding it as such reports its error.
bool comparesSubquery(const Expression& conjunct) {
  auto isSubquery = [](const Expression& e) {
    return e.is<SubqueryExpression>() || e.is<ExistsExpression>() ||
           (e.is<InExpression>() && e.as<InExpression>().subquery);
  };
  if (isSubquery(conjunct)) return true;
  if (!conjunct.is<BinaryExpression>()) return false;
  const auto& binary = conjunct.as<BinaryExpression>();
  return isSubquery(*binary.left) || isSubquery(*binary.right);
}

}  // namespace

// A conjunct's names tell which of the three it is, by lookups before anything is bound: the
// subquery's own condition when they all resolve in its FROM (the innermost scope first, as in
// Calcite), a key when one side's do and the other side's resolve in the outer scope, a
// residual otherwise. An error binding it then ends the statement.
BoundPtr Binder::bindCorrelatedWhere(const Expression& where, Relation& input,
                                     Correlation& correlation) {
  std::vector<const Expression*> conjuncts;
  collectConjuncts(where, conjuncts);
  std::vector<BoundPtr> filters;
  for (const Expression* conjunct : conjuncts) {
    // A conjunct over the subquery's own columns (it may hold subqueries of its own, joined onto
    // the input). A subquery over other columns reports its own error.
    if (resolvesIn(*conjunct, input.scope) || comparesSubquery(*conjunct)) {
      filters.push_back(bindExpression(
          *conjunct,
          {.scope = input.scope, .subqueryInput = &input, .topLevelConjuncts = {&conjunct, 1}}));
      continue;
    }
    if (!bindCorrelationKey(*conjunct, input.scope, correlation)) {
      bindResidual(*conjunct, input.scope, correlation);
    }
  }
  return filters.empty() ? nullptr : expression::conjunction(std::move(filters));
}

bool Binder::bindCorrelationKey(const Expression& conjunct, const Scope& inner,
                                Correlation& correlation) {
  if (!conjunct.is<BinaryExpression>() ||
      conjunct.as<BinaryExpression>().op != BinaryOperator::kEquals) {
    return false;
  }
  const auto& equals = conjunct.as<BinaryExpression>();
  const Scope& outer = *correlation.outerScope;
  // `inner = outer` or the reverse (not both: the conjunct would be the subquery's own).
  const bool leftInner = resolvesIn(*equals.left, inner) && resolvesIn(*equals.right, outer);
  const bool rightInner = resolvesIn(*equals.right, inner) && resolvesIn(*equals.left, outer);
  if (!leftInner && !rightInner) return false;
  BoundPtr innerKey = bindExpression(leftInner ? *equals.left : *equals.right, {inner});
  // Above an aggregation the outer side reads its output: an outer column that is not grouped
  // fails here.
  BoundPtr outerKey = bindExpression(leftInner ? *equals.right : *equals.left,
                                     {.scope = outer, .aggregates = correlation.outerAggregates});
  try {
    (void)expression::call("=", {innerKey, outerKey});  // checks the types
  } catch (const ValidationException& error) {
    fail(conjunct, error.what());  // the same error, at the conjunct
  }
  correlation.innerKeys.push_back(std::move(innerKey));
  correlation.outerKeys.push_back(std::move(outerKey));
  return true;
}

void Binder::bindResidual(const Expression& conjunct, const Scope& inner,
                          Correlation& correlation) {
  // An unqualified name is the subquery's column where it has one (the innermost scope first,
  // as in Calcite): an outer column of the same name is reachable only qualified.
  Scope combined = inner;
  for (ScopeColumn column : *correlation.outerScope) {
    column.hidden = column.hidden ||
                    std::any_of(inner.begin(), inner.end(),
                                [&](const ScopeColumn& own) { return own.name == column.name; });
    combined.push_back(std::move(column));
  }
  if (!resolvesIn(conjunct, combined)) {
    // A name of a query further out (the outer scopes of the binders this one's subquery is
    // written in): a correlation two levels out.
    std::vector<const Scope*> furtherOut;
    for (const Binder* binder = parent_; binder; binder = binder->parent_) {
      if (binder->outerScope_) furtherOut.insert(furtherOut.begin(), binder->outerScope_);
    }
    Scope everything = combined;
    for (const Scope* scope : furtherOut) {
      everything.insert(everything.end(), scope->begin(), scope->end());
    }
    if (!furtherOut.empty() && resolvesIn(conjunct, everything)) {
      notSupported(conjunct, "A subquery correlated to a query two levels out");
    }
  }
  BoundPtr residual = bindExpression(conjunct, {combined});
  if (correlation.outerAggregates) {
    notSupported(conjunct,
                 "A correlated subquery condition other than `inner = outer` above GROUP BY "
                 "(in the select list or HAVING of an aggregating query)");
  }
  if (!correlation.outerInput) {
    notSupported(conjunct,
                 "A correlated subquery condition other than `inner = outer` in this clause");
  }
  if (residual->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
    fail(conjunct, "WHERE clause must be a condition");
  }
  // Evaluated by the semi (anti) join: the subquery carries the inner columns it reads.
  correlation.inputArity = static_cast<int>(inner.size());
  std::vector<int> columns;
  expression::collectColumns(residual, columns);
  for (int column : columns) {
    if (column < correlation.inputArity &&
        std::find(correlation.carried.begin(), correlation.carried.end(), column) ==
            correlation.carried.end()) {
      correlation.carried.push_back(column);
    }
  }
  correlation.residuals.push_back(std::move(residual));
}

namespace {

/// A constant of `type` (NOT NULL) that stands for NULL in a NULL-safe key (paired with an IS
/// NULL flag, so any value does): 0, '', FALSE, the epoch; null for other types.
BoundPtr nullReplacementOf(const LogicalTypePtr& type) {
  const LogicalTypePtr notNull = type->copy(false);
  BoundPtr constant;
  switch (type->getTypeRoot()) {
    case LogicalTypeRoot::TINYINT:
    case LogicalTypeRoot::SMALLINT:
    case LogicalTypeRoot::INTEGER:
    case LogicalTypeRoot::BIGINT:
    case LogicalTypeRoot::DECIMAL:
    case LogicalTypeRoot::FLOAT:
    case LogicalTypeRoot::DOUBLE:
      constant = expression::literal(Value(int32_t{0}));
      break;
    case LogicalTypeRoot::CHAR:
    case LogicalTypeRoot::VARCHAR:
      constant = expression::literal(Value(std::string("")));
      break;
    case LogicalTypeRoot::BOOLEAN:
      return expression::literal(Value(false));
    case LogicalTypeRoot::DATE:
      constant = expression::literal(Value(std::string("1970-01-01")));
      break;
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      constant = expression::literal(Value(std::string("1970-01-01 00:00:00")));
      break;
    case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
      constant = expression::literal(Value(std::string("00:00:00")));
      break;
    case LogicalTypeRoot::BINARY:
    case LogicalTypeRoot::VARBINARY:
      constant = expression::literal(Value(std::string("")));
      break;
    default:
      return nullptr;
  }
  if (!function::isCastSupported(*constant->type(), *notNull)) return nullptr;
  std::optional<Value> value = expression::ExpressionEvaluator::evaluateConstant(
      expression::castIfNeeded(constant, notNull, function::BindingContext{}));
  if (!value || value->isNull()) return nullptr;
  return expression::literal(std::move(*value), notNull);
}

}  // namespace

void Binder::decorrelateResiduals(const Node& at, Relation& input, Correlation& correlation) {
  const int inputArity = correlation.inputArity;
  if (input.node->rowType->getFieldCount() != inputArity ||
      static_cast<int>(input.scope.size()) != inputArity) {
    notSupported(at, "A correlated subquery condition other than `inner = outer` beside a "
                     "subquery in the same WHERE");
  }
  // The outer columns read, in order: by the conditions (after the input's columns) and by
  // the keys (over the outer scope).
  std::vector<int> outerColumns;
  auto addOuter = [&outerColumns](int column) {
    if (std::find(outerColumns.begin(), outerColumns.end(), column) == outerColumns.end()) {
      outerColumns.push_back(column);
    }
  };
  for (const BoundPtr& residual : correlation.residuals) {
    std::vector<int> columns;
    expression::collectColumns(residual, columns);
    for (int column : columns) {
      if (column >= inputArity) addOuter(column - inputArity);
    }
  }
  for (const BoundPtr& key : correlation.outerKeys) {
    std::vector<int> columns;
    expression::collectColumns(key, columns);
    for (int column : columns) addOuter(column);
  }
  std::sort(outerColumns.begin(), outerColumns.end());
  // The value generator: the distinct values of those outer columns.
  const auto& outerFields = correlation.outerInput->rowType->getFields();
  std::vector<BoundPtr> projected;
  std::vector<std::string> names;
  for (size_t k = 0; k < outerColumns.size(); ++k) {
    const int column = outerColumns[k];
    projected.push_back(
        expression::column(column, outerFields[static_cast<size_t>(column)].type));
    names.push_back("$outer" + std::to_string(k));
  }
  std::vector<int> grouping(outerColumns.size());
  std::iota(grouping.begin(), grouping.end(), 0);
  LogicalNodePtr values = std::make_shared<LogicalAggregate>(
      std::make_shared<LogicalProject>(correlation.outerInput, projected, names), grouping,
      std::vector<AggregateCall>{}, std::vector<std::string>{});
  // The input joined with them on the conditions and the keys: over (input, values), outer
  // column j is values' column of j.
  auto valueColumn = [&](int outerColumn) {
    const auto position = std::find(outerColumns.begin(), outerColumns.end(), outerColumn) -
                          outerColumns.begin();
    return inputArity + static_cast<int>(position);
  };
  std::vector<BoundPtr> conditions;
  for (const BoundPtr& residual : correlation.residuals) {
    conditions.push_back(expression::remapColumns(residual, [&](int column) {
      return column < inputArity ? column : valueColumn(column - inputArity);
    }));
  }
  for (size_t k = 0; k < correlation.innerKeys.size(); ++k) {
    conditions.push_back(expression::call(
        "=", {correlation.innerKeys[k],
              expression::remapColumns(correlation.outerKeys[k], valueColumn)}));
  }
  input.node = planJoin(input.node, values, relational::JoinType::INNER,
                        expression::conjunction(conditions));
  // The subquery is now correlated by those values alone, compared NULL-safely (Calcite's IS
  // NOT DISTINCT FROM: an outer row whose value is NULL finds the rows the conditions gave its
  // NULL): a nullable value is two keys, whether it is NULL and the value with NULL replaced.
  correlation.innerKeys.clear();
  correlation.outerKeys.clear();
  for (size_t k = 0; k < outerColumns.size(); ++k) {
    const LogicalTypePtr& type = outerFields[static_cast<size_t>(outerColumns[k])].type;
    input.scope.push_back(ScopeColumn{"", names[k], type, /*hidden=*/true});
    BoundPtr inner = expression::column(inputArity + static_cast<int>(k), type);
    BoundPtr outerValue = expression::column(outerColumns[k], type);
    BoundPtr replacement = type->isNullable() ? nullReplacementOf(type) : nullptr;
    if (type->isNullable() && !replacement) {
      // A NULL of it would match nothing: refused rather than wrong.
      notSupported(at, "A correlated subquery condition other than `inner = outer` that reads an "
                       "outer column of type " + type->asSummaryString());
    }
    if (!replacement) {
      correlation.innerKeys.push_back(std::move(inner));
      correlation.outerKeys.push_back(std::move(outerValue));
      continue;
    }
    correlation.innerKeys.push_back(expression::call("IS NULL", {inner}));
    correlation.outerKeys.push_back(expression::call("IS NULL", {outerValue}));
    correlation.innerKeys.push_back(expression::coalesce({inner, replacement}));
    correlation.outerKeys.push_back(expression::coalesce({outerValue, replacement}));
  }
  correlation.residuals.clear();
  correlation.carried.clear();
}

}  // namespace eddy::sql
