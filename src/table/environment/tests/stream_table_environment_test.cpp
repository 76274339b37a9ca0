// StreamTableEnvironment: DataStream → Table (schema derivation, declared schemas, printed
// schemas, changelog streams) and Table → DataStream (insert-only, changelog, retract), in
// both runtime modes, with the exact errors of wrong uses.
#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include <algorithm>
#include <iostream>
#include <sstream>

namespace {

struct User {
  std::string name;
  int32_t score;
  eddy::Instant event_time;
};

struct Opaque {
  std::string name;
  int32_t score;
};

}  // namespace

EDDY_STRUCT(User, name, score, event_time)

namespace eddy {
namespace {

std::unique_ptr<StreamExecutionEnvironment> environment(int parallelism = 1) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(parallelism);
  return env;
}

std::vector<std::string> collect(DataStream<Row> stream) {
  std::vector<std::string> rows;
  auto iterator = stream.executeAndCollect();
  while (iterator.hasNext()) rows.push_back(iterator.next().toString());
  return rows;
}

std::vector<std::string> sorted(std::vector<std::string> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// Prints each record with its timestamp: `row @ timestamp`.
struct RecordTimestamp : ProcessFunction<Row, std::string> {
  void processElement(const Row& row, Context& context, Collector<std::string>& out) override {
    out.collect(row.toString() + " @ " +
                (context.timestamp() ? std::to_string(*context.timestamp()) : "none"));
  }
};

std::string schemaOf(const Table& table) { return table.getResolvedSchema().toString(); }

DataStream<Row> scores(StreamExecutionEnvironment& env) {
  return env.fromElements(Row::of("Alice", 12), Row::of("Bob", 10), Row::of("Alice", 100));
}

TEST(StreamTableEnvironmentTest, AtomicStreamIsColumnF0AndRunsThroughSql) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  DataStream<std::string> names = env->fromElements("Alice", "Bob", "John");
  Table table = tableEnv->fromDataStream(names);
  EXPECT_EQ(schemaOf(table), "(\n  `f0` STRING\n)");
  tableEnv->createTemporaryView("InputTable", table);
  Table upper = tableEnv->sqlQuery("SELECT UPPER(f0) FROM InputTable");
  EXPECT_EQ(collect(tableEnv->toDataStream(upper)),
            (std::vector<std::string>{"+I[ALICE]", "+I[BOB]", "+I[JOHN]"}));
}

TEST(StreamTableEnvironmentTest, ChangelogOfAnAggregateInStreamingMode) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  Table input = tableEnv->fromDataStream(scores(*env)).as("name", "score");
  tableEnv->createTemporaryView("InputTable", input);
  Table result = tableEnv->sqlQuery("SELECT name, SUM(score) FROM InputTable GROUP BY name");
  EXPECT_EQ(collect(tableEnv->toChangelogStream(result)),
            (std::vector<std::string>{"+I[Alice, 12]", "+I[Bob, 10]", "-U[Alice, 12]",
                                      "+U[Alice, 112]"}));
}

// toChangelogStream in upsert mode: the aggregate grouped by the key emits no -U at all (Flink's
// ONLY_UPDATE_AFTER). Split into partial and final aggregates, the partial one keeps its -U,
// which the final one needs (without it the counts would be 3 and 6); the final one retracts
// a key's row to nothing and adds it anew (-D, +I), as Flink's does without mini-batch.
TEST(StreamTableEnvironmentTest, UpsertChangelogOfAnAggregateHasNoUpdateBefore) {
  for (bool split : {false, true}) {
    auto env = environment();
    auto tableEnv = StreamTableEnvironment::create(*env);
    if (split) {
      // One bucket: the partial aggregate of `a` updates its count (and must retract it).
      tableEnv->getConfig().set("table.optimizer.distinct-agg.split.enabled", "true");
      tableEnv->getConfig().set("table.optimizer.distinct-agg.split.bucket-num", "1");
    }
    DataStream<Row> rows = env->fromElements(Row::of("a", 1), Row::of("a", 2), Row::of("a", 1),
                                             Row::of("b", 3), Row::of("a", 3));
    tableEnv->createTemporaryView("Rows", tableEnv->fromDataStream(rows).as("name", "v"));
    Table result = tableEnv->sqlQuery(
        "SELECT name, COUNT(DISTINCT v) AS c FROM Rows GROUP BY name");
    EXPECT_EQ(collect(tableEnv->toChangelogStream(
                  result,
                  Schema::newBuilder()
                      .column("name", DataTypes::STRING().notNull())
                      .column("c", DataTypes::BIGINT().notNull())
                      .primaryKey({"name"})
                      .build(),
                  ChangelogMode::upsert())),
              (split ? std::vector<std::string>{"+I[a, 1]", "-D[a, 1]", "+I[a, 2]", "+I[b, 1]",
                                                "-D[a, 2]", "+I[a, 3]"}
                     : std::vector<std::string>{"+I[a, 1]", "+U[a, 2]", "+I[b, 1]", "+U[a, 3]"}))
        << (split ? "split" : "one aggregate");
  }
}

