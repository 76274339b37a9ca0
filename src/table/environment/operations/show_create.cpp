// SHOW CREATE TABLE / VIEW: the DDL that makes the object, as Flink prints it: the table's
// columns with their types, metadata and comments, watermarks, primary key, comment,
// partition keys and options (sensitive option values masked); a view's columns and query.
#include <algorithm>

#include "catalog/catalog_manager.h"
#include "config/option_registry.h"
#include "eddy/exceptions.h"
#include "sql/binder/binder.h"
#include "sql/planner/plan_table_scan.h"
#include "table/environment/operations/statement_operations.h"

namespace eddy::table::operations {

namespace {

std::string quoteLiteral(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}

/// The DDL of `table`, which is `identifier`.
std::string createStatementOf(const catalog::ObjectIdentifier& identifier,
                              const catalog::CatalogBaseTable& table, bool isTemporary) {
  std::string name = escapeIdentifier(identifier.catalogName) + "." +
                     escapeIdentifier(identifier.databaseName) + "." +
                     escapeIdentifier(identifier.objectName);
  std::string text = std::string("CREATE ") + (isTemporary ? "TEMPORARY " : "");
  if (table.kind == catalog::CatalogBaseTable::Kind::VIEW) {
    text += "VIEW " + name + " (\n";
    const auto& columns = table.schema.getColumns();
    for (size_t i = 0; i < columns.size(); ++i) {
      text += "  " + escapeIdentifier(Schema::columnName(columns[i])) +
              (i + 1 < columns.size() ? ",\n" : "\n");
    }
    text += ")\n";
    if (table.comment) text += "COMMENT " + quoteLiteral(*table.comment) + "\n";
    return text + "AS " + (table.originalQuery.empty() ? std::string("<a Table of the Table API>")
                                                      : table.originalQuery);
  }
  text += "TABLE " + name + " (\n";
  std::vector<std::string> lines;
  for (const Schema::Column& column : table.schema.getColumns()) {
    std::string line = "  " + escapeIdentifier(Schema::columnName(column)) + " ";
    std::visit(
        [&](const auto& c) {
          using C = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<C, Schema::ComputedColumn>) {
            line += "AS " + c.expression;
          } else {
            LogicalTypePtr type = sql::logicalTypeOf(c.type);
            // The primary key's columns are NOT NULL (Flink's resolved schema).
            const auto& key = table.schema.getPrimaryKey();
            if (key && std::find(key->columnNames.begin(), key->columnNames.end(), c.name) !=
                           key->columnNames.end()) {
              type = type->copy(false);
            }
            line += type->asSerializableString();
            if constexpr (std::is_same_v<C, Schema::MetadataColumn>) {
              line += " METADATA";
              if (c.metadataKey) line += " FROM " + quoteLiteral(*c.metadataKey);
              if (c.isVirtual) line += " VIRTUAL";
            }
          }
          if (c.comment) line += " COMMENT " + quoteLiteral(*c.comment);
        },
        column);
    lines.push_back(line);
  }
  for (const auto& watermark : table.schema.getWatermarkSpecs()) {
    lines.push_back("  WATERMARK FOR " + escapeIdentifier(watermark.columnName) + " AS " +
                    watermark.expression);
  }
  if (const auto& key = table.schema.getPrimaryKey()) {
    std::string columns;
    for (const auto& column : key->columnNames) {
      columns += (columns.empty() ? "" : ", ") + escapeIdentifier(column);
    }
    lines.push_back("  CONSTRAINT " + escapeIdentifier(key->constraintName) + " PRIMARY KEY (" +
                    columns + ") NOT ENFORCED");
  }
  for (size_t i = 0; i < lines.size(); ++i) text += lines[i] + (i + 1 < lines.size() ? ",\n" : "\n");
  text += ")";
  if (table.comment) text += "\nCOMMENT " + quoteLiteral(*table.comment);
  if (!table.partitionKeys.empty()) {
    std::string keys;
    for (const auto& key : table.partitionKeys) keys += (keys.empty() ? "" : ", ") + escapeIdentifier(key);
    text += "\nPARTITIONED BY (" + keys + ")";
  }
  text += "\nWITH (\n";
  size_t i = 0;
  for (const auto& [key, value] : table.options) {
    text += "  " + quoteLiteral(key) + " = " +
            quoteLiteral(config::displayValue(key, value)) +
            (++i < table.options.size() ? ",\n" : "\n");
  }
  return text + ")";
}

}  // namespace

TableResult showCreate(OperationContext& context, const sql::ShowStatement& show) {
  catalog::CatalogManager& catalogs = context.catalogs();
  catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(show.name);
  catalog::CatalogManager::ResolvedTable resolved = catalogs.getTableOrThrow(identifier);
  bool isView = resolved.table->kind == catalog::CatalogBaseTable::Kind::VIEW;
  if (isView != (show.showKind == sql::ShowKind::kCreateView)) {
    throw ValidationException(
        isView ? "SHOW CREATE TABLE is only supported for tables, but " +
                     identifier.asSummaryString() + " is a view. Please use SHOW CREATE VIEW instead."
               : "SHOW CREATE VIEW is only supported for views, but " +
                     identifier.asSummaryString() + " is a table. Please use SHOW CREATE TABLE instead.");
  }
  return listing("result", {createStatementOf(identifier, *resolved.table, resolved.isTemporary)});
}

}  // namespace eddy::table::operations
