#include "client/statement_buffer.h"

#include <cctype>

namespace eddy::client {
namespace {

std::string upperWords(const std::string& text) {
  // The statement's words in upper case, separated by single spaces (for keyword checks).
  std::string words;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!words.empty() && words.back() != ' ') words += ' ';
    } else {
      words += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  while (!words.empty() && words.back() == ' ') words.pop_back();
  return words;
}

/// The ends (one past each `;`) of the statements in `text`, scanning past literals,
/// quoted identifiers and comments. Also tells whether only blanks and comments follow the
/// last end.
struct Scan {
  std::vector<size_t> statementEnds;
  bool restIsBlank = true;
};

Scan scan(const std::string& text) {
  Scan result;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '\'' || c == '"' || c == '`') {
      result.restIsBlank = false;
      // A doubled quote inside is an escaped quote: scanning it as close-then-open works.
      size_t close = text.find(c, i + 1);
      i = close == std::string::npos ? text.size() : close + 1;
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') {
      size_t newline = text.find('\n', i);
      i = newline == std::string::npos ? text.size() : newline + 1;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t close = text.find("*/", i + 2);
      if (close == std::string::npos) {
        result.restIsBlank = false;  // an open comment continues on the next line
        i = text.size();
      } else {
        i = close + 2;
      }
    } else if (c == ';') {
      result.statementEnds.push_back(i + 1);
      result.restIsBlank = true;
      ++i;
    } else {
      if (!std::isspace(static_cast<unsigned char>(c))) result.restIsBlank = false;
      ++i;
    }
  }
  return result;
}

}  // namespace

void StatementBuffer::addLine(const std::string& line) {
  text_ += line;
  text_ += '\n';
}

bool StatementBuffer::isEmpty() const {
  Scan result = scan(text_);
  return result.statementEnds.empty() && result.restIsBlank;
}

std::vector<std::string> StatementBuffer::takeCompleteStatements() {
  std::vector<std::string> statements;
  Scan result = scan(text_);
  size_t start = 0;
  bool inStatementSet = false;
  size_t setStart = 0;
  for (size_t end : result.statementEnds) {
    std::string statement = text_.substr(start, end - start);
    std::string words = upperWords(statement);
    if (!inStatementSet && words.ends_with("BEGIN STATEMENT SET;")) {
      inStatementSet = true;
      setStart = start;
    } else if (inStatementSet && words == "END;") {
      inStatementSet = false;
      statements.push_back(text_.substr(setStart, end - setStart));
    } else if (!inStatementSet) {
      statements.push_back(statement);
    }
    start = end;
  }
  size_t consumed = inStatementSet ? setStart : start;
  text_.erase(0, consumed);
  // Keep the buffer free of the blank line ends left after the last statement.
  if (isEmpty()) text_.clear();
  return statements;
}

}  // namespace eddy::client
