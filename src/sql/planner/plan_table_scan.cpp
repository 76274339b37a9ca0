// planTableScan and the schema checks around it (plan_table_scan.h).
#include "sql/planner/plan_table_scan.h"

#include <algorithm>
#include <map>

#include "connectors/dynamic_table_factory.h"
#include "eddy/exceptions.h"
#include "function/scalar/cast.h"
#include "sql/binder/binder.h"
#include "sql/parser/parser.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

LogicalTypePtr logicalTypeOf(const Schema::ColumnType& type) {
  if (const auto* dataType = std::get_if<DataType>(&type)) return dataType->getLogicalType();
  return parseLogicalType(std::get<std::string>(type));
}

LogicalTypePtr physicalRowTypeOf(const catalog::CatalogBaseTable& table,
                                 const std::string& tableName, bool primaryKeyNotNull) {
  (void)tableName;
  // Flink's schema resolution makes the primary key's columns NOT NULL, whatever they declare.
  const auto& primaryKey = table.schema.getPrimaryKey();
  auto inPrimaryKey = [&primaryKey](const std::string& name) {
    return primaryKey && std::find(primaryKey->columnNames.begin(), primaryKey->columnNames.end(),
                                   name) != primaryKey->columnNames.end();
  };
  std::vector<RowField> fields;
  for (const Schema::Column& column : table.schema.getColumns()) {
    const auto* physical = std::get_if<Schema::PhysicalColumn>(&column);
    if (!physical) continue;
    LogicalTypePtr type = logicalTypeOf(physical->type);
    if (primaryKeyNotNull && inPrimaryKey(physical->name)) type = type->copy(false);
    fields.push_back(RowField{physical->name, std::move(type), std::nullopt});
  }
  return LogicalType::row(std::move(fields), false);
}

LogicalTypePtr persistedRowTypeOf(const catalog::CatalogBaseTable& table) {
  // The physical columns as a sink enforces them (the primary key's NOT NULL).
  const LogicalTypePtr physical = physicalRowTypeOf(table, /*tableName=*/"");
  std::vector<RowField> fields;
  for (const Schema::Column& column : table.schema.getColumns()) {
    if (const auto* physicalColumn = std::get_if<Schema::PhysicalColumn>(&column)) {
      fields.push_back(
          physical
              ->getFields()[static_cast<size_t>(physical->getFieldIndex(physicalColumn->name))]);
    } else if (const auto* metadata = std::get_if<Schema::MetadataColumn>(&column);
               metadata && !metadata->isVirtual) {
      fields.push_back(RowField{metadata->name, logicalTypeOf(metadata->type), std::nullopt});
    }
  }
  return LogicalType::row(std::move(fields), false);
}

WritableMetadata writableMetadataOf(const catalog::CatalogBaseTable& table,
                                    const std::string& tableName, const std::string& connector,
                                    const connectors::DynamicTableSink& sink) {
  const std::vector<std::pair<std::string, LogicalTypePtr>> writable = sink.listWritableMetadata();
  WritableMetadata layout;
  struct Declared {
    int position;  // among the persisted columns
    const Schema::MetadataColumn* column;
  };
  std::map<std::string, Declared> declared;  // by key
  int position = 0;
  for (const Schema::Column& column : table.schema.getColumns()) {
    if (std::holds_alternative<Schema::PhysicalColumn>(column)) {
      layout.persistedColumns.push_back(position++);
      continue;
    }
    const auto* metadata = std::get_if<Schema::MetadataColumn>(&column);
    if (!metadata || metadata->isVirtual) continue;
    const std::string key = metadata->metadataKey.value_or(metadata->name);
    if (writable.empty()) {
      throw ValidationException(
          "Invalid metadata key '" + key + "' in column '" + metadata->name + "' of table '" +
          tableName +
          "'. The connector supports no metadata keys for writing; declare the column VIRTUAL "
          "to read it only.");
    }
    auto found = std::find_if(writable.begin(), writable.end(),
                              [&key](const auto& entry) { return entry.first == key; });
    if (found == writable.end()) {
      std::string keys;
      for (const auto& [name, type] : writable) keys += "\n" + name;
      throw ValidationException("Invalid metadata key '" + key + "' in column '" + metadata->name +
                                "' of table '" + tableName + "'. The connector '" + connector +
                                "' supports the following metadata keys for writing:" + keys);
    }
    const LogicalTypePtr type = logicalTypeOf(metadata->type);
    if (!function::isCastSupported(*type, *found->second)) {
      throw ValidationException("Invalid data type for metadata column '" + metadata->name +
                                "' of table '" + tableName +
                                "'. The column cannot be declared as '" + type->asSummaryString() +
                                "' because the type must be castable to metadata type '" +
                                found->second->asSummaryString() + "'.");
    }
    declared.emplace(key, Declared{position++, metadata});
  }
  for (const auto& [key, type] : writable) {  // the sink's order
    auto column = declared.find(key);
    if (column == declared.end()) continue;
    layout.persistedColumns.push_back(column->second.position);
    layout.keys.push_back(key);
    layout.types.push_back(type);
  }
  return layout;
}

