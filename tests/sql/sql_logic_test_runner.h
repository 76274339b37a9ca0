// SqlLogicTestRunner: runs the records of one parsed `.test` file in one runtime mode (BATCH or
// STREAMING) against a fresh TableEnvironment, and reports every record whose outcome differs
// from the file. Queries compare rows rendered as text (values tab-separated, NULL as `NULL`);
// in STREAMING the changelog is first applied (+I/+U add a row, -U/-D remove an equal one), so
// one expected block serves both modes. A runner is used from one thread and owns its
// environment; run() may be called once.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sql/sql_logic_test_file.h"

namespace eddy {
class TableEnvironment;
class Value;
}  // namespace eddy

namespace eddy::sqllogictest {

enum class RuntimeMode { kBatch, kStreaming };

/// "batch" or "streaming".
const char* runtimeModeName(RuntimeMode mode);

/// A record whose outcome differed from the file.
struct RecordFailure {
  int line = 0;          ///< the record's header line
  std::string message;   ///< what was expected and what happened, ready to print
};

/// What a record actually produced, in the form its expected block takes (for the rewrite
/// mode): the rows, changelog lines or error message lines. Absent when the record did not
/// run or its outcome cannot be written as an expected block (e.g. `statement error` passed).
struct RecordOutcome {
  bool available = false;
  std::vector<std::string> lines;
};

class SqlLogicTestRunner {
 public:
  explicit SqlLogicTestRunner(RuntimeMode mode);
  ~SqlLogicTestRunner();

  /// Runs every record of `file` that runs in this mode, in order. Records are independent:
  /// a failing record is reported and the next one runs.
  std::vector<RecordFailure> run(const SqlLogicTestFile& file);

  /// After run(): the actual outcome of each record, indexed like file.records.
  const std::vector<RecordOutcome>& outcomes() const { return outcomes_; }

 private:
  // Each returns the failure message, or "" when the record passed; fills *outcome.
  std::string runStatementOk(const Record& record);
  std::string runStatementError(const Record& record, RecordOutcome* outcome);
  std::string runQuery(const Record& record, RecordOutcome* outcome);
  std::string runChangelog(const Record& record, RecordOutcome* outcome);

  RuntimeMode mode_;
  std::unique_ptr<TableEnvironment> environment_;
  std::vector<RecordOutcome> outcomes_;
};

/// The text a value of a query result prints as: NULL as `NULL`, the empty string as
/// `(empty)` (so a row is never a blank line), anything else as Value::toString.
std::string renderValue(const Value& value);

}  // namespace eddy::sqllogictest
