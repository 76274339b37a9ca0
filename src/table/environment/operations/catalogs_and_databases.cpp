// CREATE CATALOG (of the generic_in_memory type, the one catalog factory eddy has, with Flink's
// option checks and messages), CREATE DATABASE, USE CATALOG and USE [catalog.]database: the
// session's catalogs and its current catalog and database. DROP DATABASE and DROP CATALOG
// are in drop.cpp.
#include <algorithm>
#include <map>
#include <memory>

#include "catalog/catalog_manager.h"
#include "catalog/generic_in_memory_catalog.h"
#include "eddy/exceptions.h"
#include "table/environment/operations/statement_operations.h"

namespace eddy::table::operations {

TableResult createCatalog(OperationContext& context, const sql::CreateCatalogStatement& create) {
  catalog::CatalogManager& catalogs = context.catalogs();
  std::map<std::string, std::string> options;
  for (const sql::TableOption& option : create.options) options[option.key] = option.value;
  auto type = options.find("type");
  if (type == options.end()) {
    throw ValidationException("Catalog options do not contain an option key 'type' for "
                              "discovering a catalog.");
  }
  if (type->second != "generic_in_memory") {
    throw ValidationException("Could not find any factory for identifier '" + type->second +
                              "' that implements 'CatalogFactory' in the classpath.\n\n"
                              "Available factory identifiers are:\n\ngeneric_in_memory");
  }
  for (const auto& [key, value] : options) {
    if (key != "type" && key != "default-database") {
      throw ValidationException("Unsupported options found for 'generic_in_memory'.\n\n"
                                "Unsupported options:\n\n" + key +
                                "\n\nSupported options:\n\ndefault-database\ntype");
    }
  }
  if (create.ifNotExists) {
    auto names = catalogs.listCatalogs();
    if (std::find(names.begin(), names.end(), create.catalogName) != names.end()) {
      return TableResult::ok();
    }
  }
  auto database = options.find("default-database");
  catalogs.registerCatalog(
      create.catalogName,
      std::make_unique<catalog::GenericInMemoryCatalog>(
          create.catalogName, database == options.end() ? "default" : database->second));
  return TableResult::ok();
}

TableResult createDatabase(OperationContext& context, const sql::CreateDatabaseStatement& create) {
  catalog::CatalogManager& catalogs = context.catalogs();
  std::string catalogName = create.databaseName.size() == 2 ? create.databaseName[0]
                                                            : catalogs.getCurrentCatalog();
  catalog::CatalogDatabase database;
  database.comment = create.comment;
  for (const auto& option : create.options) database.properties[option.key] = option.value;
  catalogs.createDatabase(catalogName, create.databaseName.back(), std::move(database),
                          create.ifNotExists);
  return TableResult::ok();
}

TableResult useCatalog(OperationContext& context, const sql::UseCatalogStatement& use) {
  context.catalogs().setCurrentCatalog(use.catalogName);
  return TableResult::ok();
}

TableResult useDatabase(OperationContext& context, const sql::UseDatabaseStatement& use) {
  catalog::CatalogManager& catalogs = context.catalogs();
  if (use.databaseName.size() == 2) catalogs.setCurrentCatalog(use.databaseName[0]);
  catalogs.setCurrentDatabase(use.databaseName.back());
  return TableResult::ok();
}

}  // namespace eddy::table::operations
