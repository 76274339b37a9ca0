// The exception family of eddy. Every error a user can see is one of these types; each knows
// whether the user, an outside system or eddy itself is at fault. They are thrown on the
// thread that finds the error; the runtime catches them at the task boundary and fails the
// job with the message (see JobExecutionException), so they never escape a worker thread.
#pragma once

#include <stdexcept>
#include <string>

namespace eddy {

/// Base of every eddy exception.
class EddyException : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A SQL text could not be parsed. Carries the 1-based line and column of the fault.
class SqlParseException : public EddyException {
 public:
  SqlParseException(const std::string& message, int line, int column)
      : EddyException(message), line_(line), column_(column) {}
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  int line_;
  int column_;
};

/// A program or statement is well formed but invalid: unknown names, type mismatches,
/// unsupported combinations, bad option values. The user is at fault. A fault in a SQL text
/// carries its position (1-based line and column): what() then starts with Flink's
/// "SQL validation failed. From line L, column C: ", which the SQL client prints, and
/// message() is the text without it, which the Table API reports (a position in a text the
/// caller did not write means nothing).
class ValidationException : public EddyException {
 public:
  explicit ValidationException(const std::string& message)
      : EddyException(message), message_(message) {}
  ValidationException(const std::string& message, int line, int column)
      : EddyException("SQL validation failed. From line " + std::to_string(line) + ", column " +
                      std::to_string(column) + ": " + message),
        message_(message),
        line_(line),
        column_(column) {}

  /// The message without the position.
  const std::string& message() const { return message_; }
  /// Whether the fault has a position in a SQL text (line() and column() are then >= 1).
  bool hasPosition() const { return line_ > 0; }
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  std::string message_;
  int line_ = 0;
  int column_ = 0;
};

/// A Table API program failed while being planned or executed.
class TableException : public EddyException {
 public:
  using EddyException::EddyException;
};

/// An outside system (a file, a broker, a database) failed. `retriable` says whether
/// trying again may succeed.
class ConnectorException : public EddyException {
 public:
  ConnectorException(const std::string& message, bool retriable = false)
      : EddyException(message), retriable_(retriable) {}
  bool retriable() const { return retriable_; }

 private:
  bool retriable_;
};

/// A job failed while running. The message names the failing operator and carries the
/// original error's message.
class JobExecutionException : public EddyException {
 public:
  using EddyException::EddyException;
};

/// A broken invariant inside eddy: a bug, never the user's fault.
class InternalError : public EddyException {
 public:
  using EddyException::EddyException;
};

}  // namespace eddy
