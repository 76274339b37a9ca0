// The `eddy` command: `eddy sql -f script.sql` runs a SQL script, `eddy sql` reads statements
// from standard input; `eddy --version`, `eddy --help`.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "client/sql_script_runner.h"
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"eddy: unified batch and stream processing with Apache Flink's SQL and APIs"};
  app.set_version_flag("--version", kVersion);
  app.require_subcommand(0, 1);

  CLI::App* sql = app.add_subcommand("sql", "Run SQL: a script with -f, else statements from stdin");
  std::string scriptFile;
  std::string initFile;
  std::vector<std::string> definitions;
  sql->add_option("-f,--file", scriptFile, "SQL script to run statement by statement");
  sql->add_option("-i,--init", initFile, "SQL script to run first (DDL, SET)");
  sql->add_option("-D", definitions, "Set an option: -D key=value (as SET 'key' = 'value')");

  CLI11_PARSE(app, argc, argv);
  if (!sql->parsed()) {
    std::cout << app.help();
    return 0;
  }

  auto environment = eddy::TableEnvironment::create(eddy::EnvironmentSettings::inStreamingMode());
  for (const std::string& definition : definitions) {
    size_t equals = definition.find('=');
    if (equals == std::string::npos) {
      std::cerr << "[ERROR] -D expects key=value, got '" << definition << "'\n";
      return 2;
    }
    environment->getConfig()[definition.substr(0, equals)] = definition.substr(equals + 1);
  }
  eddy::client::SqlScriptRunner runner(*environment, std::cout, std::cerr);
  for (const std::string& file : {initFile, scriptFile}) {
    if (file.empty()) continue;
    std::string script;
    if (!readFile(file, script)) {
      std::cerr << "[ERROR] Cannot read the SQL script '" << file << "'\n";
      return 1;
    }
    if (!runner.run(script, file)) return 1;
  }
  if (scriptFile.empty()) {
    std::stringstream buffer;
    buffer << std::cin.rdbuf();
    if (!runner.run(buffer.str(), "<stdin>")) return 1;
  }
  return 0;
}