// A deduplication keeping the first row per key on processing time is insert-only, so
// toDataStream takes it (decided on the optimized plan, where rn = 1 is the Rank's range).
TEST(StreamTableEnvironmentTest, AKeepFirstDeduplicationConvertsToADataStream) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  DataStream<Row> rows =
      env->fromElements(Row::of("a", 1), Row::of("a", 2), Row::of("b", 3), Row::of("a", 4));
  tableEnv->createTemporaryView(
      "Rows", tableEnv->fromDataStream(
                  rows, Schema::newBuilder().columnByExpression("pt", "PROCTIME()").build()));
  Table result = tableEnv->sqlQuery(
      "SELECT f0 AS name, f1 AS v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY f0 ORDER BY "
      "pt ASC) AS rn FROM Rows) WHERE rn = 1");
  std::vector<std::string> changes = collect(tableEnv->toDataStream(result));
  std::sort(changes.begin(), changes.end());
  EXPECT_EQ(changes, (std::vector<std::string>{"+I[a, 1]", "+I[b, 3]"}));
}

// A deduplication keeping the last row per key sends a replacing row as -U old / +U new (Flink's
// Deduplicate; on processing time a row equal to the held one sends nothing); toChangelogStream
// in upsert mode by that key gets the +U alone.
TEST(StreamTableEnvironmentTest, UpsertChangelogOfADeduplicationHasNoUpdateBefore) {
  for (bool upsert : {false, true}) {
    auto env = environment();
    auto tableEnv = StreamTableEnvironment::create(*env);
    DataStream<Row> rows = env->fromElements(Row::of("a", 1), Row::of("a", 2), Row::of("b", 3),
                                             Row::of("a", 4), Row::of("a", 4));
    tableEnv->createTemporaryView(
        "Rows", tableEnv->fromDataStream(rows, Schema::newBuilder()
                                                   .columnByExpression("pt", "PROCTIME()")
                                                   .build()));
    Table result = tableEnv->sqlQuery(
        "SELECT f0 AS name, f1 AS v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY f0 ORDER BY "
        "pt DESC) AS rn FROM Rows) WHERE rn = 1");
    std::vector<std::string> changes =
        upsert ? collect(tableEnv->toChangelogStream(
                     result,
                     Schema::newBuilder()
                         .column("name", DataTypes::STRING().notNull())
                         .column("v", DataTypes::INT().notNull())
                         .primaryKey({"name"})
                         .build(),
                     ChangelogMode::upsert()))
               : collect(tableEnv->toChangelogStream(result));
    const std::vector<std::string> expected =
        upsert ? std::vector<std::string>{"+I[a, 1]", "+U[a, 2]", "+I[b, 3]", "+U[a, 4]"}
               : std::vector<std::string>{"+I[a, 1]", "-U[a, 1]", "+U[a, 2]", "+I[b, 3]",
                                          "-U[a, 2]", "+U[a, 4]"};
    EXPECT_EQ(changes, expected) << (upsert ? "upsert" : "retract");
  }
}

// A Top-N selecting ROW_NUMBER changes rank by rank: -U old / +U new per rank whose row
// changed. In upsert mode keyed by the partition keys and the number (Flink's upsert key of
// the Rank) the -U rows are not generated at all.
TEST(StreamTableEnvironmentTest, UpsertChangelogOfATopNByRankHasNoUpdateBefore) {
  for (bool upsert : {false, true}) {
    auto env = environment();
    auto tableEnv = StreamTableEnvironment::create(*env);
    DataStream<Row> rows = env->fromElements(Row::of("a", 1), Row::of("a", 5), Row::of("a", 3),
                                             Row::of("b", 2), Row::of("a", 9));
    tableEnv->createTemporaryView("Rows", tableEnv->fromDataStream(rows).as("name", "v"));
    Table result = tableEnv->sqlQuery(
        "SELECT name, v, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY name ORDER BY v DESC) "
        "AS rn FROM Rows) WHERE rn <= 2");
    std::vector<std::string> changes =
        upsert ? collect(tableEnv->toChangelogStream(
                     result,
                     Schema::newBuilder()
                         .column("name", DataTypes::STRING().notNull())
                         .column("v", DataTypes::INT().notNull())
                         .column("rn", DataTypes::BIGINT().notNull())
                         .primaryKey({"name", "rn"})
                         .build(),
                     ChangelogMode::upsert()))
               : collect(tableEnv->toChangelogStream(result));
    const std::vector<std::string> expected =
        upsert ? std::vector<std::string>{"+I[a, 1, 1]", "+U[a, 5, 1]", "+I[a, 1, 2]",
                                          "+U[a, 3, 2]", "+I[b, 2, 1]", "+U[a, 9, 1]",
                                          "+U[a, 5, 2]"}
               : std::vector<std::string>{"+I[a, 1, 1]", "-U[a, 1, 1]", "+U[a, 5, 1]",
                                          "+I[a, 1, 2]", "-U[a, 1, 2]", "+U[a, 3, 2]",
                                          "+I[b, 2, 1]", "-U[a, 5, 1]", "+U[a, 9, 1]",
                                          "-U[a, 3, 2]", "+U[a, 5, 2]"};
    EXPECT_EQ(changes, expected) << (upsert ? "upsert" : "retract");
  }
}

