// ACCEPTANCE A4 (seed 001, "Configuration"): options set on the StreamExecutionEnvironment
// before the StreamTableEnvironment is created are adopted by it; options of the table config
// (the session time zone) take effect during planning: a TIMESTAMP_LTZ prints in Berlin time.
#include <eddy/eddy.h>

#include <iostream>

using namespace eddy;

int main() {
  // create the DataStream API environment and set various configuration early
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setMaxParallelism(256);
  env->getCheckpointConfig().setCheckpointingMode(CheckpointingMode::EXACTLY_ONCE);
  env->setRuntimeMode(RuntimeExecutionMode::BATCH);

  // then switch to the Table API
  auto tableEnv = StreamTableEnvironment::create(*env);
  // set configuration early
  tableEnv->getConfig().setLocalTimeZone("Europe/Berlin");

  std::cout << "max parallelism: " << env->getMaxParallelism() << std::endl;
  std::cout << "checkpointing mode: "
            << (env->getCheckpointConfig().getCheckpointingMode() == CheckpointingMode::EXACTLY_ONCE
                    ? "EXACTLY_ONCE"
                    : "AT_LEAST_ONCE")
            << std::endl;
  std::cout << "table.local-time-zone: " << *tableEnv->getConfig().get("table.local-time-zone")
            << std::endl;

  // 2021-08-21 13:00:00 UTC, as an instant, shown in the session time zone; the runtime mode
  // (BATCH) came from the environment
  tableEnv->executeSql(
              "SELECT TO_TIMESTAMP_LTZ(1629550800000, 3) AS ts, "
              "CAST(TO_TIMESTAMP_LTZ(1629550800000, 3) AS TIMESTAMP(3)) AS berlin_wall_clock, "
              "HOUR(TO_TIMESTAMP_LTZ(1629550800000, 3)) AS berlin_hour")
      .print();
  return 0;
}
