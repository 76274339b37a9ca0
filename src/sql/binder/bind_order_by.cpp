// ORDER BY (selected columns, their positions, expressions over them) with LIMIT / OFFSET /
// FETCH: a LogicalSort over the query it orders.
#include "sql/binder/binder.h"

#include <algorithm>

#include "expression/expression_evaluator.h"
#include "sql/binder/clause_syntax.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

Binder::Relation Binder::bindOrderBy(const OrderByQuery& orderBy) {
  Relation input = bindRelation(*orderBy.query);
  std::vector<runtime::operators::SortKey> keys;
  std::vector<BoundPtr> hiddenKeys;
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
      if (const auto* reference = dynamic_cast<const expression::ColumnReference*>(bound.get())) {
        column = reference->index();
      } else {
        // An expression over the selected columns (ORDER BY UPPER(name) DESC): computed as a
        // hidden column after them, sorted on, and projected away above the sort (Calcite's).
        column = static_cast<int>(input.scope.size() + hiddenKeys.size());
        hiddenKeys.push_back(std::move(bound));
      }
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
  if (hiddenKeys.empty()) {
    input.node = std::make_shared<LogicalSort>(input.node, std::move(keys), offset, fetch);
    return input;
  }
  std::vector<BoundPtr> selected;
  std::vector<std::string> names;
  for (size_t i = 0; i < input.scope.size(); ++i) {
    selected.push_back(expression::column(static_cast<int>(i), input.scope[i].type));
    names.push_back(input.node->rowType->getFields()[i].name);
  }
  std::vector<BoundPtr> withKeys = selected;
  std::vector<std::string> namesWithKeys = names;
  for (BoundPtr& key : hiddenKeys) {
    withKeys.push_back(std::move(key));
    namesWithKeys.push_back("$sort" + std::to_string(namesWithKeys.size() - names.size()));
  }
  LogicalNodePtr sorted = std::make_shared<LogicalSort>(
      std::make_shared<LogicalProject>(input.node, std::move(withKeys),
                                       uniquifyNames(namesWithKeys)),
      std::move(keys), offset, fetch);
  input.node = std::make_shared<LogicalProject>(sorted, std::move(selected), std::move(names));
  return input;
}

}  // namespace eddy::sql
