// StatementBuffer: collects the lines an interactive user types until they form complete
// statements, as Flink's SQL client does: a statement ends with `;` outside string literals,
// quoted identifiers and comments, so a statement may span lines and a line may hold several
// statements. `BEGIN STATEMENT SET;`, each statement inside and `END;` are statements of their
// own: the interactive client checks each as it is entered (InteractiveSqlClient). Used from
// one thread.
#pragma once

#include <string>
#include <vector>

namespace eddy::client {

class StatementBuffer {
 public:
  /// Appends one line (without its newline).
  void addLine(const std::string& line);

  /// Whether nothing but blanks and comments is buffered.
  bool isEmpty() const;

  /// Removes and returns the complete statements at the front of the buffer, each with its
  /// `;`, in order. What follows the last complete statement stays buffered.
  std::vector<std::string> takeCompleteStatements();

  void clear() { text_.clear(); }

 private:
  std::string text_;
};

}  // namespace eddy::client
