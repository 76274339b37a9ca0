#include "eddy/table/table_environment.h"

#include <fmt/format.h>

#include <functional>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

#include "catalog/catalog_manager.h"
#include "catalog/generic_in_memory_catalog.h"
#include "config/configuration_view.h"
#include "config/option_registry.h"
#include "config/option_warnings.h"
#include "connectors/dynamic_table_factory.h"
#include "eddy/datastream/data_stream.h"
#include "eddy/exceptions.h"
#include "expression/expression_evaluator.h"
#include "formats/text_value_codec.h"
#include "function/function_registry.h"
#include "function/type_rules.h"
#include "function/user_defined_function.h"
#include "runtime/operators/aggregate/aggregate_call.h"
#include "runtime/operators/chunk_exchange.h"
#include "runtime/operators/sink/not_null_enforcer_operator.h"
#include "sql/binder/binder.h"
#include "sql/optimizer/optimizer.h"
#include "sql/parser/parser.h"
#include "sql/parser/unparse.h"
#include "sql/physical/translator.h"
#include "sql/planner/plan_table_scan.h"
#include "table/tableau_printer.h"

namespace eddy {

namespace {

JobProgress progressOf(const JobClient& client) {
  const runtime::JobMetrics& metrics = client.getMetrics();
  return JobProgress{metrics.numRowsRead.load(), metrics.numRowsWritten.load(),
                     metrics.sinkWatermark()};
}

/// Counts the rows that reach a table sink and reports the watermark passed on to it (the job's
/// progress, JobProgress); forwards everything unchanged. Chained before each INSERT's sink and
/// before a query's result conversion.
class SinkInputMetricsOperator final : public runtime::StreamOperator {
 public:
  void open(runtime::OperatorContext& context) override {
    StreamOperator::open(context);
    if (context.metrics) reporter_ = context.metrics->registerWatermarkReporter();
  }
  void processBatch(int, runtime::BatchPtr batch) override {
    if (context().metrics) context().metrics->numRowsWritten += batch->rowCount();
    output().emitBatch(std::move(batch));
  }
  void processWatermark(runtime::Watermark watermark) override {
    if (reporter_ >= 0) context().metrics->reportWatermark(reporter_, watermark.timestamp);
    output().emitWatermark(watermark);
  }

 private:
  int reporter_ = -1;
};

/// `rows` followed by a chained SinkInputMetricsOperator.
DataStream<vector::Chunk> withSinkInputMetrics(DataStream<vector::Chunk> rows) {
  DataStream<vector::Chunk> counted = rows.transform<vector::Chunk>(
      "SinkInputMetrics", std::make_shared<runtime::LambdaOperatorFactory>([] {
        return std::make_unique<SinkInputMetricsOperator>();
      }));
  counted.setParallelism(rows.getParallelism());
  return counted;
}

/// Rows of a running (or finished) job, pulled through the collect sink. Owns the job's
/// environment so that it lives as long as the rows are read.
class JobRowSource final : public table::SessionRowSource {
 public:
  JobRowSource(std::unique_ptr<StreamExecutionEnvironment> environment,
               CloseableIterator<Row> iterator, common::SessionTimeZone sessionTimeZone)
      : environment_(std::move(environment)),
        iterator_(std::move(iterator)),
        sessionTimeZone_(std::move(sessionTimeZone)) {}
  std::optional<Row> next() override {
    if (!iterator_.hasNext()) return std::nullopt;
    return iterator_.next();
  }
  void close() override { iterator_.close(); }
  void cancel() override { iterator_.cancel(); }
  const common::SessionTimeZone& sessionTimeZone() const override { return sessionTimeZone_; }
  int64_t numLateRecordsDropped() const override {
    return iterator_.getJobClient().getNumLateRecordsDropped();
  }
  JobProgress progress() const override { return progressOf(iterator_.getJobClient()); }

 private:
  std::unique_ptr<StreamExecutionEnvironment> environment_;
  CloseableIterator<Row> iterator_;
  common::SessionTimeZone sessionTimeZone_;
};

/// The result of INSERT statements: one row (-1, as Flink reports an unknown count) per sink;
/// reading past it waits until the job has finished (so await() waits for the job).
class InsertRowSource final : public RowSource {
 public:
  InsertRowSource(std::unique_ptr<StreamExecutionEnvironment> environment, JobClient client,
                  int sinkCount)
      : environment_(std::move(environment)), client_(std::move(client)), sinkCount_(sinkCount) {}
  std::optional<Row> next() override {
    if (!returned_) {
      returned_ = true;
      Row row(sinkCount_);
      for (int i = 0; i < sinkCount_; ++i) row.setField(i, int64_t{-1});
      return row;
    }
    if (!finished_) {
      finished_ = true;
      client_.waitForCompletion();
    }
    return std::nullopt;
  }
  int64_t numLateRecordsDropped() const override { return client_.getNumLateRecordsDropped(); }
  int64_t numNotNullRowsDropped() const override {
    return client_.getMetrics().numNotNullRowsDropped.load();
  }
  /// Stops the job (the interactive client's Ctrl-C); a waiting next() returns.
  void cancel() override { client_.cancel(); }
  JobProgress progress() const override { return progressOf(client_); }

 private:
  std::unique_ptr<StreamExecutionEnvironment> environment_;
  JobClient client_;
  int sinkCount_;
  bool returned_ = false;
  bool finished_ = false;
};

std::string describeColumns(const LogicalType& rowType) {
  std::string text = "[";
  const auto& fields = rowType.getFields();
  for (size_t i = 0; i < fields.size(); ++i) {
    text += (i ? ", " : "") + fields[i].name + ": " + fields[i].type->asSummaryString();
  }
  return text + "]";
}

ResolvedSchema singleColumn(const std::string& name) {
  return ResolvedSchema({ResolvedSchema::Column{name, DataTypes::STRING().notNull(), std::nullopt}});
}

TableResult listing(const std::string& column, const std::vector<std::string>& names) {
  std::vector<Row> rows;
  for (const std::string& name : names) rows.push_back(Row::of(name));
  return TableResult::ofRows(singleColumn(column), std::move(rows));
}

/// SQL LIKE for SHOW ... LIKE (only % and _).
bool likeMatches(const std::string& text, const std::string& pattern) {
  std::string regex;
  for (char c : pattern) {
    if (c == '%') {
      regex += ".*";
    } else if (c == '_') {
      regex += ".";
    } else if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) {
      regex += std::string("\\") + c;
    } else {
      regex += c;
    }
  }
  return std::regex_match(text, std::regex(regex));
}

catalog::CatalogBaseTable viewOf(const std::string& query, const sql::LogicalNode& plan) {
  catalog::CatalogBaseTable view;
  view.kind = catalog::CatalogBaseTable::Kind::VIEW;
  view.originalQuery = query;
  view.expandedQuery = query;
  Schema::Builder builder = Schema::newBuilder();
  for (const RowField& field : plan.rowType->getFields()) builder.column(field.name, DataType(field.type));
  view.schema = builder.build();
  return view;
}

/// Flink's DESCRIBE (and SHOW COLUMNS): one row per column with its type, nullability, key,
/// extras and watermark; `keep` selects the columns by name.
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

/// Adds a column of CREATE TABLE or ALTER TABLE ADD to a schema.
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

/// The watermarks and the primary key of a CREATE TABLE or ALTER TABLE ADD.
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

/// Whether SQL text `text` names `column` (as a plain or backquoted identifier).
bool mentionsColumn(const std::string& text, const std::string& column) {
  auto identifierCharacter = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
  };
  for (size_t at = text.find(column); at != std::string::npos; at = text.find(column, at + 1)) {
    const bool startsWord = at == 0 || !identifierCharacter(text[at - 1]);
    const size_t end = at + column.size();
    const bool endsWord = end == text.size() || !identifierCharacter(text[end]);
    if (startsWord && endsWord) return true;
  }
  return false;
}

void addSchemaColumn(Schema::Builder& builder, const Schema::Column& column);

/// An ALTER TABLE change of a schema's columns and constraints.
struct SchemaChange {
  std::set<std::string> dropped{};  // columns
  std::string renamedFrom{};        // a column's old name (empty: none) ..
  std::string renamedTo{};          // .. and its new one
  bool dropWatermarks = false;
  bool dropPrimaryKey = false;

  std::string nameOf(const std::string& column) const {
    return column == renamedFrom ? renamedTo : column;
  }
};

/// `text` (SQL as the schema keeps it, identifiers backquoted) with `from` renamed to `to`.
std::string renameInSql(const std::string& text, const std::string& from, const std::string& to) {
  const std::string quoted = "`" + from + "`";
  std::string result;
  size_t at = 0;
  for (size_t next; (next = text.find(quoted, at)) != std::string::npos; at = next + quoted.size()) {
    result += text.substr(at, next - at) + "`" + to + "`";
  }
  return result + text.substr(at);
}

/// `schema` with `change` applied: dropped columns left out, the renamed column (and the
/// watermark of a renamed rowtime column) under its new name; a renamed metadata column keeps
/// its metadata key.
Schema changedSchema(const Schema& schema, const SchemaChange& change) {
  Schema::Builder builder = Schema::newBuilder();
  for (const Schema::Column& column : schema.getColumns()) {
    const std::string& name = Schema::columnName(column);
    if (change.dropped.count(name)) continue;
    Schema::Column renamed = column;
    std::visit(
        [&](auto& c) {
          c.name = change.nameOf(name);
          if constexpr (std::is_same_v<std::decay_t<decltype(c)>, Schema::MetadataColumn>) {
            if (!c.metadataKey && c.name != name) c.metadataKey = name;  // the key stays
          }
        },
        renamed);
    addSchemaColumn(builder, renamed);
  }
  if (!change.dropWatermarks) {
    for (const auto& watermark : schema.getWatermarkSpecs()) {
      builder.watermark(change.nameOf(watermark.columnName),
                        change.renamedFrom.empty()
                            ? watermark.expression
                            : renameInSql(watermark.expression, change.renamedFrom, change.renamedTo));
    }
  }
  if (!change.dropPrimaryKey && schema.getPrimaryKey()) {
    std::vector<std::string> columns;
    for (const std::string& column : schema.getPrimaryKey()->columnNames) {
      columns.push_back(change.nameOf(column));
    }
    builder.primaryKeyNamed(schema.getPrimaryKey()->constraintName, columns);
  }
  return builder.build();
}

