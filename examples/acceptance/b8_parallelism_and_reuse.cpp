// ACCEPTANCE B8 (seed 002, sections 5.2 and 5.3): 'table.exec.resource.default-parallelism'
// sets the parallelism of the table operators (visible in the environment's execution plan),
// and a view read by three queries of one statement set reads its source once.
#include <eddy/eddy.h>

#include <atomic>
#include <iostream>
#include <regex>

using namespace eddy;

namespace {
std::atomic<int> recordsRead{0};
}

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto tableEnv = StreamTableEnvironment::create(*env);
  tableEnv->getConfig().set("table.exec.resource.default-parallelism", "3");
  tableEnv->getConfig().set("table.optimizer.reuse-sub-plan-enabled", "true");

  // the source counts the records it hands to the table side
  DataStream<Row> orders =
      env->fromElements(Row::of("u_1001", 10.0), Row::of("u_1002", 5.0), Row::of("u_1001", 20.0))
          .map([](const Row& row) {
            ++recordsRead;
            return row;
          });
  orders.setParallelism(1);
  tableEnv->createTemporaryView(
      "orders", orders,
      Schema::newBuilder().column("userId", DataTypes::STRING()).column("amount", DataTypes::DOUBLE()).build());

  // the parallelism of each operator of a table pipeline inside the DataStream program
  tableEnv->toChangelogStream(tableEnv->sqlQuery(
                                  "SELECT userId, SUM(amount) AS total FROM orders GROUP BY userId"))
      .addSink([](const Row&) {})
      .name("Sink: discard");
  std::cout << "-- operators and their parallelism" << std::endl;
  std::string plan = env->getExecutionPlan();
  std::regex node("\"type\":\"([^\"]*)\",\"pact\":\"[^\"]*\",\"contents\":\"[^\"]*\",\"parallelism\":([0-9]+)");
  for (std::sregex_iterator it(plan.begin(), plan.end(), node), end; it != end; ++it) {
    std::cout << (*it)[1] << ": " << (*it)[2] << std::endl;
  }
  env->execute();

  // three queries over one view in one statement set: the view's source is read once
  std::cout << "-- records read by a statement set of three inserts" << std::endl;
  tableEnv->executeSql("CREATE TABLE big_orders (userId STRING, amount DOUBLE) WITH ('connector' = 'blackhole')");
  tableEnv->executeSql("CREATE TABLE small_orders (userId STRING, amount DOUBLE) WITH ('connector' = 'blackhole')");
  tableEnv->executeSql("CREATE TABLE all_orders (userId STRING, amount DOUBLE) WITH ('connector' = 'blackhole')");
  recordsRead = 0;
  tableEnv->createStatementSet()
      .addInsertSql("INSERT INTO big_orders SELECT * FROM orders WHERE amount >= 10")
      .addInsertSql("INSERT INTO small_orders SELECT * FROM orders WHERE amount < 10")
      .addInsertSql("INSERT INTO all_orders SELECT * FROM orders")
      .execute()
      .await();
  std::cout << recordsRead << std::endl;
  return 0;
}
