// Parsing of the sqllogictest format: a line-oriented state machine over records separated
// by blank lines (see sql_logic_test_file.h and docs/testing.md).
#include "sql/sql_logic_test_file.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace eddy::sqllogictest {
namespace {

std::vector<std::string> splitLines(const std::string& contents) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream stream(contents);
  while (std::getline(stream, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> splitWords(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream stream(line);
  std::string word;
  while (stream >> word) words.push_back(word);
  return words;
}

bool isBlank(const std::string& line) {
  return line.find_first_not_of(" \t") == std::string::npos;
}

// Reads one record's body from `lines[*index]` on: the SQL up to `----` or a blank line, then
// (when `----` was found) the expected lines up to an empty line. Returns whether `----` was
// seen.
class RecordReader {
 public:
  RecordReader(const std::string& path, const std::vector<std::string>& lines)
      : path_(path), lines_(lines) {}

  [[noreturn]] void fail(size_t index, const std::string& message) const {
    throw std::runtime_error(path_ + ":" + std::to_string(index + 1) + ": " + message);
  }

  bool readBody(size_t* index, Record* record) const {
    size_t header = *index;
    ++*index;
    std::string sql;
    while (*index < lines_.size() && !isBlank(lines_[*index]) && lines_[*index] != "----") {
      if (!sql.empty()) sql.push_back('\n');
      sql.append(lines_[*index]);
      ++*index;
    }
    if (sql.empty()) fail(header, "the record has no SQL");
    record->sql = std::move(sql);
    if (*index >= lines_.size() || lines_[*index] != "----") return false;
    ++*index;
    record->expectedBegin = static_cast<int>(*index);
    while (*index < lines_.size() && !lines_[*index].empty()) {
      record->expected.push_back(lines_[*index]);
      ++*index;
    }
    record->expectedCount = static_cast<int>(record->expected.size());
    return true;
  }

 private:
  const std::string& path_;
  const std::vector<std::string>& lines_;
};

}  // namespace

SqlLogicTestFile parseSqlLogicTestFile(const std::string& path, const std::string& contents) {
  SqlLogicTestFile file;
  file.path = path;
  std::vector<std::string> lines = splitLines(contents);
  RecordReader reader(path, lines);
  ModeSelection modes = ModeSelection::kBoth;
  size_t index = 0;
  while (index < lines.size()) {
    const std::string& line = lines[index];
    if (isBlank(line) || line[line.find_first_not_of(" \t")] == '#') {
      ++index;
      continue;
    }
    std::vector<std::string> words = splitWords(line);
    const std::string& directive = words[0];
    if (directive == "halt") {
      file.halted = true;
      break;
    }
    if (directive == "mode") {
      if (words.size() != 2) reader.fail(index, "expected `mode batch|streaming|both`");
      if (words[1] == "batch") {
        modes = ModeSelection::kBatch;
      } else if (words[1] == "streaming") {
        modes = ModeSelection::kStreaming;
      } else if (words[1] == "both") {
        modes = ModeSelection::kBoth;
      } else {
        reader.fail(index, "unknown mode '" + words[1] + "' (batch, streaming or both)");
      }
      ++index;
      continue;
    }
    Record record;
    record.modes = modes;
    record.line = static_cast<int>(index + 1);
    size_t header = index;
    if (directive == "statement") {
      if (words.size() != 2 || (words[1] != "ok" && words[1] != "error")) {
        reader.fail(header, "expected `statement ok` or `statement error`");
      }
      bool error = words[1] == "error";
      record.kind = error ? Record::Kind::kStatementError : Record::Kind::kStatementOk;
      bool hasExpected = reader.readBody(&index, &record);
      if (error && !hasExpected) {
        reader.fail(header, "`statement error` needs `----` and the expected message");
      }
      if (!error && hasExpected) reader.fail(header, "`statement ok` takes no `----` block");
    } else if (directive == "query") {
      if (words.size() < 2 || words.size() > 3) {
        reader.fail(header, "expected `query <types> [rowsort|nosort]`");
      }
      record.kind = Record::Kind::kQuery;
      record.columnTypes = words[1];
      for (char letter : record.columnTypes) {
        if (std::string_view("TIRDB").find(letter) == std::string_view::npos) {
          reader.fail(header, std::string("unknown column type letter '") + letter +
                                  "' (T text, I integer, R real, D decimal, B boolean)");
        }
      }
      if (words.size() == 3) {
        if (words[2] == "rowsort") {
          record.sortMode = SortMode::kRowSort;
        } else if (words[2] != "nosort") {
          reader.fail(header, "unknown sort mode '" + words[2] + "' (rowsort or nosort)");
        }
      }
      if (!reader.readBody(&index, &record)) {
        reader.fail(header, "`query` needs `----` and the expected rows");
      }
    } else if (directive == "changelog") {
      if (words.size() != 1) reader.fail(header, "`changelog` takes no arguments");
      record.kind = Record::Kind::kChangelog;
      if (!reader.readBody(&index, &record)) {
        reader.fail(header, "`changelog` needs `----` and the expected changelog");
      }
    } else {
      reader.fail(header, "unknown directive '" + directive +
                              "' (statement, query, changelog, mode, halt or # comment)");
    }
    file.records.push_back(std::move(record));
  }
  return file;
}

SqlLogicTestFile readSqlLogicTestFile(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw std::runtime_error(path + ": cannot be read");
  std::ostringstream contents;
  contents << stream.rdbuf();
  return parseSqlLogicTestFile(path, contents.str());
}

}  // namespace eddy::sqllogictest
