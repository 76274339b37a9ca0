#include "catalog/catalog_manager.h"

#include <set>

#include "catalog/generic_in_memory_catalog.h"
#include "eddy/exceptions.h"

namespace eddy::catalog {

CatalogManager::CatalogManager()
    : currentCatalog_(kDefaultCatalog), currentDatabase_(kDefaultDatabase) {
  catalogs_[kDefaultCatalog] =
      std::make_unique<GenericInMemoryCatalog>(kDefaultCatalog, kDefaultDatabase);
}

void CatalogManager::registerCatalog(const std::string& name, std::unique_ptr<Catalog> catalog) {
  viewPlans_.clear();
  if (name.empty()) throw ValidationException("Catalog name cannot be null or empty.");
  if (catalogs_.count(name)) {
    throw ValidationException("Catalog " + name + " already exists.");
  }
  catalogs_[name] = std::move(catalog);
}

void CatalogManager::unregisterCatalog(const std::string& name, bool ignoreIfNotExists) {
  viewPlans_.clear();
  if (!catalogs_.count(name)) {
    if (ignoreIfNotExists) return;
    throw ValidationException("Catalog " + name + " does not exist.");
  }
  if (name == currentCatalog_) {
    throw ValidationException("Cannot drop a catalog which is currently in use.");
  }
  catalogs_.erase(name);
}

std::vector<std::string> CatalogManager::listCatalogs() const {
  std::vector<std::string> names;
  for (const auto& [name, catalog] : catalogs_) names.push_back(name);
  return names;
}

Catalog& CatalogManager::getCatalog(const std::string& name) const {
  auto it = catalogs_.find(name);
  if (it == catalogs_.end()) {
    throw ValidationException("A catalog with name [" + name + "] does not exist.");
  }
  return *it->second;
}

void CatalogManager::setCurrentCatalog(const std::string& name) {
  Catalog& catalog = getCatalog(name);
  currentCatalog_ = name;
  currentDatabase_ = catalog.getDefaultDatabase();
}

void CatalogManager::setCurrentDatabase(const std::string& name) {
  if (!getCatalog(currentCatalog_).databaseExists(name)) {
    throw ValidationException("A database with name [" + name +
                              "] does not exist in the catalog: [" + currentCatalog_ + "].");
  }
  currentDatabase_ = name;
}

ObjectIdentifier CatalogManager::qualifyIdentifier(const std::vector<std::string>& parts) const {
  switch (parts.size()) {
    case 1:
      return ObjectIdentifier{currentCatalog_, currentDatabase_, parts[0]};
    case 2:
      return ObjectIdentifier{currentCatalog_, parts[0], parts[1]};
    case 3:
      return ObjectIdentifier{parts[0], parts[1], parts[2]};
    default: {
      std::string written;
      for (size_t i = 0; i < parts.size(); ++i) written += (i ? "." : "") + parts[i];
      throw ValidationException("Object identifier '" + written +
                                "' must have 1 to 3 parts: [[catalog.]database.]object");
    }
  }
}

std::optional<CatalogManager::ResolvedTable> CatalogManager::getTable(
    const ObjectIdentifier& identifier) const {
  if (auto it = temporaryTables_.find(identifier); it != temporaryTables_.end()) {
    return ResolvedTable{identifier, &it->second, true};
  }
  auto catalog = catalogs_.find(identifier.catalogName);
  if (catalog == catalogs_.end()) return std::nullopt;
  const CatalogBaseTable* table =
      catalog->second->getTable(ObjectPath{identifier.databaseName, identifier.objectName});
  if (table == nullptr) return std::nullopt;
  return ResolvedTable{identifier, table, false};
}

CatalogManager::ResolvedTable CatalogManager::getTableOrThrow(
    const ObjectIdentifier& identifier) const {
  auto table = getTable(identifier);
  if (!table) {
    throw ValidationException("Table (or view) '" + identifier.asSummaryString() +
                              "' does not exist.");
  }
  return *table;
}

Catalog& CatalogManager::catalogOfPermanentObject(const ObjectIdentifier& identifier) const {
  Catalog& catalog = getCatalog(identifier.catalogName);
  if (!catalog.databaseExists(identifier.databaseName)) {
    throw ValidationException("A database with name [" + identifier.databaseName +
                              "] does not exist in the catalog: [" + identifier.catalogName + "].");
  }
  return catalog;
}

void CatalogManager::createTable(CatalogBaseTable table, const ObjectIdentifier& identifier,
                                 bool ignoreIfExists) {
  Catalog& catalog = catalogOfPermanentObject(identifier);
  ObjectPath path{identifier.databaseName, identifier.objectName};
  if (catalog.tableExists(path)) {
    if (ignoreIfExists) return;
    throw ValidationException("Could not execute CreateTable in path " +
                              identifier.asSerializableString() + ": Table (or view) " +
                              path.getFullName() + " already exists in Catalog " +
                              identifier.catalogName + ".");
  }
  // A new permanent object under a temporary one changes nothing a view reads (the temporary
  // one shadows it); under a name that resolved to nothing, nothing either.
  catalog.createTable(path, std::move(table), false);
}

void CatalogManager::createTemporaryTable(CatalogBaseTable table,
                                          const ObjectIdentifier& identifier,
                                          bool ignoreIfExists) {
  getCatalog(identifier.catalogName);  // the catalog must exist, the database need not
  if (temporaryTables_.count(identifier)) {
    if (ignoreIfExists) return;
    throw ValidationException(std::string("Temporary ") +
                              (table.kind == CatalogBaseTable::Kind::VIEW ? "view" : "table") +
                              " '" + identifier.asSerializableString() + "' already exists");
  }
  // A temporary object shadowing a permanent one changes what that name reads.
  if (getTable(identifier)) viewPlans_.clear();
  temporaryTables_.emplace(identifier, std::move(table));
}

void CatalogManager::dropTable(const ObjectIdentifier& identifier, bool isView,
                               bool ignoreIfNotExists) {
  const char* kind = isView ? "View" : "Table";
  if (auto it = temporaryTables_.find(identifier); it != temporaryTables_.end()) {
    throw ValidationException(std::string("Temporary ") + (isView ? "view" : "table") +
                              " with identifier '" + identifier.asSerializableString() +
                              "' exists. Drop it first before removing the permanent " +
                              (isView ? "view" : "table") + ".");
  }
  auto catalog = catalogs_.find(identifier.catalogName);
  const CatalogBaseTable* table =
      catalog == catalogs_.end()
          ? nullptr
          : catalog->second->getTable(ObjectPath{identifier.databaseName, identifier.objectName});
  if (table == nullptr) {
    if (ignoreIfNotExists) return;
    throw ValidationException(std::string(kind) + " with identifier '" +
                              identifier.asSummaryString() + "' does not exist.");
  }
  bool tableIsView = table->kind == CatalogBaseTable::Kind::VIEW;
  if (tableIsView != isView) {
    throw ValidationException(isView ? "DROP VIEW for a table is not allowed"
                                     : "DROP TABLE for a view is not allowed");
  }
  viewPlans_.clear();
  catalog->second->dropTable(ObjectPath{identifier.databaseName, identifier.objectName}, false);
}

bool CatalogManager::dropTemporaryTable(const ObjectIdentifier& identifier, bool isView,
                                        bool ignoreIfNotExists) {
  auto it = temporaryTables_.find(identifier);
  if (it == temporaryTables_.end() ||
      (it->second.kind == CatalogBaseTable::Kind::VIEW) != isView) {
    if (ignoreIfNotExists) return false;
    throw ValidationException(std::string("Temporary ") + (isView ? "view" : "table") +
                              " with identifier '" + identifier.asSerializableString() +
                              "' does not exist.");
  }
  viewPlans_.clear();
  temporaryTables_.erase(it);
  return true;
}

void CatalogManager::alterTable(CatalogBaseTable table, const ObjectIdentifier& identifier,
                                bool ignoreIfNotExists) {
  viewPlans_.clear();
  if (auto it = temporaryTables_.find(identifier); it != temporaryTables_.end()) {
    it->second = std::move(table);
    return;
  }
  catalogOfPermanentObject(identifier)
      .alterTable(ObjectPath{identifier.databaseName, identifier.objectName}, std::move(table),
                  ignoreIfNotExists);
}

void CatalogManager::renameTable(const ObjectIdentifier& identifier, const std::string& newName,
                                 bool ignoreIfNotExists) {
  if (temporaryTables_.count(identifier)) {
    throw ValidationException("Temporary table '" + identifier.asSerializableString() +
                              "' cannot be renamed.");
  }
  viewPlans_.clear();
  catalogOfPermanentObject(identifier)
      .renameTable(ObjectPath{identifier.databaseName, identifier.objectName}, newName,
                   ignoreIfNotExists);
}

std::vector<std::string> CatalogManager::listTables(const std::string& catalogName,
                                                    const std::string& databaseName) const {
  std::set<std::string> names;
  Catalog& catalog = getCatalog(catalogName);
  if (catalog.databaseExists(databaseName)) {
    for (auto& name : catalog.listTables(databaseName)) names.insert(name);
  } else {
    throw ValidationException("A database with name [" + databaseName +
                              "] does not exist in the catalog: [" + catalogName + "].");
  }
  for (const auto& [identifier, table] : temporaryTables_) {
    if (identifier.catalogName == catalogName && identifier.databaseName == databaseName) {
      names.insert(identifier.objectName);
    }
  }
  return {names.begin(), names.end()};
}

std::vector<std::string> CatalogManager::listViews(const std::string& catalogName,
                                                   const std::string& databaseName) const {
  std::set<std::string> names;
  for (auto& name : getCatalog(catalogName).listViews(databaseName)) names.insert(name);
  for (const auto& [identifier, table] : temporaryTables_) {
    if (identifier.catalogName == catalogName && identifier.databaseName == databaseName &&
        table.kind == CatalogBaseTable::Kind::VIEW) {
      names.insert(identifier.objectName);
    }
  }
  return {names.begin(), names.end()};
}

void CatalogManager::createDatabase(const std::string& catalogName,
                                    const std::string& databaseName, CatalogDatabase database,
                                    bool ignoreIfExists) {
  viewPlans_.clear();
  getCatalog(catalogName).createDatabase(databaseName, std::move(database), ignoreIfExists);
}

void CatalogManager::dropDatabase(const std::string& catalogName, const std::string& databaseName,
                                  bool ignoreIfNotExists, bool cascade) {
  if (catalogName == currentCatalog_ && databaseName == currentDatabase_) {
    throw ValidationException("Cannot drop a database which is currently in use.");
  }
  viewPlans_.clear();
  getCatalog(catalogName).dropDatabase(databaseName, ignoreIfNotExists, cascade);
}

std::map<std::string, std::any>& CatalogManager::viewPlans() const {
  if (functions_.generation() != viewPlansFunctionGeneration_) {
    viewPlans_.clear();
    viewPlansFunctionGeneration_ = functions_.generation();
  }
  return viewPlans_;
}

}  // namespace eddy::catalog
