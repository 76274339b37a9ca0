// SHOW: the session's catalogs, databases, tables, views and functions as one-column listings
// (filtered by LIKE / NOT LIKE), the current catalog and database, a table's columns (as
// DESCRIBE shows them, describe.cpp), SHOW CREATE TABLE / VIEW (show_create.cpp) and SHOW JOBS
// (job_statements.cpp).
#include <regex>
#include <set>

#include "catalog/catalog_manager.h"
#include "eddy/exceptions.h"
#include "function/aggregate/aggregate_call.h"
#include "function/function_registry.h"
#include "table/environment/operations/statement_operations.h"

namespace eddy::table::operations {

namespace {

ResolvedSchema singleColumn(const std::string& name) {
  return ResolvedSchema({ResolvedSchema::Column{name, DataTypes::STRING().notNull(), std::nullopt}});
}

/// SQL LIKE for SHOW ... LIKE (only % and _).
bool likeMatches(const std::string& text, const std::string& pattern) {
  std::string regex;
  for (char c : pattern) {
    if (c == '%') {
      regex += ".*";
    } else if (c == '_') {
      regex += ".";
    } else if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) {
      regex += std::string("\\") + c;
    } else {
      regex += c;
    }
  }
  return std::regex_match(text, std::regex(regex));
}

}  // namespace

TableResult listing(const std::string& column, const std::vector<std::string>& names) {
  std::vector<Row> rows;
  for (const std::string& name : names) rows.push_back(Row::of(name));
  return TableResult::ofRows(singleColumn(column), std::move(rows));
}

TableResult show(OperationContext& context, const sql::ShowStatement& show) {
  catalog::CatalogManager& catalogs = context.catalogs();
  auto filtered = [&show](std::vector<std::string> names) {
    if (!show.likePattern) return names;
    std::vector<std::string> kept;
    for (auto& name : names) {
      if (likeMatches(name, *show.likePattern) != show.notLike) kept.push_back(name);
    }
    return kept;
  };
  switch (show.showKind) {
    case sql::ShowKind::kCatalogs:
      return listing("catalog name", filtered(catalogs.listCatalogs()));
    case sql::ShowKind::kCurrentCatalog:
      return listing("current catalog name", {catalogs.getCurrentCatalog()});
    case sql::ShowKind::kDatabases:
      return listing("database name",
                     filtered(catalogs.getCatalog(catalogs.getCurrentCatalog()).listDatabases()));
    case sql::ShowKind::kCurrentDatabase:
      return listing("current database name", {catalogs.getCurrentDatabase()});
    case sql::ShowKind::kTables:
    case sql::ShowKind::kViews: {
      std::string catalogName = catalogs.getCurrentCatalog();
      std::string databaseName = catalogs.getCurrentDatabase();
      if (show.name.size() == 2) catalogName = show.name[0];
      if (!show.name.empty()) databaseName = show.name.back();
      bool views = show.showKind == sql::ShowKind::kViews;
      auto names = views ? catalogs.listViews(catalogName, databaseName)
                         : catalogs.listTables(catalogName, databaseName);
      return listing(views ? "view name" : "table name", filtered(names));
    }
    case sql::ShowKind::kFunctions: {
      // Scalar functions of the registry, the binder's aggregates and conditional forms.
      std::set<std::string> names;
      for (const std::string& name : function::FunctionRegistry::builtIn().functionNames()) {
        names.insert(name);
      }
      for (const std::string& name : catalogs.functions().functionNames()) names.insert(name);
      for (const std::string& name : function::aggregateFunctionNames()) {
        names.insert(name);
      }
      for (const char* name : {"CAST", "COALESCE", "DENSE_RANK", "GROUPING", "GROUPING_ID",
                               "IF", "NULLIF", "RANK", "ROW_NUMBER", "TRY_CAST"}) {
        names.insert(name);
      }
      return listing("function name", filtered({names.begin(), names.end()}));
    }
    case sql::ShowKind::kColumns: {
      return describeTable(catalogs, catalogs.qualifyIdentifier(show.name),
                           [&show](const std::string& name) {
                             return !show.likePattern ||
                                    likeMatches(name, *show.likePattern) != show.notLike;
                           });
    }
    case sql::ShowKind::kCreateTable:
    case sql::ShowKind::kCreateView:
      return showCreate(context, show);
    case sql::ShowKind::kJobs:
      return showJobs(context);
  }
  throw InternalError("unknown SHOW statement");
}

}  // namespace eddy::table::operations
