#include "eddy/table/table_environment.h"

#include <functional>
#include <iostream>
#include <regex>
#include <set>

#include "catalog/catalog_manager.h"
#include "catalog/generic_in_memory_catalog.h"
#include "config/configuration_view.h"
#include "config/option_registry.h"
#include "config/option_warnings.h"
#include "connectors/dynamic_table_factory.h"
#include "eddy/datastream/data_stream.h"
#include "eddy/exceptions.h"
#include "function/function_registry.h"
#include "function/user_defined_function.h"
#include "runtime/operators/aggregate/aggregate_call.h"
#include "runtime/operators/chunk_exchange.h"
#include "sql/binder/binder.h"
#include "sql/optimizer/optimizer.h"
#include "sql/parser/parser.h"
#include "sql/parser/unparse.h"
#include "sql/physical/translator.h"
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
    Row row(6);
    row.setField(0, name);
    row.setField(1, type);
    row.setField(2, nullable);
    row.setField(3, key.empty() ? Value() : Value(key));
    row.setField(4, extras.empty() ? Value() : Value(extras));
    row.setField(5, watermark.empty() ? Value() : Value(watermark));
    rows.push_back(std::move(row));
  }
  auto text = [](const char* name, bool nullable) {
    DataType type = DataTypes::STRING();
    return ResolvedSchema::Column{name, nullable ? type : type.notNull(), std::nullopt};
  };
  return TableResult::ofRows(
      ResolvedSchema({text("name", false), text("type", false),
                      ResolvedSchema::Column{"null", DataTypes::BOOLEAN().notNull(), std::nullopt},
                      text("key", true), text("extras", true), text("watermark", true)}),
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
            line += sql::logicalTypeOf(c.type)->asSerializableString();
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
  sql::Binder binder(*catalogManager_, bindingContextOf(configuration_));
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
                                               bool changelogMode) const {
  sql::TranslationSettings translation;
  auto environment = newJobEnvironment(translation);
  DataStream<vector::Chunk> physical = sql::translateToDataStream(plan, *environment, translation);
  return "== Abstract Syntax Tree ==\n" + sql::explainPlan(*plan, false) +
         "\n== Optimized Logical Plan ==\n" + sql::explainPlan(*sql::optimize(plan), changelogMode) +
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
  return bindingContextOf(configuration_);
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

/// Adds the sink of one INSERT INTO `tableName` to the job: the query's rows cast to the
/// sink's column types, written by the table's connector. Returns the sink's identifier.
std::string addInsertSink(catalog::CatalogManager& catalogs, StreamExecutionEnvironment& environment,
                          const sql::TranslationSettings& translation,
                          const std::vector<std::string>& tableName, sql::LogicalNodePtr plan) {
  catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(tableName);
  catalog::CatalogManager::ResolvedTable target = catalogs.getTableOrThrow(identifier);
  if (target.table->kind != catalog::CatalogBaseTable::Kind::TABLE) {
    throw ValidationException("INSERT into the view '" + identifier.asSummaryString() +
                              "' is not allowed; insert into a table");
  }
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
  for (size_t i = 0; i < sinkFields.size(); ++i) {
    auto column = expression::column(static_cast<int>(i), queryFields[i].type);
    try {
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
  if (translation.streaming && plan->changelogMode != sql::ChangelogMode::kInsertOnly &&
      !sink->acceptsUpdates()) {
    throw TableException("Table sink '" + identifier.asSummaryString() +
                         "' doesn't support consuming update changes which is produced by node " +
                         sql::updateProducer(*plan).describe());
  }
  auto rows = withSinkInputMetrics(sql::translateToDataStream(plan, environment, translation));
  auto sinkStream = rows.transform<vector::Chunk>("Sink: " + identifier.asSummaryString(),
                                                  sink->createSinkOperator());
  // Flink's default: the sink runs at its input's parallelism (chained, so a changelog keeps
  // its order), unless the table sets 'sink.parallelism'.
  sinkStream.setParallelism(sink->sinkParallelism().value_or(rows.getParallelism()));
  return identifier.asSummaryString();
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

TableResult TableEnvironment::runInserts(
    const std::vector<std::pair<std::vector<std::string>, std::shared_ptr<const sql::LogicalNode>>>& inserts) {
  sql::TranslationSettings translation;
  auto environment = newJobEnvironment(translation);
  std::vector<ResolvedSchema::Column> columns;
  std::string jobName = "insert-into";
  for (const auto& [tableName, plan] : inserts) {
    std::string sink = addInsertSink(*catalogManager_, *environment, translation, tableName, plan);
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

void TableEnvironment::addInsertsTo(
    StreamExecutionEnvironment& environment,
    const std::vector<std::pair<std::vector<std::string>, std::shared_ptr<const sql::LogicalNode>>>&
        inserts) const {
  sql::TranslationSettings translation;
  configureTranslation(translation);
  for (const auto& [tableName, plan] : inserts) {
    addInsertSink(*catalogManager_, environment, translation, tableName, plan);
  }
}

std::pair<std::vector<std::string>, std::shared_ptr<const sql::LogicalNode>>
TableEnvironment::planInsert(const sql::InsertStatement& insert) {
  if (!insert.columns.empty() || !insert.partition.empty() || insert.overwrite) {
    throw TableException("INSERT with a column list, PARTITION or OVERWRITE is not supported yet");
  }
  catalogManager_->getTableOrThrow(catalogManager_->qualifyIdentifier(insert.tableName));
  sql::Binder binder(*catalogManager_, bindingContextOf(configuration_));
  return {insert.tableName, binder.bindQuery(*insert.query)};
}

TableResult TableEnvironment::executeInserts(
    const std::vector<const sql::InsertStatement*>& inserts) {
  std::vector<std::pair<std::vector<std::string>, std::shared_ptr<const sql::LogicalNode>>> plans;
  for (const sql::InsertStatement* insert : inserts) plans.push_back(planInsert(*insert));
  return runInserts(plans);
}

TableResult TableEnvironment::executeInsertPlan(const std::string& targetPath,
                                                const std::shared_ptr<const sql::LogicalNode>& plan) {
  return runInserts({{splitPath(targetPath), plan}});
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
  return Table(this, sql::planTableScan(*catalogManager_, table, name));
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
  inserts_.emplace_back(std::move(path), table.plan());
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
  std::string text;
  for (const auto& [path, plan] : inserts_) {
    std::string target;
    for (size_t i = 0; i < path.size(); ++i) target += (i ? "." : "") + path[i];
    text += "== Sink: " + target + " ==\n" + sql::explainPlan(*sql::optimize(plan), true);
  }
  return text;
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
      sql::Binder binder(catalogs, bindingContextOf(configuration_));
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
        sql::Binder binder(catalogs, bindingContextOf(configuration_));
        return executePlan(binder.bindQuery(*inner.as<sql::QueryStatement>().query));
      }
      throw ValidationException("EXECUTE accepts a query or an INSERT statement");
    }
    case sql::StatementKind::kCreateView: {
      const auto& create = statement->as<sql::CreateViewStatement>();
      if (!create.columns.empty()) {
        throw TableException("CREATE VIEW with a column list is not supported yet");
      }
      std::string query = sql::unparse(*create.query);
      sql::Binder binder(catalogs);
      sql::LogicalNodePtr plan = binder.bindQuery(*create.query);
      catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(create.viewName);
      catalog::CatalogBaseTable view = viewOf(query, *plan);
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
      if (create.asQuery || create.like) {
        throw TableException("CREATE TABLE ... AS and LIKE are not supported yet");
      }
      catalog::CatalogBaseTable table;
      Schema::Builder builder = Schema::newBuilder();
      for (const sql::TableColumn& column : create.columns) addColumn(builder, column);
      for (const sql::WatermarkDefinition& watermark : create.watermarks) {
        builder.watermark(watermark.column.back(), sql::unparse(*watermark.expression));
      }
      if (create.primaryKey) {
        if (!create.primaryKey->notEnforced) {
          throw ValidationException(
              "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT "
              "ENFORCED controls if the constraint checks are performed on the incoming/outgoing "
              "data. Flink does not own the data therefore the only supported mode is the NOT "
              "ENFORCED mode");
        }
        if (create.primaryKey->name) {
          builder.primaryKeyNamed(*create.primaryKey->name, create.primaryKey->columns);
        } else {
          builder.primaryKey(create.primaryKey->columns);
        }
      }
      table.schema = builder.build();
      table.comment = create.comment;
      table.partitionKeys = create.partitionKeys;
      for (const sql::TableOption& option : create.options) table.options[option.key] = option.value;
      catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(create.tableName);
      if (create.temporary) {
        catalogs.createTemporaryTable(std::move(table), identifier, create.ifNotExists);
      } else {
        catalogs.createTable(std::move(table), identifier, create.ifNotExists);
      }
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
        case sql::AlterTableAction::kAdd: {
          if (!alter.watermarks.empty() || alter.primaryKey) {
            throw TableException("ALTER TABLE ADD of a watermark or primary key is not supported yet");
          }
          Schema::Builder builder = Schema::newBuilder();
          builder.fromSchema(table.schema);
          for (const sql::TableColumn& column : alter.columns) addColumn(builder, column);
          table.schema = builder.build();
          break;
        }
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
      if (!explain.statement->is<sql::QueryStatement>()) {
        throw TableException("EXPLAIN of INSERT and statement sets is not supported yet");
      }
      bool changelogMode = std::find(explain.details.begin(), explain.details.end(),
                                     sql::ExplainDetail::kChangelogMode) != explain.details.end();
      sql::Binder binder(catalogs, bindingContextOf(configuration_));
      sql::LogicalNodePtr plan = binder.bindQuery(*explain.statement->as<sql::QueryStatement>().query);
      return listing("result", {explainQueryPlan(plan, changelogMode)});
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
