#include "client/statement_buffer.h"

#include <cctype>

namespace eddy::client {
namespace {

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
  for (size_t end : result.statementEnds) {
    statements.push_back(text_.substr(start, end - start));
    start = end;
  }
  text_.erase(0, start);
  // Keep the buffer free of the blank line ends left after the last statement.
  if (isEmpty()) text_.clear();
  return statements;
}

}  // namespace eddy::client