/// ALTER TABLE ADD or MODIFY (Flink's AlterSchemaConverter): an added column goes to the end,
/// a modified one keeps its place, unless `FIRST` or `AFTER column` says otherwise; a watermark
/// or a primary key is added where the table has none and modified where it has one.
Schema alteredSchema(const Schema& schema, const sql::AlterTableStatement& alter) {
  const bool modify = alter.action == sql::AlterTableAction::kModify;
  std::vector<Schema::Column> columns = schema.getColumns();
  auto find = [&](const std::string& name) {
    return std::find_if(columns.begin(), columns.end(), [&](const Schema::Column& column) {
      return Schema::columnName(column) == name;
    });
  };
  std::set<std::string> listed;
  for (const sql::TableColumn& column : alter.columns) {
    if (!listed.insert(column.name).second) {
      throw ValidationException("Encounter duplicate column `" + column.name + "`.");
    }
  }
  for (const sql::TableColumn& column : alter.columns) {
    Schema::Builder single = Schema::newBuilder();
    addColumn(single, column);
    Schema::Column altered = single.build().getColumns().front();
    auto existing = find(column.name);
    size_t at = columns.size();
    if (modify) {
      if (existing == columns.end()) {
        throw ValidationException("Try to modify a column `" + column.name +
                                  "` which does not exist in the table.");
      }
      at = existing - columns.begin();
      columns.erase(existing);
    } else if (existing != columns.end()) {
      throw ValidationException("Try to add a column `" + column.name +
                                "` which already exists in the table.");
    }
    if (column.placement == sql::TableColumn::Placement::kFirst) {
      at = 0;
    } else if (column.placement == sql::TableColumn::Placement::kAfter) {
      auto after = find(column.afterColumn);
      if (after == columns.end()) {
        throw ValidationException("Referenced column `" + column.afterColumn +
                                  "` by 'AFTER' does not exist in the table.");
      }
      at = after - columns.begin() + 1;
    }
    columns.insert(columns.begin() + static_cast<long>(at), std::move(altered));
  }
  const auto& watermarks = schema.getWatermarkSpecs();
  if (!alter.watermarks.empty() && !modify && !watermarks.empty()) {
    throw ValidationException("The base table has already defined the watermark strategy `" +
                              watermarks.front().columnName + "` AS " +
                              watermarks.front().expression +
                              ". You might want to drop it before adding a new one.");
  }
  if (!alter.watermarks.empty() && modify && watermarks.empty()) {
    throw ValidationException("The base table does not define any watermark strategy. You might "
                              "want to add a new one.");
  }
  const auto& primaryKey = schema.getPrimaryKey();
  if (alter.primaryKey && !modify && primaryKey) {
    std::vector<std::string> quoted;
    for (const std::string& column : primaryKey->columnNames) quoted.push_back("`" + column + "`");
    throw ValidationException(fmt::format(
        "The base table has already defined the primary key constraint [{}]. You might want to "
        "drop it before adding a new one.",
        fmt::join(quoted, ", ")));
  }
  if (alter.primaryKey && modify && !primaryKey) {
    throw ValidationException("The base table does not define any primary key constraint. You "
                              "might want to add a new one.");
  }
  Schema::Builder builder = Schema::newBuilder();
  for (const Schema::Column& column : columns) addSchemaColumn(builder, column);
  if (alter.watermarks.empty()) {
    for (const auto& watermark : watermarks) builder.watermark(watermark.columnName, watermark.expression);
  }
  if (!alter.primaryKey && primaryKey) {
    builder.primaryKeyNamed(primaryKey->constraintName, primaryKey->columnNames);
  }
  addConstraints(builder, alter.watermarks, alter.primaryKey);
  return builder.build();
}

/// Throws unless the primary key's and the partition keys' columns of `table` are physical
/// columns (Flink's schema resolution and SqlCreateTableConverter checks and messages).
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

/// Throws when `column` of `table` may not be dropped or renamed: a partition key, read by a
/// computed column (other than those in `alsoDropped`) or by a watermark expression other than
/// its own (`renaming`: the rowtime column's own watermark follows it; dropping: it is read).
void checkColumnIsFree(const catalog::CatalogBaseTable& table, const std::string& column,
                       const std::set<std::string>& alsoDropped, bool renaming) {
  if (std::find(table.partitionKeys.begin(), table.partitionKeys.end(), column) !=
      table.partitionKeys.end()) {
    throw ValidationException("The column `" + column + "` is used as the partition keys.");
  }
  for (const Schema::Column& other : table.schema.getColumns()) {
    const auto* computed = std::get_if<Schema::ComputedColumn>(&other);
    if (computed && !alsoDropped.count(computed->name) &&
        mentionsColumn(computed->expression, column)) {
      throw ValidationException("The column `" + column + "` is referenced by the computed column `" +
                                computed->name + "` AS " + computed->expression + ".");
    }
  }
  for (const auto& watermark : table.schema.getWatermarkSpecs()) {
    const bool own = watermark.columnName == column;
    if ((own && !renaming) || (!own && mentionsColumn(watermark.expression, column))) {
      throw ValidationException("The column `" + column +
                                "` is referenced by the watermark expression `" +
                                watermark.columnName + "` AS " + watermark.expression + ".");
    }
  }
}