void checkWatermarkTypes(const LogicalType& timeType, const LogicalType* expressionType) {
  auto isTimestamp = [](const LogicalType& type) {
    return type.getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE ||
           type.getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  };
  if (!isTimestamp(timeType) || timeType.getPrecision() > 3) {
    throw ValidationException(
        "Invalid data type of time field for watermark definition. The field must be of type "
        "TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the "
        "time field type is " + timeType.asSummaryString());
  }
  if (expressionType && !isTimestamp(*expressionType)) {
    throw ValidationException(
        "Invalid data type of expression for watermark definition. The field must be of type "
        "TIMESTAMP(p) or TIMESTAMP_LTZ(p), but the watermark expression type is " +
        expressionType->asSummaryString());
  }
}

connectors::ConnectorContext connectorContextOf(const LogicalTableScan& scan, bool streaming) {
  connectors::ConnectorContext context{scan.tableName, scan.physicalRowType, scan.options,
                                       streaming,      scan.partitionKeys,   {}};
  for (int column : scan.primaryKey) {
    context.primaryKey.push_back(
        scan.physicalRowType->getFields()[static_cast<size_t>(column)].name);
  }
  return context;
}

LogicalNodePtr planTableScan(const catalog::CatalogManager& catalogManager,
                             const catalog::CatalogBaseTable& table, const std::string& tableName,
                             MetadataKeys keyCheck,
                             const function::BindingContext& context) {
  LogicalTypePtr physical = physicalRowTypeOf(table, tableName, /*primaryKeyNotNull=*/false);
  // The connector's source, asked what it reads: its metadata and the kinds of its rows. An
  // invalid table (null here) fails when the job is built, with its own message.
  std::unique_ptr<connectors::DynamicTableSource> source;
  std::string connector = "?";
  if (keyCheck == MetadataKeys::kCheck) {
    connectors::ConnectorContext sourceContext{tableName,           physical, table.options, true,
                                               table.partitionKeys, {}};
    if (const auto& key = table.schema.getPrimaryKey()) sourceContext.primaryKey = key->columnNames;
    try {
      const auto& factory = connectors::FactoryRegistry::builtIn().factoryFor(sourceContext);
      connector = factory.factoryIdentifier();
      source = factory.createDynamicTableSource(sourceContext);
    } catch (const std::exception&) {
    }
  }
  // METADATA columns: the keys the connector reads after the physical columns, each cast to
  // the declared type (which must be castable from the metadata's type).
  std::vector<RowField> metadataFields;
  std::vector<std::string> metadataKeys;
  std::vector<LogicalTypePtr> declaredMetadataTypes;
  for (const Schema::Column& column : table.schema.getColumns()) {
    const auto* metadata = std::get_if<Schema::MetadataColumn>(&column);
    if (!metadata) continue;
    const std::string key = metadata->metadataKey.value_or(metadata->name);
    if (keyCheck == MetadataKeys::kDeclared) {
      LogicalTypePtr declared = logicalTypeOf(metadata->type);
      metadataFields.push_back(RowField{metadata->name, declared, std::nullopt});
      metadataKeys.push_back(key);
      declaredMetadataTypes.push_back(declared);
      continue;
    }
    if (!source) continue;  // an invalid table fails when the job is built, with its message
    const std::map<std::string, LogicalTypePtr> readable = source->listReadableMetadata();
    auto found = readable.find(key);
    if (found == readable.end()) {
      std::string keys;
      for (const auto& [name, type] : readable) keys += "\n" + name;
      throw ValidationException("Invalid metadata key '" + key + "' in column '" + metadata->name +
                                "' of table '" + tableName + "'. The connector '" + connector +
                                "' supports the following metadata keys for reading:" +
                                (keys.empty() ? std::string("\n(none)") : keys));
    }
    LogicalTypePtr declared = logicalTypeOf(metadata->type);
    if (!function::isCastSupported(*found->second, *declared)) {
      throw ValidationException("Invalid data type for metadata column '" + metadata->name +
                                "' of table '" + tableName + "'. The column cannot be declared as '" +
                                declared->asSummaryString() + "' because the type must be castable "
                                "from metadata type '" + found->second->asSummaryString() + "'.");
    }
    metadataFields.push_back(RowField{metadata->name, found->second, std::nullopt});
    metadataKeys.push_back(key);
    declaredMetadataTypes.push_back(declared);
  }
  std::vector<int> primaryKey;
  if (const auto& key = table.schema.getPrimaryKey()) {
    for (const std::string& column : key->columnNames) {
      const int index = physical->getFieldIndex(column);
      if (index >= 0) primaryKey.push_back(index);
    }
    if (primaryKey.size() != key->columnNames.size()) primaryKey.clear();
  }
  LogicalNodePtr scan = std::make_shared<LogicalTableScan>(
      tableName, physical, table.options, table.partitionKeys, metadataFields, metadataKeys,
      std::move(primaryKey),
      source ? source->changelogMode() : connectors::SourceChangelogMode::kInsertOnly);
  bool computed = std::any_of(table.schema.getColumns().begin(), table.schema.getColumns().end(),
                              [](const Schema::Column& column) {
                                return std::holds_alternative<Schema::ComputedColumn>(column);
                              });
  const auto& watermarks = table.schema.getWatermarkSpecs();
  if (!computed && watermarks.empty() && metadataKeys.empty()) return scan;
  // Computed columns: a projection over the scanned columns, in the declared column order.
  Binder binder(catalogManager, context);
  const auto& fields = scan->rowType->getFields();
  const size_t physicalCount = physical->getFieldCount();
  std::vector<BoundPtr> columns;
  std::vector<std::string> names;
  for (const Schema::Column& column : table.schema.getColumns()) {
    if (const auto* computedColumn = std::get_if<Schema::ComputedColumn>(&column)) {
      try {
        columns.push_back(binder.bindExpressionText(computedColumn->expression, fields));
      } catch (const std::exception& error) {
        // The position inside the column's expression text means little here: keep the cause.
        throw ValidationException("Invalid expression for computed column '" + computedColumn->name +
                                  "' of table '" + tableName + "': " +
                                  withoutSqlPosition(error));
      }
      names.push_back(computedColumn->name);
      continue;
    }
    const std::string& name = Schema::columnName(column);
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].name != name) continue;
      BoundPtr read = expression::column(static_cast<int>(i), fields[i].type);
      if (i >= physicalCount) {
        read = expression::castIfNeeded(read, declaredMetadataTypes[i - physicalCount]);
      }
      columns.push_back(read);
    }
    names.push_back(name);
  }
  if (watermarks.empty()) {
    return std::make_shared<LogicalProject>(scan, std::move(columns), std::move(names));
  }
  // WATERMARK FOR rowtime AS expression: the column becomes the rowtime attribute, and a
  // watermark assigner over the table's columns generates the watermarks.
  if (watermarks.size() > 1) {
    throw ValidationException("Multiple watermark definitions are not supported yet: table '" +
                              tableName + "'");
  }
  const Schema::WatermarkSpec& watermark = watermarks[0];
  auto position = std::find(names.begin(), names.end(), watermark.columnName) - names.begin();
  if (position == static_cast<long>(names.size())) {
    throw ValidationException("The rowtime attribute field '" + watermark.columnName +
                              "' is not defined in the table schema of '" + tableName + "'");
  }
  const LogicalType& timeType = *columns[position]->type();
  checkWatermarkTypes(timeType, nullptr);
  columns[position] = expression::cast(columns[position],
                                       timeType.copyWithTimestampKind(TimestampKind::ROWTIME));
  LogicalNodePtr project = std::make_shared<LogicalProject>(scan, std::move(columns), names);
  BoundPtr bound;
  try {
    bound = binder.bindExpressionText(watermark.expression, project->rowType->getFields());
  } catch (const std::exception& error) {
    throw ValidationException("Invalid expression for watermark '" + watermark.expression +
                              "' of table '" + tableName + "': " + withoutSqlPosition(error));
  }
  checkWatermarkTypes(timeType, bound->type().get());
  return std::make_shared<LogicalWatermarkAssigner>(project, static_cast<int>(position), bound);
}

}  // namespace eddy::sql
