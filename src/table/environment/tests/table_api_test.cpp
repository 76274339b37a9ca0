// The Table API (Table, GroupedTable, expressions) end to end: every operation's rows in BATCH
// and the changelog in STREAMING, the SQL equivalence the seed's example C7 relies on, views
// made from Tables, inserts, and the errors a wrong column or type gives.
#include <gtest/gtest.h>

#include <eddy/table/table_environment.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace eddy {
namespace {

std::vector<std::string> rowsOf(TableResult result) {
  std::vector<std::string> printed;
  for (const Row& row : result.collectAll()) printed.push_back(row.toString());
  return printed;
}

std::vector<std::string> sorted(std::vector<std::string> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// The lines of captured output, sorted (sinks of one job print in any interleaving).
std::vector<std::string> sortedLines(const std::string& printed) {
  std::vector<std::string> lines;
  std::istringstream stream(printed);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return sorted(std::move(lines));
}

std::unique_ptr<TableEnvironment> environment(bool streaming) {
  auto env = TableEnvironment::create(streaming ? EnvironmentSettings::inStreamingMode()
                                                : EnvironmentSettings::inBatchMode());
  env->executeSql("SET 'parallelism.default' = '1'");
  return env;
}

/// The orders of the seed's Table API guide, as a view.
Table orders(TableEnvironment& env) {
  return env.sqlQuery(
      "SELECT * FROM (VALUES (1, 'u1', 'p1', 120.50), (2, 'u2', 'p2', 800.00), "
      "(3, 'u1', 'p2', 999.99), (4, 'u3', 'p1', 20.00)) AS t(order_id, user_id, product_id, amount)");
}

TEST(TableApiTest, SelectAndFilterWithFlinkMethodNames) {
  auto env = environment(false);
  Table result = orders(*env)
                     .filter($("amount").isGreater(lit(500.00)))
                     .select($("order_id"), $("user_id"), $("amount"));
  EXPECT_EQ(rowsOf(result.execute()),
            (std::vector<std::string>{"+I[2, u2, 800.00]", "+I[3, u1, 999.99]"}));
  EXPECT_EQ(result.getResolvedSchema().toString(),
            "(\n  `order_id` INT NOT NULL,\n  `user_id` VARCHAR(2) NOT NULL,\n"
            "  `amount` DECIMAL(5, 2) NOT NULL\n)");
}

TEST(TableApiTest, OperatorsAndAliases) {
  auto env = environment(false);
  Table result = orders(*env)
                     .where($("order_id") > 1 && $("product_id") == "p2")
                     .select(($("order_id") * 10 + 1).as("x"), $("user_id").upperCase().as("u"));
  EXPECT_EQ(rowsOf(result.execute()), (std::vector<std::string>{"+I[21, U2]", "+I[31, U1]"}));
  EXPECT_EQ(result.getResolvedSchema().getColumnNames(), (std::vector<std::string>{"x", "u"}));
}

TEST(TableApiTest, CollectionConstructorsAndAccess) {
  auto env = environment(false);
  Table result =
      orders(*env)
          .filter($("order_id") <= 2)
          .select(array({$("order_id"), $("order_id") * 10}).as("ids"),
                  map({$("user_id"), $("amount")}).at($("user_id")).as("amount"),
                  array({$("order_id"), 7}).at(2).as("second"),
                  array({$("product_id")}).cardinality().as("n"),
                  array({$("product_id")}).element().as("only"),
                  array({1, 2}).arrayContains($("order_id")).as("small"),
                  row({$("order_id"), $("user_id")}).get("EXPR$1").as("user"));
  EXPECT_EQ(rowsOf(result.execute()),
            (std::vector<std::string>{"+I[[1, 10], 120.50, 7, 1, p1, true, u1]",
                                      "+I[[2, 20], 800.00, 7, 1, p2, true, u2]"}));
  EXPECT_EQ(result.getResolvedSchema().toString(),
            "(\n  `ids` ARRAY<INT NOT NULL> NOT NULL,\n  `amount` DECIMAL(5, 2),\n"
            "  `second` INT,\n  `n` INT NOT NULL,\n  `only` VARCHAR(2),\n"
            "  `small` BOOLEAN NOT NULL,\n  `user` VARCHAR(2) NOT NULL\n)");
}

TEST(TableApiTest, GroupByAggregatesMatchTheEquivalentSql) {
  for (bool streaming : {false, true}) {
    auto env = environment(streaming);
    env->createTemporaryView("orders", orders(*env));
    Table api = env->from("orders")
                    .groupBy($("user_id"))
                    .select($("user_id"), $("order_id").count().as("order_count"),
                            $("amount").sum().as("total_amount"),
                            $("amount").max().as("max_amount"));
    Table sql = env->sqlQuery(
        "SELECT user_id, COUNT(order_id) AS order_count, SUM(amount) AS total_amount, "
        "MAX(amount) AS max_amount FROM orders GROUP BY user_id");
    std::vector<std::string> expected = {"+I[u1, 2, 1120.49, 999.99]", "+I[u2, 1, 800.00, 800.00]",
                                         "+I[u3, 1, 20.00, 20.00]"};
    if (streaming) {
      // u1 is first inserted with one order, then updated.
      expected = {"+I[u1, 1, 120.50, 120.50]", "+I[u2, 1, 800.00, 800.00]",
                  "-U[u1, 1, 120.50, 120.50]", "+U[u1, 2, 1120.49, 999.99]",
                  "+I[u3, 1, 20.00, 20.00]"};
      EXPECT_EQ(rowsOf(api.execute()), expected);
    } else {
      EXPECT_EQ(sorted(rowsOf(api.execute())), expected);
    }
    EXPECT_EQ(api.getResolvedSchema().toString(), sql.getResolvedSchema().toString());
    EXPECT_EQ(api.explain(), sql.explain());
  }
}

TEST(TableApiTest, GlobalAggregateAndDistinctAggregate) {
  auto env = environment(false);
  Table result = orders(*env).select($("user_id").count().distinct().as("users"),
                                     $("amount").avg().as("average"));
  EXPECT_EQ(rowsOf(result.execute()), (std::vector<std::string>{"+I[3, 485.122500]"}));
}

TEST(TableApiTest, JoinsWithAPredicate) {
  auto env = environment(false);
  Table users = env->fromValues({row({"u1", "Alice"}), row({"u2", "Bob"}), row({"u9", "Zed"})})
                    .as("uid", "name");
  Table inner = orders(*env)
                    .join(users, $("user_id") == $("uid"))
                    .select($("order_id"), $("name"));
  EXPECT_EQ(sorted(rowsOf(inner.execute())),
            (std::vector<std::string>{"+I[1, Alice]", "+I[2, Bob]", "+I[3, Alice]"}));
  Table left = users.leftOuterJoin(orders(*env), $("uid") == $("user_id"))
                   .select($("name"), $("order_id"));
  EXPECT_EQ(sorted(rowsOf(left.execute())),
            (std::vector<std::string>{"+I[Alice, 1]", "+I[Alice, 3]", "+I[Bob, 2]",
                                      "+I[Zed, null]"}));
  Table full = users.fullOuterJoin(orders(*env), $("uid") == $("user_id"))
                   .select($("name"), $("order_id"));
  EXPECT_EQ(sorted(rowsOf(full.execute())),
            (std::vector<std::string>{"+I[Alice, 1]", "+I[Alice, 3]", "+I[Bob, 2]",
                                      "+I[Zed, null]", "+I[null, 4]"}));
  // join() without a predicate, then where(): the predicate's equality becomes the key.
  Table crossThenWhere = orders(*env).join(users).where($("user_id") == $("uid")).select($("name"));
  EXPECT_EQ(sorted(rowsOf(crossThenWhere.execute())),
            (std::vector<std::string>{"+I[Alice]", "+I[Alice]", "+I[Bob]"}));
}

TEST(TableApiTest, JoinOfTablesWithACommonColumnNameIsAnError) {
  auto env = environment(false);
  try {
    orders(*env).join(orders(*env), $("order_id") == 1);
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(), "join relations with ambiguous names: [order_id]");
  }
}

TEST(TableApiTest, SetOperationsOrderAndLimit) {
  auto env = environment(false);
  Table ids = orders(*env).select($("order_id"));
  Table more = env->fromValues({2, 7}).as("order_id");
  EXPECT_EQ(rowsOf(ids.unionAll(more).orderBy($("order_id").desc()).limit(3).execute()),
            (std::vector<std::string>{"+I[7]", "+I[4]", "+I[3]"}));
  EXPECT_EQ(rowsOf(ids.union_(more).orderBy($("order_id").asc()).execute()),
            (std::vector<std::string>{"+I[1]", "+I[2]", "+I[3]", "+I[4]", "+I[7]"}));
  EXPECT_EQ(sorted(rowsOf(ids.intersect(more).execute())), (std::vector<std::string>{"+I[2]"}));
  EXPECT_EQ(sorted(rowsOf(ids.minus(more).execute())),
            (std::vector<std::string>{"+I[1]", "+I[3]", "+I[4]"}));
  Table twice = ids.unionAll(more);  // 1, 2, 2, 3, 4, 7
  EXPECT_EQ(sorted(rowsOf(twice.intersectAll(more.unionAll(more)).execute())),
            (std::vector<std::string>{"+I[2]", "+I[2]", "+I[7]"}));
  EXPECT_EQ(sorted(rowsOf(twice.minusAll(more).execute())),
            (std::vector<std::string>{"+I[1]", "+I[2]", "+I[3]", "+I[4]"}));
  EXPECT_EQ(rowsOf(ids.orderBy($("order_id")).limit(1, 2).execute()),
            (std::vector<std::string>{"+I[2]", "+I[3]"}));
  EXPECT_EQ(rowsOf(orders(*env).select($("user_id")).distinct().orderBy($("user_id")).execute()),
            (std::vector<std::string>{"+I[u1]", "+I[u2]", "+I[u3]"}));
}

TEST(TableApiTest, ColumnOperations) {
  auto env = environment(false);
  Table base = orders(*env).filter($("order_id") == 1);
  EXPECT_EQ(rowsOf(base.addColumns({($("amount") * 2).as("double_amount")})
                       .dropColumns({$("user_id"), $("product_id")})
                       .execute()),
            (std::vector<std::string>{"+I[1, 120.50, 241.00]"}));
  Table replaced = base.addOrReplaceColumns({$("user_id").upperCase().as("user_id")})
                       .renameColumns({$("order_id").as("id")});
  EXPECT_EQ(replaced.getResolvedSchema().getColumnNames(),
            (std::vector<std::string>{"id", "user_id", "product_id", "amount"}));
  EXPECT_EQ(rowsOf(replaced.execute()), (std::vector<std::string>{"+I[1, U1, p1, 120.50]"}));
  EXPECT_EQ(base.as("a", "b", "c", "d").getResolvedSchema().getColumnNames(),
            (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(TableApiTest, FromValuesNamesColumnsF0F1) {
  auto env = environment(false);
  Table values = env->fromValues({row({1, "ABC"}), row({int64_t{2}, "ABCDE"})});
  EXPECT_EQ(values.getResolvedSchema().toString(),
            "(\n  `f0` BIGINT NOT NULL,\n  `f1` VARCHAR(5) NOT NULL\n)");
  EXPECT_EQ(rowsOf(values.execute()), (std::vector<std::string>{"+I[1, ABC]", "+I[2, ABCDE]"}));
}

TEST(TableApiTest, ViewsFromTablesAreReadableBySql) {
  auto env = environment(true);
  Table input = env->fromValues({row({"Alice", 12}), row({"Bob", 10}), row({"Alice", 100})})
                    .as("name", "score");
  env->createTemporaryView("InputTable", input);
  EXPECT_EQ(rowsOf(env->sqlQuery("SELECT name, SUM(score) FROM InputTable GROUP BY name").execute()),
            (std::vector<std::string>{"+I[Alice, 12]", "+I[Bob, 10]", "-U[Alice, 12]",
                                      "+U[Alice, 112]"}));
  EXPECT_TRUE(env->dropTemporaryView("InputTable"));
  EXPECT_FALSE(env->dropTemporaryView("InputTable"));
}

TEST(TableApiTest, ExecuteInsertAndInsertIntoWriteToTheSink) {
  auto env = environment(false);
  env->executeSql(
      "CREATE TABLE big_orders (order_id INT, amount DECIMAL(10, 2)) WITH ('connector' = 'blackhole')");
  Table big = orders(*env).filter($("amount") >= 500).select($("order_id"), $("amount"));
  TableResult result = big.executeInsert("big_orders");
  EXPECT_EQ(rowsOf(std::move(result)),
            (std::vector<std::string>{"+I[-1]"}));
  EXPECT_EQ(rowsOf(big.insertInto("default_catalog.default_database.big_orders").execute()),
            (std::vector<std::string>{"+I[-1]"}));
  try {
    orders(*env).executeInsert("big_orders");
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_NE(std::string(error.what()).find("Different number of columns"), std::string::npos)
        << error.what();
  }
}

TEST(TableApiTest, ErrorsNameTheColumnWithoutSqlPositions) {
  auto env = environment(false);
  try {
    orders(*env).select($("amont"));
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(), "Column 'amont' not found in any table; did you mean 'amount'?");
  }
  try {
    orders(*env).filter($("user_id"));
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(), "WHERE clause must be a condition");
  }
  try {
    orders(*env).as("a");
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Aliases must have the same length as the number of columns; the table has 4 "
                 "columns, got 1 aliases");
  }
}

TEST(TableApiTest, LiteralsKeepTheirCppTypes) {
  auto env = environment(false);
  Table result = env->fromValues({1}).select(lit(1).as("i"), lit(int64_t{2}).as("b"),
                                             lit(2.5).as("d"), lit(true).as("t"),
                                             lit("it's").as("s"), nullOf(DataTypes::INT()).as("n"),
                                             lit(3).cast(DataTypes::STRING()).as("c"));
  EXPECT_EQ(result.getResolvedSchema().toString(),
            "(\n  `i` INT NOT NULL,\n  `b` BIGINT NOT NULL,\n  `d` DOUBLE NOT NULL,\n"
            "  `t` BOOLEAN NOT NULL,\n  `s` CHAR(4) NOT NULL,\n  `n` INT,\n  `c` STRING NOT NULL\n)");
  EXPECT_EQ(rowsOf(result.execute()),
            (std::vector<std::string>{"+I[1, 2, 2.5, true, it's, null, 3]"}));
}

}  // namespace
}  // namespace eddy