/// CREATE TABLE .. AS SELECT (Flink's FLIP-463): the table's columns are the declared columns
/// the query does not produce, first and in declaration order, then the query's columns in the
/// query's order (time attributes as plain timestamps), a declared type replacing the query's
/// (the query's value is implicitly cast to it); watermarks, the primary key and the partition
/// keys refer to any of them. Returns the table and the query projected onto its physical
/// columns (NULL for declared columns the query does not produce). Everything is checked here,
/// before the table exists.
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
    const bool timeAttribute = type->getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE ||
                               type->getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    builder.column(field.name, DataType(timeAttribute
                                            ? type->copyWithTimestampKind(TimestampKind::REGULAR)
                                            : type));
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
        throw ValidationException(fmt::format("SQL validation failed. From line {}, column {}: {}",
                                              column.position.line, column.position.column,
                                              message));
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
      if (!listed.insert(column.name).second) failAt("Column '" + column.name + "' is listed twice");
      queryColumn(builder, queryFields[static_cast<size_t>(index)]);
    }
    if (listed.size() != queryFields.size()) {
      const sql::TableColumn& first = create.columns.front();
      throw ValidationException(fmt::format(
          "SQL validation failed. From line {}, column {}: The column list names {} of the "
          "query's {} columns; it must name each once",
          first.position.line, first.position.column, listed.size(), queryFields.size()));
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
      throw ValidationException(fmt::format(
          "SQL validation failed. From line {}, column {}: A column named '{}' already exists in "
          "the source schema. Computed and metadata columns cannot overwrite regular columns.",
          column->position.line, column->position.column, column->name));
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

/// Adds `column` (of a built Schema) to `builder`, comment included.
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

/// CREATE TABLE .. LIKE base: the new table's columns, watermarks, key, partitions and options
/// merged with the base table's as Flink's MergeTableLikeUtil does (default strategies:
/// INCLUDING ALL OVERWRITING OPTIONS; the physical columns always come from the base table,
/// the new columns after them).
catalog::CatalogBaseTable mergeLike(const sql::CreateTableStatement& create,
                                    const catalog::CatalogBaseTable& base,
                                    const std::string& baseName) {
  using Strategy = sql::LikeStrategy;
  using Feature = sql::LikeFeature;
  if (base.kind != catalog::CatalogBaseTable::Kind::TABLE) {
    throw ValidationException("Source table '" + baseName + "' of the LIKE clause can not be a VIEW");
  }
  std::map<Feature, Strategy> strategy = {
      {Feature::kConstraints, Strategy::kIncluding}, {Feature::kGenerated, Strategy::kIncluding},
      {Feature::kMetadata, Strategy::kIncluding},    {Feature::kOptions, Strategy::kOverwriting},
      {Feature::kPartitions, Strategy::kIncluding},  {Feature::kWatermarks, Strategy::kIncluding}};
  auto featureName = [](Feature feature) -> std::string {
    switch (feature) {
      case Feature::kAll: return "ALL";
      case Feature::kConstraints: return "CONSTRAINTS";
      case Feature::kGenerated: return "GENERATED";
      case Feature::kMetadata: return "METADATA";
      case Feature::kOptions: return "OPTIONS";
      case Feature::kPartitions: return "PARTITIONS";
      case Feature::kWatermarks: return "WATERMARKS";
    }
    return "";
  };
  for (const sql::LikeOption& option : create.like->options) {
    if (option.strategy == Strategy::kOverwriting &&
        (option.feature == Feature::kConstraints || option.feature == Feature::kPartitions)) {
      throw ValidationException("Illegal merging strategy 'OVERWRITING' for '" +
                                featureName(option.feature) + "' option.");
    }
    if (option.feature == Feature::kAll) {
      for (auto& [feature, chosen] : strategy) {
        chosen = option.strategy == Strategy::kOverwriting &&
                         (feature == Feature::kConstraints || feature == Feature::kPartitions)
                     ? Strategy::kIncluding
                     : option.strategy;
      }
    } else {
      strategy[option.feature] = option.strategy;
    }
  }

  // Columns: the base table's (generated and metadata ones as chosen), then the new ones.
  std::vector<Schema::Column> columns;
  for (const Schema::Column& column : base.schema.getColumns()) {
    if (std::holds_alternative<Schema::ComputedColumn>(column) &&
        strategy[Feature::kGenerated] == Strategy::kExcluding) {
      continue;
    }
    if (std::holds_alternative<Schema::MetadataColumn>(column) &&
        strategy[Feature::kMetadata] == Strategy::kExcluding) {
      continue;
    }
    columns.push_back(column);
  }
  Schema::Builder own = Schema::newBuilder();
  for (const sql::TableColumn& column : create.columns) addColumn(own, column);
  const Schema ownSchema = own.build();
  for (const Schema::Column& column : ownSchema.getColumns()) {
    const std::string& name = Schema::columnName(column);
    auto existing = std::find_if(columns.begin(), columns.end(), [&](const Schema::Column& c) {
      return Schema::columnName(c) == name;
    });
    if (existing == columns.end()) {
      columns.push_back(column);
      continue;
    }
    const bool generated = std::holds_alternative<Schema::ComputedColumn>(column) &&
                           std::holds_alternative<Schema::ComputedColumn>(*existing);
    const bool metadata = std::holds_alternative<Schema::MetadataColumn>(column) &&
                          std::holds_alternative<Schema::MetadataColumn>(*existing);
    if (generated && strategy[Feature::kGenerated] == Strategy::kOverwriting) {
      *existing = column;
    } else if (metadata && strategy[Feature::kMetadata] == Strategy::kOverwriting) {
      *existing = column;
    } else if (generated) {
      throw ValidationException("A generated column named '" + name + "' already exists in the "
                                "base table. You might want to specify EXCLUDING GENERATED or "
                                "OVERWRITING GENERATED.");
    } else if (metadata) {
      throw ValidationException("A metadata column named '" + name + "' already exists in the "
                                "base table. You might want to specify EXCLUDING METADATA or "
                                "OVERWRITING METADATA.");
    } else {
      throw ValidationException("A column named '" + name + "' already exists in the base table.");
    }
  }
  Schema::Builder builder = Schema::newBuilder();
  for (const Schema::Column& column : columns) addSchemaColumn(builder, column);

  // Watermarks: the base table's unless excluded; a new one for the same column replaces it
  // only when OVERWRITING.
  std::vector<Schema::WatermarkSpec> watermarks;
  if (strategy[Feature::kWatermarks] != Strategy::kExcluding) {
    watermarks = base.schema.getWatermarkSpecs();
  }
  for (const sql::WatermarkDefinition& definition : create.watermarks) {
    Schema::WatermarkSpec spec{definition.column.back(), sql::unparse(*definition.expression)};
    auto existing = std::find_if(watermarks.begin(), watermarks.end(), [&](const auto& w) {
      return w.columnName == spec.columnName;
    });
    if (existing == watermarks.end()) {
      watermarks.push_back(std::move(spec));
    } else if (strategy[Feature::kWatermarks] == Strategy::kOverwriting) {
      *existing = std::move(spec);
    } else {
      throw ValidationException("There already exists a watermark spec for column '" +
                                spec.columnName + "' in the base table. You might want to specify "
                                "EXCLUDING WATERMARKS or OVERWRITING WATERMARKS.");
    }
  }
  for (const auto& watermark : watermarks) builder.watermark(watermark.columnName, watermark.expression);

  // The primary key and the partitions: the base table's or the new one, never both.
  const auto& baseKey = base.schema.getPrimaryKey();
  const bool keepBaseKey = baseKey && strategy[Feature::kConstraints] == Strategy::kIncluding;
  if (create.primaryKey && keepBaseKey) {
    throw ValidationException("The base table already has a primary key. You might want to "
                              "specify EXCLUDING CONSTRAINTS.");
  }
  if (create.primaryKey) {
    if (create.primaryKey->name) {
      builder.primaryKeyNamed(*create.primaryKey->name, create.primaryKey->columns);
    } else {
      builder.primaryKey(create.primaryKey->columns);
    }
  } else if (keepBaseKey) {
    builder.primaryKeyNamed(baseKey->constraintName, baseKey->columnNames);
  }
  catalog::CatalogBaseTable table;
  table.schema = builder.build();
  const bool keepBasePartitions =
      !base.partitionKeys.empty() && strategy[Feature::kPartitions] == Strategy::kIncluding;
  if (!create.partitionKeys.empty() && keepBasePartitions) {
    throw ValidationException("The base table has already defined partitions. You might want "
                              "to specify EXCLUDING PARTITIONS.");
  }
  table.partitionKeys = keepBasePartitions ? base.partitionKeys : create.partitionKeys;

  // Options: the base table's unless excluded; a key in both is an error unless OVERWRITING.
  if (strategy[Feature::kOptions] != Strategy::kExcluding) table.options = base.options;
  for (const sql::TableOption& option : create.options) {
    auto existing = table.options.find(option.key);
    if (existing != table.options.end() && strategy[Feature::kOptions] == Strategy::kIncluding) {
      throw ValidationException("There already exists an option ['" + option.key + "' -> '" +
                                existing->second + "']  in the base table. You might want to "
                                "specify EXCLUDING OPTIONS or OVERWRITING OPTIONS.");
    }
    table.options[option.key] = option.value;
  }
  table.comment = create.comment;
  return table;
}

/// Whether an option's value must not be shown (Flink's sensitive keys).
bool isSensitiveOption(const std::string& key) {
  std::string lower = key;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* word : {"password", "secret", "fs.azure.account.key", "apikey", "api-key",
                           "auth-params", "service-key", "token", "basic-auth", "jaas.config"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string quoteLiteral(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}

/// SHOW CREATE TABLE / VIEW: the DDL that makes the object, as Flink prints it (sensitive
/// option values masked).
std::string showCreate(const catalog::ObjectIdentifier& identifier,
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
            quoteLiteral(isSensitiveOption(key) ? "******" : value) +
            (++i < table.options.size() ? ",\n" : "\n");
  }
  return text + ")";
}

}  // namespace

// ---- TableEnvironment -----------------------------------------------------------------------

std::unique_ptr<TableEnvironment> TableEnvironment::create(const EnvironmentSettings& settings) {
  return std::make_unique<TableEnvironment>(settings);
}

TableEnvironment::TableEnvironment(const EnvironmentSettings& settings)
    : settings_(settings), catalogManager_(std::make_unique<catalog::CatalogManager>()) {}

TableEnvironment::~TableEnvironment() = default;

std::vector<std::string> TableEnvironment::listCatalogs() const {
  return catalogManager_->listCatalogs();
}
std::vector<std::string> TableEnvironment::listDatabases() const {
  return catalogManager_->getCatalog(catalogManager_->getCurrentCatalog()).listDatabases();
}
std::vector<std::string> TableEnvironment::listTables() const {
  return catalogManager_->listTables(catalogManager_->getCurrentCatalog(),
                                     catalogManager_->getCurrentDatabase());
}
std::string TableEnvironment::getCurrentCatalog() const {
  return catalogManager_->getCurrentCatalog();
}
std::string TableEnvironment::getCurrentDatabase() const {
  return catalogManager_->getCurrentDatabase();
}
void TableEnvironment::useCatalog(const std::string& name) {
  catalogManager_->setCurrentCatalog(name);
}
void TableEnvironment::useDatabase(const std::string& name) {
  catalogManager_->setCurrentDatabase(name);
}

namespace {

// The session plans are bound in: `table.local-time-zone` (UTC when unset or `default`),
// resolved once per statement (SET has validated the value).
function::BindingContext bindingContextOf(const std::map<std::string, std::string>& configuration) {
  auto zone = configuration.find("table.local-time-zone");
  if (zone == configuration.end()) return {};
  return function::BindingContext{common::SessionTimeZone::of(zone->second)};
}

}  // namespace

Table TableEnvironment::sqlQuery(const std::string& query) {
  sql::StatementPtr statement = sql::parseStatement(query);
  if (!statement->is<sql::QueryStatement>()) {
    throw ValidationException(
        "Unsupported SQL query! sqlQuery() only accepts a single SQL query.");
  }
  sql::Binder binder(*catalogManager_, bindingContext());
  return Table(this, binder.bindQuery(*statement->as<sql::QueryStatement>().query));
}

TableResult TableEnvironment::executePlan(const std::shared_ptr<const sql::LogicalNode>& plan) {
  sql::TranslationSettings translation;
  auto environment = newJobEnvironment(translation);
  // The result's rows and watermark count for the job's progress (JobProgress).
  DataStream<vector::Chunk> chunks =
      withSinkInputMetrics(sql::translateToDataStream(plan, *environment, translation));
  // The conversion runs at the plan's parallelism, chained (forward): a rebalance from a
  // parallelism-1 operator (a global aggregate) to more subtasks would reorder its changelog.
  DataStream<Row> converted =
      chunks.transform<Row>("ChunkToRows", std::make_shared<runtime::LambdaOperatorFactory>([] {
        return std::make_unique<runtime::operators::ChunkToRowsOperator>();
      }));
  converted.setParallelism(chunks.getParallelism());
  CloseableIterator<Row> rows = converted.executeAndCollect("collect");
  return TableResult(ResultKind::SUCCESS_WITH_CONTENT, ResolvedSchema::fromRowType(plan->rowType),
                     std::make_unique<JobRowSource>(std::move(environment), std::move(rows),
                                                    translation.sessionTimeZone),
                     translation.streaming);
}

std::string TableEnvironment::explainQueryPlan(const std::shared_ptr<const sql::LogicalNode>& plan,
                                               bool changelogMode, bool estimatedCost) const {
  sql::TranslationSettings translation;
  auto environment = newJobEnvironment(translation);
  DataStream<vector::Chunk> physical = sql::translateToDataStream(plan, *environment, translation);
  return "== Abstract Syntax Tree ==\n" + sql::explainPlan(*plan, false) +
         "\n== Optimized Logical Plan ==\n" +
         sql::explainPlan(*sql::optimize(plan), changelogMode, estimatedCost) +
         "\n== Physical Plan ==\n" + sql::explainPhysicalPlan(physical);
}

namespace {

int parallelismOption(const std::map<std::string, std::string>& configuration,
                      const std::string& key) {
  std::optional<int64_t> value = config::ConfigurationView(configuration).getInteger(key);
  return value && *value > 0 ? static_cast<int>(*value) : -1;
}


}  // namespace

function::BindingContext TableEnvironment::bindingContext() const {
  function::BindingContext context = bindingContextOf(configuration_);
  context.batchMode = !isStreaming();
  return context;
}

bool TableEnvironment::isStreaming() const {
  auto it = configuration_.find("execution.runtime-mode");
  if (it == configuration_.end()) {
    if (streamEnvironment_) return streamEnvironment_->getRuntimeMode() != RuntimeExecutionMode::BATCH;
    return settings_.isStreamingMode();
  }
  // AUTOMATIC runs as STREAMING (SET warns that it is not honoured yet).
  return config::ConfigurationView(configuration_).getEnum("execution.runtime-mode") != "BATCH";
}

std::unique_ptr<StreamExecutionEnvironment> TableEnvironment::newJobEnvironment(
    sql::TranslationSettings& translation) const {
  auto environment = StreamExecutionEnvironment::getExecutionEnvironment();
  if (streamEnvironment_) {
    environment->setParallelism(streamEnvironment_->getParallelism());
    if (streamEnvironment_->getMaxParallelism() > 0) {
      environment->setMaxParallelism(streamEnvironment_->getMaxParallelism());
    }
    if (!streamEnvironment_->isChainingEnabled()) environment->disableOperatorChaining();
  }
  bool streaming = isStreaming();
  environment->setRuntimeMode(streaming ? RuntimeExecutionMode::STREAMING
                                        : RuntimeExecutionMode::BATCH);
  int parallelism = parallelismOption(configuration_, "parallelism.default");
  if (parallelism > 0) environment->setParallelism(parallelism);
  configureTranslation(translation);
  return environment;
}

void TableEnvironment::configureTranslation(sql::TranslationSettings& translation) const {
  translation.streaming = isStreaming();
  translation.defaultParallelism =
      parallelismOption(configuration_, "table.exec.resource.default-parallelism");
  bool reuseEnabled = config::ConfigurationView(configuration_)
                          .getBoolean("table.optimizer.reuse-sub-plan-enabled")
                          .value_or(true);
  translation.sessionTimeZone = bindingContextOf(configuration_).sessionTimeZone;
  config::ConfigurationView view(configuration_);
  translation.autoWatermarkInterval =
      view.getDuration("pipeline.auto-watermark-interval")
          .value_or(std::chrono::milliseconds(
              streamEnvironment_ ? streamEnvironment_->getConfig().getAutoWatermarkInterval() : 200))
          .count();
  translation.sourceIdleTimeout =
      view.getDuration("table.exec.source.idle-timeout").value_or(std::chrono::milliseconds(0)).count();
  translation.stateTtl =
      view.getDuration("table.exec.state.ttl").value_or(std::chrono::milliseconds(0)).count();
  if (auto disabled = configuration_.find("table.exec.disabled-operators");
      disabled != configuration_.end()) {
    translation.disabledOperators = disabled->second;
  }
  translation.dropNotNullViolations =
      view.getEnum("table.exec.sink.not-null-enforcer").value_or("ERROR") == "DROP";
  translation.upsertMaterialize =
      view.getEnum("table.exec.sink.upsert-materialize").value_or("AUTO");
  translation.trimPadToSinkLength =
      view.getEnum("table.exec.sink.type-length-enforcer").value_or("IGNORE") == "TRIM_PAD";
  if (translation.streaming && view.getBoolean("table.exec.mini-batch.enabled").value_or(false)) {
    // Flink's checks: a mini-batch needs both a latency and a size (BATCH ignores mini-batch).
    int64_t latency = view.getDuration("table.exec.mini-batch.allow-latency")
                          .value_or(std::chrono::milliseconds(0))
                          .count();
    int64_t size = view.getInteger("table.exec.mini-batch.size").value_or(-1);
    if (latency <= 0) {
      throw ValidationException("'table.exec.mini-batch.allow-latency' must be greater than 0 "
                                "when 'table.exec.mini-batch.enabled' is true.");
    }
    if (size <= 0) {
      throw ValidationException("'table.exec.mini-batch.size' must be greater than 0 when "
                                "'table.exec.mini-batch.enabled' is true.");
    }
    translation.miniBatchLatency = latency;
    translation.miniBatchSize = size;
  }
  translation.twoPhaseAggregation =
      view.getEnum("table.optimizer.agg-phase-strategy").value_or("AUTO") != "ONE_PHASE";
  if (translation.streaming &&
      view.getBoolean("table.optimizer.distinct-agg.split.enabled").value_or(false)) {
    translation.distinctSplitBuckets = static_cast<int>(
        view.getInteger("table.optimizer.distinct-agg.split.bucket-num").value_or(1024));
  }
  if (reuseEnabled) {
    translation.reusedSubPlans =
        std::make_shared<std::map<std::string, DataStream<vector::Chunk>>>();
  }
}

namespace {

/// The sink of one INSERT added to a job.
struct AddedSink {
  std::string identifier;          // catalog.database.table
  sql::LogicalNodePtr plan;        // the rows cast to the sink's columns
  DataStream<vector::Chunk> sink;  // the sink transformation
};

/// Adds the sink of one INSERT to the job: the query's rows cast to the sink's column types,
/// written by the table's connector; `countRows` adds the rows-written counter of the job's
/// progress (not wanted in EXPLAIN).
AddedSink addInsertSink(catalog::CatalogManager& catalogs, StreamExecutionEnvironment& environment,
                        const sql::TranslationSettings& translation, const InsertPlan& insert,
                        bool countRows = true) {
  catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(insert.targetPath);
  catalog::CatalogManager::ResolvedTable target = catalogs.getTableOrThrow(identifier);
  if (target.table->kind != catalog::CatalogBaseTable::Kind::TABLE) {
    throw ValidationException("INSERT into the view '" + identifier.asSummaryString() +
                              "' is not allowed; insert into a table");
  }
  sql::LogicalNodePtr plan = insert.plan;
  sql::checkNoWritableMetadata(*target.table, identifier.asSummaryString());
  LogicalTypePtr sinkType = sql::physicalRowTypeOf(*target.table, identifier.asSummaryString());
  const auto& queryFields = plan->rowType->getFields();
  const auto& sinkFields = sinkType->getFields();
  if (queryFields.size() != sinkFields.size()) {
    throw ValidationException("Column types of query result and sink for '" +
                              identifier.asSummaryString() +
                              "' do not match.\nCause: Different number of columns.\n\n"
                              "Query schema: " + describeColumns(*plan->rowType) +
                              "\nSink schema:  " + describeColumns(*sinkType));
  }
  // Implicit casts to the sink's column types (an impossible cast names the columns).
  std::vector<expression::ExpressionPtr> casts;
  std::vector<std::string> names;
  // The NOT NULL columns of the sink that the query may fill with NULL.
  auto notNull = std::make_shared<runtime::operators::NotNullEnforcerSpec>();
  notNull->dropRows = translation.dropNotNullViolations;
  for (size_t i = 0; i < sinkFields.size(); ++i) {
    if (!sinkFields[i].type->isNullable() && queryFields[i].type->isNullable()) {
      notNull->columns.push_back(static_cast<int>(i));
      notNull->names.push_back(sinkFields[i].name);
    }
    auto column = expression::column(static_cast<int>(i), queryFields[i].type);
    // A string into a string column: only trimmed or padded to the column's length with
    // table.exec.sink.type-length-enforcer = TRIM_PAD (Flink's default IGNORE writes it as is).
    const bool sameStringKind =
        (function::isCharacterString(*queryFields[i].type) &&
         function::isCharacterString(*sinkFields[i].type)) ||
        (function::isBinaryString(*queryFields[i].type) &&
         function::isBinaryString(*sinkFields[i].type));
    if (sameStringKind && !translation.trimPadToSinkLength) {
      casts.push_back(std::move(column));
      names.push_back(sinkFields[i].name);
      continue;
    }
    try {
      if (!function::supportsImplicitCast(*queryFields[i].type, *sinkFields[i].type)) {
        throw ValidationException("Incompatible types for sink column '" + sinkFields[i].name +
                                  "' at position " + std::to_string(i) + ".");
      }
      casts.push_back(expression::castIfNeeded(
          column, sinkFields[i].type, function::BindingContext{translation.sessionTimeZone}));
    } catch (const ValidationException& error) {
      throw ValidationException("Column types of query result and sink for '" +
                                identifier.asSummaryString() + "' do not match.\nCause: " +
                                error.what() + "\n\nQuery schema: " +
                                describeColumns(*plan->rowType) +
                                "\nSink schema:  " + describeColumns(*sinkType));
    }
    names.push_back(sinkFields[i].name);
  }
  plan = std::make_shared<sql::LogicalProject>(plan, std::move(casts), std::move(names));

  connectors::ConnectorContext context{identifier.asSummaryString(), sinkType,
                                       target.table->options, translation.streaming,
                                       target.table->partitionKeys};
  const auto& factory = connectors::FactoryRegistry::builtIn().factoryFor(context);
  std::unique_ptr<connectors::DynamicTableSink> sink = factory.createDynamicTableSink(context);
  if (insert.overwrite) {
    if (!sink->supportsOverwrite()) {
      throw ValidationException("INSERT OVERWRITE requires that the underlying DynamicTableSink "
                                "of table '" + identifier.asSummaryString() +
                                "' implements the SupportsOverwrite interface.");
    }
    sink->applyOverwrite(true);
  }
  if (!insert.staticPartition.empty()) {
    if (!sink->supportsPartitioning()) {
      throw ValidationException("INSERT with a PARTITION clause requires that the underlying "
                                "DynamicTableSink of table '" + identifier.asSummaryString() +
                                "' implements the SupportsPartitioning interface.");
    }
    sink->applyStaticPartition(insert.staticPartition);
  }
  if (translation.streaming && plan->changelogMode != sql::ChangelogMode::kInsertOnly &&
      !sink->acceptsUpdates()) {
    throw TableException("Table sink '" + identifier.asSummaryString() +
                         "' doesn't support consuming update changes which is produced by node " +
                         sql::updateProducer(*plan).describe());
  }
  // The sink's primary key (columns of the rows written; the key's columns are physical).
  std::optional<std::vector<int>> sinkKey;
  if (const auto& primaryKey = target.table->schema.getPrimaryKey()) {
    sinkKey.emplace();
    for (const std::string& name : primaryKey->columnNames) {
      sinkKey->push_back(sinkType->getFieldIndex(name));
    }
    if (std::find(sinkKey->begin(), sinkKey->end(), -1) != sinkKey->end()) sinkKey.reset();
  }
  // A sink that does not consume -U rows (Flink: its changelog mode has no UPDATE_BEFORE) gets
  // the updates without them where the query allows (sql::withoutUpdateBefore); with a primary
  // key only when the updates are upserts by exactly that key.
  if (translation.streaming && plan->changelogMode != sql::ChangelogMode::kInsertOnly &&
      !sink->consumesUpdateBefore() && (sinkKey || !target.table->schema.getPrimaryKey())) {
    if (sql::LogicalNodePtr upserts = sql::withoutUpdateBefore(plan, sinkKey)) plan = upserts;
  }
  // Flink's SinkUpsertMaterializer before an upsert sink (one with a primary key that takes
  // updates without -U; a retract sink, which takes -U and +U, gets none, as in Flink).
  std::shared_ptr<runtime::operators::SinkUpsertMaterializerSpec> materializer;
  if (translation.streaming && sinkKey && sink->acceptsUpdates() &&
      !sink->consumesUpdateBefore()) {
    materializer = sql::upsertMaterializerFor(*plan, *sinkKey, translation.upsertMaterialize);
  }
  auto rows = sql::translateToDataStream(plan, environment, translation);
  if (!notNull->columns.empty()) {
    // Flink's ConstraintEnforcer, chained before the sink.
    DataStream<vector::Chunk> enforced = rows.transform<vector::Chunk>(
        fmt::format("ConstraintEnforcer[NotNullEnforcer(fields=[{}])]",
                    fmt::join(notNull->names, ", ")),
        std::make_shared<runtime::LambdaOperatorFactory>([notNull] {
          return std::make_unique<runtime::operators::NotNullEnforcerOperator>(notNull);
        }));
    enforced.setParallelism(rows.getParallelism());
    rows = std::move(enforced);
  }
  if (materializer) rows = sql::materializeUpserts(rows, materializer);
  if (countRows) rows = withSinkInputMetrics(std::move(rows));
  auto sinkStream = rows.transform<vector::Chunk>("Sink: " + identifier.asSummaryString(),
                                                  sink->createSinkOperator());
  sinkStream.setDescription(fmt::format("Sink(table=[{}], fields=[{}]{})",
                                        identifier.asSummaryString(),
                                        fmt::join(plan->rowType->getFieldNames(), ", "),
                                        materializer ? ", upsertMaterialize=[true]" : ""));
  // Flink's default: the sink runs at its input's parallelism (chained, so a changelog keeps
  // its order), unless the table sets 'sink.parallelism'.
  sinkStream.setParallelism(sink->sinkParallelism().value_or(rows.getParallelism()));
  return AddedSink{identifier.asSummaryString(), std::move(plan), std::move(sinkStream)};
}

/// A path of the Table API ("t", "db.t", "cat.db.t", parts optionally in backquotes).
std::vector<std::string> splitPath(const std::string& path) {
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == '`') {
      if (quoted && i + 1 < path.size() && path[i + 1] == '`') {
        parts.back() += '`';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == '.' && !quoted) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  for (const std::string& part : parts) {
    if (part.empty() || quoted) throw ValidationException("Invalid path '" + path + "'");
  }
  return parts;
}

}  // namespace

TableResult TableEnvironment::runInserts(const std::vector<InsertPlan>& inserts) {
  sql::TranslationSettings translation;
  auto environment = newJobEnvironment(translation);
  std::vector<ResolvedSchema::Column> columns;
  std::string jobName = "insert-into";
  for (const InsertPlan& insert : inserts) {
    std::string sink =
        addInsertSink(*catalogManager_, *environment, translation, insert).identifier;
    columns.push_back(ResolvedSchema::Column{sink, DataTypes::BIGINT().notNull(), std::nullopt});
    jobName += "_" + sink;
  }
  JobClient client = environment->executeAsync(jobName);
  int sinkCount = static_cast<int>(columns.size());
  return TableResult(ResultKind::SUCCESS_WITH_CONTENT, ResolvedSchema(std::move(columns)),
                     std::make_unique<InsertRowSource>(std::move(environment), std::move(client),
                                                       sinkCount),
                     false);
}

void TableEnvironment::addInsertsTo(StreamExecutionEnvironment& environment,
                                    const std::vector<InsertPlan>& inserts) const {
  sql::TranslationSettings translation;
  configureTranslation(translation);
  for (const InsertPlan& insert : inserts) {
    addInsertSink(*catalogManager_, environment, translation, insert);
  }
}

std::string TableEnvironment::explainInserts(const std::vector<InsertPlan>& inserts,
                                             bool changelogMode, bool estimatedCost) const {
  sql::TranslationSettings translation;
  auto environment = newJobEnvironment(translation);
  std::string syntaxTree, optimized, physical;
  auto indented = [](const std::string& text) {
    std::string result;
    size_t begin = 0;
    while (begin < text.size()) {
      size_t end = text.find('\n', begin);
      if (end == std::string::npos) end = text.size();
      result += "  " + text.substr(begin, end - begin) + "\n";
      begin = end + 1;
    }
    return result;
  };
  for (const InsertPlan& insert : inserts) {
    AddedSink added = addInsertSink(*catalogManager_, *environment, translation, insert, false);
    const std::string fields = fmt::format("{}", fmt::join(added.plan->rowType->getFieldNames(), ", "));
    // Flink's LogicalSink line; the rows as they reach the sink (with the implicit casts).
    std::string sink = "LogicalSink(table=[" + added.identifier + "], fields=[" + fields + "]" +
                       (insert.overwrite ? ", overwrite=[true]" : "") + ")";
    syntaxTree += sink + "\n" + indented(sql::explainPlan(*added.plan, false));
    optimized += sink + "\n" + indented(sql::explainPlan(*sql::optimize(added.plan), changelogMode,
                                                          estimatedCost));
    physical += sql::explainPhysicalPlan(added.sink);
  }
  return "== Abstract Syntax Tree ==\n" + syntaxTree + "\n== Optimized Logical Plan ==\n" +
         optimized + "\n== Physical Plan ==\n" + physical;
}

InsertPlan TableEnvironment::planInsert(const sql::InsertStatement& insert) {
  catalog::ObjectIdentifier identifier = catalogManager_->qualifyIdentifier(insert.tableName);
  catalog::CatalogManager::ResolvedTable target = catalogManager_->getTableOrThrow(identifier);
  sql::Binder binder(*catalogManager_, bindingContext());
  sql::LogicalNodePtr plan = binder.bindQuery(*insert.query);
  const bool isTable = target.table->kind == catalog::CatalogBaseTable::Kind::TABLE;
  std::map<std::string, std::string> staticPartition;
  if ((insert.columns.empty() && insert.partition.empty()) || !isTable) {
    return InsertPlan{insert.tableName, std::move(plan), insert.overwrite, {}};
  }
  // `INSERT INTO t PARTITION (k = v, ..) (c, a) ...`: static partition keys get their values;
  // the query's columns go to the listed columns, in that order, or else to the columns that
  // are not static, in table order; the table's other columns get NULL (Calcite's rules and
  // messages).
  LogicalTypePtr sinkType = sql::physicalRowTypeOf(*target.table, identifier.asSummaryString());
  const auto& sinkFields = sinkType->getFields();
  std::vector<expression::ExpressionPtr> staticValues(sinkFields.size());
  const std::vector<std::string>& keys = target.table->partitionKeys;
  for (const sql::PartitionValue& value : insert.partition) {
    if (keys.empty()) {
      throw ValidationException("Table '" + identifier.asSummaryString() +
                                "' is not partitioned; INSERT with a PARTITION clause needs a "
                                "table created with PARTITIONED BY");
    }
    if (std::find(keys.begin(), keys.end(), value.column) == keys.end()) {
      throw ValidationException(fmt::format(
          "Static partition column '{}' is not a partition key of table '{}'; its partition "
          "keys are [{}]",
          value.column, identifier.asSummaryString(), fmt::join(keys, ", ")));
    }
    const int column = sinkType->getFieldIndex(value.column);
    if (column < 0) {  // a key that is no physical column: the connector names it
      throw ValidationException("Partition column '" + value.column +
                                "' not defined in the table schema of table '" +
                                identifier.asSummaryString() + "'.");
    }
    if (staticValues[static_cast<size_t>(column)]) {
      throw ValidationException("Static partition column '" + value.column +
                                "' is assigned more than once");
    }
    const RowField& field = sinkFields[static_cast<size_t>(column)];
    // A constant (Calcite takes literals only): bound over no columns, cast, evaluated.
    std::optional<Value> constant;
    try {
      constant = expression::ExpressionEvaluator::evaluateConstant(expression::castIfNeeded(
          binder.bindExpressionText(sql::unparse(*value.value), {}), field.type,
          bindingContextOf(configuration_)));
    } catch (const ValidationException&) {
      // not a constant, or not of the key's type
    }
    if (!constant) {
      throw ValidationException(fmt::format(
          "SQL validation failed. From line {}, column {}: The value of static partition column "
          "'{}' must be a constant of type {}",
          value.value->position.line, value.value->position.column, value.column,
          field.type->asSummaryString()));
    }
    staticValues[static_cast<size_t>(column)] = expression::literal(*constant, field.type);
    if (!constant->isNull()) {
      vector::Vector text(field.type);
      text.appendValue(*constant);
      std::string valueText;
      formats::appendValueText(text, 0, formats::TextWriteOptions{}, valueText);
      staticPartition[value.column] = valueText;
    } else {
      staticPartition[value.column] = "";
    }
  }
  std::vector<int> source(sinkFields.size(), -1);
  std::vector<std::string> targets = insert.columns;
  if (targets.empty()) {
    for (size_t i = 0; i < sinkFields.size(); ++i) {
      if (!staticValues[i]) targets.push_back(sinkFields[i].name);
    }
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const std::string& name = targets[i];
    const int column = sinkType->getFieldIndex(name);
    if (column < 0) throw ValidationException("Unknown target column '" + name + "'");
    int& slot = source[static_cast<size_t>(column)];
    if (slot >= 0 || staticValues[static_cast<size_t>(column)]) {
      throw ValidationException("Target column '" + name + "' is assigned more than once");
    }
    slot = static_cast<int>(i);
  }
  const auto& queryFields = plan->rowType->getFields();
  if (queryFields.size() != targets.size()) {
    throw ValidationException("Number of INSERT target columns (" +
                              std::to_string(targets.size()) +
                              ") does not equal number of source items (" +
                              std::to_string(queryFields.size()) + ")");
  }
  std::vector<expression::ExpressionPtr> columns;
  std::vector<std::string> names;
  for (size_t i = 0; i < sinkFields.size(); ++i) {
    const RowField& field = sinkFields[i];
    if (staticValues[i]) {
      columns.push_back(staticValues[i]);
    } else if (source[i] >= 0) {
      columns.push_back(
          expression::column(source[i], queryFields[static_cast<size_t>(source[i])].type));
    } else if (field.type->isNullable()) {
      columns.push_back(expression::literal(Value(), field.type));
    } else {
      throw ValidationException("Column '" + field.name +
                                "' has no default value and does not allow NULLs");
    }
    names.push_back(field.name);
  }
  plan = std::make_shared<sql::LogicalProject>(plan, std::move(columns), std::move(names));
  return InsertPlan{insert.tableName, std::move(plan), insert.overwrite,
                    std::move(staticPartition)};
}

TableResult TableEnvironment::executeInserts(
    const std::vector<const sql::InsertStatement*>& inserts) {
  std::vector<InsertPlan> plans;
  for (const sql::InsertStatement* insert : inserts) plans.push_back(planInsert(*insert));
  return runInserts(plans);
}

TableResult TableEnvironment::executeInsertPlan(const std::string& targetPath,
                                                const std::shared_ptr<const sql::LogicalNode>& plan) {
  return runInserts({InsertPlan{splitPath(targetPath), plan, false, {}}});
}

Table TableEnvironment::from(const std::string& path) {
  std::string query = "SELECT * FROM ";
  std::vector<std::string> parts = splitPath(path);
  for (size_t i = 0; i < parts.size(); ++i) query += (i ? "." : "") + escapeIdentifier(parts[i]);
  return sqlQuery(query);
}

Table TableEnvironment::fromValues(const std::vector<Expression>& rows) {
  if (rows.empty()) throw ValidationException("fromValues needs at least one row");
  std::string query = "SELECT * FROM (VALUES ";
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string& row = rows[i].asSummaryString();
    query += (i ? ", " : "") + (row.rfind("ROW(", 0) == 0 ? row.substr(3) : "(" + row + ")");
  }
  query += ")";
  Table values = sqlQuery(query);
  std::vector<std::string> names;
  for (int i = 0; i < values.plan()->rowType->getFieldCount(); ++i) names.push_back("f" + std::to_string(i));
  return values.as(names);
}

