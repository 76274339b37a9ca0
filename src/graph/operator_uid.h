// Operator uids: the stable name of each physical operator of a job, by which a restored job
// finds the state its operators had (Flink's uid and the OperatorID StreamGraphHasherV2 derives
// when there is none). A user's uid (DataStream::uid) is kept as it is; every other operator
// gets 16 hex digits of the 64-bit XXH3 hash of what it is and where its input comes from:
//
//   its kind (SOURCE, ONE_INPUT, TWO_INPUT, SINK), name and description;
//   for each input, in order (the virtual UNION and PARTITION nodes resolved into edges): the
//   input's position and side, the explicit partitioning of the edge (a PARTITION node's kind
//   and description: SQL's exchange names its keys, `Exchange(distribution=[hash[k]])`), and
//   the upstream operator's uid.
//
// So a uid covers its whole upstream plan: the same program (the same statement text over the
// same catalog) gets the same uids in every run and every process, and a change to one
// operator (a filter's constant is in its Calc's description) changes its uid and those
// downstream of it, never those upstream. The parallelism is left out, as Flink leaves it out,
// so that a job keeps its uids when it is rescaled; so is the default partitioning (FORWARD or
// REBALANCE, which follows from the parallelism). XXH3's output is fixed by its specification
// (the same on every platform and in every process), unlike std::hash or absl::Hash.
//
// Two operators of one job can be equal in all of this (an equal sub-plan read twice, without
// sub-plan reuse): the later one in topological order is hashed again with a counter until its
// uid is unused in the job. User uids are reserved first; two equal user uids are an error.
//
// The uids are assigned where the job graph is built (job_graph.cpp), for every job — SQL,
// Table API, DataStream and mixed — once, over the job's resolved edges, rather than by the SQL
// translator: a job can join DataStream nodes, a statement set's several translations and the
// upstream of a DataStream scan, and only the job graph builder sees them all. Transformations
// are left as the user built them (ChainedOperator::uid holds the result), so a transformation
// that an earlier job also ran is hashed afresh, not mistaken for one with a user uid.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/runtime/transformation.h"

namespace eddy::graph {

/// One input of a physical node, as its uid sees it (after virtual nodes are resolved).
struct UidInput {
  std::string_view upstreamUid;
  /// The side of a TWO_INPUT node, else 0.
  int inputIndex = 0;
  /// The edge's explicit partitioning (its PARTITION node); unset: the default one.
  std::optional<runtime::PartitionKind> partitionKind;
  /// The PARTITION node's description (empty without one).
  std::string_view partitionDescription;
};

/// Assigns the uids of one job's physical operators. Used by buildJobGraph on the planning
/// thread; one assigner per job, since uniqueness is job-wide.
class OperatorUidAssigner {
 public:
  /// Reserves the user uids of `physical` (the job's physical transformations). Throws
  /// ValidationException when two of them have the same one, as Flink does.
  explicit OperatorUidAssigner(const std::vector<const runtime::Transformation*>& physical);

  /// The uid of `node`, whose inputs (in order) are `inputs`: its user uid, or the derived one
  /// made unique within the job. Called for each node after the nodes it reads from.
  std::string assign(const runtime::Transformation& node, const std::vector<UidInput>& inputs);

 private:
  std::set<std::string> used_;
};

}  // namespace eddy::graph