namespace eddy {
namespace {

TEST(TableApiTest, FromDescriptorReadsAnAnonymousDatagenTable) {
  // Seed example A7's table: 10 generated rows of (uid TINYINT, payload STRING).
  for (bool streaming : {false, true}) {
    auto env = environment(streaming);
    TableDescriptor descriptor =
        TableDescriptor::forConnector("datagen")
            .schema(Schema::newBuilder()
                        .column("uid", DataTypes::TINYINT())
                        .column("payload", DataTypes::STRING())
                        .build())
            .option("number-of-rows", "10")
            .build();
    Table table = env->from(descriptor);
    EXPECT_EQ(table.getResolvedSchema().toString(), "(\n  `uid` TINYINT,\n  `payload` STRING\n)");
    std::vector<Row> rows = table.execute().collectAll();
    ASSERT_EQ(rows.size(), 10u);
    for (const Row& row : rows) {
      EXPECT_EQ(row.getKind(), RowKind::INSERT);
      EXPECT_FALSE(row.getField(1).isNull());
    }
    EXPECT_NE(table.explain().find("LogicalTableScan(table=[[*anonymous_datagen$1*]])"),
              std::string::npos)
        << table.explain();
    // The anonymous table is not in the catalog.
    EXPECT_EQ(env->listTables(), std::vector<std::string>{});
  }
}

TEST(TableApiTest, CreateTableFromADescriptorIsReadableBySql) {
  auto env = environment(false);
  env->createTemporaryTable(
      "gen", TableDescriptor::forConnector("datagen")
                 .schema(Schema::newBuilder().column("id", DataTypes::BIGINT()).build())
                 .option("number-of-rows", "5")
                 .option("fields.id.kind", "sequence")
                 .option("fields.id.start", "1")
                 .option("fields.id.end", "5")
                 .build());
  EXPECT_EQ(rowsOf(env->executeSql("SELECT SUM(id) AS total FROM gen")),
            (std::vector<std::string>{"+I[15]"}));
  env->createTable("permanent", TableDescriptor::forConnector("blackhole")
                                    .schema(Schema::newBuilder().column("x", DataTypes::INT()).build())
                                    .build());
  EXPECT_EQ(env->listTables(), (std::vector<std::string>{"gen", "permanent"}));
  try {
    env->createTable("permanent", TableDescriptor::forConnector("blackhole")
                                      .schema(Schema::newBuilder().column("x", DataTypes::INT()).build())
                                      .build());
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_NE(std::string(error.what()).find("already exists"), std::string::npos) << error.what();
  }
}

TEST(TableApiTest, DescriptorPrintsAsFlinkDoes) {
  TableDescriptor descriptor =
      TableDescriptor::forConnector("filesystem")
          .schema(Schema::newBuilder().column("a", DataTypes::INT()).build())
          .option("path", "/tmp/it's")
          .format("csv")
          .partitionedBy({"a"})
          .comment("demo")
          .build();
  EXPECT_EQ(descriptor.toString(),
            "(\n  `a` INT\n)\nCOMMENT 'demo'\nPARTITIONED BY (`a`)\nWITH (\n"
            "  'connector' = 'filesystem',\n  'format' = 'csv',\n  'path' = '/tmp/it''s'\n)");
}

// Two equal INSERTs of one statement set are two sinks: sub-plan reuse shares their query's
// rows, never the sink (each row is written twice).
TEST(TableApiTest, TwoEqualInsertsOfAStatementSetWriteTwice) {
  auto env = environment(false);
  env->executeSql("CREATE TABLE twice (id INT) WITH ('connector' = 'print', "
                  "'print-identifier' = 'twice')");
  StatementSet set = env->createStatementSet();
  set.addInsertSql("INSERT INTO twice VALUES (1), (2)")
      .addInsertSql("INSERT INTO twice VALUES (1), (2)");
  ::testing::internal::CaptureStdout();
  std::vector<std::string> counts = rowsOf(set.execute());
  std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(counts, (std::vector<std::string>{"+I[-1, -1]"}));
  EXPECT_EQ(sortedLines(printed), (std::vector<std::string>{"twice> +I[1]", "twice> +I[1]",
                                                     "twice> +I[2]", "twice> +I[2]"}));
}

TEST(TableApiTest, StatementSetRunsEveryInsertOnceInOneJob) {
  // Seed example A5: a Table pipeline and an SQL insert in one StatementSet.
  auto env = environment(false);
  env->executeSql("CREATE TABLE first_sink (id INT, amount DECIMAL(5, 2)) WITH ("
                  "'connector' = 'print', 'print-identifier' = 'first')");
  env->executeSql("CREATE TABLE second_sink (user_id STRING) WITH ("
                  "'connector' = 'print', 'print-identifier' = 'second')");
  env->createTemporaryView("orders", orders(*env));
  StatementSet set = env->createStatementSet();
  set.add(env->from("orders")
              .filter($("amount") > 500)
              .select($("order_id"), $("amount"))
              .insertInto("first_sink"))
      .addInsertSql("INSERT INTO second_sink SELECT DISTINCT user_id FROM orders WHERE order_id < 3");
  const std::string explained = set.explain();
  EXPECT_NE(explained.find("LogicalSink(table=[default_catalog.default_database.first_sink], "
                           "fields=[id, amount])"),
            std::string::npos)
      << explained;
  EXPECT_NE(explained.find("\n== Physical Plan ==\nSink(table=[default_catalog.default_database."
                           "first_sink], fields=[id, amount])\n"),
            std::string::npos)
      << explained;
  ::testing::internal::CaptureStdout();
  TableResult result = set.execute();
  std::vector<std::string> printedResult = rowsOf(std::move(result));
  std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(printedResult, (std::vector<std::string>{"+I[-1, -1]"}));
  EXPECT_EQ(sortedLines(printed), (std::vector<std::string>{"first> +I[2, 800.00]", "first> +I[3, 999.99]",
                                                     "second> +I[u1]", "second> +I[u2]"}));
  try {
    set.execute();  // the set was emptied
    FAIL() << "expected an error";
  } catch (const TableException& error) {
    EXPECT_STREQ(error.what(),
                 "No statement to execute. Please add an INSERT statement or a Table pipeline to "
                 "the StatementSet.");
  }
  try {
    set.addInsertSql("SELECT 1");
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(), "Only insert statement is supported now.");
  }
}

}  // namespace
}  // namespace eddy

