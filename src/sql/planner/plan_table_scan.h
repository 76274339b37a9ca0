// Planning the read of a catalog table, and the checks of its declared schema that the table
// environment runs where it declares and writes tables: the physical row its connector reads
// or writes, the METADATA columns the connector offers, the computed columns and watermark
// bound over the scanned columns. The binder reads every catalog table (not view) through
// planTableScan; CREATE/ALTER TABLE, INSERT and the DataStream conversions use the checks.
#pragma once

#include <string>

#include "catalog/catalog_manager.h"
#include "connectors/dynamic_table_factory.h"
#include "function/function_registry.h"
#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// Flink's checks of a watermark declaration: the rowtime column must be a TIMESTAMP(p) or
/// TIMESTAMP_LTZ(p) with p <= 3, and the watermark expression (when given) a timestamp too.
/// Throws ValidationException with Flink's messages.
void checkWatermarkTypes(const LogicalType& timeType, const LogicalType* expressionType);

/// The type of a schema column declared as a DataType or as a type string.
LogicalTypePtr logicalTypeOf(const Schema::ColumnType& type);

/// ROW<...> of a catalog table's physical columns (the row its connector reads or writes;
/// computed and metadata columns are left out). With `primaryKeyNotNull` the primary key's
/// columns are NOT NULL whatever they declare (Flink's resolved schema: what a sink enforces);
/// a scan reads the declared types (a format may find no value for a key column, and Flink's
/// formats do not check it either).
LogicalTypePtr physicalRowTypeOf(const catalog::CatalogBaseTable& table,
                                 const std::string& tableName,
                                 bool primaryKeyNotNull = true);
/// ROW<...> of a catalog table's persisted columns: the physical ones and the METADATA ones not
/// declared VIRTUAL, in declared order with their declared types (the row an INSERT's query
/// gives, Flink's persisted columns).
LogicalTypePtr persistedRowTypeOf(const catalog::CatalogBaseTable& table);

/// The columns a sink consumes, in terms of the persisted ones: the physical columns in order,
/// then the persisted METADATA columns in the order of the sink's listWritableMetadata()
/// (Flink's DynamicSinkUtils).
struct WritableMetadata {
  /// Per consumed column, its position among the persisted columns.
  std::vector<int> persistedColumns;
  /// The metadata keys written, in consumed order, with the sink's types for them.
  std::vector<std::string> keys;
  std::vector<LogicalTypePtr> types;
};
/// The WritableMetadata of an INSERT into `table` through `sink` (of the connector
/// `connector`). Throws ValidationException in Flink's words for a key the sink does not write
/// ("Invalid metadata key 'offset' in column 'o' of table '..'. The connector 'kafka' supports
/// the following metadata keys for writing:\nheaders\ntimestamp") and a declared type that
/// cannot be cast to the key's type.
WritableMetadata writableMetadataOf(const catalog::CatalogBaseTable& table,
                                    const std::string& tableName, const std::string& connector,
                                    const connectors::DynamicTableSink& sink);

/// How planTableScan types a METADATA column: by what the connector reads under its key (a
/// key the connector does not offer fails), or by its declared type alone (CREATE/ALTER TABLE
/// resolve a schema without asking the connector, as Flink does).
enum class MetadataKeys { kCheck, kDeclared };

/// The plan that reads a catalog table (not a view) through its connector: a scan of the
/// physical columns, with a projection computing the computed columns when there are some
/// (bound in `context`: the session's time zone applies to them as to the query reading them).
LogicalNodePtr planTableScan(const catalog::CatalogManager& catalogManager,
                             const catalog::CatalogBaseTable& table, const std::string& tableName,
                             MetadataKeys keyCheck = MetadataKeys::kCheck,
                             const function::BindingContext& context = {});

/// What `scan`'s connector is told about its table (the job's mode: `streaming`).
connectors::ConnectorContext connectorContextOf(const LogicalTableScan& scan,
                                                bool streaming = true);

}  // namespace eddy::sql
