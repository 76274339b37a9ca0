// TableEnvironment: the entry point of the Table API and SQL, as Flink's. It owns the catalog
// manager (catalogs, databases, temporary tables and views) and runs statements: executeSql
// for DDL, SHOW, USE and queries; sqlQuery to build a Table from a query without running it.
//
// Each query runs as its own job on local threads (STREAMING or BATCH as the settings say).
// A TableEnvironment is used from one thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "eddy/table/environment_settings.h"
#include "eddy/table/functions.h"
#include "eddy/table/resolved_schema.h"
#include "eddy/table/table_config.h"
#include "eddy/table/table.h"
#include "eddy/table/table_descriptor.h"
#include "eddy/table/table_result.h"

namespace eddy {

namespace catalog {
class CatalogManager;
}
namespace function {
struct BindingContext;
}
class StreamExecutionEnvironment;
namespace sql {
struct LogicalNode;
struct InsertStatement;
struct TranslationSettings;
}

/// One INSERT of a job: the target table's catalog path, the plan of the rows (columns in the
/// table's physical column order), and whether it is an INSERT OVERWRITE.
struct InsertPlan {
  std::vector<std::string> targetPath;
  std::shared_ptr<const sql::LogicalNode> plan;
  bool overwrite = false;
  /// `PARTITION (k = v, ..)`: each static partition key with the text of its value.
  std::map<std::string, std::string> staticPartition;
};

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

 protected:
  friend class TableEnvironment;
  explicit StatementSet(TableEnvironment* environment) : environment_(environment) {}
  TableEnvironment* environment_;
  std::vector<InsertPlan> inserts_;
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

  const EnvironmentSettings& getSettings() const { return settings_; }
  /// Options set with SET or getConfig (Flink's keys, e.g.
  /// table.exec.resource.default-parallelism).
  TableConfig& getConfig() { return config_; }

  /// Runs a plan as a job and returns its result (used by Table::execute()).
  TableResult executePlan(const std::shared_ptr<const sql::LogicalNode>& plan);
  /// EXPLAIN's text for a query plan: the bound plan ("Abstract Syntax Tree"), the optimized
  /// logical plan (each node's changelog mode with `changelogMode`, its estimated rows and
  /// cost with `estimatedCost`), and the physical plan the job would run, translated with this
  /// environment's options (used by Table::explain()).
  std::string explainQueryPlan(const std::shared_ptr<const sql::LogicalNode>& plan,
                               bool changelogMode, bool estimatedCost = false) const;
  /// Runs INSERT INTO `targetPath` of a plan as one job (used by Table::executeInsert).
  TableResult executeInsertPlan(const std::string& targetPath,
                                const std::shared_ptr<const sql::LogicalNode>& plan);
  catalog::CatalogManager& catalogManager() { return *catalogManager_; }
  /// The session statements are bound in now (`table.local-time-zone`), for the Table API's
  /// operations and the DataStream bridge.
  function::BindingContext bindingContext() const;

 protected:
  /// The runtime mode: 'execution.runtime-mode' when SET, else the bound
  /// StreamExecutionEnvironment's (StreamTableEnvironment), else the settings'.
  bool isStreaming() const;
  /// An environment for one job, configured from the settings and options (and from the
  /// bound StreamExecutionEnvironment: parallelism, max parallelism, chaining).
  std::unique_ptr<StreamExecutionEnvironment> newJobEnvironment(
      sql::TranslationSettings& translation) const;
  /// The translation settings of the options (runtime mode, default parallelism, reuse).
  void configureTranslation(sql::TranslationSettings& translation) const;
  /// Adds the sinks of `inserts` (INSERT INTO a catalog table of a plan) to `environment`,
  /// translated with this environment's options; they run with its next execute().
  void addInsertsTo(StreamExecutionEnvironment& environment,
                    const std::vector<InsertPlan>& inserts) const;
  /// The StreamExecutionEnvironment a StreamTableEnvironment is bound to; null otherwise.
  StreamExecutionEnvironment* streamEnvironment_ = nullptr;

 private:
  /// INSERT INTO statements run as one job (several: a statement set).
  TableResult executeInserts(const std::vector<const sql::InsertStatement*>& inserts);
  /// The target path and the bound query of an INSERT statement (a column list mapped onto
  /// the table's columns, NULL for the others).
  InsertPlan planInsert(const sql::InsertStatement& insert);
  /// EXPLAIN of INSERTs: each sink over its query's plans, then the job's physical plan.
  std::string explainInserts(const std::vector<InsertPlan>& inserts, bool changelogMode,
                             bool estimatedCost = false) const;
  friend class StatementSet;
  /// INSERTs of plans into tables (catalog paths) as one job.
  TableResult runInserts(const std::vector<InsertPlan>& inserts);

  EnvironmentSettings settings_;
  std::unique_ptr<catalog::CatalogManager> catalogManager_;
  std::map<std::string, std::string> configuration_;
  TableConfig config_{configuration_};
  int anonymousTables_ = 0;
};

}  // namespace eddy
