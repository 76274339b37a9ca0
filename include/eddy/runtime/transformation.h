// Transformation: one node of the graph a DataStream program (or a Table program, translated
// into DataStream transformations by src/sql/physical) builds, exactly as Flink's
// Transformation. Sources, operators and sinks are
// physical nodes; UNION and PARTITION are virtual nodes that only shape the edges between
// physical nodes. The StreamExecutionEnvironment owns all transformations; DataStream
// handles point at them. The job graph builder (src/graph) turns them into chained tasks.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "eddy/runtime/partitioner.h"
#include "eddy/runtime/stream_operator.h"

namespace eddy {
class TypeInformation;
}

namespace eddy::runtime {

struct Transformation {
  enum class Kind { SOURCE, ONE_INPUT, TWO_INPUT, UNION, PARTITION, SINK };

  int id = 0;
  Kind kind = Kind::ONE_INPUT;
  std::string name;
  /// What the node does in detail, for plans (empty: the name says it).
  std::string description;
  /// The operator's stable name across runs, by which restored state finds it (Flink's uid;
  /// DataStream::uid). Empty: the job graph derives one from the plan (src/graph/operator_uid.h).
  std::string uid;
  /// -1: the environment's default parallelism.
  int parallelism = -1;
  std::vector<Transformation*> inputs;

  /// SOURCE, ONE_INPUT, TWO_INPUT, SINK: the operator's definition.
  std::shared_ptr<const OperatorFactory> operatorFactory;
  /// The record type this node emits.
  std::shared_ptr<const RecordTypeOps> outputType;
  /// Optional description of the output type (set by DataStream::returns and by sources).
  std::shared_ptr<const TypeInformation> outputTypeInformation;

  /// SOURCE: whether the source ends by itself.
  bool bounded = true;
  /// SOURCE: false for sources that always run with parallelism 1 (fromElements).
  bool parallelSource = true;

  /// PARTITION: how records reach the consumer; HASH edges carry their own factory.
  PartitionKind partitionKind = PartitionKind::FORWARD;
  HashPartitionerFactory hashPartitionerFactory;

  /// ONE_INPUT: the operator is keyed (its input comes through a HASH edge).
  bool keyed = false;
};

}  // namespace eddy::runtime
