// How transformations become a job graph: parallelism, default partitioning, chaining of
// FORWARD edges, channel numbering, and the errors for programs that cannot run.
#include "graph/job_graph.h"

#include <gtest/gtest.h>

#include "eddy/exceptions.h"

namespace eddy::graph {
namespace {

using runtime::PartitionKind;
using runtime::Transformation;

class JobGraphTest : public ::testing::Test {
 protected:
  Transformation* add(Transformation::Kind kind, std::string name,
                      std::vector<Transformation*> inputs, int parallelism = -1) {
    auto transformation = std::make_unique<Transformation>();
    transformation->id = static_cast<int>(owned_.size()) + 1;
    transformation->kind = kind;
    transformation->name = std::move(name);
    transformation->inputs = std::move(inputs);
    transformation->parallelism = parallelism;
    transformation->outputType = std::make_shared<runtime::TypedRecordOps<int>>();
    owned_.push_back(std::move(transformation));
    return owned_.back().get();
  }
  Transformation* partition(Transformation* input, PartitionKind kind) {
    Transformation* node = add(Transformation::Kind::PARTITION, "Partition", {input});
    node->partitionKind = kind;
    return node;
  }
  JobGraph build(int defaultParallelism,
                 RuntimeExecutionMode mode = RuntimeExecutionMode::STREAMING) {
    std::vector<const Transformation*> all;
    for (const auto& t : owned_) all.push_back(t.get());
    JobGraphSettings settings;
    settings.defaultParallelism = defaultParallelism;
    settings.executionMode = mode;
    return buildJobGraph(all, settings);
  }

  std::vector<std::unique_ptr<Transformation>> owned_;
};

TEST_F(JobGraphTest, ChainsForwardEdgesOfEqualParallelism) {
  auto* source = add(Transformation::Kind::SOURCE, "Source: numbers", {});
  auto* map = add(Transformation::Kind::ONE_INPUT, "Map", {source});
  auto* filter = add(Transformation::Kind::ONE_INPUT, "Filter", {map});
  add(Transformation::Kind::SINK, "Sink", {filter});
  JobGraph graph = build(4);
  ASSERT_EQ(graph.vertices.size(), 1u);
  EXPECT_EQ(graph.vertices[0].name, "Source: numbers -> Map -> Filter -> Sink");
  EXPECT_EQ(graph.vertices[0].parallelism, 4);
  EXPECT_TRUE(graph.edges.empty());
  EXPECT_EQ(graph.maxParallelism, 128);
}

TEST_F(JobGraphTest, NonParallelSourceFeedsParallelOperatorsByRebalance) {
  auto* source = add(Transformation::Kind::SOURCE, "Source: Collection Source", {});
  source->parallelSource = false;
  auto* map = add(Transformation::Kind::ONE_INPUT, "Map", {source});
  add(Transformation::Kind::SINK, "Sink", {map});
  JobGraph graph = build(3);
  ASSERT_EQ(graph.vertices.size(), 2u);
  EXPECT_EQ(graph.vertices[0].parallelism, 1);
  EXPECT_EQ(graph.vertices[1].name, "Map -> Sink");
  EXPECT_EQ(graph.vertices[1].parallelism, 3);
  ASSERT_EQ(graph.edges.size(), 1u);
  EXPECT_EQ(graph.edges[0].partitionKind, PartitionKind::REBALANCE);
  EXPECT_EQ(graph.vertices[1].inputChannelCount, 1);
}

TEST_F(JobGraphTest, HashEdgeBreaksTheChainAndNumbersChannels) {
  auto* source = add(Transformation::Kind::SOURCE, "Source", {});
  auto* keyed = partition(source, PartitionKind::HASH);
  auto* reduce = add(Transformation::Kind::ONE_INPUT, "Keyed Reduce", {keyed});
  add(Transformation::Kind::SINK, "Sink", {reduce});
  JobGraph graph = build(2);
  ASSERT_EQ(graph.vertices.size(), 2u);
  EXPECT_EQ(graph.vertices[1].name, "Keyed Reduce -> Sink");
  ASSERT_EQ(graph.edges.size(), 1u);
  EXPECT_EQ(graph.edges[0].partitionKind, PartitionKind::HASH);
  EXPECT_EQ(graph.vertices[1].inputChannelCount, 2);
}

TEST_F(JobGraphTest, UnionGivesOneVertexWithChannelsOfBothInputs) {
  auto* left = add(Transformation::Kind::SOURCE, "Left", {}, 2);
  auto* right = add(Transformation::Kind::SOURCE, "Right", {}, 3);
  auto* both = add(Transformation::Kind::UNION, "Union", {left, right});
  add(Transformation::Kind::SINK, "Sink", {both}, 2);
  JobGraph graph = build(2);
  ASSERT_EQ(graph.vertices.size(), 3u);
  const JobVertex& sink = graph.vertices[2];
  EXPECT_EQ(sink.inputChannelCount, 5);
  ASSERT_EQ(sink.inputEdges.size(), 2u);
  EXPECT_EQ(graph.edges[sink.inputEdges[0]].channelOffset, 0);
  EXPECT_EQ(graph.edges[sink.inputEdges[0]].partitionKind, PartitionKind::FORWARD);
  EXPECT_EQ(graph.edges[sink.inputEdges[1]].channelOffset, 2);
  EXPECT_EQ(graph.edges[sink.inputEdges[1]].partitionKind, PartitionKind::REBALANCE);
}

TEST_F(JobGraphTest, ForwardBetweenDifferentParallelismIsAnError) {
  auto* source = add(Transformation::Kind::SOURCE, "Source: A", {}, 1);
  auto* forward = partition(source, PartitionKind::FORWARD);
  add(Transformation::Kind::ONE_INPUT, "Map", {forward}, 2);
  try {
    build(2);
    FAIL() << "expected a ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Forward partitioning does not allow change of parallelism. Upstream operation: "
              "Source: A parallelism: 1, downstream operation: Map parallelism: 2 You must use "
              "another partitioning strategy, such as broadcast, rebalance, shuffle or global.");
  }
}

TEST_F(JobGraphTest, UnboundedSourceInBatchModeIsAnErrorNamingTheSource) {
  auto* source = add(Transformation::Kind::SOURCE, "Source: clicks", {});
  source->bounded = false;
  add(Transformation::Kind::SINK, "Sink", {source});
  try {
    build(1, RuntimeExecutionMode::BATCH);
    FAIL() << "expected a ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Detected an UNBOUNDED source with the 'execution.runtime-mode' set to 'BATCH'. "
              "This combination is not allowed, please set the 'execution.runtime-mode' to "
              "STREAMING or AUTOMATIC. Unbounded source: 'Source: clicks'");
  }
}

TEST_F(JobGraphTest, EmptyProgramIsAnError) {
  EXPECT_THROW(build(1), ValidationException);
}

TEST(DefaultMaxParallelismTest, FollowsFlinksRule) {
  EXPECT_EQ(defaultMaxParallelism(1), 128);
  EXPECT_EQ(defaultMaxParallelism(100), 256);
  EXPECT_EQ(defaultMaxParallelism(30000), 32768);
}

}  // namespace
}  // namespace eddy::graph
