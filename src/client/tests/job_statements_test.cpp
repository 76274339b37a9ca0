// The SQL client's job statements (Flink 1.17+): with `table.dml-sync` = 'false' an INSERT is
// submitted detached (Flink's "[INFO] SQL update statement has been successfully submitted to
// the cluster:" and "Job ID: .."); SHOW JOBS lists the session's jobs with Flink's columns;
// STOP JOB '<id>' WITH SAVEPOINT prints the savepoint's path in Flink's table and the job ends
// FINISHED; a job restored from that savepoint is stopped without one; the errors (no such job,
// a malformed id, a job that has ended, no savepoint directory, WITH DRAIN alone) are exact.
// Unset, `table.dml-sync` keeps the client waiting for an INSERT, as eddy's scripts always did.
// Statements are run one call at a time through one runner (as the interactive client runs
// them), so that the job id the client printed can be used in the next statement.
#include "client/sql_script_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace eddy::client {
namespace {

namespace fs = std::filesystem;

/// One client session: statements run one call at a time, each call's output apart.
class Session {
 public:
  Session()
      : environment_(TableEnvironment::create(EnvironmentSettings::inStreamingMode())),
        runner_(*environment_, out_, err_) {}

  /// Runs `statements`; `out` and `err` are what this call printed.
  bool run(const std::string& statements) {
    out_.str("");
    err_.str("");
    bool ok = runner_.run(statements, "");
    out = out_.str();
    err = err_.str();
    return ok;
  }
  bool awaitDetachedJobs() {
    out_.str("");
    err_.str("");
    bool ok = runner_.awaitDetachedJobs();
    out = out_.str();
    err = err_.str();
    return ok;
  }

  std::string out;
  std::string err;

 private:
  std::ostringstream out_, err_;
  std::unique_ptr<TableEnvironment> environment_;
  SqlScriptRunner runner_;
};

/// The job id in the client's "Job ID: .." line, or "".
std::string submittedJobId(const std::string& out) {
  std::smatch match;
  static const std::regex kJobId("Job ID: ([0-9a-f]{32})\n");
  return std::regex_search(out, match, kJobId) ? match[1].str() : "";
}

/// SHOW JOBS's table for the given (id pattern, status) rows of the INSERT job
/// `insert-into_default_catalog.default_database.sink`: Flink's
/// columns, the start time (TIMESTAMP_LTZ(3), UTC) matched as a pattern.
std::regex showJobsTable(const std::vector<std::pair<std::string, std::string>>& jobs) {
  size_t statusWidth = 6;
  for (const auto& job : jobs) statusWidth = std::max(statusWidth, job.second.size());
  const std::string border =
      "\\+-{34}\\+-{51}\\+-{" + std::to_string(statusWidth + 2) + "}\\+-{25}\\+\n";
  std::string pattern = border + "\\| {27}job id \\| {42}job name \\| " +
                        std::string(statusWidth - 6, ' ') + "status \\| {14}start time \\|\n" +
                        border;
  for (const auto& [id, status] : jobs) {
    pattern += "\\| " + id + " \\| insert-into_default_catalog\\.default_database\\.sink \\| " +
               std::string(statusWidth - status.size(), ' ') + status +
               " \\| \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\|\n";
  }
  pattern += border + std::to_string(jobs.size()) + (jobs.size() == 1 ? " row" : " rows") +
             " in set\n";
  return std::regex(pattern);
}

class JobStatementsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("eddy-job-statements-test-" + std::to_string(device()));
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  /// Creates the unbounded source and the sink; with `detached`, INSERTs do not wait.
  void createTables(Session& session, bool detached) {
    ASSERT_TRUE(session.run(std::string(detached ? "SET 'table.dml-sync' = 'false';\n" : "") +
                            "SET 'parallelism.default' = '1';\n"
                            "CREATE TABLE numbers (n BIGINT) WITH ('connector' = 'datagen', "
                            "'rows-per-second' = '200');\n"
                            "CREATE TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');\n"))
        << session.err;
  }

  fs::path root_;
};

