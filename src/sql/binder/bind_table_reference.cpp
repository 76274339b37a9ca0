// FROM items: the dispatch over their kinds, named tables (WITH items, catalog tables read
// through planTableScan, views bound where they are read) and the aliases that rename a FROM
// item and its columns.
#include "sql/binder/binder.h"

#include <any>
#include <map>

#include "eddy/exceptions.h"
#include "sql/parser/parser.h"
#include "sql/planner/plan_table_scan.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

Binder::Relation Binder::bindTableReference(const TableReference& reference, bool versioned) {
  switch (reference.kind) {
    case TableReferenceKind::kNamedTable:
      return renamed(bindNamedTable(reference.as<NamedTableReference>(), versioned), reference);
    case TableReferenceKind::kDerivedTable: {
      const auto& derived = reference.as<DerivedTableReference>();
      if (derived.lateral) notSupported(reference, "LATERAL");
      Relation relation = bindRelation(*derived.query);
      for (auto& column : relation.scope) column.qualifier.clear();
      return renamed(std::move(relation), reference);
    }
    case TableReferenceKind::kJoin:
      return bindJoin(reference.as<JoinReference>());
    case TableReferenceKind::kTableFunction:
      return renamed(bindWindowTableFunction(reference.as<TableFunctionReference>()), reference);
    case TableReferenceKind::kUnnest:
      return bindUnnest(reference.as<UnnestReference>(), nullptr, false);
  }
  notSupported(reference, "This FROM item");
}

Binder::Relation Binder::bindNamedTable(const NamedTableReference& table, bool versioned) {
  if (table.systemTimeAsOf && !versioned) {
    notSupported(table, "FOR SYSTEM_TIME AS OF outside the right side of a join");
  }
  if (table.name.size() == 1) {
    // A WITH item in scope, the innermost first: this query's, then those of the queries a
    // subquery is written in.
    for (const Binder* binder = this; binder; binder = binder->parent_) {
      const auto& items = binder->commonTableExpressions_;
      for (auto it = items.rbegin(); it != items.rend(); ++it) {
        if (it->first == table.name[0]) return it->second;
      }
    }
  }
  catalog::ObjectIdentifier identifier;
  try {
    identifier = catalogManager_.qualifyIdentifier(table.name);
  } catch (const ValidationException& error) {
    fail(table, error.what());
  }
  auto resolved = catalogManager_.getTable(identifier);
  if (!resolved) {
    std::string written;
    for (size_t i = 0; i < table.name.size(); ++i) written += (i ? "." : "") + table.name[i];
    fail(table, "Object '" + written + "' not found");
  }
  const catalog::CatalogBaseTable& catalogTable = *resolved->table;
  if (table.hasOptionsHint && catalogTable.kind == catalog::CatalogBaseTable::Kind::VIEW) {
    fail(table, "View '" + identifier.asSerializableString() +
                    "' cannot be enriched with new options. Hints can only be applied to tables.");
  }
  if (catalogTable.kind != catalog::CatalogBaseTable::Kind::VIEW) {
    Relation relation;
    // `t /*+ OPTIONS(..) */`: Flink's dynamic table options, over the table's own.
    std::optional<catalog::CatalogBaseTable> enriched;
    if (table.hasOptionsHint) {
      enriched = catalogTable;
      for (const TableOption& option : table.hintOptions) enriched->options[option.key] = option.value;
    }
    try {
      relation.node = planTableScan(catalogManager_, enriched ? *enriched : catalogTable,
                                    identifier.asSummaryString(), MetadataKeys::kCheck, context_);
    } catch (const ValidationException& error) {
      fail(table, error.what());
    }
    for (const RowField& field : relation.node->rowType->getFields()) {
      relation.scope.push_back(ScopeColumn{identifier.objectName, field.name, field.type, false});
    }
    if (const auto& primaryKey = catalogTable.schema.getPrimaryKey()) {
      for (const std::string& name : primaryKey->columnNames) {
        for (size_t i = 0; i < relation.scope.size(); ++i) {
          if (relation.scope[i].name == name) relation.primaryKey.push_back(static_cast<int>(i));
        }
      }
    }
    return relation;
  }
  if (catalogTable.plan) {
    Relation relation;
    relation.node = catalogTable.plan;
    for (const RowField& field : catalogTable.plan->rowType->getFields()) {
      relation.scope.push_back(ScopeColumn{identifier.objectName, field.name, field.type, false});
    }
    return relation;
  }
  // A view is bound once per session setting while nothing it may read changes
  // (CatalogManager::viewPlans), so a chain of N views costs O(N) to create and to read.
  const std::string cacheKey = identifier.asSerializableString() + "|" +
                               catalogManager_.getCurrentCatalog() + "." +
                               catalogManager_.getCurrentDatabase() + "|" +
                               context_.sessionTimeZone.id() +
                               (context_.batchMode ? "|batch" : "|streaming");
  std::map<std::string, std::any>& viewPlans = catalogManager_.viewPlans();
  if (auto cached = viewPlans.find(cacheKey); cached != viewPlans.end()) {
    return std::any_cast<const Relation&>(cached->second);
  }
  StatementPtr statement = parseStatement(catalogTable.expandedQuery.empty()
                                              ? catalogTable.originalQuery
                                              : catalogTable.expandedQuery);
  if (!statement->is<QueryStatement>()) fail(table, "View '" + identifier.asSummaryString() + "' does not hold a query");
  // Bound where it is read, in the session's time zone and runtime mode (as Flink expands a
  // view into the query).
  Binder viewBinder(catalogManager_, context_);
  Relation relation = viewBinder.bindRelation(*statement->as<QueryStatement>().query);
  // A view declared with a column list names its columns itself.
  const auto& columns = catalogTable.schema.getColumns();
  bool renamed = false;
  if (columns.size() == relation.scope.size()) {
    for (size_t i = 0; i < columns.size(); ++i) {
      const std::string& name = Schema::columnName(columns[i]);
      renamed = renamed || relation.scope[i].name != name;
      relation.scope[i].name = name;
    }
  }
  if (renamed) {
    std::vector<BoundPtr> projected;
    std::vector<std::string> names;
    for (size_t i = 0; i < relation.scope.size(); ++i) {
      projected.push_back(expression::column(static_cast<int>(i), relation.scope[i].type));
      names.push_back(relation.scope[i].name);
    }
    relation.node = std::make_shared<LogicalProject>(relation.node, std::move(projected), names);
  }
  for (auto& column : relation.scope) column.qualifier = identifier.objectName;
  viewPlans.emplace(cacheKey, relation);
  return relation;
}

Binder::Relation Binder::renamed(Relation relation, const TableReference& reference) {
  if (!reference.columnAliases.empty()) {
    if (reference.columnAliases.size() != relation.scope.size()) {
      fail(reference, "List of column aliases must have same degree as table; table has " +
                          std::to_string(relation.scope.size()) + " columns, list has " +
                          std::to_string(reference.columnAliases.size()));
    }
    std::vector<BoundPtr> columns;
    std::vector<std::string> names;
    for (size_t i = 0; i < relation.scope.size(); ++i) {
      relation.scope[i].name = reference.columnAliases[i];
      columns.push_back(expression::column(static_cast<int>(i), relation.scope[i].type));
      names.push_back(reference.columnAliases[i]);
    }
    relation.node = std::make_shared<LogicalProject>(relation.node, std::move(columns), names);
  }
  if (reference.alias) {
    for (auto& column : relation.scope) column.qualifier = *reference.alias;
  }
  return relation;
}

}  // namespace eddy::sql