namespace eddy {
namespace {

/// Runs two inserts of the same datagen view in one StatementSet and returns what each print
/// sink printed (sorted, prefixes removed).
std::pair<std::vector<std::string>, std::vector<std::string>> printedByTwoSinks(bool reuse) {
  auto env = environment(false);
  if (!reuse) env->getConfig()["table.optimizer.reuse-sub-plan-enabled"] = "false";
  env->executeSql("CREATE TABLE gen (s STRING) WITH ('connector' = 'datagen', "
                  "'number-of-rows' = '5', 'fields.s.length' = '12')");
  env->executeSql("CREATE TEMPORARY VIEW shared_view AS SELECT s FROM gen");
  env->executeSql("CREATE TABLE a (s STRING) WITH ('connector' = 'print', 'print-identifier' = 'a')");
  env->executeSql("CREATE TABLE b (s STRING) WITH ('connector' = 'print', 'print-identifier' = 'b')");
  StatementSet set = env->createStatementSet();
  set.addInsertSql("INSERT INTO a SELECT s FROM shared_view");
  set.addInsertSql("INSERT INTO b SELECT s FROM shared_view");
  ::testing::internal::CaptureStdout();
  set.execute().await();
  std::istringstream printed(::testing::internal::GetCapturedStdout());
  std::vector<std::string> first, second;
  for (std::string line; std::getline(printed, line);) {
    if (line.rfind("a> ", 0) == 0) first.push_back(line.substr(3));
    if (line.rfind("b> ", 0) == 0) second.push_back(line.substr(3));
  }
  return {sorted(first), sorted(second)};
}

TEST(TableApiTest, GetReadsAFieldOfANestedRow) {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("eddy_table_api_nested_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream file(path);
    file << R"({"id": 1, "person": {"name": "Alice", "address": {"city": "Berlin"}}})" << "\n"
         << R"({"id": 2, "person": null})" << "\n";
  }
  auto env = environment(false);
  env->executeSql("CREATE TABLE people (id INT, person ROW<name STRING, address ROW<city STRING>>) "
                  "WITH ('connector' = 'filesystem', 'format' = 'json', 'path' = '" +
                  path.string() + "')");
  Table result = env->from("people").select(
      {$("id"), $("person").get("name"), $("person").get("address").get("city").as("city")});
  EXPECT_EQ(result.getResolvedSchema().toString(),
            "(\n  `id` INT,\n  `name` STRING,\n  `city` STRING\n)");
  EXPECT_EQ(rowsOf(result.execute()),
            (std::vector<std::string>{"+I[1, Alice, Berlin]", "+I[2, null, null]"}));
  try {
    env->from("people").select({$("person").get("age")});
    ADD_FAILURE() << "expected a ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_NE(std::string(error.what()).find("Unknown field 'age' in ROW<`name` STRING, `address` "
                                             "ROW<`city` STRING>>"),
              std::string::npos)
        << error.what();
  }
  std::filesystem::remove(path);
}

TEST(TableApiTest, SubPlanReuseReadsASharedSourceOnce) {
  // Seed example B8: with table.optimizer.reuse-sub-plan-enabled (the default) both sinks
  // get the rows of one read of the random source; without it each insert reads its own.
  auto [first, second] = printedByTwoSinks(true);
  ASSERT_EQ(first.size(), 5u);
  EXPECT_EQ(first, second);
  auto [own, other] = printedByTwoSinks(false);
  ASSERT_EQ(own.size(), 5u);
  ASSERT_EQ(other.size(), 5u);
  EXPECT_NE(own, other);  // two reads of 5 random 12-character strings
}

}  // namespace
}  // namespace eddy
