#include "client/sql_script_runner.h"

#include <cstdlib>

#include "eddy/exceptions.h"
#include "sql/parser/parser.h"

namespace eddy::client {

SqlScriptRunner::SqlScriptRunner(TableEnvironment& environment, std::ostream& out,
                                 std::ostream& err)
    : environment_(environment), out_(out), err_(err) {}

std::string SqlScriptRunner::substituteEnvironmentVariables(const std::string& text) {
  std::string result;
  int line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') ++line;
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      size_t end = text.find('}', i + 2);
      if (end != std::string::npos) {
        std::string name = text.substr(i + 2, end - i - 2);
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) {
          throw ValidationException("Environment variable '" + name + "' referenced at line " +
                                    std::to_string(line) + " is not set");
        }
        result += value;
        i = end;
        continue;
      }
    }
    result += text[i];
  }
  return result;
}

bool SqlScriptRunner::run(const std::string& script, const std::string& fileName) {
  std::vector<sql::StatementPtr> statements;
  std::string text;
  try {
    text = substituteEnvironmentVariables(script);
    statements = sql::parseScript(text);
  } catch (const SqlParseException& error) {
    err_ << "[ERROR] Could not parse " << fileName << " at line " << error.line() << ", column "
         << error.column() << ":\n" << error.what() << "\n";
    return false;
  } catch (const std::exception& error) {
    err_ << "[ERROR] " << fileName << ": " << error.what() << "\n";
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
      err_ << "[ERROR] Could not execute SQL statement at " << fileName << ":"
           << statement->position.line << ":" << statement->position.column << ". Reason:\n"
           << error.what() << "\n";
      return false;
    }
  }
  return true;
}

}  // namespace eddy::client
