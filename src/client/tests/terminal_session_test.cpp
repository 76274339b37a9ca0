// The interactive client as a user meets it: the `eddy sql` binary on a pseudo-terminal, driven
// by keystrokes (libedit line editing, the up arrow recalling history, Ctrl-D quitting, Ctrl-C
// and Q cancelling a query), its screen read back; and `eddy sql -f` with stderr on one (the
// progress line). Each expectation waits for text to appear, at most 60 seconds (a loaded CI
// machine can be slow; a passing wait returns as soon as the text is there).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace eddy::client {
namespace {

/// One `eddy sql` process on a pseudo-terminal, with HOME in a scratch folder (so the history
/// file is the test's own).
class TerminalSession {
 public:
  /// Runs `eddy sql` with `arguments`; with a `stdoutFile`, stdout goes there instead of the
  /// terminal.
  explicit TerminalSession(const std::filesystem::path& home,
                           std::vector<std::string> arguments = {},
                           const std::filesystem::path& stdoutFile = {}) {
    arguments.insert(arguments.begin(), {"eddy", "sql"});
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    winsize size = {};
    size.ws_row = 40;
    size.ws_col = 100;
    pid_ = forkpty(&terminal_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      setenv("HOME", home.c_str(), 1);
      setenv("TERM", "xterm", 1);
      if (!stdoutFile.empty()) {
        int output = open(stdoutFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (output < 0 || dup2(output, STDOUT_FILENO) < 0) _exit(126);
      }
      execv(EDDY_BINARY, argv.data());
      _exit(127);
    }
  }
  ~TerminalSession() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (terminal_ >= 0) close(terminal_);
  }

  bool started() const { return pid_ > 0; }

