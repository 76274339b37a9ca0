// Operator uids (operator_uid.h): derived from each node and its upstream, the same for the
// same graph, kept where a user set one, unique within a job, independent of the parallelism,
// and changed where the plan changes — on the changed node and downstream of it only.
#include "graph/operator_uid.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "eddy/exceptions.h"
#include "graph/job_graph.h"

namespace eddy::graph {
namespace {

using runtime::PartitionKind;
using runtime::Transformation;

/// A graph of transformations built in creation (topological) order, and its uids.
class Program {
 public:
  Transformation* add(Transformation::Kind kind, std::string name,
                      std::vector<Transformation*> inputs, std::string description = "") {
    auto transformation = std::make_unique<Transformation>();
    transformation->id = static_cast<int>(owned_.size()) + 1;
    transformation->kind = kind;
    transformation->name = std::move(name);
    transformation->description = std::move(description);
    transformation->inputs = std::move(inputs);
    transformation->outputType = std::make_shared<runtime::TypedRecordOps<int>>();
    owned_.push_back(std::move(transformation));
    return owned_.back().get();
  }
  Transformation* partition(Transformation* input, PartitionKind kind,
                            std::string description = "") {
    Transformation* node =
        add(Transformation::Kind::PARTITION, "Partition", {input}, std::move(description));
    node->partitionKind = kind;
    return node;
  }
  void setParallelism(int parallelism) {
    for (auto& transformation : owned_) transformation->parallelism = parallelism;
  }

  /// The uid of each physical node.
  std::map<const Transformation*, std::string> uidOf(int defaultParallelism = 2) const {
    std::vector<const Transformation*> all;
    for (const auto& transformation : owned_) all.push_back(transformation.get());
    JobGraphSettings settings;
    settings.defaultParallelism = defaultParallelism;
    JobGraph graph = buildJobGraph(all, settings);
    std::map<const Transformation*, std::string> uids;
    for (const JobVertex& vertex : graph.vertices) {
      for (const ChainedOperator& chained : vertex.operators) {
        uids[chained.transformation] = chained.uid;
      }
    }
    return uids;
  }
  /// The uid of each physical node by its name (names are unique where this is used).
  std::map<std::string, std::string> uids(int defaultParallelism = 2) const {
    std::map<std::string, std::string> byName;
    for (const auto& [transformation, uid] : uidOf(defaultParallelism)) {
      byName[transformation->name] = uid;
    }
    return byName;
  }

