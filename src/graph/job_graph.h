// JobGraph: the executable form of a program. Built from the Transformation graph by
// resolving virtual nodes (UNION, PARTITION) into edges, deciding each edge's partitioning
// and each node's parallelism, and chaining FORWARD edges between operators of equal
// parallelism into one vertex (one task per subtask), as Flink's StreamingJobGraphGenerator.
//
// A vertex holds a chain of operators in topological order; operators[0] is the head, fed by
// the vertex's input gate (or, for a source, by itself). Every other operator of the chain
// has exactly one input: an earlier operator of the same chain. Network edges connect an
// operator of one vertex with the head of another.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "eddy/datastream/runtime_execution_mode.h"
#include "eddy/runtime/transformation.h"

namespace eddy::connector::detail {
class SourceCoordinatorProvider;
}

namespace eddy::graph {

struct JobEdge {
  int sourceVertex = 0;
  int sourceOperator = 0;  // index in the source vertex's chain
  int targetVertex = 0;
  int targetInputIndex = 0;
  runtime::PartitionKind partitionKind = runtime::PartitionKind::FORWARD;
  runtime::HashPartitionerFactory hashPartitionerFactory;
  const runtime::RecordTypeOps* recordType = nullptr;
  /// The first input channel of the target gate that this edge feeds; the channel of
  /// upstream subtask s is channelOffset + s.
  int channelOffset = 0;
};

struct ChainedOperator {
  const runtime::Transformation* transformation = nullptr;
  /// The operator's uid: the transformation's (a user's), else the one derived from the node
  /// and its inputs (operator_uid.h); unique within the job.
  std::string uid;
  std::vector<int> chainedSuccessors;  // chain indices of operators fed directly
  std::vector<int> networkEdges;       // indices into JobGraph::edges
  /// A source whose operator reads splits (a connector::Source, eddy/connector/source.h):
  /// what creates its split enumerator, which the job runs once for the whole vertex. Null for
  /// every other operator.
  std::shared_ptr<const connector::detail::SourceCoordinatorProvider> sourceCoordinatorProvider;
};

struct JobVertex {
  std::string name;  // the chain's operator names joined by " -> "
  int parallelism = 1;
  bool isSource = false;
  std::vector<ChainedOperator> operators;
  std::vector<int> inputEdges;  // indices into JobGraph::edges
  int inputChannelCount = 0;
};

struct JobGraph {
  std::vector<JobVertex> vertices;
  std::vector<JobEdge> edges;
  int maxParallelism = 128;
  RuntimeExecutionMode executionMode = RuntimeExecutionMode::STREAMING;
};

struct JobGraphSettings {
  int defaultParallelism = 1;
  /// -1: derived from the parallelism as Flink does (at least 128).
  int maxParallelism = -1;
  RuntimeExecutionMode executionMode = RuntimeExecutionMode::STREAMING;
  bool chainingEnabled = true;
};

/// Builds the job graph of all `transformations` (in creation order, which is topological).
/// Throws ValidationException for programs that cannot run: an unbounded source in BATCH
/// mode, a FORWARD edge between different parallelisms, a program without operators, two
/// operators with the same user uid.
JobGraph buildJobGraph(const std::vector<const runtime::Transformation*>& transformations,
                       const JobGraphSettings& settings);

/// The partitioning's name in Flink's plans (its ship strategy): FORWARD, REBALANCE, HASH, ...
const char* shipStrategyName(runtime::PartitionKind kind);

/// Flink's default max parallelism: 1.5 × parallelism rounded up to a power of two, within
/// [128, 32768].
int defaultMaxParallelism(int parallelism);

}  // namespace eddy::graph
