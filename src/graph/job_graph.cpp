#include "graph/job_graph.h"

#include <algorithm>
#include <map>

#include "common/check.h"
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
  std::vector<const Transformation*> physical;
  for (const Transformation* transformation : transformations) {
    if (isPhysical(*transformation)) physical.push_back(transformation);
  }
  if (physical.empty()) {
    throw ValidationException(
        "No operators defined in streaming topology. Cannot execute.");
  }

  JobGraph graph;
  graph.executionMode = settings.executionMode;

  // Parallelism of every physical node.
  std::map<const Transformation*, int> parallelism;
  int highestParallelism = 1;
  for (const Transformation* node : physical) {
    int p = node->parallelism > 0 ? node->parallelism : settings.defaultParallelism;
    if (node->kind == Transformation::Kind::SOURCE && !node->parallelSource) p = 1;
    parallelism[node] = p;
    highestParallelism = std::max(highestParallelism, p);
  }
  graph.maxParallelism = settings.maxParallelism > 0 ? settings.maxParallelism
                                                     : defaultMaxParallelism(highestParallelism);
  for (const auto& [node, p] : parallelism) {
    if (p > graph.maxParallelism) {
      throw ValidationException("The parallelism " + std::to_string(p) + " of operator '" +
                                node->name + "' is larger than the max parallelism " +
                                std::to_string(graph.maxParallelism));
    }
  }

  // BATCH needs bounded sources.
  if (settings.executionMode == RuntimeExecutionMode::BATCH) {
    for (const Transformation* node : physical) {
      if (node->kind == Transformation::Kind::SOURCE && !node->bounded) {
        throw ValidationException(
            "Detected an UNBOUNDED source with the 'execution.runtime-mode' set to 'BATCH'. "
            "This combination is not allowed, please set the 'execution.runtime-mode' to "
            "STREAMING or AUTOMATIC. Unbounded source: '" + node->name + "'");
      }
    }
  }

  // Resolve every input of every physical node into a typed edge, and give each node its uid
  // (inputs before consumers: `physical` is in topological order).
  struct Edge {
    ResolvedInput input;
    const Transformation* target;
    PartitionKind kind;
  };
  std::vector<Edge> edges;
  std::map<const Transformation*, std::vector<int>> inputEdgesOf;
  std::map<const Transformation*, std::vector<int>> outputEdgesOf;
  std::map<const Transformation*, std::string> uidOf;
  OperatorUidAssigner uids(physical);
  for (const Transformation* node : physical) {
    std::vector<ResolvedInput> inputs;
    for (size_t i = 0; i < node->inputs.size(); ++i) {
      resolve(node->inputs[i], node->kind == Transformation::Kind::TWO_INPUT ? int(i) : 0,
              nullptr, inputs);
    }
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
    uidOf.emplace(node, uids.assign(*node, uidInputs));
    for (ResolvedInput& input : inputs) {
      int upstreamParallelism = parallelism.at(input.upstream);
      int downstreamParallelism = parallelism.at(node);
      PartitionKind kind;
      if (input.partition) {
        kind = input.partition->partitionKind;
        if (kind == PartitionKind::FORWARD && upstreamParallelism != downstreamParallelism) {
          throw ValidationException(
              "Forward partitioning does not allow change of parallelism. Upstream operation: " +
              input.upstream->name + " parallelism: " + std::to_string(upstreamParallelism) +
              ", downstream operation: " + node->name +
              " parallelism: " + std::to_string(downstreamParallelism) +
              " You must use another partitioning strategy, such as broadcast, rebalance, "
              "shuffle or global.");
        }
      } else {
        kind = upstreamParallelism == downstreamParallelism ? PartitionKind::FORWARD
                                                            : PartitionKind::REBALANCE;
      }
      int index = static_cast<int>(edges.size());
      edges.push_back(Edge{std::move(input), node, kind});
      inputEdgesOf[node].push_back(index);
      outputEdgesOf[edges.back().input.upstream].push_back(index);
    }
  }

  // Chaining: a node joins its upstream's chain when its only input is a FORWARD edge.
  std::map<const Transformation*, std::pair<int, int>> placement;  // node → (vertex, index)
  std::vector<bool> edgeChained(edges.size(), false);
  for (const Transformation* node : physical) {
    const auto& inputEdges = inputEdgesOf[node];
    bool chain = settings.chainingEnabled && inputEdges.size() == 1 &&
                 edges[inputEdges[0]].kind == PartitionKind::FORWARD &&
                 node->kind != Transformation::Kind::SOURCE;
    if (chain) {
      const Edge& edge = edges[inputEdges[0]];
      auto [vertexIndex, upstreamIndex] = placement.at(edge.input.upstream);
      JobVertex& vertex = graph.vertices[vertexIndex];
      int index = static_cast<int>(vertex.operators.size());
      vertex.operators.push_back(ChainedOperator{node, uidOf.at(node), {}, {}});
      vertex.operators[upstreamIndex].chainedSuccessors.push_back(index);
      vertex.name += " -> " + node->name;
      placement[node] = {vertexIndex, index};
      edgeChained[inputEdges[0]] = true;
    } else {
      JobVertex vertex;
      vertex.name = node->name;
      vertex.parallelism = parallelism.at(node);
      vertex.isSource = node->kind == Transformation::Kind::SOURCE;
      vertex.operators.push_back(ChainedOperator{node, uidOf.at(node), {}, {}});
      placement[node] = {static_cast<int>(graph.vertices.size()), 0};
      graph.vertices.push_back(std::move(vertex));
    }
  }

  // Network edges.
  for (size_t i = 0; i < edges.size(); ++i) {
    if (edgeChained[i]) continue;
    Edge& edge = edges[i];
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
  return graph;
}

}  // namespace eddy::graph
