// SQL end to end through the TableEnvironment: seed example A2 as SQL in STREAMING (its
// changelog) and BATCH (final rows), projections and filters with functions, views, SHOW and
// DDL, and the exact errors for bad SQL.
#include <gtest/gtest.h>

#include <eddy/table/table_environment.h>

#include <algorithm>
#include <sstream>

namespace eddy {
namespace {

const char* kScores =
    "(VALUES ('Alice', 12), ('Bob', 10), ('Alice', 100)) AS t(name, score)";

std::vector<std::string> rowsOf(TableResult result) {
  std::vector<std::string> printed;
  for (const Row& row : result.collectAll()) printed.push_back(row.toString());
  return printed;
}

std::unique_ptr<TableEnvironment> environment(bool streaming) {
  auto env = TableEnvironment::create(streaming ? EnvironmentSettings::inStreamingMode()
                                                : EnvironmentSettings::inBatchMode());
  env->executeSql("SET 'parallelism.default' = '1'");
  return env;
}

TEST(SqlQueryTest, StreamingGroupByPrintsTheChangelogOfSeedExampleA2) {
  auto env = environment(true);
  std::ostringstream out;
  env->executeSql(std::string("SELECT name, SUM(score) AS score FROM ") + kScores +
                  " GROUP BY name")
      .print(out);
  EXPECT_EQ(out.str(),
            "+----+--------------------------------+-------------+\n"
            "| op |                           name |       score |\n"
            "+----+--------------------------------+-------------+\n"
            "| +I |                          Alice |          12 |\n"
            "| +I |                            Bob |          10 |\n"
            "| -U |                          Alice |          12 |\n"
            "| +U |                          Alice |         112 |\n"
            "+----+--------------------------------+-------------+\n"
            "Received a total of 4 rows\n");
}

TEST(SqlQueryTest, MiniBatchFoldsEachKeyOfABundleIntoOneChange) {
  auto env = environment(true);
  env->executeSql("SET 'table.exec.mini-batch.enabled' = 'true'");
  env->executeSql("SET 'table.exec.mini-batch.allow-latency' = '5 s'");
  env->executeSql("SET 'table.exec.mini-batch.size' = '1000'");
  // The three rows arrive in one bundle: Alice's two rows make one +I.
  EXPECT_EQ(rowsOf(env->executeSql(std::string("SELECT name, SUM(score) AS score FROM ") +
                                   kScores + " GROUP BY name")),
            (std::vector<std::string>{"+I[Alice, 112]", "+I[Bob, 10]"}));
  env->executeSql("RESET 'table.exec.mini-batch.allow-latency'");
  try {
    env->executeSql(std::string("SELECT name, SUM(score) FROM ") + kScores + " GROUP BY name");
    ADD_FAILURE() << "expected a ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "'table.exec.mini-batch.allow-latency' must be greater than 0 when "
              "'table.exec.mini-batch.enabled' is true.");
  }
}

// A validation error of a SQL text carries its position as data: what() has Flink's prefix,
// message() and line()/column() give the parts; an error without a SQL position has none.
TEST(SqlQueryTest, ValidationErrorsCarryTheirSqlPosition) {
  auto env = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  env->executeSql("CREATE TABLE t (name STRING, score INT) WITH ('connector' = 'datagen')");
  try {
    env->executeSql("SELECT name,\n  scor FROM t");
    ADD_FAILURE() << "expected a ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "SQL validation failed. From line 2, column 3: Column 'scor' not found in any "
                 "table; did you mean 'score'?");
    EXPECT_EQ(error.message(), "Column 'scor' not found in any table; did you mean 'score'?");
    EXPECT_TRUE(error.hasPosition());
    EXPECT_EQ(error.line(), 2);
    EXPECT_EQ(error.column(), 3);
  }
  try {
    env->executeSql("SET 'table.optimizer.disabled-passes' = 'Nothing'");
    env->executeSql("SELECT name FROM t");
    ADD_FAILURE() << "expected a ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_FALSE(error.hasPosition());
    EXPECT_EQ(error.message(), error.what());
  }
}

