// ACCEPTANCE C1 (seed 000, the `OrderPipeline` environment setup): a streaming environment at
// parallelism 4 with checkpointing every 60 s (timeout 120 s, one at a time), its
// StreamTableEnvironment with mini-batch (5 s or 5000 rows) and the TWO_PHASE aggregation
// strategy, and a batch TableEnvironment whose table operators run at parallelism 8.
//
// What a user checks: the checkpoint settings as the environment holds them; EXPLAIN of a
// GROUP BY, whose physical plan is a LocalGroupAggregate before the exchange and a
// GlobalGroupAggregate after it (eddy plans the two phases only under mini-batch, as Flink;
// eddy's aggregates buffer their mini-batches themselves, so there is no MiniBatchAssigner node
// in the plan); EXPLAIN JSON_EXECUTION_PLAN's operators at parallelism 4 (streaming) and 8
// (batch); an invalid value rejected with its message; a misspelt key accepted with a warning
// naming the key meant (Flink accepts any key; docs/configuration.md, "Validation").
#include <eddy/eddy.h>

#include <iostream>
#include <regex>
#include <sstream>
#include <string>

using namespace eddy;

namespace {

/// The one cell of an EXPLAIN statement's result.
std::string explain(TableEnvironment& tableEnv, const std::string& statement) {
  return tableEnv.executeSql(statement).collectAll().at(0).getFieldAs<std::string>(0);
}

/// The lines of the `== Physical Plan ==` section of an EXPLAIN text.
std::string physicalPlanOf(const std::string& explained) {
  const std::string header = "== Physical Plan ==\n";
  const size_t begin = explained.find(header) + header.size();
  const size_t end = explained.find("\n== Physical Execution Plan ==", begin);
  return explained.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

/// Each operator of the `== Physical Execution Plan ==` section (Flink's JSON execution plan)
/// as `type: parallelism`.
void printOperators(const std::string& explained) {
  const std::string plan = explained.substr(explained.find("== Physical Execution Plan =="));
  static const std::regex node(
      "\"type\":\"([^\"]*)\",\"pact\":\"[^\"]*\",\"contents\":\"[^\"]*\",\"parallelism\":([0-9]+)");
  for (std::sregex_iterator it(plan.begin(), plan.end(), node), end; it != end; ++it) {
    std::cout << (*it)[1] << ": " << (*it)[2] << std::endl;
  }
}

void printOption(TableEnvironment& tableEnv, const std::string& key) {
  std::cout << key << " = " << tableEnv.getConfig().get(key).value_or("(unset)") << std::endl;
}

const char* const kOrderEvents =
    "CREATE TABLE order_events (order_id STRING, user_id STRING, amount DECIMAL(12, 2)) "
    "WITH ('connector' = 'datagen', 'number-of-rows' = '100')";
const char* const kTotalsPerUser =
    "SELECT user_id, SUM(amount) AS total FROM order_events GROUP BY user_id";

}  // namespace

int main() {
  // --- Streaming mode: unbounded sources (Kafka, CDC, etc.) ---
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(4);

  // Checkpoint every 60s with exactly-once semantics
  env->enableCheckpointing(60'000);
  env->getCheckpointConfig().setCheckpointTimeout(120'000);
  env->getCheckpointConfig().setMaxConcurrentCheckpoints(1);

  auto tableEnv = StreamTableEnvironment::create(*env);

  // Mini-batch: buffer up to 5000 records or 5s before flushing aggregation state.
  tableEnv->getConfig().set("table.exec.mini-batch.enabled", "true");
  tableEnv->getConfig().set("table.exec.mini-batch.allow-latency", "5 s");
  tableEnv->getConfig().set("table.exec.mini-batch.size", "5000");

  // Local-global aggregation: pre-aggregate on each subtask before shuffling.
  tableEnv->getConfig().set("table.optimizer.agg-phase-strategy", "TWO_PHASE");

  // --- Batch mode: bounded sources (Parquet, JDBC full extract) ---
  auto batchEnv =
      TableEnvironment::create(EnvironmentSettings::newInstance().inBatchMode().build());
  batchEnv->getConfig().set("table.exec.resource.default-parallelism", "8");

  std::cout << "-- streaming environment" << std::endl;
  const CheckpointConfig& checkpoints = env->getCheckpointConfig();
  std::cout << "parallelism: " << env->getParallelism() << std::endl;
  std::cout << "checkpoint interval: " << checkpoints.getCheckpointInterval() << " ms" << std::endl;
  std::cout << "checkpointing mode: "
            << (checkpoints.getCheckpointingMode() == CheckpointingMode::EXACTLY_ONCE
                    ? "EXACTLY_ONCE"
                    : "AT_LEAST_ONCE")
            << std::endl;
  std::cout << "checkpoint timeout: " << checkpoints.getCheckpointTimeout() << " ms" << std::endl;
  std::cout << "max concurrent checkpoints: " << checkpoints.getMaxConcurrentCheckpoints()
            << std::endl;

  std::cout << "-- options of the streaming TableEnvironment" << std::endl;
  for (const char* key : {"table.exec.mini-batch.enabled", "table.exec.mini-batch.allow-latency",
                          "table.exec.mini-batch.size", "table.optimizer.agg-phase-strategy"}) {
    printOption(*tableEnv, key);
  }

  tableEnv->executeSql(kOrderEvents);
  const std::string streamingPlan =
      explain(*tableEnv, std::string("EXPLAIN JSON_EXECUTION_PLAN ") + kTotalsPerUser);
  std::cout << "-- streaming physical plan: a local and a global aggregation" << std::endl;
  std::cout << physicalPlanOf(streamingPlan);
  std::cout << "-- streaming execution plan: operators and their parallelism" << std::endl;
  printOperators(streamingPlan);

  std::cout << "-- options of the batch TableEnvironment" << std::endl;
  printOption(*batchEnv, "table.exec.resource.default-parallelism");
  batchEnv->executeSql(kOrderEvents);
  std::cout << "-- batch execution plan: operators and their parallelism" << std::endl;
  printOperators(explain(*batchEnv, std::string("EXPLAIN JSON_EXECUTION_PLAN ") + kTotalsPerUser));
  std::cout << "-- a batch query" << std::endl;
  batchEnv->executeSql("SELECT COUNT(*) AS orders FROM order_events").print();

  std::cout << "-- an invalid value is rejected" << std::endl;
  try {
    tableEnv->getConfig().set("table.exec.mini-batch.size", "lots");
  } catch (const ValidationException& error) {
    std::cout << error.what() << std::endl;
  }
  printOption(*tableEnv, "table.exec.mini-batch.size");

  // The warning goes to stderr; it is captured here to show it.
  std::cout << "-- a misspelt key is accepted with a warning, as Flink accepts any key"
            << std::endl;
  std::ostringstream warnings;
  std::streambuf* stderrBuffer = std::cerr.rdbuf(warnings.rdbuf());
  tableEnv->getConfig().set("table.exec.mini-batch.enabeld", "true");
  std::cerr.rdbuf(stderrBuffer);
  std::cout << warnings.str();
  return 0;
}
