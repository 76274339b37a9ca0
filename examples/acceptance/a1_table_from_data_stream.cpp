// ACCEPTANCE A1 (seed 001, "Converting between DataStream and Table"): a DataStream of strings
// becomes a table, a SQL query upper-cases it, and the result goes back into a DataStream.
#include <eddy/eddy.h>

using namespace eddy;

int main() {
  // create environments of both APIs
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto tableEnv = StreamTableEnvironment::create(*env);

  // create a DataStream
  DataStream<std::string> dataStream = env->fromElements("Alice", "Bob", "John");

  // interpret the insert-only DataStream as a Table
  Table inputTable = tableEnv->fromDataStream(dataStream);

  // register the Table object as a view and query it
  tableEnv->createTemporaryView("InputTable", inputTable);
  Table resultTable = tableEnv->sqlQuery("SELECT UPPER(f0) FROM InputTable");

  // interpret the insert-only Table as a DataStream again
  DataStream<Row> resultStream = tableEnv->toDataStream(resultTable);

  // add a printing sink and execute in DataStream API
  resultStream.print();
  env->execute();
  return 0;
}
