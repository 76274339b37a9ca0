// TableEnvironment: the entry point of the Table API and SQL, as Flink's. It owns the session
// (catalogs, databases, temporary tables and views, functions, options) and runs statements:
// executeSql for DDL, SHOW, USE and queries; sqlQuery to build a Table from a query without
// running it.
//
// Each query runs as its own job on local threads (STREAMING or BATCH as the settings say).
// A TableEnvironment is used from one thread. The session itself (the catalog manager, the
// planner's settings) is private to eddy: src/table/environment/table_environment_impl.h.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "eddy/table/environment_settings.h"
#include "eddy/table/functions.h"
#include "eddy/table/resolved_schema.h"
#include "eddy/table/table.h"
#include "eddy/table/table_config.h"
#include "eddy/table/table_descriptor.h"
#include "eddy/table/table_result.h"

namespace eddy {

namespace table {
// eddy's side of the API (src/table/environment/table_environment_impl.h).
class TableEnvironmentImpl;
class TableInternals;
struct InsertPlan;
}  // namespace table

/// Several INSERTs run as one job (Flink's StatementSet): every sink receives its rows once,
/// sources shared by the inserts are read once per insert. Created by
/// TableEnvironment::createStatementSet(); refers to its environment.
class StatementSet {
 public:
  /// Adds an insert pipeline (Table::insertInto(path)).
  StatementSet& add(const TablePipeline& pipeline);
  /// Adds `INSERT INTO path` of a Table.
  StatementSet& addInsert(const std::string& targetPath, const Table& table);
  /// Adds an `INSERT INTO ... SELECT ...` statement (validated now).
  StatementSet& addInsertSql(const std::string& statement);
  /// Runs all added inserts as one job and empties the set. Throws TableException when no
  /// insert was added.
  TableResult execute();
  /// The plans of the added inserts, as EXPLAIN of an EXECUTE STATEMENT SET prints them.
  std::string explain() const;

  StatementSet(const StatementSet& other);
  StatementSet(StatementSet&& other) noexcept;
  StatementSet& operator=(const StatementSet& other);
  StatementSet& operator=(StatementSet&& other) noexcept;
  ~StatementSet();

 protected:
  friend class TableEnvironment;
  explicit StatementSet(TableEnvironment* environment);
  TableEnvironment* environment_;
  /// The added inserts (their element type is eddy's; every member touching them is defined
  /// in src/).
  std::vector<table::InsertPlan> inserts_;
};

class TableEnvironment {
 public:
  static std::unique_ptr<TableEnvironment> create(const EnvironmentSettings& settings);

  explicit TableEnvironment(const EnvironmentSettings& settings);
  ~TableEnvironment();
  TableEnvironment(const TableEnvironment&) = delete;
  TableEnvironment& operator=(const TableEnvironment&) = delete;

  /// Runs one statement. Throws SqlParseException (syntax, with line and column),
  /// ValidationException (names, types) or TableException.
  TableResult executeSql(const std::string& statement);
  /// A Table for a SELECT (or VALUES, or set operation) query.
  Table sqlQuery(const std::string& query);
  /// A Table reading the catalog table or view `path` ("t", "db.t" or "cat.db.t").
  Table from(const std::string& path);
  /// A Table of literal rows: each `row(...)` (or single value) is one row; columns are named
  /// f0, f1, ... and typed by the least restrictive type of each column, as in Flink.
  Table fromValues(const std::vector<Expression>& rows);
  /// A Table reading an anonymous table of the descriptor (SQL cannot name it).
  Table from(const TableDescriptor& descriptor);
  /// Registers a catalog table (as CREATE TABLE does); fails when `path` exists.
  void createTable(const std::string& path, const TableDescriptor& descriptor);
  /// Registers a temporary table (as CREATE TEMPORARY TABLE does).
  void createTemporaryTable(const std::string& path, const TableDescriptor& descriptor);
  StatementSet createStatementSet();
  /// Registers `table` as a temporary view: SQL and from() can then read it by `path`.
  void createTemporaryView(const std::string& path, const Table& table);
  /// Drops a temporary view; false when there is none.
  bool dropTemporaryView(const std::string& path);

  /// Registers a user-defined scalar function under `name` (any case), callable from SQL and
  /// the Table API (`call(name, ...)`) of this environment; it shadows a built-in function of
  /// that name, as Flink's temporary system functions do. Build the definition with
  /// eddy::scalarFunction (eddy/table/functions.h). Throws ValidationException when a
  /// temporary system function of that name exists ("Could not register temporary system
  /// function. A function named 'x' does already exist.").
  void createTemporarySystemFunction(const std::string& name, ScalarFunctionDefinition function);
  /// Drops a temporary system function; false when there is none.
  bool dropTemporarySystemFunction(const std::string& name);
  /// The names of the user-defined functions, sorted (lower case, as registered names are
  /// case-insensitive).
  std::vector<std::string> listUserDefinedFunctions() const;

  std::vector<std::string> listCatalogs() const;
  std::vector<std::string> listDatabases() const;
  std::vector<std::string> listTables() const;
  std::string getCurrentCatalog() const;
  std::string getCurrentDatabase() const;
  void useCatalog(const std::string& name);
  void useDatabase(const std::string& name);

  const EnvironmentSettings& getSettings() const;
  /// Options set with SET or getConfig (Flink's keys, e.g.
  /// table.exec.resource.default-parallelism).
  TableConfig& getConfig();

 private:
  friend class table::TableInternals;
  std::unique_ptr<table::TableEnvironmentImpl> impl_;
};

}  // namespace eddy
