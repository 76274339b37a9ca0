// The translator's entry point (translator.h) and its dispatch: translate() reuses an equal
// sub-plan's stream (table.optimizer.reuse-sub-plan-enabled) or hands the node to the
// translation of its family, one file each (translation_context.h lists them).
#include "sql/physical/translator.h"

#include "sql/optimizer/optimizer.h"
#include "sql/physical/translation_context.h"

namespace eddy::sql {
namespace physical {

namespace {

DataStream<vector::Chunk> translateNode(const LogicalNode& node, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings) {
  switch (node.kind) {
    case LogicalNodeKind::kValues:
      return translateValues(static_cast<const LogicalValues&>(node), env);
    case LogicalNodeKind::kTableScan:
      return translateTableScan(static_cast<const LogicalTableScan&>(node), env, settings);
    case LogicalNodeKind::kDataStreamScan:
      return translateDataStreamScan(static_cast<const LogicalDataStreamScan&>(node), env,
                                     settings);
    case LogicalNodeKind::kProject:
      return translateProject(static_cast<const LogicalProject&>(node), env, settings);
    case LogicalNodeKind::kLookupJoin:
      return translateLookupJoin(static_cast<const LogicalLookupJoin&>(node), env, settings);
    case LogicalNodeKind::kUnnest:
      return translateUnnest(static_cast<const LogicalUnnest&>(node), env, settings);
    case LogicalNodeKind::kFilter:
      return translateFilter(static_cast<const LogicalFilter&>(node), env, settings);
    case LogicalNodeKind::kSort:
      return translateSort(static_cast<const LogicalSort&>(node), env, settings);
    case LogicalNodeKind::kUnion:
      return translateUnion(static_cast<const LogicalUnion&>(node), env, settings);
    case LogicalNodeKind::kAggregate:
      return translateAggregate(static_cast<const LogicalAggregate&>(node), env, settings);
    case LogicalNodeKind::kRank:
      return translateRank(static_cast<const LogicalRank&>(node), env, settings);
    case LogicalNodeKind::kWatermarkAssigner:
      return translateWatermarkAssigner(static_cast<const LogicalWatermarkAssigner&>(node), env,
                                        settings);
    case LogicalNodeKind::kWindowTableFunction:
      return translateWindowTableFunction(static_cast<const LogicalWindowTableFunction&>(node), env,
                                          settings);
    case LogicalNodeKind::kOverAggregate:
      return translateOverAggregate(static_cast<const LogicalOverAggregate&>(node), env, settings);
    case LogicalNodeKind::kWindowAggregate:
      return translateWindowAggregate(static_cast<const LogicalWindowAggregate&>(node), env,
                                      settings);
    case LogicalNodeKind::kJoin:
      return translateJoin(static_cast<const LogicalJoin&>(node), env, settings);
    case LogicalNodeKind::kSink:
      return translateSink(static_cast<const LogicalSink&>(node), env, settings);
  }
  throw InternalError("unknown logical node");
}

}  // namespace

DataStream<vector::Chunk> translate(const LogicalNode& node, StreamExecutionEnvironment& env,
                                    const TranslationSettings& settings) {
  // (Two INSERTs of one statement set into one table are two sinks.)
  if (!settings.reusedSubPlans || node.kind == LogicalNodeKind::kSink) {
    return translateNode(node, env, settings);
  }
  const int64_t digest = settings.reusedSubPlans->digests.idOf(node);
  auto& streams = settings.reusedSubPlans->streams;
  if (auto found = streams.find(digest); found != streams.end()) return found->second;
  DataStream<vector::Chunk> stream = translateNode(node, env, settings);
  streams.emplace(digest, stream);
  return stream;
}

}  // namespace physical

DataStream<vector::Chunk> translateOptimizedPlan(const LogicalNodePtr& optimizedPlan,
                                                 StreamExecutionEnvironment& environment,
                                                 const TranslationSettings& settings) {
  // Node addresses identify subtrees only while this plan is alive; digests stay by content.
  if (settings.reusedSubPlans) settings.reusedSubPlans->digests.forgetNodes();
  return physical::translate(*optimizedPlan, environment, settings);
}

DataStream<vector::Chunk> translateToDataStream(const LogicalNodePtr& plan,
                                                StreamExecutionEnvironment& environment,
                                                const TranslationSettings& settings) {
  return translateOptimizedPlan(optimize(plan, settings.optimizer), environment, settings);
}

}  // namespace eddy::sql
