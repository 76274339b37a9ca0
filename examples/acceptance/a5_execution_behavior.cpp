// ACCEPTANCE A5 (seed 001, "Execution Behavior"): the Table API runs a source-to-sink pipeline
// (or a statement set) as its own job at once; toDataStream only adds a branch to the
// DataStream program, which runs at env.execute().
#include <eddy/eddy.h>

#include <iostream>

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto tableEnv = StreamTableEnvironment::create(*env);

  tableEnv->createTemporaryView(
      "InputTable", env->fromElements(Row::of("Alice", 12), Row::of("Bob", 10)),
      Schema::newBuilder().column("name", "STRING").column("score", "INT").build());
  tableEnv->executeSql(
      "CREATE TABLE OutputTable (name STRING, score INT) "
      "WITH ('connector' = 'print', 'print-identifier' = 'OutputTable')");
  tableEnv->executeSql(
      "CREATE TABLE OutputTable2 (name STRING, score INT) "
      "WITH ('connector' = 'print', 'print-identifier' = 'OutputTable2')");

  // execute with explicit sink
  std::cout << "-- insertInto(...).execute()" << std::endl;
  tableEnv->from("InputTable").insertInto("OutputTable").execute().await();
  std::cout << "-- executeSql(INSERT ...)" << std::endl;
  tableEnv->executeSql("INSERT INTO OutputTable SELECT * FROM InputTable").await();
  std::cout << "-- statement set of two pipelines" << std::endl;
  tableEnv->createStatementSet()
      .add(tableEnv->from("InputTable").insertInto("OutputTable"))
      .add(tableEnv->from("InputTable").insertInto("OutputTable2"))
      .execute()
      .await();
  std::cout << "-- statement set of two INSERT statements" << std::endl;
  tableEnv->createStatementSet()
      .addInsertSql("INSERT INTO OutputTable SELECT * FROM InputTable")
      .addInsertSql("INSERT INTO OutputTable2 SELECT * FROM InputTable")
      .execute()
      .await();

  // execute with implicit local sink
  std::cout << "-- from(...).execute().print()" << std::endl;
  tableEnv->from("InputTable").execute().print();
  std::cout << "-- executeSql(SELECT ...).print()" << std::endl;
  tableEnv->executeSql("SELECT * FROM InputTable").print();

  // (1) adds a branch with a printing sink to the StreamExecutionEnvironment
  Table table = tableEnv->from("InputTable");
  tableEnv->toDataStream(table).print();
  // (2) executes a Table API end-to-end pipeline as a job and prints locally,
  // thus (1) has still not been executed
  std::cout << "-- table.execute().print()" << std::endl;
  table.execute().print();
  // executes the DataStream API pipeline with the sink defined in (1) as a job,
  // (2) was already running before
  std::cout << "-- env.execute()" << std::endl;
  env->execute();
  return 0;
}
