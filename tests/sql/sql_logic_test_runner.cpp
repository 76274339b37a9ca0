// Running sqllogictest records against a TableEnvironment: executing statements, rendering and
// materializing result rows, and formatting expected-versus-actual messages.
#include "sql/sql_logic_test_runner.h"

#include <eddy/table/table_environment.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <sstream>

#include <stdlib.h>

namespace eddy::sqllogictest {
namespace {

bool runsIn(ModeSelection modes, RuntimeMode mode) {
  switch (modes) {
    case ModeSelection::kBatch:
      return mode == RuntimeMode::kBatch;
    case ModeSelection::kStreaming:
      return mode == RuntimeMode::kStreaming;
    case ModeSelection::kBoth:
      return true;
  }
  return false;
}

std::vector<std::string> splitMessage(const std::string& message) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream stream(message);
  while (std::getline(stream, line)) lines.push_back(line);
  if (lines.empty()) lines.emplace_back();
  return lines;
}

std::string indented(const std::vector<std::string>& lines) {
  if (lines.empty()) return "    (nothing)\n";
  std::string out;
  for (const std::string& line : lines) out.append("    ").append(line).append("\n");
  return out;
}

std::string expectedVersusActual(const std::vector<std::string>& expected,
                                 const std::vector<std::string>& actual) {
  std::string out = "  expected (" + std::to_string(expected.size()) + " lines):\n" +
                    indented(expected) + "  actual (" + std::to_string(actual.size()) +
                    " lines):\n" + indented(actual);
  for (size_t i = 0; i < std::min(expected.size(), actual.size()); ++i) {
    if (expected[i] != actual[i]) {
      out += "  first difference at line " + std::to_string(i + 1) + " of the block";
      return out + "\n";
    }
  }
  return out;
}

std::string renderRow(const Row& row) {
  std::string out;
  for (int i = 0; i < row.getArity(); ++i) {
    if (i > 0) out.push_back('\t');
    out.append(renderValue(row.getField(i)));
  }
  return out;
}

}  // namespace

const char* runtimeModeName(RuntimeMode mode) {
  return mode == RuntimeMode::kBatch ? "batch" : "streaming";
}

std::string renderValue(const Value& value) {
  if (value.isNull()) return "NULL";
  std::string text = value.toString();
  if (text.empty()) return "(empty)";
  return text;
}

SqlLogicTestRunner::SqlLogicTestRunner(RuntimeMode mode) : mode_(mode) {
  environment_ = TableEnvironment::create(mode == RuntimeMode::kBatch
                                              ? EnvironmentSettings::inBatchMode()
                                              : EnvironmentSettings::inStreamingMode());
  // Deterministic row order unless a file sets another parallelism.
  environment_->executeSql("SET 'parallelism.default' = '1'");
}

SqlLogicTestRunner::~SqlLogicTestRunner() = default;

std::vector<RecordFailure> SqlLogicTestRunner::run(const SqlLogicTestFile& file) {
  std::vector<RecordFailure> failures;
  outcomes_.assign(file.records.size(), RecordOutcome{});
  const std::string fileDirectory = std::filesystem::path(file.path).parent_path().string();
  // `${TEMP_DIR}`: a fresh empty directory for this run (one file, one mode), removed after it.
  std::string temporaryDirectory;
  if (std::any_of(file.records.begin(), file.records.end(), [](const Record& record) {
        return record.sql.find("${TEMP_DIR}") != std::string::npos;
      })) {
    std::string pattern = (std::filesystem::temp_directory_path() / "eddy-sql-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return {RecordFailure{0, file.path + ": cannot create a temporary directory"}};
    }
    temporaryDirectory = pattern;
  }
  struct RemoveDirectory {
    const std::string& path;
    ~RemoveDirectory() {
      std::error_code ignored;
      if (!path.empty()) std::filesystem::remove_all(path, ignored);
    }
  } removeDirectory{temporaryDirectory};
  for (size_t i = 0; i < file.records.size(); ++i) {
    // `${FILE_DIR}` in SQL is the directory of the .test file (for data files beside it).
    Record record = file.records[i];
    for (size_t at; (at = record.sql.find("${FILE_DIR}")) != std::string::npos;) {
      record.sql.replace(at, std::string("${FILE_DIR}").size(), fileDirectory);
    }
    for (size_t at; (at = record.sql.find("${TEMP_DIR}")) != std::string::npos;) {
      record.sql.replace(at, std::string("${TEMP_DIR}").size(), temporaryDirectory);
    }
    if (!runsIn(record.modes, mode_)) continue;
    if (record.kind == Record::Kind::kChangelog && mode_ != RuntimeMode::kStreaming) continue;
    std::string failure;
    switch (record.kind) {
      case Record::Kind::kStatementOk:
        failure = runStatementOk(record);
        break;
      case Record::Kind::kStatementError:
        failure = runStatementError(record, &outcomes_[i]);
        break;
      case Record::Kind::kQuery:
        failure = runQuery(record, &outcomes_[i]);
        break;
      case Record::Kind::kChangelog:
        failure = runChangelog(record, &outcomes_[i]);
        break;
    }
    if (!failure.empty()) {
      failures.push_back(RecordFailure{
          record.line, file.path + ":" + std::to_string(record.line) + " (" +
                           runtimeModeName(mode_) + " mode): " + failure + "  SQL:\n" +
                           indented(splitMessage(record.sql))});
    }
  }
  return failures;
}

