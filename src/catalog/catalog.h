// Catalog: a named collection of databases holding tables and views, as Flink's Catalog
// interface. The CatalogManager owns the registered catalogs and routes every lookup and
// DDL statement to one of them. Implementations are used from the thread that plans
// statements (the table environment's), not from task threads.
//
// Error messages follow Flink's catalog exceptions (DatabaseNotExistException,
// TableAlreadyExistException, ...), all thrown as ValidationException.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/object_identifier.h"
#include "eddy/table/schema.h"

namespace eddy::sql {
struct LogicalNode;
}

namespace eddy::catalog {

struct CatalogDatabase {
  std::map<std::string, std::string> properties;
  std::optional<std::string> comment;
};

/// A table or a view as stored in a catalog.
struct CatalogBaseTable {
  enum class Kind { TABLE, VIEW };

  Kind kind = Kind::TABLE;
  Schema schema;
  std::optional<std::string> comment;
  /// TABLE: connector options (`'connector' = 'datagen'`, ...) and partition keys.
  std::map<std::string, std::string> options;
  std::vector<std::string> partitionKeys;
  /// VIEW: the query as written and as expanded by the binder.
  std::string originalQuery;
  std::string expandedQuery;
  /// VIEW registered from a Table (TableEnvironment::createTemporaryView): its plan, which
  /// the binder reads instead of a query. Null for SQL views.
  std::shared_ptr<const sql::LogicalNode> plan;

  const char* kindName() const { return kind == Kind::TABLE ? "Table" : "View"; }
};

class Catalog {
 public:
  virtual ~Catalog() = default;

  virtual std::string getDefaultDatabase() const = 0;
  virtual std::vector<std::string> listDatabases() const = 0;
  virtual bool databaseExists(const std::string& name) const = 0;
  virtual const CatalogDatabase& getDatabase(const std::string& name) const = 0;
  virtual void createDatabase(const std::string& name, CatalogDatabase database,
                              bool ignoreIfExists) = 0;
  /// cascade: drop the database's tables too; otherwise a non-empty database is an error.
  virtual void dropDatabase(const std::string& name, bool ignoreIfNotExists, bool cascade) = 0;

  /// Tables and views of a database, sorted by name.
  virtual std::vector<std::string> listTables(const std::string& databaseName) const = 0;
  /// Only the views.
  virtual std::vector<std::string> listViews(const std::string& databaseName) const = 0;
  virtual bool tableExists(const ObjectPath& path) const = 0;
  /// Null when absent.
  virtual const CatalogBaseTable* getTable(const ObjectPath& path) const = 0;
  virtual void createTable(const ObjectPath& path, CatalogBaseTable table,
                           bool ignoreIfExists) = 0;
  virtual void alterTable(const ObjectPath& path, CatalogBaseTable table,
                          bool ignoreIfNotExists) = 0;
  virtual void renameTable(const ObjectPath& path, const std::string& newName,
                           bool ignoreIfNotExists) = 0;
  virtual void dropTable(const ObjectPath& path, bool ignoreIfNotExists) = 0;
};

}  // namespace eddy::catalog
