// The type-string parser: turns `MAP<STRING, ARRAY<DECIMAL(12, 2) NOT NULL>>` into a
// LogicalType. It accepts everything asSummaryString()/asSerializableString() print plus the
// SQL spellings Flink's LogicalTypeParser accepts (INTEGER, DEC, NUMERIC, CHARACTER VARYING,
// DOUBLE PRECISION, TIMESTAMP WITH LOCAL TIME ZONE, ROW(...), postfix ARRAY/MULTISET).
// Keywords are case-insensitive; field names keep their case. Every error is a
// ValidationException "Could not parse type '<text>' at column <n>: <what>".
#include <fmt/format.h>

#include <cctype>

#include "eddy/exceptions.h"
#include "eddy/types/logical_type.h"

namespace eddy {
namespace {

enum class TokenKind { kIdentifier, kQuotedIdentifier, kInteger, kString, kSymbol, kEnd };

struct Token {
  TokenKind kind;
  std::string text;  // identifiers as written, strings and quoted identifiers unescaped
  int column;        // 1-based
};

class TypeStringParser {
 public:
  explicit TypeStringParser(std::string_view text) : text_(text) { tokenize(); }

  LogicalTypePtr parseAll() {
    LogicalTypePtr type = parseType();
    if (peek().kind != TokenKind::kEnd) fail(peek(), "unexpected token " + describe(peek()));
    return type;
  }

 private:
  [[noreturn]] void failAt(int column, const std::string& what) const {
    throw ValidationException(
        fmt::format("Could not parse type '{}' at column {}: {}", text_, column, what));
  }
  [[noreturn]] void fail(const Token& token, const std::string& what) const {
    failAt(token.column, what);
  }

  static std::string describe(const Token& token) {
    if (token.kind == TokenKind::kEnd) return "end of input";
    if (token.kind == TokenKind::kString) return "'\\'" + token.text + "\\''";
    if (token.kind == TokenKind::kQuotedIdentifier) return "'`" + token.text + "`'";
    return "'" + token.text + "'";
  }

