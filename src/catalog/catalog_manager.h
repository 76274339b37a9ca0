// CatalogManager: the registry of catalogs of one table environment, its current catalog and
// database, and its temporary tables and views, as Flink's CatalogManager. Every name a
// statement uses is qualified here (`t` → current catalog and database), and every lookup
// sees temporary objects first: a temporary table or view shadows a permanent one of the
// same identifier. Used from the table environment's thread only.
#pragma once

#include <any>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "function/function_registry.h"

namespace eddy::catalog {

class CatalogManager {
 public:
  static constexpr const char* kDefaultCatalog = "default_catalog";
  static constexpr const char* kDefaultDatabase = "default_database";

  /// Starts with one GenericInMemoryCatalog `default_catalog` holding `default_database`.
  CatalogManager();

  /// The session's scalar functions: user-defined ones (createTemporarySystemFunction) over
  /// the built-ins, which the binder resolves calls in.
  function::FunctionRegistry& functions() { return functions_; }
  const function::FunctionRegistry& functions() const { return functions_; }

  void registerCatalog(const std::string& name, std::unique_ptr<Catalog> catalog);
  void unregisterCatalog(const std::string& name, bool ignoreIfNotExists);
  std::vector<std::string> listCatalogs() const;
  /// Throws ValidationException when no catalog has this name.
  Catalog& getCatalog(const std::string& name) const;

  const std::string& getCurrentCatalog() const { return currentCatalog_; }
  const std::string& getCurrentDatabase() const { return currentDatabase_; }
  /// Also makes the catalog's default database current.
  void setCurrentCatalog(const std::string& name);
  void setCurrentDatabase(const std::string& name);

  /// `parts` as written (1 to 3 names), completed with the current catalog and database.
  ObjectIdentifier qualifyIdentifier(const std::vector<std::string>& parts) const;

  struct ResolvedTable {
    ObjectIdentifier identifier;
    const CatalogBaseTable* table;
    bool isTemporary;
  };
  /// The temporary object of this identifier if any, else the permanent one.
  std::optional<ResolvedTable> getTable(const ObjectIdentifier& identifier) const;
  /// As getTable, but an unknown identifier is a ValidationException naming it.
  ResolvedTable getTableOrThrow(const ObjectIdentifier& identifier) const;

  void createTable(CatalogBaseTable table, const ObjectIdentifier& identifier,
                   bool ignoreIfExists);
  void createTemporaryTable(CatalogBaseTable table, const ObjectIdentifier& identifier,
                            bool ignoreIfExists);
  /// Drops a permanent table (isView false) or view (isView true).
  void dropTable(const ObjectIdentifier& identifier, bool isView, bool ignoreIfNotExists);
  /// Drops a temporary table or view; returns whether one existed.
  bool dropTemporaryTable(const ObjectIdentifier& identifier, bool isView,
                          bool ignoreIfNotExists);
  void alterTable(CatalogBaseTable table, const ObjectIdentifier& identifier,
                  bool ignoreIfNotExists);
  void renameTable(const ObjectIdentifier& identifier, const std::string& newName,
                   bool ignoreIfNotExists);

  /// Permanent and temporary tables and views of a database, sorted, without duplicates.
  std::vector<std::string> listTables(const std::string& catalogName,
                                      const std::string& databaseName) const;
  std::vector<std::string> listViews(const std::string& catalogName,
                                     const std::string& databaseName) const;

  void createDatabase(const std::string& catalogName, const std::string& databaseName,
                      CatalogDatabase database, bool ignoreIfExists);
  void dropDatabase(const std::string& catalogName, const std::string& databaseName,
                    bool ignoreIfNotExists, bool cascade);

  /// What the binder derived from SQL views (their bound plans), by a key of its choosing (the
  /// view and the session settings it was bound under), so that a chain of N views is bound
  /// once per view instead of once per read (creating the chain was quadratic). Emptied by
  /// every change that may alter what a bound view reads — a drop, alter or rename, an object
  /// that replaces or shadows another, a catalog or database change, a function added or
  /// removed — but not by creating an object under an identifier that named nothing, which no
  /// bound view can have read. Mutable through a const manager: a cache, not state.
  std::map<std::string, std::any>& viewPlans() const;

 private:
  Catalog& catalogOfPermanentObject(const ObjectIdentifier& identifier) const;

  std::map<std::string, std::unique_ptr<Catalog>> catalogs_;
  std::map<ObjectIdentifier, CatalogBaseTable> temporaryTables_;
  std::string currentCatalog_;
  std::string currentDatabase_;
  function::FunctionRegistry functions_{&function::FunctionRegistry::builtIn()};
  mutable std::map<std::string, std::any> viewPlans_;
  // The function registry's generation when viewPlans_ was last valid.
  mutable uint64_t viewPlansFunctionGeneration_ = 0;
};

}  // namespace eddy::catalog
