// ACCEPTANCE A2 and A3 (seed 001, "Converting between DataStream and Table" and "Batch Runtime
// Mode"): an updating aggregate over a DataStream, converted back with toChangelogStream.
// STREAMING prints the changelog; with --runtime-mode-batch (env.setRuntimeMode(BATCH)) or
// --environment-settings-batch (EnvironmentSettings::inBatchMode()) only the final rows.
#include <eddy/eddy.h>

#include <string>

using namespace eddy;

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  if (mode == "--runtime-mode-batch") env->setRuntimeMode(RuntimeExecutionMode::BATCH);
  auto tableEnv = mode == "--environment-settings-batch"
                      ? StreamTableEnvironment::create(*env, EnvironmentSettings::inBatchMode())
                      : StreamTableEnvironment::create(*env);

  // create a DataStream
  DataStream<Row> dataStream =
      env->fromElements(Row::of("Alice", 12), Row::of("Bob", 10), Row::of("Alice", 100));

  // interpret the insert-only DataStream as a Table
  Table inputTable = tableEnv->fromDataStream(dataStream).as("name", "score");

  // register the Table object as a view and query it
  // the query contains an aggregation that produces updates
  tableEnv->createTemporaryView("InputTable", inputTable);
  Table resultTable =
      tableEnv->sqlQuery("SELECT name, SUM(score) FROM InputTable GROUP BY name");

  // interpret the updating Table as a changelog DataStream
  DataStream<Row> resultStream = tableEnv->toChangelogStream(resultTable);

  // add a printing sink and execute in DataStream API
  resultStream.print();
  env->execute();
  return 0;
}
