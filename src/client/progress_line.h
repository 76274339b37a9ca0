// ProgressLine: the one-line status `eddy sql -f` keeps on stderr while a statement's job runs
// longer than a second and stderr is a terminal, refreshed in place ("\r" + erase line):
//
//   [RUNNING] 3 s elapsed, rows read 1200, rows written 15, watermark 2024-01-01T10:00:04
//
// followed by ", restarts N" once the job has restarted after a failure (`restart-strategy.*`).
//
// Rows read are the rows the job's sources emitted; rows written are a query's result rows
// printed so far, or the rows that reached an INSERT's sinks; the watermark is the lowest one
// the sinks have seen (UTC; "-" before the first). What is unknown shows as "-". The line is
// erased when the statement ends and before each write to stdout (pause()), so the two streams
// sharing a terminal do not mix. A ticker thread redraws it, reading the job's counters
// (TableResult::getJobProgress); the printed-row count is updated from the client's thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "eddy/table/table_result.h"

namespace eddy::client {

class ProgressLine {
 public:
  /// Starts the ticker writing to `descriptor` (stderr) about `result`'s job (which must
  /// outlive the line); `countsRows`: rows written are the rows printed (addRowsWritten), else
  /// the rows that reached the job's sinks (INSERT).
  ProgressLine(int descriptor, const TableResult& result, bool countsRows);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Whether a progress line should be shown for `eddy sql -f` now: stderr is a terminal.
  static bool wanted();

  void addRowsWritten(int64_t rows) { rowsWritten_.fetch_add(rows); }

  /// Erases the line (if shown) and keeps the ticker from drawing until the returned lock is
  /// released: hold it while writing to stdout.
  std::unique_lock<std::mutex> pause();

  /// The line's text after `elapsed` with these counts (-1: unknown), watermark (epoch
  /// milliseconds; INT64_MIN: none yet, INT64_MAX: the end of input) and restarts (shown when
  /// more than 0).
  static std::string format(std::chrono::milliseconds elapsed, int64_t rowsRead,
                            int64_t rowsWritten, int64_t watermark, int64_t numRestarts = 0);

 private:
  void tick();
  void eraseLocked();

  int descriptor_;
  const TableResult& result_;
  bool countsRows_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::atomic<int64_t> rowsWritten_{0};
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;
  bool shown_ = false;
  std::thread ticker_;
};

}  // namespace eddy::client
