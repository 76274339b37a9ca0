// INSERT statements and statement sets: an INSERT bound onto its table's columns
// (TableEnvironmentImpl::planInsert: column lists, static partitions, NULL for the columns not
// written), its sink added to a job (the implicit casts to the sink's column types, then
// sql::planSink's LogicalSink over the optimized query: the NOT NULL enforcer, update-before
// removal and the upsert materializer, the connector's sink),
// several INSERTs run as one job (runInserts, executeInserts; also StatementSet and
// Table::executeInsert) or explained (explainInserts), or added to a DataStream program
// (addInsertsTo, for StreamStatementSet).
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "catalog/catalog_manager.h"
#include "connectors/dynamic_table_factory.h"
#include "eddy/datastream/data_stream.h"
#include "eddy/exceptions.h"
#include "expression/expression_evaluator.h"
#include "formats/text_value_codec.h"
#include "function/type_rules.h"
#include "runtime/operators/sink/not_null_enforcer_operator.h"
#include "sql/binder/binder.h"
#include "sql/optimizer/optimizer.h"
#include "sql/parser/unparse.h"
#include "sql/physical/translator.h"
#include "sql/planner/plan_sink.h"
#include "sql/planner/plan_table_scan.h"
#include "table/environment/operations/job_progress.h"
#include "table/environment/operations/statement_operations.h"
#include "table/environment/session_options.h"
#include "table/environment/table_environment_impl.h"

namespace eddy {

namespace {

using table::InsertPlan;

using table::operations::progressOf;
using table::operations::withSinkInputMetrics;

/// The result of INSERT statements: one row (-1, as Flink reports an unknown count) per sink;
/// reading past it waits until the job has finished (so await() waits for the job). It holds
/// the job's client through the session's handle (SessionJobs): dropping it cancels a job still
/// running and leaves the session the job's last status.
class InsertRowSource final : public RowSource {
 public:
  InsertRowSource(std::unique_ptr<StreamExecutionEnvironment> environment,
                  std::shared_ptr<table::SessionJobs::Handle> job, int sinkCount)
      : environment_(std::move(environment)), job_(std::move(job)), sinkCount_(sinkCount) {}
  std::optional<Row> next() override {
    if (!returned_) {
      returned_ = true;
      Row row(sinkCount_);
      for (int i = 0; i < sinkCount_; ++i) row.setField(i, int64_t{-1});
      return row;
    }
    if (!finished_) {
      finished_ = true;
      job_->client().waitForCompletion();
    }
    return std::nullopt;
  }
  int64_t numLateRecordsDropped() const override {
    return job_->client().getNumLateRecordsDropped();
  }
  int64_t numNotNullRowsDropped() const override {
    return job_->client().getMetrics()->numNotNullRowsDropped.load();
  }
  /// Stops the job (the interactive client's Ctrl-C); a waiting next() returns.
  void cancel() override { job_->client().cancel(); }
  JobProgress progress() const override { return progressOf(job_->client()); }
  const JobClient* jobClient() const override { return &job_->client(); }

