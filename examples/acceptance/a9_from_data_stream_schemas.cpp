// ACCEPTANCE A9 (seed 001, "Examples for fromDataStream"): the five ways of reading a
// DataStream of a User struct as a table, each with the schema printSchema() shows.
#include <eddy/eddy.h>

#include <iostream>

// some example struct, its fields registered with eddy (Flink finds a POJO's fields itself)
struct User {
  std::string name;
  int32_t score;
  eddy::Instant event_time;
};
EDDY_STRUCT(User, name, score, event_time)

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto tableEnv = StreamTableEnvironment::create(*env);

  // create a DataStream
  DataStream<User> dataStream = env->fromElements(User{"Alice", 4, Instant::ofEpochMilli(1000)},
                                                  User{"Bob", 6, Instant::ofEpochMilli(1001)},
                                                  User{"Alice", 10, Instant::ofEpochMilli(1002)});

  // === EXAMPLE 1 ===
  // derive all physical columns automatically
  std::cout << "=== EXAMPLE 1 ===" << std::endl;
  Table table = tableEnv->fromDataStream(dataStream);
  table.printSchema();

  // === EXAMPLE 2 ===
  // derive all physical columns automatically
  // but add computed columns (in this case for creating a proctime attribute column)
  std::cout << "=== EXAMPLE 2 ===" << std::endl;
  table = tableEnv->fromDataStream(
      dataStream, Schema::newBuilder().columnByExpression("proc_time", "PROCTIME()").build());
  table.printSchema();

  // === EXAMPLE 3 ===
  // derive all physical columns automatically
  // but add computed columns (in this case for creating a rowtime attribute column)
  // and a custom watermark strategy
  std::cout << "=== EXAMPLE 3 ===" << std::endl;
  table = tableEnv->fromDataStream(
      dataStream, Schema::newBuilder()
                      .columnByExpression("rowtime", "CAST(event_time AS TIMESTAMP_LTZ(3))")
                      .watermark("rowtime", "rowtime - INTERVAL '10' SECOND")
                      .build());
  table.printSchema();

  // === EXAMPLE 4 ===
  // derive all physical columns automatically
  // but access the stream record's timestamp for creating a rowtime attribute column
  // also rely on the watermarks generated in the DataStream API
  std::cout << "=== EXAMPLE 4 ===" << std::endl;
  table = tableEnv->fromDataStream(dataStream,
                                   Schema::newBuilder()
                                       .columnByMetadata("rowtime", "TIMESTAMP_LTZ(3)")
                                       .watermark("rowtime", "SOURCE_WATERMARK()")
                                       .build());
  table.printSchema();

  // === EXAMPLE 5 ===
  // define physical columns manually
  // in this example,
  //   - we can reduce the default precision of timestamps from 9 to 3
  //   - we also project the columns and put `event_time` to the beginning
  std::cout << "=== EXAMPLE 5 ===" << std::endl;
  table = tableEnv->fromDataStream(dataStream,
                                   Schema::newBuilder()
                                       .column("event_time", "TIMESTAMP_LTZ(3)")
                                       .column("name", "STRING")
                                       .column("score", "INT")
                                       .watermark("event_time", "SOURCE_WATERMARK()")
                                       .build());
  table.printSchema();
  // note: the watermark strategy is not shown due to the inserted column reordering projection
  return 0;
}