// A primary key that is not the query's upsert key: the changes pass Flink's
// SinkUpsertMaterializer, which keeps the rows holding each key (count 1 is held by a, then
// also by b; count 2 by a alone until a moves on), unless table.exec.sink.upsert-materialize
// is NONE (the aggregate's changes with -U dropped, as Flink's upsert sink gets them).
TEST(StreamTableEnvironmentTest, UpsertChangelogByAnotherKeyIsMaterialized) {
  for (bool materialize : {true, false}) {
    auto env = environment();
    auto tableEnv = StreamTableEnvironment::create(*env);
    if (!materialize) tableEnv->getConfig().set("table.exec.sink.upsert-materialize", "NONE");
    DataStream<Row> rows =
        env->fromElements(Row::of("a"), Row::of("b"), Row::of("a"), Row::of("a"));
    tableEnv->createTemporaryView("Rows", tableEnv->fromDataStream(rows).as("name"));
    Table result = tableEnv->sqlQuery("SELECT name, COUNT(*) AS c FROM Rows GROUP BY name");
    std::vector<std::string> changes = collect(tableEnv->toChangelogStream(
        result,
        Schema::newBuilder()
            .column("name", DataTypes::STRING().notNull())
            .column("c", DataTypes::BIGINT().notNull())
            .primaryKey({"c"})
            .build(),
        ChangelogMode::upsert()));
    const std::vector<std::string> expected =
        materialize ? std::vector<std::string>{"+I[a, 1]", "+U[b, 1]", "+I[a, 2]", "-D[a, 2]",
                                               "+I[a, 3]"}
                    : std::vector<std::string>{"+I[a, 1]", "+I[b, 1]", "+U[a, 2]", "+U[a, 3]"};
    EXPECT_EQ(changes, expected) << (materialize ? "AUTO" : "NONE");
  }
}

TEST(StreamTableEnvironmentTest, BatchModeFromTheEnvironmentOrTheSettingsIsInsertOnly) {
  for (bool viaSettings : {false, true}) {
    auto env = environment();
    std::unique_ptr<StreamTableEnvironment> tableEnv;
    if (viaSettings) {
      tableEnv = StreamTableEnvironment::create(*env, EnvironmentSettings::inBatchMode());
      EXPECT_EQ(env->getRuntimeMode(), RuntimeExecutionMode::BATCH);
    } else {
      env->setRuntimeMode(RuntimeExecutionMode::BATCH);
      tableEnv = StreamTableEnvironment::create(*env);
    }
    Table input = tableEnv->fromDataStream(scores(*env)).as("name", "score");
    tableEnv->createTemporaryView("InputTable", input);
    Table result = tableEnv->sqlQuery("SELECT name, SUM(score) FROM InputTable GROUP BY name");
    EXPECT_EQ(sorted(collect(tableEnv->toChangelogStream(result))),
              (std::vector<std::string>{"+I[Alice, 112]", "+I[Bob, 10]"}))
        << (viaSettings ? "EnvironmentSettings::inBatchMode()" : "env.setRuntimeMode(BATCH)");
  }
}

TEST(StreamTableEnvironmentTest, ToDataStreamOfAnUpdatingTableSuggestsToChangelogStream) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  tableEnv->createTemporaryView("InputTable", tableEnv->fromDataStream(scores(*env)).as("name", "score"));
  Table result = tableEnv->sqlQuery("SELECT name, SUM(score) FROM InputTable GROUP BY name");
  try {
    tableEnv->toDataStream(result);
    FAIL() << "expected an error";
  } catch (const TableException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Table sink '*anonymous_datastream_sink$1*' doesn't support consuming update changes "
              "which is produced by node LogicalAggregate(group=[{0}], $f1=[SUM($1)]). Use "
              "toChangelogStream() to convert a table with updates into a DataStream.");
  }
}

