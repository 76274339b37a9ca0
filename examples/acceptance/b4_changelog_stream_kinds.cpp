// ACCEPTANCE B4 (seed 002, section 3.4): a DataStream<Row> whose rows carry change kinds. With
// fromChangelogStream(..., ChangelogMode::upsert()) and a primary key the kinds are kept (the
// upserts become a retract changelog per key); fromDataStream of the same stream fails with
// an error that names fromChangelogStream instead of dropping the kinds as Flink does.
#include <eddy/eddy.h>

#include <iostream>

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto tableEnv = StreamTableEnvironment::create(*env);

  // an upsert stream by userId: an insert, an update of it, a second user, a delete
  DataStream<Row> changelogDataStream = env->fromElements(
      Row::ofKind(RowKind::INSERT, "u_1001", 10.0), Row::ofKind(RowKind::UPDATE_AFTER, "u_1001", 25.0),
      Row::ofKind(RowKind::INSERT, "u_1002", 5.0), Row::ofKind(RowKind::DELETE, "u_1001", 25.0));

  std::cout << "-- fromChangelogStream(..., ChangelogMode::upsert())" << std::endl;
  Table table = tableEnv->fromChangelogStream(changelogDataStream,
                                              Schema::newBuilder()
                                                  .column("userId", DataTypes::STRING().notNull())
                                                  .column("amount", DataTypes::DOUBLE())
                                                  .primaryKey({"userId"})
                                                  .build(),
                                              ChangelogMode::upsert());
  tableEnv->toChangelogStream(table).print();
  env->execute();

  std::cout << "-- the total over the changelog" << std::endl;
  tableEnv->createTemporaryView("balances", table);
  tableEnv->toChangelogStream(tableEnv->sqlQuery("SELECT SUM(amount) AS total FROM balances")).print();
  env->execute();

  std::cout << "-- fromDataStream of the same stream" << std::endl;
  try {
    tableEnv->toDataStream(tableEnv->fromDataStream(changelogDataStream)).print();
    env->execute();
    std::cout << "fromDataStream accepted a changelog" << std::endl;
  } catch (const JobExecutionException& error) {
    std::string message = error.what();
    std::cout << message.substr(message.find("fromDataStream()")) << std::endl;
  }
  return 0;
}
