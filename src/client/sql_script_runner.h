// SqlScriptRunner: runs SQL scripts as Flink's SQL client does with `-f`: statement by
// statement against one TableEnvironment, printing what the client prints — a query's result
// in the tableau form, "[INFO] Execute statement succeeded." for DDL and SET, and for INSERT
// the job's completion (eddy runs jobs in this process, so the client waits for them, as
// Flink's `table.dml-sync` = true). With `table.dml-sync` set to 'false' (SET, -D, the
// configuration file) an INSERT is submitted and the client goes on, printing Flink's "[INFO]
// SQL update statement has been successfully submitted to the cluster:" and its "Job ID: ..";
// the runner keeps the job's result, so the job runs on (SHOW JOBS lists it, STOP JOB stops it,
// with STOP JOB .. WITH SAVEPOINT printing the savepoint's path as Flink's client does) until
// it ends or the runner goes away (then it is cancelled: the process is the cluster). Unset,
// the client waits, unlike Flink's, whose default is 'false': a script's INSERT would otherwise
// die with the process that ran it. The first failing statement stops the script with
// "[ERROR] ..." naming the file, line and column. `${NAME}` in the script is replaced by the
// environment variable NAME before parsing; an unset variable is an error naming it. Option
// warnings of SET statements (unknown key, not honoured yet) go to `err` as "[WARNING] ...".
// Query results show in `sql-client.execution.result-mode` (QueryResultView); a script only
// shows tableau results, and a query in another mode fails as in Flink's non-interactive
// mode. In the interactive client, Ctrl-C (and Q in the table and changelog views) cancels the
// running query (QueryInterruption). Used from one thread.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "eddy/table/table_environment.h"

namespace eddy::client {

/// How the runner meets its user.
struct ScriptRunnerSettings {
  /// The interactive client: every result mode, Ctrl-C cancels a query. Otherwise a script
  /// (`-f`, or statements piped into `eddy sql`): tableau results only.
  bool interactive = false;
  /// The terminal the user types on (for Q in the table and changelog views), or -1.
  int terminalInput = -1;
  /// `out` is this terminal: the table view redraws in place (its size read per query), or -1.
  int terminalOutput = -1;
  /// Keep a progress line on stderr while a statement's job runs (`-f`, stderr a terminal).
  bool showProgress = false;
};

class SqlScriptRunner {
 public:
  SqlScriptRunner(TableEnvironment& environment, std::ostream& out, std::ostream& err,
                  ScriptRunnerSettings settings = {});

  /// Runs `script` (named `fileName` in messages; an empty name, for statements typed in the
  /// interactive client, leaves the location out). Returns true when every statement
  /// succeeded; on the first failure prints the error and returns false.
  bool run(const std::string& script, const std::string& fileName);

  /// A statement typed inside the interactive client's `BEGIN STATEMENT SET;`: true when it is
  /// an INSERT the set takes; otherwise (another statement, a parse error) prints the error as
  /// Flink's client does and returns false, the set keeping what it holds.
  bool acceptsIntoStatementSet(const std::string& statement);
  /// Prints Flink's error for a statement that no statement set takes (a nested BEGIN too).
  void refuseInStatementSet();
  /// Waits for the jobs of INSERTs run detached (`table.dml-sync` = 'false') that still run,
  /// saying so for each: `eddy sql -f` calls it after the script, since its process ending
  /// would end them. False when one of them failed (its error printed).
  bool awaitDetachedJobs();

 private:
  /// Shows a query's result in the session's result mode (QueryResultView).
  void showQuery(TableResult& result);
  /// Warnings on stderr when the job dropped late records or rows with NULL in a NOT NULL
  /// sink column (none: nothing is printed).
  void reportDroppedRows(const TableResult& result);
  /// Whether INSERTs wait for their job: unless `table.dml-sync` is set to 'false'.
  bool dmlSync() const;
  /// Keeps the result of an INSERT submitted detached (its job runs while it is kept), after
  /// dropping those whose job has ended.
  void keepDetached(TableResult result);

  TableEnvironment& environment_;
  std::ostream& out_;
  std::ostream& err_;
  ScriptRunnerSettings settings_;
  std::vector<TableResult> detached_;  // destroyed first: cancels the jobs still running
};

}  // namespace eddy::client
