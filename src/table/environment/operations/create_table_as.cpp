// The table a CREATE TABLE .. AS SELECT creates, and the query projected onto its columns
// (Flink's FLIP-463 schema merging, MergeTableAsUtil): see createTableAsSelect in
// table_definition.h. Used by CTAS/RTAS (create_table.cpp) and their EXPLAIN (explain.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "eddy/exceptions.h"
#include "function/type_rules.h"
#include "sql/binder/binder.h"
#include "sql/planner/plan_table_scan.h"
#include "table/environment/operations/table_definition.h"

namespace eddy::table::operations {

std::pair<catalog::CatalogBaseTable, sql::LogicalNodePtr> createTableAsSelect(
    const sql::CreateTableStatement& create, const std::string& tableName,
    const sql::LogicalNodePtr& query) {
  const auto& queryFields = query->rowType->getFields();
  auto declared = [&](const std::string& name) -> const sql::TableColumn* {
    for (const sql::TableColumn& column : create.columns) {
      if (column.name == name) return &column;
    }
    return nullptr;
  };
  auto queryColumn = [&](Schema::Builder& builder, const RowField& field) {
    const LogicalTypePtr& type = field.type;
    const bool timeAttribute =
        type->getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE ||
        type->getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    builder.column(
        field.name,
        DataType(timeAttribute ? type->copyWithTimestampKind(TimestampKind::REGULAR) : type));
  };
  auto isBareName = [](const sql::TableColumn& column) {
    return column.kind == sql::ColumnKind::kPhysical && !column.type;
  };
  Schema::Builder builder = Schema::newBuilder();
  if (std::any_of(create.columns.begin(), create.columns.end(), isBareName)) {
    // `CREATE TABLE t (c, b, a) AS SELECT ..`: the query's columns in the listed order.
    std::set<std::string> listed;
    for (const sql::TableColumn& column : create.columns) {
      auto failAt = [&](const std::string& message) {
        throw ValidationException(message, column.position.line, column.position.column);
      };
      if (!isBareName(column)) {
        failAt("A column list of names cannot define the column '" + column.name +
               "'; either name the query's columns or define columns");
      }
      const int index = query->rowType->getFieldIndex(column.name);
      if (index < 0) {
        failAt(fmt::format("Column '{}' is not a column of the query; its columns are [{}]",
                           column.name, fmt::join(query->rowType->getFieldNames(), ", ")));
      }
      if (!listed.insert(column.name).second)
        failAt("Column '" + column.name + "' is listed twice");
      queryColumn(builder, queryFields[static_cast<size_t>(index)]);
    }
    if (listed.size() != queryFields.size()) {
      const sql::TableColumn& first = create.columns.front();
      throw ValidationException(fmt::format("The column list names {} of the query's {} columns; "
                                            "it must name each once",
                                            listed.size(), queryFields.size()),
                                first.position.line, first.position.column);
    }
  }
  for (const sql::TableColumn& column : create.columns) {
    if (isBareName(column)) break;  // the list above
    if (query->rowType->getFieldIndex(column.name) < 0) addColumn(builder, column);
  }
  for (const RowField& field : queryFields) {
    if (!create.columns.empty() && isBareName(create.columns.front())) break;
    const sql::TableColumn* column = declared(field.name);
    if (column == nullptr) {
      queryColumn(builder, field);
      continue;
    }
    if (column->kind != sql::ColumnKind::kPhysical) {
      throw ValidationException(
          fmt::format("A column named '{}' already exists in the source schema. Computed and "
                      "metadata columns cannot overwrite regular columns.",
                      column->name),
          column->position.line, column->position.column);
    }
    addColumn(builder, *column);
  }
  addConstraints(builder, create);
  catalog::CatalogBaseTable table;
  table.schema = builder.build();
  table.comment = create.comment;
  table.partitionKeys = create.partitionKeys;
  for (const sql::TableOption& option : create.options) table.options[option.key] = option.value;

  // The query's columns by name onto the physical columns.
  LogicalTypePtr sinkType = sql::physicalRowTypeOf(table, tableName);
  std::vector<expression::ExpressionPtr> columns;
  std::vector<std::string> names;
  for (const RowField& field : sinkType->getFields()) {
    const int source = query->rowType->getFieldIndex(field.name);
    if (source < 0) {
      if (!field.type->isNullable()) {
        throw ValidationException("Column '" + field.name +
                                  "' has no default value and does not allow NULLs");
      }
      columns.push_back(expression::literal(Value(), field.type));
    } else {
      const LogicalTypePtr& sourceType = queryFields[static_cast<size_t>(source)].type;
      columns.push_back(expression::column(source, sourceType));
      // The INSERT casts; checked here so that an impossible cast creates no table. A declared
      // column (Flink's MergeTableAsUtil) also keeps a nullable value out of a NOT NULL column.
      if (const sql::TableColumn* column = declared(field.name);
          column != nullptr && column->type &&
          (!function::supportsImplicitCast(*sourceType, *field.type) ||
           (sourceType->isNullable() && !field.type->isNullable()))) {
        const auto position = static_cast<size_t>(column - create.columns.data());
        throw ValidationException(fmt::format(
            "Incompatible types for sink column '{}' at position {}. The source column has type "
            "'{}', while the target column has type '{}'.",
            field.name, position, sourceType->asSummaryString(), field.type->asSummaryString()));
      }
    }
    names.push_back(field.name);
  }
  return {std::move(table),
          std::make_shared<sql::LogicalProject>(query, std::move(columns), std::move(names))};
}

}  // namespace eddy::table::operations
