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
#include "eddy/table/resolved_schema.h"
#include "eddy/table/table_result.h"

namespace eddy {

namespace catalog {
class CatalogManager;
}
class StreamExecutionEnvironment;
namespace sql {
struct LogicalNode;
struct InsertStatement;
struct TranslationSettings;
}

class TableEnvironment;

/// A relational query not yet run (Flink's Table). Cheap to copy; refers to its environment,
/// which must outlive it.
class Table {
 public:
  Table(TableEnvironment* environment, std::shared_ptr<const sql::LogicalNode> plan);

  const ResolvedSchema& getResolvedSchema() const { return schema_; }
  /// Prints the schema to stdout (see ResolvedSchema::toString).
  void printSchema() const;
  /// Runs the query.
  TableResult execute() const;
  /// The plan, as EXPLAIN prints it.
  std::string explain() const;

  const std::shared_ptr<const sql::LogicalNode>& plan() const { return plan_; }

 private:
  TableEnvironment* environment_;
  std::shared_ptr<const sql::LogicalNode> plan_;
  ResolvedSchema schema_;
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
  std::map<std::string, std::string>& getConfig() { return configuration_; }

  /// Runs a plan as a job and returns its result (used by Table::execute()).
  TableResult executePlan(const std::shared_ptr<const sql::LogicalNode>& plan);
  catalog::CatalogManager& catalogManager() { return *catalogManager_; }

 private:
  /// The runtime mode: the settings', unless 'execution.runtime-mode' is SET.
  bool isStreaming() const;
  /// An environment for one job, configured from the settings and options.
  std::unique_ptr<StreamExecutionEnvironment> newJobEnvironment(
      sql::TranslationSettings& translation) const;
  /// INSERT INTO statements run as one job (several: a statement set).
  TableResult executeInserts(const std::vector<const sql::InsertStatement*>& inserts);

  EnvironmentSettings settings_;
  std::unique_ptr<catalog::CatalogManager> catalogManager_;
  std::map<std::string, std::string> configuration_;
};

}  // namespace eddy