TEST(StreamTableEnvironmentTest, RetractStreamPairsAFlagWithAnInsertRow) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  tableEnv->createTemporaryView("InputTable", scores(*env));
  Table result = tableEnv->sqlQuery("SELECT f0, SUM(f1) FROM InputTable GROUP BY f0");
  std::vector<std::string> printed;
  auto iterator = tableEnv->toRetractStream(result).executeAndCollect();
  while (iterator.hasNext()) printed.push_back(formatRecord(iterator.next()));
  EXPECT_EQ(printed, (std::vector<std::string>{"(true,+I[Alice, 12])", "(true,+I[Bob, 10])",
                                               "(false,+I[Alice, 12])", "(true,+I[Alice, 112])"}));
}

TEST(StreamTableEnvironmentTest, SchemasDerivedFromARegisteredStruct) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  DataStream<User> users = env->fromElements(User{"Alice", 4, Instant::ofEpochMilli(1000)},
                                             User{"Bob", 6, Instant::ofEpochMilli(1001)},
                                             User{"Alice", 10, Instant::ofEpochMilli(1002)});
  EXPECT_EQ(schemaOf(tableEnv->fromDataStream(users)),
            "(\n  `name` STRING,\n  `score` INT,\n  `event_time` TIMESTAMP_LTZ(9)\n)");
  EXPECT_EQ(schemaOf(tableEnv->fromDataStream(
                users, Schema::newBuilder().columnByExpression("proc_time", "PROCTIME()").build())),
            "(\n  `name` STRING,\n  `score` INT,\n  `event_time` TIMESTAMP_LTZ(9),\n"
            "  `proc_time` TIMESTAMP_LTZ(3) NOT NULL *PROCTIME* AS PROCTIME()\n)");
  EXPECT_EQ(schemaOf(tableEnv->fromDataStream(
                users, Schema::newBuilder()
                           .columnByExpression("rowtime", "CAST(event_time AS TIMESTAMP_LTZ(3))")
                           .watermark("rowtime", "rowtime - INTERVAL '10' SECOND")
                           .build())),
            "(\n  `name` STRING,\n  `score` INT,\n  `event_time` TIMESTAMP_LTZ(9),\n"
            "  `rowtime` TIMESTAMP_LTZ(3) *ROWTIME* AS CAST(event_time AS TIMESTAMP_LTZ(3)),\n"
            "  WATERMARK FOR `rowtime`: TIMESTAMP_LTZ(3) AS rowtime - INTERVAL '10' SECOND\n)");
  EXPECT_EQ(schemaOf(tableEnv->fromDataStream(
                users, Schema::newBuilder()
                           .columnByMetadata("rowtime", "TIMESTAMP_LTZ(3)")
                           .watermark("rowtime", "SOURCE_WATERMARK()")
                           .build())),
            "(\n  `name` STRING,\n  `score` INT,\n  `event_time` TIMESTAMP_LTZ(9),\n"
            "  `rowtime` TIMESTAMP_LTZ(3) *ROWTIME* METADATA,\n"
            "  WATERMARK FOR `rowtime`: TIMESTAMP_LTZ(3) AS SOURCE_WATERMARK()\n)");
  EXPECT_EQ(schemaOf(tableEnv->fromDataStream(
                users, Schema::newBuilder()
                           .column("event_time", "TIMESTAMP_LTZ(3)")
                           .column("name", "STRING")
                           .column("score", "INT")
                           .watermark("event_time", "SOURCE_WATERMARK()")
                           .build())),
            "(\n  `event_time` TIMESTAMP_LTZ(3) *ROWTIME*,\n  `name` STRING,\n  `score` INT\n)");
}

TEST(StreamTableEnvironmentTest, StructRowsAndTheRecordTimestampReachTheTable) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  DataStream<User> users =
      env->fromElements(User{"Alice", 4, Instant::ofEpochMilli(1000)},
                        User{"Bob", 6, Instant::ofEpochMilli(1001)})
          .assignTimestampsAndWatermarks(
              WatermarkStrategy<User>::forMonotonousTimestamps().withTimestampAssigner(
                  [](const User& user, int64_t) { return user.event_time.toEpochMilli() + 5; }));
  Table table = tableEnv->fromDataStream(
      users, Schema::newBuilder()
                 .columnByMetadata("rowtime", "TIMESTAMP_LTZ(3)")
                 .watermark("rowtime", "SOURCE_WATERMARK()")
                 .build());
  tableEnv->createTemporaryView("Users", table);
  DataStream<Row> rows =
      tableEnv->toDataStream(tableEnv->sqlQuery("SELECT name, score * 2 AS twice, rowtime FROM Users"));
  // The rowtime attribute is written back into each record's timestamp.
  std::vector<std::string> printed;
  auto iterator = rows.process(RecordTimestamp()).executeAndCollect();
  while (iterator.hasNext()) printed.push_back(iterator.next());
  EXPECT_EQ(printed, (std::vector<std::string>{"+I[Alice, 8, 1970-01-01T00:00:01.005Z] @ 1005",
                                               "+I[Bob, 12, 1970-01-01T00:00:01.006Z] @ 1006"}));
}

