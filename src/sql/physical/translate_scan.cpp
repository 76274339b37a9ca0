// Translation of the plan's leaves (translation_context.h): VALUES becomes a collection
// source, a table scan its connector's source (with the partitions, projection and metadata
// the optimizer pushed into it), and a DataStream scan the upstream DataStream's
// transformations (copied into the job when they belong to another environment) followed by
// Flink's SourceConversion into chunks and, for upserts, a ChangelogNormalize.
#include "common/check.h"
#include "connectors/dynamic_table_factory.h"
#include "expression/expression_evaluator.h"
#include "runtime/operators/chunk_exchange.h"
#include "runtime/operators/normalize/changelog_normalize_operator.h"
#include "sql/physical/translation_context.h"
#include "sql/planner/plan_table_scan.h"

namespace eddy::sql::physical {

DataStream<vector::Chunk> translateValues(const LogicalValues& values,
                                          StreamExecutionEnvironment& env) {
  std::vector<vector::Chunk> chunks;
  if (!values.rows.empty()) chunks.push_back(vector::rowsToChunk(values.rows, values.rowType));
  return env.fromCollection(std::move(chunks))
      .name("Source: Values")
      .setDescription(physicalDescription(values));
}

std::unique_ptr<connectors::DynamicTableSource> tableSourceOf(const LogicalTableScan& table,
                                                              const TranslationSettings& settings) {
  connectors::ConnectorContext context = connectorContextOf(table, settings.streaming);
  return connectors::FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(
      context);
}

namespace {

/// `chunks`, an upsert changelog by the columns `keys` of `rowType`, as a retract changelog
/// (Flink's ChangelogNormalize, after a HASH exchange on the key).
DataStream<vector::Chunk> normalized(DataStream<vector::Chunk> chunks, std::vector<int> keys,
                                     LogicalTypePtr rowType, const TranslationSettings& settings,
                                     bool generateUpdateBefore = true) {
  std::string name = "ChangelogNormalize(key=[" + keyNames(rowType, keys) + "])";
  return withParallelism(
      hashExchange(chunks, keys, rowType)
          .transform<vector::Chunk>(
              std::move(name),
              std::make_shared<runtime::LambdaOperatorFactory>(
                  [rowType, keys, generateUpdateBefore] {
                    return std::make_unique<runtime::operators::ChangelogNormalizeOperator>(
                        rowType, keys, generateUpdateBefore);
                  }),
              true),
      settings);
}

/// Flink's message for a changelog source in BATCH (`how`: how the table is read).
[[noreturn]] void throwChangelogInBatch(const std::string& table, const std::string& how) {
  throw ValidationException(
      "Querying a table in batch mode is currently only possible for INSERT-only table "
      "sources. But the source for table '" +
      table + "' produces other changelog messages than just INSERT" + how + ".");
}

/// The watermark of a chunk for a pushed-down watermark (the timestamp assigner of
/// pushedWatermarkStrategy): the largest non-NULL value of the watermark expression over its
/// rows, kNoTimestamp when there is none. The evaluator is shared; each copy (one per source
/// subtask) has its own buffers.
class ChunkWatermark {
 public:
  explicit ChunkWatermark(expression::ExpressionPtr watermark)
      : evaluator_(std::make_shared<const expression::ExpressionEvaluator>(
            std::vector<expression::ExpressionPtr>{std::move(watermark)})) {}
  ChunkWatermark(const ChunkWatermark& other) : evaluator_(other.evaluator_) {}
  ChunkWatermark& operator=(const ChunkWatermark&) = delete;

  int64_t operator()(const vector::Chunk& chunk, int64_t) {
    evaluator_->evaluate(chunk, results_, context_);
    const vector::Vector& values = results_[0];
    const int64_t* millis = values.data<int64_t>();
    int64_t watermark = runtime::kNoTimestamp;
    for (int64_t row = 0; row < chunk.size(); ++row) {
      if (!values.isNull(row) && millis[row] > watermark) watermark = millis[row];
    }
    return watermark;
  }

 private:
  std::shared_ptr<const expression::ExpressionEvaluator> evaluator_;
  std::vector<vector::Vector> results_;
  function::EvaluationContext context_;
};

/// The largest watermark seen: a declared watermark is the expression's value itself.
class LargestWatermark final : public WatermarkGenerator {
 public:
  void onEvent(int64_t watermark) override { watermark_ = std::max(watermark_, watermark); }
  int64_t currentWatermark() const override { return watermark_; }

