// A CREATE or ALTER TABLE's column and constraint definitions as Schema entries, and the check
// that a table's keys are physical columns (table_definition.h).
#include "table/environment/operations/table_definition.h"

#include <fmt/format.h>

#include <algorithm>

#include "eddy/exceptions.h"
#include "eddy/types/logical_type.h"
#include "sql/parser/unparse.h"

namespace eddy::table::operations {

void addColumn(Schema::Builder& builder, const sql::TableColumn& column) {
  switch (column.kind) {
    case sql::ColumnKind::kPhysical:
      builder.column(column.name, DataType(column.type));
      break;
    case sql::ColumnKind::kComputed:
      builder.columnByExpression(column.name, sql::unparse(*column.expression));
      break;
    case sql::ColumnKind::kMetadata:
      builder.columnByMetadata(column.name, DataType(column.type),
                               column.metadataKey.value_or(column.name), column.isVirtual);
      break;
  }
  if (column.comment) builder.withComment(*column.comment);
}

void addConstraints(Schema::Builder& builder,
                    const std::vector<sql::WatermarkDefinition>& watermarks,
                    const std::optional<sql::PrimaryKeyConstraint>& primaryKey) {
  for (const sql::WatermarkDefinition& watermark : watermarks) {
    builder.watermark(watermark.column.back(), sql::unparse(*watermark.expression));
  }
  if (primaryKey) {
    if (!primaryKey->notEnforced) {
      throw ValidationException(
          "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT "
          "ENFORCED controls if the constraint checks are performed on the incoming/outgoing "
          "data. Flink does not own the data therefore the only supported mode is the NOT "
          "ENFORCED mode");
    }
    if (primaryKey->name) {
      builder.primaryKeyNamed(*primaryKey->name, primaryKey->columns);
    } else {
      builder.primaryKey(primaryKey->columns);
    }
  }
}

void addConstraints(Schema::Builder& builder, const sql::CreateTableStatement& create) {
  addConstraints(builder, create.watermarks, create.primaryKey);
}

void addSchemaColumn(Schema::Builder& builder, const Schema::Column& column) {
  auto typed = [](const Schema::ColumnType& type) {
    return std::holds_alternative<DataType>(type) ? std::get<DataType>(type)
                                                  : DataType(parseLogicalType(std::get<std::string>(type)));
  };
  std::optional<std::string> comment;
  if (const auto* physical = std::get_if<Schema::PhysicalColumn>(&column)) {
    builder.column(physical->name, typed(physical->type));
    comment = physical->comment;
  } else if (const auto* computed = std::get_if<Schema::ComputedColumn>(&column)) {
    builder.columnByExpression(computed->name, computed->expression);
    comment = computed->comment;
  } else {
    const auto& metadata = std::get<Schema::MetadataColumn>(column);
    builder.columnByMetadata(metadata.name, typed(metadata.type),
                             metadata.metadataKey.value_or(metadata.name), metadata.isVirtual);
    comment = metadata.comment;
  }
  if (comment) builder.withComment(*comment);
}

void checkKeysArePhysical(const catalog::CatalogBaseTable& table) {
  std::vector<std::string> physical;
  for (const Schema::Column& column : table.schema.getColumns()) {
    if (std::holds_alternative<Schema::PhysicalColumn>(column)) {
      physical.push_back(Schema::columnName(column));
    }
  }
  auto isPhysical = [&](const std::string& name) {
    return std::find(physical.begin(), physical.end(), name) != physical.end();
  };
  if (const auto& key = table.schema.getPrimaryKey()) {
    for (const std::string& column : key->columnNames) {
      if (!isPhysical(column)) {
        throw ValidationException("Could not create a PRIMARY KEY '" + key->constraintName +
                                  "'. Column '" + column + "' is not a physical column.");
      }
    }
  }
  for (const std::string& key : table.partitionKeys) {
    if (!isPhysical(key)) {
      throw ValidationException(fmt::format(
          "Partition column '{}' not defined in the table schema. Available columns: ['{}']", key,
          fmt::join(physical, "', '")));
    }
  }
}

}  // namespace eddy::table::operations