namespace {
catalog::CatalogBaseTable catalogTableOf(const TableDescriptor& descriptor) {
  if (!descriptor.getSchema()) {
    throw ValidationException("The TableDescriptor needs a schema: eddy does not infer schemas "
                              "from connectors or formats yet");
  }
  catalog::CatalogBaseTable table;
  table.schema = *descriptor.getSchema();
  table.options = descriptor.getOptions();
  table.partitionKeys = descriptor.getPartitionKeys();
  table.comment = descriptor.getComment();
  return table;
}
}  // namespace

Table TableEnvironment::from(const TableDescriptor& descriptor) {
  catalog::CatalogBaseTable table = catalogTableOf(descriptor);
  auto connector = table.options.find("connector");
  std::string name = "*anonymous_" +
                     (connector == table.options.end() ? std::string("table") : connector->second) +
                     "$" + std::to_string(++anonymousTables_) + "*";
  return Table(this, sql::planTableScan(*catalogManager_, table, name,
                                        sql::MetadataKeys::kCheck, bindingContext()));
}

void TableEnvironment::createTable(const std::string& path, const TableDescriptor& descriptor) {
  catalogManager_->createTable(catalogTableOf(descriptor),
                               catalogManager_->qualifyIdentifier(splitPath(path)), false);
}

