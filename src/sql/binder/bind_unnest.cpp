// UNNEST(collection) [WITH ORDINALITY]: the collection's elements as rows, joined with the FROM
// item whose columns it reads (a correlated UNNEST, bound by bindJoin) or over one empty row.
#include "sql/binder/binder.h"

#include "function/type_rules.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

Binder::Relation Binder::bindUnnest(const UnnestReference& unnest, const Relation* left,
                                    bool leftOuter) {
  if (unnest.arguments.size() != 1) notSupported(unnest, "UNNEST of several collections");
  Relation input;
  if (left != nullptr) {
    input = *left;
  } else {
    input.node = std::make_shared<LogicalValues>(LogicalType::row({}, false),
                                                 std::vector<Row>{Row(0)});
  }
  const Expression& argument = *unnest.arguments[0];
  BoundPtr collection = bindExpression(argument, {input.scope});
  const LogicalTypeRoot root = collection->type()->getTypeRoot();
  if (root != LogicalTypeRoot::ARRAY && root != LogicalTypeRoot::MAP &&
      root != LogicalTypeRoot::MULTISET) {
    fail(argument, "UNNEST argument must be a collection (ARRAY, MAP or MULTISET), but was " +
                       function::typeNameInMessage(*collection->type()));
  }
  LogicalNodePtr node = std::make_shared<LogicalUnnest>(input.node, collection,
                                                        unnest.withOrdinality, leftOuter);
  const auto& fields = node->rowType->getFields();
  const size_t inputArity = input.scope.size();
  const size_t elementArity = fields.size() - inputArity;
  std::vector<std::string> names;
  for (const RowField& field : fields) names.push_back(field.name);
  if (!unnest.columnAliases.empty()) {
    if (unnest.columnAliases.size() != elementArity) {
      fail(unnest, "List of column aliases must have same degree as table; table has " +
                       std::to_string(elementArity) + " columns, list has " +
                       std::to_string(unnest.columnAliases.size()));
    }
    for (size_t i = 0; i < elementArity; ++i) names[inputArity + i] = unnest.columnAliases[i];
  }
  // Rename the element columns, and drop the empty row's (no) columns of a lone UNNEST.
  std::vector<BoundPtr> columns;
  for (size_t i = 0; i < fields.size(); ++i) {
    columns.push_back(expression::column(static_cast<int>(i), fields[i].type));
  }
  Relation result;
  result.scope = input.scope;
  for (size_t i = inputArity; i < fields.size(); ++i) {
    result.scope.push_back(ScopeColumn{unnest.alias.value_or(""), names[i], fields[i].type});
  }
  bool renamedColumns = !unnest.columnAliases.empty();
  result.node = renamedColumns
                    ? std::make_shared<LogicalProject>(node, std::move(columns), uniquifyNames(names))
                    : node;
  return result;
}

}  // namespace eddy::sql
