// Statements: DDL, INSERT, catalog statements, SHOW/DESCRIBE/EXPLAIN, SET/RESET, statement
// sets; normalized print and round trip for each, the tree of CREATE TABLE, and scripts.
#include <gtest/gtest.h>

#include "sql/parser/tests/round_trip.h"

namespace eddy::sql {
namespace {

using testing::roundTripStatement;

struct StatementCase {
  const char* input;
  const char* expected;
};

// Failures print the SQL instead of the bytes of the case.
void PrintTo(const StatementCase& testCase, std::ostream* out) { *out << testCase.input; }

class StatementRoundTripTest : public ::testing::TestWithParam<StatementCase> {};

TEST_P(StatementRoundTripTest, PrintsNormalizedAndRoundTrips) {
  EXPECT_EQ(roundTripStatement(GetParam().input), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    CreateTable, StatementRoundTripTest,
    ::testing::Values(
        StatementCase{"CREATE TABLE t (a INT, b STRING)", "CREATE TABLE `t` (`a` INT, `b` STRING)"},
        StatementCase{
            "CREATE TEMPORARY TABLE IF NOT EXISTS cat.db.t (id BIGINT NOT NULL, "
            "price DECIMAL(10, 2) COMMENT 'unit price', cost AS price * 2 COMMENT 'derived', "
            "ts TIMESTAMP(3) METADATA FROM 'timestamp' VIRTUAL, part INT METADATA, "
            "WATERMARK FOR ts AS ts - INTERVAL '5' SECOND, "
            "CONSTRAINT pk PRIMARY KEY (id) NOT ENFORCED) COMMENT 'orders' "
            "PARTITIONED BY (part) WITH ('connector' = 'kafka', 'topic' = 'it''s')",
            "CREATE TEMPORARY TABLE IF NOT EXISTS `cat`.`db`.`t` (`id` BIGINT NOT NULL, "
            "`price` DECIMAL(10, 2) COMMENT 'unit price', `cost` AS `price` * 2 COMMENT "
            "'derived', `ts` TIMESTAMP(3) METADATA FROM 'timestamp' VIRTUAL, `part` INT "
            "METADATA, WATERMARK FOR `ts` AS `ts` - INTERVAL '5' SECOND, CONSTRAINT `pk` "
            "PRIMARY KEY (`id`) NOT ENFORCED) COMMENT 'orders' PARTITIONED BY (`part`) WITH "
            "('connector' = 'kafka', 'topic' = 'it''s')"},
        StatementCase{"CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, v STRING)",
                      "CREATE TABLE `t` (`id` INT, `v` STRING, PRIMARY KEY (`id`) NOT ENFORCED)"},
        StatementCase{"CREATE TABLE t (a ARRAY<ROW<x INT, y MAP<STRING, DOUBLE>>>, "
                      "b TIMESTAMP(3) WITH LOCAL TIME ZONE, c TIMESTAMP_LTZ(3), "
                      "proc AS PROCTIME())",
                      "CREATE TABLE `t` (`a` ARRAY<ROW<`x` INT, `y` MAP<STRING, DOUBLE>>>, `b` "
                      "TIMESTAMP_LTZ(3), `c` TIMESTAMP_LTZ(3), `proc` AS PROCTIME())"},
        StatementCase{"CREATE TABLE t2 WITH ('connector' = 'print') LIKE t1 (EXCLUDING ALL "
                      "INCLUDING WATERMARKS OVERWRITING OPTIONS INCLUDING GENERATED EXCLUDING "
                      "METADATA EXCLUDING PARTITIONS INCLUDING CONSTRAINTS)",
                      "CREATE TABLE `t2` WITH ('connector' = 'print') LIKE `t1` (EXCLUDING ALL "
                      "INCLUDING WATERMARKS OVERWRITING OPTIONS INCLUDING GENERATED EXCLUDING "
                      "METADATA EXCLUDING PARTITIONS INCLUDING CONSTRAINTS)"},
        StatementCase{"CREATE TABLE t2 (x INT) LIKE t1", "CREATE TABLE `t2` (`x` INT) LIKE `t1`"},
        StatementCase{"CREATE TABLE s WITH ('connector' = 'blackhole') AS SELECT a, b FROM t",
                      "CREATE TABLE `s` WITH ('connector' = 'blackhole') AS SELECT `a`, `b` "
                      "FROM `t`"},
        StatementCase{"CREATE TABLE s (b, a) WITH ('connector' = 'blackhole') AS SELECT a, b FROM t",
                      "CREATE TABLE `s` (`b`, `a`) WITH ('connector' = 'blackhole') AS SELECT "
                      "`a`, `b` FROM `t`"},
        StatementCase{"REPLACE TABLE s WITH ('connector' = 'blackhole') AS SELECT a FROM t",
                      "REPLACE TABLE `s` WITH ('connector' = 'blackhole') AS SELECT `a` FROM `t`"},
        StatementCase{"create or replace table s (x INT, PRIMARY KEY (a) NOT ENFORCED) WITH "
                      "('connector' = 'blackhole') AS SELECT a FROM t",
                      "CREATE OR REPLACE TABLE `s` (`x` INT, PRIMARY KEY (`a`) NOT ENFORCED) WITH "
                      "('connector' = 'blackhole') AS SELECT `a` FROM `t`"},
        StatementCase{"CREATE TABLE t (a INT PRIMARY KEY)",
                      "CREATE TABLE `t` (`a` INT, PRIMARY KEY (`a`))"}));

INSTANTIATE_TEST_SUITE_P(
    OtherDdl, StatementRoundTripTest,
    ::testing::Values(
        StatementCase{"CREATE VIEW v AS SELECT a FROM t", "CREATE VIEW `v` AS SELECT `a` FROM `t`"},
        StatementCase{"CREATE TEMPORARY VIEW IF NOT EXISTS db.v (x, y) COMMENT 'c' AS "
                      "SELECT a, b FROM t",
                      "CREATE TEMPORARY VIEW IF NOT EXISTS `db`.`v` (`x`, `y`) COMMENT 'c' AS "
                      "SELECT `a`, `b` FROM `t`"},
        StatementCase{"DROP TABLE t", "DROP TABLE `t`"},
        StatementCase{"DROP TEMPORARY TABLE IF EXISTS cat.db.t",
                      "DROP TEMPORARY TABLE IF EXISTS `cat`.`db`.`t`"},
        StatementCase{"drop view if exists v", "DROP VIEW IF EXISTS `v`"},
        StatementCase{"DROP TEMPORARY VIEW v", "DROP TEMPORARY VIEW `v`"},
        StatementCase{"DROP DATABASE IF EXISTS cat.db CASCADE",
                      "DROP DATABASE IF EXISTS `cat`.`db` CASCADE"},
        StatementCase{"DROP DATABASE db RESTRICT", "DROP DATABASE `db`"},
        StatementCase{"DROP CATALOG IF EXISTS c", "DROP CATALOG IF EXISTS `c`"},
        StatementCase{"ALTER TABLE t RENAME TO t2", "ALTER TABLE `t` RENAME TO `t2`"},
        StatementCase{"ALTER TABLE t RENAME a TO b", "ALTER TABLE `t` RENAME `a` TO `b`"},
        StatementCase{"ALTER TABLE t DROP a", "ALTER TABLE `t` DROP (`a`)"},
        StatementCase{"ALTER TABLE t DROP (a, b)", "ALTER TABLE `t` DROP (`a`, `b`)"},
        StatementCase{"ALTER TABLE t DROP PRIMARY KEY", "ALTER TABLE `t` DROP PRIMARY KEY"},
        StatementCase{"ALTER TABLE t DROP CONSTRAINT pk", "ALTER TABLE `t` DROP CONSTRAINT `pk`"},
        StatementCase{"ALTER TABLE t DROP WATERMARK", "ALTER TABLE `t` DROP WATERMARK"},
        StatementCase{"ALTER TABLE IF EXISTS db.t SET ('k' = 'v', 'k2' = 'v2')",
                      "ALTER TABLE IF EXISTS `db`.`t` SET ('k' = 'v', 'k2' = 'v2')"},
        StatementCase{"ALTER TABLE t RESET ('k', 'k2')", "ALTER TABLE `t` RESET ('k', 'k2')"},
        StatementCase{"ALTER TABLE t ADD c INT COMMENT 'new'",
                      "ALTER TABLE `t` ADD (`c` INT COMMENT 'new')"},
        StatementCase{"ALTER TABLE t ADD (c INT FIRST, d AS c + 1 AFTER c)",
                      "ALTER TABLE `t` ADD (`c` INT FIRST, `d` AS `c` + 1 AFTER `c`)"},
        StatementCase{"ALTER TABLE t MODIFY c BIGINT COMMENT 'wider' AFTER a",
                      "ALTER TABLE `t` MODIFY (`c` BIGINT COMMENT 'wider' AFTER `a`)"},
        StatementCase{"ALTER TABLE t MODIFY (WATERMARK FOR ts AS ts, PRIMARY KEY (a) NOT ENFORCED)",
                      "ALTER TABLE `t` MODIFY (WATERMARK FOR `ts` AS `ts`, PRIMARY KEY (`a`) NOT ENFORCED)"},
        StatementCase{"ALTER TABLE t ADD (c AS a + 1, WATERMARK FOR ts AS ts, PRIMARY KEY (a) "
                      "NOT ENFORCED)",
                      "ALTER TABLE `t` ADD (`c` AS `a` + 1, WATERMARK FOR `ts` AS `ts`, PRIMARY "
                      "KEY (`a`) NOT ENFORCED)"},
        StatementCase{"CREATE DATABASE db", "CREATE DATABASE `db`"},
        StatementCase{"CREATE DATABASE IF NOT EXISTS cat.db COMMENT 'x' WITH ('k' = 'v')",
                      "CREATE DATABASE IF NOT EXISTS `cat`.`db` COMMENT 'x' WITH ('k' = 'v')"},
        StatementCase{"CREATE CATALOG c WITH ('type' = 'generic_in_memory')",
                      "CREATE CATALOG `c` WITH ('type' = 'generic_in_memory')"},
        StatementCase{"USE CATALOG c", "USE CATALOG `c`"}, StatementCase{"USE db", "USE `db`"},
        StatementCase{"USE cat.db", "USE `cat`.`db`"},
        StatementCase{"USE `catalog`", "USE `catalog`"}));

INSTANTIATE_TEST_SUITE_P(
    ShowDescribeExplain, StatementRoundTripTest,
    ::testing::Values(
        StatementCase{"SHOW CATALOGS", "SHOW CATALOGS"},
        StatementCase{"show current catalog", "SHOW CURRENT CATALOG"},
        StatementCase{"SHOW DATABASES", "SHOW DATABASES"},
        StatementCase{"SHOW CURRENT DATABASE", "SHOW CURRENT DATABASE"},
        StatementCase{"SHOW TABLES", "SHOW TABLES"},
        StatementCase{"SHOW TABLES IN data_warehouse", "SHOW TABLES FROM `data_warehouse`"},
        StatementCase{"SHOW TABLES FROM cat.db NOT LIKE 'tmp%'",
                      "SHOW TABLES FROM `cat`.`db` NOT LIKE 'tmp%'"},
        StatementCase{"SHOW TABLES LIKE 'o%'", "SHOW TABLES LIKE 'o%'"},
        StatementCase{"SHOW VIEWS", "SHOW VIEWS"},
        StatementCase{"SHOW FUNCTIONS", "SHOW FUNCTIONS"},
        StatementCase{"SHOW COLUMNS FROM t LIKE '%id'", "SHOW COLUMNS FROM `t` LIKE '%id'"},
        StatementCase{"SHOW COLUMNS IN db.t", "SHOW COLUMNS FROM `db`.`t`"},
        StatementCase{"SHOW CREATE TABLE t", "SHOW CREATE TABLE `t`"},
        StatementCase{"SHOW CREATE VIEW v", "SHOW CREATE VIEW `v`"},
        StatementCase{"DESCRIBE t", "DESCRIBE `t`"},
        StatementCase{"DESC db.t", "DESCRIBE `db`.`t`"},
        StatementCase{"EXPLAIN SELECT 1", "EXPLAIN SELECT 1"},
        StatementCase{"EXPLAIN PLAN FOR SELECT a FROM t", "EXPLAIN PLAN FOR SELECT `a` FROM `t`"},
        StatementCase{"EXPLAIN CHANGELOG_MODE, ESTIMATED_COST SELECT a FROM t",
                      "EXPLAIN CHANGELOG_MODE, ESTIMATED_COST SELECT `a` FROM `t`"},
        StatementCase{"EXPLAIN JSON_EXECUTION_PLAN INSERT INTO s SELECT * FROM t",
                      "EXPLAIN JSON_EXECUTION_PLAN INSERT INTO `s` SELECT * FROM `t`"},
        StatementCase{"EXPLAIN STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b "
                      "SELECT 2; END",
                      "EXPLAIN STATEMENT SET BEGIN INSERT INTO `a` SELECT 1; INSERT INTO `b` "
                      "SELECT 2; END"}));

INSTANTIATE_TEST_SUITE_P(
    InsertSetExecute, StatementRoundTripTest,
    ::testing::Values(
        StatementCase{"INSERT INTO s SELECT * FROM t", "INSERT INTO `s` SELECT * FROM `t`"},
        StatementCase{"INSERT OVERWRITE cat.db.s PARTITION (dt = '2024-01-01', h = 1) (a, b) "
                      "SELECT a, b FROM t",
                      "INSERT OVERWRITE `cat`.`db`.`s` PARTITION (`dt` = '2024-01-01', `h` = 1) "
                      "(`a`, `b`) SELECT `a`, `b` FROM `t`"},
        StatementCase{"INSERT INTO s VALUES (1, 'a'), (2, 'b')",
                      "INSERT INTO `s` VALUES (1, 'a'), (2, 'b')"},
        StatementCase{"INSERT INTO s (SELECT 1)", "INSERT INTO `s` SELECT 1"},
        StatementCase{"INSERT INTO s WITH x AS (SELECT 1) SELECT * FROM x",
                      "INSERT INTO `s` WITH `x` AS (SELECT 1) SELECT * FROM `x`"},
        StatementCase{"SET", "SET"},
        StatementCase{"SET 'table.exec.mini-batch.enabled' = 'true'",
                      "SET 'table.exec.mini-batch.enabled' = 'true'"},
        StatementCase{"RESET", "RESET"},
        StatementCase{"RESET 'execution.runtime-mode'", "RESET 'execution.runtime-mode'"},
        StatementCase{"EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT * FROM t; INSERT INTO b "
                      "SELECT * FROM t; END",
                      "EXECUTE STATEMENT SET BEGIN INSERT INTO `a` SELECT * FROM `t`; INSERT INTO "
                      "`b` SELECT * FROM `t`; END"},
        StatementCase{"BEGIN STATEMENT SET;\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\n"
                      "END;",
                      "EXECUTE STATEMENT SET BEGIN INSERT INTO `a` SELECT 1; INSERT INTO `b` "
                      "SELECT 2; END"},
        StatementCase{"EXECUTE INSERT INTO s SELECT 1", "EXECUTE INSERT INTO `s` SELECT 1"},
        StatementCase{"EXECUTE SELECT 1", "EXECUTE SELECT 1"}));

TEST(CreateTableTreeTest, ColumnsWatermarksKeysAndOptions) {
  StatementPtr statement = parseStatement(
      "CREATE TABLE orders (\n"
      "  id STRING,\n"
      "  amount DECIMAL(12, 2) NOT NULL,\n"
      "  total AS amount * 2,\n"
      "  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,\n"
      "  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,\n"
      "  PRIMARY KEY (id) NOT ENFORCED\n"
      ") PARTITIONED BY (id) WITH ('connector' = 'datagen')");
  ASSERT_TRUE(statement->is<CreateTableStatement>());
  const auto& create = statement->as<CreateTableStatement>();
  EXPECT_EQ(create.tableName, (QualifiedName{"orders"}));
  ASSERT_EQ(create.columns.size(), 4u);
  EXPECT_EQ(create.columns[0].kind, ColumnKind::kPhysical);
  EXPECT_EQ(create.columns[1].type->asSummaryString(), "DECIMAL(12, 2) NOT NULL");
  EXPECT_EQ(create.columns[1].position, (SourcePosition{3, 3}));
  EXPECT_EQ(create.columns[2].kind, ColumnKind::kComputed);
  EXPECT_EQ(unparse(*create.columns[2].expression), "`amount` * 2");
  EXPECT_EQ(create.columns[3].kind, ColumnKind::kMetadata);
  EXPECT_EQ(create.columns[3].metadataKey, "timestamp");
  EXPECT_TRUE(create.columns[3].isVirtual);
  ASSERT_EQ(create.watermarks.size(), 1u);
  EXPECT_EQ(create.watermarks[0].column, (QualifiedName{"ts"}));
  EXPECT_EQ(create.watermarks[0].position, (SourcePosition{6, 3}));
  ASSERT_TRUE(create.primaryKey.has_value());
  EXPECT_EQ(create.primaryKey->columns, (std::vector<std::string>{"id"}));
  EXPECT_TRUE(create.primaryKey->notEnforced);
  EXPECT_EQ(create.partitionKeys, (std::vector<std::string>{"id"}));
  ASSERT_EQ(create.options.size(), 1u);
  EXPECT_EQ(create.options[0].key, "connector");
  EXPECT_EQ(create.options[0].value, "datagen");
}

TEST(ScriptTest, SplitsStatementsAndKeepsTheirText) {
  std::vector<StatementPtr> statements = parseScript(
      "-- a script\n"
      "SET 'a' = 'b';;\n"
      "/* block\n comment */ CREATE TABLE t (x INT) WITH ('connector' = 'datagen');\n"
      "SELECT x -- trailing\n"
      "FROM t;\n"
      ";\n");
  ASSERT_EQ(statements.size(), 3u);
  EXPECT_EQ(statements[0]->kind, StatementKind::kSet);
  EXPECT_EQ(statements[0]->sourceText, "SET 'a' = 'b'");
  EXPECT_EQ(statements[0]->position, (SourcePosition{2, 1}));
  EXPECT_EQ(statements[1]->kind, StatementKind::kCreateTable);
  EXPECT_EQ(statements[1]->position, (SourcePosition{4, 13}));
  EXPECT_EQ(statements[1]->sourceText, "CREATE TABLE t (x INT) WITH ('connector' = 'datagen')");
  EXPECT_EQ(statements[2]->kind, StatementKind::kQuery);
  EXPECT_EQ(statements[2]->sourceText, "SELECT x -- trailing\nFROM t");
  EXPECT_EQ(statements[2]->position, (SourcePosition{5, 1}));
}

TEST(ScriptTest, EmptyScriptsHaveNoStatements) {
  EXPECT_TRUE(parseScript("").empty());
  EXPECT_TRUE(parseScript("  ;; -- nothing\n /* at all */ ;").empty());
}

TEST(ScriptTest, ClientStatementSetSpansSeveralSemicolons) {
  std::vector<StatementPtr> statements = parseScript(
      "SET 'execution.runtime-mode' = 'batch';\n"
      "BEGIN STATEMENT SET;\n"
      "INSERT INTO a SELECT 1;\n"
      "INSERT INTO b SELECT 2;\n"
      "END;\n"
      "SHOW TABLES;");
  ASSERT_EQ(statements.size(), 3u);
  ASSERT_EQ(statements[1]->kind, StatementKind::kStatementSet);
  const auto& set = statements[1]->as<StatementSetStatement>();
  ASSERT_EQ(set.statements.size(), 2u);
  EXPECT_EQ(set.statements[1]->sourceText, "INSERT INTO b SELECT 2");
  EXPECT_EQ(set.statements[1]->position, (SourcePosition{4, 1}));
  EXPECT_EQ(statements[2]->kind, StatementKind::kShow);
}

TEST(ScriptTest, ReportsAnErrorInTheThirdStatementAtItsScriptLine) {
  std::string message = testing::errorOf([] {
    parseScript(
        "CREATE TABLE t (a INT) WITH ('connector' = 'datagen');\n"
        "-- the second statement\n"
        "SELECT a FROM t;\n"
        "\n"
        "SELECT a,\n"
        "  FROM t;\n");
  });
  EXPECT_EQ(message,
            "SQL parse failed. Encountered \"FROM\" at line 6, column 3. Was expecting: "
            "<expression>");
  try {
    parseScript("SELECT 1; SELECT 2;\nSELECT 3 +;");
    FAIL() << "no error";
  } catch (const SqlParseException& error) {
    EXPECT_EQ(error.line(), 2);
    EXPECT_EQ(error.column(), 11);
  }
}

}  // namespace
}  // namespace eddy::sql
