// What the translator's files share (translator.h is the public entry point): the recursion
// into a node's inputs, the translation of each node family (one file each, called by the
// dispatch in translator.cpp), and how a translated operator is placed into the job (chained
// to its input, or keyed after a HASH exchange; operator_placement.cpp) and described in
// Flink's physical-plan form, which EXPLAIN prints (explain_physical_plan.cpp).
//
//   translate_scan.cpp       VALUES, table scans (the connector's source), DataStream scans
//   translate_calc.cpp       Project/Filter (Calc), UNNEST (Correlate), watermark assigners,
//                            UNION ALL
//   translate_aggregate.cpp  GROUP BY: one-phase, local/global two-phase, split distinct
//   translate_join.cpp       regular, interval, window, temporal and lookup joins
//   translate_window.cpp     window table functions, window aggregates, OVER aggregates
//   translate_rank_sort.cpp  Rank, Deduplicate, WindowRank; ORDER BY / LIMIT
//   translate_sink.cpp       the sink's upsert materializer (translator.h)
//
// Translation runs on the thread that plans the statement; the streams it returns belong to
// `env`, and the operator factories it builds are immutable and shared by every subtask.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sql/physical/translator.h"

namespace eddy::connectors {
class DynamicTableSource;
}  // namespace eddy::connectors