TEST(SqlQueryTest, AGlobalAggregatesChangelogKeepsItsOrderAtHigherParallelism) {
  // The global aggregate runs in one subtask; its -U/+U pairs must reach the result in order
  // even when the job's default parallelism is 2.
  auto env = environment(true);
  env->executeSql("SET 'parallelism.default' = '2'");
  env->executeSql("CREATE TABLE g (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5000')");
  int64_t current = 0;
  int64_t changes = 0;
  for (const Row& row : env->executeSql("SELECT COUNT(*) FROM g").collectAll()) {
    int64_t value = row.getFieldAs<int64_t>(0);
    switch (row.getKind()) {
      case RowKind::INSERT:
        EXPECT_EQ(changes, 0);
        current = value;
        break;
      case RowKind::UPDATE_BEFORE:
        ASSERT_EQ(value, current) << "after " << changes << " changes";
        break;
      case RowKind::UPDATE_AFTER:
        current = value;
        break;
      default:
        ADD_FAILURE() << row.toString();
    }
    ++changes;
  }
  EXPECT_EQ(current, 5000);
}

TEST(SqlQueryTest, BatchGroupByGivesFinalRows) {
  auto env = environment(false);
  std::ostringstream out;
  env->executeSql(std::string("SELECT name, SUM(score) AS score FROM ") + kScores +
                  " GROUP BY name")
      .print(out);
  EXPECT_EQ(out.str(),
            "+-------+-------+\n"
            "|  name | score |\n"
            "+-------+-------+\n"
            "|   Bob |    10 |\n"
            "| Alice |   112 |\n"
            "+-------+-------+\n"
            "2 rows in set\n");
}

TEST(SqlQueryTest, StreamingChangelogAppliedEqualsTheBatchResult) {
  std::string query = std::string("SELECT name, COUNT(*) AS c, AVG(score) AS a, MAX(score) AS m "
                                  "FROM ") + kScores + " WHERE score >= 10 GROUP BY name";
  auto streaming = rowsOf(environment(true)->executeSql(query));
  auto batch = rowsOf(environment(false)->executeSql(query));
  // Apply the changelog: +I/+U add a row, -U/-D remove it.
  std::multiset<std::string> applied;
  for (const std::string& row : streaming) {
    std::string content = row.substr(2);
    if (row[0] == '+') {
      applied.insert(content);
    } else {
      applied.erase(applied.find(content));
    }
  }
  std::multiset<std::string> expected;
  for (const std::string& row : batch) expected.insert(row.substr(2));
  EXPECT_EQ(applied, expected);
  EXPECT_EQ(expected, (std::multiset<std::string>{"[Alice, 2, 56, 100]", "[Bob, 1, 10, 10]"}));
}

TEST(SqlQueryTest, ProjectionAndFilterWithFunctions) {
  auto env = environment(false);
  EXPECT_EQ(rowsOf(env->executeSql(std::string("SELECT UPPER(name) AS n, score * 2 + 1, "
                                               "score > 50 AS big FROM ") +
                                   kScores + " WHERE score <> 10")),
            (std::vector<std::string>{"+I[ALICE, 25, false]", "+I[ALICE, 201, true]"}));
  auto schema = env->sqlQuery(std::string("SELECT UPPER(name) AS n, score * 2 + 1 FROM ") + kScores)
                    .getResolvedSchema();
  EXPECT_EQ(schema.toString(), "(\n  `n` VARCHAR(5) NOT NULL,\n  `EXPR$1` INT NOT NULL\n)");
}

