// Uses the installed eddy: a small DataStream job through the umbrella header.
#include <eddy/eddy.h>

#include <iostream>

int main() {
  auto env = eddy::StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  env->fromElements("Alice", "Bob")
      .map([](const std::string& name) { return eddy::Row::of(name, int32_t(name.size())); })
      .print();
  env->execute();
  std::cout << eddy::parseLogicalType("DECIMAL(12, 2)")->asSummaryString() << "\n";
  auto tableEnv = eddy::TableEnvironment::create(eddy::EnvironmentSettings::inBatchMode());
  tableEnv->executeSql("SET 'parallelism.default' = '1'");  // one subtask: a fixed row order
  tableEnv->executeSql("SELECT UPPER(w) AS w, COUNT(*) AS c FROM (VALUES ('a'), ('b'), ('a')) "
                       "AS t(w) GROUP BY w")
      .print();
  return 0;
}
