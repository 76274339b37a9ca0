// The recursive-descent parser of Flink's SQL dialect: the Parser class, private to
// src/sql/parser (parser.h holds the entry points, docs/sql_grammar.md the grammar). One Parser
// object parses one text on one thread; it owns the text's tokens and the cursor over them.
//
// The grammar rules are defined by section, one file each:
//   parser.cpp                 the entry points: a script, one statement, one expression
//   parser_tokens.cpp          reserved words; the "Was expecting" notes and error messages
//   parse_names_and_types.cpp  identifiers, qualified names, literals, WITH options, types
//   parse_expression.cpp       expressions, function calls and their special syntaxes,
//                              intervals, OVER windows, ORDER BY items
//   parse_query.cpp            queries (SELECT, VALUES, set operations, ORDER BY/LIMIT) and
//                              FROM (table references, joins, table functions)
//   parse_statement.cpp        statements: DDL, INSERT, USE, SHOW, DESCRIBE, EXPLAIN, SET, ...
// The token cursor and the depth guard are defined here, inline: every rule calls them.
//
// Error reporting: every `accept*` that fails notes what it looked for at the current token;
// when the parser then fails at that token, the notes are the "Was expecting" list. Lookahead
// tests (`is*`) note nothing, so the list holds only real alternatives and stays short.
//
// Depth: `depth_` counts recursion (parentheses, subqueries, unary operators) and is capped
// at kMaxNestingDepth to protect the stack; `treeDepth_` also counts left-deep operator and
// join chains and is capped at kMaxTreeDepth so that later recursive passes over the tree
// (unparse, destruction, the binder) stay within the stack too.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sql/parser/ast.h"
#include "sql/parser/lexer.h"
#include "sql/parser/parser.h"

namespace eddy::sql::detail {

inline constexpr int kMaxTreeDepth = 5000;

// Whether `keyword` (upper case) is reserved: it is never taken for an unquoted identifier or
// alias (the words are listed in parser_tokens.cpp).
bool isReservedWord(std::string_view keyword);

template <typename T>
std::unique_ptr<T> makeNode(SourcePosition position) {
  auto node = std::make_unique<T>();
  node->position = position;
  return node;
}

class Parser {
 public:
  explicit Parser(std::string_view sql) : sql_(sql), tokens_(tokenize(sql)) {}

  // The entry points of parser.h (parser.cpp).
  std::vector<StatementPtr> parseScript();
  StatementPtr parseSingleStatement();
  ExpressionPtr parseSingleExpression();

 private:
  // --- Depth ---------------------------------------------------------------------------------

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

  // --- Tokens --------------------------------------------------------------------------------

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

  // --- Errors (parser_tokens.cpp) ------------------------------------------------------------

  void note(std::string label);
  [[noreturn]] static void failAt(SourcePosition position, const std::string& message);
  std::string describe(const Token& token) const;
  [[noreturn]] void failExpected(std::initializer_list<std::string_view> labels = {});

  // --- Names and literals (parse_names_and_types.cpp) ----------------------------------------

  std::string parseIdentifier();
  QualifiedName parseQualifiedName();
  std::vector<std::string> parseParenthesizedIdentifiers();
  std::string parseStringLiteral();
  int parseUnsignedInteger();
  std::vector<TableOption> parseOptions();

  // --- Types (parse_names_and_types.cpp) -----------------------------------------------------

  void skipTypeGroup(std::string_view open, std::string_view close);
  LogicalTypePtr parseType();
  LogicalTypePtr buildType(size_t first, size_t last);

  // --- Expressions (parse_expression.cpp) ----------------------------------------------------

