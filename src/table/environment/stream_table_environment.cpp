#include "eddy/table/stream_table_environment.h"

#include <algorithm>
#include <cctype>

#include "catalog/catalog_manager.h"
#include "eddy/exceptions.h"
#include "runtime/operators/chunk_exchange.h"
#include "sql/binder/binder.h"
#include "sql/optimizer/optimizer.h"
#include "sql/physical/translator.h"
#include "sql/planner/logical_node.h"
#include "sql/planner/plan_sink.h"
#include "sql/planner/plan_table_scan.h"
#include "table/environment/table_environment_impl.h"

namespace eddy {

namespace {

using BoundPtr = expression::ExpressionPtr;
using sql::logicalTypeOf;
using table::TableInternals;

/// The table's plan as the optimizer leaves it (what decides whether its rows update).
sql::LogicalNodePtr optimizedPlanOf(const table::TableEnvironmentImpl& session,
                                    const Table& table) {
  sql::TranslationSettings translation;
  session.configureTranslation(translation);
  return sql::optimize(TableInternals::planOf(table), translation.optimizer);
}

std::string joinNames(const std::vector<RowField>& fields) {
  std::string text;
  for (const RowField& field : fields) text += (text.empty() ? "" : ", ") + field.name;
  return text;
}

bool isSourceWatermark(const std::string& expression) {
  std::string compact;
  for (char c : expression) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      compact += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  return compact == "SOURCE_WATERMARK()";
}

/// The columns a stream's type gives (Flink's SchemaTranslator: an atomic type is `f0`, a
/// ROW or tuple its fields); empty for a Row of unknown fields.
std::vector<RowField> derivedColumns(const TypeInformation& type, const std::string& rawTypeName) {
  if (!rawTypeName.empty()) {
    return {RowField{"f0", DataTypes::RAW(rawTypeName, "").getLogicalType(), std::nullopt}};
  }
  if (type.getKind() != TypeInformation::Kind::ROW &&
      type.getKind() != TypeInformation::Kind::TUPLE) {
    return {RowField{"f0", type.toDataType().getLogicalType(), std::nullopt}};
  }
  std::vector<RowField> fields;
  if (!type.hasKnownFields()) return fields;
  const auto& names = type.getFieldNames();
  const auto& types = type.getFieldTypes();
  for (size_t i = 0; i < types.size(); ++i) {
    std::string name = i < names.size() ? names[i] : "f" + std::to_string(i);
    fields.push_back(RowField{name, types[i].toDataType().getLogicalType(), std::nullopt});
  }
  return fields;
}

/// The TypeInformation of a table's row type (toDataStream's records): Flink's
/// ExternalTypeInfo, as far as TypeInformation can say it.
TypeInformation typeInformationOf(const LogicalType& rowType) {
  std::vector<std::string> names;
  std::vector<TypeInformation> types;
  for (const RowField& field : rowType.getFields()) {
    names.push_back(field.name);
    switch (field.type->getTypeRoot()) {
      case LogicalTypeRoot::CHAR:
      case LogicalTypeRoot::VARCHAR:
        types.push_back(Types::STRING);
        break;
      case LogicalTypeRoot::BOOLEAN:
        types.push_back(Types::BOOLEAN);
        break;
      case LogicalTypeRoot::TINYINT:
        types.push_back(Types::BYTE);
        break;
      case LogicalTypeRoot::SMALLINT:
        types.push_back(Types::SHORT);
        break;
      case LogicalTypeRoot::INTEGER:
        types.push_back(Types::INT);
        break;
      case LogicalTypeRoot::BIGINT:
        types.push_back(Types::LONG);
        break;
      case LogicalTypeRoot::FLOAT:
        types.push_back(Types::FLOAT);
        break;
      case LogicalTypeRoot::DOUBLE:
        types.push_back(Types::DOUBLE);
        break;
      case LogicalTypeRoot::DECIMAL:
        types.push_back(Types::BIG_DEC);
        break;
      case LogicalTypeRoot::DATE:
        types.push_back(Types::LOCAL_DATE);
        break;
      case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
        types.push_back(Types::LOCAL_TIME);
        break;
      case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
        types.push_back(Types::LOCAL_DATE_TIME);
        break;
      case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        types.push_back(Types::INSTANT);
        break;
      default:
        types.push_back(Types::GENERIC(field.type->asSummaryString()));
        break;
    }
  }
  return Types::ROW_NAMED(std::move(names), std::move(types));
}

std::string metadataClause(const Schema::MetadataColumn& column) {
  std::string text = "METADATA";
  if (column.metadataKey && *column.metadataKey != column.name) {
    text += " FROM '" + *column.metadataKey + "'";
  }
  if (column.isVirtual) text += " VIRTUAL";
  return text;
}

/// The columns of a DataStream read as a table: those its type derives (none when unknown, or
/// when the declared physical columns meet default-named fields by position), the physical
/// columns the schema declares, and the metadata column of the record timestamp, if declared.
struct StreamColumns {
  std::vector<RowField> derived;
  std::vector<const Schema::PhysicalColumn*> declaredPhysical;
  const Schema::MetadataColumn* rowtimeMetadata = nullptr;
};

/// The stream's own columns, and those the schema declares (`method`: the API call, for
/// messages).
StreamColumns streamColumnsOf(const TypeInformation& type, const std::string& rawTypeName,
                              const Schema& declared, const char* method) {
  std::vector<RowField> derived = derivedColumns(type, rawTypeName);
  std::vector<const Schema::PhysicalColumn*> declaredPhysical;
  const Schema::MetadataColumn* rowtimeMetadata = nullptr;
  for (const Schema::Column& column : declared.getColumns()) {
    if (const auto* physical = std::get_if<Schema::PhysicalColumn>(&column)) {
      declaredPhysical.push_back(physical);
    } else if (const auto* metadata = std::get_if<Schema::MetadataColumn>(&column)) {
      std::string key = metadata->metadataKey.value_or(metadata->name);
      if (key != "rowtime") {
        throw ValidationException("Invalid metadata key '" + key + "' in column '" +
                                  metadata->name + "' of " + method +
                                  "(). A DataStream offers the metadata keys: [rowtime]");
      }
      if (rowtimeMetadata) {
        throw ValidationException("The metadata key 'rowtime' is declared twice in the schema of " +
                                  std::string(method) + "()");
      }
      rowtimeMetadata = metadata;
    }
  }
  if (derived.empty() && declaredPhysical.empty()) {
    throw ValidationException(
        std::string("Cannot derive the columns of a DataStream<Row> whose field types are "
                    "unknown. Declare them with DataStream::returns(Types::ROW_NAMED(...)) or with "
                    "physical columns in the Schema given to ") +
        method + "().");
  }

  // Rows whose fields have only the default names f0, f1, ... (fromElements(Row.of(...)))
  // meet declared physical columns by position when the names do not match and the counts do
  // (the mixed-pipeline template of seed 002 relies on it).
  if (!derived.empty() && declaredPhysical.size() == derived.size() &&
      (type.getKind() == TypeInformation::Kind::ROW ||
       type.getKind() == TypeInformation::Kind::TUPLE)) {
    bool defaultNames = true;
    bool anyMatch = false;
    for (size_t i = 0; i < derived.size(); ++i) {
      defaultNames = defaultNames && derived[i].name == "f" + std::to_string(i);
      anyMatch = anyMatch || std::any_of(declaredPhysical.begin(), declaredPhysical.end(),
                                         [&](const auto* physical) {
                                           return physical->name == derived[i].name;
                                         });
    }
    if (defaultNames && !anyMatch) derived.clear();
  }
  return StreamColumns{std::move(derived), std::move(declaredPhysical), rowtimeMetadata};
}

/// The scan's physical fields: the stream's fields (by position), or the declared ones.
std::vector<RowField> physicalScanFields(const StreamColumns& stream) {
  const std::vector<RowField>& derived = stream.derived;
  const std::vector<const Schema::PhysicalColumn*>& declaredPhysical = stream.declaredPhysical;
  std::vector<RowField> scanFields;
  if (derived.empty()) {
    for (const auto* physical : declaredPhysical) {
      scanFields.push_back(RowField{physical->name, logicalTypeOf(physical->type), std::nullopt});
    }
  } else {
    scanFields = derived;
    for (const auto* physical : declaredPhysical) {
      bool found = std::any_of(derived.begin(), derived.end(),
                               [&](const RowField& field) { return field.name == physical->name; });
      if (!found) {
        throw ValidationException(
            "Unable to find a field named '" + physical->name +
            "' in the physical data type derived from the given type information for schema "
            "declaration. Make sure that the type information is not a generic raw type. "
            "Currently available fields are: [" +
            joinNames(derived) + "]");
      }
    }
  }
  return scanFields;
}

/// The table's columns over the scan: each one's expression, name and resolved column.
struct TableColumns {
  std::vector<BoundPtr> projection;
  std::vector<std::string> names;
  std::vector<ResolvedSchema::Column> columns;
  bool reordered = false;  // the declared physical columns are not the derived ones in order
};

/// The table's columns: all derived ones then the declared non-physical ones, or, when the
/// schema declares physical columns, the declared columns in their order.
TableColumns tableColumnsOf(sql::Binder& binder, const Schema& declared,
                            const StreamColumns& stream, const std::vector<RowField>& scanFields,
                            int fieldCount, const char* method) {
  const std::vector<RowField>& derived = stream.derived;
  const std::vector<const Schema::PhysicalColumn*>& declaredPhysical = stream.declaredPhysical;
  TableColumns table;
  std::vector<BoundPtr>& projection = table.projection;
  std::vector<std::string>& names = table.names;
  std::vector<ResolvedSchema::Column>& columns = table.columns;
  auto scanColumn = [&](const std::string& name) -> BoundPtr {
    for (size_t i = 0; i < scanFields.size(); ++i) {
      if (scanFields[i].name == name)
        return expression::column(static_cast<int>(i), scanFields[i].type);
    }
    throw InternalError("no scan column " + name);
  };
  auto addColumn = [&](const std::string& name, BoundPtr expression,
                       std::optional<std::string> extra) {
    for (const std::string& existing : names) {
      if (existing == name) {
        throw ValidationException("The column '" + name + "' is declared twice in the schema of " +
                                  std::string(method) + "()");
      }
    }
    names.push_back(name);
    columns.push_back(ResolvedSchema::Column{name, DataType(expression->type()), std::move(extra)});
    projection.push_back(std::move(expression));
  };
  auto addDeclared = [&](const Schema::Column& column) {
    if (const auto* physical = std::get_if<Schema::PhysicalColumn>(&column)) {
      BoundPtr read = scanColumn(physical->name);
      LogicalTypePtr type = logicalTypeOf(physical->type);
      if (read->type()->getTypeRoot() == LogicalTypeRoot::RAW) {
        // Records eddy cannot look into, declared with a richer type: shown, never read (the
        // translator rejects the plan).
        read = expression::column(static_cast<const expression::ColumnReference&>(*read).index(),
                                  type);
      }
      addColumn(physical->name, expression::castIfNeeded(read, type), std::nullopt);
    } else if (const auto* metadata = std::get_if<Schema::MetadataColumn>(&column)) {
      addColumn(metadata->name,
                expression::castIfNeeded(scanColumn(metadata->name), logicalTypeOf(metadata->type)),
                metadataClause(*metadata));
    } else {
      const auto& computed = std::get<Schema::ComputedColumn>(column);
      BoundPtr bound;
      try {
        bound = binder.bindExpressionText(computed.expression, scanFields);
      } catch (const ValidationException& error) {
        throw ValidationException("Invalid expression for computed column '" + computed.name +
                                  "' of " + method + "(): " + sql::withoutSqlPosition(error));
      }
      addColumn(computed.name, std::move(bound), "AS " + computed.expression);
    }
  };
  bool& reordered = table.reordered;
  if (declaredPhysical.empty()) {
    for (int i = 0; i < fieldCount; ++i) {
      addColumn(scanFields[i].name, expression::column(i, scanFields[i].type), std::nullopt);
    }
    for (const Schema::Column& column : declared.getColumns()) addDeclared(column);
  } else {
    for (const Schema::Column& column : declared.getColumns()) addDeclared(column);
    // Flink inserts a projection when the declared physical columns are not the derived ones
    // in their order; its printed schema then shows no watermark.
    reordered = !derived.empty() &&
                (declaredPhysical.size() != derived.size() ||
                 !std::equal(declaredPhysical.begin(), declaredPhysical.end(), derived.begin(),
                             [](const auto* physical, const RowField& field) {
                               return physical->name == field.name;
                             }));
  }
  return table;
}

/// The table's watermark: the declared one's column becomes the rowtime attribute; a declared
/// expression (not SOURCE_WATERMARK()) generates the watermarks.
struct TableWatermark {
  std::vector<ResolvedSchema::WatermarkSpec> specs;  // as the table's schema shows them
  int column = -1;                                   // the generated watermark's column ..
  BoundPtr expression;                               // .. and expression (null: none)
};

TableWatermark watermarkOf(sql::Binder& binder, const Schema& declared, TableColumns& table,
                           const char* method) {
  std::vector<BoundPtr>& projection = table.projection;
  const std::vector<std::string>& names = table.names;
  std::vector<ResolvedSchema::Column>& columns = table.columns;
  const bool reordered = table.reordered;
  TableWatermark result;
  std::vector<ResolvedSchema::WatermarkSpec>& watermarks = result.specs;
  if (declared.getWatermarkSpecs().size() > 1) {
    throw ValidationException("Multiple watermark definitions are not supported yet.");
  }
  int& watermarkColumn = result.column;
  BoundPtr& watermarkExpression = result.expression;
  for (const Schema::WatermarkSpec& watermark : declared.getWatermarkSpecs()) {
    auto position = std::find(names.begin(), names.end(), watermark.columnName) - names.begin();
    if (position == static_cast<long>(names.size())) {
      std::string available;
      for (const std::string& name : names) available += (available.empty() ? "" : ", ") + name;
      throw ValidationException("Invalid column name '" + watermark.columnName +
                                "' for rowtime attribute in watermark declaration. Available "
                                "columns are: [" +
                                available + "]");
    }
    const LogicalType& timeType = *projection[position]->type();
    sql::checkWatermarkTypes(timeType, nullptr);
    if (!isSourceWatermark(watermark.expression)) {
      std::vector<RowField> tableFields;
      for (size_t i = 0; i < names.size(); ++i) {
        tableFields.push_back(RowField{names[i], projection[i]->type(), std::nullopt});
      }
      BoundPtr bound;
      try {
        bound = binder.bindExpressionText(watermark.expression, tableFields);
      } catch (const ValidationException& error) {
        throw ValidationException("Invalid expression for watermark '" + watermark.expression +
                                  "' of " + method + "(): " + error.what());
      }
      sql::checkWatermarkTypes(timeType, bound->type().get());
      watermarkColumn = static_cast<int>(position);
      watermarkExpression = bound;
    }
    LogicalTypePtr rowtimeType = timeType.copyWithTimestampKind(TimestampKind::ROWTIME);
    projection[position] = expression::cast(projection[position], rowtimeType);
    columns[position].dataType = DataType(rowtimeType);
    if (!reordered) watermarks.push_back({watermark.columnName, watermark.expression});
  }
  return result;
}

/// The primary key (upsert mode needs one, of physical columns: the source's upsert key).
void applyPrimaryKey(const Schema& declared, const TableColumns& table, int fieldCount,
                     const char* method, sql::DataStreamSource& source) {
  const std::vector<BoundPtr>& projection = table.projection;
  const std::vector<std::string>& names = table.names;
  std::vector<int> keyColumns;
  if (const auto& key = declared.getPrimaryKey()) {
    for (const std::string& name : key->columnNames) {
      auto position = std::find(names.begin(), names.end(), name) - names.begin();
      if (position == static_cast<long>(names.size())) {
        throw ValidationException("The primary key column '" + name + "' is not a column of " +
                                  method + "()'s schema");
      }
      keyColumns.push_back(static_cast<int>(position));
    }
  }
  if (source.kinds == sql::DataStreamSource::Kinds::kUpsert) {
    if (keyColumns.empty()) {
      throw ValidationException(
          "fromChangelogStream() in upsert mode (ChangelogMode.upsert()) needs a primary key: "
          "declare one with Schema.newBuilder().primaryKey(...)");
    }
    for (int column : keyColumns) {
      const BoundPtr& expression = projection[column];
      if (expression->kind() != expression::ExpressionKind::kColumnReference ||
          static_cast<const expression::ColumnReference&>(*expression).index() >= fieldCount) {
        throw ValidationException("The primary key column '" + names[column] +
                                  "' of fromChangelogStream() must be a physical column");
      }
      source.upsertKey.push_back(
          static_cast<const expression::ColumnReference&>(*expression).index());
    }
  }
}

}  // namespace

StreamStatementSet::StreamStatementSet(StreamTableEnvironment* environment)
    : StatementSet(environment), streamEnvironment_(environment) {}

void StreamStatementSet::attachAsDataStream() {
  if (inserts_.empty()) {
    throw TableException(
        "No statement to attach. Please add an INSERT statement or a Table "
        "pipeline to the StatementSet.");
  }
  auto inserts = std::move(inserts_);
  inserts_.clear();
  TableInternals::implOf(*streamEnvironment_)
      .addInsertsTo(streamEnvironment_->environment_, inserts);
}

std::unique_ptr<StreamTableEnvironment> StreamTableEnvironment::create(
    StreamExecutionEnvironment& environment) {
  return std::make_unique<StreamTableEnvironment>(
      environment, environment.getRuntimeMode() == RuntimeExecutionMode::BATCH
                       ? EnvironmentSettings::inBatchMode()
                       : EnvironmentSettings::inStreamingMode());
}

std::unique_ptr<StreamTableEnvironment> StreamTableEnvironment::create(
    StreamExecutionEnvironment& environment, const EnvironmentSettings& settings) {
  return std::make_unique<StreamTableEnvironment>(environment, settings);
}

StreamTableEnvironment::StreamTableEnvironment(StreamExecutionEnvironment& environment,
                                               const EnvironmentSettings& settings)
    : TableEnvironment(settings), environment_(environment) {
  // An explicit batch mode propagates to the environment, as in Flink.
  if (!settings.isStreamingMode()) environment.setRuntimeMode(RuntimeExecutionMode::BATCH);
  TableInternals::implOf(*this).streamEnvironment_ = &environment;
}

Table StreamTableEnvironment::fromRows(const DataStream<Row>& rows, const TypeInformation& type,
                                       const Schema* schema, const ChangelogMode& mode,
                                       const std::string& rawTypeName) {
  if (&rows.getExecutionEnvironment() != &environment_) {
    throw ValidationException(
        "The DataStream belongs to another StreamExecutionEnvironment than this "
        "StreamTableEnvironment.");
  }
  const bool changelog = !mode.isInsertOnly();
  const char* method = changelog ? "fromChangelogStream" : "fromDataStream";
  static const Schema kDerived = Schema::derived();
  const Schema& declared = schema ? *schema : kDerived;

  StreamColumns stream = streamColumnsOf(type, rawTypeName, declared, method);
  const Schema::MetadataColumn* rowtimeMetadata = stream.rowtimeMetadata;

  // The scan: the stream's fields (by position), then the record timestamp when declared.
  std::vector<RowField> scanFields = physicalScanFields(stream);
  const int fieldCount = static_cast<int>(scanFields.size());
  if (rowtimeMetadata) {
    for (const RowField& field : scanFields) {
      if (field.name == rowtimeMetadata->name) {
        throw ValidationException("The metadata column '" + field.name +
                                  "' has the name of a physical column of the DataStream");
      }
    }
    scanFields.push_back(RowField{rowtimeMetadata->name,
                                  LogicalType::localZonedTimestamp(3, TimestampKind::REGULAR, true),
                                  std::nullopt});
  }
  auto source = std::make_shared<sql::DataStreamSource>();
  source->environment = &environment_;
  source->transformation = &rows.getTransformation();
  source->name = "*anonymous_datastream_source$" + std::to_string(++anonymousStreams_) + "*";
  source->kinds = !changelog        ? sql::DataStreamSource::Kinds::kInsertOnly
                  : mode.isUpsert() ? sql::DataStreamSource::Kinds::kUpsert
                                    : sql::DataStreamSource::Kinds::kAll;
  source->fieldCount = fieldCount;
  source->rowtimeColumn = rowtimeMetadata != nullptr;
  if (!rawTypeName.empty()) source->unreadableType = stream.derived.front().type->asSummaryString();
  LogicalTypePtr scanType = LogicalType::row(scanFields, false);

  table::TableEnvironmentImpl& session = TableInternals::implOf(*this);
  sql::Binder binder(session.catalogManager(), session.bindingContext());
  TableColumns table = tableColumnsOf(binder, declared, stream, scanFields, fieldCount, method);
  TableWatermark watermark = watermarkOf(binder, declared, table, method);
  applyPrimaryKey(declared, table, fieldCount, method, *source);
  std::vector<BoundPtr>& projection = table.projection;
  const std::vector<std::string>& names = table.names;

  sql::LogicalNodePtr plan =
      std::make_shared<sql::LogicalDataStreamScan>(std::move(source), scanType);
  bool identity = static_cast<int>(projection.size()) == scanType->getFieldCount();
  for (size_t i = 0; identity && i < projection.size(); ++i) {
    identity = projection[i]->kind() == expression::ExpressionKind::kColumnReference &&
               static_cast<const expression::ColumnReference&>(*projection[i]).index() ==
                   static_cast<int>(i) &&
               names[i] == scanFields[i].name && *projection[i]->type() == *scanFields[i].type;
  }
  if (!identity) plan = std::make_shared<sql::LogicalProject>(plan, std::move(projection), names);
  if (watermark.expression) {
    plan = std::make_shared<sql::LogicalWatermarkAssigner>(plan, watermark.column,
                                                           std::move(watermark.expression));
  }
  return TableInternals::newTable(
      this, std::move(plan), ResolvedSchema(std::move(table.columns), std::move(watermark.specs)));
}

Table StreamTableEnvironment::fromChangelogStream(const DataStream<Row>& stream) {
  return fromRows(stream, stream.getType(), nullptr, ChangelogMode::all(), "");
}

Table StreamTableEnvironment::fromChangelogStream(const DataStream<Row>& stream,
                                                  const Schema& schema) {
  return fromRows(stream, stream.getType(), &schema, ChangelogMode::all(), "");
}

Table StreamTableEnvironment::fromChangelogStream(const DataStream<Row>& stream,
                                                  const Schema& schema, const ChangelogMode& mode) {
  return fromRows(stream, stream.getType(), &schema, mode, "");
}

DataStream<Row> StreamTableEnvironment::toRows(const Table& table, bool upsert,
                                               const std::vector<int>* primaryKey) {
  if (table.environment() != this) {
    throw ValidationException(
        "Only tables that belong to this StreamTableEnvironment can be "
        "converted into a DataStream.");
  }
  const table::TableEnvironmentImpl& session = TableInternals::implOf(*this);
  sql::TranslationSettings translation;
  session.configureTranslation(translation);
  const sql::LogicalNodePtr optimized =
      sql::optimize(TableInternals::planOf(table), translation.optimizer);
  DataStream<vector::Chunk> chunks =
      sql::translateOptimizedPlan(optimized, environment_, translation);
  if (primaryKey != nullptr && session.isStreaming()) {
    if (sql::needsUpsertMaterializer(*optimized, *primaryKey, translation.upsertMaterialize)) {
      chunks =
          sql::materializeUpserts(chunks, sql::upsertMaterializerSpec(*optimized, *primaryKey));
    }
  }
  // A single rowtime attribute becomes the records' timestamp.
  int rowtime = -1;
  const auto& fields = TableInternals::planOf(table)->rowType->getFields();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].type->getTimestampKind() == TimestampKind::ROWTIME) {
      rowtime = rowtime == -1 ? static_cast<int>(i) : -2;
    }
  }
  rowtime = std::max(rowtime, -1);
  DataStream<Row> rows = chunks.transform<Row>(
      "TableToDataStream", std::make_shared<runtime::LambdaOperatorFactory>([rowtime] {
        return std::make_unique<runtime::operators::ChunkToRowsOperator>(rowtime);
      }));
  rows.setParallelism(chunks.getParallelism());
  if (upsert) {
    rows = rows.filter([](const Row& row) { return row.getKind() != RowKind::UPDATE_BEFORE; })
               .name("DropUpdateBefore")
               .setParallelism(chunks.getParallelism());
  }
  rows.returns(typeInformationOf(*TableInternals::planOf(table)->rowType));
  return rows;
}

