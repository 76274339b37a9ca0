// ACCEPTANCE B9 (seed 002, section 6): the mixed-pipeline template. Rows are read as a table
// with an event-time column and a watermark, aggregated per user by SQL, and the changelog
// goes back into the DataStream API, which formats each change.
#include <eddy/eddy.h>

#include <cstdio>

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(4);
  env->enableCheckpointing(60'000);
  auto tableEnv = StreamTableEnvironment::create(*env);
  // the default parallelism of table operators, so that it does not drift
  tableEnv->getConfig().set("table.exec.resource.default-parallelism", "4");
  // sub-plan reuse: a view read several times is computed once
  tableEnv->getConfig().set("table.optimizer.reuse-sub-plan-enabled", "true");

  // 1. the DataStream side (a real job reads Kafka or Pulsar here)
  DataStream<Row> rawStream =
      env->fromElements(Row::of("u_1001", 10.0, LocalDateTime::of(2024, 1, 1, 10, 0, 0)),
                        Row::of("u_1001", 20.0, LocalDateTime::of(2024, 1, 1, 10, 1, 0)),
                        Row::of("u_1002", 5.0, LocalDateTime::of(2024, 1, 1, 10, 2, 0)));

  // 2. DataStream → Table, with an explicit schema declaring event time and the watermark
  Table events = tableEnv->fromDataStream(rawStream,
                                          Schema::newBuilder()
                                              .column("userId", DataTypes::STRING())
                                              .column("amount", DataTypes::DOUBLE())
                                              .column("ts", DataTypes::TIMESTAMP(3))
                                              .watermark("ts", "ts - INTERVAL '5' SECOND")
                                              .build());
  tableEnv->createTemporaryView("events", events);

  // 3. a non-windowed aggregation: the result table is updating, not append-only
  Table stats = tableEnv->sqlQuery(
      "SELECT userId, COUNT(*) AS cnt, SUM(amount) AS total_amount FROM events GROUP BY userId");

  // 4. back to the DataStream API with toChangelogStream, keeping the change kinds
  DataStream<Row> changelogStream = tableEnv->toChangelogStream(stats);

  // 5. custom processing per change kind
  DataStream<std::string> processed =
      changelogStream
          .map([](const Row& row) {
            RowKind kind = row.getKind();
            const std::string& userId = row.getFieldAs<std::string>("userId");
            int64_t cnt = row.getFieldAs<int64_t>("cnt");
            double total = row.getFieldAs<double>("total_amount");
            char line[256];
            std::snprintf(line, sizeof line, "kind=%s, userId=%s, cnt=%lld, total=%.2f",
                          std::string(shortString(kind)).c_str(), userId.c_str(),
                          static_cast<long long>(cnt), total);
            return std::string(line);
          })
          .name("custom_process");
  processed.print();
  env->execute("mixed-pipeline-job");
  return 0;
}
