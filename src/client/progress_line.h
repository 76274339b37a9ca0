// ProgressLine: the one-line status `eddy sql -f` keeps on stderr while a statement's job runs
// longer than a second and stderr is a terminal, refreshed in place ("\r" + erase line):
//
//   [RUNNING] 3 s elapsed, rows read -, rows written 15, watermark -
//
// Rows written are the rows of a query's result printed so far; what eddy cannot observe from
// a TableResult yet (rows the sources read, the job's current watermark, an INSERT's rows
// written) shows as "-". The line is erased when the statement ends and before each write to
// stdout (pause()), so the two streams sharing a terminal do not mix. A ticker thread redraws
// it; the counters are updated from the client's thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace eddy::client {

class ProgressLine {
 public:
  /// Starts the ticker writing to `descriptor` (stderr); `countsRows` false when the statement
  /// has no rows to count (INSERT).
  ProgressLine(int descriptor, bool countsRows);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Whether a progress line should be shown for `eddy sql -f` now: stderr is a terminal.
  static bool wanted();

  void addRowsWritten(int64_t rows) { rowsWritten_.fetch_add(rows); }

  /// Erases the line (if shown) and keeps the ticker from drawing until the returned lock is
  /// released: hold it while writing to stdout.
  std::unique_lock<std::mutex> pause();

  /// The line's text after `elapsed` with these counts (for tests).
  static std::string format(std::chrono::milliseconds elapsed, bool countsRows,
                            int64_t rowsWritten);

 private:
  void tick();
  void eraseLocked();

  int descriptor_;
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