TEST_F(JobStatementsTest, ShowJobsAndStopJobWithSavepointOfADetachedInsert) {
  Session session;
  ASSERT_TRUE(session.run("SHOW JOBS;"));
  EXPECT_EQ(session.out, "Empty set\n");
  createTables(session, true);
  const fs::path savepoints = root_ / "savepoints";
  ASSERT_TRUE(session.run("SET 'execution.checkpointing.savepoint-dir' = '" + savepoints.string() +
                          "';"));

  ASSERT_TRUE(session.run("INSERT INTO sink SELECT n FROM numbers;")) << session.err;
  const std::string id = submittedJobId(session.out);
  ASSERT_EQ(session.out,
            "[INFO] Submitting SQL update statement to the cluster...\n"
            "[INFO] SQL update statement has been successfully submitted to the cluster:\n"
            "Job ID: " + id + "\n");
  ASSERT_EQ(id.size(), 32u);

  ASSERT_TRUE(session.run("SHOW JOBS;"));
  EXPECT_TRUE(std::regex_match(session.out, showJobsTable({{id, "RUNNING"}}))) << session.out;

  ASSERT_TRUE(session.run("STOP JOB '" + id + "' WITH SAVEPOINT;")) << session.err;
  std::smatch match;
  ASSERT_TRUE(std::regex_match(
      session.out, match,
      std::regex("\\+-+\\+\n\\| +savepoint path \\|\n\\+-+\\+\n\\| (.+) \\|\n\\+-+\\+\n1 row in "
                 "set\n")))
      << session.out;
  const fs::path savepoint = match[1].str();
  EXPECT_EQ(savepoint.parent_path(), savepoints);
  EXPECT_TRUE(std::regex_match(savepoint.filename().string(),
                               std::regex("savepoint-" + id.substr(0, 6) + "-[0-9a-f]{12}")));
  EXPECT_TRUE(fs::exists(savepoint / "_metadata"));

  ASSERT_TRUE(session.run("SHOW JOBS;"));
  EXPECT_TRUE(std::regex_match(session.out, showJobsTable({{id, "FINISHED"}}))) << session.out;
  EXPECT_FALSE(session.run("STOP JOB '" + id + "';"));
  EXPECT_EQ(session.err, "[ERROR] Could not execute SQL statement. Reason:\nFlink job (" + id +
                             ") was not canceled, but instead FINISHED.\n");

  // The same INSERT restored from the savepoint, then stopped without one.
  ASSERT_TRUE(session.run("SET 'execution.state-recovery.path' = '" + savepoint.string() +
                          "';\nINSERT INTO sink SELECT n FROM numbers;"))
      << session.err;
  const std::string restored = submittedJobId(session.out);
  ASSERT_EQ(restored.size(), 32u) << session.out;
  EXPECT_NE(restored, id);
  ASSERT_TRUE(session.run("STOP JOB '" + restored + "';")) << session.err;
  EXPECT_EQ(session.out, "[INFO] Execute statement succeeded.\n");
  ASSERT_TRUE(session.run("SHOW JOBS;"));
  EXPECT_TRUE(std::regex_match(session.out,
                               showJobsTable({{id, "FINISHED"}, {restored, "CANCELED"}})))
      << session.out;
  EXPECT_TRUE(session.awaitDetachedJobs());
  EXPECT_EQ(session.out, "");  // nothing runs any more
}

