// OperationContext: what the operation of a statement (statement_operations.h) may use of the
// TableEnvironment that runs it: the session's catalogs and options, the context plans are
// bound in, and the session's ways to run or explain a query plan and INSERTs (defined in
// query.cpp and insert.cpp, as TableEnvironmentImpl members). It is the operations' one door
// into the environment (Flink's converters get a ConvertContext the same way).
//
// TableEnvironment::executeSql implements it over its session for one statement; the operations
// use it from the environment's thread and keep no reference past the statement.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "eddy/table/table_result.h"
#include "function/function_registry.h"
#include "table/environment/table_environment_impl.h"

namespace eddy::table::operations {

class OperationContext {
 public:
  virtual ~OperationContext() = default;

  /// The session's catalogs, databases, tables, views and functions.
  virtual catalog::CatalogManager& catalogs() = 0;
  /// The session's options (SET, RESET, TableEnvironment::getConfig()).
  virtual std::map<std::string, std::string>& configuration() = 0;
  /// The session plans are bound in now (TableEnvironmentImpl::bindingContext()).
  virtual function::BindingContext bindingContext() const = 0;
  /// The runtime mode (TableEnvironmentImpl::isStreaming()).
  virtual bool isStreaming() const = 0;
  /// The jobs the session started (SHOW JOBS, STOP JOB).
  virtual SessionJobs& sessionJobs() = 0;

  /// Runs a query plan as a job (TableEnvironmentImpl::executePlan).
  virtual TableResult executePlan(const std::shared_ptr<const sql::LogicalNode>& plan) = 0;
  /// EXPLAIN's text for a query plan (TableEnvironmentImpl::explainQueryPlan).
  virtual std::string explainQueryPlan(const std::shared_ptr<const sql::LogicalNode>& plan,
                                       bool changelogMode, bool estimatedCost,
                                       bool jsonExecutionPlan) const = 0;
  /// The bound INSERT of a statement (TableEnvironmentImpl::planInsert).
  virtual InsertPlan planInsert(const sql::InsertStatement& insert) = 0;
  /// INSERT statements run as one job (TableEnvironmentImpl::executeInserts).
  virtual TableResult executeInserts(const std::vector<const sql::InsertStatement*>& inserts) = 0;
  /// INSERTs of plans run as one job (TableEnvironmentImpl::runInserts).
  virtual TableResult runInserts(const std::vector<InsertPlan>& inserts) = 0;
  /// EXPLAIN's text for INSERTs (TableEnvironmentImpl::explainInserts).
  virtual std::string explainInserts(const std::vector<InsertPlan>& inserts, bool changelogMode,
                                     bool estimatedCost, bool jsonExecutionPlan) const = 0;
};

}  // namespace eddy::table::operations