 private:
  std::unique_ptr<StreamExecutionEnvironment> environment_;
  // Declared after the environment, so destroyed before it (the job ends while its
  // environment lives, as before).
  std::shared_ptr<table::SessionJobs::Handle> job_;
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

/// The sink of one INSERT added to a job.
struct AddedSink {
  std::string identifier;          // catalog.database.table
  sql::LogicalNodePtr plan;        // the LogicalSink over the rows cast to its columns, as bound
  sql::LogicalNodePtr optimized;   // the LogicalSink over them optimized, as it consumes them
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
  // The query gives the persisted columns (physical and written metadata), in declared order.
  LogicalTypePtr sinkType = sql::persistedRowTypeOf(*target.table);
  if (plan->rowType->getFieldCount() != sinkType->getFieldCount()) {
    throw ValidationException(
        "Column types of query result and sink for '" + identifier.asSummaryString() +
        "' do not match.\nCause: Different number of columns.\n\n"
        "Query schema: " +
        describeColumns(*plan->rowType) + "\nSink schema:  " + describeColumns(*sinkType));
  }
  connectors::ConnectorContext context{
      identifier.asSummaryString(),
      sql::physicalRowTypeOf(*target.table, identifier.asSummaryString()),
      target.table->options,
      translation.streaming,
      target.table->partitionKeys,
      {}};
  if (const auto& primaryKey = target.table->schema.getPrimaryKey()) {
    context.primaryKey = primaryKey->columnNames;
  }
  const auto& factory = connectors::FactoryRegistry::builtIn().factoryFor(context);
  std::unique_ptr<connectors::DynamicTableSink> sink = factory.createDynamicTableSink(context);
  // The sink consumes the physical columns, then the metadata ones in its own order (Flink's
  // SupportsWritingMetadata): the query's columns reordered so, each cast to its declared type
  // below and a metadata column then to the key's type.
  const sql::WritableMetadata metadata = sql::writableMetadataOf(
      *target.table, identifier.asSummaryString(), factory.factoryIdentifier(), *sink);
  if (!metadata.keys.empty()) {
    std::vector<expression::ExpressionPtr> columns;
    std::vector<RowField> fields;
    for (int persisted : metadata.persistedColumns) {
      columns.push_back(expression::column(persisted, plan->rowType->getFields()[persisted].type));
      fields.push_back(sinkType->getFields()[static_cast<size_t>(persisted)]);
    }
    std::vector<std::string> names;
    for (const RowField& field : plan->rowType->getFields()) names.push_back(field.name);
    std::vector<std::string> reordered;
    for (int persisted : metadata.persistedColumns) reordered.push_back(names[persisted]);
    plan = std::make_shared<sql::LogicalProject>(plan, std::move(columns), std::move(reordered));
    sinkType = LogicalType::row(std::move(fields), false);
    sink->applyWritableMetadata(metadata.keys);
  }
  const auto& queryFields = plan->rowType->getFields();
  const auto& sinkFields = sinkType->getFields();
  // Implicit casts to the sink's column types (an impossible cast names the columns).
  std::vector<expression::ExpressionPtr> casts;
  std::vector<std::string> names;
  // The NOT NULL columns of the sink that the query may fill with NULL.
  std::vector<int> notNullColumns;
  for (size_t i = 0; i < sinkFields.size(); ++i) {
    if (!sinkFields[i].type->isNullable() && queryFields[i].type->isNullable()) {
      notNullColumns.push_back(static_cast<int>(i));
    }
    auto column = expression::column(static_cast<int>(i), queryFields[i].type);
    // A string into a string column: only trimmed or padded to the column's length with
    // table.exec.sink.type-length-enforcer = TRIM_PAD (Flink's default IGNORE writes it as is).
    const bool sameStringKind = (function::isCharacterString(*queryFields[i].type) &&
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
                                identifier.asSummaryString() +
                                "' do not match.\nCause: " + error.what() +
                                "\n\nQuery schema: " + describeColumns(*plan->rowType) +
                                "\nSink schema:  " + describeColumns(*sinkType));
    }
    names.push_back(sinkFields[i].name);
  }
  // The metadata columns (the last ones) cast from their declared types to the keys' types.
  const size_t firstMetadata = sinkFields.size() - metadata.keys.size();
  for (size_t k = 0; k < metadata.keys.size(); ++k) {
    casts[firstMetadata + k] =
        expression::castIfNeeded(casts[firstMetadata + k], metadata.types[k],
                                 function::BindingContext{translation.sessionTimeZone});
  }
  const sql::LogicalNodePtr bound =
      std::make_shared<sql::LogicalProject>(plan, std::move(casts), std::move(names));
  // What the sink consumes (its changelog, the -U it gets, the upsert materializer) is decided
  // on the optimized plan (as Flink infers changelog modes after its logical rewrites).
  plan = sql::optimize(bound, translation.optimizer);

