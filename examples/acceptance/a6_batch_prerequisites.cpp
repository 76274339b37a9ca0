// ACCEPTANCE A6 (seed 001, "Batch Runtime Mode"): BATCH needs bounded, insert-only sources. An
// unbounded source fails with an error naming it; a changelog stream fails likewise.
#include <eddy/eddy.h>

#include <iostream>

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setRuntimeMode(RuntimeExecutionMode::BATCH);
  auto tableEnv = StreamTableEnvironment::create(*env);

  // an unbounded source: datagen without 'number-of-rows'
  tableEnv->executeSql(
      "CREATE TABLE clicks (user_id INT) WITH ('connector' = 'datagen', 'rows-per-second' = '5')");
  try {
    tableEnv->toDataStream(tableEnv->from("clicks")).print();
    env->execute();
    std::cout << "an unbounded source ran in BATCH" << std::endl;
  } catch (const ValidationException& error) {
    std::cout << error.what() << std::endl;
  }

  // a changelog source
  DataStream<Row> changes = env->fromElements(Row::ofKind(RowKind::INSERT, "Alice", 12),
                                              Row::ofKind(RowKind::UPDATE_BEFORE, "Alice", 12),
                                              Row::ofKind(RowKind::UPDATE_AFTER, "Alice", 100));
  try {
    tableEnv->toChangelogStream(tableEnv->fromChangelogStream(changes)).print();
    env->execute();
    std::cout << "a changelog source ran in BATCH" << std::endl;
  } catch (const ValidationException& error) {
    std::cout << error.what() << std::endl;
  }
  return 0;
}
