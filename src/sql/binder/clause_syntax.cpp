// Conjuncts, ORDER BY NULL order and output row types of clauses (clause_syntax.h).
#include "sql/binder/clause_syntax.h"

namespace eddy::sql {

void collectConjuncts(const Expression& predicate, std::vector<const Expression*>& out) {
  if (predicate.is<BinaryExpression>() && predicate.as<BinaryExpression>().op == BinaryOperator::kAnd) {
    collectConjuncts(*predicate.as<BinaryExpression>().left, out);
    collectConjuncts(*predicate.as<BinaryExpression>().right, out);
  } else {
    out.push_back(&predicate);
  }
}

bool nullsFirstOf(const OrderItem& item) {
  return item.nullOrdering == NullOrdering::kDefault
             ? !item.descending
             : item.nullOrdering == NullOrdering::kNullsFirst;
}

LogicalTypePtr rowTypeOf(const std::vector<std::string>& names,
                         const std::vector<LogicalTypePtr>& types) {
  std::vector<RowField> fields;
  for (size_t i = 0; i < names.size(); ++i) {
    fields.push_back(RowField{names[i], types[i], std::nullopt});
  }
  return LogicalType::row(std::move(fields), false);
}

}  // namespace eddy::sql