DataStream<Row> StreamTableEnvironment::toDataStream(const Table& table) {
  // Whether the rows update is a property of the optimized plan (a keep-first deduplication
  // is insert-only once the filter on its row number is the Rank's range).
  const table::TableEnvironmentImpl& session = TableInternals::implOf(*this);
  if (sql::LogicalNodePtr optimized = optimizedPlanOf(session, table);
      session.isStreaming() && optimized->changelogMode != sql::ChangelogMode::kInsertOnly) {
    throw TableException("Table sink '*anonymous_datastream_sink$" +
                         std::to_string(++anonymousSinks_) +
                         "*' doesn't support consuming update changes which is produced by node " +
                         sql::updateProducer(*optimized).describe() +
                         ". Use toChangelogStream() to convert a table with updates into a "
                         "DataStream.");
  }
  return toRows(table, false);
}

void StreamTableEnvironment::checkTargetColumns(const Table& table,
                                                const std::vector<std::string>& fieldNames,
                                                const std::string& typeName) const {
  const auto& fields = TableInternals::planOf(table)->rowType->getFields();
  if (fieldNames.empty()) {
    if (fields.size() != 1) {
      throw ValidationException("toDataStream() into the atomic type " + typeName +
                                " needs a table of one column, but the table has " +
                                std::to_string(fields.size()) + ": [" + joinNames(fields) + "]");
    }
    return;
  }
  for (const std::string& name : fieldNames) {
    bool found = std::any_of(fields.begin(), fields.end(),
                             [&](const RowField& field) { return field.name == name; });
    if (!found) {
      throw ValidationException("toDataStream() into " + typeName + ": the field '" + name +
                                "' has no column of its name in the table [" + joinNames(fields) +
                                "]");
    }
  }
}