void TableEnvironment::createTemporaryTable(const std::string& path,
                                            const TableDescriptor& descriptor) {
  catalogManager_->createTemporaryTable(catalogTableOf(descriptor),
                                        catalogManager_->qualifyIdentifier(splitPath(path)), false);
}

StatementSet TableEnvironment::createStatementSet() { return StatementSet(this); }

// ---- StatementSet ---------------------------------------------------------------------------

StatementSet& StatementSet::add(const TablePipeline& pipeline) {
  return addInsert(pipeline.targetPath(), pipeline.table());
}

StatementSet& StatementSet::addInsert(const std::string& targetPath, const Table& table) {
  if (table.environment() != environment_) {
    throw ValidationException("Only tables that belong to this TableEnvironment can be inserted.");
  }
  std::vector<std::string> path = splitPath(targetPath);
  environment_->catalogManager().getTableOrThrow(
      environment_->catalogManager().qualifyIdentifier(path));
  inserts_.push_back(InsertPlan{std::move(path), table.plan(), false, {}});
  return *this;
}

StatementSet& StatementSet::addInsertSql(const std::string& statement) {
  sql::StatementPtr parsed = sql::parseStatement(statement);
  if (!parsed->is<sql::InsertStatement>()) {
    throw ValidationException("Only insert statement is supported now.");
  }
  inserts_.push_back(environment_->planInsert(parsed->as<sql::InsertStatement>()));
  return *this;
}

