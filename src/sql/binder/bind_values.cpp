// VALUES: rows of constant expressions, typed per column by the least restrictive type of its
// values (Calcite's rules, except that strings widen to VARCHAR), evaluated once into a
// LogicalValues.
#include "sql/binder/binder.h"

#include "expression/expression_evaluator.h"
#include "function/type_rules.h"
#include "sql/binder/clause_syntax.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

Binder::Relation Binder::bindValues(const ValuesQuery& values) {
  if (values.rows.empty()) fail(values, "VALUES needs at least one row");
  size_t arity = values.rows[0].size();
  std::vector<std::vector<BoundPtr>> boundRows;
  for (const auto& row : values.rows) {
    if (row.size() != arity) {
      fail(*row[0], "Values passed to VALUES operator must have compatible types");
    }
    std::vector<BoundPtr> bound;
    for (const auto& value : row) {
      BoundPtr expression = bindExpression(*value, {Scope{}});
      if (!expression->isConstant()) fail(*value, "VALUES accepts only constant expressions");
      bound.push_back(std::move(expression));
    }
    boundRows.push_back(std::move(bound));
  }
  // Column types: the least restrictive type of each column; string literals widen to
  // VARCHAR of the longest (eddy does not pad VALUES strings to CHAR(n) as Calcite does).
  std::vector<LogicalTypePtr> types;
  std::vector<std::string> names;
  for (size_t column = 0; column < arity; ++column) {
    std::vector<LogicalTypePtr> columnTypes;
    for (const auto& row : boundRows) columnTypes.push_back(row[column]->type());
    LogicalTypePtr type = function::leastRestrictive(columnTypes);
    if (!type) fail(*values.rows[0][column], "Values passed to VALUES operator must have compatible types");
    if (type->getTypeRoot() == LogicalTypeRoot::CHAR) {
      type = LogicalType::varchar(type->getLength(), type->isNullable());
    }
    types.push_back(type);
    names.push_back("EXPR$" + std::to_string(column));
  }
  std::vector<Row> rows;
  for (size_t r = 0; r < boundRows.size(); ++r) {
    Row row(static_cast<int>(arity));
    for (size_t column = 0; column < arity; ++column) {
      BoundPtr typed = expression::castIfNeeded(boundRows[r][column], types[column], context_);
      std::optional<Value> value = expression::ExpressionEvaluator::evaluateConstant(typed);
      if (!value) fail(*values.rows[r][column], "Cannot evaluate '" + typed->toString() + "'");
      row.setField(static_cast<int>(column), *value);
    }
    rows.push_back(std::move(row));
  }
  Scope scope;
  for (size_t i = 0; i < arity; ++i) scope.push_back(ScopeColumn{"", names[i], types[i], false});
  return Relation{std::make_shared<LogicalValues>(rowTypeOf(names, types), std::move(rows)), scope};
}

}  // namespace eddy::sql
