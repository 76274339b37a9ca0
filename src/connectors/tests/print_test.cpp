// The print connector: exact lines (Row.toString with the RowKind) and Flink's
// PrintSinkOutputWriter prefixes for parallelism 1 and 2, with and without identifier, on
// stdout and stderr; and the print sink at the end of a running datagen job.
#include <eddy/table/table_environment.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "connectors/print/print_factory.h"
#include "connectors/print/print_sink.h"
#include "connectors/tests/connector_test_support.h"

namespace eddy::connectors {
namespace {

using testing::ChunkStream;
using testing::intType;
using testing::rowType;
using testing::runSinkOperator;
using testing::stringType;
using testing::tableContext;
using testing::validationMessage;

LogicalTypePtr scoreType() { return rowType({{"name", stringType()}, {"score", intType()}}); }

vector::Chunk changelog() {
  return vector::rowsToChunk(
      {Row::ofKind(RowKind::INSERT, "Alice", 12), Row::ofKind(RowKind::UPDATE_BEFORE, "Alice", 12),
       Row::ofKind(RowKind::UPDATE_AFTER, "Alice", 112),
       Row::ofKind(RowKind::DELETE, "Bob", nullptr)},
      scoreType());
}

std::unique_ptr<DynamicTableSink> printSink(std::map<std::string, std::string> options) {
  options["connector"] = "print";
  ConnectorContext context = tableContext(scoreType(), std::move(options));
  return FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSink(context);
}

std::string printedToStdout(const DynamicTableSink& sink, int subtaskIndex, int parallelism,
                            std::vector<vector::Chunk> chunks) {
  ::testing::internal::CaptureStdout();
  runSinkOperator(*sink.createSinkOperator(), subtaskIndex, parallelism, std::move(chunks));
  return ::testing::internal::GetCapturedStdout();
}

TEST(PrintTest, ParallelismOnePrintsRowsWithTheirKinds) {
  auto sink = printSink({});
  EXPECT_EQ(printedToStdout(*sink, 0, 1, {changelog(), changelog()}),
            "+I[Alice, 12]\n-U[Alice, 12]\n+U[Alice, 112]\n-D[Bob, null]\n"
            "+I[Alice, 12]\n-U[Alice, 12]\n+U[Alice, 112]\n-D[Bob, null]\n");
}

TEST(PrintTest, ParallelismTwoPrefixesTheSubtask) {
  auto sink = printSink({});
  EXPECT_EQ(printedToStdout(*sink, 1, 2, {changelog()}),
            "2> +I[Alice, 12]\n2> -U[Alice, 12]\n2> +U[Alice, 112]\n2> -D[Bob, null]\n");
  EXPECT_EQ(printedToStdout(*sink, 0, 2, {vector::rowsToChunk({Row::of("Carol", 1)}, scoreType())}),
            "1> +I[Carol, 1]\n");
}

TEST(PrintTest, IdentifierPrefix) {
  auto sink = printSink({{"print-identifier", "orders"}});
  auto oneRow = [] { return vector::rowsToChunk({Row::of("Carol", 1)}, scoreType()); };
  EXPECT_EQ(printedToStdout(*sink, 0, 1, {oneRow()}), "orders> +I[Carol, 1]\n");
  EXPECT_EQ(printedToStdout(*sink, 0, 3, {oneRow()}), "orders:1> +I[Carol, 1]\n");
  EXPECT_EQ(printedToStdout(*sink, 2, 3, {oneRow()}), "orders:3> +I[Carol, 1]\n");
  EXPECT_EQ(printSinkPrefix("", 0, 1), "");
  EXPECT_EQ(printSinkPrefix("", 4, 5), "5> ");
}

TEST(PrintTest, StandardErrorPrintsToStderrOnly) {
  auto sink = printSink({{"standard-error", "true"}, {"print-identifier", "err"}});
  ::testing::internal::CaptureStderr();
  std::string out =
      printedToStdout(*sink, 0, 1, {vector::rowsToChunk({Row::of("Dan", 7)}, scoreType())});
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "err> +I[Dan, 7]\n");
}

TEST(PrintTest, OptionsAreParsedAndExposed) {
  auto sink = printSink({{"sink.parallelism", "4"}, {"standard-error", "FALSE"}});
  EXPECT_EQ(sink->sinkParallelism(), 4);
  EXPECT_FALSE(static_cast<PrintTableSink&>(*sink).standardError());
  EXPECT_EQ(printSink({})->sinkParallelism(), std::nullopt);
  EXPECT_EQ(validationMessage([] {
              printSink({{"standard-error", "yes"}});
            }),
            "Could not parse value 'yes' for key 'standard-error' of table 't': expected 'true' "
            "or 'false'.");
  EXPECT_EQ(validationMessage([] {
              printSink({{"sink.parallelism", "0"}});
            }),
            "Invalid value '0' for key 'sink.parallelism' of table 't': expected an integer "
            "between 1 and 2147483647.");
}

// datagen → print in a running job.
std::string runDataGenIntoPrint(int sinkParallelism, const std::string& identifier) {
  auto type = rowType({{"id", intType()}, {"name", stringType()}});
  ConnectorContext source = tableContext(type, {{"connector", "datagen"},
                                                {"fields.id.kind", "sequence"},
                                                {"fields.id.start", "1"},
                                                {"fields.id.end", "6"},
                                                {"fields.name.kind", "sequence"},
                                                {"fields.name.start", "101"},
                                                {"fields.name.end", "200"}});
  ConnectorContext sink =
      tableContext(type, {{"connector", "print"},
                          {"print-identifier", identifier},
                          {"sink.parallelism", std::to_string(sinkParallelism)}});
  const FactoryRegistry& registry = FactoryRegistry::builtIn();
  auto tableSource = registry.factoryFor(source).createDynamicTableSource(source);
  auto tableSink = registry.factoryFor(sink).createDynamicTableSink(sink);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto generated = env->fromSource(tableSource->createSource(),
                                   WatermarkStrategy<vector::Chunk>::noWatermarks(), "datagen");
  ChunkStream stream(sinkParallelism > 1 ? generated.rebalance() : generated);
  stream.sinkTo(tableSink->createSinkOperator(), *tableSink->sinkParallelism());
  ::testing::internal::CaptureStdout();
  env->execute("datagen to print");
  return ::testing::internal::GetCapturedStdout();
}

TEST(PrintTest, PrintsTheRowsOfARunningJob) {
  EXPECT_EQ(runDataGenIntoPrint(1, "rows"),
            "rows> +I[1, 101]\nrows> +I[2, 102]\nrows> +I[3, 103]\n"
            "rows> +I[4, 104]\nrows> +I[5, 105]\nrows> +I[6, 106]\n");
}

TEST(PrintTest, PrintsWithSubtaskPrefixesInAParallelJob) {
  std::istringstream printed(runDataGenIntoPrint(2, "rows"));
  std::vector<std::string> rows;
  for (std::string line; std::getline(printed, line);) {
    ASSERT_TRUE(line.rfind("rows:1> ", 0) == 0 || line.rfind("rows:2> ", 0) == 0) << line;
    rows.push_back(line.substr(8));
  }
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{"+I[1, 101]", "+I[2, 102]", "+I[3, 103]", "+I[4, 104]",
                                            "+I[5, 105]", "+I[6, 106]"}));
}

