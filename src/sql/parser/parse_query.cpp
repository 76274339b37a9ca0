// Queries and their FROM clauses (recursive_descent_parser.h): WITH, set operations (INTERSECT
// binding tighter than UNION and EXCEPT), ORDER BY / LIMIT / OFFSET / FETCH, VALUES, SELECT with
// its GROUP BY grouping elements, and table references: named tables with hints, joins,
// subqueries, LATERAL table functions, UNNEST and window table functions.
#include "sql/parser/recursive_descent_parser.h"

#include <fmt/format.h>

#include "eddy/exceptions.h"

namespace eddy::sql::detail {

using relational::JoinType;

// True when the current token starts a query, looking through opening parentheses.
bool Parser::isQueryStart() const {
  size_t ahead = 0;
  while (isSymbol("(", ahead)) ++ahead;
  return isKeyword("SELECT", ahead) || isKeyword("VALUES", ahead) || isKeyword("WITH", ahead);
}

QueryPtr Parser::parseQuery() {
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

QueryPtr Parser::parseOrderByAndLimit(QueryPtr query) {
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

QueryPtr Parser::makeSetOperation(SetOperator op, QueryPtr left, QueryPtr right, bool all) {
  auto node = makeNode<SetOperationQuery>(left->position);
  node->op = op;
  node->all = all;
  node->left = std::move(left);
  node->right = std::move(right);
  return node;
}

bool Parser::parseSetQuantifier() {
  if (acceptKeyword("ALL")) return true;
  acceptKeyword("DISTINCT");
  return false;
}

QueryPtr Parser::parseSetOperations() {
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

QueryPtr Parser::parseIntersections() {
  DepthGuard guard(*this, false);
  QueryPtr left = parseQueryPrimary();
  while (acceptKeyword("INTERSECT")) {
    guard.chain();
    bool all = parseSetQuantifier();
    left = makeSetOperation(SetOperator::kIntersect, std::move(left), parseQueryPrimary(), all);
  }
  return left;
}

QueryPtr Parser::parseQueryPrimary() {
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

QueryPtr Parser::parseValues() {
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

QueryPtr Parser::parseSelect() {
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

std::optional<std::string> Parser::parseOptionalAlias() {
  if (acceptKeyword("AS")) return parseIdentifier();
  if (isIdentifier()) return next().text;
  note("<identifier>");
  return std::nullopt;
}

GroupingElement Parser::parseGroupingElement(bool topLevel) {
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

TableReferencePtr Parser::makeJoin(JoinSyntax syntax, relational::JoinType type,
                                   TableReferencePtr left, TableReferencePtr right) {
  auto join = makeNode<JoinReference>(left->position);
  join->syntax = syntax;
  join->joinType = type;
  join->left = std::move(left);
  join->right = std::move(right);
  return join;
}

TableReferencePtr Parser::parseTableReference() {
  DepthGuard guard(*this);
  TableReferencePtr left = parseTablePrimary();
  while (true) {
    if (acceptSymbol(",")) {
      guard.chain();
      left = makeJoin(JoinSyntax::kComma, JoinType::INNER, std::move(left), parseTablePrimary());
      continue;
    }
    if (acceptKeyword("CROSS")) {
      expectKeyword("JOIN");
      guard.chain();
      left = makeJoin(JoinSyntax::kCross, JoinType::INNER, std::move(left), parseTablePrimary());
      continue;
    }
    JoinType type;
    const bool natural = acceptKeyword("NATURAL");
    if (acceptKeyword("JOIN")) {
      type = JoinType::INNER;
    } else if (acceptKeyword("INNER")) {
      expectKeyword("JOIN");
      type = JoinType::INNER;
    } else if (isKeyword("LEFT") || isKeyword("RIGHT") || isKeyword("FULL")) {
      std::string keyword = next().keyword;
      type = keyword == "LEFT"    ? JoinType::LEFT
             : keyword == "RIGHT" ? JoinType::RIGHT
                                  : JoinType::FULL;
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
    TableReferencePtr join = makeJoin(JoinSyntax::kJoin, type, std::move(left), parseTablePrimary());
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

void Parser::parseTableAlias(TableReference& reference) {
  reference.alias = parseOptionalAlias();
  if (reference.alias && isSymbol("(")) {
    reference.columnAliases = parseParenthesizedIdentifiers();
  }
}

std::unique_ptr<FunctionCallExpression> Parser::parseTableFunctionCall() {
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

TableReferencePtr Parser::parseTablePrimary() {
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
    parseTableHints(*named);
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

void Parser::parseTableHints(NamedTableReference& table) {
  const Token& last = previous();
  if (last.hint.empty()) return;
  // The hint text is parsed on its own: `NAME(..)` items separated by commas. A failure is
  // reported where the hint starts.
  Parser hint(last.hint);
  try {
    do {
      std::string name = hint.parseIdentifier();
      std::string upper = name;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (upper == "OPTIONS") {
        table.hasOptionsHint = true;
        table.hintPosition = last.hintPosition;
        for (TableOption& option : hint.parseOptions()) {
          option.position = last.hintPosition;
          table.hintOptions.push_back(std::move(option));
        }
      } else {
        // Another hint (LOOKUP, a join hint): its arguments are skipped.
        int depth = 0;
        do {
          if (hint.peek().kind == TokenKind::kEnd) break;
          if (hint.isSymbol("(")) ++depth;
          if (hint.isSymbol(")")) --depth;
          hint.next();
        } while (depth > 0);
      }
    } while (hint.acceptSymbol(","));
    if (hint.peek().kind != TokenKind::kEnd) hint.failExpected({"\",\""});
  } catch (const SqlParseException& error) {
    std::string cause = error.what();
    constexpr std::string_view kPrefix = "SQL parse failed. ";
    if (cause.starts_with(kPrefix)) cause.erase(0, kPrefix.size());
    // Positions inside the hint's own text mean nothing to the user: the hint's is given.
    if (size_t at = cause.find(" at line "); at != std::string::npos) {
      size_t end = cause.find('.', at);
      cause.erase(at, end == std::string::npos ? std::string::npos : end - at);
    }
    throw SqlParseException(
        fmt::format("SQL parse failed. Malformed hint at line {}, column {}: {}",
                    last.hintPosition.line, last.hintPosition.column, cause),
        last.hintPosition.line, last.hintPosition.column);
  }
}

}  // namespace eddy::sql::detail
