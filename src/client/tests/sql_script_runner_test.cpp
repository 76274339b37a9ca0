// Running SQL scripts as `eddy sql -f` does: what each kind of statement prints, the error
// that names the script, line and column, and ${NAME} substitution.
#include "client/sql_script_runner.h"

#include "client/progress_line.h"
#include "eddy/types/temporal.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

namespace eddy::client {
namespace {

struct ScriptRun {
  bool ok;
  std::string out;
  std::string err;
};

ScriptRun runScript(const std::string& script) {
  auto environment = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  std::ostringstream out, err;
  SqlScriptRunner runner(*environment, out, err);
  bool ok = runner.run(script, "job.sql");
  return ScriptRun{ok, out.str(), err.str()};
}

TEST(SqlScriptRunnerTest, RunsStatementsInOrderAndPrintsResults) {
  ScriptRun run = runScript(
      "-- a view, then a batch query over it\n"
      "CREATE TEMPORARY VIEW scores AS\n"
      "  SELECT * FROM (VALUES ('Alice', 12), ('Bob', 10), ('Alice', 100)) AS t(name, score);\n"
      "SET 'execution.runtime-mode' = 'batch';\n"
      "SET 'parallelism.default' = '1';\n"
      "SELECT name, SUM(score) AS total FROM scores GROUP BY name;\n");
  EXPECT_TRUE(run.ok) << run.err;
  EXPECT_EQ(run.out,
            "[INFO] Execute statement succeeded.\n"
            "[INFO] Execute statement succeeded.\n"
            "[INFO] Execute statement succeeded.\n"
            "+-------+-------+\n"
            "|  name | total |\n"
            "+-------+-------+\n"
            "|   Bob |    10 |\n"
            "| Alice |   112 |\n"
            "+-------+-------+\n"
            "2 rows in set\n");
  EXPECT_EQ(run.err, "");
}

TEST(SqlScriptRunnerTest, ExplainPrintsThePlanAsText) {
  ScriptRun run =
      runScript("EXPLAIN SELECT a + 1 AS b FROM (VALUES (1), (2)) AS t(a) WHERE a > 1;\n");
  EXPECT_TRUE(run.ok) << run.err;
  EXPECT_EQ(run.out,
            "== Abstract Syntax Tree ==\n"
            "LogicalProject(b=[+($0, 1)])\n"
            "  LogicalFilter(condition=[>($0, 1)])\n"
            "    LogicalProject(a=[$0])\n"
            "      LogicalValues(tuples=[[{ 1 }, { 2 }]])\n"
            "\n"
            "== Optimized Logical Plan ==\n"
            "LogicalProject(b=[+($0, 1)])\n"
            "  LogicalFilter(condition=[>($0, 1)])\n"
            "    LogicalValues(tuples=[[{ 1 }, { 2 }]])\n"
            "\n"
            "== Physical Plan ==\n"
            "Calc(select=[+(EXPR$0, 1) AS b], where=[>(EXPR$0, 1)])\n"
            "  Values(tuples=[[{ 1 }, { 2 }]])\n"
            "\n");
}

TEST(SqlScriptRunnerTest, StopsAtTheFirstFailingStatementNamingItsPosition) {
  ScriptRun run = runScript(
      "SET 'parallelism.default' = '1';\n"
      "\n"
      "  SELECT nme FROM (VALUES (1)) AS t(name);\n"
      "SELECT 'never runs';\n");
  EXPECT_FALSE(run.ok);
  EXPECT_EQ(run.out, "[INFO] Execute statement succeeded.\n");
  EXPECT_EQ(run.err,
            "[ERROR] Could not execute SQL statement at job.sql:3:3. Reason:\n"
            "SQL validation failed. From line 1, column 8: Column 'nme' not found in any table; "
            "did you mean 'name'?\n");
}

// An empty statement set succeeds doing nothing (Flink's client); a non-empty one is one job.
TEST(SqlScriptRunnerTest, AnEmptyStatementSetSucceeds) {
  ScriptRun run = runScript(
      "BEGIN STATEMENT SET;\nEND;\n"
      "CREATE TABLE sink (id INT) WITH ('connector' = 'blackhole');\n"
      "BEGIN STATEMENT SET;\nINSERT INTO sink VALUES (1);\nINSERT INTO sink VALUES (2);\nEND;\n");
  EXPECT_TRUE(run.ok) << run.err;
  EXPECT_EQ(run.out,
            "[INFO] Execute statement succeeded.\n"
            "[INFO] Execute statement succeeded.\n"
            "[INFO] Complete execution of the SQL update statement.\n");
  EXPECT_EQ(run.err, "");
}

TEST(SqlScriptRunnerTest, WarnsAboutRowsTheNotNullEnforcerDropped) {
  ScriptRun run = runScript(
      "SET 'table.exec.sink.not-null-enforcer' = 'DROP';\n"
      "CREATE TABLE sink (id INT NOT NULL) WITH ('connector' = 'blackhole');\n"
      "INSERT INTO sink SELECT * FROM (VALUES (1), (CAST(NULL AS INT)), (NULL), (4)) AS t(id);\n");
  EXPECT_TRUE(run.ok) << run.err;
  EXPECT_EQ(run.out,
            "[INFO] Execute statement succeeded.\n"
            "[INFO] Execute statement succeeded.\n"
            "[INFO] Complete execution of the SQL update statement.\n");
  EXPECT_EQ(run.err,
            "[WARNING] 2 rows with a null value in a NOT NULL column were dropped by the sink "
            "('table.exec.sink.not-null-enforcer'='DROP').\n");
}

// CREATE / REPLACE TABLE .. AS SELECT is reported as the INSERT job it runs.
TEST(SqlScriptRunnerTest, TableAsSelectIsReportedAsAnUpdateStatement) {
  ScriptRun run = runScript(
      "CREATE TABLE copy WITH ('connector' = 'blackhole') AS SELECT 1 AS x;\n"
      "CREATE OR REPLACE TABLE copy WITH ('connector' = 'blackhole') AS SELECT 'a' AS y;\n"
      "DESCRIBE copy;\n");
  EXPECT_TRUE(run.ok) << run.err;
  EXPECT_EQ(run.out,
            "[INFO] Complete execution of the SQL update statement.\n"
            "[INFO] Complete execution of the SQL update statement.\n"
            "+------+---------+-------+--------+--------+-----------+---------+\n"
            "| name |    type |  null |    key | extras | watermark | comment |\n"
            "+------+---------+-------+--------+--------+-----------+---------+\n"
            "|    y | CHAR(1) | FALSE | <NULL> | <NULL> |    <NULL> |  <NULL> |\n"
            "+------+---------+-------+--------+--------+-----------+---------+\n"
            "1 row in set\n");
}

TEST(SqlScriptRunnerTest, ParseErrorsNameTheScriptLine) {
  ScriptRun run = runScript("SET 'a' = 'b';\nSELECT FROM x;\n");
  EXPECT_FALSE(run.ok);
  EXPECT_EQ(run.out, "");  // nothing runs when the script does not parse
  EXPECT_EQ(run.err.rfind("[ERROR] Could not parse job.sql at line 2, column 8:\nSQL parse failed. "
                          "Encountered \"FROM\" at line 2, column 8.",
                          0),
            0u)
      << run.err;
}

TEST(SqlScriptRunnerTest, SubstitutesEnvironmentVariables) {
  setenv("EDDY_TEST_ROWS", "3", 1);
  ScriptRun run =
      runScript("SET 'execution.runtime-mode' = 'batch';\nSELECT ${EDDY_TEST_ROWS} AS n;\n");
  EXPECT_TRUE(run.ok) << run.err;
  EXPECT_EQ(run.out,
            "[INFO] Execute statement succeeded.\n"
            "+---+\n| n |\n+---+\n| 3 |\n+---+\n1 row in set\n");
  unsetenv("EDDY_TEST_MISSING");
  run = runScript("SELECT 1;\nSELECT '${EDDY_TEST_MISSING}';\n");
  EXPECT_FALSE(run.ok);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err,
            "[ERROR] Environment variable 'EDDY_TEST_MISSING' is not set (referenced at line 2 "
            "of job.sql)\n");
}

TEST(SqlScriptRunnerTest, SetValidatesOptionsAndWarnsAboutUnknownOnes) {
  ScriptRun run = runScript(
      "SET 'parallelism.defualt' = '2';\n"
      "SET 'execution.checkpointing.interval' = '10 parsecs';\n");
  EXPECT_FALSE(run.ok);
  EXPECT_EQ(run.out, "[INFO] Execute statement succeeded.\n");
  EXPECT_EQ(run.err,
            "[WARNING] Unknown option 'parallelism.defualt'; did you mean 'parallelism.default'? "
            "eddy accepts it but does not use it.\n"
            "[ERROR] Could not execute SQL statement at job.sql:2:1. Reason:\n"
            "Could not parse value '10 parsecs' for key 'execution.checkpointing.interval': "
            "expected a non-negative duration such as '500 ms', '5 s', '1 min', '2 h' or '1 d' "
            "(no unit: milliseconds).\n");
}

TEST(ProgressLineTest, FormatsCountsAndTheWatermark) {
  using std::chrono::milliseconds;
  EXPECT_EQ(ProgressLine::format(milliseconds(3500), 1200, 15,
                                 LocalDateTime::of(2024, 1, 1, 10, 0, 4).getMillisecond()),
            "[RUNNING] 3 s elapsed, rows read 1200, rows written 15, watermark "
            "2024-01-01T10:00:04");
  EXPECT_EQ(ProgressLine::format(milliseconds(1000), -1, -1, INT64_MIN),
            "[RUNNING] 1 s elapsed, rows read -, rows written -, watermark -");
  EXPECT_EQ(ProgressLine::format(milliseconds(61000), 8, 8, INT64_MAX),
            "[RUNNING] 61 s elapsed, rows read 8, rows written 8, watermark end of input");
  EXPECT_EQ(ProgressLine::format(milliseconds(2000), 8, 3, INT64_MIN, 2),
            "[RUNNING] 2 s elapsed, rows read 8, rows written 3, watermark -, restarts 2");
}

}  // namespace
}  // namespace eddy::client
