// The interactive client driven by a scripted line reader: prompts, multi-line statements,
// HELP, QUIT/EXIT, Ctrl-D, errors that do not end the session, the history, and the table and
// changelog result modes on an output that is no terminal (drawn once, when the query ends).
#include "client/interactive_sql_client.h"

#include <gtest/gtest.h>

#include <deque>
#include <sstream>

namespace eddy::client {
namespace {

class ScriptedLineReader : public LineReader {
 public:
  explicit ScriptedLineReader(std::deque<std::string> lines) : lines_(std::move(lines)) {}

  /// Plays the lines in order; "<Ctrl-C>" plays an interrupt.
  LineEvent readLine(const std::string& prompt, std::string& line) override {
    prompts += prompt;
    if (lines_.empty()) return LineEvent::kEndOfInput;
    line = lines_.front();
    lines_.pop_front();
    return line == "<Ctrl-C>" ? LineEvent::kInterrupted : LineEvent::kLine;
  }
  void addHistory(const std::string& entry) override { history.push_back(entry); }

  std::string prompts;
  std::vector<std::string> history;

 private:
  std::deque<std::string> lines_;
};

struct Session {
  std::string out;
  std::string err;
  std::string prompts;
  std::vector<std::string> history;
};

Session runSession(std::deque<std::string> lines) {
  auto environment = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  ScriptedLineReader reader(std::move(lines));
  std::ostringstream out, err;
  InteractiveSqlClient(*environment, reader, out, err).run();
  return Session{out.str(), err.str(), reader.prompts, reader.history};
}

constexpr const char* kWelcome =
    "eddy SQL client. Statements end with ';' and may span lines. Type HELP; for help, QUIT; to "
    "leave.\n\n";

TEST(InteractiveSqlClientTest, RunsMultiLineStatementsUntilQuit) {
  Session session = runSession({"SELECT 1 + 1", "  AS two;", "quit;", "SELECT 'never';"});
  EXPECT_EQ(session.out, std::string(kWelcome) +
                             "+-----+\n| two |\n+-----+\n|   2 |\n+-----+\n1 row in set\n"
                             "Goodbye!\n");
  EXPECT_EQ(session.err, "");
  EXPECT_EQ(session.prompts, "eddy SQL>         > eddy SQL> ");
  EXPECT_EQ(session.history, (std::vector<std::string>{"SELECT 1 + 1 AS two;", "quit;"}));
}

TEST(InteractiveSqlClientTest, AnErrorDoesNotEndTheSessionAndCtrlDQuits) {
  Session session = runSession({"SELECT * FROM missing;", "SET 'parallelism.default' = '0';",
                                "SET 'parallelism.default' = '1';"});
  EXPECT_EQ(session.out,
            std::string(kWelcome) + "[INFO] Execute statement succeeded.\n\nGoodbye!\n");
  EXPECT_EQ(session.err,
            "[ERROR] Could not execute SQL statement. Reason:\n"
            "SQL validation failed. From line 1, column 15: Object 'missing' not found\n"
            "[ERROR] Could not execute SQL statement. Reason:\n"
            "Could not parse value '0' for key 'parallelism.default': expected an integer of at "
            "least 1.\n");
}

TEST(InteractiveSqlClientTest, CtrlCDiscardsTheStatementBeingTyped) {
  Session session = runSession({"SELECT 'dropped'", "<Ctrl-C>", "SELECT 'kept' AS s;"});
  EXPECT_EQ(session.out, std::string(kWelcome) +
                             "\n+------+\n|    s |\n+------+\n| kept |\n+------+\n1 row in set\n"
                             "\nGoodbye!\n");
  EXPECT_EQ(session.prompts, "eddy SQL>         > eddy SQL> eddy SQL> ");
  EXPECT_EQ(session.history, std::vector<std::string>{"SELECT 'kept' AS s;"});
}

TEST(InteractiveSqlClientTest, HelpListsTheCommandsAndExitQuits) {
  Session session = runSession({"HELP;", "EXIT;"});
  EXPECT_EQ(session.out.rfind(std::string(kWelcome) + "The following commands are available:\n", 0),
            0u)
      << session.out;
  EXPECT_NE(session.out.find("QUIT/EXIT\tQuits the SQL client (so does Ctrl-D).\n"),
            std::string::npos);
  EXPECT_TRUE(session.out.ends_with("docs/configuration.md.\nGoodbye!\n")) << session.out;
}

TEST(InteractiveSqlClientTest, TableModeAppliesTheChangelogAndKeepsTheNewestRows) {
  // +I Bob 1, +I Alice 1, +I Greg 1 (Bob 1 dropped: two rows at most), -U Bob 1 (gone
  // already), +U Bob 2 (Alice 1 dropped).
  Session session = runSession(
      {"SET 'execution.runtime-mode' = 'streaming';", "SET 'parallelism.default' = '1';",
       "SET 'sql-client.execution.result-mode' = 'table';",
       "SET 'sql-client.execution.max-table-result.rows' = '2';",
       "SELECT name, COUNT(*) AS cnt FROM (VALUES ('Bob'), ('Alice'), ('Greg'), ('Bob')) "
       "AS t(name) GROUP BY name;"});
  EXPECT_EQ(session.out, std::string(kWelcome) +
                             "[INFO] Execute statement succeeded.\n"
                             "[INFO] Execute statement succeeded.\n"
                             "[INFO] Execute statement succeeded.\n"
                             "[INFO] Execute statement succeeded.\n"
                             "SQL Query Result (Table)\n"
                             "+------+-----+\n| name | cnt |\n+------+-----+\n"
                             "| Greg |   1 |\n|  Bob |   2 |\n+------+-----+\n"
                             "2 rows in set\nTable program finished.\n\nGoodbye!\n");
  EXPECT_EQ(session.err, "");
}

TEST(InteractiveSqlClientTest, ChangelogModeShowsTheOpOfBatchRowsToo) {
  Session session = runSession({"SET 'sql-client.execution.result-mode' = 'changelog';",
                                "SELECT * FROM (VALUES (1), (2)) AS t(n);"});
  EXPECT_EQ(session.out, std::string(kWelcome) +
                             "[INFO] Execute statement succeeded.\n"
                             "SQL Query Result (Changelog)\n"
                             "+----+-------------+\n| op |           n |\n+----+-------------+\n"
                             "| +I |           1 |\n| +I |           2 |\n+----+-------------+\n"
                             "Received a total of 2 rows\n\nGoodbye!\n");
}

// As Flink's client: each statement of a statement set is checked as it is typed; a SELECT, a
// CREATE or a nested BEGIN fails and the set keeps its INSERTs; END runs them; an empty set
// succeeds.
TEST(InteractiveSqlClientTest, AStatementSetChecksEachStatementAsItIsEntered) {
  Session session = runSession(
      {"CREATE TABLE sink (x INT) WITH ('connector' = 'blackhole');", "BEGIN STATEMENT SET;",
       "INSERT INTO sink VALUES (1);", "SELECT 1;", "CREATE TABLE t2 (y INT);",
       "BEGIN STATEMENT SET;", "INSERT INTO missing VALUES (3);", "INSERT INTO sink",
       "  VALUES (2);", "END ;", "-- an empty set", "begin statement set;", "END;"});
  const std::string kOnlyInserts =
      "[ERROR] Could not execute SQL statement. Reason:\n"
      "Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' "
      "statement to submit Statement Set.\n";
  EXPECT_EQ(session.out, std::string(kWelcome) +
                             "[INFO] Execute statement succeeded.\n"
                             "[INFO] Begin a statement set.\n"
                             "[INFO] Add SQL update statement to the statement set.\n"
                             "[INFO] Add SQL update statement to the statement set.\n"
                             "[INFO] Complete execution of the SQL update statement.\n"
                             "[INFO] Begin a statement set.\n"
                             "[INFO] Execute statement succeeded.\n"
                             "\nGoodbye!\n");
  EXPECT_EQ(session.err, kOnlyInserts + kOnlyInserts + kOnlyInserts +
                             "[ERROR] Could not execute SQL statement. Reason:\n"
                             "Table (or view) 'default_catalog.default_database.missing' does "
                             "not exist.\n");
  // The CREATE inside the set did not run.
  EXPECT_EQ(session.history.size(), 11u);
}

// EXECUTE of a query shows its rows; SHOW CREATE TABLE prints its text whole, whatever
// sql-client.display.max-column-width says.
TEST(InteractiveSqlClientTest, ExecuteSelectShowsRowsAndShowCreateIsNotCut) {
  Session session = runSession(
      {"EXECUTE SELECT 'a_value_longer_than_thirty_characters' AS v;",
       "CREATE TABLE a_table_with_a_rather_long_name (x INT) WITH ('connector' = 'blackhole');",
       "SHOW CREATE TABLE a_table_with_a_rather_long_name;", "SHOW TABLES;"});
  EXPECT_EQ(session.out,
            std::string(kWelcome) +
                "+--------------------------------+\n"
                "|                              v |\n"
                "+--------------------------------+\n"
                "| a_value_longer_than_thirty_... |\n"
                "+--------------------------------+\n"
                "1 row in set\n"
                "[INFO] Execute statement succeeded.\n"
                "CREATE TABLE `default_catalog`.`default_database`.`a_table_with_a_rather_long_name` (\n"
                "  `x` INT\n"
                ")\n"
                "WITH (\n"
                "  'connector' = 'blackhole'\n"
                ")\n"
                "+---------------------------------+\n"
                "|                      table name |\n"
                "+---------------------------------+\n"
                "| a_table_with_a_rather_long_name |\n"
                "+---------------------------------+\n"
                "1 row in set\n"
                "\nGoodbye!\n");
  EXPECT_EQ(session.err, "");
}

}  // namespace
}  // namespace eddy::client