TEST_F(JobStatementsTest, StopJobErrorsAreFlinks) {
  Session session;
  createTables(session, true);
  EXPECT_FALSE(session.run("STOP JOB 'myjob';"));
  EXPECT_EQ(session.err,
            "[ERROR] Could not execute SQL statement. Reason:\nCannot parse JobID from "
            "\"myjob\".\n");
  EXPECT_FALSE(session.run("STOP JOB '00000000000000000000000000000000' WITH SAVEPOINT;"));
  EXPECT_EQ(session.err,
            "[ERROR] Could not execute SQL statement. Reason:\nCould not find Flink job "
            "(00000000000000000000000000000000)\n");
  EXPECT_FALSE(session.run("STOP JOB '00000000000000000000000000000000' WITH DRAIN;"));
  EXPECT_EQ(session.err,
            "[ERROR] Could not parse the statement at line 1, column 45:\nSQL parse failed. From "
            "line 1, column 45 to line 1, column 54: WITH DRAIN could only be used after WITH "
            "SAVEPOINT.\n");

  // No savepoint directory in the session nor the job: Flink's message, and the job goes on.
  ASSERT_TRUE(session.run("INSERT INTO sink SELECT n FROM numbers;")) << session.err;
  const std::string id = submittedJobId(session.out);
  ASSERT_EQ(id.size(), 32u) << session.out;
  EXPECT_FALSE(session.run("STOP JOB '" + id + "' WITH SAVEPOINT WITH DRAIN;"));
  EXPECT_EQ(session.err,
            "[ERROR] Could not execute SQL statement. Reason:\nNo savepoint directory "
            "configured. You can either specify a directory while cancelling via -s "
            ":targetDirectory or configure a cluster-wide default via key "
            "'execution.checkpointing.savepoint-dir'.\n");
  ASSERT_TRUE(session.run("SHOW JOBS;"));
  EXPECT_TRUE(std::regex_match(session.out, showJobsTable({{id, "RUNNING"}}))) << session.out;
  // Another id of the right form: not this session's.
  const std::string other = id.substr(0, 16) + (id.substr(16) == std::string(16, '0')
                                                    ? std::string(16, '1')
                                                    : std::string(16, '0'));
  EXPECT_FALSE(session.run("STOP JOB '" + other + "';"));
  EXPECT_EQ(session.err, "[ERROR] Could not execute SQL statement. Reason:\nCould not find Flink "
                         "job (" + other + ")\n");
  // Upper-case hex digits name the same job, as Flink's JobID.fromHexString reads them.
  std::string upper = id;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ASSERT_TRUE(session.run("STOP JOB '" + upper + "';")) << session.err;
  EXPECT_EQ(session.out, "[INFO] Execute statement succeeded.\n");
}

TEST_F(JobStatementsTest, UnsetDmlSyncKeepsTheClientWaitingForAnInsert) {
  Session session;
  ASSERT_TRUE(session.run("SET 'parallelism.default' = '1';\n"
                          "CREATE TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');\n"
                          "INSERT INTO sink VALUES (1), (2);"))
      << session.err;
  EXPECT_EQ(session.out,
            "[INFO] Execute statement succeeded.\n"
            "[INFO] Execute statement succeeded.\n"
            "[INFO] Complete execution of the SQL update statement.\n");
  ASSERT_TRUE(session.run("SHOW JOBS;"));
  EXPECT_TRUE(std::regex_match(session.out, showJobsTable({{"[0-9a-f]{32}", "FINISHED"}})))
      << session.out;
}

TEST_F(JobStatementsTest, AScriptWaitsForTheDetachedJobsItLeavesRunning) {
  Session session;
  ASSERT_TRUE(session.run("SET 'table.dml-sync' = 'false';\n"
                          "SET 'parallelism.default' = '1';\n"
                          "CREATE TABLE few (n BIGINT) WITH ('connector' = 'datagen', "
                          "'rows-per-second' = '20', 'number-of-rows' = '10');\n"
                          "CREATE TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');\n"
                          "INSERT INTO sink SELECT n FROM few;"))
      << session.err;
  const std::string id = submittedJobId(session.out);
  ASSERT_EQ(id.size(), 32u) << session.out;
  EXPECT_TRUE(session.awaitDetachedJobs()) << session.err;
  // The job (half a second of rows) had not ended yet, or just had: said only when waited for.
  EXPECT_TRUE(session.out.empty() ||
              session.out == "[INFO] Waiting for job " + id +
                                 " to end: eddy runs the jobs of its SQL client in this process.\n")
      << session.out;
  ASSERT_TRUE(session.run("SHOW JOBS;"));
  EXPECT_TRUE(std::regex_match(session.out, showJobsTable({{id, "FINISHED"}}))) << session.out;
}

}  // namespace
}  // namespace eddy::client