TEST(StreamTableEnvironmentTest, UnregisteredTypeIsRawAndCannotRun) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  DataStream<Opaque> stream = env->fromElements(Opaque{"Alice", 4});
  Table table = tableEnv->fromDataStream(stream);
  EXPECT_EQ(schemaOf(table), "(\n  `f0` RAW('(anonymous namespace)::Opaque', '...')\n)");
  Table declared = tableEnv->fromDataStream(
      stream, Schema::newBuilder()
                  .column("f0", DataTypes::STRUCTURED("User", {DataTypes::FIELD("name", DataTypes::STRING()),
                                                               DataTypes::FIELD("score", DataTypes::INT())}))
                  .build())
                       .as("user");
  EXPECT_EQ(schemaOf(declared), "(\n  `user` *User<`name` STRING,`score` INT>*\n)");
  try {
    tableEnv->toDataStream(table);
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "The table *anonymous_datastream_source$1* reads records of the C++ type "
              "RAW('(anonymous namespace)::Opaque', '...'), which the Table runtime cannot look "
              "into. Register the type's fields with EDDY_STRUCT(Type, field, ...) or convert the "
              "records into Rows before fromDataStream().");
  }
}

TEST(StreamTableEnvironmentTest, FromDataStreamRejectsRowsThatAreNotInserts) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  DataStream<Row> changes = env->fromElements(Row::ofKind(RowKind::INSERT, "Alice", 12),
                                              Row::ofKind(RowKind::UPDATE_AFTER, "Alice", 100));
  Table table = tableEnv->fromDataStream(changes);
  try {
    collect(tableEnv->toDataStream(table));
    FAIL() << "expected the job to fail";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what())
                  .find("fromDataStream() accepts only insert-only streams, but the DataStream "
                        "carries the row +U[Alice, 100] of kind UPDATE_AFTER. Use "
                        "fromChangelogStream() to interpret a stream of changes."),
              std::string::npos)
        << error.what();
  }
}

TEST(StreamTableEnvironmentTest, ChangelogStreamKeepsTheKinds) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  DataStream<Row> changes = env->fromElements(
      Row::ofKind(RowKind::INSERT, "Alice", 12), Row::ofKind(RowKind::INSERT, "Bob", 5),
      Row::ofKind(RowKind::UPDATE_BEFORE, "Alice", 12),
      Row::ofKind(RowKind::UPDATE_AFTER, "Alice", 100));
  Table table = tableEnv->fromChangelogStream(changes);
  tableEnv->createTemporaryView("Changes", table);
  EXPECT_EQ(collect(tableEnv->toChangelogStream(
                tableEnv->sqlQuery("SELECT f0 AS name, SUM(f1) AS total FROM Changes GROUP BY f0"))),
            (std::vector<std::string>{"+I[Alice, 12]", "+I[Bob, 5]", "-D[Alice, 12]",
                                      "+I[Alice, 100]"}));
}

TEST(StreamTableEnvironmentTest, SchemaErrorsNameWhatIsWrong) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  DataStream<Row> rows = scores(*env);
  try {
    tableEnv->fromDataStream(rows, Schema::newBuilder().column("user", "STRING").build());
    FAIL();
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Unable to find a field named 'user' in the physical data type derived from the "
              "given type information for schema declaration. Make sure that the type "
              "information is not a generic raw type. Currently available fields are: [f0, f1]");
  }
  try {
    tableEnv->fromDataStream(rows, Schema::newBuilder().watermark("f0", "SOURCE_WATERMARK()").build());
    FAIL();
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Invalid data type of time field for watermark definition. The field must be of "
              "type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, "
              "but the time field type is STRING");
  }
  try {
    tableEnv->fromChangelogStream(rows, Schema::newBuilder().build(), ChangelogMode::upsert());
    FAIL();
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "fromChangelogStream() in upsert mode (ChangelogMode.upsert()) needs a primary key: "
              "declare one with Schema.newBuilder().primaryKey(...)");
  }
}

TEST(StreamTableEnvironmentTest, TableJobsReadTheDataStreamInTheirOwnJob) {
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  tableEnv->createTemporaryView("InputTable", tableEnv->fromDataStream(scores(*env)).as("name", "score"));
  std::vector<std::string> rows;
  for (const Row& row : tableEnv->executeSql("SELECT name FROM InputTable WHERE score > 11").collectAll()) {
    rows.push_back(row.toString());
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"+I[Alice]", "+I[Alice]"}));
  // The same view again, now as a DataStream of the environment's own job.
  EXPECT_EQ(collect(tableEnv->toDataStream(tableEnv->sqlQuery("SELECT score FROM InputTable"))),
            (std::vector<std::string>{"+I[12]", "+I[10]", "+I[100]"}));
}