  ExpressionPtr parseExpression();
  ExpressionPtr makeBinary(BinaryOperator op, ExpressionPtr left, ExpressionPtr right);
  ExpressionPtr parseOr();
  ExpressionPtr parseAnd();
  ExpressionPtr parseNot();
  std::optional<BinaryOperator> comparisonOperator() const;
  ExpressionPtr parseComparison();
  ExpressionPtr parseIsTail(ExpressionPtr operand);
  ExpressionPtr parseAdditive();
  ExpressionPtr parseMultiplicative();
  ExpressionPtr parseUnary();
  ExpressionPtr parsePostfix();
  ExpressionPtr makeLiteral(SourcePosition position, LiteralKind kind, std::string value);
  ExpressionPtr parsePrimary();
  ExpressionPtr parseParenthesized();
  ExpressionPtr parseKeywordPrimary();
  ExpressionPtr parseIdentifierOrCall();
  void parseCallRest(FunctionCallExpression& call);
  void parseCallSuffix(FunctionCallExpression& call);
  ExpressionPtr parseFunctionArgument();
  std::unique_ptr<FunctionCallExpression> startSpecialCall(FunctionSyntax syntax);
  ExpressionPtr parseTimeUnitSymbol();
  ExpressionPtr parseExtract();
  ExpressionPtr parsePosition();
  ExpressionPtr parseSubstring();
  ExpressionPtr parseJsonCall(const std::string& name);
  ExpressionPtr parseOverlay();
  ExpressionPtr parseTrim();
  ExpressionPtr parseFloorCeil();
  ExpressionPtr parseTimestampAddDiff();
  ExpressionPtr parseConstructor(ConstructorKind kind);
  ExpressionPtr parseCast();
  ExpressionPtr parseCase();
  ExpressionPtr parseIntervalLiteral();
  TimeUnit parseIntervalUnit();
  IntervalQualifier parseIntervalQualifier();
  std::unique_ptr<WindowSpecification> parseWindowSpecification();
  FrameBound parseFrameBound();
  std::vector<OrderItem> parseOrderItems();

  // --- Queries (parse_query.cpp) -------------------------------------------------------------

  bool isQueryStart() const;
  QueryPtr parseQuery();
  QueryPtr parseOrderByAndLimit(QueryPtr query);
  QueryPtr makeSetOperation(SetOperator op, QueryPtr left, QueryPtr right, bool all);
  bool parseSetQuantifier();
  QueryPtr parseSetOperations();
  QueryPtr parseIntersections();
  QueryPtr parseQueryPrimary();
  QueryPtr parseValues();
  QueryPtr parseSelect();
  std::optional<std::string> parseOptionalAlias();
  GroupingElement parseGroupingElement(bool topLevel);

  // --- FROM (parse_query.cpp) ----------------------------------------------------------------

  TableReferencePtr makeJoin(JoinSyntax syntax, relational::JoinType type, TableReferencePtr left,
                             TableReferencePtr right);
  TableReferencePtr parseTableReference();
  void parseTableAlias(TableReference& reference);
  /// The hints after a table name (`previous()`'s hint text): OPTIONS(..) into `table`; other
  /// hints are left for the planner to ignore, as before.
  void parseTableHints(NamedTableReference& table);
  std::unique_ptr<FunctionCallExpression> parseTableFunctionCall();
  TableReferencePtr parseTablePrimary();

  // --- Statements (parse_statement.cpp) ------------------------------------------------------

  StatementPtr parseStatementWithText();
  StatementPtr parseStatementBody();
  StatementPtr parseStatementSetBody(SourcePosition position);
  StatementPtr parseInsert();
  bool parseIfNotExists();
  bool parseIfExists();
  std::optional<std::string> parseOptionalComment();
  StatementPtr parseCreate();
  PrimaryKeyConstraint parsePrimaryKeyStart();
  void parseEnforcement(PrimaryKeyConstraint& key);
  void setPrimaryKey(std::optional<PrimaryKeyConstraint>& target, PrimaryKeyConstraint key);
  void parseSchemaElement(std::vector<TableColumn>& columns,
                          std::vector<WatermarkDefinition>& watermarks,
                          std::optional<PrimaryKeyConstraint>& primaryKey, bool placed = false);
  StatementPtr parseCreateTable(
      SourcePosition position, bool temporary,
      CreateTableStatement::Replace replace = CreateTableStatement::Replace::kNo);
  LikeOption parseLikeOption();
  StatementPtr parseCreateView(SourcePosition position, bool temporary);
  StatementPtr parseDrop();
  StatementPtr parseAlter();
  StatementPtr parseUse();
  bool atEndOfStatement(size_t ahead) const;
  void parseShowLike(ShowStatement& show);
  StatementPtr parseShow();
  StatementPtr parseDescribe();
  StatementPtr parseExplain();
  StatementPtr parseSet();
  StatementPtr parseReset();
  StatementPtr parseExecute();
  StatementPtr parseStopJob();

  std::string_view sql_;
  std::vector<Token> tokens_;
  size_t position_ = 0;
  int depth_ = 0;
  int treeDepth_ = 0;
  int parameterCount_ = 0;
  std::vector<std::string> notes_;
  size_t notesIndex_ = static_cast<size_t>(-1);
};

}  // namespace eddy::sql::detail