// Print consumes -U rows (Flink's print sink takes the changelog it is given), with a primary
// key too; a blackhole does not (Flink's drops UPDATE_BEFORE), so an aggregate into it emits no
// -U: 4 rows reach it where print gets 6.
TEST(PrintTest, PrintGetsUpdateBeforeWhereBlackholeDoesNot) {
  auto run = [](const std::string& table) {
    auto env = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
    env->executeSql("SET 'parallelism.default' = '1'");
    env->executeSql("CREATE TABLE counts (name STRING, c BIGINT" + table);
    ::testing::internal::CaptureStdout();
    TableResult result = env->executeSql(
        "INSERT INTO counts SELECT name, COUNT(*) FROM (VALUES ('a'), ('b'), ('a'), ('a')) AS "
        "t(name) GROUP BY name");
    result.await();
    std::string printed = ::testing::internal::GetCapturedStdout();
    return std::to_string(result.getJobProgress().rowsWritten) + " rows\n" + printed;
  };
  const std::string retracting =
      "6 rows\n+I[a, 1]\n+I[b, 1]\n-U[a, 1]\n+U[a, 2]\n-U[a, 2]\n+U[a, 3]\n";
  EXPECT_EQ(run(") WITH ('connector' = 'print')"), retracting);
  EXPECT_EQ(run(", PRIMARY KEY (name) NOT ENFORCED) WITH ('connector' = 'print')"), retracting);
  EXPECT_EQ(run(") WITH ('connector' = 'blackhole')"), "4 rows\n");
  // The key through an injective cast (the query's name is a CHAR(1)).
  EXPECT_EQ(run(", PRIMARY KEY (name) NOT ENFORCED) WITH ('connector' = 'blackhole')"),
            "4 rows\n");
  // A key that is not the grouping key: the blackhole, an upsert sink, gets the changes through
  // Flink's SinkUpsertMaterializer, which keeps the rows of each count and tells the sink which
  // one holds it (+I[a, 1], +U[b, 1], +I[a, 2], -D[a, 2], +I[a, 3]: 5 rows, no -U); print, a
  // retract sink, gets the changelog as it is (as Flink adds no materializer there).
  EXPECT_EQ(run(", PRIMARY KEY (c) NOT ENFORCED) WITH ('connector' = 'print')"), retracting);
  EXPECT_EQ(run(", PRIMARY KEY (c) NOT ENFORCED) WITH ('connector' = 'blackhole')"), "5 rows\n");
}

// Two sinks of one job over the same aggregate, a blackhole and a print: each gets its own
// aggregate (the reused sub-plans differ in their changelog), so print still sees -U.
TEST(PrintTest, ABlackholeDoesNotTakeTheUpdateBeforeOfAnotherSink) {
  auto env = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  env->executeSql("SET 'parallelism.default' = '1'");
  env->executeSql("CREATE TABLE swallowed (name STRING, c BIGINT) WITH ('connector' = 'blackhole')");
  env->executeSql("CREATE TABLE printed (name STRING, c BIGINT) WITH ('connector' = 'print')");
  env->executeSql("CREATE TEMPORARY VIEW counted AS SELECT name, COUNT(*) AS c FROM (VALUES "
                  "('a'), ('b'), ('a')) AS t(name) GROUP BY name");
  ::testing::internal::CaptureStdout();
  TableResult result = env->executeSql(
      "EXECUTE STATEMENT SET BEGIN INSERT INTO swallowed SELECT * FROM counted; "
      "INSERT INTO printed SELECT * FROM counted; END");
  result.await();
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "+I[a, 1]\n+I[b, 1]\n-U[a, 1]\n+U[a, 2]\n");
  EXPECT_EQ(result.getJobProgress().rowsWritten, 3 + 4);
}

}  // namespace
}  // namespace eddy::connectors
