// ORDER BY (selected columns, their positions, expressions over them, and over a SELECT the
// columns of its FROM clause) with LIMIT / OFFSET / FETCH: a LogicalSort over the query it
// orders.
#include "sql/binder/binder.h"

#include <algorithm>

#include "expression/expression_evaluator.h"
#include "sql/binder/clause_syntax.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

Binder::Relation Binder::bindOrderBy(const OrderByQuery& orderBy) {
  SortItems sortItems{orderBy.orderBy, {}};
  Relation input = orderBy.query->is<SelectQuery>()
                       ? bindSelect(orderBy.query->as<SelectQuery>(), nullptr, &sortItems)
                       : bindRelation(*orderBy.query);
  // The query's own columns, then those of keys it computed over its FROM clause.
  const size_t visible =
      input.scope.size() -
      static_cast<size_t>(std::count_if(sortItems.columns.begin(), sortItems.columns.end(),
                                        [](int column) { return column >= 0; }));
  std::vector<relational::SortKey> keys;
  std::vector<BoundPtr> hiddenKeys;
  for (size_t k = 0; k < orderBy.orderBy.size(); ++k) {
    const OrderItem& item = orderBy.orderBy[k];
    int column = -1;
    const Expression& key = *item.expression;
    if (!sortItems.columns.empty() && sortItems.columns[k] >= 0) {
      column = sortItems.columns[k];
    } else if (key.is<LiteralExpression>() &&
               key.as<LiteralExpression>().literalKind == LiteralKind::kExactNumeric) {
      int ordinal = std::stoi(key.as<LiteralExpression>().value);
      if (ordinal < 1 || ordinal > static_cast<int>(visible)) fail(key, "Ordinal out of range");
      column = ordinal - 1;
    } else {
      BoundPtr bound = bindExpression(key, {input.scope});
      if (const auto* reference = dynamic_cast<const expression::ColumnReference*>(bound.get())) {
        column = reference->index();
      } else {
        // An expression over the selected columns (ORDER BY UPPER(name) DESC): computed as a
        // hidden column after them, sorted on, and projected away above the sort (Calcite's).
        column = static_cast<int>(input.scope.size() + hiddenKeys.size());
        hiddenKeys.push_back(std::move(bound));
      }
    }
    keys.push_back(relational::SortKey{column, !item.descending, nullsFirstOf(item)});
  }
  auto count = [this](const ExpressionPtr& expression, const char* clause) -> int64_t {
    if (!expression) return -1;
    BoundPtr bound = bindExpression(*expression, {Scope{}});
    std::optional<Value> value = expression::ExpressionEvaluator::evaluateConstant(bound);
    if (!value || value->isNull() ||
        (value->kind() != ValueKind::INT && value->kind() != ValueKind::BIGINT)) {
      fail(*expression, std::string(clause) + " must be a non-negative integer literal");
    }
    int64_t number = value->kind() == ValueKind::INT ? value->get<int32_t>() : value->get<int64_t>();
    if (number < 0) fail(*expression, std::string(clause) + " must be a non-negative integer literal");
    return number;
  };
  int64_t offset = std::max<int64_t>(0, count(orderBy.offset, "OFFSET"));
  int64_t fetch = count(orderBy.fetch, "LIMIT");
  if (hiddenKeys.empty() && visible == input.scope.size()) {
    input.node = std::make_shared<LogicalSort>(input.node, std::move(keys), offset, fetch);
    return input;
  }
  LogicalNodePtr sortInput = input.node;
  if (!hiddenKeys.empty()) {
    std::vector<BoundPtr> withKeys;
    std::vector<std::string> namesWithKeys;
    for (size_t i = 0; i < input.scope.size(); ++i) {
      withKeys.push_back(expression::column(static_cast<int>(i), input.scope[i].type));
      namesWithKeys.push_back(input.node->rowType->getFields()[i].name);
    }
    for (BoundPtr& key : hiddenKeys) {
      withKeys.push_back(std::move(key));
      namesWithKeys.push_back("$sort" + std::to_string(namesWithKeys.size() - visible));
    }
    sortInput = std::make_shared<LogicalProject>(input.node, std::move(withKeys),
                                                 uniquifyNames(namesWithKeys));
  }
  std::vector<BoundPtr> selected;
  std::vector<std::string> names;
  for (size_t i = 0; i < visible; ++i) {
    selected.push_back(expression::column(static_cast<int>(i), input.scope[i].type));
    names.push_back(input.node->rowType->getFields()[i].name);
  }
  LogicalNodePtr sorted =
      std::make_shared<LogicalSort>(std::move(sortInput), std::move(keys), offset, fetch);
  input.node = std::make_shared<LogicalProject>(sorted, std::move(selected), std::move(names));
  input.scope.resize(visible);
  return input;
}

}  // namespace eddy::sql