TEST(SqlQueryTest, ViewsShowAndDrop) {
  auto env = environment(false);
  env->executeSql(std::string("CREATE TEMPORARY VIEW scores AS SELECT * FROM ") + kScores);
  env->executeSql("CREATE VIEW big AS SELECT name FROM scores WHERE score > 50");
  EXPECT_EQ(rowsOf(env->executeSql("SHOW TABLES")),
            (std::vector<std::string>{"+I[big]", "+I[scores]"}));
  EXPECT_EQ(rowsOf(env->executeSql("SHOW TABLES LIKE 's%'")), (std::vector<std::string>{"+I[scores]"}));
  EXPECT_EQ(rowsOf(env->executeSql("SHOW VIEWS")), (std::vector<std::string>{"+I[big]", "+I[scores]"}));
  EXPECT_EQ(rowsOf(env->executeSql("SELECT * FROM big")), (std::vector<std::string>{"+I[Alice]"}));
  env->executeSql("CREATE DATABASE lake");
  env->executeSql("USE lake");
  EXPECT_EQ(env->getCurrentDatabase(), "lake");
  EXPECT_EQ(rowsOf(env->executeSql("SHOW DATABASES")),
            (std::vector<std::string>{"+I[default_database]", "+I[lake]"}));
  EXPECT_EQ(rowsOf(env->executeSql("SELECT COUNT(*) FROM default_database.scores")),
            (std::vector<std::string>{"+I[3]"}));
  env->executeSql("DROP VIEW default_database.big");
  EXPECT_EQ(env->listTables(), std::vector<std::string>{});
  std::ostringstream ok;
  env->executeSql("USE default_database").print(ok);
  EXPECT_EQ(ok.str(), "+--------+\n| result |\n+--------+\n|     OK |\n+--------+\n1 row in set\n");
}

std::string errorOf(TableEnvironment& env, const std::string& sql) {
  try {
    env.executeSql(sql).collectAll();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "no error";
}

TEST(SqlQueryTest, ErrorsNameTheLineAndColumn) {
  auto env = environment(false);
  EXPECT_EQ(errorOf(*env, std::string("SELECT nme FROM ") + kScores),
            "SQL validation failed. From line 1, column 8: Column 'nme' not found in any table; "
            "did you mean 'name'?");
  EXPECT_EQ(errorOf(*env, "SELECT *\nFROM missing"),
            "SQL validation failed. From line 2, column 6: Object 'missing' not found");
  EXPECT_EQ(errorOf(*env, std::string("SELECT name, SUM(score) FROM ") + kScores),
            "SQL validation failed. From line 1, column 8: Expression 'name' is not being grouped");
  EXPECT_EQ(errorOf(*env, std::string("SELECT SUM(name) FROM ") + kScores),
            "SQL validation failed. From line 1, column 8: Cannot apply 'SUM' to arguments of type "
            "'SUM(<VARCHAR(5)>)'. Supported form(s): 'SUM(<NUMERIC>)'");
  EXPECT_EQ(errorOf(*env, "SELECT FROM t").rfind("SQL parse failed. Encountered \"FROM\" at line 1, "
                                                 "column 8.", 0),
            0u);
}

}  // namespace
}  // namespace eddy

