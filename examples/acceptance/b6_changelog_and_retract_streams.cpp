// ACCEPTANCE B6 (seed 002, sections 4.2 and 4.3): toChangelogStream gives Rows whose getKind()
// says +I, -U, +U or -D; the deprecated toRetractStream gives (true, row) for additions and
// (false, row) for retractions.
#include <eddy/eddy.h>

#include <iostream>

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto tableEnv = StreamTableEnvironment::create(*env);

  // a changelog: Alice scores 12, Bob 5, Bob's row is deleted, Alice scores 100 more
  DataStream<Row> changes = env->fromElements(
      Row::ofKind(RowKind::INSERT, "Alice", 12), Row::ofKind(RowKind::INSERT, "Bob", 5),
      Row::ofKind(RowKind::DELETE, "Bob", 5), Row::ofKind(RowKind::INSERT, "Alice", 100));
  tableEnv->createTemporaryView(
      "scores", tableEnv->fromChangelogStream(
                    changes, Schema::newBuilder().column("name", "STRING").column("score", "INT").build()));
  Table totals = tableEnv->sqlQuery("SELECT name, SUM(score) AS total FROM scores GROUP BY name");

  // toChangelogStream: the kind of each change travels with the row
  tableEnv->toChangelogStream(totals)
      .map([](const Row& row) {
        return "kind=" + std::string(shortString(row.getKind())) +
               ", name=" + row.getFieldAs<std::string>("name") + ", total=" +
               (row.getField("total").isNull() ? std::string("null")
                                                : std::to_string(row.getFieldAs<int32_t>("total")));
      })
      .print();
  env->execute("changelog");

  // toRetractStream (deprecated): a flag instead of the kind
  tableEnv->toRetractStream(totals).print();
  env->execute("retract");
  return 0;
}
