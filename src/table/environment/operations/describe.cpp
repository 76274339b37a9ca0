// DESCRIBE table (and SHOW COLUMNS, show.cpp): one row per column with its type (a computed
// column's is its expression's over the physical columns; the rowtime column is marked
// *ROWTIME*), nullability, key, extras (computed expression, metadata), watermark and comment,
// as Flink 1.17 and later print them.
#include <algorithm>

#include "catalog/catalog_manager.h"
#include "sql/binder/binder.h"
#include "sql/planner/plan_table_scan.h"
#include "table/environment/operations/statement_operations.h"

namespace eddy::table::operations {

TableResult describeTable(catalog::CatalogManager& catalogs,
                          const catalog::ObjectIdentifier& identifier,
                          const std::function<bool(const std::string&)>& keep) {
  const catalog::CatalogBaseTable& table = *catalogs.getTableOrThrow(identifier).table;
  const auto& primaryKey = table.schema.getPrimaryKey();
  // Computed columns get the type of their expression over the other columns.
  std::vector<RowField> physicalColumns;
  for (const Schema::Column& column : table.schema.getColumns()) {
    if (const auto* physical = std::get_if<Schema::PhysicalColumn>(&column)) {
      physicalColumns.push_back(RowField{
          physical->name,
          sql::logicalTypeOf(physical->type),
          std::nullopt});
    }
  }
  sql::Binder binder(catalogs);
  std::vector<Row> rows;
  for (const Schema::Column& column : table.schema.getColumns()) {
    const std::string& name = Schema::columnName(column);
    if (!keep(name)) continue;
    std::string type;
    bool nullable = true;
    std::string extras;
    std::visit(
        [&](const auto& c) {
          using C = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<C, Schema::ComputedColumn>) {
            LogicalTypePtr computed =
                binder.bindExpressionText(c.expression, physicalColumns)->type();
            nullable = computed->isNullable();
            type = computed->copy(true)->asSummaryString();
            extras = "AS " + c.expression;
          } else {
            LogicalTypePtr logical = sql::logicalTypeOf(c.type);
            nullable = logical->isNullable();
            type = logical->copy(true)->asSummaryString();
            if constexpr (std::is_same_v<C, Schema::MetadataColumn>) {
              extras = "METADATA";
              if (c.metadataKey) extras += " FROM '" + *c.metadataKey + "'";
              if (c.isVirtual) extras += " VIRTUAL";
            }
          }
        },
        column);
    std::string key;
    if (primaryKey && std::find(primaryKey->columnNames.begin(), primaryKey->columnNames.end(),
                                name) != primaryKey->columnNames.end()) {
      key = "PRI(" + [&] {
        std::string columns;
        for (const auto& keyColumn : primaryKey->columnNames) {
          columns += (columns.empty() ? "" : ", ") + keyColumn;
        }
        return columns;
      }() + ")";
      nullable = false;
    }
    std::string watermark;
    for (const auto& spec : table.schema.getWatermarkSpecs()) {
      if (spec.columnName == name) watermark = spec.expression;
    }
    if (!watermark.empty()) type += " *ROWTIME*";  // the column is the rowtime attribute
    Row row(7);
    row.setField(0, name);
    row.setField(1, type);
    row.setField(2, nullable);
    row.setField(3, key.empty() ? Value() : Value(key));
    row.setField(4, extras.empty() ? Value() : Value(extras));
    row.setField(5, watermark.empty() ? Value() : Value(watermark));
    // Flink 1.17+ (FLINK-29679): the column's comment.
    std::optional<std::string> comment;
    std::visit([&comment](const auto& c) { comment = c.comment; }, column);
    row.setField(6, comment ? Value(*comment) : Value());
    rows.push_back(std::move(row));
  }
  auto text = [](const char* name, bool nullable) {
    DataType type = DataTypes::STRING();
    return ResolvedSchema::Column{name, nullable ? type : type.notNull(), std::nullopt};
  };
  return TableResult::ofRows(
      ResolvedSchema({text("name", false), text("type", false),
                      ResolvedSchema::Column{"null", DataTypes::BOOLEAN().notNull(), std::nullopt},
                      text("key", true), text("extras", true), text("watermark", true),
                      text("comment", true)}),
      std::move(rows));
}

TableResult describe(OperationContext& context, const sql::DescribeStatement& describe) {
  catalog::CatalogManager& catalogs = context.catalogs();
  return describeTable(catalogs, catalogs.qualifyIdentifier(describe.tableName),
                       [](const std::string&) { return true; });
}

}  // namespace eddy::table::operations
