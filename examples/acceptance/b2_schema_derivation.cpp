// ACCEPTANCE B2 (seed 002, section 3.2): the columns fromDataStream derives without a Schema:
// an atomic type is `f0`, a tuple `f0, f1, ...`, a struct whose fields are registered with
// EDDY_STRUCT (Flink: a POJO) its fields by name, a Row with named type information its names.
#include <eddy/eddy.h>

#include <iostream>
#include <tuple>

struct Order {
  std::string userId;
  int64_t quantity;
  double price;
};
EDDY_STRUCT(Order, userId, quantity, price)

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto tableEnv = StreamTableEnvironment::create(*env);

  std::cout << "-- atomic type" << std::endl;
  tableEnv->fromDataStream(env->fromElements(std::string("u_1001"), std::string("u_1002")))
      .printSchema();

  std::cout << "-- tuple" << std::endl;
  tableEnv->fromDataStream(env->fromElements(std::tuple<std::string, int64_t>("u_1001", 3)))
      .printSchema();

  std::cout << "-- struct with registered fields" << std::endl;
  tableEnv->fromDataStream(env->fromElements(Order{"u_1001", 3, 9.99})).printSchema();

  std::cout << "-- Row with named type information" << std::endl;
  DataStream<Row> rows = env->fromElements(Row::of("u_1001", 10.5));
  rows.returns(Types::ROW_NAMED({"userId", "amount"}, {Types::STRING, Types::DOUBLE}));
  Table table = tableEnv->fromDataStream(rows);
  table.printSchema();

  // the derived columns are what SQL reads
  std::cout << "-- SELECT over the struct's columns" << std::endl;
  tableEnv->createTemporaryView("orders", env->fromElements(Order{"u_1001", 3, 2.5}, Order{"u_1002", 1, 4.0}));
  tableEnv->toDataStream(tableEnv->sqlQuery("SELECT userId, quantity * price AS total FROM orders"))
      .print();
  env->execute();
  return 0;
}
