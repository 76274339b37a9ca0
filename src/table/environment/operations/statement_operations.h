// The operation of each statement kind: what TableEnvironment::executeSql runs for a parsed
// statement, one function per kind, each in the file named beside it (Flink's one converter
// per statement, operations/converters/). Each takes the OperationContext of the environment
// that runs it, and returns the statement's result (OK for DDL, rows for SHOW, DESCRIBE and
// EXPLAIN, the job's result for queries and INSERTs) or throws ValidationException or
// TableException. Called from the environment's thread.
//
// Below them, the few pieces one operation shares with another or with the TableEnvironment's
// own API (SHOW's listing result, DESCRIBE's rows, the catalog view of a query).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/object_identifier.h"
#include "eddy/table/table_result.h"
#include "sql/parser/ast.h"
#include "table/environment/operations/operation_context.h"

namespace eddy::table::operations {

// query.cpp
/// A query (SELECT, VALUES, a set operation) run as a job.
TableResult executeQuery(OperationContext& context, const sql::QueryStatement& query);

// insert.cpp
/// INSERT INTO|OVERWRITE run as a job.
TableResult executeInsert(OperationContext& context, const sql::InsertStatement& insert);
/// `EXECUTE STATEMENT SET BEGIN .. END` (or `BEGIN STATEMENT SET; .. END;`): its INSERTs as
/// one job.
TableResult executeStatementSet(OperationContext& context,
                                const sql::StatementSetStatement& statementSet);

// create_table.cpp
/// CREATE [TEMPORARY] TABLE: from its definitions, LIKE another table, or AS SELECT (CTAS and
/// RTAS, which run the INSERT of the query).
TableResult createTable(OperationContext& context, const sql::CreateTableStatement& create);

// alter_table.cpp
/// ALTER TABLE: rename, options, and schema changes (ADD, MODIFY, DROP, RENAME a column).
TableResult alterTable(OperationContext& context, const sql::AlterTableStatement& alter);

// views.cpp
/// CREATE [TEMPORARY] VIEW.
TableResult createView(OperationContext& context, const sql::CreateViewStatement& create);

// drop.cpp
/// DROP [TEMPORARY] TABLE|VIEW, DROP DATABASE, DROP CATALOG.
TableResult drop(OperationContext& context, const sql::DropStatement& drop);

// catalogs_and_databases.cpp
/// CREATE CATALOG (the generic_in_memory catalog type).
TableResult createCatalog(OperationContext& context, const sql::CreateCatalogStatement& create);
/// CREATE DATABASE.
TableResult createDatabase(OperationContext& context, const sql::CreateDatabaseStatement& create);
/// USE CATALOG.
TableResult useCatalog(OperationContext& context, const sql::UseCatalogStatement& use);
/// USE [catalog.]database.
TableResult useDatabase(OperationContext& context, const sql::UseDatabaseStatement& use);

// show.cpp
/// SHOW CATALOGS, DATABASES, TABLES, VIEWS, FUNCTIONS, COLUMNS, CURRENT ..., CREATE ..., JOBS.
TableResult show(OperationContext& context, const sql::ShowStatement& show);

// show_create.cpp
/// SHOW CREATE TABLE / VIEW.
TableResult showCreate(OperationContext& context, const sql::ShowStatement& show);

// describe.cpp
/// DESCRIBE table.
TableResult describe(OperationContext& context, const sql::DescribeStatement& describe);

// explain.cpp
/// EXPLAIN [details] of a query, an INSERT, a statement set or a CTAS/RTAS.
TableResult explain(OperationContext& context, const sql::ExplainStatement& explain);

// job_statements.cpp
/// SHOW JOBS: the jobs the session started (SessionJobs), with their status and start time.
TableResult showJobs(OperationContext& context);
/// STOP JOB '<id>' [WITH SAVEPOINT [WITH DRAIN]]: cancels the job, or stops it with a
/// savepoint and returns the savepoint's path.
TableResult stopJob(OperationContext& context, const sql::StopJobStatement& stop);

// set_reset.cpp
/// SET (with no key: the options set) and SET 'key' = 'value'.
TableResult set(OperationContext& context, const sql::SetStatement& set);
/// RESET (all options) and RESET 'key'.
TableResult reset(OperationContext& context, const sql::ResetStatement& reset);

// ---- shared by the operations ---------------------------------------------------------------

/// A result of one STRING column named `column` with one row per name: SHOW's listings, and
/// the one cell of SHOW CREATE and EXPLAIN (show.cpp).
TableResult listing(const std::string& column, const std::vector<std::string>& names);

/// Flink's DESCRIBE (and SHOW COLUMNS): one row per column with its type, nullability, key,
/// extras and watermark; `keep` selects the columns by name (describe.cpp).
TableResult describeTable(catalog::CatalogManager& catalogs,
                          const catalog::ObjectIdentifier& identifier,
                          const std::function<bool(const std::string&)>& keep);

/// The catalog view of `query` (its SQL text; empty for a Table of the Table API) bound to
/// `plan`: its columns are the plan's (views.cpp; also TableEnvironment::createTemporaryView).
catalog::CatalogBaseTable viewOf(const std::string& query, const sql::LogicalNode& plan);

}  // namespace eddy::table::operations