  if (insert.overwrite) {
    if (!sink->supportsOverwrite()) {
      throw ValidationException(
          "INSERT OVERWRITE requires that the underlying DynamicTableSink "
          "of table '" +
          identifier.asSummaryString() + "' implements the SupportsOverwrite interface.");
    }
    sink->applyOverwrite(true);
  }
  if (!insert.staticPartition.empty()) {
    if (!sink->supportsPartitioning()) {
      throw ValidationException(
          "INSERT with a PARTITION clause requires that the underlying "
          "DynamicTableSink of table '" +
          identifier.asSummaryString() + "' implements the SupportsPartitioning interface.");
    }
    sink->applyStaticPartition(insert.staticPartition);
  }
  // The sink's primary key (columns of the rows written; the key's columns are physical).
  sql::SinkTarget sinkTarget;
  sinkTarget.tableName = identifier.asSummaryString();
  sinkTarget.sink = std::move(sink);
  sinkTarget.overwrite = insert.overwrite;
  sinkTarget.notNullColumns = notNullColumns;
  if (const auto& primaryKey = target.table->schema.getPrimaryKey()) {
    sinkTarget.declaresPrimaryKey = true;
    std::vector<int> key;
    for (const std::string& name : primaryKey->columnNames) {
      key.push_back(sinkType->getFieldIndex(name));
    }
    if (std::find(key.begin(), key.end(), -1) == key.end()) sinkTarget.primaryKey = std::move(key);
  }
  std::shared_ptr<const sql::LogicalSink> sinkNode =
      sql::planSink(plan, sinkTarget, translation.streaming, translation.upsertMaterialize);
  sql::TranslationSettings settings = translation;
  if (countRows) settings.beforeSink = withSinkInputMetrics;
  auto sinkStream = sql::translateOptimizedPlan(sinkNode, environment, settings);
  return AddedSink{identifier.asSummaryString(), sql::withSinkInput(*sinkNode, bound), sinkNode,
                   std::move(sinkStream)};
}

}  // namespace

TableResult table::TableEnvironmentImpl::runInserts(const std::vector<InsertPlan>& inserts) {
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
  std::shared_ptr<SessionJobs::Handle> job = jobs_.add(environment->executeAsync(jobName));
  int sinkCount = static_cast<int>(columns.size());
  return TableResult(
      ResultKind::SUCCESS_WITH_CONTENT, ResolvedSchema(std::move(columns)),
      std::make_unique<InsertRowSource>(std::move(environment), std::move(job), sinkCount),
      false);
}

void table::TableEnvironmentImpl::addInsertsTo(StreamExecutionEnvironment& environment,
                                               const std::vector<InsertPlan>& inserts) const {
  sql::TranslationSettings translation;
  configureTranslation(translation);
  for (const InsertPlan& insert : inserts) {
    addInsertSink(*catalogManager_, environment, translation, insert);
  }
}

std::string table::TableEnvironmentImpl::explainInserts(const std::vector<InsertPlan>& inserts,
                                                        bool changelogMode, bool estimatedCost,
                                                        bool jsonExecutionPlan) const {
  sql::TranslationSettings translation;
  auto environment = newJobEnvironment(translation);
  std::string syntaxTree, optimized, physical;
  for (const InsertPlan& insert : inserts) {
    AddedSink added = addInsertSink(*catalogManager_, *environment, translation, insert, false);
    // The LogicalSink over the rows as they reach it (with the implicit casts).
    syntaxTree += sql::explainPlan(*added.plan, false);
    optimized += sql::explainPlan(*added.optimized, changelogMode, estimatedCost);
    physical += sql::explainPhysicalPlan(added.sink);
  }
  std::string text = "== Abstract Syntax Tree ==\n" + syntaxTree +
                     "\n== Optimized Logical Plan ==\n" + optimized +
                     "\n== Physical Plan ==\n" + physical;
  // The job runInserts would run, every sink in one plan (without the row counter before
  // each sink that feeds the job's progress).
  if (jsonExecutionPlan) {
    text += "\n== Physical Execution Plan ==\n" + environment->getExecutionPlan() + "\n";
  }
  return text;
}

table::InsertPlan table::TableEnvironmentImpl::planInsert(const sql::InsertStatement& insert) {
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
  LogicalTypePtr sinkType = sql::persistedRowTypeOf(*target.table);
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
      constant = expression::ExpressionEvaluator::evaluateConstant(
          expression::castIfNeeded(binder.bindExpressionText(sql::unparse(*value.value), {}),
                                   field.type, table::bindingContextOf(configuration_)));
    } catch (const ValidationException&) {
      // not a constant, or not of the key's type
    }
    if (!constant) {
      throw ValidationException(
          fmt::format("The value of static partition column '{}' must be a constant of type {}",
                      value.column, field.type->asSummaryString()),
          value.value->position.line, value.value->position.column);
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
    throw ValidationException("Number of INSERT target columns (" + std::to_string(targets.size()) +
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

TableResult table::TableEnvironmentImpl::executeInserts(
    const std::vector<const sql::InsertStatement*>& inserts) {
  std::vector<InsertPlan> plans;
  for (const sql::InsertStatement* insert : inserts) plans.push_back(planInsert(*insert));
  return runInserts(plans);
}

namespace table::operations {

TableResult executeInsert(OperationContext& context, const sql::InsertStatement& insert) {
  return context.executeInserts({&insert});
}

TableResult executeStatementSet(OperationContext& context,
                                const sql::StatementSetStatement& statementSet) {
  std::vector<const sql::InsertStatement*> inserts;
  for (const auto& inner : statementSet.statements) {
    if (!inner->is<sql::InsertStatement>()) {
      throw ValidationException("A statement set accepts only INSERT statements");
    }
    inserts.push_back(&inner->as<sql::InsertStatement>());
  }
  // An empty set runs nothing and succeeds, as in Flink's SQL client.
  if (inserts.empty()) return TableResult::ok();
  return context.executeInserts(inserts);
}

}  // namespace table::operations

}  // namespace eddy
