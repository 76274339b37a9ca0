// The Binder's entry points (a query, an inline table of the Table API, an expression given as
// text), the dispatch over the kinds of query (WITH items are bound here), and the binder's
// error messages. The binding of each concept is in its own file: binder.h lists them.
#include "sql/binder/binder.h"

#include "eddy/exceptions.h"
#include "function/aggregate/aggregate_call.h"
#include "sql/parser/parser.h"

namespace eddy::sql {

Binder::Binder(const catalog::CatalogManager& catalogManager, function::BindingContext context)
    : catalogManager_(catalogManager), context_(std::move(context)) {}

Binder::Binder(const Binder& parent, const Scope& outerScope)
    : catalogManager_(parent.catalogManager_),
      context_(parent.context_),
      parent_(&parent),
      outerScope_(&outerScope) {}

void Binder::fail(const Node& node, const std::string& message) {
  throw ValidationException(message, node.position.line, node.position.column);
}

void Binder::notSupported(const Node& node, const std::string& what) {
  fail(node, what + " is not supported yet");
}

LogicalNodePtr Binder::bindQuery(const Query& query) { return bindRelation(query).node; }

void Binder::addInlineTable(const std::string& name, LogicalNodePtr plan) {
  Relation relation;
  for (const RowField& field : plan->rowType->getFields()) {
    relation.scope.push_back(ScopeColumn{name, field.name, field.type, false});
  }
  relation.node = std::move(plan);
  commonTableExpressions_.emplace_back(name, std::move(relation));
}

expression::ExpressionPtr Binder::bindExpressionText(const std::string& sql,
                                                     const std::vector<RowField>& columns) {
  ExpressionPtr parsed = parseExpression(sql);
  Scope scope;
  for (const RowField& field : columns)
    scope.push_back(ScopeColumn{"", field.name, field.type, false});
  return bindExpression(*parsed, {scope});
}

Binder::Relation Binder::bindRelation(const Query& query) {
  switch (query.kind) {
    case QueryKind::kSelect:
      return bindSelect(query.as<SelectQuery>());
    case QueryKind::kValues:
      return bindValues(query.as<ValuesQuery>());
    case QueryKind::kWith: {
      const auto& with = query.as<WithQuery>();
      size_t visible = commonTableExpressions_.size();
      for (const WithItem& item : with.items) {
        Relation relation = bindRelation(*item.query);
        if (!item.columns.empty()) {
          if (item.columns.size() != relation.scope.size()) {
            fail(*item.query, "List of column aliases must have same degree as table; table has " +
                                  std::to_string(relation.scope.size()) + " columns, list has " +
                                  std::to_string(item.columns.size()));
          }
          for (size_t i = 0; i < item.columns.size(); ++i) relation.scope[i].name = item.columns[i];
        }
        for (auto& column : relation.scope) column.qualifier = item.name;
        commonTableExpressions_.emplace_back(item.name, std::move(relation));
      }
      Relation body = bindRelation(*with.body);
      commonTableExpressions_.resize(visible);
      return body;
    }
    case QueryKind::kSetOperation:
      return bindSetOperation(query.as<SetOperationQuery>());
    case QueryKind::kOrderBy:
      return bindOrderBy(query.as<OrderByQuery>());
  }
  notSupported(query, "This query");
}

std::string withoutSqlPosition(const std::exception& error) {
  const auto* validation = dynamic_cast<const ValidationException*>(&error);
  return validation ? validation->message() : error.what();
}

bool isAggregateFunctionName(const std::string& upperCaseName) {
  return function::aggregateKindOfName(upperCaseName).has_value();
}

}  // namespace eddy::sql