std::string SqlLogicTestRunner::runStatementOk(const Record& record) {
  try {
    environment_->executeSql(record.sql).collectAll();
  } catch (const std::exception& error) {
    return "statement failed but should succeed:\n" + indented(splitMessage(error.what()));
  }
  return "";
}

std::string SqlLogicTestRunner::runStatementError(const Record& record, RecordOutcome* outcome) {
  std::string message;
  try {
    environment_->executeSql(record.sql).collectAll();
    return "statement succeeded but should fail with:\n" + indented(record.expected);
  } catch (const std::exception& error) {
    message = error.what();
  }
  std::vector<std::string> actual = splitMessage(message);
  outcome->available = true;
  outcome->lines = actual;
  if (actual == record.expected) return "";
  return "statement failed with another message:\n" + expectedVersusActual(record.expected, actual);
}

std::string SqlLogicTestRunner::runQuery(const Record& record, RecordOutcome* outcome) {
  std::vector<std::string> rows;
  try {
    TableResult result = environment_->executeSql(record.sql);
    int columns = result.getResolvedSchema().getColumnCount();
    if (columns != static_cast<int>(record.columnTypes.size())) {
      return "the query declares " + std::to_string(record.columnTypes.size()) +
             " columns ('" + record.columnTypes + "') but its result has " +
             std::to_string(columns) + "\n";
    }
    for (const Row& row : result.collectAll()) {
      std::string rendered = renderRow(row);
      switch (row.getKind()) {
        case RowKind::INSERT:
        case RowKind::UPDATE_AFTER:
          rows.push_back(std::move(rendered));
          break;
        case RowKind::UPDATE_BEFORE:
        case RowKind::DELETE: {
          if (mode_ == RuntimeMode::kBatch) {
            return "a batch result holds a retraction: " + row.toString() + "\n";
          }
          auto found = std::find(rows.begin(), rows.end(), rendered);
          if (found == rows.end()) {
            return "the changelog retracts a row that is not in the result: " + row.toString() +
                   "\n";
          }
          rows.erase(found);
          break;
        }
      }
    }
  } catch (const std::exception& error) {
    return "query failed:\n" + indented(splitMessage(error.what()));
  }
  std::vector<std::string> expected = record.expected;
  if (record.sortMode == SortMode::kRowSort) {
    std::sort(rows.begin(), rows.end());
    std::sort(expected.begin(), expected.end());
  }
  // A value with line breaks (SHOW CREATE TABLE, EXPLAIN) spans several lines of the block;
  // its blank lines are left out (a blank line ends a block).
  std::vector<std::string> lines;
  for (const std::string& row : rows) {
    if (row.find('\n') == std::string::npos) {
      lines.push_back(row);
      continue;
    }
    for (const std::string& line : splitMessage(row)) {
      if (!line.empty()) lines.push_back(line);
    }
  }
  rows = std::move(lines);
  outcome->available = true;
  outcome->lines = rows;
  if (rows == expected) return "";
  return "wrong result" +
         std::string(mode_ == RuntimeMode::kStreaming ? " (changelog applied)" : "") + ":\n" +
         expectedVersusActual(expected, rows);
}

std::string SqlLogicTestRunner::runChangelog(const Record& record, RecordOutcome* outcome) {
  std::vector<std::string> changes;
  try {
    for (const Row& row : environment_->executeSql(record.sql).collectAll()) {
      changes.push_back(row.toString());
    }
  } catch (const std::exception& error) {
    return "query failed:\n" + indented(splitMessage(error.what()));
  }
  outcome->available = true;
  outcome->lines = changes;
  if (changes == record.expected) return "";
  return "wrong changelog:\n" + expectedVersusActual(record.expected, changes);
}

}  // namespace eddy::sqllogictest
