#include "client/sql_script_runner.h"

#include "config/environment_variables.h"
#include "config/option_warnings.h"
#include "eddy/exceptions.h"
#include "sql/parser/parser.h"

namespace eddy::client {

SqlScriptRunner::SqlScriptRunner(TableEnvironment& environment, std::ostream& out,
                                 std::ostream& err)
    : environment_(environment), out_(out), err_(err) {}

bool SqlScriptRunner::run(const std::string& script, const std::string& fileName) {
  config::ScopedOptionWarningHandler warnings(
      [this](const std::string& message) { err_ << "[WARNING] " << message << "\n"; });
  std::vector<sql::StatementPtr> statements;
  std::string text;
  try {
    text = config::substituteEnvironmentVariables(script,
                                                  fileName.empty() ? "the statement" : fileName);
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
      TableResult result = environment_.executeSql(statement->sourceText);
      switch (statement->kind) {
        case sql::StatementKind::kExplain:
          // The plan as text, as Flink's SQL client prints it (not in a table).
          for (std::optional<Row> row = result.next(); row; row = result.next()) {
            out_ << row->getField(0).toString() << "\n";
          }
          break;
        case sql::StatementKind::kQuery:
        case sql::StatementKind::kShow:
        case sql::StatementKind::kDescribe:
          result.print(out_);
          break;
        case sql::StatementKind::kInsert:
        case sql::StatementKind::kStatementSet:
        case sql::StatementKind::kExecute:
          result.await();
          out_ << "[INFO] Complete execution of the SQL update statement.\n";
          break;
        case sql::StatementKind::kSet:
          if (!statement->as<sql::SetStatement>().key) {
            result.print(out_);
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
