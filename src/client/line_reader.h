// LineReader: where the interactive client gets its input lines. EditLineReader reads a
// terminal through libedit (line editing, history recalled with the arrow keys and kept in a
// history file between sessions, Ctrl-C discarding the line being typed); tests give the
// client a scripted reader instead. Used from the client's thread only.
#pragma once

#include <string>

namespace eddy::client {

/// What reading a line got: a line, Ctrl-C (the typed input is to be discarded), or the end of
/// the input (Ctrl-D on an empty line).
enum class LineEvent { kLine, kInterrupted, kEndOfInput };

class LineReader {
 public:
  virtual ~LineReader() = default;

  /// Shows `prompt` and reads the next line into `line` (without its newline).
  virtual LineEvent readLine(const std::string& prompt, std::string& line) = 0;

  /// Records one complete statement in the history.
  virtual void addHistory(const std::string& entry) = 0;
};

/// Reads lines with libedit. The history is loaded from `historyFile` (when it exists) on
/// construction and written back on destruction; an empty name keeps no file. Only one
/// EditLineReader may exist at a time (libedit's readline interface is process-wide).
class EditLineReader : public LineReader {
 public:
  explicit EditLineReader(std::string historyFile);
  ~EditLineReader() override;

  /// Ctrl-C is caught only while a line is read; during a statement it keeps its default.
  LineEvent readLine(const std::string& prompt, std::string& line) override;
  void addHistory(const std::string& entry) override;

 private:
  std::string historyFile_;
};

}  // namespace eddy::client
