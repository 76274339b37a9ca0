// Translator: turns a logical plan into DataStream transformations over chunks on a
// StreamExecutionEnvironment — the one runtime of eddy (DESIGN §1: the planner has no
// runtime of its own). Values become a collection source, a table scan its connector's
// source (src/connectors, chosen by the 'connector' option), Project and Filter a Calc (a
// projection over a filter one Calc),
// Aggregate a HASH exchange on the grouping columns followed by a GroupAggregate (at
// parallelism 1 without grouping columns, Flink's singleton distribution). Each node family
// is translated in a file of its own; translation_context.h lists them.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "common/session_time_zone.h"
#include "eddy/datastream/data_stream.h"
#include "runtime/operators/sink/sink_upsert_materializer_operator.h"
#include "sql/optimizer/optimizer.h"
#include "sql/planner/logical_node.h"
#include "sql/planner/plan_digest.h"
#include "vector/chunk.h"

namespace eddy::sql {

/// The sub-plans a job has translated, by their digest id (table.optimizer.reuse-sub-plan-enabled).
struct SubPlanReuse {
  PlanDigests digests;
  std::map<int64_t, DataStream<vector::Chunk>> streams;
};

struct TranslationSettings {
  /// The job's runtime mode (connectors may behave differently).
  bool streaming = true;
  /// table.exec.resource.default-parallelism; -1: the environment's default.
  int defaultParallelism = -1;
  /// table.local-time-zone, for the job's result: TableResult.print() shows TIMESTAMP_LTZ
  /// values in it. (The plan's casts and functions captured the zone when they were bound.)
  common::SessionTimeZone sessionTimeZone;
  /// pipeline.auto-watermark-interval (ms): how far a WATERMARK declaration's watermark
  /// advances before it is emitted.
  int64_t autoWatermarkInterval = 200;
  /// table.exec.source.idle-timeout (ms; 0: sources never go idle).
  int64_t sourceIdleTimeout = 0;
  /// table.exec.sink.not-null-enforcer is DROP: a table sink drops rows with NULL in a NOT NULL
  /// column (else the job fails on the first).
  bool dropNotNullViolations = false;
  /// table.exec.sink.type-length-enforcer is TRIM_PAD: a string written into a CHAR/VARCHAR
  /// (BINARY/VARBINARY) sink column is trimmed to its length, a CHAR (BINARY) one padded; with
  /// IGNORE (Flink's default) it is written as it is.
  bool trimPadToSinkLength = false;
  /// table.exec.sink.upsert-materialize: NONE, AUTO (Flink's default) or FORCE; read when a
  /// table sink with a primary key is added (table_environment.cpp, addInsertSink).
  std::string upsertMaterialize = "AUTO";
  /// table.exec.state.ttl (ms; 0: state never expires): for regular joins and aggregations.
  int64_t stateTtl = 0;
  /// table.exec.disabled-operators as set (Flink's operator names, comma-separated): read when
  /// a BATCH join is planned (translate_join.cpp, batchJoinChoice), as Flink reads it.
  std::string disabledOperators;
  /// table.optimizer.disabled-passes: the optimizer passes not to run.
  OptimizerSettings optimizer;
  /// Applied to the rows just before each table sink (the job's progress counter of rows
  /// written); none when empty.
  std::function<DataStream<vector::Chunk>(DataStream<vector::Chunk>)> beforeSink;
  /// table.exec.mini-batch.allow-latency (ms) and .size when table.exec.mini-batch.enabled
  /// (both > 0); 0 when mini-batch is off.
  int64_t miniBatchLatency = 0;
  int64_t miniBatchSize = 0;
  /// table.optimizer.agg-phase-strategy is not ONE_PHASE: a GROUP BY under mini-batch whose
  /// calls all merge runs as a local phase (chained to its input) and a global phase after the
  /// exchange (Flink's local/global aggregation).
  bool twoPhaseAggregation = true;
  /// table.optimizer.distinct-agg.split.bucket-num when table.optimizer.distinct-agg.split.enabled
  /// (STREAMING only), else 0: a GROUP BY with DISTINCT calls runs as Expand → partial
  /// aggregation by key and bucket → final aggregation by key (Flink's split distinct
  /// aggregation).
  int distinctSplitBuckets = 0;
  /// table.optimizer.reuse-sub-plan-enabled: equal sub-plans of one job (PlanDigests: equal
  /// nodes over equal inputs, changelog modes and row types included) become one DataStream;
  /// shared by every translation of the job, whose plans must stay alive while it is used.
  /// Null: no reuse.
  std::shared_ptr<SubPlanReuse> reusedSubPlans;
  /// DataStream scans of another environment (a StreamTableEnvironment's, read by a table job
  /// that runs on its own environment): the upstream transformations copied into the job, each
  /// once per job. Shared by every translation of the job.
  std::shared_ptr<std::map<const runtime::Transformation*, runtime::Transformation*>>
      copiedTransformations =
          std::make_shared<std::map<const runtime::Transformation*, runtime::Transformation*>>();
};

/// The operators a translated plan runs, as EXPLAIN's "Physical Plan": one line per operator
/// (its name), its inputs indented below it, and an `Exchange(distribution=[hash])` line where
/// rows are redistributed by key (the HASH edge before keyed operators and joins; a keyed
/// operator without keys gets every row in one subtask).
std::string explainPhysicalPlan(const DataStream<vector::Chunk>& stream);

/// The spec of Flink's SinkUpsertMaterializer for a consumer with primary key `primaryKey`
/// (columns of `plan`'s output) where it needs one (needsUpsertMaterializer, plan_sink.h): it
/// matches rows by the plan's smallest upsert key (Flink's UpsertKeyUtil.getSmallestKey), by
/// all columns without one.
std::shared_ptr<runtime::operators::SinkUpsertMaterializerSpec> upsertMaterializerSpec(
    const LogicalNode& plan, const std::vector<int>& primaryKey);

/// `rows` through the materializer of `spec` (after an exchange by its primary key; named as
/// Flink names it: `SinkMaterializer(pk=[..])`), at the rows' parallelism.
DataStream<vector::Chunk> materializeUpserts(
    const DataStream<vector::Chunk>& rows,
    std::shared_ptr<const runtime::operators::SinkUpsertMaterializerSpec> spec);

/// Translates a plan that sql::optimize made.
DataStream<vector::Chunk> translateOptimizedPlan(const LogicalNodePtr& optimizedPlan,
                                                 StreamExecutionEnvironment& environment,
                                                 const TranslationSettings& settings);

/// Optimizes the plan (sql/optimizer) and translates it.
DataStream<vector::Chunk> translateToDataStream(const LogicalNodePtr& plan,
                                                StreamExecutionEnvironment& environment,
                                                const TranslationSettings& settings);

}  // namespace eddy::sql
