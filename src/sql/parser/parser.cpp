// The recursive-descent parser of Flink's SQL dialect (see parser.h for the entry points and
// docs/sql_grammar.md for the grammar). One Parser object parses one text on one thread.
//
// Error reporting: every `accept*` that fails notes what it looked for at the current token;
// when the parser then fails at that token, the notes are the "Was expecting" list. Lookahead
// tests (`is*`) note nothing, so the list holds only real alternatives and stays short.
//
// Depth: `depth_` counts recursion (parentheses, subqueries, unary operators) and is capped
// at kMaxNestingDepth to protect the stack; `treeDepth_` also counts left-deep operator and
// join chains and is capped at kMaxTreeDepth so that later recursive passes over the tree
// (unparse, destruction, the binder) stay within the stack too.
#include "sql/parser/parser.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <string_view>

#include "eddy/exceptions.h"
#include "sql/parser/lexer.h"

namespace eddy::sql {
namespace {

constexpr int kMaxTreeDepth = 5000;

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

// Units accepted as symbols by EXTRACT, FLOOR/CEIL .. TO, TIMESTAMPADD and TIMESTAMPDIFF.
constexpr std::string_view kTimeUnitSymbols[] = {
    "MILLENNIUM", "CENTURY", "DECADE", "YEAR",    "QUARTER",     "MONTH",       "WEEK",
    "DAY",        "HOUR",    "MINUTE", "SECOND",  "MILLISECOND", "MICROSECOND", "NANOSECOND",
    "DOW",        "DOY",     "ISODOW", "ISOYEAR", "EPOCH"};

// The singular form of a time unit symbol (`DAYS` -> `DAY`, `SQL_TSI_DAY` -> `DAY`), or empty.
std::string timeUnitSymbol(std::string_view keyword) {
  if (keyword.starts_with("SQL_TSI_")) keyword.remove_prefix(8);
  auto known = [](std::string_view word) {
    return std::find(std::begin(kTimeUnitSymbols), std::end(kTimeUnitSymbols), word) !=
           std::end(kTimeUnitSymbols);
  };
  if (known(keyword)) return std::string(keyword);
  if (keyword.ends_with("S") && known(keyword.substr(0, keyword.size() - 1))) {
    return std::string(keyword.substr(0, keyword.size() - 1));
  }
  return "";
}

std::optional<TimeUnit> intervalUnit(std::string_view keyword) {
  if (keyword.ends_with("S")) keyword.remove_suffix(1);
  if (keyword == "YEAR") return TimeUnit::kYear;
  if (keyword == "MONTH") return TimeUnit::kMonth;
  if (keyword == "DAY") return TimeUnit::kDay;
  if (keyword == "HOUR") return TimeUnit::kHour;
  if (keyword == "MINUTE") return TimeUnit::kMinute;
  if (keyword == "SECOND") return TimeUnit::kSecond;
  return std::nullopt;
}

template <typename T>
std::unique_ptr<T> makeNode(SourcePosition position) {
  auto node = std::make_unique<T>();
  node->position = position;
  return node;
}

class Parser {
 public:
  explicit Parser(std::string_view sql) : sql_(sql), tokens_(tokenize(sql)) {}

  std::vector<StatementPtr> parseScript() {
    std::vector<StatementPtr> statements;
    while (true) {
      while (acceptSymbol(";")) {
      }
      if (atEnd()) break;
      statements.push_back(parseStatementWithText());
      if (atEnd()) break;
      expectStatementEnd();
    }
    return statements;
  }

  StatementPtr parseSingleStatement() {
    StatementPtr statement = parseStatementWithText();
    acceptSymbol(";");
    if (!atEnd()) {
      note("<EOF>");
      failExpected();
    }
    return statement;
  }

  ExpressionPtr parseSingleExpression() {
    ExpressionPtr expression = parseExpression();
    if (!atEnd()) {
      note("<EOF>");
      failExpected();
    }
    return expression;
  }

 private:
  // --- Depth ---------------------------------------------------------------------------

  class DepthGuard {
   public:
    explicit DepthGuard(Parser& parser, bool recursion = true) : parser_(parser) {
      if (recursion) enter();
    }
    ~DepthGuard() {
      parser_.depth_ -= recursion_;
      parser_.treeDepth_ -= levels_;
    }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

    // One more level of recursion.
    void enter() {
      ++recursion_;
      ++levels_;
      ++parser_.depth_;
      ++parser_.treeDepth_;
      parser_.checkDepth();
    }
    // One more link of a left-deep chain (a + b + c, joins, set operations).
    void chain() {
      ++levels_;
      ++parser_.treeDepth_;
      parser_.checkDepth();
    }

   private:
    Parser& parser_;
    int recursion_ = 0;
    int levels_ = 0;
  };

  void checkDepth() const {
    if (depth_ > kMaxNestingDepth || treeDepth_ > kMaxTreeDepth) {
      const Token& token = peek();
      failAt(
          token.position,
          fmt::format("Nesting too deep at line {}, column {}: the parser accepts at most {} "
                      "levels of parentheses, subqueries and unary operators and {} levels "
                      "of operator chains.",
                      token.position.line, token.position.column, kMaxNestingDepth, kMaxTreeDepth));
    }
  }

  // --- Tokens ------------------------------------------------------------------------------

  const Token& peek(size_t ahead = 0) const {
    return tokens_[std::min(position_ + ahead, tokens_.size() - 1)];
  }
  const Token& next() {
    const Token& token = tokens_[position_];
    if (position_ + 1 < tokens_.size()) ++position_;
    return token;
  }
  const Token& previous() const { return tokens_[position_ == 0 ? 0 : position_ - 1]; }
  bool atEnd() const { return peek().kind == TokenKind::kEnd; }

  bool isKeyword(std::string_view keyword, size_t ahead = 0) const {
    const Token& token = peek(ahead);
    return token.kind == TokenKind::kIdentifier && token.keyword == keyword;
  }
  bool isSymbol(std::string_view symbol, size_t ahead = 0) const {
    const Token& token = peek(ahead);
    return token.kind == TokenKind::kSymbol && token.text == symbol;
  }
  bool isIdentifier(size_t ahead = 0) const {
    const Token& token = peek(ahead);
    return token.kind == TokenKind::kQuotedIdentifier ||
           (token.kind == TokenKind::kIdentifier && !isReservedWord(token.keyword));
  }

  bool acceptKeyword(std::string_view keyword) {
    if (isKeyword(keyword)) {
      next();
      return true;
    }
    note(fmt::format("\"{}\"", keyword));
    return false;
  }
  bool acceptSymbol(std::string_view symbol) {
    if (isSymbol(symbol)) {
      next();
      return true;
    }
    note(fmt::format("\"{}\"", symbol));
    return false;
  }
  void expectKeyword(std::string_view keyword) {
    if (!acceptKeyword(keyword)) failExpected();
  }
  void expectSymbol(std::string_view symbol) {
    if (!acceptSymbol(symbol)) failExpected();
  }
  void expectStatementEnd() {
    if (!acceptSymbol(";")) {
      note("<EOF>");
      failExpected();
    }
  }

  // --- Errors ------------------------------------------------------------------------------

  void note(std::string label) {
    if (notesIndex_ != position_) {
      notes_.clear();
      notesIndex_ = position_;
    }
    if (std::find(notes_.begin(), notes_.end(), label) == notes_.end()) {
      notes_.push_back(std::move(label));
    }
  }

  [[noreturn]] static void failAt(SourcePosition position, const std::string& message) {
    throw SqlParseException("SQL parse failed. " + message, position.line, position.column);
  }

  std::string describe(const Token& token) const {
    if (token.kind == TokenKind::kEnd) return "<EOF>";
    std::string text(sql_.substr(token.begin, token.end - token.begin));
    std::replace(text.begin(), text.end(), '\n', ' ');
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return text;
  }

