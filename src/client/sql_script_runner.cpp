#include "client/sql_script_runner.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <optional>

#include "client/progress_line.h"
#include "client/query_interruption.h"
#include "client/query_result_view.h"
#include "config/environment_variables.h"
#include "config/option_value.h"
#include "config/option_warnings.h"
#include "eddy/datastream/execution_environment.h"
#include "eddy/exceptions.h"
#include "sql/parser/parser.h"

namespace eddy::client {

namespace {

// Flink's SQL client refuses the same (CliClient, non-interactive execution).
constexpr const char* kOnlyTableauInScripts =
    "In non-interactive mode, it only supports to use TABLEAU as value of "
    "sql-client.execution.result-mode when execute query. Please add "
    "\"SET 'sql-client.execution.result-mode' = 'tableau';\" to the SQL file.";

/// "1 time", "3 times".
std::string times(int64_t count) {
  return std::to_string(count) + (count == 1 ? " time" : " times");
}

/// How the client shows a statement's result, by the kind of statement whose output it is:
/// CREATE / REPLACE TABLE .. AS SELECT runs its INSERT as a job and is reported as one;
/// EXECUTE shows what its statement shows (a query's rows, an INSERT's job); an empty
/// statement set is a statement that succeeded; SHOW CREATE
/// TABLE / VIEW print their text raw, as EXPLAIN does.
sql::StatementKind shownAs(const sql::Statement& statement) {
  switch (statement.kind) {
    case sql::StatementKind::kCreateTable:
      return statement.as<sql::CreateTableStatement>().asQuery != nullptr
                 ? sql::StatementKind::kInsert
                 : statement.kind;
    case sql::StatementKind::kExecute:
      return shownAs(*statement.as<sql::ExecuteStatement>().statement);
    case sql::StatementKind::kStatementSet:
      // An empty set runs no job: reported as a statement that succeeded (kDrop's report).
      return statement.as<sql::StatementSetStatement>().statements.empty()
                 ? sql::StatementKind::kDrop
                 : statement.kind;
    case sql::StatementKind::kShow: {
      sql::ShowKind show = statement.as<sql::ShowStatement>().showKind;
      return show == sql::ShowKind::kCreateTable || show == sql::ShowKind::kCreateView
                 ? sql::StatementKind::kExplain
                 : statement.kind;
    }
    default:
      return statement.kind;
  }
}

}  // namespace

SqlScriptRunner::SqlScriptRunner(TableEnvironment& environment, std::ostream& out,
                                 std::ostream& err, ScriptRunnerSettings settings)
    : environment_(environment), out_(out), err_(err), settings_(settings) {}

void SqlScriptRunner::showQuery(TableResult& result) {
  ResultViewSettings view = resultViewSettingsOf(environment_.getConfig());
  if (settings_.terminalOutput >= 0) {
    view.terminal = true;  // of the default size when it does not tell its own
    winsize size = {};
    if (ioctl(settings_.terminalOutput, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 &&
        size.ws_col > 0) {
      view.terminalRows = size.ws_row;
      view.terminalColumns = size.ws_col;
    }
  }
  std::optional<ProgressLine> progress;
  if (settings_.showProgress) view.progress = &progress.emplace(STDERR_FILENO, result, true);
  std::optional<QueryInterruption> interruption;
  if (settings_.interactive) {
    interruption.emplace(result, view.mode == ResultMode::kTableau ? -1 : settings_.terminalInput);
  }
  showQueryResult(result, out_, view);
  if (int64_t restarts = result.getJobProgress().numRestarts; restarts > 0) {
    err_ << "[WARNING] The job restarted " << times(restarts)
         << " after a failure; rows shown before a restart may be shown again.\n";
  }
  reportDroppedRows(result);
}

bool SqlScriptRunner::dmlSync() const {
  std::optional<std::string> value = environment_.getConfig().get("table.dml-sync");
  return !value || config::parseBoolean(*value).value_or(true);
}

void SqlScriptRunner::keepDetached(TableResult result) {
  std::erase_if(detached_, [](const TableResult& kept) {
    const JobClient* job = kept.getJobClient();
    return job == nullptr || job->getJobStatus() == JobStatus::FINISHED ||
           job->getJobStatus() == JobStatus::FAILED ||
           job->getJobStatus() == JobStatus::CANCELED;
  });
  detached_.push_back(std::move(result));
}

bool SqlScriptRunner::awaitDetachedJobs() {
  bool ok = true;
  for (TableResult& result : detached_) {
    const JobClient* job = result.getJobClient();
    if (job == nullptr) continue;
    const JobStatus status = job->getJobStatus();
    if (status != JobStatus::RUNNING && status != JobStatus::RESTARTING) continue;
    out_ << "[INFO] Waiting for job " << job->getJobID()
         << " to end: eddy runs the jobs of its SQL client in this process.\n";
    out_.flush();
    try {
      result.await();
    } catch (const std::exception& error) {
      err_ << "[ERROR] Job " << job->getJobID() << " failed. Reason:\n" << error.what() << "\n";
      ok = false;
    }
  }
  detached_.clear();
  return ok;
}

void SqlScriptRunner::reportDroppedRows(const TableResult& result) {
  int64_t late = result.getNumLateRecordsDropped();
  if (late != 0) {
    err_ << "[WARNING] " << late << (late == 1 ? " record" : " records")
         << " arrived behind the watermark and " << (late == 1 ? "was" : "were")
         << " dropped as late by windows or interval joins.\n";
  }
  int64_t nulls = result.getNumNotNullRowsDropped();
  if (nulls != 0) {
    err_ << "[WARNING] " << nulls << (nulls == 1 ? " row" : " rows")
         << " with a null value in a NOT NULL column " << (nulls == 1 ? "was" : "were")
         << " dropped by the sink ('table.exec.sink.not-null-enforcer'='DROP').\n";
  }
}

bool SqlScriptRunner::acceptsIntoStatementSet(const std::string& statement) {
  std::string text;
  try {
    text = config::substituteEnvironmentVariables(statement, "the statement", 1, true);
    std::vector<sql::StatementPtr> parsed = sql::parseScript(text);
    if (parsed.size() != 1 || parsed.front()->kind != sql::StatementKind::kInsert) {
      refuseInStatementSet();
      return false;
    }
  } catch (const SqlParseException& error) {
    err_ << "[ERROR] Could not parse the statement at line " << error.line() << ", column "
         << error.column() << ":\n"
         << error.what() << "\n";
    return false;
  } catch (const std::exception& error) {
    err_ << "[ERROR] " << error.what() << "\n";
    return false;
  }
  // Validated as it is added, as Flink's client does (an INSERT into an unknown table fails
  // here, not at END): planned into a statement set that is never executed.
  try {
    environment_.createStatementSet().addInsertSql(text);
  } catch (const std::exception& error) {
    err_ << "[ERROR] Could not execute SQL statement. Reason:\n" << error.what() << "\n";
    return false;
  }
  return true;
}

void SqlScriptRunner::refuseInStatementSet() {
  // Flink's message (its SQL gateway's OperationExecutor), whatever the statement.
  err_ << "[ERROR] Could not execute SQL statement. Reason:\n"
       << "Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' "
          "statement to submit Statement Set.\n";
}

bool SqlScriptRunner::run(const std::string& script, const std::string& fileName) {
  config::ScopedOptionWarningHandler warnings(
      [this](const std::string& message) { err_ << "[WARNING] " << message << "\n"; });
  std::vector<sql::StatementPtr> statements;
  std::string text;
  try {
    text = config::substituteEnvironmentVariables(
        script, fileName.empty() ? "the statement" : fileName, 1, /*sqlComments=*/true);
    statements = sql::parseScript(text);
  } catch (const SqlParseException& error) {
    err_ << "[ERROR] Could not parse " << (fileName.empty() ? "the statement" : fileName)
         << " at line " << error.line() << ", column " << error.column() << ":\n"
         << error.what() << "\n";
    return false;
  } catch (const std::exception& error) {
    err_ << "[ERROR] " << error.what() << "\n";
    return false;
  }
  for (const sql::StatementPtr& statement : statements) {
    try {
      if (shownAs(*statement) == sql::StatementKind::kQuery && !settings_.interactive &&
          resultModeOf(environment_.getConfig()) != ResultMode::kTableau) {
        throw ValidationException(kOnlyTableauInScripts);
      }
      TableResult result = environment_.executeSql(statement->sourceText);
      switch (shownAs(*statement)) {
        case sql::StatementKind::kExplain:
          // The plan as text, as Flink's SQL client prints it (not in a table); SHOW CREATE
          // TABLE / VIEW too (Flink's printRawContent).
          showRawContent(result, out_);
          break;
        case sql::StatementKind::kQuery:
          showQuery(result);
          break;
        case sql::StatementKind::kShow:
        case sql::StatementKind::kDescribe:
          showListing(result, out_, resultViewSettingsOf(environment_.getConfig()));
          break;
        case sql::StatementKind::kStopJob:
          // WITH SAVEPOINT: the savepoint's path in a table, as Flink's client shows it.
          if (statement->as<sql::StopJobStatement>().withSavepoint) {
            showListing(result, out_, resultViewSettingsOf(environment_.getConfig()));
          } else {
            out_ << "[INFO] Execute statement succeeded.\n";
          }
          break;
        case sql::StatementKind::kInsert:
        case sql::StatementKind::kStatementSet: {
          if (!dmlSync() && result.getJobClient() != nullptr) {
            // Flink's client in its default, asynchronous mode.
            out_ << "[INFO] Submitting SQL update statement to the cluster...\n"
                 << "[INFO] SQL update statement has been successfully submitted to the "
                    "cluster:\n"
                 << "Job ID: " << result.getJobClient()->getJobID() << "\n";
            keepDetached(std::move(result));
            break;
          }
          std::optional<ProgressLine> progress;
          if (settings_.showProgress) progress.emplace(STDERR_FILENO, result, false);
          // Interactive: Ctrl-C stops the job and the client goes on (rows already written
          // stay in the sinks).
          std::optional<QueryInterruption> interruption;
          if (settings_.interactive) interruption.emplace(result, -1);
          result.await();
          progress.reset();
          if (interruption && interruption->interrupted()) {
            interruption.reset();
            out_ << "[INFO] Execution of the SQL update statement cancelled.\n";
          } else {
            out_ << "[INFO] Complete execution of the SQL update statement.\n";
          }
          if (int64_t restarts = result.getJobProgress().numRestarts; restarts > 0) {
            out_ << "[INFO] The job restarted " << times(restarts) << " after a failure.\n";
          }
          reportDroppedRows(result);
          break;
        }
        case sql::StatementKind::kSet:
          if (!statement->as<sql::SetStatement>().key) {
            showListing(result, out_, resultViewSettingsOf(environment_.getConfig()));
            break;
          }
          [[fallthrough]];
        default:
          result.await();
          out_ << "[INFO] Execute statement succeeded.\n";
      }
      out_.flush();
    } catch (const std::exception& error) {
      err_ << "[ERROR] Could not execute SQL statement";
      if (!fileName.empty()) {
        err_ << " at " << fileName << ":" << statement->position.line << ":"
             << statement->position.column;
      }
      err_ << ". Reason:\n" << error.what() << "\n";
      return false;
    }
  }
  return true;
}

}  // namespace eddy::client
