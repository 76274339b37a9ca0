#include "catalog/generic_in_memory_catalog.h"

#include "eddy/exceptions.h"

namespace eddy::catalog {

std::string quoteIdentifier(const std::string& name) {
  std::string result = "`";
  for (char c : name) {
    result += c;
    if (c == '`') result += '`';
  }
  return result + "`";
}

std::string ObjectIdentifier::asSerializableString() const {
  return quoteIdentifier(catalogName) + "." + quoteIdentifier(databaseName) + "." +
         quoteIdentifier(objectName);
}

std::string ObjectIdentifier::asSummaryString() const {
  return catalogName + "." + databaseName + "." + objectName;
}

GenericInMemoryCatalog::GenericInMemoryCatalog(std::string name, std::string defaultDatabase)
    : name_(std::move(name)), defaultDatabase_(std::move(defaultDatabase)) {
  databases_[defaultDatabase_] = CatalogDatabase{};
}

std::vector<std::string> GenericInMemoryCatalog::listDatabases() const {
  std::vector<std::string> names;
  for (const auto& [name, database] : databases_) names.push_back(name);
  return names;
}

bool GenericInMemoryCatalog::databaseExists(const std::string& name) const {
  return databases_.count(name) > 0;
}

void GenericInMemoryCatalog::requireDatabase(const std::string& name) const {
  if (!databaseExists(name)) {
    throw ValidationException("Database " + name + " does not exist in Catalog " + name_ + ".");
  }
}

const CatalogDatabase& GenericInMemoryCatalog::getDatabase(const std::string& name) const {
  requireDatabase(name);
  return databases_.at(name);
}

void GenericInMemoryCatalog::createDatabase(const std::string& name, CatalogDatabase database,
                                            bool ignoreIfExists) {
  if (databaseExists(name)) {
    if (ignoreIfExists) return;
    throw ValidationException("Database " + name + " already exists in Catalog " + name_ + ".");
  }
  databases_[name] = std::move(database);
}

void GenericInMemoryCatalog::dropDatabase(const std::string& name, bool ignoreIfNotExists,
                                          bool cascade) {
  if (!databaseExists(name)) {
    if (ignoreIfNotExists) return;
    requireDatabase(name);
  }
  std::vector<std::string> tables = listTables(name);
  if (!tables.empty() && !cascade) {
    throw ValidationException("Database " + name + " in catalog " + name_ + " is not empty.");
  }
  for (const std::string& table : tables) tables_.erase(ObjectPath{name, table});
  databases_.erase(name);
}

std::vector<std::string> GenericInMemoryCatalog::listTables(const std::string& databaseName) const {
  requireDatabase(databaseName);
  std::vector<std::string> names;
  for (const auto& [path, table] : tables_) {
    if (path.databaseName == databaseName) names.push_back(path.objectName);
  }
  return names;
}

std::vector<std::string> GenericInMemoryCatalog::listViews(const std::string& databaseName) const {
  requireDatabase(databaseName);
  std::vector<std::string> names;
  for (const auto& [path, table] : tables_) {
    if (path.databaseName == databaseName && table.kind == CatalogBaseTable::Kind::VIEW) {
      names.push_back(path.objectName);
    }
  }
  return names;
}

bool GenericInMemoryCatalog::tableExists(const ObjectPath& path) const {
  return tables_.count(path) > 0;
}

const CatalogBaseTable* GenericInMemoryCatalog::getTable(const ObjectPath& path) const {
  auto it = tables_.find(path);
  return it == tables_.end() ? nullptr : &it->second;
}

void GenericInMemoryCatalog::createTable(const ObjectPath& path, CatalogBaseTable table,
                                         bool ignoreIfExists) {
  requireDatabase(path.databaseName);
  if (tableExists(path)) {
    if (ignoreIfExists) return;
    throw ValidationException("Table (or view) " + path.getFullName() +
                              " already exists in Catalog " + name_ + ".");
  }
  tables_.emplace(path, std::move(table));
}

void GenericInMemoryCatalog::alterTable(const ObjectPath& path, CatalogBaseTable table,
                                        bool ignoreIfNotExists) {
  auto it = tables_.find(path);
  if (it == tables_.end()) {
    if (ignoreIfNotExists) return;
    throw ValidationException("Table (or view) " + path.getFullName() +
                              " does not exist in Catalog " + name_ + ".");
  }
  if (it->second.kind != table.kind) {
    throw ValidationException(std::string("Cannot alter a ") + it->second.kindName() +
                              " into a " + table.kindName() + ".");
  }
  it->second = std::move(table);
}

void GenericInMemoryCatalog::renameTable(const ObjectPath& path, const std::string& newName,
                                         bool ignoreIfNotExists) {
  auto it = tables_.find(path);
  if (it == tables_.end()) {
    if (ignoreIfNotExists) return;
    throw ValidationException("Table (or view) " + path.getFullName() +
                              " does not exist in Catalog " + name_ + ".");
  }
  ObjectPath renamed{path.databaseName, newName};
  if (tableExists(renamed)) {
    throw ValidationException("Table (or view) " + renamed.getFullName() +
                              " already exists in Catalog " + name_ + ".");
  }
  CatalogBaseTable table = std::move(it->second);
  tables_.erase(it);
  tables_.emplace(renamed, std::move(table));
}

void GenericInMemoryCatalog::dropTable(const ObjectPath& path, bool ignoreIfNotExists) {
  if (tables_.erase(path) == 0 && !ignoreIfNotExists) {
    throw ValidationException("Table (or view) " + path.getFullName() +
                              " does not exist in Catalog " + name_ + ".");
  }
}

}  // namespace eddy::catalog