TEST(StreamTableEnvironmentTest, ExecutionPlanDescribesTheTableOperators) {
  // Flink's JSON plan: `type` is the operator's name, `contents` its description.
  auto env = environment();
  auto tableEnv = StreamTableEnvironment::create(*env);
  tableEnv->createTemporaryView("InputTable", tableEnv->fromDataStream(scores(*env)).as("name", "score"));
  tableEnv->toDataStream(tableEnv->sqlQuery("SELECT score + 1 AS next FROM InputTable WHERE score > 11"))
      .addSink([](const Row&) {});
  const std::string plan = env->getExecutionPlan();
  EXPECT_NE(plan.find("\"type\":\"Calc\",\"pact\":\"Operator\",\"contents\":\"Calc(select=[+(f1, "
                      "1) AS next], where=[>(f1, 11)])\""),
            std::string::npos)
      << plan;
}

}  // namespace
}  // namespace eddy

namespace eddy {
namespace {

TEST(StreamTableEnvironmentBridgeTest, UpsertChangelogIsNormalizedPerKey) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto tableEnv = StreamTableEnvironment::create(*env);
  DataStream<Row> upserts = env->fromElements(
      Row::ofKind(RowKind::INSERT, "Alice", 12), Row::ofKind(RowKind::INSERT, "Bob", 5),
      Row::ofKind(RowKind::UPDATE_AFTER, "Alice", 100), Row::ofKind(RowKind::UPDATE_AFTER, "Alice", 100),
      Row::ofKind(RowKind::DELETE, "Bob", 5), Row::ofKind(RowKind::DELETE, "Carol", 1));
  Table table = tableEnv->fromChangelogStream(
      upserts,
      Schema::newBuilder().column("name", DataTypes::STRING().notNull()).column("score", DataTypes::INT())
          .primaryKey({"name"}).build(),
      ChangelogMode::upsert());
  std::vector<std::string> alice;
  std::vector<std::string> bob;
  auto iterator = tableEnv->toChangelogStream(table).executeAndCollect();
  while (iterator.hasNext()) {
    std::string row = iterator.next().toString();
    (row.find("Alice") != std::string::npos ? alice : bob).push_back(row);
  }
  EXPECT_EQ(alice, (std::vector<std::string>{"+I[Alice, 12]", "-U[Alice, 12]", "+U[Alice, 100]"}));
  EXPECT_EQ(bob, (std::vector<std::string>{"+I[Bob, 5]", "-D[Bob, 5]"}));
}

TEST(StreamTableEnvironmentBridgeTest, BatchModeRejectsChangelogAndUnboundedSources) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto tableEnv = StreamTableEnvironment::create(*env, EnvironmentSettings::inBatchMode());
  Table changes = tableEnv->fromChangelogStream(env->fromElements(Row::of("Alice", 12)));
  try {
    tableEnv->toChangelogStream(changes);
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Querying a table in batch mode is currently only possible for INSERT-only table "
              "sources. But the source for table '*anonymous_datastream_source$1*' produces other "
              "changelog messages than just INSERT (it was read with fromChangelogStream()).");
  }
  tableEnv->executeSql(
      "CREATE TABLE endless (id INT) WITH ('connector' = 'datagen', 'rows-per-second' = '5')");
  DataStream<Row> rows = tableEnv->toDataStream(tableEnv->from("endless"));
  rows.print();
  try {
    env->execute();
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Detected an UNBOUNDED source with the 'execution.runtime-mode' set to 'BATCH'. This "
              "combination is not allowed, please set the 'execution.runtime-mode' to STREAMING "
              "or AUTOMATIC. Unbounded source: 'Source: default_catalog.default_database.endless'");
  }
}

TEST(StreamTableEnvironmentBridgeTest, DescriptorTableFeedsAKeyedDataStreamPipeline) {
  // ACCEPTANCE A7: datagen → toDataStream → keyBy → map → executeAndCollect.
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto tableEnv = StreamTableEnvironment::create(*env);
  Table table = tableEnv->from(TableDescriptor::forConnector("datagen")
                                   .option("number-of-rows", "10")
                                   .schema(Schema::newBuilder()
                                               .column("uid", DataTypes::TINYINT())
                                               .column("payload", DataTypes::STRING())
                                               .build())
                                   .build());
  DataStream<Row> stream = tableEnv->toDataStream(table);
  std::vector<std::string> lines =
      stream.keyBy([](const Row& row) { return row.getField("uid").isNull() ? int8_t{0} : row.getFieldAs<int8_t>("uid"); })
          .map([](const Row& row) { return "My custom operator: " + row.getFieldAs<std::string>("payload"); })
          .executeAndCollect(100);
  ASSERT_EQ(lines.size(), 10u);
  for (const std::string& line : lines) {
    EXPECT_EQ(line.rfind("My custom operator: ", 0), 0u) << line;
    EXPECT_GT(line.size(), std::string("My custom operator: ").size()) << line;
  }
}

}  // namespace
}  // namespace eddy

