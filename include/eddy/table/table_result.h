// TableResult: the result of executing a statement, as Flink's. DDL and other statements
// return "OK" (or their listing, for SHOW); queries return their rows — a finished job's
// rows in BATCH mode, a running job's changelog in STREAMING mode. print() shows either in
// Flink's tableau form; collect() iterates the rows (with their RowKind). cancel() may be
// called from any thread (the SQL client's Ctrl-C) while another reads the rows.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <vector>

#include "eddy/row.h"
#include "eddy/table/resolved_schema.h"

namespace eddy {

class JobClient;

enum class ResultKind { SUCCESS, SUCCESS_WITH_CONTENT };

/// What the job behind a result has done so far, for progress displays (the SQL client's
/// status line). -1 where unknown (a result without a job).
struct JobProgress {
  /// Rows the job's sources emitted.
  int64_t rowsRead = -1;
  /// Rows that reached the job's table sinks (an INSERT's; a query's rows are its result).
  int64_t rowsWritten = -1;
  /// The lowest watermark among the sinks' inputs, epoch milliseconds; INT64_MIN: none yet.
  int64_t watermark = INT64_MIN;
  /// How often the job restarted after a failure so far (`restart-strategy.type`).
  int64_t numRestarts = 0;
};

/// Pulls the rows of a result one at a time; nullopt at the end. Owned by the TableResult.
class RowSource {
 public:
  virtual ~RowSource() = default;
  virtual std::optional<Row> next() = 0;
  /// Stops the producing job, if any. Called from the reading thread.
  virtual void close() {}
  /// Asks a next() blocked in another thread to return soon (nullopt or a row); called from
  /// any thread, possibly concurrently with next() or close(). The default does nothing: the
  /// pending next() then returns when its next row or the end arrives.
  virtual void cancel() {}
  /// Rows the producing job's time-based operators dropped as late so far (0 without a job).
  virtual int64_t numLateRecordsDropped() const { return 0; }
  /// Rows the producing job's sinks dropped for a NULL in a NOT NULL column (see
  /// TableResult::getNumNotNullRowsDropped).
  virtual int64_t numNotNullRowsDropped() const { return 0; }
  /// The producing job's progress (see JobProgress); callable from any thread.
  virtual JobProgress progress() const { return {}; }
  /// The client of the producing job, valid as long as the source; null without one.
  virtual const JobClient* jobClient() const { return nullptr; }
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
  /// Rows that the job's windows, interval joins and other time-based operators dropped
  /// because they arrived behind the watermark (so far; final once the rows are consumed).
  int64_t getNumLateRecordsDropped() const;
  /// Rows that INSERT's sinks dropped because a NOT NULL column held NULL
  /// (`table.exec.sink.not-null-enforcer` = DROP; so far, final once the job has finished).
  int64_t getNumNotNullRowsDropped() const;
  /// The job's progress so far; callable from another thread while rows are read.
  JobProgress getJobProgress() const;
  /// The job behind the result (Flink's getJobClient, an Optional there): an INSERT's or a
  /// statement set's job, valid as long as the result; null for a result without a job (DDL,
  /// SHOW) and for now for queries.
  const JobClient* getJobClient() const { return rows_ ? rows_->jobClient() : nullptr; }
  /// Whether the rows are a STREAMING job's changelog (printed with an `op` column).
  bool isStreaming() const { return streaming_; }

  /// Ends the result early, from any thread: the next next() (or the pending one, once it
  /// returns) gives nullopt and stops the job behind the result. Used by the SQL client when
  /// the user presses Ctrl-C during a query.
  void cancel();
  /// Whether cancel() was called.
  bool isCancelled() const { return cancelled_->load(); }

 private:
  ResultKind kind_;
  ResolvedSchema schema_;
  std::unique_ptr<RowSource> rows_;
  bool streaming_;
  // Heap-allocated so that it stays put when the result moves while another thread holds it.
  std::unique_ptr<std::atomic<bool>> cancelled_ = std::make_unique<std::atomic<bool>>(false);
  bool closedByCancel_ = false;  // next() stopped the job after cancel()
};

}  // namespace eddy
