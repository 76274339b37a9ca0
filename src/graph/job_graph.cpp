#include "graph/job_graph.h"

#include <algorithm>
#include <map>

#include "common/check.h"
#include "eddy/connector/source.h"
#include "eddy/exceptions.h"
#include "graph/operator_uid.h"

namespace eddy::graph {

using runtime::PartitionKind;
using runtime::Transformation;

namespace {

bool isPhysical(const Transformation& transformation) {
  return transformation.kind != Transformation::Kind::UNION &&
         transformation.kind != Transformation::Kind::PARTITION;
}

/// An input of a physical node after virtual nodes are resolved.
struct ResolvedInput {
  const Transformation* upstream;
  int inputIndex;
  // The PARTITION node nearest to the consumer, whose partitioning the edge has; null: the
  // default, FORWARD or REBALANCE by parallelism.
  const Transformation* partition;
};

void resolve(const Transformation* node, int inputIndex, const Transformation* partition,
             std::vector<ResolvedInput>& out) {
  switch (node->kind) {
    case Transformation::Kind::UNION:
      for (const Transformation* input : node->inputs) resolve(input, inputIndex, partition, out);
      return;
    case Transformation::Kind::PARTITION:
      // The partitioning nearest to the consumer wins.
      resolve(node->inputs.at(0), inputIndex, partition ? partition : node, out);
      return;
    default:
      out.push_back(ResolvedInput{node, inputIndex, partition});
  }
}

/// A resolved input of a physical node as an edge, with its partitioning decided.
struct Edge {
  ResolvedInput input;
  const Transformation* target;
  PartitionKind kind;
  bool chained = false;  // within a chain, not a network edge
};

/// Every resolved input of the physical nodes as an edge, and each node's uid.
struct PhysicalEdges {
  std::vector<Edge> edges;
  std::map<const Transformation*, std::vector<int>> inputEdgesOf;  // indices into edges
  std::map<const Transformation*, std::string> uidOf;
};

/// Where a node runs: (vertex, index in the vertex's chain).
using Placement = std::map<const Transformation*, std::pair<int, int>>;

// The physical (non-virtual) nodes, in topological order; throws when there are none.
std::vector<const Transformation*> collectPhysicalNodes(
    const std::vector<const Transformation*>& transformations) {
  std::vector<const Transformation*> physical;
  for (const Transformation* transformation : transformations) {
    if (isPhysical(*transformation)) physical.push_back(transformation);
  }
  if (physical.empty()) {
    throw ValidationException(
        "No operators defined in streaming topology. Cannot execute.");
  }
  return physical;
}

// The parallelism of every physical node; sets `maxParallelism` (the setting, else derived
// from the highest parallelism) and rejects a node whose parallelism is above it.
std::map<const Transformation*, int> decideParallelism(
    const std::vector<const Transformation*>& physical, const JobGraphSettings& settings,
    int& maxParallelism) {
  std::map<const Transformation*, int> parallelism;
  int highestParallelism = 1;
  for (const Transformation* node : physical) {
    int p = node->parallelism > 0 ? node->parallelism : settings.defaultParallelism;
    if (node->kind == Transformation::Kind::SOURCE && !node->parallelSource) p = 1;
    parallelism[node] = p;
    highestParallelism = std::max(highestParallelism, p);
  }
  maxParallelism = settings.maxParallelism > 0 ? settings.maxParallelism
                                               : defaultMaxParallelism(highestParallelism);
  for (const auto& [node, p] : parallelism) {
    if (p > maxParallelism) {
      throw ValidationException("The parallelism " + std::to_string(p) + " of operator '" +
                                node->name + "' is larger than the max parallelism " +
                                std::to_string(maxParallelism));
    }
  }
  return parallelism;
}

// BATCH needs bounded sources: throws for the first unbounded one.
void checkSourcesBounded(const std::vector<const Transformation*>& physical) {
  for (const Transformation* node : physical) {
    if (node->kind == Transformation::Kind::SOURCE && !node->bounded) {
      throw ValidationException(
          "Detected an UNBOUNDED source with the 'execution.runtime-mode' set to 'BATCH'. "
          "This combination is not allowed, please set the 'execution.runtime-mode' to "
          "STREAMING or AUTOMATIC. Unbounded source: '" + node->name + "'");
    }
  }
}

// The inputs of `node` with virtual nodes resolved (a TWO_INPUT node's input i is its side i).
std::vector<ResolvedInput> resolveInputs(const Transformation& node) {
  std::vector<ResolvedInput> inputs;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    resolve(node.inputs[i], node.kind == Transformation::Kind::TWO_INPUT ? int(i) : 0, nullptr,
            inputs);
  }
  return inputs;
}

// The uid of `node`, whose resolved inputs are `inputs` and already have their uids in `uidOf`.
std::string operatorUid(const Transformation& node, const std::vector<ResolvedInput>& inputs,
                        const std::map<const Transformation*, std::string>& uidOf,
                        OperatorUidAssigner& uids) {
  std::vector<UidInput> uidInputs;
  for (const ResolvedInput& input : inputs) {
    auto upstreamUid = uidOf.find(input.upstream);
    EDDY_CHECK(upstreamUid != uidOf.end());
    UidInput& uidInput = uidInputs.emplace_back();
    uidInput.upstreamUid = upstreamUid->second;
    uidInput.inputIndex = input.inputIndex;
    if (input.partition) {
      uidInput.partitionKind = input.partition->partitionKind;
      uidInput.partitionDescription = input.partition->description;
    }
  }
  return uids.assign(node, uidInputs);
}

// The partitioning of the edge from `input` into `node`: its PARTITION node's (a FORWARD one
// only between equal parallelisms), else FORWARD between equal parallelisms, else REBALANCE.
PartitionKind decidePartitioning(const ResolvedInput& input, const Transformation& node,
                                 const std::map<const Transformation*, int>& parallelism) {
  const int upstreamParallelism = parallelism.at(input.upstream);
  const int downstreamParallelism = parallelism.at(&node);
  if (!input.partition) {
    return upstreamParallelism == downstreamParallelism ? PartitionKind::FORWARD
                                                        : PartitionKind::REBALANCE;
  }
  const PartitionKind kind = input.partition->partitionKind;
  if (kind == PartitionKind::FORWARD && upstreamParallelism != downstreamParallelism) {
    throw ValidationException(
        "Forward partitioning does not allow change of parallelism. Upstream operation: " +
        input.upstream->name + " parallelism: " + std::to_string(upstreamParallelism) +
        ", downstream operation: " + node.name +
        " parallelism: " + std::to_string(downstreamParallelism) +
        " You must use another partitioning strategy, such as broadcast, rebalance, "
        "shuffle or global.");
  }
  return kind;
}

// Resolves every input of every physical node into an edge with its partitioning, and gives
// each node its uid (inputs before consumers: `physical` is in topological order).
PhysicalEdges resolveEdges(const std::vector<const Transformation*>& physical,
                           const std::map<const Transformation*, int>& parallelism) {
  PhysicalEdges result;
  OperatorUidAssigner uids(physical);
  for (const Transformation* node : physical) {
    std::vector<ResolvedInput> inputs = resolveInputs(*node);
    result.uidOf.emplace(node, operatorUid(*node, inputs, result.uidOf, uids));
    for (ResolvedInput& input : inputs) {
      const PartitionKind kind = decidePartitioning(input, *node, parallelism);
      result.inputEdgesOf[node].push_back(static_cast<int>(result.edges.size()));
      result.edges.push_back(Edge{std::move(input), node, kind});
    }
  }
  return result;
}

// The coordinator provider of a source whose operator reads splits (connector::Source), else
// null. The DataStream sources' factories are lambdas, so an operator instance is asked (a
// source operator's constructor only keeps its definition); it is dropped at once.
std::shared_ptr<const connector::detail::SourceCoordinatorProvider> sourceCoordinatorProviderOf(
    const Transformation& node) {
  if (node.kind != Transformation::Kind::SOURCE || !node.operatorFactory) return nullptr;
  std::unique_ptr<runtime::StreamOperator> probe = node.operatorFactory->createOperator();
  const auto* reader = dynamic_cast<const connector::detail::SplitReadingOperator*>(probe.get());
  return reader != nullptr ? reader->sourceCoordinatorProvider() : nullptr;
}

// Chaining: puts every node into its upstream's chain when its only input is a FORWARD edge
// (marking that edge chained), else at the head of a new vertex of `graph`; returns where each
// node went.
Placement chainOperators(const std::vector<const Transformation*>& physical,
                         const JobGraphSettings& settings,
                         const std::map<const Transformation*, int>& parallelism,
                         PhysicalEdges& edges, JobGraph& graph) {
  Placement placement;
  for (const Transformation* node : physical) {
    const auto& inputEdges = edges.inputEdgesOf[node];
    bool chain = settings.chainingEnabled && inputEdges.size() == 1 &&
                 edges.edges[inputEdges[0]].kind == PartitionKind::FORWARD &&
                 node->kind != Transformation::Kind::SOURCE;
    if (chain) {
      Edge& edge = edges.edges[inputEdges[0]];
      auto [vertexIndex, upstreamIndex] = placement.at(edge.input.upstream);
      JobVertex& vertex = graph.vertices[vertexIndex];
      int index = static_cast<int>(vertex.operators.size());
      vertex.operators.push_back(ChainedOperator{node, edges.uidOf.at(node), {}, {}, nullptr});
      vertex.operators[upstreamIndex].chainedSuccessors.push_back(index);
      vertex.name += " -> " + node->name;
      placement[node] = {vertexIndex, index};
      edge.chained = true;
    } else {
      JobVertex vertex;
      vertex.name = node->name;
      vertex.parallelism = parallelism.at(node);
      vertex.isSource = node->kind == Transformation::Kind::SOURCE;
      vertex.operators.push_back(ChainedOperator{node, edges.uidOf.at(node), {}, {},
                                                 sourceCoordinatorProviderOf(*node)});
      placement[node] = {static_cast<int>(graph.vertices.size()), 0};
      graph.vertices.push_back(std::move(vertex));
    }
  }
  return placement;
}

// Network edges: adds every edge not within a chain to `graph`, from the operator that feeds it
// to the head of its target vertex, with the target gate's channels it feeds.
void addNetworkEdges(const std::vector<Edge>& edges, const Placement& placement, JobGraph& graph) {
  for (const Edge& edge : edges) {
    if (edge.chained) continue;
    auto [sourceVertex, sourceOperator] = placement.at(edge.input.upstream);
    auto [targetVertex, targetOperator] = placement.at(edge.target);
    EDDY_CHECK_EQ(targetOperator, 0);
    JobEdge jobEdge;
    jobEdge.sourceVertex = sourceVertex;
    jobEdge.sourceOperator = sourceOperator;
    jobEdge.targetVertex = targetVertex;
    jobEdge.targetInputIndex = edge.input.inputIndex;
    jobEdge.partitionKind = edge.kind;
    if (edge.input.partition) {
      jobEdge.hashPartitionerFactory = edge.input.partition->hashPartitionerFactory;
    }
    jobEdge.recordType = edge.input.upstream->outputType.get();
    JobVertex& target = graph.vertices[targetVertex];
    jobEdge.channelOffset = target.inputChannelCount;
    target.inputChannelCount += graph.vertices[sourceVertex].parallelism;
    int index = static_cast<int>(graph.edges.size());
    target.inputEdges.push_back(index);
    graph.vertices[sourceVertex].operators[sourceOperator].networkEdges.push_back(index);
    graph.edges.push_back(std::move(jobEdge));
  }
}

}  // namespace

