// EXPLAIN [CHANGELOG_MODE, ESTIMATED_COST, JSON_EXECUTION_PLAN] of a query, an INSERT (or
// EXECUTE INSERT), a statement set or a CTAS/RTAS: the plans as one text cell (the abstract
// syntax tree, the optimized logical plan, the physical plan and, with JSON_EXECUTION_PLAN,
// Flink's JSON execution plan of the job with each operator's parallelism), as
// TableEnvironmentImpl::explainQueryPlan and explainInserts write them. Nothing runs, and no
// catalog object is left changed.
#include <algorithm>

#include "catalog/catalog_manager.h"
#include "eddy/exceptions.h"
#include "sql/binder/binder.h"
#include "table/environment/operations/statement_operations.h"
#include "table/environment/operations/table_definition.h"

namespace eddy::table::operations {

namespace {

/// CTAS/RTAS: the INSERT into the table the statement would create, which exists for the
/// explanation only (as a temporary table, so a permanent one is not touched).
std::string explainCreateTableAs(OperationContext& context,
                                 const sql::CreateTableStatement& create, bool changelogMode,
                                 bool estimatedCost, bool jsonExecutionPlan) {
  catalog::CatalogManager& catalogs = context.catalogs();
  catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(create.tableName);
  sql::Binder binder(catalogs, context.bindingContext());
  sql::LogicalNodePtr query = binder.bindQuery(*create.asQuery);
  auto [table, plan] = createTableAsSelect(create, identifier.asSummaryString(), query);
  const bool shadowed = catalogs.getTable(identifier).has_value();
  if (shadowed && create.replace == sql::CreateTableStatement::Replace::kNo &&
      !create.ifNotExists) {
    throw ValidationException("Could not execute CreateTable in path " +
                              identifier.asSerializableString() + ": Table (or view) " +
                              identifier.databaseName + "." + identifier.objectName +
                              " already exists in Catalog " + identifier.catalogName + ".");
  }
  catalogs.createTemporaryTable(std::move(table), identifier, false);
  std::string text;
  try {
    text = context.explainInserts({InsertPlan{create.tableName, std::move(plan), false, {}}},
                                  changelogMode, estimatedCost, jsonExecutionPlan);
  } catch (...) {
    catalogs.dropTemporaryTable(identifier, false, true);
    throw;
  }
  catalogs.dropTemporaryTable(identifier, false, true);
  return text;
}

}  // namespace

TableResult explain(OperationContext& context, const sql::ExplainStatement& explain) {
  auto has = [&](sql::ExplainDetail detail) {
    return std::find(explain.details.begin(), explain.details.end(), detail) !=
           explain.details.end();
  };
  const bool changelogMode = has(sql::ExplainDetail::kChangelogMode);
  const bool estimatedCost = has(sql::ExplainDetail::kEstimatedCost);
  const bool jsonExecutionPlan = has(sql::ExplainDetail::kJsonExecutionPlan);
  if (has(sql::ExplainDetail::kPlanAdvice)) {
    throw TableException("EXPLAIN PLAN_ADVICE is not supported yet");
  }
  const sql::Statement* explained = explain.statement.get();
  if (explained->is<sql::ExecuteStatement>()) {
    explained = explained->as<sql::ExecuteStatement>().statement.get();
  }
  if (explained->is<sql::InsertStatement>()) {
    std::vector<InsertPlan> inserts{context.planInsert(explained->as<sql::InsertStatement>())};
    return listing("result", {context.explainInserts(inserts, changelogMode, estimatedCost,
                                                     jsonExecutionPlan)});
  }
  if (explained->is<sql::StatementSetStatement>()) {
    std::vector<InsertPlan> inserts;
    for (const auto& inner : explained->as<sql::StatementSetStatement>().statements) {
      if (!inner->is<sql::InsertStatement>()) {
        throw ValidationException("A statement set accepts only INSERT statements");
      }
      inserts.push_back(context.planInsert(inner->as<sql::InsertStatement>()));
    }
    return listing("result", {context.explainInserts(inserts, changelogMode, estimatedCost,
                                                     jsonExecutionPlan)});
  }
  if (explained->is<sql::CreateTableStatement>()) {
    return listing("result",
                   {explainCreateTableAs(context, explained->as<sql::CreateTableStatement>(),
                                         changelogMode, estimatedCost, jsonExecutionPlan)});
  }
  if (!explained->is<sql::QueryStatement>()) {
    throw TableException("EXPLAIN supports queries, INSERT statements and statement sets");
  }
  sql::Binder binder(context.catalogs(), context.bindingContext());
  sql::LogicalNodePtr plan = binder.bindQuery(*explained->as<sql::QueryStatement>().query);
  return listing("result",
                 {context.explainQueryPlan(plan, changelogMode, estimatedCost, jsonExecutionPlan)});
}

}  // namespace eddy::table::operations