namespace eddy {
namespace {

TEST(StreamTableEnvironmentBridgeTest, ToDataStreamIntoARegisteredStructOrAnAtomicType) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto tableEnv = StreamTableEnvironment::create(*env);
  tableEnv->createTemporaryView(
      "Users", env->fromElements(User{"Alice", 4, Instant::ofEpochMilli(1000)},
                                 User{"Bob", 6, Instant::ofEpochMilli(1001)}));
  Table doubled = tableEnv->sqlQuery(
      "SELECT event_time, UPPER(name) AS name, score * 2 AS score FROM Users");
  std::vector<std::string> users;
  auto iterator = tableEnv->toDataStream<User>(doubled).executeAndCollect();
  while (iterator.hasNext()) {
    User user = iterator.next();
    users.push_back(user.name + " " + std::to_string(user.score) + " " + user.event_time.toString());
  }
  EXPECT_EQ(users, (std::vector<std::string>{"ALICE 8 1970-01-01T00:00:01Z",
                                             "BOB 12 1970-01-01T00:00:01.001Z"}));
  std::vector<int32_t> scores =
      tableEnv->toDataStream<int32_t>(tableEnv->sqlQuery("SELECT score FROM Users")).executeAndCollect(10);
  EXPECT_EQ(scores, (std::vector<int32_t>{4, 6}));
  try {
    tableEnv->toDataStream<User>(tableEnv->sqlQuery("SELECT name FROM Users"));
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "toDataStream() into User: the field 'score' has no column of its name in the table "
              "[name]");
  }
}

}  // namespace
}  // namespace eddy

#include <filesystem>
#include <fstream>

namespace eddy {
namespace {

std::string filesUnder(const std::filesystem::path& directory) {
  std::vector<std::string> lines;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
    if (!entry.is_regular_file() || entry.path().filename().string().front() == '.') continue;
    std::ifstream file(entry.path());
    for (std::string line; std::getline(file, line);) lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(StreamTableEnvironmentBridgeTest, StatementSetAttachedToTheDataStreamProgramRunsWithExecute) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto tableEnv = StreamTableEnvironment::create(*env);
  std::filesystem::path directory = std::filesystem::temp_directory_path() /
                                    ("eddy_attach_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(directory);
  tableEnv->createTemporaryView("scores", env->fromElements(Row::of("Alice", 12), Row::of("Bob", 10)));
  tableEnv->executeSql("CREATE TABLE high (name STRING) WITH ('connector' = 'filesystem', 'path' = '" +
                       (directory / "high").string() + "', 'format' = 'csv')");
  tableEnv->executeSql("CREATE TABLE low (name STRING) WITH ('connector' = 'filesystem', 'path' = '" +
                       (directory / "low").string() + "', 'format' = 'csv')");
  StreamStatementSet statements = tableEnv->createStatementSet();
  statements.addInsertSql("INSERT INTO high SELECT f0 FROM scores WHERE f1 > 11")
      .addInsert("low", tableEnv->sqlQuery("SELECT f0 FROM scores WHERE f1 <= 11"))
      .attachAsDataStream();
  EXPECT_FALSE(std::filesystem::exists(directory / "high")) << "nothing runs before execute()";
  env->execute();
  EXPECT_EQ(filesUnder(directory / "high"), "Alice\n");
  EXPECT_EQ(filesUnder(directory / "low"), "Bob\n");
  EXPECT_THROW(statements.attachAsDataStream(), TableException);
  std::filesystem::remove_all(directory);
}

}  // namespace
}  // namespace eddy

namespace eddy {
namespace {

TEST(StreamTableEnvironmentBridgeTest, InAndExistsSubqueriesAreInsertOnlySemiJoins) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto tableEnv = StreamTableEnvironment::create(*env);
  tableEnv->createTemporaryView(
      "orders", env->fromElements(Row::of(1, "u1"), Row::of(2, "u2"), Row::of(3, "u1")),
      Schema::newBuilder().column("id", "INT").column("userId", "STRING").build());
  tableEnv->createTemporaryView(
      "vips", env->fromElements(Row::of("u1"), Row::of("u1")),
      Schema::newBuilder().column("userId", "STRING").build());
  // toDataStream accepts only insert-only tables: a semi join over insert-only inputs is one.
  EXPECT_EQ(sorted(collect(tableEnv->toDataStream(tableEnv->sqlQuery(
                "SELECT id FROM orders WHERE userId IN (SELECT userId FROM vips)")))),
            (std::vector<std::string>{"+I[1]", "+I[3]"}));
  EXPECT_EQ(sorted(collect(tableEnv->toDataStream(tableEnv->sqlQuery(
                "SELECT id FROM orders o WHERE EXISTS (SELECT * FROM vips v WHERE v.userId = o.userId)")))),
            (std::vector<std::string>{"+I[1]", "+I[3]"}));
}

}  // namespace
}  // namespace eddy

