// ACCEPTANCE B7 (seed 002, section 5.1): a decimal without a declared precision maps to
// DECIMAL(38, 18) (SUM then carries 18 digits of scale); a declared DECIMAL(12, 2) is kept;
// a declared TIMESTAMP(6) keeps microseconds.
#include <eddy/eddy.h>

#include <iostream>

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  env->setRuntimeMode(RuntimeExecutionMode::BATCH);
  auto tableEnv = StreamTableEnvironment::create(*env);

  DataStream<Row> payments =
      env->fromElements(Row::of("u_1001", Decimal::fromString("10.25"),
                                LocalDateTime::of(2024, 1, 1, 10, 0, 0, 123456000)),
                        Row::of("u_1001", Decimal::fromString("20.5"),
                                LocalDateTime::of(2024, 1, 1, 10, 1, 0, 654321000)));
  payments.returns(Types::ROW_NAMED({"userId", "amount", "ts"},
                                    {Types::STRING, Types::BIG_DEC, Types::LOCAL_DATE_TIME}));

  std::cout << "-- derived types" << std::endl;
  Table derived = tableEnv->fromDataStream(payments);
  derived.printSchema();
  tableEnv->createTemporaryView("derived", derived);
  tableEnv->executeSql("SELECT userId, SUM(amount) AS total FROM derived GROUP BY userId").print();

  std::cout << "-- declared types" << std::endl;
  Table declared = tableEnv->fromDataStream(payments, Schema::newBuilder()
                                                          .column("userId", DataTypes::STRING())
                                                          .column("amount", DataTypes::DECIMAL(12, 2))
                                                          .column("ts", DataTypes::TIMESTAMP(6))
                                                          .build());
  declared.printSchema();
  tableEnv->createTemporaryView("declared", declared);
  tableEnv->executeSql("SELECT userId, SUM(amount) AS total, MAX(ts) AS last_ts FROM declared GROUP BY userId")
      .print();
  return 0;
}