  // Fails at the current token with the noted alternatives plus `labels`.
  [[noreturn]] void failExpected(std::initializer_list<std::string_view> labels = {}) {
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

  // --- Names and literals ------------------------------------------------------------------

  std::string parseIdentifier() {
    if (!isIdentifier()) failExpected({"<identifier>"});
    return next().text;
  }

  QualifiedName parseQualifiedName() {
    QualifiedName name{parseIdentifier()};
    while (isSymbol(".") && (peek(1).kind == TokenKind::kIdentifier ||
                             peek(1).kind == TokenKind::kQuotedIdentifier)) {
      next();
      name.push_back(parseIdentifier());
    }
    return name;
  }

  std::vector<std::string> parseParenthesizedIdentifiers() {
    expectSymbol("(");
    std::vector<std::string> names;
    do {
      names.push_back(parseIdentifier());
    } while (acceptSymbol(","));
    expectSymbol(")");
    return names;
  }

  std::string parseStringLiteral() {
    if (peek().kind != TokenKind::kString) failExpected({"<string literal>"});
    return next().text;
  }

  int parseUnsignedInteger() {
    const Token& token = peek();
    if (token.kind != TokenKind::kExactNumber || token.text.find('.') != std::string::npos ||
        token.text.size() > 9) {
      failExpected({"<unsigned integer>"});
    }
    next();
    return std::atoi(token.text.c_str());
  }

  // `(` 'key' = 'value', .. `)`
  std::vector<TableOption> parseOptions() {
    std::vector<TableOption> options;
    expectSymbol("(");
    if (acceptSymbol(")")) return options;
    do {
      TableOption option;
      option.position = peek().position;
      option.key = parseStringLiteral();
      expectSymbol("=");
      option.value = parseStringLiteral();
      options.push_back(std::move(option));
    } while (acceptSymbol(","));
    expectSymbol(")");
    return options;
  }

  // --- Types -------------------------------------------------------------------------------

  // Skips a balanced group opened by the current token (`(` or `<`).
  void skipTypeGroup(std::string_view open, std::string_view close) {
    int depth = 0;
    do {
      if (atEnd()) {
        note(fmt::format("\"{}\"", close));
        failExpected();
      }
      if (isSymbol(open)) {
        ++depth;
      } else if (isSymbol(close)) {
        --depth;
      }
      next();
    } while (depth > 0);
  }

  // A type in SQL syntax. The parser finds the type's extent and hands its tokens to the types
  // module's parseLogicalType, which knows every type spelling Flink accepts.
  LogicalTypePtr parseType() {
    size_t first = position_;
    if (peek().kind != TokenKind::kIdentifier) failExpected({"<type>"});
    std::string name = next().keyword;
    if ((name == "CHAR" || name == "CHARACTER" || name == "BINARY") && isKeyword("VARYING")) {
      next();
    }
    if (name == "DOUBLE" && isKeyword("PRECISION")) next();
    if (name == "INTERVAL") {
      if (peek().kind == TokenKind::kIdentifier) next();
      if (isSymbol("(")) skipTypeGroup("(", ")");
      if (isKeyword("TO")) {
        next();
        if (peek().kind == TokenKind::kIdentifier) next();
        if (isSymbol("(")) skipTypeGroup("(", ")");
      }
    } else if (isSymbol("(")) {
      skipTypeGroup("(", ")");
    } else if (isSymbol("<>")) {
      next();
    } else if (isSymbol("<")) {
      // `<>` inside counts as an opening and a closing bracket (ROW<a ROW<>>).
      int depth = 0;
      do {
        if (atEnd()) {
          note("\">\"");
          failExpected();
        }
        if (isSymbol("<")) ++depth;
        if (isSymbol(">")) --depth;
        next();
      } while (depth > 0);
    }
    if (name == "TIME" || name == "TIMESTAMP") {
      if (isKeyword("WITHOUT") && isKeyword("TIME", 1) && isKeyword("ZONE", 2)) {
        position_ += 3;
      } else if (isKeyword("WITH") && isKeyword("LOCAL", 1) && isKeyword("TIME", 2) &&
                 isKeyword("ZONE", 3)) {
        position_ += 4;
      } else if (isKeyword("WITH") && isKeyword("TIME", 1) && isKeyword("ZONE", 2)) {
        position_ += 3;
      }
    }
    while (true) {
      if (isKeyword("NOT") && isKeyword("NULL", 1)) {
        position_ += 2;
      } else if (isKeyword("NULL") || isKeyword("ARRAY") || isKeyword("MULTISET")) {
        next();
      } else {
        break;
      }
    }
    return buildType(first, position_);
  }

  LogicalTypePtr buildType(size_t first, size_t last) {
    // The type text is the tokens as written, with one space wherever the source had
    // whitespace or comments between two tokens; `starts` maps text offsets back to tokens.
    std::string text;
    std::vector<size_t> starts;
    for (size_t i = first; i < last; ++i) {
      if (i > first && tokens_[i].begin > tokens_[i - 1].end) text.push_back(' ');
      starts.push_back(text.size());
      text += sql_.substr(tokens_[i].begin, tokens_[i].end - tokens_[i].begin);
    }
    try {
      return parseLogicalType(text);
    } catch (const ValidationException& error) {
      std::string message = error.what();
      std::string prefix = fmt::format("Could not parse type '{}' at column ", text);
      SourcePosition position = tokens_[first].position;
      std::string detail = message;
      if (message.starts_with(prefix)) {
        size_t colon = message.find(": ", prefix.size());
        if (colon != std::string::npos) {
          size_t offset = std::strtoul(message.c_str() + prefix.size(), nullptr, 10);
          offset = offset == 0 ? 0 : offset - 1;
          size_t index = 0;
          while (index + 1 < starts.size() && starts[index + 1] <= offset) ++index;
          position = tokens_[first + index].position;
          position.column += static_cast<int>(std::min(
              offset - starts[index], tokens_[first + index].end - tokens_[first + index].begin));
          detail = message.substr(colon + 2);
        }
      }
      failAt(position, fmt::format("Invalid type \"{}\" at line {}, column {}: {}", text,
                                   position.line, position.column, detail));
    }
  }

  // --- Expressions -------------------------------------------------------------------------

  ExpressionPtr parseExpression() {
    DepthGuard guard(*this);
    return parseOr();
  }

  ExpressionPtr makeBinary(BinaryOperator op, ExpressionPtr left, ExpressionPtr right) {
    auto node = makeNode<BinaryExpression>(left->position);
    node->op = op;
    node->left = std::move(left);
    node->right = std::move(right);
    return node;
  }

  ExpressionPtr parseOr() {
    DepthGuard guard(*this, false);
    ExpressionPtr left = parseAnd();
    while (isKeyword("OR")) {
      next();
      guard.chain();
      left = makeBinary(BinaryOperator::kOr, std::move(left), parseAnd());
    }
    return left;
  }

  ExpressionPtr parseAnd() {
    DepthGuard guard(*this, false);
    ExpressionPtr left = parseNot();
    while (isKeyword("AND")) {
      next();
      guard.chain();
      left = makeBinary(BinaryOperator::kAnd, std::move(left), parseNot());
    }
    return left;
  }

  ExpressionPtr parseNot() {
    if (!isKeyword("NOT")) return parseComparison();
    DepthGuard guard(*this);
    auto node = makeNode<UnaryExpression>(next().position);
    node->op = UnaryOperator::kNot;
    node->operand = parseNot();
    return node;
  }

  std::optional<BinaryOperator> comparisonOperator() const {
    const Token& token = peek();
    if (token.kind != TokenKind::kSymbol) return std::nullopt;
    if (token.text == "=") return BinaryOperator::kEquals;
    if (token.text == "<>" || token.text == "!=") return BinaryOperator::kNotEquals;
    if (token.text == "<") return BinaryOperator::kLessThan;
    if (token.text == "<=") return BinaryOperator::kLessThanOrEqual;
    if (token.text == ">") return BinaryOperator::kGreaterThan;
    if (token.text == ">=") return BinaryOperator::kGreaterThanOrEqual;
    return std::nullopt;
  }

  ExpressionPtr parseComparison() {
    DepthGuard guard(*this, false);
    ExpressionPtr left = parseAdditive();
    while (true) {
      if (std::optional<BinaryOperator> op = comparisonOperator()) {
        next();
        guard.chain();
        left = makeBinary(*op, std::move(left), parseAdditive());
        continue;
      }
      if (isKeyword("IS")) {
        next();
        guard.chain();
        left = parseIsTail(std::move(left));
        continue;
      }
      bool negated = false;
      size_t predicate = 0;
      if (isKeyword("NOT") && (isKeyword("BETWEEN", 1) || isKeyword("LIKE", 1) ||
                               isKeyword("SIMILAR", 1) || isKeyword("IN", 1))) {
        negated = true;
        predicate = 1;
      }
      if (isKeyword("BETWEEN", predicate)) {
        position_ += predicate + 1;
        guard.chain();
        auto node = makeNode<BetweenExpression>(left->position);
        node->negated = negated;
        if (acceptKeyword("SYMMETRIC")) {
          node->symmetric = true;
        } else {
          acceptKeyword("ASYMMETRIC");
        }
        node->operand = std::move(left);
        node->lower = parseAdditive();
        expectKeyword("AND");
        node->upper = parseAdditive();
        left = std::move(node);
      } else if (isKeyword("LIKE", predicate) || isKeyword("SIMILAR", predicate)) {
        bool similar = isKeyword("SIMILAR", predicate);
        position_ += predicate + 1;
        if (similar) expectKeyword("TO");
        guard.chain();
        auto node = makeNode<LikeExpression>(left->position);
        node->similarTo = similar;
        node->negated = negated;
        node->operand = std::move(left);
        node->pattern = parseAdditive();
        if (acceptKeyword("ESCAPE")) node->escape = parseAdditive();
        left = std::move(node);
      } else if (isKeyword("IN", predicate)) {
        position_ += predicate + 1;
        guard.chain();
        auto node = makeNode<InExpression>(left->position);
        node->negated = negated;
        node->operand = std::move(left);
        expectSymbol("(");
        if (isQueryStart()) {
          node->subquery = parseQuery();
        } else {
          do {
            node->values.push_back(parseExpression());
          } while (acceptSymbol(","));
        }
        expectSymbol(")");
        left = std::move(node);
      } else {
        return left;
      }
    }
  }

  ExpressionPtr parseIsTail(ExpressionPtr operand) {
    bool negated = acceptKeyword("NOT");
    IsPredicate predicate;
    if (acceptKeyword("NULL")) {
      predicate = IsPredicate::kNull;
    } else if (acceptKeyword("TRUE")) {
      predicate = IsPredicate::kTrue;
    } else if (acceptKeyword("FALSE")) {
      predicate = IsPredicate::kFalse;
    } else if (acceptKeyword("UNKNOWN")) {
      predicate = IsPredicate::kUnknown;
    } else if (acceptKeyword("JSON")) {
      predicate = acceptKeyword("VALUE")    ? IsPredicate::kJsonValue
                  : acceptKeyword("SCALAR") ? IsPredicate::kJsonScalar
                  : acceptKeyword("ARRAY")  ? IsPredicate::kJsonArray
                  : acceptKeyword("OBJECT") ? IsPredicate::kJsonObject
                                            : IsPredicate::kJson;
    } else if (acceptKeyword("DISTINCT")) {
      expectKeyword("FROM");
      return makeBinary(
          negated ? BinaryOperator::kIsNotDistinctFrom : BinaryOperator::kIsDistinctFrom,
          std::move(operand), parseAdditive());
    } else {
      failExpected();
    }
    auto node = makeNode<IsExpression>(operand->position);
    node->operand = std::move(operand);
    node->predicate = predicate;
    node->negated = negated;
    return node;
  }

  ExpressionPtr parseAdditive() {
    DepthGuard guard(*this, false);
    ExpressionPtr left = parseMultiplicative();
    while (true) {
      BinaryOperator op;
      if (isSymbol("+")) {
        op = BinaryOperator::kPlus;
      } else if (isSymbol("-")) {
        op = BinaryOperator::kMinus;
      } else if (isSymbol("||")) {
        op = BinaryOperator::kConcat;
      } else {
        return left;
      }
      next();
      guard.chain();
      left = makeBinary(op, std::move(left), parseMultiplicative());
    }
  }

  ExpressionPtr parseMultiplicative() {
    DepthGuard guard(*this, false);
    ExpressionPtr left = parseUnary();
    while (true) {
      BinaryOperator op;
      if (isSymbol("*")) {
        op = BinaryOperator::kMultiply;
      } else if (isSymbol("/")) {
        op = BinaryOperator::kDivide;
      } else if (isSymbol("%")) {
        op = BinaryOperator::kModulo;
      } else {
        return left;
      }
      next();
      guard.chain();
      left = makeBinary(op, std::move(left), parseUnary());
    }
  }

  ExpressionPtr parseUnary() {
    if (!isSymbol("-") && !isSymbol("+")) return parsePostfix();
    DepthGuard guard(*this);
    const Token& sign = next();
    auto node = makeNode<UnaryExpression>(sign.position);
    node->op = sign.text == "-" ? UnaryOperator::kMinus : UnaryOperator::kPlus;
    node->operand = parseUnary();
    return node;
  }

  ExpressionPtr parsePostfix() {
    DepthGuard guard(*this, false);
    ExpressionPtr expression = parsePrimary();
    while (true) {
      if (isSymbol("[")) {
        next();
        guard.chain();
        auto node = makeNode<ElementAccessExpression>(expression->position);
        node->base = std::move(expression);
        node->index = parseExpression();
        expectSymbol("]");
        expression = std::move(node);
      } else if (isSymbol(".") && (peek(1).kind == TokenKind::kIdentifier ||
                                   peek(1).kind == TokenKind::kQuotedIdentifier)) {
        next();
        guard.chain();
        auto node = makeNode<FieldAccessExpression>(expression->position);
        node->base = std::move(expression);
        node->field = parseIdentifier();
        expression = std::move(node);
      } else if (isSymbol("::")) {
        next();
        guard.chain();
        auto node = makeNode<CastExpression>(expression->position);
        node->operand = std::move(expression);
        node->targetType = parseType();
        expression = std::move(node);
      } else {
        return expression;
      }
    }
  }

  ExpressionPtr makeLiteral(SourcePosition position, LiteralKind kind, std::string value) {
    auto node = makeNode<LiteralExpression>(position);
    node->literalKind = kind;
    node->value = std::move(value);
    return node;
  }

  ExpressionPtr parsePrimary() {
    const Token& token = peek();
    switch (token.kind) {
      case TokenKind::kExactNumber:
        next();
        return makeLiteral(token.position, LiteralKind::kExactNumeric, token.text);
      case TokenKind::kApproximateNumber:
        next();
        return makeLiteral(token.position, LiteralKind::kApproximateNumeric, token.text);
      case TokenKind::kString:
        next();
        return makeLiteral(token.position, LiteralKind::kString, token.text);
      case TokenKind::kBinaryString:
        next();
        return makeLiteral(token.position, LiteralKind::kBinaryString, token.text);
      case TokenKind::kParameter: {
        next();
        auto node = makeNode<ParameterExpression>(token.position);
        node->index = parameterCount_++;
        return node;
      }
      case TokenKind::kSymbol:
        if (token.text == "(") return parseParenthesized();
        failExpected({"<expression>"});
      case TokenKind::kQuotedIdentifier:
        return parseIdentifierOrCall();
      case TokenKind::kIdentifier:
        return parseKeywordPrimary();
      case TokenKind::kEnd:
        break;
    }
    failExpected({"<expression>"});
  }

  ExpressionPtr parseParenthesized() {
    const Token& open = next();
    if (isKeyword("SELECT") || isKeyword("VALUES") || isKeyword("WITH")) {
      auto node = makeNode<SubqueryExpression>(open.position);
      node->query = parseQuery();
      expectSymbol(")");
      return node;
    }
    ExpressionPtr first = parseExpression();
    if (!isSymbol(",")) {
      expectSymbol(")");
      return first;
    }
    auto row = makeNode<ConstructorExpression>(open.position);
    row->constructorKind = ConstructorKind::kRow;
    row->elements.push_back(std::move(first));
    while (acceptSymbol(",")) row->elements.push_back(parseExpression());
    expectSymbol(")");
    return row;
  }

  // Primaries that start with an unquoted word: literals, special forms and niladic functions
  // first, then identifiers and function calls.
  ExpressionPtr parseKeywordPrimary() {
    const Token& token = peek();
    const std::string& keyword = token.keyword;
    bool call = isSymbol("(", 1);
    if (keyword == "TRUE" || keyword == "FALSE") {
      next();
      return makeLiteral(token.position, LiteralKind::kBoolean, keyword);
    }
    if (keyword == "NULL") {
      next();
      return makeLiteral(token.position, LiteralKind::kNull, "");
    }
    if ((keyword == "DATE" || keyword == "TIME" || keyword == "TIMESTAMP") &&
        peek(1).kind == TokenKind::kString) {
      next();
      LiteralKind kind = keyword == "DATE"   ? LiteralKind::kDate
                         : keyword == "TIME" ? LiteralKind::kTime
                                             : LiteralKind::kTimestamp;
      return makeLiteral(token.position, kind, next().text);
    }
    if (keyword == "TIMESTAMP" && isKeyword("WITH", 1) && isKeyword("LOCAL", 2) &&
        isKeyword("TIME", 3) && isKeyword("ZONE", 4) && peek(5).kind == TokenKind::kString) {
      position_ += 5;
      return makeLiteral(token.position, LiteralKind::kTimestampLtz, next().text);
    }
    if (keyword == "INTERVAL") return parseIntervalLiteral();
    if (keyword == "CASE") return parseCase();
    if ((keyword == "CAST" || keyword == "TRY_CAST") && call) return parseCast();
    if (keyword == "EXISTS" && call) {
      next();
      auto node = makeNode<ExistsExpression>(token.position);
      expectSymbol("(");
      node->query = parseQuery();
      expectSymbol(")");
      return node;
    }
    if (keyword == "CURRENT_DATE" || keyword == "CURRENT_TIME" || keyword == "CURRENT_TIMESTAMP" ||
        keyword == "LOCALTIME" || keyword == "LOCALTIMESTAMP") {
      next();
      auto node = makeNode<FunctionCallExpression>(token.position);
      node->name = {keyword};
      node->syntax = FunctionSyntax::kNiladic;
      return node;
    }
    if (keyword == "ARRAY" && isSymbol("[", 1)) return parseConstructor(ConstructorKind::kArray);
    if (keyword == "MAP" && isSymbol("[", 1)) return parseConstructor(ConstructorKind::kMap);
    if (keyword == "ROW" && call) return parseConstructor(ConstructorKind::kRow);
    if (keyword == "DESCRIPTOR" && call) {
      next();
      auto node = makeNode<DescriptorExpression>(token.position);
      node->columns = parseParenthesizedIdentifiers();
      return node;
    }
    if (call) {
      if (keyword == "EXTRACT") return parseExtract();
      if (keyword == "POSITION") return parsePosition();
      if (keyword == "SUBSTRING") return parseSubstring();
      if (keyword == "TRIM") return parseTrim();
      if (keyword == "OVERLAY") return parseOverlay();
      if (keyword == "JSON_OBJECT" || keyword == "JSON_ARRAY" || keyword == "JSON_VALUE" ||
          keyword == "JSON_QUERY" || keyword == "JSON_EXISTS" || keyword == "JSON_OBJECTAGG" ||
          keyword == "JSON_ARRAYAGG") {
        return parseJsonCall(keyword);
      }
      if (keyword == "FLOOR" || keyword == "CEIL" || keyword == "CEILING") {
        return parseFloorCeil();
      }
      if (keyword == "TIMESTAMPADD" || keyword == "TIMESTAMPDIFF") return parseTimestampAddDiff();
      // Reserved words that are also function names.
      if (keyword == "LEFT" || keyword == "RIGHT" || keyword == "GROUPING") {
        next();
        auto node = makeNode<FunctionCallExpression>(token.position);
        node->name = {keyword};
        parseCallRest(*node);
        return node;
      }
    }
    if (isReservedWord(keyword)) failExpected({"<expression>"});
    return parseIdentifierOrCall();
  }

  ExpressionPtr parseIdentifierOrCall() {
    SourcePosition position = peek().position;
    bool quoted = peek().kind == TokenKind::kQuotedIdentifier;
    QualifiedName names{parseIdentifier()};
    while (isSymbol(".")) {
      if (peek(1).kind == TokenKind::kIdentifier || peek(1).kind == TokenKind::kQuotedIdentifier) {
        next();
        quoted = quoted || peek().kind == TokenKind::kQuotedIdentifier;
        names.push_back(parseIdentifier());
      } else if (isSymbol("*", 1)) {
        position_ += 2;
        auto star = makeNode<StarExpression>(position);
        star->qualifier = std::move(names);
        return star;
      } else {
        break;
      }
    }
    if (isSymbol("(")) {
      auto node = makeNode<FunctionCallExpression>(position);
      node->quotedName = quoted || names.size() > 1;
      if (!node->quotedName) {
        for (char& c : names[0]) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      }
      node->name = std::move(names);
      parseCallRest(*node);
      return node;
    }
    auto node = makeNode<IdentifierExpression>(position);
    node->names = std::move(names);
    return node;
  }

  // `(args) [FILTER (WHERE ..)] [OVER ..]` after a function name.
  void parseCallRest(FunctionCallExpression& call) {
    expectSymbol("(");
    if (!acceptSymbol(")")) {
      if (acceptKeyword("DISTINCT")) {
        call.distinct = true;
      } else {
        acceptKeyword("ALL");
      }
      if (isSymbol("*")) {
        call.arguments.push_back(makeNode<StarExpression>(next().position));
      } else {
        do {
          call.arguments.push_back(parseFunctionArgument());
        } while (acceptSymbol(","));
      }
      expectSymbol(")");
    }
    parseCallSuffix(call);
  }

  // `FILTER (WHERE ..)` and `OVER ..` after a call's arguments.
  void parseCallSuffix(FunctionCallExpression& call) {
    if (isKeyword("FILTER") && isSymbol("(", 1)) {
      position_ += 2;
      expectKeyword("WHERE");
      call.filter = parseExpression();
      expectSymbol(")");
    }
    if (isKeyword("OVER")) {
      next();
      if (isSymbol("(")) {
        call.over = parseWindowSpecification();
      } else {
        call.over = makeNode<WindowSpecification>(peek().position);
        call.over->referenceName = parseIdentifier();
      }
    }
  }

  ExpressionPtr parseFunctionArgument() {
    if (isKeyword("TABLE") &&
        (peek(1).kind == TokenKind::kIdentifier || peek(1).kind == TokenKind::kQuotedIdentifier)) {
      auto node = makeNode<TableArgumentExpression>(next().position);
      node->tableName = parseQualifiedName();
      if (isKeyword("PARTITION") && isKeyword("BY", 1)) {
        position_ += 2;
        if (isSymbol("(")) {
          node->partitionBy = parseParenthesizedIdentifiers();
        } else {
          node->partitionBy.push_back(parseIdentifier());
        }
      }
      return node;
    }
    // `name => value`; the name may be a reserved word (`OFFSET => INTERVAL ..`), as the
    // arrow leaves no doubt.
    const TokenKind kind = peek().kind;
    if ((kind == TokenKind::kIdentifier || kind == TokenKind::kQuotedIdentifier) &&
        isSymbol("=>", 1)) {
      auto node = makeNode<NamedArgumentExpression>(peek().position);
      node->name = next().text;
      next();
      node->value = parseFunctionArgument();
      return node;
    }
    return parseExpression();
  }

  std::unique_ptr<FunctionCallExpression> startSpecialCall(FunctionSyntax syntax) {
    const Token& name = next();
    auto node = makeNode<FunctionCallExpression>(name.position);
    node->name = {name.keyword};
    node->syntax = syntax;
    expectSymbol("(");
    return node;
  }

  ExpressionPtr parseTimeUnitSymbol() {
    std::string unit;
    if (peek().kind == TokenKind::kIdentifier) unit = timeUnitSymbol(peek().keyword);
    if (unit.empty()) failExpected({"<time unit>"});
    auto node = makeNode<SymbolExpression>(next().position);
    node->name = std::move(unit);
    return node;
  }

  ExpressionPtr parseExtract() {
    auto node = startSpecialCall(FunctionSyntax::kExtract);
    node->arguments.push_back(parseTimeUnitSymbol());
    expectKeyword("FROM");
    node->arguments.push_back(parseExpression());
    expectSymbol(")");
    return node;
  }

  ExpressionPtr parsePosition() {
    auto node = startSpecialCall(FunctionSyntax::kPosition);
    node->arguments.push_back(parseAdditive());
    expectKeyword("IN");
    node->arguments.push_back(parseExpression());
    expectSymbol(")");
    return node;
  }

  ExpressionPtr parseSubstring() {
    auto node = startSpecialCall(FunctionSyntax::kSubstring);
    node->arguments.push_back(parseExpression());
    if (acceptKeyword("FROM")) {
      node->arguments.push_back(parseExpression());
      if (acceptKeyword("FOR")) node->arguments.push_back(parseExpression());
    } else {
      node->syntax = FunctionSyntax::kRegular;
      while (acceptSymbol(",")) node->arguments.push_back(parseExpression());
    }
    expectSymbol(")");
    return node;
  }

  // JSON_OBJECT([KEY] k VALUE v, .. [NULL|ABSENT ON NULL]), JSON_ARRAY(v, .. [NULL|ABSENT ON
  // NULL]), the aggregates JSON_OBJECTAGG([KEY] k VALUE v [..ON NULL]) and JSON_ARRAYAGG(v [..ON
  // NULL]) (one pair or value; FILTER/OVER may follow), JSON_VALUE(j, p [RETURNING type] [behaviour ON EMPTY] [behaviour ON ERROR]),
  // JSON_QUERY(j, p [RETURNING type] [wrapper] [.. ON EMPTY] [.. ON ERROR]),
  // JSON_EXISTS(j, p [TRUE|FALSE|UNKNOWN|ERROR ON ERROR]).
  ExpressionPtr parseJsonCall(const std::string& name) {
    auto node = startSpecialCall(FunctionSyntax::kJson);
    node->json = std::make_unique<JsonClauses>();
    JsonClauses& clauses = *node->json;
    auto onNull = [&]() {
      for (const char* mode : {"NULL", "ABSENT"}) {
        if (isKeyword(mode) && isKeyword("ON", 1) && isKeyword("NULL", 2)) {
          position_ += 3;
          clauses.onNull = mode;
          return true;
        }
      }
      return false;
    };
    const bool aggregate = name == "JSON_OBJECTAGG" || name == "JSON_ARRAYAGG";
    if (name == "JSON_OBJECT" || name == "JSON_ARRAY" || aggregate) {
      const bool object = name == "JSON_OBJECT" || name == "JSON_OBJECTAGG";
      if (aggregate || (!isSymbol(")") && !onNull())) {
        do {
          if (object) {
            // KEY is a keyword unless it is itself the key (`KEY VALUE 1`, a column `key`).
            if (isKeyword("KEY") && !isKeyword("VALUE", 1) && !isSymbol(",", 1)) next();
            node->arguments.push_back(parseExpression());
            expectKeyword("VALUE");
          }
          node->arguments.push_back(parseExpression());
        } while (!onNull() && !aggregate && acceptSymbol(","));
        if (aggregate) onNull();
      }
      expectSymbol(")");
      if (aggregate) parseCallSuffix(*node);
      return node;
    }
    node->arguments.push_back(parseExpression());
    expectSymbol(",");
    node->arguments.push_back(parseExpression());
    // Behaviours: NULL, ERROR, DEFAULT expr, EMPTY ARRAY, EMPTY OBJECT, TRUE, FALSE, UNKNOWN.
    auto behaviour = [&](ExpressionPtr& defaultValue) -> std::string {
      if (acceptKeyword("DEFAULT")) {
        defaultValue = parseAdditive();
        return "DEFAULT";
      }
      if (isKeyword("EMPTY") && (isKeyword("ARRAY", 1) || isKeyword("OBJECT", 1))) {
        next();
        return "EMPTY " + next().keyword;
      }
      for (const char* word : {"NULL", "ERROR", "TRUE", "FALSE", "UNKNOWN"}) {
        if (acceptKeyword(word)) return word;
      }
      failExpected({"\"NULL\"", "\"ERROR\"", "\"DEFAULT\"", "\"EMPTY\""});
    };
    while (!isSymbol(")")) {
      if (acceptKeyword("RETURNING")) {
        clauses.returning = parseType();
      } else if (isKeyword("WITHOUT") || isKeyword("WITH")) {
        bool with = next().keyword == "WITH";
        clauses.wrapper = "WITHOUT";
        if (with) {
          clauses.wrapper = acceptKeyword("CONDITIONAL") ? "CONDITIONAL" : "UNCONDITIONAL";
          acceptKeyword("UNCONDITIONAL");
        }
        acceptKeyword("ARRAY");
        expectKeyword("WRAPPER");
      } else {
        ExpressionPtr defaultValue;
        std::string chosen = behaviour(defaultValue);
        expectKeyword("ON");
        if (acceptKeyword("EMPTY")) {
          clauses.onEmpty = chosen;
          clauses.emptyDefault = std::move(defaultValue);
        } else {
          expectKeyword("ERROR");
          clauses.onError = chosen;
          clauses.errorDefault = std::move(defaultValue);
        }
      }
    }
    expectSymbol(")");
    return node;
  }

  ExpressionPtr parseOverlay() {
    auto node = startSpecialCall(FunctionSyntax::kOverlay);
    node->arguments.push_back(parseExpression());
    expectKeyword("PLACING");
    node->arguments.push_back(parseExpression());
    expectKeyword("FROM");
    node->arguments.push_back(parseExpression());
    if (acceptKeyword("FOR")) node->arguments.push_back(parseExpression());
    expectSymbol(")");
    return node;
  }

  ExpressionPtr parseTrim() {
    auto node = startSpecialCall(FunctionSyntax::kTrim);
    auto flag = makeNode<SymbolExpression>(peek().position);
    flag->name = "BOTH";
    ExpressionPtr characters;
    ExpressionPtr source;
    if (isKeyword("BOTH") || isKeyword("LEADING") || isKeyword("TRAILING")) {
      flag->name = next().keyword;
      if (!isKeyword("FROM")) characters = parseExpression();
      expectKeyword("FROM");
      source = parseExpression();
    } else {
      ExpressionPtr first = parseExpression();
      if (acceptKeyword("FROM")) {
        characters = std::move(first);
        source = parseExpression();
      } else {
        source = std::move(first);
      }
    }
    if (characters == nullptr) {
      characters = makeLiteral(node->position, LiteralKind::kString, " ");
    }
    expectSymbol(")");
    node->arguments.push_back(std::move(flag));
    node->arguments.push_back(std::move(characters));
    node->arguments.push_back(std::move(source));
    return node;
  }

  ExpressionPtr parseFloorCeil() {
    auto node = startSpecialCall(FunctionSyntax::kRegular);
    if (node->name[0] == "CEILING") node->name[0] = "CEIL";
    node->arguments.push_back(parseExpression());
    if (acceptKeyword("TO")) {
      node->syntax = FunctionSyntax::kFloorCeilTo;
      node->arguments.push_back(parseTimeUnitSymbol());
    } else {
      while (acceptSymbol(",")) node->arguments.push_back(parseExpression());
    }
    expectSymbol(")");
    return node;
  }

  ExpressionPtr parseTimestampAddDiff() {
    auto node = startSpecialCall(FunctionSyntax::kRegular);
    node->arguments.push_back(parseTimeUnitSymbol());
    expectSymbol(",");
    node->arguments.push_back(parseExpression());
    expectSymbol(",");
    node->arguments.push_back(parseExpression());
    expectSymbol(")");
    return node;
  }

  ExpressionPtr parseConstructor(ConstructorKind kind) {
    auto node = makeNode<ConstructorExpression>(next().position);
    node->constructorKind = kind;
    std::string_view close = kind == ConstructorKind::kRow ? ")" : "]";
    expectSymbol(kind == ConstructorKind::kRow ? "(" : "[");
    if (!acceptSymbol(close)) {
      do {
        node->elements.push_back(parseExpression());
      } while (acceptSymbol(","));
      expectSymbol(close);
    }
    return node;
  }

  ExpressionPtr parseCast() {
    const Token& name = next();
    auto node = makeNode<CastExpression>(name.position);
    node->tryCast = name.keyword == "TRY_CAST";
    expectSymbol("(");
    node->operand = parseExpression();
    expectKeyword("AS");
    node->targetType = parseType();
    expectSymbol(")");
    return node;
  }

  ExpressionPtr parseCase() {
    auto node = makeNode<CaseExpression>(next().position);
    if (!isKeyword("WHEN")) node->operand = parseExpression();
    do {
      expectKeyword("WHEN");
      WhenClause clause;
      clause.condition = parseExpression();
      expectKeyword("THEN");
      clause.result = parseExpression();
      node->whenClauses.push_back(std::move(clause));
    } while (isKeyword("WHEN"));
    if (acceptKeyword("ELSE")) node->elseResult = parseExpression();
    expectKeyword("END");
    return node;
  }

  ExpressionPtr parseIntervalLiteral() {
    auto node = makeNode<IntervalLiteralExpression>(next().position);
    if (isSymbol("-")) {
      next();
      node->negative = true;
    } else if (isSymbol("+")) {
      next();
    }
    node->value = parseStringLiteral();
    node->qualifier = parseIntervalQualifier();
    return node;
  }

  TimeUnit parseIntervalUnit() {
    std::optional<TimeUnit> unit;
    if (peek().kind == TokenKind::kIdentifier) unit = intervalUnit(peek().keyword);
    if (!unit) {
      failExpected({"\"YEAR\"", "\"MONTH\"", "\"DAY\"", "\"HOUR\"", "\"MINUTE\"", "\"SECOND\""});
    }
    next();
    return *unit;
  }

  IntervalQualifier parseIntervalQualifier() {
    IntervalQualifier qualifier;
    SourcePosition start = peek().position;
    qualifier.start = parseIntervalUnit();
    if (acceptSymbol("(")) {
      qualifier.startPrecision = parseUnsignedInteger();
      if (qualifier.start == TimeUnit::kSecond && acceptSymbol(",")) {
        qualifier.fractionalPrecision = parseUnsignedInteger();
      }
      expectSymbol(")");
    }
    if (isKeyword("TO")) {
      next();
      qualifier.end = parseIntervalUnit();
      if (*qualifier.end == TimeUnit::kSecond && acceptSymbol("(")) {
        qualifier.fractionalPrecision = parseUnsignedInteger();
        expectSymbol(")");
      }
      TimeUnit from = qualifier.start;
      TimeUnit to = *qualifier.end;
      bool valid =
          from == TimeUnit::kYear ? to == TimeUnit::kMonth : from >= TimeUnit::kDay && to > from;
      if (!valid) {
        failAt(start, fmt::format("Invalid interval qualifier at line {}, column {}: {} TO {} is "
                                  "not a valid range (use YEAR TO MONTH, DAY TO HOUR|MINUTE|"
                                  "SECOND, HOUR TO MINUTE|SECOND or MINUTE TO SECOND).",
                                  start.line, start.column, unitName(from), unitName(to)));
      }
    }
    return qualifier;
  }

  static std::string_view unitName(TimeUnit unit) {
    switch (unit) {
      case TimeUnit::kYear:
        return "YEAR";
      case TimeUnit::kMonth:
        return "MONTH";
      case TimeUnit::kDay:
        return "DAY";
      case TimeUnit::kHour:
        return "HOUR";
      case TimeUnit::kMinute:
        return "MINUTE";
      case TimeUnit::kSecond:
        return "SECOND";
    }
    return "";
  }

  // `(` [name] [PARTITION BY ..] [ORDER BY ..] [ROWS|RANGE ..] `)`
  std::unique_ptr<WindowSpecification> parseWindowSpecification() {
    auto window = makeNode<WindowSpecification>(peek().position);
    expectSymbol("(");
    if (isIdentifier() && !isKeyword("ROWS") && !isKeyword("RANGE")) {
      window->referenceName = next().text;
    }
    if (acceptKeyword("PARTITION")) {
      expectKeyword("BY");
      do {
        window->partitionBy.push_back(parseExpression());
      } while (acceptSymbol(","));
    }
    if (acceptKeyword("ORDER")) {
      expectKeyword("BY");
      window->orderBy = parseOrderItems();
    }
    if (isKeyword("ROWS") || isKeyword("RANGE")) {
      WindowFrame frame;
      frame.unit = next().keyword == "ROWS" ? FrameUnit::kRows : FrameUnit::kRange;
      if (acceptKeyword("BETWEEN")) {
        frame.start = parseFrameBound();
        expectKeyword("AND");
        frame.end = parseFrameBound();
      } else {
        frame.start = parseFrameBound();
      }
      window->frame = std::move(frame);
    } else {
      note("\"ROWS\"");
      note("\"RANGE\"");
    }
    expectSymbol(")");
    return window;
  }

  FrameBound parseFrameBound() {
    FrameBound bound;
    if (acceptKeyword("UNBOUNDED")) {
      if (acceptKeyword("PRECEDING")) {
        bound.kind = FrameBoundKind::kUnboundedPreceding;
      } else {
        expectKeyword("FOLLOWING");
        bound.kind = FrameBoundKind::kUnboundedFollowing;
      }
    } else if (acceptKeyword("CURRENT")) {
      expectKeyword("ROW");
      bound.kind = FrameBoundKind::kCurrentRow;
    } else {
      bound.offset = parseAdditive();
      if (acceptKeyword("PRECEDING")) {
        bound.kind = FrameBoundKind::kPreceding;
      } else {
        expectKeyword("FOLLOWING");
        bound.kind = FrameBoundKind::kFollowing;
      }
    }
    return bound;
  }

  std::vector<OrderItem> parseOrderItems() {
    std::vector<OrderItem> items;
    do {
      OrderItem item;
      item.expression = parseExpression();
      if (acceptKeyword("DESC")) {
        item.descending = true;
      } else {
        acceptKeyword("ASC");
      }
      if (acceptKeyword("NULLS")) {
        if (acceptKeyword("FIRST")) {
          item.nullOrdering = NullOrdering::kNullsFirst;
        } else {
          expectKeyword("LAST");
          item.nullOrdering = NullOrdering::kNullsLast;
        }
      }
      items.push_back(std::move(item));
    } while (acceptSymbol(","));
    return items;
  }

  // --- Queries -----------------------------------------------------------------------------

  // True when the current token starts a query, looking through opening parentheses.
  bool isQueryStart() const {
    size_t ahead = 0;
    while (isSymbol("(", ahead)) ++ahead;
    return isKeyword("SELECT", ahead) || isKeyword("VALUES", ahead) || isKeyword("WITH", ahead);
  }

  QueryPtr parseQuery() {
    DepthGuard guard(*this);
    if (isKeyword("WITH")) {
      auto with = makeNode<WithQuery>(next().position);
      do {
        WithItem item;
        item.position = peek().position;
        item.name = parseIdentifier();
        if (isSymbol("(")) item.columns = parseParenthesizedIdentifiers();
        expectKeyword("AS");
        expectSymbol("(");
        item.query = parseQuery();
        expectSymbol(")");
        with->items.push_back(std::move(item));
      } while (acceptSymbol(","));
      with->body = parseQuery();
      return with;
    }
    QueryPtr query = parseSetOperations();
    return parseOrderByAndLimit(std::move(query));
  }

  QueryPtr parseOrderByAndLimit(QueryPtr query) {
    SourcePosition position = query->position;
    std::vector<OrderItem> orderBy;
    ExpressionPtr offset;
    ExpressionPtr fetch;
    bool any = false;
    if (acceptKeyword("ORDER")) {
      expectKeyword("BY");
      orderBy = parseOrderItems();
      any = true;
    }
    auto parseOffset = [&] {
      offset = parseAdditive();
      if (!acceptKeyword("ROWS")) acceptKeyword("ROW");
    };
    auto parseFetch = [&] {
      if (!acceptKeyword("FIRST")) expectKeyword("NEXT");
      if (isKeyword("ROW") || isKeyword("ROWS")) {
        fetch = makeLiteral(peek().position, LiteralKind::kExactNumeric, "1");
      } else {
        fetch = parseAdditive();
      }
      if (!acceptKeyword("ROWS")) expectKeyword("ROW");
      expectKeyword("ONLY");
    };
    if (acceptKeyword("LIMIT")) {
      any = true;
      if (!acceptKeyword("ALL")) fetch = parseAdditive();
      if (acceptKeyword("OFFSET")) parseOffset();
    } else if (acceptKeyword("OFFSET")) {
      any = true;
      parseOffset();
      if (acceptKeyword("FETCH")) {
        parseFetch();
      } else if (acceptKeyword("LIMIT")) {
        if (!acceptKeyword("ALL")) fetch = parseAdditive();
      }
    } else if (acceptKeyword("FETCH")) {
      any = true;
      parseFetch();
    }
    if (!any) return query;
    auto node = makeNode<OrderByQuery>(position);
    node->query = std::move(query);
    node->orderBy = std::move(orderBy);
    node->offset = std::move(offset);
    node->fetch = std::move(fetch);
    return node;
  }

  QueryPtr makeSetOperation(SetOperator op, QueryPtr left, QueryPtr right, bool all) {
    auto node = makeNode<SetOperationQuery>(left->position);
    node->op = op;
    node->all = all;
    node->left = std::move(left);
    node->right = std::move(right);
    return node;
  }

  bool parseSetQuantifier() {
    if (acceptKeyword("ALL")) return true;
    acceptKeyword("DISTINCT");
    return false;
  }

  QueryPtr parseSetOperations() {
    DepthGuard guard(*this, false);
    QueryPtr left = parseIntersections();
    while (true) {
      SetOperator op;
      if (acceptKeyword("UNION")) {
        op = SetOperator::kUnion;
      } else if (acceptKeyword("EXCEPT")) {
        op = SetOperator::kExcept;
      } else if (isKeyword("MINUS")) {
        next();
        op = SetOperator::kExcept;
      } else {
        return left;
      }
      guard.chain();
      bool all = parseSetQuantifier();
      left = makeSetOperation(op, std::move(left), parseIntersections(), all);
    }
  }

  QueryPtr parseIntersections() {
    DepthGuard guard(*this, false);
    QueryPtr left = parseQueryPrimary();
    while (acceptKeyword("INTERSECT")) {
      guard.chain();
      bool all = parseSetQuantifier();
      left = makeSetOperation(SetOperator::kIntersect, std::move(left), parseQueryPrimary(), all);
    }
    return left;
  }

  QueryPtr parseQueryPrimary() {
    if (isKeyword("SELECT")) return parseSelect();
    if (isKeyword("VALUES")) return parseValues();
    if (isSymbol("(")) {
      next();
      QueryPtr query = parseQuery();
      expectSymbol(")");
      return query;
    }
    failExpected({"\"SELECT\"", "\"VALUES\"", "\"WITH\"", "\"(\""});
  }

  QueryPtr parseValues() {
    auto node = makeNode<ValuesQuery>(next().position);
    do {
      std::vector<ExpressionPtr> row;
      if (isSymbol("(") || (isKeyword("ROW") && isSymbol("(", 1))) {
        if (isKeyword("ROW")) next();
        next();
        do {
          row.push_back(parseExpression());
        } while (acceptSymbol(","));
        expectSymbol(")");
      } else {
        row.push_back(parseExpression());
      }
      node->rows.push_back(std::move(row));
    } while (acceptSymbol(","));
    return node;
  }

  QueryPtr parseSelect() {
    auto node = makeNode<SelectQuery>(next().position);
    if (acceptKeyword("DISTINCT")) {
      node->distinct = true;
    } else {
      acceptKeyword("ALL");
    }
    do {
      SelectItem item;
      if (isSymbol("*")) {
        item.expression = makeNode<StarExpression>(next().position);
      } else {
        item.expression = parseExpression();
        item.alias = parseOptionalAlias();
      }
      node->items.push_back(std::move(item));
    } while (acceptSymbol(","));
    if (acceptKeyword("FROM")) node->from = parseTableReference();
    if (acceptKeyword("WHERE")) node->where = parseExpression();
    if (acceptKeyword("GROUP")) {
      expectKeyword("BY");
      do {
        node->groupBy.push_back(parseGroupingElement(true));
      } while (acceptSymbol(","));
    }
    if (acceptKeyword("HAVING")) node->having = parseExpression();
    if (acceptKeyword("WINDOW")) {
      do {
        NamedWindow window;
        window.position = peek().position;
        window.name = parseIdentifier();
        expectKeyword("AS");
        window.specification = parseWindowSpecification();
        node->windows.push_back(std::move(window));
      } while (acceptSymbol(","));
    }
    return node;
  }

  std::optional<std::string> parseOptionalAlias() {
    if (acceptKeyword("AS")) return parseIdentifier();
    if (isIdentifier()) return next().text;
    note("<identifier>");
    return std::nullopt;
  }

  GroupingElement parseGroupingElement(bool topLevel) {
    DepthGuard guard(*this);
    GroupingElement element;
    auto parseChildren = [&](GroupingKind kind) {
      element.kind = kind;
      expectSymbol("(");
      if (!isSymbol(")") || kind == GroupingKind::kGroupingSets) {
        do {
          element.children.push_back(parseGroupingElement(false));
        } while (acceptSymbol(","));
      }
      expectSymbol(")");
    };
    if (isKeyword("GROUPING") && isKeyword("SETS", 1)) {
      position_ += 2;
      parseChildren(GroupingKind::kGroupingSets);
    } else if ((isKeyword("ROLLUP") || isKeyword("CUBE")) && isSymbol("(", 1)) {
      parseChildren(next().keyword == "ROLLUP" ? GroupingKind::kRollup : GroupingKind::kCube);
    } else if (isSymbol("(") && (isSymbol(")", 1) || !topLevel)) {
      next();
      element.kind = GroupingKind::kList;
      if (!acceptSymbol(")")) {
        do {
          element.expressions.push_back(parseExpression());
        } while (acceptSymbol(","));
        expectSymbol(")");
      }
    } else {
      element.kind = GroupingKind::kExpression;
      element.expression = parseExpression();
    }
    return element;
  }

  // --- FROM --------------------------------------------------------------------------------

  TableReferencePtr makeJoin(JoinType type, TableReferencePtr left, TableReferencePtr right) {
    auto join = makeNode<JoinReference>(left->position);
    join->joinType = type;
    join->left = std::move(left);
    join->right = std::move(right);
    return join;
  }

  TableReferencePtr parseTableReference() {
    DepthGuard guard(*this);
    TableReferencePtr left = parseTablePrimary();
    while (true) {
      if (acceptSymbol(",")) {
        guard.chain();
        left = makeJoin(JoinType::kComma, std::move(left), parseTablePrimary());
        continue;
      }
      if (acceptKeyword("CROSS")) {
        expectKeyword("JOIN");
        guard.chain();
        left = makeJoin(JoinType::kCross, std::move(left), parseTablePrimary());
        continue;
      }
      JoinType type;
      const bool natural = acceptKeyword("NATURAL");
      if (acceptKeyword("JOIN")) {
        type = JoinType::kInner;
      } else if (acceptKeyword("INNER")) {
        expectKeyword("JOIN");
        type = JoinType::kInner;
      } else if (isKeyword("LEFT") || isKeyword("RIGHT") || isKeyword("FULL")) {
        std::string keyword = next().keyword;
        type = keyword == "LEFT"    ? JoinType::kLeft
               : keyword == "RIGHT" ? JoinType::kRight
                                    : JoinType::kFull;
        acceptKeyword("OUTER");
        expectKeyword("JOIN");
      } else {
        note("\"JOIN\"");
        note("\"LEFT\"");
        note("\"RIGHT\"");
        note("\"FULL\"");
        if (natural) failExpected();
        note("\"NATURAL\"");
        return left;
      }
      guard.chain();
      TableReferencePtr join = makeJoin(type, std::move(left), parseTablePrimary());
      auto& joinReference = join->as<JoinReference>();
      joinReference.natural = natural;
      if (natural) {
        // NATURAL takes neither ON nor USING.
      } else if (acceptKeyword("ON")) {
        joinReference.condition = parseExpression();
      } else if (acceptKeyword("USING")) {
        joinReference.usingColumns = parseParenthesizedIdentifiers();
      } else {
        failExpected();
      }
      left = std::move(join);
    }
  }

  void parseTableAlias(TableReference& reference) {
    reference.alias = parseOptionalAlias();
    if (reference.alias && isSymbol("(")) {
      reference.columnAliases = parseParenthesizedIdentifiers();
    }
  }

  std::unique_ptr<FunctionCallExpression> parseTableFunctionCall() {
    expectSymbol("(");
    SourcePosition position = peek().position;
    ExpressionPtr call = parseExpression();
    if (!call->is<FunctionCallExpression>()) {
      failAt(position, fmt::format("Expected a function call at line {}, column {} as the "
                                   "argument of TABLE(..).",
                                   position.line, position.column));
    }
    expectSymbol(")");
    return std::unique_ptr<FunctionCallExpression>(
        static_cast<FunctionCallExpression*>(call.release()));
  }

  TableReferencePtr parseTablePrimary() {
    DepthGuard guard(*this);
    SourcePosition position = peek().position;
    TableReferencePtr reference;
    bool lateral = false;
    if (isKeyword("LATERAL")) {
      next();
      lateral = true;
      if (!isKeyword("TABLE") && !isSymbol("(")) failExpected({"\"TABLE\"", "\"(\""});
    }
    if (isKeyword("TABLE") && isSymbol("(", 1)) {
      next();
      auto function = makeNode<TableFunctionReference>(position);
      function->lateral = lateral;
      function->call = parseTableFunctionCall();
      reference = std::move(function);
    } else if (isKeyword("UNNEST") && isSymbol("(", 1)) {
      next();
      auto unnest = makeNode<UnnestReference>(position);
      expectSymbol("(");
      do {
        unnest->arguments.push_back(parseExpression());
      } while (acceptSymbol(","));
      expectSymbol(")");
      if (isKeyword("WITH") && isKeyword("ORDINALITY", 1)) {
        position_ += 2;
        unnest->withOrdinality = true;
      }
      reference = std::move(unnest);
    } else if (isSymbol("(")) {
      if (isQueryStart()) {
        auto derived = makeNode<DerivedTableReference>(position);
        derived->lateral = lateral;
        next();
        derived->query = parseQuery();
        expectSymbol(")");
        reference = std::move(derived);
      } else {
        next();
        reference = parseTableReference();
        expectSymbol(")");
        if (reference->is<JoinReference>()) return reference;
      }
    } else if (isIdentifier()) {
      auto named = makeNode<NamedTableReference>(position);
      named->name = parseQualifiedName();
      if (isKeyword("FOR") && isKeyword("SYSTEM_TIME", 1)) {
        position_ += 2;
        expectKeyword("AS");
        expectKeyword("OF");
        named->systemTimeAsOf = parseAdditive();
      }
      reference = std::move(named);
    } else {
      failExpected({"<identifier>", "\"(\"", "\"LATERAL\"", "\"TABLE\"", "\"UNNEST\""});
    }
    parseTableAlias(*reference);
    return reference;
  }

  // --- Statements --------------------------------------------------------------------------

  StatementPtr parseStatementWithText() {
    const Token& first = peek();
    StatementPtr statement = parseStatementBody();
    statement->position = first.position;
    statement->sourceText = std::string(sql_.substr(first.begin, previous().end - first.begin));
    return statement;
  }

  StatementPtr parseStatementBody() {
    DepthGuard guard(*this);
    if (isQueryStart()) {
      auto statement = makeNode<QueryStatement>(peek().position);
      statement->query = parseQuery();
      return statement;
    }
    if (isKeyword("INSERT")) return parseInsert();
    if (isKeyword("CREATE")) return parseCreate();
    if (isKeyword("REPLACE")) {
      SourcePosition position = next().position;
      expectKeyword("TABLE");
      return parseCreateTable(position, false, CreateTableStatement::Replace::kReplace);
    }
    if (isKeyword("DROP")) return parseDrop();
    if (isKeyword("ALTER")) return parseAlter();
    if (isKeyword("USE")) return parseUse();
    if (isKeyword("SHOW")) return parseShow();
    if (isKeyword("DESCRIBE") || isKeyword("DESC")) return parseDescribe();
    if (isKeyword("EXPLAIN")) return parseExplain();
    if (isKeyword("SET")) return parseSet();
    if (isKeyword("RESET")) return parseReset();
    if (isKeyword("EXECUTE")) return parseExecute();
    if (isKeyword("BEGIN")) {
      SourcePosition position = next().position;
      expectKeyword("STATEMENT");
      expectKeyword("SET");
      expectSymbol(";");
      return parseStatementSetBody(position);
    }
    failExpected({"\"SELECT\"", "\"INSERT\"", "\"CREATE\"", "\"DROP\"", "\"ALTER\"", "\"USE\"",
                  "\"SHOW\"", "\"DESCRIBE\"", "\"EXPLAIN\"", "\"SET\"", "\"RESET\"", "\"EXECUTE\"",
                  "\"BEGIN\"", "\"VALUES\"", "\"WITH\""});
  }

  // The INSERTs of a statement set up to and including END.
  StatementPtr parseStatementSetBody(SourcePosition position) {
    auto set = makeNode<StatementSetStatement>(position);
    while (true) {
      while (acceptSymbol(";")) {
      }
      if (acceptKeyword("END")) break;
      if (!isKeyword("INSERT")) failExpected({"\"INSERT\"", "\"END\""});
      set->statements.push_back(parseStatementWithText());
      if (!isKeyword("END")) expectSymbol(";");
    }
    return set;
  }

  StatementPtr parseInsert() {
    auto insert = makeNode<InsertStatement>(next().position);
    if (acceptKeyword("OVERWRITE")) {
      insert->overwrite = true;
    } else {
      expectKeyword("INTO");
    }
    insert->tableName = parseQualifiedName();
    if (acceptKeyword("PARTITION")) {
      expectSymbol("(");
      do {
        PartitionValue value;
        value.column = parseIdentifier();
        expectSymbol("=");
        value.value = parseAdditive();
        insert->partition.push_back(std::move(value));
      } while (acceptSymbol(","));
      expectSymbol(")");
    }
    if (isSymbol("(") && !isQueryStart()) {
      insert->columns = parseParenthesizedIdentifiers();
    }
    if (!isQueryStart()) failExpected({"\"SELECT\"", "\"VALUES\"", "\"WITH\"", "\"(\""});
    insert->query = parseQuery();
    return insert;
  }

  bool parseIfNotExists() {
    if (!acceptKeyword("IF")) return false;
    expectKeyword("NOT");
    expectKeyword("EXISTS");
    return true;
  }

  bool parseIfExists() {
    if (!acceptKeyword("IF")) return false;
    expectKeyword("EXISTS");
    return true;
  }

  std::optional<std::string> parseOptionalComment() {
    if (acceptKeyword("COMMENT")) return parseStringLiteral();
    return std::nullopt;
  }

  StatementPtr parseCreate() {
    SourcePosition position = next().position;
    if (acceptKeyword("OR")) {
      expectKeyword("REPLACE");
      expectKeyword("TABLE");
      return parseCreateTable(position, false, CreateTableStatement::Replace::kCreateOrReplace);
    }
    bool temporary = acceptKeyword("TEMPORARY");
    if (acceptKeyword("TABLE")) return parseCreateTable(position, temporary);
    if (acceptKeyword("VIEW")) return parseCreateView(position, temporary);
    if (!temporary) {
      if (acceptKeyword("DATABASE")) {
        auto create = makeNode<CreateDatabaseStatement>(position);
        create->ifNotExists = parseIfNotExists();
        create->databaseName = parseQualifiedName();
        create->comment = parseOptionalComment();
        if (acceptKeyword("WITH")) create->options = parseOptions();
        return create;
      }
      if (acceptKeyword("CATALOG")) {
        auto create = makeNode<CreateCatalogStatement>(position);
        create->ifNotExists = parseIfNotExists();
        create->catalogName = parseIdentifier();
        create->comment = parseOptionalComment();
        expectKeyword("WITH");
        create->options = parseOptions();
        return create;
      }
    }
    failExpected();
  }

  // `[CONSTRAINT name] PRIMARY KEY` with the current token at CONSTRAINT or PRIMARY.
  PrimaryKeyConstraint parsePrimaryKeyStart() {
    PrimaryKeyConstraint key;
    key.position = peek().position;
    if (acceptKeyword("CONSTRAINT")) key.name = parseIdentifier();
    expectKeyword("PRIMARY");
    expectKeyword("KEY");
    return key;
  }

  void parseEnforcement(PrimaryKeyConstraint& key) {
    if (acceptKeyword("NOT")) {
      expectKeyword("ENFORCED");
      key.notEnforced = true;
    } else {
      acceptKeyword("ENFORCED");
    }
  }

  void setPrimaryKey(std::optional<PrimaryKeyConstraint>& target, PrimaryKeyConstraint key) {
    if (target) {
      failAt(key.position, fmt::format("Duplicate primary key definition at line {}, column {}.",
                                       key.position.line, key.position.column));
    }
    target = std::move(key);
  }

  // One element of a table schema: a column, a WATERMARK or a PRIMARY KEY.
  /// One element of a CREATE TABLE schema or an ALTER TABLE ADD/MODIFY list; `placed`: a
  /// column may end with `FIRST` or `AFTER column` (ALTER TABLE).
  void parseSchemaElement(std::vector<TableColumn>& columns,
                          std::vector<WatermarkDefinition>& watermarks,
                          std::optional<PrimaryKeyConstraint>& primaryKey, bool placed = false) {
    if (isKeyword("WATERMARK") && isKeyword("FOR", 1)) {
      WatermarkDefinition watermark;
      watermark.position = next().position;
      next();
      watermark.column = parseQualifiedName();
      expectKeyword("AS");
      watermark.expression = parseExpression();
      watermarks.push_back(std::move(watermark));
      return;
    }
    if (isKeyword("CONSTRAINT") || (isKeyword("PRIMARY") && isKeyword("KEY", 1))) {
      PrimaryKeyConstraint key = parsePrimaryKeyStart();
      key.columns = parseParenthesizedIdentifiers();
      parseEnforcement(key);
      setPrimaryKey(primaryKey, std::move(key));
      return;
    }
    TableColumn column;
    column.position = peek().position;
    column.name = parseIdentifier();
    if (!placed && (isSymbol(",") || isSymbol(")"))) {
      // A bare name: a CTAS column list (parseCreateTable rejects it elsewhere; ALTER TABLE
      // expects a type here).
      columns.push_back(std::move(column));
      return;
    }
    if (acceptKeyword("AS")) {
      column.kind = ColumnKind::kComputed;
      column.expression = parseExpression();
    } else {
      column.type = parseType();
      if (acceptKeyword("METADATA")) {
        column.kind = ColumnKind::kMetadata;
        if (acceptKeyword("FROM")) column.metadataKey = parseStringLiteral();
        column.isVirtual = acceptKeyword("VIRTUAL");
      } else if (isKeyword("CONSTRAINT") || isKeyword("PRIMARY")) {
        PrimaryKeyConstraint key = parsePrimaryKeyStart();
        key.columns = {column.name};
        parseEnforcement(key);
        setPrimaryKey(primaryKey, std::move(key));
      }
    }
    column.comment = parseOptionalComment();
    if (placed && acceptKeyword("FIRST")) {
      column.placement = TableColumn::Placement::kFirst;
    } else if (placed && acceptKeyword("AFTER")) {
      column.placement = TableColumn::Placement::kAfter;
      column.afterColumn = parseIdentifier();
    }
    columns.push_back(std::move(column));
  }

  StatementPtr parseCreateTable(
      SourcePosition position, bool temporary,
      CreateTableStatement::Replace replace = CreateTableStatement::Replace::kNo) {
    auto create = makeNode<CreateTableStatement>(position);
    create->temporary = temporary;
    create->replace = replace;
    if (replace == CreateTableStatement::Replace::kNo) create->ifNotExists = parseIfNotExists();
    create->tableName = parseQualifiedName();
    if (acceptSymbol("(")) {
      do {
        parseSchemaElement(create->columns, create->watermarks, create->primaryKey);
      } while (acceptSymbol(","));
      expectSymbol(")");
    }
    create->comment = parseOptionalComment();
    if (acceptKeyword("PARTITIONED")) {
      expectKeyword("BY");
      create->partitionKeys = parseParenthesizedIdentifiers();
    }
    if (acceptKeyword("WITH")) create->options = parseOptions();
    if (replace == CreateTableStatement::Replace::kNo && acceptKeyword("LIKE")) {
      LikeClause like;
      like.position = previous().position;
      like.sourceTable = parseQualifiedName();
      if (acceptSymbol("(")) {
        while (!acceptSymbol(")")) like.options.push_back(parseLikeOption());
      }
      create->like = std::move(like);
    }
    if (acceptKeyword("AS")) {
      if (!isQueryStart()) failExpected({"\"SELECT\"", "\"VALUES\"", "\"WITH\"", "\"(\""});
      create->asQuery = parseQuery();
    } else if (replace != CreateTableStatement::Replace::kNo) {
      failExpected({"\"AS\""});
    }
    if (!create->asQuery) {
      for (const TableColumn& column : create->columns) {
        if (column.kind == ColumnKind::kPhysical && !column.type) {
          failAt(column.position,
                 fmt::format("Column '{}' has no data type; a column list of bare names is "
                             "only allowed in CREATE TABLE .. AS SELECT",
                             column.name));
        }
      }
    }
    return create;
  }

  LikeOption parseLikeOption() {
    LikeOption option;
    if (acceptKeyword("INCLUDING")) {
      option.strategy = LikeStrategy::kIncluding;
    } else if (acceptKeyword("EXCLUDING")) {
      option.strategy = LikeStrategy::kExcluding;
    } else if (acceptKeyword("OVERWRITING")) {
      option.strategy = LikeStrategy::kOverwriting;
    } else {
      failExpected();
    }
    static constexpr std::pair<std::string_view, LikeFeature> kFeatures[] = {
        {"ALL", LikeFeature::kAll},
        {"CONSTRAINTS", LikeFeature::kConstraints},
        {"GENERATED", LikeFeature::kGenerated},
        {"METADATA", LikeFeature::kMetadata},
        {"OPTIONS", LikeFeature::kOptions},
        {"PARTITIONS", LikeFeature::kPartitions},
        {"WATERMARKS", LikeFeature::kWatermarks}};
    for (const auto& [name, feature] : kFeatures) {
      if (acceptKeyword(name)) {
        option.feature = feature;
        return option;
      }
    }
    failExpected();
  }

  StatementPtr parseCreateView(SourcePosition position, bool temporary) {
    auto create = makeNode<CreateViewStatement>(position);
    create->temporary = temporary;
    create->ifNotExists = parseIfNotExists();
    create->viewName = parseQualifiedName();
    if (isSymbol("(")) create->columns = parseParenthesizedIdentifiers();
    create->comment = parseOptionalComment();
    expectKeyword("AS");
    if (!isQueryStart()) failExpected({"\"SELECT\"", "\"VALUES\"", "\"WITH\"", "\"(\""});
    create->query = parseQuery();
    return create;
  }

  StatementPtr parseDrop() {
    auto drop = makeNode<DropStatement>(next().position);
    drop->temporary = acceptKeyword("TEMPORARY");
    if (acceptKeyword("TABLE")) {
      drop->objectKind = ObjectKind::kTable;
    } else if (acceptKeyword("VIEW")) {
      drop->objectKind = ObjectKind::kView;
    } else if (!drop->temporary && acceptKeyword("DATABASE")) {
      drop->objectKind = ObjectKind::kDatabase;
    } else if (!drop->temporary && acceptKeyword("CATALOG")) {
      drop->objectKind = ObjectKind::kCatalog;
    } else {
      failExpected();
    }
    drop->ifExists = parseIfExists();
    drop->name = parseQualifiedName();
    if (drop->objectKind == ObjectKind::kDatabase) {
      if (acceptKeyword("CASCADE")) {
        drop->cascade = true;
      } else {
        acceptKeyword("RESTRICT");
      }
    }
    return drop;
  }

  StatementPtr parseAlter() {
    SourcePosition position = next().position;
    expectKeyword("TABLE");
    auto alter = makeNode<AlterTableStatement>(position);
    alter->ifExists = parseIfExists();
    alter->tableName = parseQualifiedName();
    if (acceptKeyword("RENAME")) {
      if (acceptKeyword("TO")) {
        alter->action = AlterTableAction::kRename;
        alter->newName = parseQualifiedName();
      } else {
        alter->action = AlterTableAction::kRenameColumn;
        alter->column = parseIdentifier();
        expectKeyword("TO");
        alter->newColumnName = parseIdentifier();
      }
    } else if (acceptKeyword("DROP")) {
      if (acceptKeyword("PRIMARY")) {
        expectKeyword("KEY");
        alter->action = AlterTableAction::kDropPrimaryKey;
      } else if (acceptKeyword("CONSTRAINT")) {
        alter->action = AlterTableAction::kDropPrimaryKey;
        alter->constraintName = parseIdentifier();
      } else if (acceptKeyword("WATERMARK")) {
        alter->action = AlterTableAction::kDropWatermark;
      } else {
        alter->action = AlterTableAction::kDropColumns;
        if (isSymbol("(")) {
          alter->dropColumns = parseParenthesizedIdentifiers();
        } else {
          alter->dropColumns.push_back(parseIdentifier());
        }
      }
    } else if (acceptKeyword("SET")) {
      alter->action = AlterTableAction::kSetOptions;
      alter->options = parseOptions();
    } else if (acceptKeyword("RESET")) {
      alter->action = AlterTableAction::kResetOptions;
      expectSymbol("(");
      do {
        alter->resetKeys.push_back(parseStringLiteral());
      } while (acceptSymbol(","));
      expectSymbol(")");
    } else if (isKeyword("ADD") || isKeyword("MODIFY")) {
      alter->action = next().keyword == "ADD" ? AlterTableAction::kAdd : AlterTableAction::kModify;
      if (acceptSymbol("(")) {
        do {
          parseSchemaElement(alter->columns, alter->watermarks, alter->primaryKey, /*placed=*/true);
        } while (acceptSymbol(","));
        expectSymbol(")");
      } else {
        parseSchemaElement(alter->columns, alter->watermarks, alter->primaryKey, /*placed=*/true);
      }
    } else {
      failExpected();
    }
    return alter;
  }

  StatementPtr parseUse() {
    SourcePosition position = next().position;
    if (isKeyword("CATALOG") && !isSymbol(".", 1) && !atEndOfStatement(1)) {
      next();
      auto use = makeNode<UseCatalogStatement>(position);
      use->catalogName = parseIdentifier();
      return use;
    }
    auto use = makeNode<UseDatabaseStatement>(position);
    use->databaseName = parseQualifiedName();
    return use;
  }

  bool atEndOfStatement(size_t ahead) const {
    return peek(ahead).kind == TokenKind::kEnd || isSymbol(";", ahead);
  }

  void parseShowLike(ShowStatement& show) {
    if (isKeyword("NOT") && isKeyword("LIKE", 1)) {
      position_ += 2;
      show.notLike = true;
      show.likePattern = parseStringLiteral();
    } else if (acceptKeyword("LIKE")) {
      show.likePattern = parseStringLiteral();
    }
  }

  StatementPtr parseShow() {
    auto show = makeNode<ShowStatement>(next().position);
    auto parseFromName = [&](bool required) {
      if (acceptKeyword("FROM") || acceptKeyword("IN")) {
        show->name = parseQualifiedName();
      } else if (required) {
        failExpected();
      }
    };
    if (acceptKeyword("CATALOGS")) {
      show->showKind = ShowKind::kCatalogs;
    } else if (acceptKeyword("CURRENT")) {
      if (acceptKeyword("CATALOG")) {
        show->showKind = ShowKind::kCurrentCatalog;
      } else {
        expectKeyword("DATABASE");
        show->showKind = ShowKind::kCurrentDatabase;
      }
    } else if (acceptKeyword("DATABASES")) {
      show->showKind = ShowKind::kDatabases;
    } else if (acceptKeyword("TABLES")) {
      show->showKind = ShowKind::kTables;
      parseFromName(false);
      parseShowLike(*show);
    } else if (acceptKeyword("VIEWS")) {
      show->showKind = ShowKind::kViews;
      parseFromName(false);
    } else if (acceptKeyword("FUNCTIONS")) {
      show->showKind = ShowKind::kFunctions;
    } else if (acceptKeyword("COLUMNS")) {
      show->showKind = ShowKind::kColumns;
      parseFromName(true);
      parseShowLike(*show);
    } else if (acceptKeyword("CREATE")) {
      if (acceptKeyword("TABLE")) {
        show->showKind = ShowKind::kCreateTable;
      } else {
        expectKeyword("VIEW");
        show->showKind = ShowKind::kCreateView;
      }
      show->name = parseQualifiedName();
    } else {
      failExpected();
    }
    return show;
  }

  StatementPtr parseDescribe() {
    auto describe = makeNode<DescribeStatement>(next().position);
    describe->extended = acceptKeyword("EXTENDED");
    describe->tableName = parseQualifiedName();
    return describe;
  }

  StatementPtr parseExplain() {
    auto explain = makeNode<ExplainStatement>(next().position);
    if (acceptKeyword("PLAN")) {
      expectKeyword("FOR");
      explain->planFor = true;
    } else {
      static constexpr std::pair<std::string_view, ExplainDetail> kDetails[] = {
          {"CHANGELOG_MODE", ExplainDetail::kChangelogMode},
          {"ESTIMATED_COST", ExplainDetail::kEstimatedCost},
          {"JSON_EXECUTION_PLAN", ExplainDetail::kJsonExecutionPlan},
          {"PLAN_ADVICE", ExplainDetail::kPlanAdvice}};
      bool more = true;
      while (more) {
        more = false;
        for (const auto& [name, detail] : kDetails) {
          if (isKeyword(name)) {
            next();
            explain->details.push_back(detail);
            if (acceptSymbol(",")) {
              more = true;
            }
            break;
          }
        }
      }
    }
    SourcePosition position = peek().position;
    if (isKeyword("STATEMENT") && isKeyword("SET", 1)) {
      position_ += 2;
      expectKeyword("BEGIN");
      explain->statement = parseStatementSetBody(position);
      explain->statement->sourceText = "";
    } else if (isKeyword("INSERT") || isQueryStart() || isKeyword("REPLACE") ||
               (isKeyword("CREATE") && (isKeyword("TABLE", 1) || isKeyword("OR", 1)))) {
      explain->statement = parseStatementWithText();
      if (explain->statement->is<CreateTableStatement>() &&
          !explain->statement->as<CreateTableStatement>().asQuery) {
        failAt(explain->statement->position,
               "EXPLAIN of CREATE TABLE needs AS SELECT (CREATE TABLE .. AS SELECT or REPLACE "
               "TABLE .. AS SELECT)");
      }
    } else {
      failExpected({"\"SELECT\"", "\"INSERT\"", "\"CREATE\"", "\"REPLACE\"", "\"STATEMENT\"",
                    "\"VALUES\"", "\"WITH\""});
    }
    return explain;
  }

  StatementPtr parseSet() {
    auto set = makeNode<SetStatement>(next().position);
    if (peek().kind == TokenKind::kString) {
      set->key = next().text;
      expectSymbol("=");
      set->value = parseStringLiteral();
    }
    return set;
  }

  StatementPtr parseReset() {
    auto reset = makeNode<ResetStatement>(next().position);
    if (peek().kind == TokenKind::kString) reset->key = next().text;
    return reset;
  }

  StatementPtr parseExecute() {
    SourcePosition position = next().position;
    if (isKeyword("STATEMENT") && isKeyword("SET", 1)) {
      position_ += 2;
      expectKeyword("BEGIN");
      return parseStatementSetBody(position);
    }
    auto execute = makeNode<ExecuteStatement>(position);
    if (isKeyword("INSERT") || isQueryStart()) {
      execute->statement = parseStatementWithText();
    } else {
      failExpected({"\"STATEMENT\"", "\"INSERT\"", "\"SELECT\"", "\"VALUES\"", "\"WITH\""});
    }
    return execute;
  }

  std::string_view sql_;
  std::vector<Token> tokens_;
  size_t position_ = 0;
  int depth_ = 0;
  int treeDepth_ = 0;
  int parameterCount_ = 0;
  std::vector<std::string> notes_;
  size_t notesIndex_ = static_cast<size_t>(-1);
};

}  // namespace

std::vector<StatementPtr> parseScript(std::string_view sql) { return Parser(sql).parseScript(); }

StatementPtr parseStatement(std::string_view sql) { return Parser(sql).parseSingleStatement(); }

ExpressionPtr parseExpression(std::string_view sql) { return Parser(sql).parseSingleExpression(); }

}  // namespace eddy::sql