#include <regex>

namespace eddy {
namespace {

/// The `== Physical Execution Plan ==` section of an EXPLAIN text as (type, parallelism) per
/// operator; empty when there is none.
std::vector<std::pair<std::string, int>> operatorsOfJsonPlan(const std::string& explained) {
  std::vector<std::pair<std::string, int>> operators;
  const size_t section = explained.find("\n== Physical Execution Plan ==\n{\"nodes\":[");
  if (section == std::string::npos) return operators;
  static const std::regex node(
      "\"type\":\"([^\"]*)\",\"pact\":\"[^\"]*\",\"contents\":\"[^\"]*\",\"parallelism\":([0-9]+)");
  const std::string json = explained.substr(section);
  for (std::sregex_iterator it(json.begin(), json.end(), node), end; it != end; ++it) {
    operators.emplace_back((*it)[1], std::stoi((*it)[2]));
  }
  return operators;
}

std::string explainText(TableEnvironment& tableEnv, const std::string& statement) {
  return tableEnv.executeSql(statement).collectAll().at(0).getFieldAs<std::string>(0);
}

// EXPLAIN JSON_EXECUTION_PLAN: after the physical plan, the job's operators at the parallelism
// they would run with: the bound environment's, parallelism.default over it, and
// table.exec.resource.default-parallelism for the table operators. Nothing is added to the
// user's DataStream program.
TEST(StreamTableEnvironmentExplainTest, JsonExecutionPlanShowsTheParallelismTheJobWouldRunWith) {
  auto env = environment(3);
  auto tableEnv = StreamTableEnvironment::create(*env);
  tableEnv->executeSql(
      "CREATE TABLE orders (user_id STRING, amount INT) WITH ('connector' = 'datagen', "
      "'number-of-rows' = '10')");
  const std::string query = "SELECT user_id, SUM(amount) AS total FROM orders GROUP BY user_id";
  using Operators = std::vector<std::pair<std::string, int>>;
  auto operatorsAt = [](int parallelism) {
    return Operators{{"Source: default_catalog.default_database.orders", parallelism},
                     {"Calc", parallelism},
                     {"GroupAggregate", parallelism},
                     {"Calc", parallelism}};
  };

  const std::string plain = explainText(*tableEnv, "EXPLAIN " + query);
  EXPECT_EQ(plain.find("== Physical Execution Plan =="), std::string::npos) << plain;

  const std::string explained = explainText(*tableEnv, "EXPLAIN JSON_EXECUTION_PLAN " + query);
  EXPECT_EQ(explained.rfind(plain, 0), 0u) << "the other sections are EXPLAIN's:\n" << explained;
  EXPECT_EQ(operatorsOfJsonPlan(explained), operatorsAt(3)) << explained;
  EXPECT_THROW(env->getExecutionPlan(), ValidationException) << "EXPLAIN added to the program";

  tableEnv->executeSql("SET 'parallelism.default' = '5'");
  EXPECT_EQ(operatorsOfJsonPlan(explainText(*tableEnv, "EXPLAIN JSON_EXECUTION_PLAN " + query)),
            operatorsAt(5));
  tableEnv->getConfig().set("table.exec.resource.default-parallelism", "2");
  EXPECT_EQ(operatorsOfJsonPlan(explainText(*tableEnv, "EXPLAIN JSON_EXECUTION_PLAN " + query)),
            operatorsAt(2));
}

TEST(StreamTableEnvironmentExplainTest, JsonExecutionPlanOfAnInsertEndsWithItsSink) {
  auto batchEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  batchEnv->getConfig().set("table.exec.resource.default-parallelism", "8");
  batchEnv->executeSql(
      "CREATE TABLE orders (user_id STRING, amount INT) WITH ('connector' = 'datagen', "
      "'number-of-rows' = '10')");
  batchEnv->executeSql(
      "CREATE TABLE big_orders (user_id STRING, amount INT) WITH ('connector' = 'blackhole')");
  const std::string explained = explainText(
      *batchEnv,
      "EXPLAIN JSON_EXECUTION_PLAN INSERT INTO big_orders SELECT * FROM orders WHERE amount > 100");
  EXPECT_EQ(operatorsOfJsonPlan(explained),
            (std::vector<std::pair<std::string, int>>{
                {"Source: default_catalog.default_database.orders", 8},
                {"Calc", 8},
                {"Sink: default_catalog.default_database.big_orders", 8}}))
      << explained;
}

}  // namespace
}  // namespace eddy