  void tokenize() {
    size_t i = 0;
    while (i < text_.size()) {
      char c = text_[i];
      int column = static_cast<int>(i) + 1;
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
        size_t start = i;
        while (i < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[i])) ||
                                    text_[i] == '_' || text_[i] == '$')) {
          ++i;
        }
        tokens_.push_back(
            {TokenKind::kIdentifier, std::string(text_.substr(start, i - start)), column});
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t start = i;
        while (i < text_.size() && std::isdigit(static_cast<unsigned char>(text_[i]))) ++i;
        tokens_.push_back(
            {TokenKind::kInteger, std::string(text_.substr(start, i - start)), column});
      } else if (c == '\'' || c == '`') {
        // Quoted string or identifier; the quote character doubled stands for itself.
        std::string value;
        ++i;
        bool closed = false;
        while (i < text_.size()) {
          if (text_[i] == c) {
            if (i + 1 < text_.size() && text_[i + 1] == c) {
              value.push_back(c);
              i += 2;
              continue;
            }
            ++i;
            closed = true;
            break;
          }
          value.push_back(text_[i++]);
        }
        if (!closed) {
          failAt(column, c == '\'' ? "unterminated string literal" : "unterminated identifier");
        }
        tokens_.push_back({c == '\'' ? TokenKind::kString : TokenKind::kQuotedIdentifier,
                           std::move(value), column});
      } else if (std::string_view("()<>,*.").find(c) != std::string_view::npos) {
        tokens_.push_back({TokenKind::kSymbol, std::string(1, c), column});
        ++i;
      } else {
        failAt(column, fmt::format("unexpected character '{}'", c));
      }
    }
    tokens_.push_back({TokenKind::kEnd, "", static_cast<int>(text_.size()) + 1});
  }

  const Token& peek(size_t ahead = 0) const {
    size_t index = std::min(position_ + ahead, tokens_.size() - 1);
    return tokens_[index];
  }
  const Token& next() {
    const Token& token = tokens_[position_];
    if (position_ + 1 < tokens_.size()) ++position_;
    return token;
  }

  static std::string upper(std::string_view text) {
    std::string result(text);
    for (char& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return result;
  }

  bool isKeyword(const Token& token, std::string_view keyword) const {
    return token.kind == TokenKind::kIdentifier && upper(token.text) == keyword;
  }
  bool isSymbol(const Token& token, char symbol) const {
    return token.kind == TokenKind::kSymbol && token.text[0] == symbol;
  }
  bool acceptKeyword(std::string_view keyword) {
    if (!isKeyword(peek(), keyword)) return false;
    next();
    return true;
  }
  bool acceptSymbol(char symbol) {
    if (!isSymbol(peek(), symbol)) return false;
    next();
    return true;
  }
  void expectKeyword(std::string_view keyword) {
    if (!acceptKeyword(keyword)) {
      fail(peek(), fmt::format("unexpected {}, expected '{}'", describe(peek()), keyword));
    }
  }
  void expectSymbol(char symbol) {
    if (!acceptSymbol(symbol)) {
      fail(peek(), fmt::format("unexpected {}, expected '{}'", describe(peek()), symbol));
    }
  }

  int expectInteger() {
    const Token& token = peek();
    if (token.kind != TokenKind::kInteger) {
      fail(token, fmt::format("unexpected {}, expected an integer", describe(token)));
    }
    next();
    if (token.text.size() > 10 || std::stoll(token.text) > LogicalType::kMaxLength) {
      fail(token, fmt::format("integer {} is too large", token.text));
    }
    return static_cast<int>(std::stoll(token.text));
  }

  std::string expectString() {
    const Token& token = peek();
    if (token.kind != TokenKind::kString) {
      fail(token, fmt::format("unexpected {}, expected a string literal", describe(token)));
    }
    next();
    return token.text;
  }

  // Runs a factory; a ValidationException from it gets the parser's prefix and `column`.
  template <typename Factory>
  LogicalTypePtr build(int column, Factory&& factory) {
    try {
      return factory();
    } catch (const ValidationException& error) {
      failAt(column, error.what());
    }
  }

  // `(n)` when present; returns `fallback` otherwise. Sets `column` to the number's column.
  int optionalParameter(int fallback, int& column) {
    column = peek().column;
    if (!acceptSymbol('(')) return fallback;
    column = peek().column;
    int value = expectInteger();
    expectSymbol(')');
    return value;
  }

  LogicalTypePtr parseType() {
    // Nesting is bounded so that a deeply nested type string is an error, not a stack
    // overflow.
    if (++depth_ > kMaxDepth) {
      fail(peek(), fmt::format("types nested deeper than {} levels are not supported", kMaxDepth));
    }
    struct DepthGuard {
      int& depth;
      ~DepthGuard() { --depth; }
    } guard{depth_};
    LogicalTypePtr type = parseBaseType();
    while (true) {
      const Token& token = peek();
      if (isKeyword(token, "NOT") && isKeyword(peek(1), "NULL")) {
        next();
        next();
        type = type->copy(false);
      } else if (isKeyword(token, "NULL")) {
        next();
        type = type->copy(true);
      } else if (isSymbol(token, '*') &&
                 (isKeyword(peek(1), "ROWTIME") || isKeyword(peek(1), "PROCTIME")) &&
                 isSymbol(peek(2), '*')) {
        next();
        TimestampKind kind =
            isKeyword(next(), "ROWTIME") ? TimestampKind::ROWTIME : TimestampKind::PROCTIME;
        next();
        LogicalTypeRoot root = type->getTypeRoot();
        if (root != LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE &&
            root != LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
          fail(token, fmt::format("a time attribute needs TIMESTAMP or TIMESTAMP_LTZ, not {}",
                                  type->asSummaryString()));
        }
        type = type->copyWithTimestampKind(kind);
      } else if (isKeyword(token, "ARRAY")) {
        next();
        type = LogicalType::array(type);
      } else if (isKeyword(token, "MULTISET")) {
        next();
        type = LogicalType::multiset(type);
      } else {
        return type;
      }
    }
  }

  // Fields up to and including `close`: `name TYPE ['description'], ...`.
  std::vector<RowField> parseFields(char close) {
    std::vector<RowField> fields;
    if (acceptSymbol(close)) return fields;
    while (true) {
      const Token& nameToken = peek();
      if (nameToken.kind != TokenKind::kIdentifier &&
          nameToken.kind != TokenKind::kQuotedIdentifier) {
        fail(nameToken, fmt::format("unexpected {}, expected a field name", describe(nameToken)));
      }
      next();
      RowField field{nameToken.text, parseType(), std::nullopt};
      if (peek().kind == TokenKind::kString) field.description = expectString();
      fields.push_back(std::move(field));
      if (acceptSymbol(close)) break;
      if (!acceptSymbol(',')) {
        fail(peek(), fmt::format("unexpected {}, expected ',' or '{}'", describe(peek()), close));
      }
    }
    return fields;
  }

  LogicalTypePtr parseInterval() {
    int column = 0;
    const Token& unit = peek();
    if (acceptKeyword("YEAR")) {
      int precision = optionalParameter(LogicalType::kDefaultYearPrecision, column);
      YearMonthResolution resolution = YearMonthResolution::YEAR;
      if (acceptKeyword("TO")) {
        expectKeyword("MONTH");
        resolution = YearMonthResolution::YEAR_TO_MONTH;
      }
      return build(column, [&] { return LogicalType::yearMonthInterval(resolution, precision); });
    }
    if (acceptKeyword("MONTH")) return LogicalType::yearMonthInterval(YearMonthResolution::MONTH);
    int dayPrecision = LogicalType::kDefaultDayPrecision;
    int fractional = LogicalType::kDefaultFractionalPrecision;
    int dayColumn = 0;
    int fractionalColumn = 0;
    DayTimeResolution resolution;
    if (acceptKeyword("DAY")) {
      dayPrecision = optionalParameter(dayPrecision, dayColumn);
      resolution = DayTimeResolution::DAY;
      if (acceptKeyword("TO")) {
        if (acceptKeyword("HOUR")) {
          resolution = DayTimeResolution::DAY_TO_HOUR;
        } else if (acceptKeyword("MINUTE")) {
          resolution = DayTimeResolution::DAY_TO_MINUTE;
        } else {
          expectKeyword("SECOND");
          resolution = DayTimeResolution::DAY_TO_SECOND;
          fractional = optionalParameter(fractional, fractionalColumn);
        }
      }
    } else if (acceptKeyword("HOUR")) {
      resolution = DayTimeResolution::HOUR;
      if (acceptKeyword("TO")) {
        if (acceptKeyword("MINUTE")) {
          resolution = DayTimeResolution::HOUR_TO_MINUTE;
        } else {
          expectKeyword("SECOND");
          resolution = DayTimeResolution::HOUR_TO_SECOND;
          fractional = optionalParameter(fractional, fractionalColumn);
        }
      }
    } else if (acceptKeyword("MINUTE")) {
      resolution = DayTimeResolution::MINUTE;
      if (acceptKeyword("TO")) {
        expectKeyword("SECOND");
        resolution = DayTimeResolution::MINUTE_TO_SECOND;
        fractional = optionalParameter(fractional, fractionalColumn);
      }
    } else if (acceptKeyword("SECOND")) {
      resolution = DayTimeResolution::SECOND;
      fractional = optionalParameter(fractional, fractionalColumn);
    } else {
      fail(unit, fmt::format("unexpected {}, expected an interval unit (YEAR, MONTH, DAY, HOUR, "
                             "MINUTE or SECOND)",
                             describe(unit)));
    }
    if (dayPrecision < 1 || dayPrecision > 6)
      column = dayColumn;
    else
      column = fractionalColumn;
    return build(
        column, [&] { return LogicalType::dayTimeInterval(resolution, dayPrecision, fractional); });
  }

  LogicalTypePtr parseBaseType() {
    const Token& token = peek();
    if (isSymbol(token, '*')) return parseStructured();
    if (token.kind != TokenKind::kIdentifier) {
      fail(token, fmt::format("unexpected {}, expected a type", describe(token)));
    }
    std::string keyword = upper(token.text);
    next();
    int column = 0;
    if (keyword == "BOOLEAN") return LogicalType::simple(LogicalTypeRoot::BOOLEAN);
    if (keyword == "TINYINT") return LogicalType::simple(LogicalTypeRoot::TINYINT);
    if (keyword == "SMALLINT") return LogicalType::simple(LogicalTypeRoot::SMALLINT);
    if (keyword == "INT" || keyword == "INTEGER") {
      return LogicalType::simple(LogicalTypeRoot::INTEGER);
    }
    if (keyword == "BIGINT") return LogicalType::simple(LogicalTypeRoot::BIGINT);
    if (keyword == "FLOAT" || keyword == "REAL") {
      return LogicalType::simple(LogicalTypeRoot::FLOAT);
    }
    if (keyword == "DOUBLE") {
      acceptKeyword("PRECISION");
      return LogicalType::simple(LogicalTypeRoot::DOUBLE);
    }
    if (keyword == "DATE") return LogicalType::simple(LogicalTypeRoot::DATE);
    if (keyword == "NULL") return LogicalType::nullType();
    if (keyword == "DECIMAL" || keyword == "DEC" || keyword == "NUMERIC") {
      int precision = LogicalType::kDefaultDecimalPrecision;
      int scale = 0;
      int scaleColumn = 0;
      column = peek().column;
      if (acceptSymbol('(')) {
        column = peek().column;
        precision = expectInteger();
        if (acceptSymbol(',')) {
          scaleColumn = peek().column;
          scale = expectInteger();
        }
        expectSymbol(')');
      }
      if (precision >= 1 && precision <= LogicalType::kMaxDecimalPrecision) column = scaleColumn;
      return build(column, [&] { return LogicalType::decimal(precision, scale); });
    }
    if (keyword == "CHAR" || keyword == "CHARACTER") {
      bool varying = acceptKeyword("VARYING");
      int length = optionalParameter(1, column);
      return build(column, [&] {
        return varying ? LogicalType::varchar(length) : LogicalType::charType(length);
      });
    }
    if (keyword == "VARCHAR") {
      int length = optionalParameter(1, column);
      return build(column, [&] { return LogicalType::varchar(length); });
    }
    if (keyword == "STRING") return LogicalType::varchar(LogicalType::kMaxLength);
    if (keyword == "BINARY") {
      bool varying = acceptKeyword("VARYING");
      int length = optionalParameter(1, column);
      return build(column, [&] {
        return varying ? LogicalType::varbinary(length) : LogicalType::binary(length);
      });
    }
    if (keyword == "VARBINARY") {
      int length = optionalParameter(1, column);
      return build(column, [&] { return LogicalType::varbinary(length); });
    }
    if (keyword == "BYTES") return LogicalType::varbinary(LogicalType::kMaxLength);
    if (keyword == "TIME") {
      int precision = optionalParameter(0, column);
      if (acceptKeyword("WITHOUT")) {
        expectKeyword("TIME");
        expectKeyword("ZONE");
      }
      return build(column, [&] { return LogicalType::time(precision); });
    }
    if (keyword == "TIMESTAMP") {
      int precision = optionalParameter(LogicalType::kDefaultTimestampPrecision, column);
      bool localZoned = false;
      if (acceptKeyword("WITHOUT")) {
        expectKeyword("TIME");
        expectKeyword("ZONE");
      } else if (isKeyword(peek(), "WITH")) {
        const Token& with = next();
        if (acceptKeyword("LOCAL")) {
          expectKeyword("TIME");
          expectKeyword("ZONE");
          localZoned = true;
        } else {
          fail(with,
               "TIMESTAMP WITH TIME ZONE is not supported, use TIMESTAMP WITH LOCAL TIME "
               "ZONE (TIMESTAMP_LTZ)");
        }
      }
      return build(column, [&] {
        return localZoned ? LogicalType::localZonedTimestamp(precision)
                          : LogicalType::timestamp(precision);
      });
    }
    if (keyword == "TIMESTAMP_LTZ") {
      int precision = optionalParameter(LogicalType::kDefaultTimestampPrecision, column);
      return build(column, [&] { return LogicalType::localZonedTimestamp(precision); });
    }
    if (keyword == "INTERVAL") return parseInterval();
    if (keyword == "ARRAY" || keyword == "MULTISET") {
      expectSymbol('<');
      LogicalTypePtr element = parseType();
      expectSymbol('>');
      return keyword == "ARRAY" ? LogicalType::array(element) : LogicalType::multiset(element);
    }
    if (keyword == "MAP") {
      expectSymbol('<');
      LogicalTypePtr key = parseType();
      expectSymbol(',');
      LogicalTypePtr value = parseType();
      expectSymbol('>');
      return LogicalType::map(key, value);
    }
    if (keyword == "ROW") {
      column = peek().column;
      char close;
      if (acceptSymbol('<')) {
        close = '>';
      } else if (acceptSymbol('(')) {
        close = ')';
      } else {
        fail(peek(), fmt::format("unexpected {}, expected '<' or '('", describe(peek())));
      }
      std::vector<RowField> fields = parseFields(close);
      return build(column, [&] { return LogicalType::row(std::move(fields)); });
    }
    if (keyword == "RAW") {
      expectSymbol('(');
      std::string className = expectString();
      expectSymbol(',');
      std::string snapshot = expectString();
      expectSymbol(')');
      return build(token.column, [&] { return LogicalType::raw(className, snapshot); });
    }
    fail(token, fmt::format("unknown type '{}'", token.text));
  }

  // *com.example.User<`name` STRING,`score` INT>*
  LogicalTypePtr parseStructured() {
    const Token& star = next();
    std::string className;
    while (true) {
      const Token& part = peek();
      if (part.kind != TokenKind::kIdentifier) {
        fail(part, fmt::format("unexpected {}, expected a class name", describe(part)));
      }
      className += next().text;
      if (!acceptSymbol('.')) break;
      className.push_back('.');
    }
    expectSymbol('<');
    std::vector<RowField> attributes = parseFields('>');
    expectSymbol('*');
    return build(star.column, [&] {
      return LogicalType::structured(std::move(className), std::move(attributes));
    });
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t position_ = 0;
  static constexpr int kMaxDepth = 200;
  int depth_ = 0;
};

}  // namespace

LogicalTypePtr parseLogicalType(std::string_view text) { return TypeStringParser(text).parseAll(); }

}  // namespace eddy
