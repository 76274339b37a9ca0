// QueryInterruption: while a query's result is shown in the interactive client, Ctrl-C (and,
// in the table and changelog views, the Q key) cancels the query instead of ending the client,
// as in Flink's SQL client. The SIGINT handler only writes a byte to a self-pipe; a watcher
// thread waits on that pipe (and on the terminal, for Q) and calls TableResult::cancel(), so
// the thread printing the rows sees its next() end. Scoped: the constructor installs the
// handler and starts the watcher, the destructor stops it and restores SIGINT's previous
// disposition and the terminal's mode. Created and destroyed on the client's thread; the
// result must outlive it. One at a time per process.
#pragma once

#include <termios.h>

#include <atomic>
#include <csignal>
#include <thread>

#include "eddy/table/table_result.h"

namespace eddy::client {

class QueryInterruption {
 public:
  /// Watches Ctrl-C; with `quitKeyInput` >= 0 (a terminal's descriptor) also the keys q and Q
  /// typed there, reading the terminal unbuffered and without echo meanwhile.
  QueryInterruption(TableResult& result, int quitKeyInput);
  ~QueryInterruption();
  QueryInterruption(const QueryInterruption&) = delete;
  QueryInterruption& operator=(const QueryInterruption&) = delete;

  /// Whether the user interrupted the query (Ctrl-C or Q).
  bool interrupted() const { return interrupted_.load(); }

 private:
  void watch();

  TableResult& result_;
  int quitKeyInput_;
  std::atomic<bool> interrupted_{false};
  std::atomic<bool> stopping_{false};
  struct sigaction previousAction_ = {};
  termios previousTerminalMode_ = {};
  bool terminalModeChanged_ = false;
  std::thread watcher_;
};

}  // namespace eddy::client
