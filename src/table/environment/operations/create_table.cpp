// CREATE [TEMPORARY] TABLE: a table from its column, watermark and key definitions, LIKE
// another table (like_merging.cpp), or AS SELECT (CTAS, and RTAS: REPLACE TABLE and CREATE OR
// REPLACE TABLE, create_table_as.cpp), whose query then runs as an INSERT into the new table.
// A table's schema resolves as a read of it would before it is created.
#include <fmt/format.h>

#include <optional>

#include "catalog/catalog_manager.h"
#include "connectors/dynamic_table_factory.h"
#include "eddy/exceptions.h"
#include "sql/binder/binder.h"
#include "sql/planner/plan_table_scan.h"
#include "table/environment/operations/statement_operations.h"
#include "table/environment/operations/table_definition.h"

namespace eddy::table::operations {

namespace {

/// Creates `table` as `identifier` (temporary, or in its catalog, as `create` says) once its
/// schema resolves as a read of the table would (Flink resolves computed columns and the
/// watermark when a table is created; metadata keys when it is read).
void registerTable(OperationContext& context, const sql::CreateTableStatement& create,
                   const catalog::ObjectIdentifier& identifier, catalog::CatalogBaseTable table) {
  catalog::CatalogManager& catalogs = context.catalogs();
  sql::planTableScan(catalogs, table, identifier.asSummaryString(),
                     sql::MetadataKeys::kDeclared, context.bindingContext());
  checkKeysArePhysical(table);
  if (create.temporary) {
    catalogs.createTemporaryTable(std::move(table), identifier, create.ifNotExists);
  } else {
    catalogs.createTable(std::move(table), identifier, create.ifNotExists);
  }
}

/// The table of a CREATE TABLE from its own definitions.
catalog::CatalogBaseTable definedTable(const sql::CreateTableStatement& create) {
  catalog::CatalogBaseTable table;
  Schema::Builder builder = Schema::newBuilder();
  for (const sql::TableColumn& column : create.columns) addColumn(builder, column);
  addConstraints(builder, create);
  table.schema = builder.build();
  table.comment = create.comment;
  table.partitionKeys = create.partitionKeys;
  for (const sql::TableOption& option : create.options) table.options[option.key] = option.value;
  return table;
}

/// CTAS and RTAS: the table of the query created (an existing one replaced), then the query
/// inserted into it as a job.
TableResult createTableAsQuery(OperationContext& context, const sql::CreateTableStatement& create,
                               const catalog::ObjectIdentifier& identifier) {
  catalog::CatalogManager& catalogs = context.catalogs();
  sql::Binder binder(catalogs, context.bindingContext());
  sql::LogicalNodePtr query = binder.bindQuery(*create.asQuery);
  auto [table, plan] = createTableAsSelect(create, identifier.asSummaryString(), query);
  // The sink is checked before the table exists, so a bad option creates nothing.
  {
    connectors::ConnectorContext connector{
        identifier.asSummaryString(),
        sql::physicalRowTypeOf(table, identifier.asSummaryString()),
        table.options,
        context.isStreaming(),
        table.partitionKeys,
        {}};
    if (const auto& key = table.schema.getPrimaryKey()) connector.primaryKey = key->columnNames;
    connectors::FactoryRegistry::builtIn().factoryFor(connector).createDynamicTableSink(connector);
  }
  if (create.replace != sql::CreateTableStatement::Replace::kNo) {
    // RTAS: the old table goes once the new one is known to be valid (not atomic: when
    // the job fails, the new table stays, as in Flink without atomicity).
    std::optional<catalog::CatalogManager::ResolvedTable> existing = catalogs.getTable(identifier);
    if (existing && existing->isTemporary) {
      throw ValidationException("Replacing the temporary table '" +
                                identifier.asSummaryString() + "' is not supported");
    }
    if (existing && existing->table->kind != catalog::CatalogBaseTable::Kind::TABLE) {
      throw ValidationException("REPLACE TABLE cannot replace the view '" +
                                identifier.asSummaryString() + "'");
    }
    if (!existing && create.replace == sql::CreateTableStatement::Replace::kReplace) {
      throw TableException(fmt::format(
          "The table `{}`.`{}`.`{}` to be replaced doesn't exist. You can try to use "
          "CREATE TABLE AS statement or CREATE OR REPLACE TABLE AS statement.",
          identifier.catalogName, identifier.databaseName, identifier.objectName));
    }
    if (existing) catalogs.dropTable(identifier, false, false);
  }
  registerTable(context, create, identifier, std::move(table));
  return context.runInserts({InsertPlan{create.tableName, std::move(plan), false, {}}});
}

}  // namespace

TableResult createTable(OperationContext& context, const sql::CreateTableStatement& create) {
  catalog::CatalogManager& catalogs = context.catalogs();
  catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(create.tableName);
  if (create.like && create.asQuery) {
    throw ValidationException("CREATE TABLE AS SELECT does not support LIKE");
  }
  if (create.like) {
    catalog::ObjectIdentifier baseName = catalogs.qualifyIdentifier(create.like->sourceTable);
    registerTable(context, create, identifier,
                  mergeLike(create, *catalogs.getTableOrThrow(baseName).table,
                            baseName.asSummaryString()));
    return TableResult::ok();
  }
  if (create.asQuery) return createTableAsQuery(context, create, identifier);
  registerTable(context, create, identifier, definedTable(create));
  return TableResult::ok();
}

}  // namespace eddy::table::operations
