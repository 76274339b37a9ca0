// NotNullEnforcerOperator: the NOT NULL constraint of a table sink's columns (Flink's
// ConstraintEnforcer with its NotNullEnforcer), chained right before the sink where a NOT NULL
// column of the sink receives a nullable column of the query.
//
// `table.exec.sink.not-null-enforcer`:
//   ERROR (default): a NULL in such a column fails the job with Flink's TableException
//     "Column 'a' is NOT NULL, however, a null value is being written into it. ..."; the rows
//     of the chunk before the offending one reach the sink first, nothing after it does.
//   DROP: rows with a NULL in such a column are dropped (whatever their RowKind), and counted in
//     JobMetrics::numNotNullRowsDropped, which the SQL client reports as a warning.
// A chunk without NULLs in the checked columns (their null counts are 0) passes untouched.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "eddy/runtime/stream_operator.h"

namespace eddy::runtime::operators {

struct NotNullEnforcerSpec {
  /// The checked columns and their names (for the error).
  std::vector<int> columns;
  std::vector<std::string> names;
  bool dropRows = false;  // DROP; else ERROR
};

class NotNullEnforcerOperator final : public StreamOperator {
 public:
  explicit NotNullEnforcerOperator(std::shared_ptr<const NotNullEnforcerSpec> spec)
      : spec_(std::move(spec)) {}
  void processBatch(int inputIndex, BatchPtr batch) override;

 private:
  std::shared_ptr<const NotNullEnforcerSpec> spec_;
};

/// The message of a NULL in NOT NULL column `name` (Flink's text).
std::string notNullViolationMessage(const std::string& name);

}  // namespace eddy::runtime::operators