 private:
  int64_t watermark_ = runtime::Watermark::kMin;
};

/// The strategy of a watermark pushed into a scan (Flink's SupportsWatermarkPushDown): each
/// chunk's "timestamp" is its watermark (SQL rows carry their event time in the rowtime
/// column, not in the record's timestamp, so nothing else reads it), each split's generator
/// keeps the largest, and 'table.exec.source.idle-timeout' makes a split without records
/// that long stop holding the watermark back (and the subtask idle, once all are).
WatermarkStrategy<vector::Chunk> pushedWatermarkStrategy(const expression::ExpressionPtr& watermark,
                                                         const TranslationSettings& settings) {
  auto strategy = WatermarkStrategy<vector::Chunk>::forGenerator([] {
                    return std::make_unique<LargestWatermark>();
                  }).withTimestampAssigner(ChunkWatermark(watermark));
  if (settings.sourceIdleTimeout > 0) {
    strategy = strategy.withIdleness(std::chrono::milliseconds(settings.sourceIdleTimeout));
  }
  return strategy;
}

}  // namespace

DataStream<vector::Chunk> translateTableScan(const LogicalTableScan& scan,
                                             StreamExecutionEnvironment& env,
                                             const TranslationSettings& settings) {
  if (!settings.streaming && scan.changes != connectors::SourceChangelogMode::kInsertOnly) {
    throwChangelogInBatch(scan.tableName, "");
  }
  auto tableSource = tableSourceOf(scan, settings);
  if (scan.partitions) tableSource->applyPartitions(*scan.partitions);
  if (scan.projection) tableSource->applyProjection(*scan.projection);
  if (!scan.metadataKeys.empty()) tableSource->applyReadableMetadata(scan.metadataKeys);
  auto source = tableSource->createSource();
  // Flink's form: TableSourceScan(table=[[catalog, database, table]], fields=[..]).
  std::string path = scan.tableName;
  for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 2)) {
    path.replace(dot, 1, ", ");
  }
  // Flink's form of a pushed watermark: watermark=[-(ts, 5000:INTERVAL SECOND)] (here with
  // eddy's expression text), watermarkEmitStrategy=[on-periodic].
  std::string watermark;
  if (scan.watermark) {
    watermark = ", watermark=[" + scan.watermark->toString(scan.rowType->getFieldNames()) +
                "], watermarkEmitStrategy=[on-periodic]";
  }
  DataStream<vector::Chunk> chunks = withParallelism(
      env.fromSource(std::move(source),
                     scan.watermark && settings.streaming
                         ? pushedWatermarkStrategy(scan.watermark, settings)
                         : WatermarkStrategy<vector::Chunk>::noWatermarks(),  // BATCH: none
                     scan.tableName)
          .setDescription("TableSourceScan(table=[[" + path +
                          (scan.partitions ? ", " + scan.describePartitions() : "") + watermark +
                          "]], fields=[" + fieldList(scan.rowType) + "])"),
      settings);
  if (scan.changes != connectors::SourceChangelogMode::kUpsert) return chunks;
  // The primary key's columns are the scan's (physical columns come first; ProjectionPushDown
  // leaves a changelog scan unprojected).
  EDDY_CHECK(!scan.projection);
  return normalized(std::move(chunks), scan.primaryKey, scan.rowType, settings,
                    scan.generateUpdateBefore);
}

namespace {

/// `transformation` and everything upstream of it, added to `env` (once per job). Operator
/// factories are immutable and shared; each job creates its own operators from them.
runtime::Transformation* copyInto(StreamExecutionEnvironment& env,
                                  const runtime::Transformation& transformation,
                                  const TranslationSettings& settings) {
  auto& copies = *settings.copiedTransformations;
  if (auto found = copies.find(&transformation); found != copies.end()) return found->second;
  auto copy = std::make_unique<runtime::Transformation>(transformation);
  for (runtime::Transformation*& input : copy->inputs) input = copyInto(env, *input, settings);
  runtime::Transformation* added = env.addTransformation(std::move(copy));
  copies.emplace(&transformation, added);
  return added;
}

}  // namespace

DataStream<vector::Chunk> translateDataStreamScan(const LogicalDataStreamScan& scan,
                                                  StreamExecutionEnvironment& env,
                                                  const TranslationSettings& settings) {
  const DataStreamSource& source = *scan.source;
  if (!settings.streaming && source.kinds != DataStreamSource::Kinds::kInsertOnly) {
    throwChangelogInBatch(source.name, " (it was read with fromChangelogStream())");
  }
  if (!source.unreadableType.empty()) {
    throw ValidationException("The table " + source.name + " reads records of the C++ type " +
                              source.unreadableType +
                              ", which the Table runtime cannot look into. Register the type's "
                              "fields with EDDY_STRUCT(Type, field, ...) or convert the records "
                              "into Rows before fromDataStream().");
  }
  runtime::Transformation* rows = source.transformation;
  if (&env != source.environment) rows = copyInto(env, *rows, settings);
  DataStream<Row> stream(&env, rows);
  auto spec = std::make_shared<runtime::operators::RowsToChunksOperator::Spec>();
  spec->rowType = scan.rowType;
  spec->rowtimeColumn = source.rowtimeColumn;
  spec->acceptsChanges = source.kinds != DataStreamSource::Kinds::kInsertOnly;
  spec->upsert = source.kinds == DataStreamSource::Kinds::kUpsert;
  std::shared_ptr<const runtime::operators::RowsToChunksOperator::Spec> shared = std::move(spec);
  std::string fields;
  for (const RowField& field : scan.rowType->getFields()) {
    fields += (fields.empty() ? "" : ", ") + field.name;
  }
  DataStream<vector::Chunk> chunks = stream.transform<vector::Chunk>(
      "SourceConversion(table=[" + source.name + "], fields=[" + fields + "])",
      std::make_shared<runtime::LambdaOperatorFactory>(
          [shared] { return std::make_unique<runtime::operators::RowsToChunksOperator>(shared); }));
  // Chained to the stream's last operator, as Flink's SourceConversion.
  chunks.setParallelism(stream.getParallelism());
  if (source.kinds == DataStreamSource::Kinds::kUpsert) {
    chunks = normalized(std::move(chunks), source.upsertKey, scan.rowType, settings);
  }
  return chunks;
}

}  // namespace eddy::sql::physical
