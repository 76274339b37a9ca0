// SqlScriptRunner: runs SQL scripts as Flink's SQL client does with `-f`: statement by
// statement against one TableEnvironment, printing what the client prints — a query's result
// in the tableau form, "[INFO] Execute statement succeeded." for DDL and SET, and for INSERT
// the job's completion (eddy runs jobs in this process, so the client waits for them, as
// Flink's `table.dml-sync` = true). The first failing statement stops the script with
// "[ERROR] ..." naming the file, line and column. `${NAME}` in the script is replaced by the
// environment variable NAME before parsing; an unset variable is an error naming it. Option
// warnings of SET statements (unknown key, not honoured yet) go to `err` as "[WARNING] ...".
// Used from one thread.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "eddy/table/table_environment.h"

namespace eddy::client {

class SqlScriptRunner {
 public:
  SqlScriptRunner(TableEnvironment& environment, std::ostream& out, std::ostream& err);

  /// Runs `script` (named `fileName` in messages; an empty name, for statements typed in the
  /// interactive client, leaves the location out). Returns true when every statement
  /// succeeded; on the first failure prints the error and returns false.
  bool run(const std::string& script, const std::string& fileName);

 private:
  TableEnvironment& environment_;
  std::ostream& out_;
  std::ostream& err_;
};

}  // namespace eddy::client