TableResult StatementSet::execute() {
  if (inserts_.empty()) {
    throw TableException("No statement to execute. Please add an INSERT statement or a Table "
                         "pipeline to the StatementSet.");
  }
  auto inserts = std::move(inserts_);
  inserts_.clear();
  return environment_->runInserts(inserts);
}

std::string StatementSet::explain() const {
  if (inserts_.empty()) {
    throw TableException("No statement to explain. Please add an INSERT statement or a Table "
                         "pipeline to the StatementSet.");
  }
  return environment_->explainInserts(inserts_, false);
}

void TableEnvironment::createTemporaryView(const std::string& path, const Table& table) {
  if (table.environment() != this) {
    throw ValidationException("Only tables that belong to this TableEnvironment can be registered.");
  }
  catalog::CatalogBaseTable view = viewOf("", *table.plan());
  view.plan = table.plan();
  catalogManager_->createTemporaryTable(std::move(view),
                                        catalogManager_->qualifyIdentifier(splitPath(path)), false);
}

bool TableEnvironment::dropTemporaryView(const std::string& path) {
  return catalogManager_->dropTemporaryTable(catalogManager_->qualifyIdentifier(splitPath(path)),
                                            true, true);
}

void TableEnvironment::createTemporarySystemFunction(const std::string& name,
                                                     ScalarFunctionDefinition function) {
  if (name.empty()) throw ValidationException("A function name must not be empty.");
  if (!function.eval || !function.resultType ||
      std::any_of(function.parameterTypes.begin(), function.parameterTypes.end(),
                  [](const LogicalTypePtr& type) { return type == nullptr; })) {
    throw ValidationException("The definition of function '" + name +
                              "' lacks its evaluation or a type.");
  }
  function::FunctionRegistry& functions = catalogManager_->functions();
  function::ScalarFunction registered = function::userDefinedScalarFunction(name, std::move(function));
  const std::vector<std::string> existing = functions.functionNames();
  if (std::find(existing.begin(), existing.end(), registered.name()) != existing.end()) {
    throw ValidationException("Could not register temporary system function. A function named '" +
                              name + "' does already exist.");
  }
  functions.put(std::move(registered));
}

bool TableEnvironment::dropTemporarySystemFunction(const std::string& name) {
  return catalogManager_->functions().remove(name);
}

std::vector<std::string> TableEnvironment::listUserDefinedFunctions() const {
  std::vector<std::string> names;
  for (std::string name : catalogManager_->functions().functionNames()) {
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    names.push_back(std::move(name));
  }
  return names;
}