namespace eddy::sql::physical {

/// `node` translated with its inputs; an equal sub-plan translated before in the job
/// (table.optimizer.reuse-sub-plan-enabled) is reused (translator.cpp).
DataStream<vector::Chunk> translate(const LogicalNode& node, StreamExecutionEnvironment& env,
                                    const TranslationSettings& settings);

// --- Node families (translate_<family>.cpp) --------------------------------------------------

DataStream<vector::Chunk> translateValues(const LogicalValues& values,
                                          StreamExecutionEnvironment& env);
DataStream<vector::Chunk> translateTableScan(const LogicalTableScan& scan,
                                             StreamExecutionEnvironment& env,
                                             const TranslationSettings& settings);
DataStream<vector::Chunk> translateDataStreamScan(const LogicalDataStreamScan& scan,
                                                  StreamExecutionEnvironment& env,
                                                  const TranslationSettings& settings);
/// The connector's source of `table` for this job (its options validated): a scan's source, a
/// lookup join's lookup function.
std::unique_ptr<connectors::DynamicTableSource> tableSourceOf(const LogicalTableScan& table,
                                                              const TranslationSettings& settings);

DataStream<vector::Chunk> translateProject(const LogicalProject& project,
                                           StreamExecutionEnvironment& env,
                                           const TranslationSettings& settings);
DataStream<vector::Chunk> translateFilter(const LogicalFilter& filter,
                                          StreamExecutionEnvironment& env,
                                          const TranslationSettings& settings);
DataStream<vector::Chunk> translateUnnest(const LogicalUnnest& unnest,
                                          StreamExecutionEnvironment& env,
                                          const TranslationSettings& settings);
DataStream<vector::Chunk> translateWatermarkAssigner(const LogicalWatermarkAssigner& assigner,
                                                     StreamExecutionEnvironment& env,
                                                     const TranslationSettings& settings);
DataStream<vector::Chunk> translateUnion(const LogicalUnion& node, StreamExecutionEnvironment& env,
                                         const TranslationSettings& settings);

DataStream<vector::Chunk> translateSink(const LogicalSink& sink, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings);
DataStream<vector::Chunk> translateAggregate(const LogicalAggregate& aggregate,
                                             StreamExecutionEnvironment& env,
                                             const TranslationSettings& settings);

DataStream<vector::Chunk> translateJoin(const LogicalJoin& join, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings);
DataStream<vector::Chunk> translateLookupJoin(const LogicalLookupJoin& join,
                                              StreamExecutionEnvironment& env,
                                              const TranslationSettings& settings);

DataStream<vector::Chunk> translateWindowTableFunction(const LogicalWindowTableFunction& function,
                                                       StreamExecutionEnvironment& env,
                                                       const TranslationSettings& settings);
DataStream<vector::Chunk> translateWindowAggregate(const LogicalWindowAggregate& aggregate,
                                                   StreamExecutionEnvironment& env,
                                                   const TranslationSettings& settings);
DataStream<vector::Chunk> translateOverAggregate(const LogicalOverAggregate& over,
                                                 StreamExecutionEnvironment& env,
                                                 const TranslationSettings& settings);

DataStream<vector::Chunk> translateSort(const LogicalSort& sort, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings);
DataStream<vector::Chunk> translateRank(const LogicalRank& rank, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings);

// --- Operator placement (operator_placement.cpp) ---------------------------------------------

/// `stream` at table.exec.resource.default-parallelism, where it is set.
DataStream<vector::Chunk> withParallelism(DataStream<vector::Chunk> stream,
                                          const TranslationSettings& settings);

/// The factory of an operator built from one shared, immutable spec (each subtask gets its own
/// operator).
template <typename Operator, typename Spec>
std::shared_ptr<runtime::OperatorFactory> factoryOf(std::shared_ptr<Spec> spec) {
  std::shared_ptr<const Spec> shared = std::move(spec);
  return std::make_shared<runtime::LambdaOperatorFactory>(
      [shared] { return std::make_unique<Operator>(shared); });
}

/// An operator chained to `input` at its parallelism (stateless per row: a Calc, a watermark
/// assigner, a window TVF).
DataStream<vector::Chunk> chained(DataStream<vector::Chunk> input, std::string name,
                                  std::shared_ptr<runtime::OperatorFactory> factory);

/// `input` (rows of `rowType`) partitioned by the hash of `keys`, described as Flink's plans
/// do: `Exchange(distribution=[hash[k]])`, `[single]` without keys.
DataStream<vector::Chunk> hashExchange(const DataStream<vector::Chunk>& input,
                                       const std::vector<int>& keys, const LogicalTypePtr& rowType);

/// A keyed operator after a HASH exchange of `input` (rows of `inputRowType`) on `keys`: at
/// the default parallelism, or in one subtask without keys (Flink's singleton distribution).
DataStream<vector::Chunk> keyed(DataStream<vector::Chunk> input, const std::vector<int>& keys,
                                const LogicalTypePtr& inputRowType, std::string name,
                                std::shared_ptr<runtime::OperatorFactory> factory,
                                const TranslationSettings& settings);

/// A two-input operator over `left` and `right`, each partitioned by its keys, so that matching
/// rows meet in one subtask; without keys everything meets in subtask 0.
DataStream<vector::Chunk> keyedTwoInput(const LogicalJoin& join, DataStream<vector::Chunk> left,
                                        DataStream<vector::Chunk> right, std::string name,
                                        std::shared_ptr<runtime::OperatorFactory> factory,
                                        const TranslationSettings& settings);

// --- Descriptions in Flink's physical-plan form ----------------------------------------------

/// `node`'s description without the `Logical` of its name: `LogicalWindowAggregate(..)` is
/// described as `WindowAggregate(..)`.
inline std::string physicalDescription(const LogicalNode& node) {
  return node.describe().substr(std::string("Logical").size());
}

/// The names of `keys` in `rowType`, comma-separated.
inline std::string keyNames(const LogicalTypePtr& rowType, const std::vector<int>& keys) {
  std::string names;
  for (int key : keys) names += (names.empty() ? "" : ", ") + rowType->getFields()[key].name;
  return names;
}

/// All field names of `rowType`, comma-separated (a plan's `select=[..]`, `fields=[..]`).
inline std::string fieldList(const LogicalTypePtr& rowType) {
  return fmt::format("{}", fmt::join(rowType->getFieldNames(), ", "));
}

}  // namespace eddy::sql::physical
