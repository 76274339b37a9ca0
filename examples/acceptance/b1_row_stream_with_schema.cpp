// ACCEPTANCE B1 (seed 002, section 3.1): a DataStream<Row> read with an explicit Schema whose
// columns follow the Row's positions, with an event-time column and a watermark; a SUM per
// user over it, as a changelog.
#include <eddy/eddy.h>

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto tableEnv = StreamTableEnvironment::create(*env);

  // the source is a DataStream<Row>
  DataStream<Row> sourceStream =
      env->fromElements(Row::of("u_1001", 10.5, LocalDateTime::of(2024, 1, 1, 10, 0, 0)),
                        Row::of("u_1002", 3.2, LocalDateTime::of(2024, 1, 1, 10, 1, 0)),
                        Row::of("u_1001", 4.5, LocalDateTime::of(2024, 1, 1, 10, 2, 0)));
  Table sourceTable = tableEnv->fromDataStream(sourceStream,
                                               Schema::newBuilder()
                                                   .column("userId", DataTypes::STRING())
                                                   .column("amount", DataTypes::DOUBLE())
                                                   .column("ts", DataTypes::TIMESTAMP(3))
                                                   .watermark("ts", "ts - INTERVAL '5' SECOND")
                                                   .build());
  tableEnv->createTemporaryView("source_table", sourceTable);
  sourceTable.printSchema();
  Table result = tableEnv->sqlQuery(
      "SELECT userId, SUM(amount) AS total_amount FROM source_table GROUP BY userId");
  tableEnv->toChangelogStream(result).print();
  env->execute();
  return 0;
}
