// TableResult: the result of executing a statement, as Flink's. DDL and other statements
// return "OK" (or their listing, for SHOW); queries return their rows — a finished job's
// rows in BATCH mode, a running job's changelog in STREAMING mode. print() shows either in
// Flink's tableau form; collect() iterates the rows (with their RowKind).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <vector>

#include "eddy/row.h"
#include "eddy/table/resolved_schema.h"

namespace eddy {

enum class ResultKind { SUCCESS, SUCCESS_WITH_CONTENT };

/// Pulls the rows of a result one at a time; nullopt at the end. Owned by the TableResult.
class RowSource {
 public:
  virtual ~RowSource() = default;
  virtual std::optional<Row> next() = 0;
  /// Stops the producing job, if any.
  virtual void close() {}
};

class TableResult {
 public:
  TableResult(ResultKind kind, ResolvedSchema schema, std::unique_ptr<RowSource> rows,
              bool streaming);
  TableResult(TableResult&&) noexcept;
  TableResult& operator=(TableResult&&) noexcept;
  ~TableResult();

  /// A SUCCESS result: one column `result` with the row "OK".
  static TableResult ok();
  /// A finished listing (SHOW ...): the rows as given.
  static TableResult ofRows(ResolvedSchema schema, std::vector<Row> rows);

  ResultKind getResultKind() const { return kind_; }
  const ResolvedSchema& getResolvedSchema() const { return schema_; }

  /// Prints to stdout in the tableau form (see table/tableau_printer.h); consumes the rows.
  void print();
  void print(std::ostream& out);
  /// The remaining rows, in order; consumes them.
  std::vector<Row> collectAll();
  /// The next row, or nullopt at the end (an iterator in Flink's collect()).
  std::optional<Row> next();
  /// Waits until the job behind the result has finished (consuming its rows).
  void await();

 private:
  ResultKind kind_;
  ResolvedSchema schema_;
  std::unique_ptr<RowSource> rows_;
  bool streaming_;
};

}  // namespace eddy