  /// Types `keys` once the client waits for them: libedit switches the terminal into raw
  /// mode after it printed the prompt, and a switch that flushes input drops keys typed before
  /// it (a busy machine shows it), so the keys go after a short pause.
  void type(const std::string& keys) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ASSERT_EQ(write(terminal_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
  }

  /// Waits until `text` appears on the screen after what earlier waits consumed; returns
  /// whether it did. Carriage returns are dropped (the terminal ends lines with "\r\n").
  bool waitFor(const std::string& text) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (true) {
      size_t found = screen_.find(text, consumed_);
      if (found != std::string::npos) {
        consumed_ = found + text.size();
        return true;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      pollfd descriptor{terminal_, POLLIN, 0};
      if (poll(&descriptor, 1, static_cast<int>(left.count())) <= 0) continue;
      char buffer[4096];
      ssize_t length = read(terminal_, buffer, sizeof(buffer));
      if (length <= 0) return screen_.find(text, consumed_) != std::string::npos;
      for (ssize_t i = 0; i < length; ++i) {
        if (buffer[i] != '\r') screen_ += buffer[i];
      }
    }
  }

  /// Reads what is left on the screen once the process has ended.
  void readToEnd() {
    char buffer[4096];
    while (true) {
      pollfd descriptor{terminal_, POLLIN, 0};
      if (poll(&descriptor, 1, 1000) <= 0) return;
      ssize_t length = read(terminal_, buffer, sizeof(buffer));
      if (length <= 0) return;
      for (ssize_t i = 0; i < length; ++i) {
        if (buffer[i] != '\r') screen_ += buffer[i];
      }
    }
  }

  /// Waits for the process to end; its exit status.
  int exitStatus() {
    int status = 0;
    waitpid(pid_, &status, 0);
    exited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  const std::string& screen() const { return screen_; }

 private:
  int terminal_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
  std::string screen_;
  size_t consumed_ = 0;
};

class TerminalSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = std::filesystem::temp_directory_path() /
            ("eddy_terminal_test_" + std::to_string(getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(home_);
  }
  void TearDown() override { std::filesystem::remove_all(home_); }

  std::filesystem::path home_;
};

TEST_F(TerminalSessionTest, AMultiLineQueryHistoryRecallAndCtrlD) {
  TerminalSession session(home_);
  ASSERT_TRUE(session.started());
  ASSERT_TRUE(session.waitFor("eddy SQL> ")) << session.screen();
  session.type("SET 'execution.runtime-mode' = 'batch';\r");
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type("SELECT 40 +\r");
  ASSERT_TRUE(session.waitFor("        > ")) << session.screen();
  session.type("2 AS answer;\r");
  ASSERT_TRUE(
      session.waitFor("+--------+\n| answer |\n+--------+\n|     42 |\n+--------+\n"
                      "1 row in set\neddy SQL> "))
      << session.screen();
  // The up arrow recalls the last statement, as one line; Enter runs it again.
  session.type("\x1b[A");
  ASSERT_TRUE(session.waitFor("SELECT 40 + 2 AS answer;")) << session.screen();
  session.type("\r");
  ASSERT_TRUE(session.waitFor("|     42 |\n+--------+\n1 row in set\neddy SQL> "))
      << session.screen();
  session.type("\x04");  // Ctrl-D on an empty line
  ASSERT_TRUE(session.waitFor("Goodbye!\n")) << session.screen();
  EXPECT_EQ(session.exitStatus(), 0);
  std::ifstream history(home_ / ".eddy_sql_history");
  std::stringstream entries;
  entries << history.rdbuf();
  // libedit's file encodes blanks (as \040): look for the statements' words.
  EXPECT_NE(entries.str().find("'execution.runtime-mode'"), std::string::npos) << entries.str();
  EXPECT_NE(entries.str().find("answer;"), std::string::npos) << entries.str();
}

TEST_F(TerminalSessionTest, SetResetAndAnErrorThatKeepsTheSession) {
  TerminalSession session(home_);
  ASSERT_TRUE(session.waitFor("eddy SQL> ")) << session.screen();
  session.type("SET 'pipeline.name' = 'orders';\r");
  ASSERT_TRUE(
      session.waitFor("[WARNING] Option 'pipeline.name' is known but not honoured by "
                      "eddy yet (eddy does not read it yet); it has no effect.\n"))
      << session.screen();
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type("SET;\r");
  ASSERT_TRUE(
      session.waitFor("|           key |  value |\n+---------------+--------+\n"
                      "| pipeline.name | orders |\n+---------------+--------+\n"
                      "1 row in set\neddy SQL> "))
      << session.screen();
  session.type("RESET;\r");
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type("SELECT 'typed, then dropped'");
  ASSERT_TRUE(session.waitFor("dropped'")) << session.screen();
  session.type("\x03");  // Ctrl-C at the prompt: the line is dropped, the client stays
  ASSERT_TRUE(session.waitFor("eddy SQL> ")) << session.screen();
  session.type("SELECT * FROM nowhere;\r");
  ASSERT_TRUE(
      session.waitFor("[ERROR] Could not execute SQL statement. Reason:\n"
                      "SQL validation failed. From line 1, column 15: Object 'nowhere' "
                      "not found\n"))
      << session.screen();
  ASSERT_TRUE(session.waitFor("eddy SQL> ")) << session.screen();
  session.type("HELP;\r");
  ASSERT_TRUE(session.waitFor("The following commands are available:")) << session.screen();
  ASSERT_TRUE(session.waitFor("docs/configuration.md.\neddy SQL> ")) << session.screen();
  session.type("quit;\r");
  ASSERT_TRUE(session.waitFor("Goodbye!\n")) << session.screen();
  EXPECT_EQ(session.exitStatus(), 0);
}

// An unbounded datagen table: one row every 200 ms, ids 1, 2, 3, ...
constexpr const char* kTicksTable =
    "CREATE TABLE ticks (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5', "
    "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000000000');\r";

TEST_F(TerminalSessionTest, CtrlCCancelsAStreamingQueryAndTheClientGoesOn) {
  TerminalSession session(home_);
  ASSERT_TRUE(session.waitFor("eddy SQL> ")) << session.screen();
  session.type("SET 'parallelism.default' = '1';\r");
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type(kTicksTable);
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type("SELECT id FROM ticks;\r");
  ASSERT_TRUE(
      session.waitFor("+----+----------------------+\n| op |                   id |\n"
                      "+----+----------------------+\n| +I |                    1 |\n"
                      "| +I |                    2 |\n"))
      << session.screen();
  session.type("\x03");
  ASSERT_TRUE(session.waitFor("Query terminated, received a total of ")) << session.screen();
  ASSERT_TRUE(session.waitFor(" rows\neddy SQL> ")) << session.screen();
  session.type("SELECT 'still here' AS answer;\r");
  ASSERT_TRUE(
      session.waitFor("| +I |                     still here |\n"
                      "+----+--------------------------------+\n"
                      "Received a total of 1 row\neddy SQL> "))
      << session.screen();
  // A query that never produces a row is cancelled too (the wait for rows wakes up); "0 row"
  // as Flink words it.
  session.type("SELECT id FROM ticks WHERE id < 0;\r");
  ASSERT_TRUE(session.waitFor("| op |                   id |\n+----+----------------------+\n"))
      << session.screen();
  session.type("\x03");
  ASSERT_TRUE(session.waitFor("Query terminated, received a total of 0 row\neddy SQL> "))
      << session.screen();
  session.type("\x04");
  ASSERT_TRUE(session.waitFor("Goodbye!\n")) << session.screen();
  EXPECT_EQ(session.exitStatus(), 0);
}

TEST_F(TerminalSessionTest, CtrlCCancelsAnInsertAndTheClientGoesOn) {
  TerminalSession session(home_);
  ASSERT_TRUE(session.waitFor("eddy SQL> ")) << session.screen();
  session.type("SET 'parallelism.default' = '1';\r");
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type(kTicksTable);
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type("CREATE TABLE out (id BIGINT) WITH ('connector' = 'print');\r");
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  // An unbounded INSERT runs until Ctrl-C stops its job; the client stays.
  session.type("INSERT INTO out SELECT id FROM ticks;\r");
  ASSERT_TRUE(session.waitFor("+I[2]\n")) << session.screen();
  session.type("\x03");
  ASSERT_TRUE(session.waitFor("[INFO] Execution of the SQL update statement cancelled.\neddy SQL> "))
      << session.screen();
  session.type("SELECT 'still here' AS answer;\r");
  ASSERT_TRUE(session.waitFor("Received a total of 1 row\neddy SQL> ")) << session.screen();
  session.type("\x04");
  ASSERT_TRUE(session.waitFor("Goodbye!\n")) << session.screen();
  EXPECT_EQ(session.exitStatus(), 0);
}

TEST_F(TerminalSessionTest, TableModeRedrawsTheMaterializedResultInPlace) {
  TerminalSession session(home_);
  ASSERT_TRUE(session.waitFor("eddy SQL> ")) << session.screen();
  session.type("SET 'parallelism.default' = '1';\r");
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  // Six rows, 200 ms apart: the counts per parity update in place (-U/+U) as they come.
  session.type(
      "CREATE TABLE six (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '6', "
      "'rows-per-second' = '5', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
      "'fields.id.end' = '6');\r");
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type("SET 'sql-client.execution.result-mode' = 'table';\r");
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type("SELECT MOD(id, 2) AS parity, COUNT(*) AS cnt FROM six GROUP BY MOD(id, 2);\r");
  ASSERT_TRUE(
      session.waitFor("SQL Query Result (Table)\nEmpty set\n"
                      "Waiting for changes. Press Q or Ctrl-C to stop.\n"))
      << session.screen();
  // A later drawing, while rows still come, moves the cursor up over the previous one and
  // erases it.
  ASSERT_TRUE(session.waitFor("A\x1b[J+--------+-----+\n")) << session.screen();
  ASSERT_TRUE(session.waitFor(" changes received. Press Q or Ctrl-C to stop.\n"))
      << session.screen();
  // The last drawing: the changelog applied (the row of parity 1 retracted and re-added last).
  ASSERT_TRUE(
      session.waitFor("A\x1b[J+--------+-----+\n"
                      "| parity | cnt |\n"
                      "+--------+-----+\n"
                      "|      1 |   3 |\n"
                      "|      0 |   3 |\n"
                      "+--------+-----+\n"
                      "2 rows in set\nTable program finished.\neddy SQL> "))
      << session.screen();
  session.type("\x04");
  ASSERT_TRUE(session.waitFor("Goodbye!\n")) << session.screen();
  EXPECT_EQ(session.exitStatus(), 0);
}

TEST_F(TerminalSessionTest, ChangelogModeShowsRetractionsAndQLeavesIt) {
  TerminalSession session(home_);
  ASSERT_TRUE(session.waitFor("eddy SQL> ")) << session.screen();
  session.type("SET 'parallelism.default' = '1';\r");
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type("SET 'sql-client.execution.result-mode' = 'changelog';\r");
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type(
      "SELECT name, COUNT(*) AS cnt FROM (VALUES ('Bob'), ('Alice'), ('Greg'), ('Bob')) "
      "AS t(name) GROUP BY name;\r");
  ASSERT_TRUE(
      session.waitFor("SQL Query Result (Changelog)\n"
                      "+----+--------------------------------+----------------------+\n"
                      "| op |                           name |                  cnt |\n"
                      "+----+--------------------------------+----------------------+\n"
                      "| +I |                            Bob |                    1 |\n"
                      "| +I |                          Alice |                    1 |\n"
                      "| +I |                           Greg |                    1 |\n"
                      "| -U |                            Bob |                    1 |\n"
                      "| +U |                            Bob |                    2 |\n"
                      "+----+--------------------------------+----------------------+\n"
                      "Received a total of 5 rows\neddy SQL> "))
      << session.screen();
  // Q leaves the view of an unbounded query (and cancels it); the client goes on.
  session.type(kTicksTable);
  ASSERT_TRUE(session.waitFor("[INFO] Execute statement succeeded.\neddy SQL> "))
      << session.screen();
  session.type("SELECT id FROM ticks;\r");
  ASSERT_TRUE(session.waitFor("| +I |                    1 |\n")) << session.screen();
  session.type("q");
  // The view ends without a closing border (the last row's line, then the message); matched
  // whole on the screen, as the last waitFor may have consumed that row's line already.
  ASSERT_TRUE(session.waitFor("[INFO] Result retrieval cancelled.\neddy SQL> "))
      << session.screen();
  EXPECT_NE(session.screen().find("|\n[INFO] Result retrieval cancelled.\neddy SQL> "),
            std::string::npos)
      << session.screen();
  session.type("quit;\r");
  ASSERT_TRUE(session.waitFor("Goodbye!\n")) << session.screen();
  EXPECT_EQ(session.exitStatus(), 0);
}

// `eddy sql -f` with stderr on a terminal and stdout in a file: a progress line on stderr
// while the two-second query runs, erased at the end; stdout holds only the result.
TEST_F(TerminalSessionTest, AScriptShowsAProgressLineOnStderr) {
  std::filesystem::path script = home_ / "slow.sql";
  std::ofstream(script) << "SET 'parallelism.default' = '1';\n"
                           "CREATE TABLE eight (id BIGINT) WITH ('connector' = 'datagen', "
                           "'number-of-rows' = '8', 'rows-per-second' = '4', "
                           "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                           "'fields.id.end' = '8');\n"
                           "SELECT id FROM eight;\n";
  std::filesystem::path output = home_ / "stdout.txt";
  TerminalSession session(home_, {"-f", script.string()}, output);
  // The sources' rows are counted; a table without a watermark leaves it unknown.
  ASSERT_TRUE(session.waitFor("\x1b[K[RUNNING] 1 s elapsed, rows read ")) << session.screen();
  ASSERT_TRUE(session.waitFor(", watermark -")) << session.screen();
  EXPECT_EQ(session.exitStatus(), 0);
  session.readToEnd();
  // Nothing follows the last erase: the terminal is left clean.
  std::string screen = session.screen();
  EXPECT_EQ(screen.substr(screen.size() - 3), "\x1b[K") << screen;
  EXPECT_EQ(screen.find("[INFO]"), std::string::npos) << screen;
  std::ifstream printed(output);
  std::stringstream text;
  text << printed.rdbuf();
  std::string expected =
      "[INFO] Execute statement succeeded.\n[INFO] Execute statement succeeded.\n"
      "+----+----------------------+\n| op |                   id |\n"
      "+----+----------------------+\n";
  for (int id = 1; id <= 8; ++id) {
    expected += "| +I |                    " + std::to_string(id) + " |\n";
  }
  expected += "+----+----------------------+\nReceived a total of 8 rows\n";
  EXPECT_EQ(text.str(), expected);
}

// An INSERT's progress line counts the rows its sink received and shows the sink's watermark.
TEST_F(TerminalSessionTest, AnInsertsProgressLineShowsRowsWrittenAndTheWatermark) {
  std::filesystem::path script = home_ / "insert.sql";
  std::ofstream(script) << "SET 'parallelism.default' = '1';\n"
                           "CREATE TABLE eight (id BIGINT, ts AS TIMESTAMPADD(SECOND, "
                           "CAST(id AS INT), TIMESTAMP '2026-01-01 00:00:00'), "
                           "WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', "
                           "'number-of-rows' = '8', 'rows-per-second' = '4', "
                           "'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                           "'fields.id.end' = '8');\n"
                           "CREATE TABLE sink (id BIGINT) WITH ('connector' = 'blackhole');\n"
                           "INSERT INTO sink SELECT id FROM eight;\n";
  std::filesystem::path output = home_ / "stdout.txt";
  TerminalSession session(home_, {"-f", script.string()}, output);
  ASSERT_TRUE(session.waitFor("\x1b[K[RUNNING] 1 s elapsed, rows read ")) << session.screen();
  ASSERT_TRUE(session.waitFor(", watermark 2026-01-01T00:00:0")) << session.screen();
  EXPECT_EQ(session.exitStatus(), 0);
  session.readToEnd();
  // Every line shows a number of rows written (not "-").
  std::string screen = session.screen();
  EXPECT_EQ(screen.find("rows written -"), std::string::npos) << screen;
  std::ifstream printed(output);
  std::stringstream text;
  text << printed.rdbuf();
  EXPECT_EQ(text.str(),
            "[INFO] Execute statement succeeded.\n[INFO] Execute statement succeeded.\n"
            "[INFO] Execute statement succeeded.\n"
            "[INFO] Complete execution of the SQL update statement.\n");
}

}  // namespace
}  // namespace eddy::client
