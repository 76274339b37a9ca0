// The SQL lexer (see lexer.h). One pass over the bytes; the line and column are advanced per
// character, counting a UTF-8 multi-byte sequence as one column.
#include "sql/parser/lexer.h"

#include <fmt/format.h>

#include <cctype>
#include <utility>

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
    tokens_ = &tokens;
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

  // A hint goes with the token before it (none before the first token: nothing to hint).
  void notePendingHint(std::string_view body, SourcePosition start) {
    if (tokens_ == nullptr || tokens_->empty()) return;
    Token& previous = tokens_->back();
    if (previous.hint.empty()) {
      previous.hintPosition = start;
    } else {
      previous.hint += ", ";
    }
    previous.hint += body;
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
        const bool hint = peek(2) == '+';
        advance();
        advance();
        size_t bodyBegin = offset_ + (hint ? 1 : 0);
        while (true) {
          if (offset_ >= sql_.size()) fail("Unterminated comment", start);
          if (peek() == '*' && peek(1) == '/') {
            if (hint) notePendingHint(sql_.substr(bodyBegin, offset_ - bodyBegin), start);
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
    } else if ((c == 'u' || c == 'U') && peek(1) == '&' && peek(2) == '\'') {
      advance();
      advance();
      advance();
      token.kind = TokenKind::kString;
      token.text = unicodeString(quoted('\'', token.position, "string literal"), token.position);
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

  // The text of a Unicode string literal `U&'...' [UESCAPE 'c']` (Calcite's, which Flink
  // parses): the escape character (`\` unless UESCAPE names another) followed by four hex
  // digits is that UTF-16 code unit (two in a row make a surrogate pair: one code point), and
  // doubled it stands for itself.
  std::string unicodeString(const std::string& raw, SourcePosition position) {
    char escape = '\\';
    size_t afterLiteral = offset_;
    int lineAfter = line_;
    int columnAfter = column_;
    std::vector<Token>* tokens = std::exchange(tokens_, nullptr);  // no hints while looking
    skipWhitespaceAndComments();
    tokens_ = tokens;
    if (sql_.size() - offset_ >= 7 && isUescape(sql_.substr(offset_, 7)) &&
        !isIdentifierPart(static_cast<unsigned char>(peek(7)))) {
      SourcePosition at{line_, column_};
      for (int i = 0; i < 7; ++i) advance();
      tokens_ = nullptr;
      skipWhitespaceAndComments();
      tokens_ = tokens;
      if (peek() != '\'') fail("Encountered UESCAPE without a string literal", at);
      advance();
      std::string character = quoted('\'', at, "string literal");
      if (character.size() != 1) {
        fail(fmt::format("UESCAPE '{}' must be exactly one character", character), at);
      }
      escape = character[0];
      if (std::isxdigit(static_cast<unsigned char>(escape)) || escape == '+' || escape == '\'' ||
          escape == '"' || std::isspace(static_cast<unsigned char>(escape))) {
        fail(fmt::format("UESCAPE '{}' is not a legal escape character", character), at);
      }
    } else {
      offset_ = afterLiteral;
      line_ = lineAfter;
      column_ = columnAfter;
    }
    std::string text;
    uint32_t highSurrogate = 0;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != escape) {
        text.push_back(raw[i]);
        continue;
      }
      if (i + 1 < raw.size() && raw[i + 1] == escape) {
        text.push_back(escape);
        ++i;
        continue;
      }
      uint32_t unit = 0;
      for (size_t digit = 1; digit <= 4; ++digit) {
        if (i + digit >= raw.size() || !std::isxdigit(static_cast<unsigned char>(raw[i + digit]))) {
          fail(fmt::format("Unicode escape sequence starting at character {} is not exactly four "
                           "hex digits",
                           i),
               position);
        }
        auto hex = static_cast<unsigned char>(raw[i + digit]);
        unit = unit * 16 + static_cast<uint32_t>(std::isdigit(hex) ? hex - '0'
                                                                  : std::toupper(hex) - 'A' + 10);
      }
      i += 4;
      if (unit >= 0xD800 && unit <= 0xDBFF) {
        highSurrogate = unit;
        continue;
      }
      uint32_t codePoint = unit;
      if (unit >= 0xDC00 && unit <= 0xDFFF && highSurrogate != 0) {
        codePoint = 0x10000 + ((highSurrogate - 0xD800) << 10) + (unit - 0xDC00);
      }
      highSurrogate = 0;
      appendUtf8(codePoint, text);
    }
    return text;
  }

  static bool isUescape(std::string_view word) {
    static constexpr std::string_view kUescape = "UESCAPE";
    for (size_t i = 0; i < kUescape.size(); ++i) {
      if (std::toupper(static_cast<unsigned char>(word[i])) != kUescape[i]) return false;
    }
    return true;
  }

  static void appendUtf8(uint32_t codePoint, std::string& out) {
    if (codePoint < 0x80) {
      out.push_back(static_cast<char>(codePoint));
    } else if (codePoint < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (codePoint >> 6)));
      out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
    } else if (codePoint < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (codePoint >> 12)));
      out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (codePoint >> 18)));
      out.push_back(static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
    }
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
  std::vector<Token>* tokens_ = nullptr;  // the tokens run() has produced so far
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
