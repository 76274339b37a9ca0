// The `eddy` command: `eddy sql -f script.sql` runs a SQL script; `eddy sql` is the
// interactive client on a terminal (history in ~/.eddy_sql_history) and otherwise runs the
// statements read from standard input; `--config FILE` and `-D key=value` set options first, `-i
// init.sql` runs before the script. `eddy --version`, `eddy --help`, `eddy sql --help`. Exit
// status: 0 when everything succeeded, 1 when a statement, the configuration or a file failed, 2
// for a malformed command line.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "client/configuration_file.h"
#include "client/interactive_sql_client.h"
#include "client/line_reader.h"
#include "client/progress_line.h"
#include "client/sql_script_runner.h"
#include "config/option_registry.h"
#include "eddy/exceptions.h"
#include "eddy/table/table_environment.h"

namespace {

constexpr const char* kVersion = "eddy 0.1.0";

bool readFile(const std::string& path, std::string& text) {
  std::ifstream input(path);
  if (!input) return false;
  std::stringstream buffer;
  buffer << input.rdbuf();
  text = buffer.str();
  return true;
}

/// Validates `key` = `value` (from `origin`, e.g. "prod.yaml, line 3" or "-D") and sets it.
/// Prints the warnings; throws ValidationException for an invalid value.
void applyOption(eddy::TableEnvironment& environment, const std::string& origin,
                 const std::string& key, const std::string& value) {
  for (const std::string& warning : eddy::config::OptionRegistry::instance().validate(key, value)) {
    std::cerr << "[WARNING] " << origin << ": " << warning << "\n";
  }
  environment.getConfig()[key] = value;
}

/// Applies the configuration file and the -D options; false (after printing the error) when
/// one is invalid.
bool configure(eddy::TableEnvironment& environment, const std::string& configFile,
               const std::vector<std::string>& definitions) {
  std::string origin;
  try {
    if (!configFile.empty()) {
      for (const auto& entry : eddy::client::loadConfigurationFile(configFile)) {
        origin = configFile + ", line " + std::to_string(entry.line);
        applyOption(environment, origin, entry.key, entry.value);
      }
    }
    for (const std::string& definition : definitions) {
      size_t equals = definition.find('=');
      if (equals == std::string::npos) {
        std::cerr << "[ERROR] -D expects key=value, got '" << definition << "'\n";
        return false;
      }
      origin = "-D " + definition.substr(0, equals);
      applyOption(environment, origin, definition.substr(0, equals), definition.substr(equals + 1));
    }
  } catch (const std::exception& error) {
    std::cerr << "[ERROR] " << (origin.empty() ? "" : origin + ": ") << error.what() << "\n";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"eddy: unified batch and stream processing with Apache Flink's SQL and APIs",
               "eddy"};
  app.set_version_flag("--version", kVersion);
  app.require_subcommand(0, 1);

  CLI::App* sql = app.add_subcommand(
      "sql",
      "Run SQL as Flink's SQL client does: a script with -f, else the interactive client (or the "
      "statements on stdin when it is not a terminal)");
  std::string scriptFile;
  std::string initFile;
  std::string configFile;
  std::vector<std::string> definitions;
  sql->add_option("-f,--file", scriptFile, "SQL script to run statement by statement")
      ->type_name("FILE");
  sql->add_option("-i,--init", initFile, "SQL script to run first (DDL, SET)")->type_name("FILE");
  sql->add_option("--config", configFile,
                  "YAML configuration file with Flink's keys (docs/configuration.md)")
      ->type_name("FILE");
  sql->add_option("-D", definitions, "Set an option, as SET 'key' = 'value' does (repeatable)")
      ->type_name("KEY=VALUE");
  sql->footer(
      "Options apply in this order: --config, -D, then SET in the scripts. `${NAME}` in a "
      "script or the\nconfiguration file is replaced by the environment variable NAME.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& success) {  // --help, --version
    return app.exit(success);
  } catch (const CLI::ParseError& error) {
    app.exit(error);
    return 2;
  }
  if (!sql->parsed()) {
    std::cout << app.help();
    return 0;
  }

  auto environment = eddy::TableEnvironment::create(eddy::EnvironmentSettings::inStreamingMode());
  if (!configure(*environment, configFile, definitions)) return 1;
  eddy::client::ScriptRunnerSettings scriptSettings;
  scriptSettings.showProgress = eddy::client::ProgressLine::wanted();
  eddy::client::SqlScriptRunner runner(*environment, std::cout, std::cerr, scriptSettings);
  for (const std::string& file : {initFile, scriptFile}) {
    if (file.empty()) continue;
    std::string script;
    if (!readFile(file, script)) {
      std::cerr << "[ERROR] Cannot read the SQL script '" << file << "': " << std::strerror(errno)
                << "\n";
      return 1;
    }
    if (!runner.run(script, file)) return 1;
  }
  if (scriptFile.empty() && isatty(STDIN_FILENO)) {
    const char* home = std::getenv("HOME");
    eddy::client::EditLineReader reader(home == nullptr ? ""
                                                        : std::string(home) + "/.eddy_sql_history");
    eddy::client::ScriptRunnerSettings terminal;
    terminal.terminalInput = STDIN_FILENO;
    terminal.terminalOutput = isatty(STDOUT_FILENO) ? STDOUT_FILENO : -1;
    eddy::client::InteractiveSqlClient(*environment, reader, std::cout, std::cerr, terminal).run();
  } else if (scriptFile.empty()) {
    std::stringstream buffer;
    buffer << std::cin.rdbuf();
    if (!runner.run(buffer.str(), "<stdin>")) return 1;
  }
  // INSERTs run detached (`table.dml-sync` = 'false') run in this process: it stays for them.
  if (!runner.awaitDetachedJobs()) return 1;
  return 0;
}