TableResult TableEnvironment::executeSql(const std::string& text) {
  sql::StatementPtr statement = sql::parseStatement(text);
  catalog::CatalogManager& catalogs = *catalogManager_;
  switch (statement->kind) {
    case sql::StatementKind::kQuery: {
      sql::Binder binder(catalogs, bindingContext());
      return executePlan(binder.bindQuery(*statement->as<sql::QueryStatement>().query));
    }
    case sql::StatementKind::kInsert:
      return executeInserts({&statement->as<sql::InsertStatement>()});
    case sql::StatementKind::kStatementSet: {
      std::vector<const sql::InsertStatement*> inserts;
      for (const auto& inner : statement->as<sql::StatementSetStatement>().statements) {
        if (!inner->is<sql::InsertStatement>()) {
          throw ValidationException("A statement set accepts only INSERT statements");
        }
        inserts.push_back(&inner->as<sql::InsertStatement>());
      }
      return executeInserts(inserts);
    }
    case sql::StatementKind::kExecute: {
      const sql::Statement& inner = *statement->as<sql::ExecuteStatement>().statement;
      if (inner.is<sql::InsertStatement>()) return executeInserts({&inner.as<sql::InsertStatement>()});
      if (inner.is<sql::QueryStatement>()) {
        sql::Binder binder(catalogs, bindingContext());
        return executePlan(binder.bindQuery(*inner.as<sql::QueryStatement>().query));
      }
      throw ValidationException("EXECUTE accepts a query or an INSERT statement");
    }
    case sql::StatementKind::kCreateView: {
      const auto& create = statement->as<sql::CreateViewStatement>();
      std::string query = sql::unparse(*create.query);
      sql::Binder binder(catalogs, bindingContext());
      sql::LogicalNodePtr plan = binder.bindQuery(*create.query);
      catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(create.viewName);
      catalog::CatalogBaseTable view = viewOf(query, *plan);
      if (!create.columns.empty()) {
        // `CREATE VIEW v (x, y) AS ...`: the view's columns renamed; reading the view renames
        // the query's columns to the schema's.
        const auto& fields = plan->rowType->getFields();
        if (create.columns.size() != fields.size()) {
          throw ValidationException("List of column aliases must have same degree as table; the "
                                    "query has " + std::to_string(fields.size()) +
                                    " columns, the list has " +
                                    std::to_string(create.columns.size()));
        }
        Schema::Builder builder = Schema::newBuilder();
        for (size_t i = 0; i < fields.size(); ++i) {
          builder.column(create.columns[i], DataType(fields[i].type));
        }
        view.schema = builder.build();
      }
      view.comment = create.comment;
      if (create.temporary) {
        catalogs.createTemporaryTable(std::move(view), identifier, create.ifNotExists);
      } else {
        catalogs.createTable(std::move(view), identifier, create.ifNotExists);
      }
      return TableResult::ok();
    }
    case sql::StatementKind::kCreateTable: {
      const auto& create = statement->as<sql::CreateTableStatement>();
      catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(create.tableName);
      auto createTable = [&](catalog::CatalogBaseTable table) {
        // The schema resolves as a read of the table would (Flink resolves computed columns
        // and the watermark when a table is created; metadata keys when it is read).
        sql::planTableScan(catalogs, table, identifier.asSummaryString(),
                           sql::MetadataKeys::kDeclared, bindingContext());
        checkKeysArePhysical(table);
        if (create.temporary) {
          catalogs.createTemporaryTable(std::move(table), identifier, create.ifNotExists);
        } else {
          catalogs.createTable(std::move(table), identifier, create.ifNotExists);
        }
      };
      if (create.like && create.asQuery) {
        throw ValidationException("CREATE TABLE AS SELECT does not support LIKE");
      }
      if (create.like) {
        catalog::ObjectIdentifier baseName = catalogs.qualifyIdentifier(create.like->sourceTable);
        createTable(mergeLike(create, *catalogs.getTableOrThrow(baseName).table,
                              baseName.asSummaryString()));
        return TableResult::ok();
      }
      if (create.asQuery) {
        sql::Binder binder(catalogs, bindingContext());
        sql::LogicalNodePtr query = binder.bindQuery(*create.asQuery);
        auto [table, plan] = createTableAsSelect(create, identifier.asSummaryString(), query);
        // The sink is checked before the table exists, so a bad option creates nothing.
        {
          connectors::ConnectorContext context{
              identifier.asSummaryString(),
              sql::physicalRowTypeOf(table, identifier.asSummaryString()), table.options,
              isStreaming(), table.partitionKeys};
          connectors::FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSink(context);
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
        createTable(std::move(table));
        return runInserts({InsertPlan{create.tableName, std::move(plan), false, {}}});
      }
      catalog::CatalogBaseTable table;
      Schema::Builder builder = Schema::newBuilder();
      for (const sql::TableColumn& column : create.columns) addColumn(builder, column);
      addConstraints(builder, create);
      table.schema = builder.build();
      table.comment = create.comment;
      table.partitionKeys = create.partitionKeys;
      for (const sql::TableOption& option : create.options) table.options[option.key] = option.value;
      createTable(std::move(table));
      return TableResult::ok();
    }
    case sql::StatementKind::kCreateDatabase: {
      const auto& create = statement->as<sql::CreateDatabaseStatement>();
      std::string catalogName = create.databaseName.size() == 2 ? create.databaseName[0]
                                                                : catalogs.getCurrentCatalog();
      catalog::CatalogDatabase database;
      database.comment = create.comment;
      for (const auto& option : create.options) database.properties[option.key] = option.value;
      catalogs.createDatabase(catalogName, create.databaseName.back(), std::move(database),
                              create.ifNotExists);
      return TableResult::ok();
    }
    case sql::StatementKind::kDrop: {
      const auto& drop = statement->as<sql::DropStatement>();
      switch (drop.objectKind) {
        case sql::ObjectKind::kTable:
        case sql::ObjectKind::kView: {
          bool isView = drop.objectKind == sql::ObjectKind::kView;
          catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(drop.name);
          if (drop.temporary) {
            catalogs.dropTemporaryTable(identifier, isView, drop.ifExists);
          } else {
            catalogs.dropTable(identifier, isView, drop.ifExists);
          }
          return TableResult::ok();
        }
        case sql::ObjectKind::kDatabase: {
          std::string catalogName =
              drop.name.size() == 2 ? drop.name[0] : catalogs.getCurrentCatalog();
          catalogs.dropDatabase(catalogName, drop.name.back(), drop.ifExists, drop.cascade);
          return TableResult::ok();
        }
        case sql::ObjectKind::kCatalog:
          catalogs.unregisterCatalog(drop.name.back(), drop.ifExists);
          return TableResult::ok();
      }
      break;
    }
    case sql::StatementKind::kAlterTable: {
      const auto& alter = statement->as<sql::AlterTableStatement>();
      catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(alter.tableName);
      std::optional<catalog::CatalogManager::ResolvedTable> resolved = catalogs.getTable(identifier);
      if (!resolved) {
        if (alter.ifExists) return TableResult::ok();
        throw ValidationException("Table `" + identifier.catalogName + "`.`" +
                                  identifier.databaseName + "`.`" + identifier.objectName +
                                  "` doesn't exist or is a temporary table.");
      }
      if (resolved->isTemporary) {
        throw ValidationException("ALTER TABLE of the temporary table '" +
                                  identifier.asSummaryString() + "' is not supported");
      }
      if (resolved->table->kind != catalog::CatalogBaseTable::Kind::TABLE) {
        throw ValidationException("ALTER TABLE for a view is not allowed: '" +
                                  identifier.asSummaryString() + "'");
      }
      catalog::CatalogBaseTable table = *resolved->table;
      switch (alter.action) {
        case sql::AlterTableAction::kRename:
          catalogs.renameTable(identifier, alter.newName.back(), false);
          return TableResult::ok();
        case sql::AlterTableAction::kSetOptions:
          for (const sql::TableOption& option : alter.options) table.options[option.key] = option.value;
          break;
        case sql::AlterTableAction::kResetOptions:
          for (const std::string& key : alter.resetKeys) {
            if (key == "connector") {
              throw ValidationException("ALTER TABLE RESET does not support changing 'connector'");
            }
            table.options.erase(key);
          }
          break;
        case sql::AlterTableAction::kAdd:
        case sql::AlterTableAction::kModify:
          table.schema = alteredSchema(table.schema, alter);
          break;
        case sql::AlterTableAction::kDropColumns: {
          SchemaChange change;
          std::set<std::string> names;
          for (const Schema::Column& column : table.schema.getColumns()) {
            names.insert(Schema::columnName(column));
          }
          for (const std::string& column : alter.dropColumns) {
            if (!names.count(column)) {
              throw ValidationException("The column `" + column + "` does not exist in the base table.");
            }
            if (!change.dropped.insert(column).second) {
              throw ValidationException("Duplicate column `" + column + "` in the DROP list.");
            }
          }
          for (const std::string& column : alter.dropColumns) {
            if (const auto& key = table.schema.getPrimaryKey();
                key && std::find(key->columnNames.begin(), key->columnNames.end(), column) !=
                           key->columnNames.end()) {
              throw ValidationException("The column `" + column + "` is used as the primary key.");
            }
            checkColumnIsFree(table, column, change.dropped, /*renaming=*/false);
          }
          if (change.dropped.size() == names.size()) {
            throw ValidationException("A table needs at least one column; ALTER TABLE DROP would "
                                      "drop all of them.");
          }
          table.schema = changedSchema(table.schema, change);
          break;
        }
        case sql::AlterTableAction::kDropPrimaryKey: {
          const auto& key = table.schema.getPrimaryKey();
          if (!key) throw ValidationException("The base table does not define any primary key.");
          if (alter.constraintName && *alter.constraintName != key->constraintName) {
            throw ValidationException("The base table does not define a primary key constraint named `" +
                                      *alter.constraintName + "`. Available constraint name: [`" +
                                      key->constraintName + "`].");
          }
          table.schema = changedSchema(table.schema, SchemaChange{.dropPrimaryKey = true});
          break;
        }
        case sql::AlterTableAction::kDropWatermark: {
          if (table.schema.getWatermarkSpecs().empty()) {
            throw ValidationException("The base table does not define any watermark strategy.");
          }
          table.schema = changedSchema(table.schema, SchemaChange{.dropWatermarks = true});
          break;
        }
        case sql::AlterTableAction::kRenameColumn: {
          bool found = false;
          for (const Schema::Column& column : table.schema.getColumns()) {
            const std::string& name = Schema::columnName(column);
            if (name == alter.newColumnName) {
              throw ValidationException("The column `" + alter.newColumnName +
                                        "` already existed in table schema.");
            }
            found = found || name == alter.column;
          }
          if (!found) {
            throw ValidationException("The column `" + alter.column + "` does not exist in the base table.");
          }
          checkColumnIsFree(table, alter.column, {}, /*renaming=*/true);
          table.schema = changedSchema(
              table.schema, SchemaChange{.renamedFrom = alter.column, .renamedTo = alter.newColumnName});
          break;
        }
      }
      if (alter.action != sql::AlterTableAction::kSetOptions &&
          alter.action != sql::AlterTableAction::kResetOptions) {
        // The new schema resolves as a read of the table would (Flink resolves it here too):
        // computed columns and the watermark over the columns they read, metadata keys, types.
        sql::planTableScan(catalogs, table, identifier.asSummaryString(),
                           sql::MetadataKeys::kDeclared, bindingContext());
        checkKeysArePhysical(table);
      }
      catalogs.alterTable(std::move(table), identifier, false);
      return TableResult::ok();
    }
    case sql::StatementKind::kCreateCatalog: {
      const auto& create = statement->as<sql::CreateCatalogStatement>();
      std::map<std::string, std::string> options;
      for (const sql::TableOption& option : create.options) options[option.key] = option.value;
      auto type = options.find("type");
      if (type == options.end()) {
        throw ValidationException("Catalog options do not contain an option key 'type' for "
                                  "discovering a catalog.");
      }
      if (type->second != "generic_in_memory") {
        throw ValidationException("Could not find any factory for identifier '" + type->second +
                                  "' that implements 'CatalogFactory' in the classpath.\n\n"
                                  "Available factory identifiers are:\n\ngeneric_in_memory");
      }
      for (const auto& [key, value] : options) {
        if (key != "type" && key != "default-database") {
          throw ValidationException("Unsupported options found for 'generic_in_memory'.\n\n"
                                    "Unsupported options:\n\n" + key +
                                    "\n\nSupported options:\n\ndefault-database\ntype");
        }
      }
      if (create.ifNotExists) {
        auto names = catalogs.listCatalogs();
        if (std::find(names.begin(), names.end(), create.catalogName) != names.end()) {
          return TableResult::ok();
        }
      }
      auto database = options.find("default-database");
      catalogs.registerCatalog(
          create.catalogName,
          std::make_unique<catalog::GenericInMemoryCatalog>(
              create.catalogName, database == options.end() ? "default" : database->second));
      return TableResult::ok();
    }
    case sql::StatementKind::kUseCatalog:
      catalogs.setCurrentCatalog(statement->as<sql::UseCatalogStatement>().catalogName);
      return TableResult::ok();
    case sql::StatementKind::kUseDatabase: {
      const auto& use = statement->as<sql::UseDatabaseStatement>();
      if (use.databaseName.size() == 2) catalogs.setCurrentCatalog(use.databaseName[0]);
      catalogs.setCurrentDatabase(use.databaseName.back());
      return TableResult::ok();
    }
    case sql::StatementKind::kShow: {
      const auto& show = statement->as<sql::ShowStatement>();
      auto filtered = [&show](std::vector<std::string> names) {
        if (!show.likePattern) return names;
        std::vector<std::string> kept;
        for (auto& name : names) {
          if (likeMatches(name, *show.likePattern) != show.notLike) kept.push_back(name);
        }
        return kept;
      };
      switch (show.showKind) {
        case sql::ShowKind::kCatalogs:
          return listing("catalog name", filtered(catalogs.listCatalogs()));
        case sql::ShowKind::kCurrentCatalog:
          return listing("current catalog name", {catalogs.getCurrentCatalog()});
        case sql::ShowKind::kDatabases:
          return listing("database name",
                         filtered(catalogs.getCatalog(catalogs.getCurrentCatalog()).listDatabases()));
        case sql::ShowKind::kCurrentDatabase:
          return listing("current database name", {catalogs.getCurrentDatabase()});
        case sql::ShowKind::kTables:
        case sql::ShowKind::kViews: {
          std::string catalogName = catalogs.getCurrentCatalog();
          std::string databaseName = catalogs.getCurrentDatabase();
          if (show.name.size() == 2) catalogName = show.name[0];
          if (!show.name.empty()) databaseName = show.name.back();
          bool views = show.showKind == sql::ShowKind::kViews;
          auto names = views ? catalogs.listViews(catalogName, databaseName)
                             : catalogs.listTables(catalogName, databaseName);
          return listing(views ? "view name" : "table name", filtered(names));
        }
        case sql::ShowKind::kFunctions: {
          // Scalar functions of the registry, the binder's aggregates and conditional forms.
          std::set<std::string> names;
          for (const std::string& name : function::FunctionRegistry::builtIn().functionNames()) {
            names.insert(name);
          }
          for (const std::string& name : catalogs.functions().functionNames()) names.insert(name);
          for (const std::string& name : runtime::operators::aggregateFunctionNames()) {
            names.insert(name);
          }
          for (const char* name : {"CAST", "COALESCE", "DENSE_RANK", "GROUPING", "GROUPING_ID",
                                   "IF", "NULLIF", "RANK", "ROW_NUMBER", "TRY_CAST"}) {
            names.insert(name);
          }
          return listing("function name", filtered({names.begin(), names.end()}));
        }
        case sql::ShowKind::kColumns: {
          return describeTable(catalogs, catalogs.qualifyIdentifier(show.name),
                               [&show](const std::string& name) {
                                 return !show.likePattern ||
                                        likeMatches(name, *show.likePattern) != show.notLike;
                               });
        }
        case sql::ShowKind::kCreateTable:
        case sql::ShowKind::kCreateView: {
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
          return listing("result", {showCreate(identifier, *resolved.table, resolved.isTemporary)});
        }
      }
      throw InternalError("unknown SHOW statement");
    }
    case sql::StatementKind::kDescribe: {
      const auto& describe = statement->as<sql::DescribeStatement>();
      return describeTable(catalogs, catalogs.qualifyIdentifier(describe.tableName),
                           [](const std::string&) { return true; });
    }
    case sql::StatementKind::kExplain: {
      const auto& explain = statement->as<sql::ExplainStatement>();
      auto has = [&](sql::ExplainDetail detail) {
        return std::find(explain.details.begin(), explain.details.end(), detail) !=
               explain.details.end();
      };
      const bool changelogMode = has(sql::ExplainDetail::kChangelogMode);
      const bool estimatedCost = has(sql::ExplainDetail::kEstimatedCost);
      if (has(sql::ExplainDetail::kJsonExecutionPlan)) {
        throw TableException("EXPLAIN JSON_EXECUTION_PLAN is not supported yet (the physical plan "
                             "section shows the operators the job runs)");
      }
      if (has(sql::ExplainDetail::kPlanAdvice)) {
        throw TableException("EXPLAIN PLAN_ADVICE is not supported yet");
      }
      const sql::Statement* explained = explain.statement.get();
      if (explained->is<sql::ExecuteStatement>()) {
        explained = explained->as<sql::ExecuteStatement>().statement.get();
      }
      if (explained->is<sql::InsertStatement>()) {
        return listing("result", {explainInserts({planInsert(explained->as<sql::InsertStatement>())},
                                                 changelogMode, estimatedCost)});
      }
      if (explained->is<sql::StatementSetStatement>()) {
        std::vector<InsertPlan> inserts;
        for (const auto& inner : explained->as<sql::StatementSetStatement>().statements) {
          if (!inner->is<sql::InsertStatement>()) {
            throw ValidationException("A statement set accepts only INSERT statements");
          }
          inserts.push_back(planInsert(inner->as<sql::InsertStatement>()));
        }
        return listing("result", {explainInserts(inserts, changelogMode, estimatedCost)});
      }
      if (explained->is<sql::CreateTableStatement>()) {
        // CTAS/RTAS: the INSERT into the table the statement would create, which exists for
        // the explanation only (as a temporary table, so a permanent one is not touched).
        const auto& create = explained->as<sql::CreateTableStatement>();
        catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(create.tableName);
        sql::Binder binder(catalogs, bindingContext());
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
          text = explainInserts({InsertPlan{create.tableName, std::move(plan), false, {}}},
                                changelogMode, estimatedCost);
        } catch (...) {
          catalogs.dropTemporaryTable(identifier, false, true);
          throw;
        }
        catalogs.dropTemporaryTable(identifier, false, true);
        return listing("result", {text});
      }
      if (!explained->is<sql::QueryStatement>()) {
        throw TableException("EXPLAIN supports queries, INSERT statements and statement sets");
      }
      sql::Binder binder(catalogs, bindingContext());
      sql::LogicalNodePtr plan = binder.bindQuery(*explained->as<sql::QueryStatement>().query);
      return listing("result", {explainQueryPlan(plan, changelogMode, estimatedCost)});
    }
    case sql::StatementKind::kSet: {
      const auto& set = statement->as<sql::SetStatement>();
      if (!set.key) {
        std::vector<Row> rows;
        for (const auto& [key, value] : configuration_) {
          rows.push_back(Row::of(key, config::displayValue(key, value)));
        }
        return TableResult::ofRows(
            ResolvedSchema({ResolvedSchema::Column{"key", DataTypes::STRING().notNull(), std::nullopt},
                            ResolvedSchema::Column{"value", DataTypes::STRING().notNull(), std::nullopt}}),
            std::move(rows));
      }
      std::string value = set.value.value_or("");
      // An invalid value throws; an unknown key, or one not honoured yet, only warns.
      const config::OptionRegistry& options = config::OptionRegistry::instance();
      for (const std::string& warning : options.validate(*set.key, value)) {
        config::reportOptionWarning(warning);
      }
      configuration_[*set.key] = value;
      return TableResult::ok();
    }
    case sql::StatementKind::kReset: {
      const auto& reset = statement->as<sql::ResetStatement>();
      if (reset.key) {
        configuration_.erase(*reset.key);
      } else {
        configuration_.clear();
      }
      return TableResult::ok();
    }
    default:
      break;
  }
  throw TableException("Unsupported statement (not yet in eddy): " + statement->sourceText);
}

}  // namespace eddy
