// ORDER BY (selected columns and their positions) with LIMIT / OFFSET / FETCH: a LogicalSort
// over the query it orders.
#include "sql/binder/binder.h"

#include <algorithm>

#include "expression/expression_evaluator.h"
#include "sql/binder/clause_syntax.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

Binder::Relation Binder::bindOrderBy(const OrderByQuery& orderBy) {
  Relation input = bindRelation(*orderBy.query);
  std::vector<runtime::operators::SortKey> keys;
  for (const OrderItem& item : orderBy.orderBy) {
    int column = -1;
    const Expression& key = *item.expression;
    if (key.is<LiteralExpression>() &&
        key.as<LiteralExpression>().literalKind == LiteralKind::kExactNumeric) {
      int ordinal = std::stoi(key.as<LiteralExpression>().value);
      if (ordinal < 1 || ordinal > static_cast<int>(input.scope.size())) {
        fail(key, "Ordinal out of range");
      }
      column = ordinal - 1;
    } else {
      BoundPtr bound = bindExpression(key, input.scope, nullptr);
      const auto* reference = dynamic_cast<const expression::ColumnReference*>(bound.get());
      if (!reference) notSupported(key, "ORDER BY an expression that is not a selected column");
      column = reference->index();
    }
    keys.push_back(runtime::operators::SortKey{column, !item.descending, nullsFirstOf(item)});
  }
  auto count = [this](const ExpressionPtr& expression, const char* clause) -> int64_t {
    if (!expression) return -1;
    BoundPtr bound = bindExpression(*expression, {}, nullptr);
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
  input.node = std::make_shared<LogicalSort>(input.node, std::move(keys), offset, fetch);
  return input;
}

}  // namespace eddy::sql
