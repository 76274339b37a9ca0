// The session behind a TableEnvironment, and eddy's one door into the Table API's objects.
//
// include/eddy/table/ shows a user the API only: a TableEnvironment holds a
// TableEnvironmentImpl (this file), a Table its bound plan as a TablePlan, a StatementSet its
// InsertPlans. eddy's own code reaches them through TableInternals (a friend of Table and
// TableEnvironment): the SQL client, the operations of each statement kind and the tests of
// the table layer. The members of TableEnvironmentImpl that run and explain plans are defined
// where their concept is: operations/query.cpp (executePlan, explainQueryPlan),
// operations/insert.cpp (INSERTs), session_options.cpp (bindingContext, isStreaming,
// newJobEnvironment, configureTranslation).
//
// Threading: as TableEnvironment, one thread. The impl is owned by its TableEnvironment.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog_manager.h"
#include "eddy/table/environment_settings.h"
#include "eddy/table/table.h"
#include "eddy/table/table_config.h"
#include "eddy/table/table_environment.h"
#include "function/function_registry.h"
#include "table/environment/session_jobs.h"

namespace eddy {

class StreamExecutionEnvironment;

namespace sql {
struct LogicalNode;
struct InsertStatement;
struct TranslationSettings;
}  // namespace sql

namespace table {

/// A Table's bound plan (the logical plan its operations and SQL were bound into).
struct TablePlan {
  std::shared_ptr<const sql::LogicalNode> node;
};

/// One INSERT of a job: the target table's catalog path, the plan of the rows (columns in the
/// table's physical column order), and whether it is an INSERT OVERWRITE.
struct InsertPlan {
  std::vector<std::string> targetPath;
  std::shared_ptr<const sql::LogicalNode> plan;
  bool overwrite = false;
  /// `PARTITION (k = v, ..)`: each static partition key with the text of its value.
  std::map<std::string, std::string> staticPartition;
};

/// The session of one TableEnvironment: its catalogs, options and how it runs plans.
class TableEnvironmentImpl {
 public:
  explicit TableEnvironmentImpl(const EnvironmentSettings& settings);
  TableEnvironmentImpl(const TableEnvironmentImpl&) = delete;
  TableEnvironmentImpl& operator=(const TableEnvironmentImpl&) = delete;

  catalog::CatalogManager& catalogManager() { return *catalogManager_; }
  const catalog::CatalogManager& catalogManager() const { return *catalogManager_; }
  /// The session statements are bound in now (`table.local-time-zone`, the runtime mode), for
  /// the Table API's operations and the DataStream bridge.
  function::BindingContext bindingContext() const;
  /// The runtime mode: 'execution.runtime-mode' when SET, else the bound
  /// StreamExecutionEnvironment's (StreamTableEnvironment), else the settings'.
  bool isStreaming() const;
  /// An environment for one job, configured from the settings and options (and from the
  /// bound StreamExecutionEnvironment: parallelism, max parallelism, chaining).
  std::unique_ptr<StreamExecutionEnvironment> newJobEnvironment(
      sql::TranslationSettings& translation) const;
  /// The translation settings of the options (runtime mode, default parallelism, reuse).
  void configureTranslation(sql::TranslationSettings& translation) const;

  /// Runs a plan as a job and returns its result (Table::execute(), queries of executeSql).
  TableResult executePlan(const std::shared_ptr<const sql::LogicalNode>& plan);
  /// EXPLAIN's text for a query plan: the bound plan ("Abstract Syntax Tree"), the optimized
  /// logical plan (each node's changelog mode with `changelogMode`, its estimated rows and
  /// cost with `estimatedCost`), and the physical plan the job would run, translated with this
  /// session's options (Table::explain(), EXPLAIN). With `jsonExecutionPlan` (EXPLAIN
  /// JSON_EXECUTION_PLAN) a "Physical Execution Plan" section follows: the job's operators as
  /// StreamExecutionEnvironment::getExecutionPlan() writes them, at the parallelism the job
  /// would run with; nothing runs.
  std::string explainQueryPlan(const std::shared_ptr<const sql::LogicalNode>& plan,
                               bool changelogMode, bool estimatedCost = false,
                               bool jsonExecutionPlan = false) const;
  /// Runs INSERT INTO `targetPath` of a plan as one job (Table::executeInsert).
  TableResult executeInsertPlan(const std::string& targetPath,
                                const std::shared_ptr<const sql::LogicalNode>& plan);
  /// INSERT INTO statements run as one job (several: a statement set).
  TableResult executeInserts(const std::vector<const sql::InsertStatement*>& inserts);
  /// The target path and the bound query of an INSERT statement (a column list mapped onto
  /// the table's columns, NULL for the others).
  InsertPlan planInsert(const sql::InsertStatement& insert);
  /// EXPLAIN of INSERTs: each sink over its query's plans, then the job's physical plan (and
  /// with `jsonExecutionPlan` its JSON execution plan, as explainQueryPlan).
  std::string explainInserts(const std::vector<InsertPlan>& inserts, bool changelogMode,
                             bool estimatedCost = false, bool jsonExecutionPlan = false) const;
  /// INSERTs of plans into tables (catalog paths) as one job.
  TableResult runInserts(const std::vector<InsertPlan>& inserts);
  /// Adds the sinks of `inserts` (INSERT INTO a catalog table of a plan) to `environment`,
  /// translated with this session's options; they run with its next execute().
  void addInsertsTo(StreamExecutionEnvironment& environment,
                    const std::vector<InsertPlan>& inserts) const;

  EnvironmentSettings settings_;
  std::unique_ptr<catalog::CatalogManager> catalogManager_;
  std::map<std::string, std::string> configuration_;
  TableConfig config_{configuration_};
  /// Numbers the anonymous tables of TableEnvironment::from(TableDescriptor).
  int anonymousTables_ = 0;
  /// The StreamExecutionEnvironment a StreamTableEnvironment is bound to; null otherwise.
  StreamExecutionEnvironment* streamEnvironment_ = nullptr;
  /// The jobs its INSERTs started (runInserts), for SHOW JOBS and STOP JOB.
  SessionJobs jobs_;
};

/// eddy's access to the private side of Table and TableEnvironment (see the file comment).
class TableInternals {
 public:
  /// A Table of `environment` over a bound plan; its schema is the plan's row type.
  static Table newTable(TableEnvironment* environment,
                        std::shared_ptr<const sql::LogicalNode> plan);
  /// A table whose schema says more than its plan's row type (computed and metadata columns,
  /// watermarks: a table read from a DataStream with a Schema).
  static Table newTable(TableEnvironment* environment, std::shared_ptr<const sql::LogicalNode> plan,
                        ResolvedSchema schema);
  /// The bound plan of a Table.
  static const std::shared_ptr<const sql::LogicalNode>& planOf(const Table& table) {
    return table.plan_->node;
  }
  static TableEnvironmentImpl& implOf(TableEnvironment& environment) { return *environment.impl_; }
  static const TableEnvironmentImpl& implOf(const TableEnvironment& environment) {
    return *environment.impl_;
  }
};

}  // namespace table

}  // namespace eddy
