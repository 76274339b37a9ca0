// What the parser knows about tokens beyond the cursor (recursive_descent_parser.h): which
// words are reserved, and how a failure at a token is reported. Every `accept*` that fails
// notes what it looked for at the current token (note); failExpected turns the notes taken at
// the failing token into Flink's "Encountered .. Was expecting one of: .." message.
#include <fmt/ranges.h>

#include <iterator>

#include "eddy/exceptions.h"
#include "sql/parser/recursive_descent_parser.h"

namespace eddy::sql::detail {

// Words that cannot be unquoted identifiers or aliases, because they start or continue a
// clause (so `FROM t WHERE` never takes WHERE for an alias) or an expression.
constexpr std::string_view kReservedWords[] = {
    "ALL",
    "AND",
    "AS",
    "BETWEEN",
    "BY",
    "CASE",
    "CAST",
    "CONSTRAINT",
    "CREATE",
    "CROSS",
    "CUBE",
    "CURRENT_DATE",
    "CURRENT_TIME",
    "CURRENT_TIMESTAMP",
    "DESCRIBE",
    "DISTINCT",
    "DROP",
    "ELSE",
    "END",
    "ESCAPE",
    "EXCEPT",
    "EXISTS",
    "EXPLAIN",
    "FALSE",
    "FETCH",
    "FILTER",
    "FOR",
    "FROM",
    "FULL",
    "GROUP",
    "GROUPING",
    "HAVING",
    "IN",
    "INNER",
    "INSERT",
    "INTERSECT",
    "INTERVAL",
    "INTO",
    "IS",
    "JOIN",
    "LATERAL",
    "LEFT",
    "LIKE",
    "LIMIT",
    "LOCALTIME",
    "LOCALTIMESTAMP",
    "MATCH_RECOGNIZE",
    "MINUS",
    "NATURAL",
    "NOT",
    "NULL",
    "OFFSET",
    "ON",
    "OR",
    "ORDER",
    "OUTER",
    "OVER",
    "PARTITION",
    "RIGHT",
    "ROLLUP",
    "SELECT",
    "SIMILAR",
    "TABLE",
    "THEN",
    "TRUE",
    "UNION",
    "UNKNOWN",
    "UNNEST",
    "USING",
    "VALUES",
    "WHEN",
    "WHERE",
    "WINDOW",
    "WITH",
    "TRY_CAST",
};

bool isReservedWord(std::string_view keyword) {
  return std::find(std::begin(kReservedWords), std::end(kReservedWords), keyword) !=
         std::end(kReservedWords);
}

void Parser::note(std::string label) {
  if (notesIndex_ != position_) {
    notes_.clear();
    notesIndex_ = position_;
  }
  if (std::find(notes_.begin(), notes_.end(), label) == notes_.end()) {
    notes_.push_back(std::move(label));
  }
}

void Parser::failAt(SourcePosition position, const std::string& message) {
  throw SqlParseException("SQL parse failed. " + message, position.line, position.column);
}

std::string Parser::describe(const Token& token) const {
  if (token.kind == TokenKind::kEnd) return "<EOF>";
  std::string text(sql_.substr(token.begin, token.end - token.begin));
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// Fails at the current token with the noted alternatives plus `labels`.
void Parser::failExpected(std::initializer_list<std::string_view> labels) {
  for (std::string_view label : labels) note(std::string(label));
  std::vector<std::string> expected;
  if (notesIndex_ == position_) expected = notes_;
  // Categories (<expression>, <identifier>, ..) first, then keywords and symbols.
  std::stable_partition(expected.begin(), expected.end(),
                        [](const std::string& label) { return label.front() == '<'; });
  const Token& token = peek();
  std::string message = fmt::format("Encountered \"{}\" at line {}, column {}.", describe(token),
                                    token.position.line, token.position.column);
  if (expected.size() == 1) {
    message += " Was expecting: " + expected.front();
  } else if (!expected.empty()) {
    message += fmt::format(" Was expecting one of: {}", fmt::join(expected, ", "));
  }
  failAt(token.position, message);
}

}  // namespace eddy::sql::detail