const char* shipStrategyName(PartitionKind kind) {
  switch (kind) {
    case PartitionKind::FORWARD: return "FORWARD";
    case PartitionKind::REBALANCE: return "REBALANCE";
    case PartitionKind::SHUFFLE: return "SHUFFLE";
    case PartitionKind::BROADCAST: return "BROADCAST";
    case PartitionKind::HASH: return "HASH";
  }
  return "?";
}

int defaultMaxParallelism(int parallelism) {
  int target = parallelism + (parallelism + 1) / 2;
  int power = 1;
  while (power < target) power <<= 1;
  return std::clamp(power, 128, 32768);
}

JobGraph buildJobGraph(const std::vector<const Transformation*>& transformations,
                       const JobGraphSettings& settings) {
  const std::vector<const Transformation*> physical = collectPhysicalNodes(transformations);
  JobGraph graph;
  graph.executionMode = settings.executionMode;
  const std::map<const Transformation*, int> parallelism =
      decideParallelism(physical, settings, graph.maxParallelism);
  if (settings.executionMode == RuntimeExecutionMode::BATCH) checkSourcesBounded(physical);
  PhysicalEdges edges = resolveEdges(physical, parallelism);
  const Placement placement = chainOperators(physical, settings, parallelism, edges, graph);
  addNetworkEdges(edges.edges, placement, graph);
  return graph;
}

}  // namespace eddy::graph
