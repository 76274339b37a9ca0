// A LogicalSink as Flink's sink chain: the NOT NULL enforcer (ConstraintEnforcer), Flink's
// SinkUpsertMaterializer where planSink asked for one (upsertMaterializerSpec,
// materializeUpserts), then the connector's sink operator.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "connectors/dynamic_table_factory.h"
#include "runtime/operators/sink/not_null_enforcer_operator.h"
#include "sql/physical/translation_context.h"

namespace eddy::sql {

std::shared_ptr<runtime::operators::SinkUpsertMaterializerSpec> upsertMaterializerSpec(
    const LogicalNode& plan, const std::vector<int>& primaryKey) {
  const std::vector<std::vector<int>> upsertKeys = upsertKeysOf(plan);
  auto spec = std::make_shared<runtime::operators::SinkUpsertMaterializerSpec>();
  spec->rowType = plan.rowType;
  spec->primaryKey = primaryKey;
  for (const auto& key : upsertKeys) {
    if (spec->upsertKey.empty() || key.size() < spec->upsertKey.size() ||
        (key.size() == spec->upsertKey.size() && key < spec->upsertKey)) {
      spec->upsertKey = key;
    }
  }
  return spec;
}

DataStream<vector::Chunk> materializeUpserts(
    const DataStream<vector::Chunk>& rows,
    std::shared_ptr<const runtime::operators::SinkUpsertMaterializerSpec> spec) {
  const std::string names = physical::keyNames(spec->rowType, spec->primaryKey);
  DataStream<vector::Chunk> materialized =
      physical::hashExchange(rows, spec->primaryKey, spec->rowType)
          .transform<vector::Chunk>(
              "SinkMaterializer(pk=[" + names + "])",
              std::make_shared<runtime::LambdaOperatorFactory>([spec] {
                return std::make_unique<runtime::operators::SinkUpsertMaterializerOperator>(spec);
              }),
              true);
  materialized.setParallelism(rows.getParallelism());
  return materialized;
}

namespace physical {

DataStream<vector::Chunk> translateSink(const LogicalSink& sink, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings) {
  const LogicalNode& input = *sink.inputs[0];
  DataStream<vector::Chunk> rows = translate(input, env, settings);
  if (!sink.notNullColumns.empty()) {
    // Flink's ConstraintEnforcer, chained before the sink.
    auto notNull = std::make_shared<runtime::operators::NotNullEnforcerSpec>();
    notNull->columns = sink.notNullColumns;
    for (int column : sink.notNullColumns) {
      notNull->names.push_back(sink.rowType->getFields()[static_cast<size_t>(column)].name);
    }
    notNull->dropRows = settings.dropNotNullViolations;
    DataStream<vector::Chunk> enforced = rows.transform<vector::Chunk>(
        fmt::format("ConstraintEnforcer[NotNullEnforcer(fields=[{}])]",
                    fmt::join(notNull->names, ", ")),
        factoryOf<runtime::operators::NotNullEnforcerOperator>(notNull));
    enforced.setParallelism(rows.getParallelism());
    rows = std::move(enforced);
  }
  if (sink.upsertMaterialize) {
    rows = materializeUpserts(rows, upsertMaterializerSpec(input, sink.primaryKey));
  }
  if (settings.beforeSink) rows = settings.beforeSink(std::move(rows));
  auto sinkStream =
      rows.transform<vector::Chunk>("Sink: " + sink.tableName, sink.sink->createSinkOperator());
  sinkStream.setDescription(
      fmt::format("Sink(table=[{}], fields=[{}]{})", sink.tableName,
                  fmt::join(sink.rowType->getFieldNames(), ", "),
                  sink.upsertMaterialize ? ", upsertMaterialize=[true]" : ""));
  // Flink's default: the sink runs at its input's parallelism (chained, so a changelog keeps
  // its order), unless the table sets 'sink.parallelism'.
  sinkStream.setParallelism(sink.sink->sinkParallelism().value_or(rows.getParallelism()));
  return sinkStream;
}

}  // namespace physical

}  // namespace eddy::sql
