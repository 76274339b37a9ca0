// CREATE [TEMPORARY] VIEW: a view is its query's SQL text and the columns the query binds to
// (renamed by a column list), stored in the catalog as a CatalogBaseTable of kind VIEW and
// bound again where it is read, in the session of the query that reads it.
#include <string>

#include "catalog/catalog_manager.h"
#include "eddy/exceptions.h"
#include "sql/binder/binder.h"
#include "sql/parser/unparse.h"
#include "table/environment/operations/statement_operations.h"

namespace eddy::table::operations {

catalog::CatalogBaseTable viewOf(const std::string& query, const sql::LogicalNode& plan) {
  catalog::CatalogBaseTable view;
  view.kind = catalog::CatalogBaseTable::Kind::VIEW;
  view.originalQuery = query;
  view.expandedQuery = query;
  Schema::Builder builder = Schema::newBuilder();
  for (const RowField& field : plan.rowType->getFields()) builder.column(field.name, DataType(field.type));
  view.schema = builder.build();
  return view;
}

TableResult createView(OperationContext& context, const sql::CreateViewStatement& create) {
  catalog::CatalogManager& catalogs = context.catalogs();
  std::string query = sql::unparse(*create.query);
  sql::Binder binder(catalogs, context.bindingContext());
  sql::LogicalNodePtr plan = binder.bindQuery(*create.query);
  catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(create.viewName);
  catalog::CatalogBaseTable view = viewOf(query, *plan);
  if (!create.columns.empty()) {
    // `CREATE VIEW v (x, y) AS ...`: the view's columns renamed; reading the view renames
    // the query's columns to the schema's.
    const auto& fields = plan->rowType->getFields();
    if (create.columns.size() != fields.size()) {
      throw ValidationException("List of column aliases must have same degree as table; the "
                                "query has " + std::to_string(fields.size()) +
                                " columns, the list has " +
                                std::to_string(create.columns.size()));
    }
    Schema::Builder builder = Schema::newBuilder();
    for (size_t i = 0; i < fields.size(); ++i) {
      builder.column(create.columns[i], DataType(fields[i].type));
    }
    view.schema = builder.build();
  }
  view.comment = create.comment;
  if (create.temporary) {
    catalogs.createTemporaryTable(std::move(view), identifier, create.ifNotExists);
  } else {
    catalogs.createTable(std::move(view), identifier, create.ifNotExists);
  }
  return TableResult::ok();
}

}  // namespace eddy::table::operations