 private:
  std::vector<std::unique_ptr<Transformation>> owned_;
};

/// Source → Calc(where) → Partition(HASH) → Aggregate → Sink, as a SQL job has it.
Program pipeline(const std::string& where) {
  Program program;
  auto* source = program.add(Transformation::Kind::SOURCE, "Source: t", {},
                             "TableSourceScan(table=[[c, d, t]], fields=[a, b])");
  auto* calc = program.add(Transformation::Kind::ONE_INPUT, "Calc", {source},
                           "Calc(select=[a, b], where=[" + where + "])");
  auto* exchange = program.partition(calc, PartitionKind::HASH, "Exchange(distribution=[hash[a]])");
  auto* aggregate = program.add(Transformation::Kind::ONE_INPUT, "GroupAggregate", {exchange},
                                "GroupAggregate(groupBy=[a], select=[a, COUNT(*) AS c])");
  program.add(Transformation::Kind::SINK, "Sink: s", {aggregate}, "Sink(table=[c.d.s])");
  return program;
}

TEST(OperatorUidTest, TheSameGraphGetsTheSameUidsAndTheyDoNotChangeBetweenVersions) {
  auto first = pipeline(">(a, 10)").uids();
  EXPECT_EQ(pipeline(">(a, 10)").uids(), first);
  // XXH3 of the node's bytes: fixed values, so a change of what is hashed (which would orphan
  // every saved state) shows here. The source's is XXH3_64bits("6:SOURCE9:Source: t48:" +
  // its description), checked with xxhash's C library outside eddy.
  EXPECT_EQ(first, (std::map<std::string, std::string>{
                       {"Source: t", "7d55e9b47e357a43"},
                       {"Calc", "cbe0cd73fb6860e2"},
                       {"GroupAggregate", "a89a8a8fa0cf0ed1"},
                       {"Sink: s", "e3600f5cfa188545"}}));
}

TEST(OperatorUidTest, AChangedNodeChangesItsUidAndThoseDownstreamOnly) {
  auto before = pipeline(">(a, 10)").uids();
  auto after = pipeline(">(a, 11)").uids();
  EXPECT_EQ(after["Source: t"], before["Source: t"]);
  EXPECT_NE(after["Calc"], before["Calc"]);
  EXPECT_NE(after["GroupAggregate"], before["GroupAggregate"]);
  EXPECT_NE(after["Sink: s"], before["Sink: s"]);
}

TEST(OperatorUidTest, TheParallelismIsNotPartOfTheUid) {
  auto atTwo = pipeline(">(a, 10)").uids(2);
  EXPECT_EQ(pipeline(">(a, 10)").uids(5), atTwo);
  Program perOperator = pipeline(">(a, 10)");
  perOperator.setParallelism(3);
  EXPECT_EQ(perOperator.uids(2), atTwo);
}

TEST(OperatorUidTest, TheEdgesPartitioningIsPartOfTheConsumersUid) {
  auto uidsWith = [](PartitionKind kind, const std::string& description) {
    Program program;
    auto* source = program.add(Transformation::Kind::SOURCE, "Source", {});
    auto* map = program.add(Transformation::Kind::ONE_INPUT, "Map",
                            {program.partition(source, kind, description)});
    program.add(Transformation::Kind::SINK, "Sink", {map});
    return program.uids();
  };
  auto hashByA = uidsWith(PartitionKind::HASH, "Exchange(distribution=[hash[a]])");
  auto hashByB = uidsWith(PartitionKind::HASH, "Exchange(distribution=[hash[b]])");
  auto rebalance = uidsWith(PartitionKind::REBALANCE, "");
  EXPECT_EQ(hashByB["Source"], hashByA["Source"]);
  EXPECT_EQ(rebalance["Source"], hashByA["Source"]);
  EXPECT_NE(hashByB["Map"], hashByA["Map"]);
  EXPECT_NE(rebalance["Map"], hashByA["Map"]);
  EXPECT_NE(rebalance["Map"], hashByB["Map"]);
}

TEST(OperatorUidTest, TheInputsOrderAndSideArePartOfTheUid) {
  auto joinUid = [](bool swapped) {
    Program program;
    auto* left = program.add(Transformation::Kind::SOURCE, "Source: left", {});
    auto* right = program.add(Transformation::Kind::SOURCE, "Source: right", {});
    std::vector<Transformation*> inputs = swapped ? std::vector{right, left} : std::vector{left, right};
    program.add(Transformation::Kind::TWO_INPUT, "Join", inputs);
    return program.uids()["Join"];
  };
  EXPECT_NE(joinUid(true), joinUid(false));
}

TEST(OperatorUidTest, AUserUidIsKeptAndFeedsTheUidsDownstream) {
  auto uidsWithSourceUid = [](const std::string& sourceUid) {
    Program program;
    auto* source = program.add(Transformation::Kind::SOURCE, "Source", {});
    source->uid = sourceUid;
    auto* map = program.add(Transformation::Kind::ONE_INPUT, "Map", {source});
    auto* sink = program.add(Transformation::Kind::SINK, "Sink", {map});
    sink->uid = "my-sink";
    return program.uids();
  };
  auto first = uidsWithSourceUid("orders-source");
  EXPECT_EQ(first["Source"], "orders-source");
  EXPECT_EQ(first["Sink"], "my-sink");
  EXPECT_EQ(first["Map"].size(), 16u);
  EXPECT_NE(uidsWithSourceUid("other-source")["Map"], first["Map"]);
  EXPECT_EQ(uidsWithSourceUid("orders-source"), first);
}

TEST(OperatorUidTest, TwoOperatorsWithTheSameUserUidAreRejected) {
  Program program;
  auto* source = program.add(Transformation::Kind::SOURCE, "Source", {});
  source->uid = "twice";
  auto* map = program.add(Transformation::Kind::ONE_INPUT, "Map", {source});
  map->uid = "twice";
  try {
    program.uids();
    FAIL() << "expected a ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Hash collision on user-specified ID \"twice\". Most likely cause is a non-unique "
                 "ID. Please check that all IDs specified via `uid(String)` are unique.");
  }
}

TEST(OperatorUidTest, EqualSubPlansOfOneJobGetDistinctUidsInCreationOrder) {
  // The same source → map twice, unioned into one sink: equal nodes over equal inputs.
  struct Job {
    Program program;
    std::vector<const Transformation*> nodes;  // source, map, source, map, sink
  };
  auto build = [] {
    auto job = std::make_unique<Job>();
    std::vector<Transformation*> branches;
    for (int i = 0; i < 2; ++i) {
      auto* source = job->program.add(Transformation::Kind::SOURCE, "Source", {});
      auto* map = job->program.add(Transformation::Kind::ONE_INPUT, "Map", {source});
      job->nodes.insert(job->nodes.end(), {source, map});
      branches.push_back(map);
    }
    auto* unioned = job->program.add(Transformation::Kind::UNION, "Union", branches);
    job->nodes.push_back(job->program.add(Transformation::Kind::SINK, "Sink", {unioned}));
    return job;
  };
  auto ordered = [](const Job& job) {
    auto uidOf = job.program.uidOf();
    std::vector<std::string> uids;
    for (const Transformation* node : job.nodes) uids.push_back(uidOf.at(node));
    return uids;
  };
  auto first = build();
  std::vector<std::string> uids = ordered(*first);
  EXPECT_EQ(std::set<std::string>(uids.begin(), uids.end()).size(), 5u);
  EXPECT_EQ(ordered(*build()), uids);
  // The first of two equal operators keeps the uid it has alone; the second's is hashed again.
  Program alone;
  auto* source = alone.add(Transformation::Kind::SOURCE, "Source", {});
  alone.add(Transformation::Kind::SINK, "Sink", {alone.add(Transformation::Kind::ONE_INPUT, "Map", {source})});
  auto aloneUids = alone.uids();
  EXPECT_EQ(uids[0], aloneUids["Source"]);
  EXPECT_EQ(uids[1], aloneUids["Map"]);
}

}  // namespace
}  // namespace eddy::graph