namespace eddy {
namespace {

TEST(SqlConnectorTest, InsertFromDatagenIntoPrintAndBlackholeAsOneStatementSet) {
  auto env = environment(true);
  env->executeSql(
      "CREATE TABLE numbers (id BIGINT, bucket INT) WITH ("
      " 'connector' = 'datagen', 'number-of-rows' = '6',"
      " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '6',"
      " 'fields.bucket.min' = '7', 'fields.bucket.max' = '7')");
  env->executeSql("CREATE TABLE out_print (id BIGINT, doubled BIGINT) WITH ("
                  " 'connector' = 'print', 'print-identifier' = 'evens')");
  env->executeSql("CREATE TABLE out_void (bucket INT, c BIGINT) WITH ('connector' = 'blackhole')");
  testing::internal::CaptureStdout();
  TableResult result = env->executeSql(
      "EXECUTE STATEMENT SET BEGIN "
      "INSERT INTO out_print SELECT id, id * 2 FROM numbers WHERE MOD(id, 2) = 0; "
      "INSERT INTO out_void SELECT bucket, COUNT(*) FROM numbers GROUP BY bucket; "
      "END");
  result.await();
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "evens> +I[2, 4]\nevens> +I[4, 8]\nevens> +I[6, 12]\n");
  EXPECT_EQ(result.getResolvedSchema().getColumnNames(),
            (std::vector<std::string>{"default_catalog.default_database.out_print",
                                      "default_catalog.default_database.out_void"}));
}

TEST(SqlConnectorTest, ShowFunctionsListsScalarAndAggregateFunctions) {
  auto env = environment(false);
  std::vector<std::string> names;
  for (const Row& row : env->executeSql("SHOW FUNCTIONS").collectAll()) {
    names.push_back(row.getFieldAs<std::string>(0));
  }
  for (const char* expected :
       {"UPPER", "SUM", "COUNT", "COALESCE", "CAST", "TRY_CAST", "FIRST_VALUE", "LAST_VALUE",
        "LISTAGG", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "COLLECT"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(SqlConnectorTest, SelectFromDatagenAndSinkErrors) {
  auto env = environment(false);
  env->executeSql("CREATE TABLE seq (id INT) WITH ('connector' = 'datagen', 'fields.id.kind' = "
                  "'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100')");
  EXPECT_EQ(rowsOf(env->executeSql("SELECT COUNT(*), SUM(id), MIN(id), MAX(id) FROM seq")),
            (std::vector<std::string>{"+I[100, 5050, 1, 100]"}));
  env->executeSql("CREATE TABLE sink (id INT, name STRING) WITH ('connector' = 'blackhole')");
  EXPECT_EQ(errorOf(*env, "INSERT INTO sink SELECT id FROM seq"),
            "Column types of query result and sink for 'default_catalog.default_database.sink' do "
            "not match.\nCause: Different number of columns.\n\nQuery schema: [id: INT]\nSink "
            "schema:  [id: INT, name: STRING]");
  // Only implicit casts (Flink's supportsImplicitCast): widening numbers, strings to strings.
  EXPECT_EQ(errorOf(*env, "INSERT INTO sink SELECT CAST(id AS SMALLINT), CAST(id AS CHAR(3)) FROM seq"),
            "no error");
  EXPECT_EQ(errorOf(*env, "INSERT INTO sink SELECT name, id FROM (SELECT id, 'x' AS name FROM seq)"),
            "Column types of query result and sink for 'default_catalog.default_database.sink' do "
            "not match.\nCause: Incompatible types for sink column 'id' at position 0.\n\nQuery "
            "schema: [name: CHAR(1) NOT NULL, id: INT]\nSink schema:  [id: INT, name: STRING]");
  EXPECT_EQ(errorOf(*env, "INSERT INTO sink SELECT CAST(id AS BIGINT), 'x' FROM seq"),
            "Column types of query result and sink for 'default_catalog.default_database.sink' do "
            "not match.\nCause: Incompatible types for sink column 'id' at position 0.\n\nQuery "
            "schema: [EXPR$0: BIGINT, EXPR$1: CHAR(1) NOT NULL]\nSink schema:  [id: INT, name: STRING]");
  env->executeSql("CREATE TABLE bad (id INT) WITH ('connector' = 'datagen', 'rows-per-secnd' = '5')");
  EXPECT_EQ(errorOf(*env, "SELECT * FROM bad").rfind("Unsupported options found for 'datagen'.", 0),
            0u);
}

TEST(SqlQueryTest, CreateCatalogValidatesTypeAndOptions) {
  auto env = environment(false);
  auto messageOf = [&](const std::string& statement) {
    try {
      env->executeSql(statement);
    } catch (const ValidationException& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(messageOf("CREATE CATALOG c WITH ('type' = 'hive')"),
            "Could not find any factory for identifier 'hive' that implements 'CatalogFactory' in "
            "the classpath.\n\nAvailable factory identifiers are:\n\ngeneric_in_memory");
  EXPECT_EQ(messageOf("CREATE CATALOG c WITH ('type' = 'generic_in_memory', 'warehouse' = '/tmp')"),
            "Unsupported options found for 'generic_in_memory'.\n\nUnsupported options:\n\n"
            "warehouse\n\nSupported options:\n\ndefault-database\ntype");
  EXPECT_EQ(messageOf("CREATE CATALOG c WITH ('default-database' = 'x')"),
            "Catalog options do not contain an option key 'type' for discovering a catalog.");
  EXPECT_EQ(messageOf("CREATE CATALOG c WITH ('type' = 'generic_in_memory')"), "no error");
  EXPECT_EQ(messageOf("CREATE CATALOG c WITH ('type' = 'generic_in_memory')"),
            "Catalog c already exists.");
}

}  // namespace
}  // namespace eddy
