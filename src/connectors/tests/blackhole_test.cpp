// The blackhole connector: its operator swallows chunks without emitting anything, and a job
// that writes generated rows into it runs to the end.
#include <gtest/gtest.h>

#include "connectors/blackhole/blackhole_factory.h"
#include "connectors/tests/connector_test_support.h"

namespace eddy::connectors {
namespace {

using testing::ChunkStream;
using testing::intType;
using testing::rowType;
using testing::runSinkOperator;
using testing::tableContext;

TEST(BlackHoleTest, SwallowsChunksWithoutOutput) {
  auto type = rowType({{"id", intType()}});
  ConnectorContext context = tableContext(type, {{"connector", "blackhole"}});
  auto sink = FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSink(context);
  EXPECT_EQ(sink->sinkParallelism(), std::nullopt);
  ::testing::internal::CaptureStdout();
  auto output = runSinkOperator(*sink->createSinkOperator(), 0, 1,
                                {vector::rowsToChunk({Row::of(1), Row::of(2)}, type)});
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(output.batches, 0);
}

TEST(BlackHoleTest, ConsumesAGeneratedStreamToTheEnd) {
  auto type = rowType({{"id", intType()}});
  ConnectorContext source = tableContext(
      type,
      {{"connector", "datagen"}, {"number-of-rows", "50000"}, {"rows-per-second", "10000000"}});
  ConnectorContext sink = tableContext(type, {{"connector", "blackhole"}});
  const FactoryRegistry& registry = FactoryRegistry::builtIn();
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  ChunkStream stream(
      env->fromSource(registry.factoryFor(source).createDynamicTableSource(source)->createSource(),
                      WatermarkStrategy<vector::Chunk>::noWatermarks(), "datagen"));
  stream.sinkTo(registry.factoryFor(sink).createDynamicTableSink(sink)->createSinkOperator());
  ::testing::internal::CaptureStdout();
  EXPECT_NO_THROW(env->execute("datagen to blackhole"));
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
}

}  // namespace
}  // namespace eddy::connectors
