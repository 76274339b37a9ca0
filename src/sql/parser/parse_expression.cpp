// Expressions (recursive_descent_parser.h): the operator precedence levels from OR down to
// postfix operators, primaries (literals, parenthesized expressions and subqueries, keyword
// forms such as CASE, CAST and INTERVAL), function calls with their special syntaxes
// (EXTRACT, POSITION, SUBSTRING, TRIM, OVERLAY, FLOOR/CEIL .. TO, JSON_*), and a call's
// FILTER and OVER clauses with their window specifications and ORDER BY items.
#include <iterator>

#include "sql/parser/recursive_descent_parser.h"

namespace eddy::sql::detail {

namespace {

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

}  // namespace

ExpressionPtr Parser::parseExpression() {
  DepthGuard guard(*this);
  return parseOr();
}

ExpressionPtr Parser::makeBinary(BinaryOperator op, ExpressionPtr left, ExpressionPtr right) {
  auto node = makeNode<BinaryExpression>(left->position);
  node->op = op;
  node->left = std::move(left);
  node->right = std::move(right);
  return node;
}

ExpressionPtr Parser::parseOr() {
  DepthGuard guard(*this, false);
  ExpressionPtr left = parseAnd();
  while (isKeyword("OR")) {
    next();
    guard.chain();
    left = makeBinary(BinaryOperator::kOr, std::move(left), parseAnd());
  }
  return left;
}

ExpressionPtr Parser::parseAnd() {
  DepthGuard guard(*this, false);
  ExpressionPtr left = parseNot();
  while (isKeyword("AND")) {
    next();
    guard.chain();
    left = makeBinary(BinaryOperator::kAnd, std::move(left), parseNot());
  }
  return left;
}

ExpressionPtr Parser::parseNot() {
  if (!isKeyword("NOT")) return parseComparison();
  DepthGuard guard(*this);
  auto node = makeNode<UnaryExpression>(next().position);
  node->op = UnaryOperator::kNot;
  node->operand = parseNot();
  return node;
}

std::optional<BinaryOperator> Parser::comparisonOperator() const {
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

ExpressionPtr Parser::parseComparison() {
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

ExpressionPtr Parser::parseIsTail(ExpressionPtr operand) {
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

ExpressionPtr Parser::parseAdditive() {
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

ExpressionPtr Parser::parseMultiplicative() {
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

ExpressionPtr Parser::parseUnary() {
  if (!isSymbol("-") && !isSymbol("+")) return parsePostfix();
  DepthGuard guard(*this);
  const Token& sign = next();
  auto node = makeNode<UnaryExpression>(sign.position);
  node->op = sign.text == "-" ? UnaryOperator::kMinus : UnaryOperator::kPlus;
  node->operand = parseUnary();
  return node;
}

ExpressionPtr Parser::parsePostfix() {
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

ExpressionPtr Parser::makeLiteral(SourcePosition position, LiteralKind kind, std::string value) {
  auto node = makeNode<LiteralExpression>(position);
  node->literalKind = kind;
  node->value = std::move(value);
  return node;
}

ExpressionPtr Parser::parsePrimary() {
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

ExpressionPtr Parser::parseParenthesized() {
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
ExpressionPtr Parser::parseKeywordPrimary() {
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

ExpressionPtr Parser::parseIdentifierOrCall() {
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
void Parser::parseCallRest(FunctionCallExpression& call) {
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
void Parser::parseCallSuffix(FunctionCallExpression& call) {
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

ExpressionPtr Parser::parseFunctionArgument() {
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

std::unique_ptr<FunctionCallExpression> Parser::startSpecialCall(FunctionSyntax syntax) {
  const Token& name = next();
  auto node = makeNode<FunctionCallExpression>(name.position);
  node->name = {name.keyword};
  node->syntax = syntax;
  expectSymbol("(");
  return node;
}

ExpressionPtr Parser::parseTimeUnitSymbol() {
  std::string unit;
  if (peek().kind == TokenKind::kIdentifier) unit = timeUnitSymbol(peek().keyword);
  if (unit.empty()) failExpected({"<time unit>"});
  auto node = makeNode<SymbolExpression>(next().position);
  node->name = std::move(unit);
  return node;
}

ExpressionPtr Parser::parseExtract() {
  auto node = startSpecialCall(FunctionSyntax::kExtract);
  node->arguments.push_back(parseTimeUnitSymbol());
  expectKeyword("FROM");
  node->arguments.push_back(parseExpression());
  expectSymbol(")");
  return node;
}

ExpressionPtr Parser::parsePosition() {
  auto node = startSpecialCall(FunctionSyntax::kPosition);
  node->arguments.push_back(parseAdditive());
  expectKeyword("IN");
  node->arguments.push_back(parseExpression());
  expectSymbol(")");
  return node;
}

ExpressionPtr Parser::parseSubstring() {
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
// NULL]) (one pair or value; FILTER/OVER may follow), JSON_VALUE(j, p [RETURNING type] [behaviour
// ON EMPTY] [behaviour ON ERROR]), JSON_QUERY(j, p [RETURNING type] [wrapper] [.. ON EMPTY] [.. ON
// ERROR]), JSON_EXISTS(j, p [TRUE|FALSE|UNKNOWN|ERROR ON ERROR]).
ExpressionPtr Parser::parseJsonCall(const std::string& name) {
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
      SourcePosition start = peek().position;
      ExpressionPtr defaultValue;
      std::string chosen = behaviour(defaultValue);
      expectKeyword("ON");
      // A second clause for the same condition is an error rather than overriding the first.
      auto rejectDuplicate = [&](const std::string& existing, const char* condition) {
        if (existing.empty()) return;
        failAt(start, fmt::format("Duplicate ON {} clause in {} at line {}, column {}.", condition,
                                  name, start.line, start.column));
      };
      if (acceptKeyword("EMPTY")) {
        rejectDuplicate(clauses.onEmpty, "EMPTY");
        clauses.onEmpty = chosen;
        clauses.emptyDefault = std::move(defaultValue);
      } else {
        expectKeyword("ERROR");
        rejectDuplicate(clauses.onError, "ERROR");
        clauses.onError = chosen;
        clauses.errorDefault = std::move(defaultValue);
      }
    }
  }
  expectSymbol(")");
  return node;
}

ExpressionPtr Parser::parseOverlay() {
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

ExpressionPtr Parser::parseTrim() {
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

ExpressionPtr Parser::parseFloorCeil() {
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

ExpressionPtr Parser::parseTimestampAddDiff() {
  auto node = startSpecialCall(FunctionSyntax::kRegular);
  node->arguments.push_back(parseTimeUnitSymbol());
  expectSymbol(",");
  node->arguments.push_back(parseExpression());
  expectSymbol(",");
  node->arguments.push_back(parseExpression());
  expectSymbol(")");
  return node;
}

ExpressionPtr Parser::parseConstructor(ConstructorKind kind) {
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

ExpressionPtr Parser::parseCast() {
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

ExpressionPtr Parser::parseCase() {
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

ExpressionPtr Parser::parseIntervalLiteral() {
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

TimeUnit Parser::parseIntervalUnit() {
  std::optional<TimeUnit> unit;
  if (peek().kind == TokenKind::kIdentifier) unit = intervalUnit(peek().keyword);
  if (!unit) {
    failExpected({"\"YEAR\"", "\"MONTH\"", "\"DAY\"", "\"HOUR\"", "\"MINUTE\"", "\"SECOND\""});
  }
  next();
  return *unit;
}

IntervalQualifier Parser::parseIntervalQualifier() {
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
                                start.line, start.column, intervalUnitKeyword(from), intervalUnitKeyword(to)));
    }
  }
  return qualifier;
}

// `(` [name] [PARTITION BY ..] [ORDER BY ..] [ROWS|RANGE ..] `)`
std::unique_ptr<WindowSpecification> Parser::parseWindowSpecification() {
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

FrameBound Parser::parseFrameBound() {
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

std::vector<OrderItem> Parser::parseOrderItems() {
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

}  // namespace eddy::sql::detail
