// SqlLogicTestFile: one parsed `.test` file of the sqllogictest format (DuckDB's, plus the
// `mode` and `changelog` directives for eddy's runtime modes; docs/testing.md describes it).
// A file is a list of records in file order; each record carries the runtime modes it runs in
// and the 1-based line of its header, which failure messages name. Parsing only checks the
// format; running the records is SqlLogicTestRunner's job. A parsed file is a plain value.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace eddy::sqllogictest {

/// The runtime modes a record runs in (the `mode` directive in force before it).
enum class ModeSelection { kBatch, kStreaming, kBoth };

/// How the rows of a `query` are compared.
enum class SortMode { kNoSort, kRowSort };

/// One record of a file.
struct Record {
  enum class Kind {
    kStatementOk,     ///< `statement ok`: the SQL must succeed.
    kStatementError,  ///< `statement error`: the SQL must fail with `expected` as its message.
    kQuery,           ///< `query <types> [rowsort|nosort]`: the (materialized) rows.
    kChangelog,       ///< `changelog`: the exact streaming changelog (streaming runs only).
  };

  Kind kind = Kind::kStatementOk;
  ModeSelection modes = ModeSelection::kBoth;
  int line = 0;               ///< line of the header (`statement ...`, `query ...`)
  std::string sql;            ///< the statement, its lines joined by '\n'
  std::string columnTypes;    ///< `query` only: one letter per column (T, I, R, D, B)
  SortMode sortMode = SortMode::kNoSort;
  /// The lines after `----`: expected rows (tab-separated values), changelog lines, or the
  /// lines of the expected error message.
  std::vector<std::string> expected;
  /// 0-based index of the first line after `----` and the number of expected lines (the
  /// block that the rewrite mode replaces); -1 and 0 without `----`.
  int expectedBegin = -1;
  int expectedCount = 0;
};

/// A parsed file: its records up to the end or up to `halt`.
struct SqlLogicTestFile {
  std::string path;          ///< as given to parse (used in messages)
  std::vector<Record> records;
  bool halted = false;       ///< true when a `halt` line ended the file early
};

/// Parses `contents`. Throws std::runtime_error "<path>:<line>: <what is wrong>" for a
/// malformed record (unknown directive, missing `----`, bad type letters, ...).
SqlLogicTestFile parseSqlLogicTestFile(const std::string& path, const std::string& contents);

/// Reads and parses the file at `path`.
SqlLogicTestFile readSqlLogicTestFile(const std::string& path);

}  // namespace eddy::sqllogictest
