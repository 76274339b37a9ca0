#include "client/line_reader.h"

// libedit's readline-compatible interface (Debian's libedit-dev).
#include <editline/readline.h>

#include <csignal>
#include <cstdlib>

namespace eddy::client {

namespace {

constexpr int kHistoryEntries = 1000;

volatile std::sig_atomic_t interrupted = 0;

void onInterrupt(int) { interrupted = 1; }

}  // namespace

EditLineReader::EditLineReader(std::string historyFile) : historyFile_(std::move(historyFile)) {
  using_history();
  stifle_history(kHistoryEntries);
  if (!historyFile_.empty()) read_history(historyFile_.c_str());
}

EditLineReader::~EditLineReader() {
  if (!historyFile_.empty()) write_history(historyFile_.c_str());
}

LineEvent EditLineReader::readLine(const std::string& prompt, std::string& line) {
  // Without SA_RESTART, Ctrl-C interrupts libedit's read: readline() returns null with the
  // flag set, where Ctrl-D returns null without it.
  struct sigaction action = {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  struct sigaction previous = {};
  interrupted = 0;
  sigaction(SIGINT, &action, &previous);
  char* text = readline(prompt.c_str());
  sigaction(SIGINT, &previous, nullptr);
  if (text == nullptr) return interrupted ? LineEvent::kInterrupted : LineEvent::kEndOfInput;
  line = text;
  std::free(text);
  return LineEvent::kLine;
}

void EditLineReader::addHistory(const std::string& entry) { add_history(entry.c_str()); }

}  // namespace eddy::client
