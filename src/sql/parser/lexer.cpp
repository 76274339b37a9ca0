// The SQL lexer (see lexer.h). One pass over the bytes; the line and column are advanced per
// character, counting a UTF-8 multi-byte sequence as one column.
#include "sql/parser/lexer.h"

#include <fmt/format.h>

#include <cctype>

#include "eddy/exceptions.h"

namespace eddy::sql {
namespace {

bool isIdentifierStart(unsigned char c) {
  return std::isalpha(c) || c == '_' || c == '$' || c >= 0x80;
}

bool isIdentifierPart(unsigned char c) { return isIdentifierStart(c) || std::isdigit(c); }

class Lexer {
 public:
  explicit Lexer(std::string_view sql) : sql_(sql) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    while (true) {
      skipWhitespaceAndComments();
      if (offset_ >= sql_.size()) break;
      tokens.push_back(nextToken());
    }
    Token end;
    end.kind = TokenKind::kEnd;
    end.position = {line_, column_};
    end.begin = end.end = sql_.size();
    if (!tokens.empty()) {
      // <EOF> is reported just after the last token, where something is missing.
      const Token& last = tokens.back();
      end.position = positionAt(sql_, last.end);
    }
    tokens.push_back(std::move(end));
    return tokens;
  }

 private:
  [[noreturn]] void fail(const std::string& what, SourcePosition position) const {
    throw SqlParseException(fmt::format("SQL parse failed. {} at line {}, column {}.", what,
                                        position.line, position.column),
                            position.line, position.column);
  }

  char peek(size_t ahead = 0) const {
    return offset_ + ahead < sql_.size() ? sql_[offset_ + ahead] : '\0';
  }

  void advance() {
    char c = sql_[offset_++];
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      // A UTF-8 continuation byte belongs to the column of its lead byte.
      ++column_;
    }
  }

  void skipWhitespaceAndComments() {
    while (offset_ < sql_.size()) {
      char c = peek();
      if (std::isspace(static_cast<unsigned char>(c))) {
        advance();
      } else if (c == '-' && peek(1) == '-') {
        while (offset_ < sql_.size() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        SourcePosition start{line_, column_};
        advance();
        advance();
        while (true) {
          if (offset_ >= sql_.size()) fail("Unterminated comment", start);
          if (peek() == '*' && peek(1) == '/') {
            advance();
            advance();
            break;
          }
          advance();
        }
      } else {
        return;
      }
    }
  }

  // A quoted text after the opening quote; the quote doubled stands for itself.
  std::string quoted(char quote, SourcePosition start, const char* what) {
    std::string value;
    while (true) {
      if (offset_ >= sql_.size()) fail(fmt::format("Unterminated {}", what), start);
      char c = peek();
      if (c == quote) {
        if (peek(1) == quote) {
          value.push_back(quote);
          advance();
          advance();
          continue;
        }
        advance();
        return value;
      }
      value.push_back(c);
      advance();
    }
  }

  Token nextToken() {
    Token token;
    token.position = {line_, column_};
    token.begin = offset_;
    unsigned char c = static_cast<unsigned char>(peek());
    if ((c == 'x' || c == 'X') && peek(1) == '\'') {
      advance();
      advance();
      token.kind = TokenKind::kBinaryString;
      token.text = quoted('\'', token.position, "binary string literal");
      for (char digit : token.text) {
        if (!std::isxdigit(static_cast<unsigned char>(digit))) {
          fail("Binary literal string must contain only characters '0' - '9', 'A' - 'F'",
               token.position);
        }
      }
    } else if (isIdentifierStart(c)) {
      while (offset_ < sql_.size() && isIdentifierPart(static_cast<unsigned char>(peek()))) {
        advance();
      }
      token.kind = TokenKind::kIdentifier;
      token.text = std::string(sql_.substr(token.begin, offset_ - token.begin));
      token.keyword = token.text;
      for (char& k : token.keyword)
        k = static_cast<char>(std::toupper(static_cast<unsigned char>(k)));
    } else if (std::isdigit(c) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      lexNumber(token);
    } else if (c == '\'') {
      advance();
      token.kind = TokenKind::kString;
      token.text = quoted('\'', token.position, "string literal");
    } else if (c == '`') {
      advance();
      token.kind = TokenKind::kQuotedIdentifier;
      token.text = quoted('`', token.position, "quoted identifier");
      if (token.text.empty()) fail("Zero-length quoted identifier", token.position);
    } else if (c == '?') {
      advance();
      token.kind = TokenKind::kParameter;
      token.text = "?";
    } else {
      lexSymbol(token);
    }
    token.end = offset_;
    return token;
  }

  void lexNumber(Token& token) {
    auto digits = [&] {
      while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
    };
    digits();
    if (peek() == '.') {
      advance();
      digits();
    }
    token.kind = TokenKind::kExactNumber;
    if ((peek() == 'e' || peek() == 'E') && (std::isdigit(static_cast<unsigned char>(peek(1))) ||
                                             ((peek(1) == '+' || peek(1) == '-') &&
                                              std::isdigit(static_cast<unsigned char>(peek(2)))))) {
      advance();
      if (peek() == '+' || peek() == '-') advance();
      digits();
      token.kind = TokenKind::kApproximateNumber;
    }
    token.text = std::string(sql_.substr(token.begin, offset_ - token.begin));
    for (char& k : token.text) {
      if (k == 'e') k = 'E';
    }
  }

  void lexSymbol(Token& token) {
    static constexpr std::string_view kTwoCharacterSymbols[] = {
        "<>", "!=", "<=", ">=", "||", "::", "=>"};
    token.kind = TokenKind::kSymbol;
    for (std::string_view symbol : kTwoCharacterSymbols) {
      if (peek() == symbol[0] && peek(1) == symbol[1]) {
        advance();
        advance();
        token.text = std::string(symbol);
        return;
      }
    }
    char c = peek();
    if (std::string_view("=<>+-*/%.,()[];").find(c) != std::string_view::npos) {
      advance();
      token.text = std::string(1, c);
      return;
    }
    // Name the whole (possibly multi-byte) character.
    size_t length = 1;
    while (offset_ + length < sql_.size() &&
           (static_cast<unsigned char>(sql_[offset_ + length]) & 0xC0) == 0x80) {
      ++length;
    }
    fail(fmt::format("Unexpected character \"{}\"", sql_.substr(offset_, length)), token.position);
  }

  std::string_view sql_;
  size_t offset_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace

std::vector<Token> tokenize(std::string_view sql) { return Lexer(sql).run(); }

SourcePosition positionAt(std::string_view sql, size_t offset) {
  SourcePosition position{1, 1};
  for (size_t i = 0; i < offset && i < sql.size(); ++i) {
    if (sql[i] == '\n') {
      ++position.line;
      position.column = 1;
    } else if ((static_cast<unsigned char>(sql[i]) & 0xC0) != 0x80) {
      ++position.column;
    }
  }
  return position;
}

}  // namespace eddy::sql
