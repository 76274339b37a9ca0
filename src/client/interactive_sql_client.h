// InteractiveSqlClient: `eddy sql` on a terminal, like Flink's SQL client. It reads lines from
// a LineReader until they form complete statements (StatementBuffer: a statement ends with
// `;` and may span lines), runs each with the SqlScriptRunner (results on `out`, errors and
// warnings on `err`, the client going on after an error), and adds it to the history.
// Inside `BEGIN STATEMENT SET;` .. `END;` each statement is checked as it is entered, as
// Flink's client does: an INSERT is added ("[INFO] Add SQL update statement to the statement
// set."), anything else fails with Flink's message and the set keeps its INSERTs; END runs
// them as one job (an empty set succeeds). `HELP;` lists the commands, `QUIT;` or `EXIT;` (or Ctrl-D) ends the session, Ctrl-C at the
// prompt discards the statement being typed, Ctrl-C during a query cancels the query (the
// client goes on). Query results show in `sql-client.execution.result-mode`: tableau, table
// or changelog (QueryResultView). Used from one thread; borrows the environment, the reader
// and the streams.
#pragma once

#include <ostream>

#include "client/line_reader.h"
#include "client/sql_script_runner.h"
#include "eddy/table/table_environment.h"

namespace eddy::client {

class InteractiveSqlClient {
 public:
  /// `terminal` says where the user types and whether `out` is a terminal (the table view
  /// redraws in place, Q leaves a view); its `interactive` is set by the client.
  InteractiveSqlClient(TableEnvironment& environment, LineReader& reader, std::ostream& out,
                       std::ostream& err, ScriptRunnerSettings terminal = {});

  /// Runs the session until QUIT;, EXIT; or the end of the input.
  void run();

  static constexpr const char* kPrompt = "eddy SQL> ";
  static constexpr const char* kContinuationPrompt = "        > ";

 private:
  TableEnvironment& environment_;
  LineReader& reader_;
  std::ostream& out_;
  std::ostream& err_;
  ScriptRunnerSettings runnerSettings_;
};

}  // namespace eddy::client
