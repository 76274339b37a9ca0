#include "client/interactive_sql_client.h"

#include <cctype>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "client/statement_buffer.h"
#include "sql/parser/lexer.h"

namespace eddy::client {
namespace {

constexpr const char* kWelcome =
    "eddy SQL client. Statements end with ';' and may span lines. Type HELP; for help, QUIT; to "
    "leave.\n\n";

constexpr const char* kHelp =
    "The following commands are available:\n"
    "\n"
    "HELP\t\tPrints the available commands.\n"
    "QUIT/EXIT\tQuits the SQL client (so does Ctrl-D).\n"
    "SET\t\tSets a session configuration property. Syntax: \"SET '<key>'='<value>';\". Use "
    "\"SET;\" for listing all properties.\n"
    "RESET\t\tResets a session configuration property. Syntax: \"RESET '<key>';\". Use "
    "\"RESET;\" for reset all session properties.\n"
    "SHOW, DESCRIBE, EXPLAIN, CREATE, DROP, ALTER, USE, SELECT, INSERT INTO, "
    "BEGIN STATEMENT SET ... END\n"
    "\t\tFlink SQL statements (docs/sql_grammar.md).\n"
    "\n"
    "Hint: Make sure that a statement ends with \";\" for finalizing (multi-line) statements.\n"
    "Options are described in docs/configuration.md.\n";

/// The statement on one line with runs of blanks folded, for the history and command checks.
std::string oneLine(const std::string& statement) {
  std::string line;
  for (char c : statement) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!line.empty() && line.back() != ' ') line += ' ';
    } else {
      line += c;
    }
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

/// Whether `statement` is exactly the keywords `words` (then `;`), whatever its comments, case
/// and spacing: `BEGIN STATEMENT SET;`, `END ;`.
bool isKeywordStatement(const std::string& statement, std::initializer_list<std::string_view> words) {
  std::vector<sql::Token> tokens;
  try {
    tokens = sql::tokenize(statement);
  } catch (const std::exception&) {
    return false;  // not even tokens: the runner reports it
  }
  size_t i = 0;
  for (std::string_view word : words) {
    if (i >= tokens.size() || tokens[i].keyword != word) return false;
    ++i;
  }
  return i + 2 == tokens.size() && tokens[i].kind == sql::TokenKind::kSymbol &&
         tokens[i].text == ";" && tokens[i + 1].kind == sql::TokenKind::kEnd;
}

std::string upperCase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

InteractiveSqlClient::InteractiveSqlClient(TableEnvironment& environment, LineReader& reader,
                                           std::ostream& out, std::ostream& err,
                                           ScriptRunnerSettings terminal)
    : environment_(environment), reader_(reader), out_(out), err_(err), runnerSettings_(terminal) {
  runnerSettings_.interactive = true;
}

void InteractiveSqlClient::run() {
  SqlScriptRunner runner(environment_, out_, err_, runnerSettings_);
  StatementBuffer buffer;
  // Between `BEGIN STATEMENT SET;` and `END;`: the INSERTs taken so far. As Flink's client,
  // each statement is checked as it is entered (a statement that is no INSERT fails and the
  // set keeps the rest), and END runs them as one job; an empty set succeeds doing nothing.
  std::optional<std::string> statementSet;
  out_ << kWelcome << std::flush;
  while (true) {
    std::string line;
    LineEvent event = reader_.readLine(buffer.isEmpty() ? kPrompt : kContinuationPrompt, line);
    if (event == LineEvent::kEndOfInput) break;
    if (event == LineEvent::kInterrupted) {  // Ctrl-C: drop what was typed, a fresh prompt
      buffer.clear();
      out_ << "\n" << std::flush;
      continue;
    }
    buffer.addLine(line);
    for (const std::string& statement : buffer.takeCompleteStatements()) {
      std::string entry = oneLine(statement);
      reader_.addHistory(entry);
      std::string command = upperCase(entry);
      if (command == "QUIT;" || command == "EXIT;") {
        out_ << "Goodbye!\n" << std::flush;
        return;
      }
      if (command == "HELP;") {
        out_ << kHelp << std::flush;
        continue;
      }
      if (!statementSet && isKeywordStatement(statement, {"BEGIN", "STATEMENT", "SET"})) {
        statementSet.emplace();
        out_ << "[INFO] Begin a statement set.\n" << std::flush;
        continue;
      }
      if (statementSet && isKeywordStatement(statement, {"END"})) {
        if (statementSet->empty()) {
          out_ << "[INFO] Execute statement succeeded.\n";
        } else {
          runner.run("BEGIN STATEMENT SET;\n" + *statementSet + "END;", "");
        }
        statementSet.reset();
        out_ << std::flush;
        err_ << std::flush;
        continue;
      }
      if (statementSet) {
        if (isKeywordStatement(statement, {"BEGIN", "STATEMENT", "SET"})) {
          runner.refuseInStatementSet();
        } else if (runner.acceptsIntoStatementSet(statement)) {
          *statementSet += statement + "\n";
          out_ << "[INFO] Add SQL update statement to the statement set.\n";
        }
        out_ << std::flush;
        err_ << std::flush;
        continue;
      }
      runner.run(statement, "");
      out_ << std::flush;
      err_ << std::flush;
    }
  }
  out_ << "\nGoodbye!\n" << std::flush;
}

}  // namespace eddy::client
