// ACCEPTANCE B5 (seed 002, section 4.1): toDataStream accepts only append-only tables; a
// non-windowed GROUP BY produces updates, so the conversion fails and names toChangelogStream.
#include <eddy/eddy.h>

#include <iostream>

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto tableEnv = StreamTableEnvironment::create(*env);

  DataStream<Row> orders = env->fromElements(Row::of("u_1001", 10.5), Row::of("u_1002", 3.2),
                                             Row::of("u_1001", 20.0));
  tableEnv->createTemporaryView(
      "orders", orders,
      Schema::newBuilder().column("userId", DataTypes::STRING()).column("amount", DataTypes::DOUBLE()).build());
  Table result =
      tableEnv->sqlQuery("SELECT userId, SUM(amount) AS total_amount FROM orders GROUP BY userId");
  try {
    DataStream<Row> resultStream = tableEnv->toDataStream(result);
    resultStream.print();
    env->execute();
  } catch (const TableException& error) {
    std::cout << error.what() << std::endl;
    return 0;
  }
  std::cout << "toDataStream accepted an updating table" << std::endl;
  return 1;
}