DataStream<Row> StreamTableEnvironment::toChangelogStream(const Table& table) {
  return toRows(table, false);
}

DataStream<Row> StreamTableEnvironment::toChangelogStream(const Table& table,
                                                          const Schema& targetSchema) {
  return toChangelogStream(table, targetSchema, ChangelogMode::all());
}

DataStream<Row> StreamTableEnvironment::toChangelogStream(const Table& table,
                                                          const Schema& targetSchema,
                                                          const ChangelogMode& mode) {
  // The declared physical columns must be the table's (Flink casts; eddy checks them).
  std::vector<const Schema::PhysicalColumn*> physical;
  for (const Schema::Column& column : targetSchema.getColumns()) {
    if (const auto* p = std::get_if<Schema::PhysicalColumn>(&column)) physical.push_back(p);
  }
  const auto& fields = TableInternals::planOf(table)->rowType->getFields();
  if (!physical.empty()) {
    if (physical.size() != fields.size()) {
      throw ValidationException("The schema given to toChangelogStream() declares " +
                                std::to_string(physical.size()) + " columns but the table has " +
                                std::to_string(fields.size()) + ": [" + joinNames(fields) + "]");
    }
    for (size_t i = 0; i < physical.size(); ++i) {
      LogicalTypePtr declaredType = logicalTypeOf(physical[i]->type);
      LogicalTypePtr tableType =
          fields[i].type->getTimestampKind() == TimestampKind::REGULAR
              ? fields[i].type
              : fields[i].type->copyWithTimestampKind(TimestampKind::REGULAR);
      if (physical[i]->name != fields[i].name ||
          declaredType->copy(true)->asSummaryString() != tableType->copy(true)->asSummaryString()) {
        throw ValidationException("The column " + std::to_string(i) +
                                  " of the schema given to "
                                  "toChangelogStream() is '" +
                                  physical[i]->name + "' " + declaredType->asSummaryString() +
                                  " but the table's is '" + fields[i].name + "' " +
                                  fields[i].type->asSummaryString());
      }
    }
  }
  const table::TableEnvironmentImpl& session = TableInternals::implOf(*this);
  const sql::LogicalNodePtr optimized = optimizedPlanOf(session, table);
  bool updating =
      session.isStreaming() && optimized->changelogMode != sql::ChangelogMode::kInsertOnly;
  if (mode.isInsertOnly() && updating) {
    throw TableException(
        "toChangelogStream() with ChangelogMode.insertOnly() cannot consume the "
        "update changes produced by node " +
        sql::updateProducer(*optimized).describe());
  }
  if (mode.isUpsert() && !targetSchema.getPrimaryKey()) {
    throw ValidationException(
        "toChangelogStream() in upsert mode (ChangelogMode.upsert()) needs a "
        "primary key in the schema: declare one with "
        "Schema.newBuilder().primaryKey(...)");
  }
  // The schema's primary key (columns of the table).
  std::optional<std::vector<int>> key;
  if (const auto& primaryKey = targetSchema.getPrimaryKey()) {
    key.emplace();
    for (const std::string& name : primaryKey->columnNames) {
      key->push_back(TableInternals::planOf(table)->rowType->getFieldIndex(name));
    }
    if (std::find(key->begin(), key->end(), -1) != key->end()) key.reset();
  }
  if (mode.isUpsert() && updating && key) {
    // Upserts by the primary key (Flink's ONLY_UPDATE_AFTER): where the updates are upserts by
    // exactly that key the plan emits no -U at all; otherwise toRows drops them (after the
    // materializer, where one is needed).
    // (Decided on the optimized plan; toRows optimizes the result again, which changes nothing.)
    if (auto upserts = sql::withoutUpdateBefore(optimized, key)) {
      return toRows(TableInternals::newTable(this, upserts, table.getResolvedSchema()), true);
    }
  }
  // In upsert mode through Flink's SinkUpsertMaterializer where needed (retract mode: none).
  return toRows(table, mode.isUpsert(), key && mode.isUpsert() ? &*key : nullptr);
}

DataStream<std::tuple<bool, Row>> StreamTableEnvironment::toRetractStream(const Table& table) {
  DataStream<Row> rows = toRows(table, false);
  return rows
      .map([](const Row& row) {
        bool accumulate =
            row.getKind() == RowKind::INSERT || row.getKind() == RowKind::UPDATE_AFTER;
        Row copy = row;
        copy.setKind(RowKind::INSERT);
        return std::tuple<bool, Row>(accumulate, std::move(copy));
      })
      .name("ToRetractStream")
      .setParallelism(rows.getParallelism());
}

}  // namespace eddy
