// GenericInMemoryCatalog: the default catalog, holding everything in memory for the life of
// the table environment (Flink's class of the same name). A persistent catalog comes later.
#pragma once

#include <map>
#include <string>

#include "catalog/catalog.h"

namespace eddy::catalog {

class GenericInMemoryCatalog final : public Catalog {
 public:
  GenericInMemoryCatalog(std::string name, std::string defaultDatabase);

  std::string getDefaultDatabase() const override { return defaultDatabase_; }
  std::vector<std::string> listDatabases() const override;
  bool databaseExists(const std::string& name) const override;
  const CatalogDatabase& getDatabase(const std::string& name) const override;
  void createDatabase(const std::string& name, CatalogDatabase database,
                      bool ignoreIfExists) override;
  void dropDatabase(const std::string& name, bool ignoreIfNotExists, bool cascade) override;

  std::vector<std::string> listTables(const std::string& databaseName) const override;
  std::vector<std::string> listViews(const std::string& databaseName) const override;
  bool tableExists(const ObjectPath& path) const override;
  const CatalogBaseTable* getTable(const ObjectPath& path) const override;
  void createTable(const ObjectPath& path, CatalogBaseTable table, bool ignoreIfExists) override;
  void alterTable(const ObjectPath& path, CatalogBaseTable table, bool ignoreIfNotExists) override;
  void renameTable(const ObjectPath& path, const std::string& newName,
                   bool ignoreIfNotExists) override;
  void dropTable(const ObjectPath& path, bool ignoreIfNotExists) override;

 private:
  void requireDatabase(const std::string& name) const;

  std::string name_;
  std::string defaultDatabase_;
  std::map<std::string, CatalogDatabase> databases_;
  std::map<ObjectPath, CatalogBaseTable> tables_;
};

}  // namespace eddy::catalog
