// The AST printer (see unparse.h). Expressions are printed with a precedence level per node;
// a child is parenthesized when its level is below what its position in the parent needs,
// mirroring the parser's descent (parser.cpp), so the printed text parses to the same tree.
#include "sql/parser/unparse.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>

#include "common/check.h"

namespace eddy::sql {
namespace {

// Precedence levels, loosest first, as the parser descends.
constexpr int kOrLevel = 1;
constexpr int kAndLevel = 2;
constexpr int kNotLevel = 3;
constexpr int kComparisonLevel = 4;
constexpr int kAdditiveLevel = 5;
constexpr int kMultiplicativeLevel = 6;
constexpr int kUnaryLevel = 7;
constexpr int kPrimaryLevel = 8;

std::string quoteString(std::string_view value) {
  std::string result = "'";
  for (char c : value) {
    if (c == '\'') result.push_back('\'');
    result.push_back(c);
  }
  result.push_back('\'');
  return result;
}

std::string quoteName(const QualifiedName& name) {
  std::vector<std::string> parts;
  parts.reserve(name.size());
  for (const std::string& part : name) parts.push_back(escapeIdentifier(part));
  return fmt::format("{}", fmt::join(parts, "."));
}

std::string quoteNames(const std::vector<std::string>& names) {
  std::vector<std::string> parts;
  parts.reserve(names.size());
  for (const std::string& name : names) parts.push_back(escapeIdentifier(name));
  return fmt::format("{}", fmt::join(parts, ", "));
}

int binaryLevel(BinaryOperator op) {
  switch (op) {
    case BinaryOperator::kOr:
      return kOrLevel;
    case BinaryOperator::kAnd:
      return kAndLevel;
    case BinaryOperator::kPlus:
    case BinaryOperator::kMinus:
    case BinaryOperator::kConcat:
      return kAdditiveLevel;
    case BinaryOperator::kMultiply:
    case BinaryOperator::kDivide:
    case BinaryOperator::kModulo:
      return kMultiplicativeLevel;
    default:
      return kComparisonLevel;
  }
}

int level(const Expression& expression) {
  switch (expression.kind) {
    case ExpressionKind::kBinary:
      return binaryLevel(expression.as<BinaryExpression>().op);
    case ExpressionKind::kUnary:
      return expression.as<UnaryExpression>().op == UnaryOperator::kNot ? kNotLevel : kUnaryLevel;
    case ExpressionKind::kIs:
    case ExpressionKind::kBetween:
    case ExpressionKind::kLike:
    case ExpressionKind::kIn:
      return kComparisonLevel;
    default:
      return kPrimaryLevel;
  }
}

// A name printed bare when it is a plain word, backquoted otherwise (named arguments).
std::string plainOrQuoted(const std::string& name) {
  bool plain =
      !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') plain = false;
  }
  return plain ? name : escapeIdentifier(name);
}

class Printer {
 public:
  std::string expression(const Expression& node, int minimumLevel = kOrLevel) {
    std::string text = expressionText(node);
    if (level(node) < minimumLevel) return "(" + text + ")";
    return text;
  }

  std::string expressions(const std::vector<ExpressionPtr>& nodes) {
    std::vector<std::string> parts;
    parts.reserve(nodes.size());
    for (const ExpressionPtr& node : nodes) parts.push_back(expression(*node));
    return fmt::format("{}", fmt::join(parts, ", "));
  }

  std::string query(const Query& node) {
    switch (node.kind) {
      case QueryKind::kSelect:
        return select(node.as<SelectQuery>());
      case QueryKind::kSetOperation:
        return setOperation(node.as<SetOperationQuery>());
      case QueryKind::kValues: {
        std::vector<std::string> rows;
        for (const auto& row : node.as<ValuesQuery>().rows) {
          rows.push_back("(" + expressions(row) + ")");
        }
        return fmt::format("VALUES {}", fmt::join(rows, ", "));
      }
      case QueryKind::kWith: {
        const auto& with = node.as<WithQuery>();
        std::vector<std::string> items;
        for (const WithItem& item : with.items) {
          std::string text = escapeIdentifier(item.name);
          if (!item.columns.empty()) text += " (" + quoteNames(item.columns) + ")";
          items.push_back(text + " AS (" + query(*item.query) + ")");
        }
        return fmt::format("WITH {} {}", fmt::join(items, ", "), query(*with.body));
      }
      case QueryKind::kOrderBy:
        return orderBy(node.as<OrderByQuery>());
    }
    return "";
  }

  std::string tableReference(const TableReference& node) {
    std::string text;
    switch (node.kind) {
      case TableReferenceKind::kNamedTable: {
        const auto& named = node.as<NamedTableReference>();
        text = quoteName(named.name);
        if (named.hasOptionsHint) {
          text += " /*+ OPTIONS(";
          for (size_t i = 0; i < named.hintOptions.size(); ++i) {
            if (i > 0) text += ", ";
            text += quoteString(named.hintOptions[i].key) + " = " +
                    quoteString(named.hintOptions[i].value);
          }
          text += ") */";
        }
        if (named.systemTimeAsOf) {
          text += " FOR SYSTEM_TIME AS OF " + expression(*named.systemTimeAsOf, kAdditiveLevel);
        }
        break;
      }
      case TableReferenceKind::kDerivedTable: {
        const auto& derived = node.as<DerivedTableReference>();
        text = (derived.lateral ? "LATERAL (" : "(") + query(*derived.query) + ")";
        break;
      }
      case TableReferenceKind::kTableFunction: {
        const auto& function = node.as<TableFunctionReference>();
        text = (function.lateral ? "LATERAL TABLE(" : "TABLE(") + expression(*function.call) + ")";
        break;
      }
      case TableReferenceKind::kUnnest: {
        const auto& unnest = node.as<UnnestReference>();
        text = "UNNEST(" + expressions(unnest.arguments) + ")";
        if (unnest.withOrdinality) text += " WITH ORDINALITY";
        break;
      }
      case TableReferenceKind::kJoin:
        return join(node.as<JoinReference>());
    }
    if (node.alias) {
      text += " AS " + escapeIdentifier(*node.alias);
      if (!node.columnAliases.empty()) text += " (" + quoteNames(node.columnAliases) + ")";
    }
    return text;
  }

  std::string windowSpecification(const WindowSpecification& window) {
    std::vector<std::string> parts;
    if (!window.referenceName.empty()) parts.push_back(escapeIdentifier(window.referenceName));
    if (!window.partitionBy.empty()) {
      parts.push_back("PARTITION BY " + expressions(window.partitionBy));
    }
    if (!window.orderBy.empty()) parts.push_back("ORDER BY " + orderItems(window.orderBy));
    if (window.frame) {
      const WindowFrame& frame = *window.frame;
      std::string text = frame.unit == FrameUnit::kRows ? "ROWS " : "RANGE ";
      if (frame.end) {
        text += "BETWEEN " + frameBound(frame.start) + " AND " + frameBound(*frame.end);
      } else {
        text += frameBound(frame.start);
      }
      parts.push_back(text);
    }
    return fmt::format("({})", fmt::join(parts, " "));
  }

  std::string statement(const Statement& node) {
    switch (node.kind) {
      case StatementKind::kQuery:
        return query(*node.as<QueryStatement>().query);
      case StatementKind::kInsert:
        return insert(node.as<InsertStatement>());
      case StatementKind::kCreateTable:
        return createTable(node.as<CreateTableStatement>());
      case StatementKind::kCreateView: {
        const auto& create = node.as<CreateViewStatement>();
        std::string text = create.temporary ? "CREATE TEMPORARY VIEW " : "CREATE VIEW ";
        if (create.ifNotExists) text += "IF NOT EXISTS ";
        text += quoteName(create.viewName);
        if (!create.columns.empty()) text += " (" + quoteNames(create.columns) + ")";
        if (create.comment) text += " COMMENT " + quoteString(*create.comment);
        return text + " AS " + query(*create.query);
      }
      case StatementKind::kCreateDatabase: {
        const auto& create = node.as<CreateDatabaseStatement>();
        std::string text = "CREATE DATABASE ";
        if (create.ifNotExists) text += "IF NOT EXISTS ";
        text += quoteName(create.databaseName);
        if (create.comment) text += " COMMENT " + quoteString(*create.comment);
        if (!create.options.empty()) text += " WITH " + options(create.options);
        return text;
      }
      case StatementKind::kCreateCatalog: {
        const auto& create = node.as<CreateCatalogStatement>();
        std::string text = "CREATE CATALOG ";
        if (create.ifNotExists) text += "IF NOT EXISTS ";
        text += escapeIdentifier(create.catalogName);
        if (create.comment) text += " COMMENT " + quoteString(*create.comment);
        return text + " WITH " + options(create.options);
      }
      case StatementKind::kDrop:
        return drop(node.as<DropStatement>());
      case StatementKind::kAlterTable:
        return alterTable(node.as<AlterTableStatement>());
      case StatementKind::kUseCatalog:
        return "USE CATALOG " + escapeIdentifier(node.as<UseCatalogStatement>().catalogName);
      case StatementKind::kUseDatabase:
        return "USE " + quoteName(node.as<UseDatabaseStatement>().databaseName);
      case StatementKind::kShow:
        return show(node.as<ShowStatement>());
      case StatementKind::kDescribe: {
        const auto& describe = node.as<DescribeStatement>();
        return std::string(describe.extended ? "DESCRIBE EXTENDED " : "DESCRIBE ") +
               quoteName(describe.tableName);
      }
      case StatementKind::kExplain:
        return explain(node.as<ExplainStatement>());
      case StatementKind::kSet: {
        const auto& set = node.as<SetStatement>();
        if (!set.key) return "SET";
        return "SET " + quoteString(*set.key) + " = " + quoteString(set.value.value_or(""));
      }
      case StatementKind::kReset: {
        const auto& reset = node.as<ResetStatement>();
        return reset.key ? "RESET " + quoteString(*reset.key) : "RESET";
      }
      case StatementKind::kStatementSet:
        return "EXECUTE " + statementSet(node.as<StatementSetStatement>());
      case StatementKind::kExecute:
        return "EXECUTE " + statement(*node.as<ExecuteStatement>().statement);
      case StatementKind::kStopJob: {
        const auto& stop = node.as<StopJobStatement>();
        return "STOP JOB " + quoteString(stop.jobId) +
               (stop.withSavepoint ? " WITH SAVEPOINT" : "") + (stop.withDrain ? " WITH DRAIN" : "");
      }
    }
    return "";
  }

 private:
  std::string expressionText(const Expression& node) {
    switch (node.kind) {
      case ExpressionKind::kIdentifier:
        return quoteName(node.as<IdentifierExpression>().names);
      case ExpressionKind::kLiteral:
        return literal(node.as<LiteralExpression>());
      case ExpressionKind::kIntervalLiteral: {
        const auto& interval = node.as<IntervalLiteralExpression>();
        return fmt::format("INTERVAL {}{} {}", interval.negative ? "-" : "",
                           quoteString(interval.value), intervalQualifier(interval.qualifier));
      }
      case ExpressionKind::kParameter:
        return "?";
      case ExpressionKind::kStar: {
        const auto& star = node.as<StarExpression>();
        return star.qualifier.empty() ? "*" : quoteName(star.qualifier) + ".*";
      }
      case ExpressionKind::kUnary: {
        const auto& unary = node.as<UnaryExpression>();
        if (unary.op == UnaryOperator::kNot) {
          return "NOT " + expression(*unary.operand, kNotLevel);
        }
        // `- -x` printed as `--x` would be a comment: an operand that starts with a sign is
        // separated by a space (not wrapped in parentheses, which would make a chain of 300
        // signs twice as deep as the parser's nesting limit allows when read back).
        std::string operand = expression(*unary.operand, kUnaryLevel);
        const bool signedOperand = !operand.empty() && (operand[0] == '-' || operand[0] == '+');
        return std::string(unary.op == UnaryOperator::kMinus ? "-" : "+") +
               (signedOperand ? " " : "") + operand;
      }
      case ExpressionKind::kBinary: {
        const auto& binary = node.as<BinaryExpression>();
        int binaryPrecedence = binaryLevel(binary.op);
        int rightLevel =
            binaryPrecedence == kComparisonLevel ? kAdditiveLevel : binaryPrecedence + 1;
        return fmt::format("{} {} {}", expression(*binary.left, binaryPrecedence),
                           binaryOperatorText(binary.op), expression(*binary.right, rightLevel));
      }
      case ExpressionKind::kIs: {
        const auto& is = node.as<IsExpression>();
        static constexpr const char* kPredicates[] = {"NULL",        "TRUE",        "FALSE",
                                                      "UNKNOWN",     "JSON",        "JSON VALUE",
                                                      "JSON SCALAR", "JSON ARRAY",  "JSON OBJECT"};
        return fmt::format("{} IS {}{}", expression(*is.operand, kComparisonLevel),
                           is.negated ? "NOT " : "", kPredicates[static_cast<int>(is.predicate)]);
      }
      case ExpressionKind::kBetween: {
        const auto& between = node.as<BetweenExpression>();
        return fmt::format(
            "{} {}BETWEEN {}{} AND {}", expression(*between.operand, kComparisonLevel),
            between.negated ? "NOT " : "", between.symmetric ? "SYMMETRIC " : "",
            expression(*between.lower, kAdditiveLevel), expression(*between.upper, kAdditiveLevel));
      }
      case ExpressionKind::kLike: {
        const auto& like = node.as<LikeExpression>();
        std::string text = fmt::format(
            "{} {}{} {}", expression(*like.operand, kComparisonLevel), like.negated ? "NOT " : "",
            like.similarTo ? "SIMILAR TO" : "LIKE", expression(*like.pattern, kAdditiveLevel));
        if (like.escape) text += " ESCAPE " + expression(*like.escape, kAdditiveLevel);
        return text;
      }
      case ExpressionKind::kIn: {
        const auto& in = node.as<InExpression>();
        return fmt::format("{} {}IN ({})", expression(*in.operand, kComparisonLevel),
                           in.negated ? "NOT " : "",
                           in.subquery ? query(*in.subquery) : expressions(in.values));
      }
      case ExpressionKind::kExists:
        return "EXISTS (" + query(*node.as<ExistsExpression>().query) + ")";
      case ExpressionKind::kSubquery:
        return "(" + query(*node.as<SubqueryExpression>().query) + ")";
      case ExpressionKind::kCase: {
        const auto& caseNode = node.as<CaseExpression>();
        std::string text = "CASE";
        if (caseNode.operand) text += " " + expression(*caseNode.operand);
        for (const WhenClause& clause : caseNode.whenClauses) {
          text += " WHEN " + expression(*clause.condition) + " THEN " + expression(*clause.result);
        }
        if (caseNode.elseResult) text += " ELSE " + expression(*caseNode.elseResult);
        return text + " END";
      }
      case ExpressionKind::kCast: {
        const auto& cast = node.as<CastExpression>();
        return fmt::format("{}({} AS {})", cast.tryCast ? "TRY_CAST" : "CAST",
                           expression(*cast.operand), cast.targetType->asSerializableString());
      }
      case ExpressionKind::kFunctionCall:
        return functionCall(node.as<FunctionCallExpression>());
      case ExpressionKind::kSymbol:
        return node.as<SymbolExpression>().name;
      case ExpressionKind::kConstructor: {
        const auto& constructor = node.as<ConstructorExpression>();
        switch (constructor.constructorKind) {
          case ConstructorKind::kArray:
            return "ARRAY[" + expressions(constructor.elements) + "]";
          case ConstructorKind::kMap:
            return "MAP[" + expressions(constructor.elements) + "]";
          case ConstructorKind::kRow:
            return "ROW(" + expressions(constructor.elements) + ")";
        }
        return "";
      }
      case ExpressionKind::kElementAccess: {
        const auto& access = node.as<ElementAccessExpression>();
        return expression(*access.base, kPrimaryLevel) + "[" + expression(*access.index) + "]";
      }
      case ExpressionKind::kFieldAccess: {
        const auto& access = node.as<FieldAccessExpression>();
        std::string base = expression(*access.base, kPrimaryLevel);
        // `(a).f`: without parentheses `a`.`f` would be the compound identifier a.f, and
        // `1`.`f` would read as the number `1.` followed by an alias.
        if (access.base->is<IdentifierExpression>() || access.base->is<LiteralExpression>()) {
          base = "(" + base + ")";
        }
        return base + "." + escapeIdentifier(access.field);
      }
      case ExpressionKind::kDescriptor:
        return "DESCRIPTOR(" + quoteNames(node.as<DescriptorExpression>().columns) + ")";
      case ExpressionKind::kTableArgument: {
        const auto& argument = node.as<TableArgumentExpression>();
        std::string text = "TABLE " + quoteName(argument.tableName);
        if (argument.partitionBy.size() == 1) {
          text += " PARTITION BY " + escapeIdentifier(argument.partitionBy[0]);
        } else if (!argument.partitionBy.empty()) {
          text += " PARTITION BY (" + quoteNames(argument.partitionBy) + ")";
        }
        return text;
      }
      case ExpressionKind::kNamedArgument: {
        const auto& argument = node.as<NamedArgumentExpression>();
        return plainOrQuoted(argument.name) + " => " + expression(*argument.value);
      }
    }
    return "";
  }

  std::string literal(const LiteralExpression& literal) {
    switch (literal.literalKind) {
      case LiteralKind::kExactNumeric:
      case LiteralKind::kApproximateNumeric:
      case LiteralKind::kBoolean:
        return literal.value;
      case LiteralKind::kNull:
        return "NULL";
      case LiteralKind::kString:
        return quoteString(literal.value);
      case LiteralKind::kBinaryString:
        return "X" + quoteString(literal.value);
      case LiteralKind::kDate:
        return "DATE " + quoteString(literal.value);
      case LiteralKind::kTime:
        return "TIME " + quoteString(literal.value);
      case LiteralKind::kTimestamp:
        return "TIMESTAMP " + quoteString(literal.value);
      case LiteralKind::kTimestampLtz:
        return "TIMESTAMP WITH LOCAL TIME ZONE " + quoteString(literal.value);
    }
    return "";
  }

  std::string intervalQualifier(const IntervalQualifier& qualifier) {
    std::string text(intervalUnitKeyword(qualifier.start));
    if (qualifier.startPrecision >= 0) {
      if (!qualifier.end && qualifier.fractionalPrecision >= 0) {
        text += fmt::format("({}, {})", qualifier.startPrecision, qualifier.fractionalPrecision);
      } else {
        text += fmt::format("({})", qualifier.startPrecision);
      }
    }
    if (qualifier.end) {
      text += fmt::format(" TO {}", intervalUnitKeyword(*qualifier.end));
      if (qualifier.fractionalPrecision >= 0) {
        text += fmt::format("({})", qualifier.fractionalPrecision);
      }
    }
    return text;
  }

  std::string functionCall(const FunctionCallExpression& call) {
    std::string name = call.quotedName ? quoteName(call.name) : call.name.front();
    const auto& arguments = call.arguments;
    std::string text;
    switch (call.syntax) {
      case FunctionSyntax::kNiladic:
        text = name;
        break;
      case FunctionSyntax::kExtract:
        EDDY_CHECK_EQ(arguments.size(), 2u);
        text = fmt::format("{}({} FROM {})", name, expression(*arguments[0]),
                           expression(*arguments[1]));
        break;
      case FunctionSyntax::kFloorCeilTo:
        EDDY_CHECK_EQ(arguments.size(), 2u);
        text =
            fmt::format("{}({} TO {})", name, expression(*arguments[0]), expression(*arguments[1]));
        break;
      case FunctionSyntax::kPosition:
        EDDY_CHECK_EQ(arguments.size(), 2u);
        text = fmt::format("{}({} IN {})", name, expression(*arguments[0], kAdditiveLevel),
                           expression(*arguments[1]));
        break;
      case FunctionSyntax::kSubstring:
        EDDY_CHECK_GE(arguments.size(), 2u);
        text = fmt::format("{}({} FROM {}", name, expression(*arguments[0]),
                           expression(*arguments[1]));
        if (arguments.size() > 2) text += " FOR " + expression(*arguments[2]);
        text += ")";
        break;
      case FunctionSyntax::kOverlay:
        EDDY_CHECK_GE(arguments.size(), 3u);
        text = fmt::format("{}({} PLACING {} FROM {}", name, expression(*arguments[0]),
                           expression(*arguments[1]), expression(*arguments[2]));
        if (arguments.size() > 3) text += " FOR " + expression(*arguments[3]);
        text += ")";
        break;
      case FunctionSyntax::kTrim:
        EDDY_CHECK_EQ(arguments.size(), 3u);
        text = fmt::format("{}({} {} FROM {})", name, expression(*arguments[0]),
                           expression(*arguments[1]), expression(*arguments[2]));
        break;
      case FunctionSyntax::kJson: {
        const JsonClauses& clauses = *call.json;
        std::vector<std::string> parts;
        if (name == "JSON_OBJECT" || name == "JSON_OBJECTAGG") {
          for (size_t i = 0; i + 1 < arguments.size(); i += 2) {
            parts.push_back("KEY " + expression(*arguments[i]) + " VALUE " +
                            expression(*arguments[i + 1]));
          }
        } else {
          for (const auto& argument : arguments) parts.push_back(expression(*argument));
        }
        text = name + "(" + fmt::format("{}", fmt::join(parts, ", "));
        if (!clauses.onNull.empty()) text += " " + clauses.onNull + " ON NULL";
        if (clauses.returning) text += " RETURNING " + clauses.returning->asSerializableString();
        if (clauses.wrapper == "WITHOUT") text += " WITHOUT ARRAY WRAPPER";
        if (clauses.wrapper == "CONDITIONAL" || clauses.wrapper == "UNCONDITIONAL") {
          text += " WITH " + clauses.wrapper + " ARRAY WRAPPER";
        }
        auto behaviour = [&](const std::string& chosen, const ExpressionPtr& value) {
          return chosen == "DEFAULT" ? "DEFAULT " + expression(*value) : chosen;
        };
        if (!clauses.onEmpty.empty()) {
          text += " " + behaviour(clauses.onEmpty, clauses.emptyDefault) + " ON EMPTY";
        }
        if (!clauses.onError.empty()) {
          text += " " + behaviour(clauses.onError, clauses.errorDefault) + " ON ERROR";
        }
        text += ")";
        break;
      }
      case FunctionSyntax::kRegular:
        text =
            fmt::format("{}({}{})", name, call.distinct ? "DISTINCT " : "", expressions(arguments));
        break;
    }
    if (call.filter) text += " FILTER (WHERE " + expression(*call.filter) + ")";
    if (call.over) {
      const WindowSpecification& window = *call.over;
      bool onlyReference = !window.referenceName.empty() && window.partitionBy.empty() &&
                           window.orderBy.empty() && !window.frame;
      text += " OVER " + (onlyReference ? escapeIdentifier(window.referenceName)
                                        : windowSpecification(window));
    }
    return text;
  }

  std::string frameBound(const FrameBound& bound) {
    switch (bound.kind) {
      case FrameBoundKind::kUnboundedPreceding:
        return "UNBOUNDED PRECEDING";
      case FrameBoundKind::kPreceding:
        return expression(*bound.offset, kAdditiveLevel) + " PRECEDING";
      case FrameBoundKind::kCurrentRow:
        return "CURRENT ROW";
      case FrameBoundKind::kFollowing:
        return expression(*bound.offset, kAdditiveLevel) + " FOLLOWING";
      case FrameBoundKind::kUnboundedFollowing:
        return "UNBOUNDED FOLLOWING";
    }
    return "";
  }

  std::string orderItems(const std::vector<OrderItem>& items) {
    std::vector<std::string> parts;
    for (const OrderItem& item : items) {
      std::string text = expression(*item.expression);
      if (item.descending) text += " DESC";
      if (item.nullOrdering == NullOrdering::kNullsFirst) text += " NULLS FIRST";
      if (item.nullOrdering == NullOrdering::kNullsLast) text += " NULLS LAST";
      parts.push_back(std::move(text));
    }
    return fmt::format("{}", fmt::join(parts, ", "));
  }

  std::string groupingElement(const GroupingElement& element) {
    auto children = [&] {
      std::vector<std::string> parts;
      for (const GroupingElement& child : element.children) parts.push_back(groupingElement(child));
      return fmt::format("({})", fmt::join(parts, ", "));
    };
    switch (element.kind) {
      case GroupingKind::kExpression:
        return expression(*element.expression);
      case GroupingKind::kList:
        return "(" + expressions(element.expressions) + ")";
      case GroupingKind::kGroupingSets:
        return "GROUPING SETS " + children();
      case GroupingKind::kRollup:
        return "ROLLUP " + children();
      case GroupingKind::kCube:
        return "CUBE " + children();
    }
    return "";
  }

  std::string select(const SelectQuery& select) {
    std::vector<std::string> items;
    for (const SelectItem& item : select.items) {
      std::string text = expression(*item.expression);
      if (item.alias) text += " AS " + escapeIdentifier(*item.alias);
      items.push_back(std::move(text));
    }
    std::string text =
        fmt::format("SELECT {}{}", select.distinct ? "DISTINCT " : "", fmt::join(items, ", "));
    if (select.from) text += " FROM " + tableReference(*select.from);
    if (select.where) text += " WHERE " + expression(*select.where);
    if (!select.groupBy.empty()) {
      std::vector<std::string> elements;
      for (const GroupingElement& element : select.groupBy) {
        elements.push_back(groupingElement(element));
      }
      text += fmt::format(" GROUP BY {}", fmt::join(elements, ", "));
    }
    if (select.having) text += " HAVING " + expression(*select.having);
    if (!select.windows.empty()) {
      std::vector<std::string> windows;
      for (const NamedWindow& window : select.windows) {
        windows.push_back(escapeIdentifier(window.name) + " AS " +
                          windowSpecification(*window.specification));
      }
      text += fmt::format(" WINDOW {}", fmt::join(windows, ", "));
    }
    return text;
  }

  static int setLevel(const Query& query) {
    if (!query.is<SetOperationQuery>()) return 3;
    return query.as<SetOperationQuery>().op == SetOperator::kIntersect ? 2 : 1;
  }

  std::string setOperand(const Query& operand, bool parenthesize) {
    if (parenthesize || operand.is<WithQuery>() || operand.is<OrderByQuery>()) {
      return "(" + query(operand) + ")";
    }
    return query(operand);
  }

  std::string setOperation(const SetOperationQuery& operation) {
    static constexpr const char* kOperators[] = {"UNION", "INTERSECT", "EXCEPT"};
    int parentLevel = setLevel(operation);
    return fmt::format("{} {}{} {}",
                       setOperand(*operation.left, setLevel(*operation.left) < parentLevel),
                       kOperators[static_cast<int>(operation.op)], operation.all ? " ALL" : "",
                       setOperand(*operation.right, setLevel(*operation.right) <= parentLevel));
  }

  std::string orderBy(const OrderByQuery& orderBy) {
    std::string text = setOperand(*orderBy.query, false);
    if (!orderBy.orderBy.empty()) text += " ORDER BY " + orderItems(orderBy.orderBy);
    if (orderBy.fetch) text += " LIMIT " + expression(*orderBy.fetch, kAdditiveLevel);
    if (orderBy.offset) text += " OFFSET " + expression(*orderBy.offset, kAdditiveLevel);
    return text;
  }

  std::string join(const JoinReference& join) {
    std::string right = tableReference(*join.right);
    if (join.right->is<JoinReference>()) right = "(" + right + ")";
    std::string left = tableReference(*join.left);
    if (join.syntax == JoinSyntax::kComma) return left + ", " + right;
    if (join.syntax == JoinSyntax::kCross) return left + " CROSS JOIN " + right;
    left += join.natural ? " NATURAL" : "";
    switch (join.joinType) {
      case relational::JoinType::LEFT:
        left += " LEFT";
        break;
      case relational::JoinType::RIGHT:
        left += " RIGHT";
        break;
      case relational::JoinType::FULL:
        left += " FULL";
        break;
      default:  // INNER (SEMI and ANTI are not written in SQL)
        break;
    }
    left += " JOIN " + right;
    if (join.condition) left += " ON " + expression(*join.condition);
    if (!join.usingColumns.empty()) left += " USING (" + quoteNames(join.usingColumns) + ")";
    return left;
  }

  std::string options(const std::vector<TableOption>& options) {
    std::vector<std::string> parts;
    for (const TableOption& option : options) {
      parts.push_back(quoteString(option.key) + " = " + quoteString(option.value));
    }
    return fmt::format("({})", fmt::join(parts, ", "));
  }

  std::string insert(const InsertStatement& insert) {
    std::string text = insert.overwrite ? "INSERT OVERWRITE " : "INSERT INTO ";
    text += quoteName(insert.tableName);
    if (!insert.partition.empty()) {
      std::vector<std::string> parts;
      for (const PartitionValue& value : insert.partition) {
        parts.push_back(escapeIdentifier(value.column) + " = " +
                        expression(*value.value, kAdditiveLevel));
      }
      text += fmt::format(" PARTITION ({})", fmt::join(parts, ", "));
    }
    if (!insert.columns.empty()) text += " (" + quoteNames(insert.columns) + ")";
    return text + " " + query(*insert.query);
  }

  std::string primaryKey(const PrimaryKeyConstraint& key) {
    std::string text;
    if (key.name) text = "CONSTRAINT " + escapeIdentifier(*key.name) + " ";
    text += "PRIMARY KEY (" + quoteNames(key.columns) + ")";
    if (key.notEnforced) text += " NOT ENFORCED";
    return text;
  }

  std::string schemaElements(const std::vector<TableColumn>& columns,
                             const std::vector<WatermarkDefinition>& watermarks,
                             const std::optional<PrimaryKeyConstraint>& key) {
    std::vector<std::string> parts;
    for (const TableColumn& column : columns) {
      std::string text = escapeIdentifier(column.name);
      if (column.kind == ColumnKind::kComputed) {
        text += " AS " + expression(*column.expression);
      } else if (!column.type) {
        // a bare name of a CTAS column list
      } else {
        text += " " + column.type->asSerializableString();
        if (column.kind == ColumnKind::kMetadata) {
          text += " METADATA";
          if (column.metadataKey) text += " FROM " + quoteString(*column.metadataKey);
          if (column.isVirtual) text += " VIRTUAL";
        }
      }
      if (column.comment) text += " COMMENT " + quoteString(*column.comment);
      if (column.placement == TableColumn::Placement::kFirst) text += " FIRST";
      if (column.placement == TableColumn::Placement::kAfter) {
        text += " AFTER " + escapeIdentifier(column.afterColumn);
      }
      parts.push_back(std::move(text));
    }
    for (const WatermarkDefinition& watermark : watermarks) {
      parts.push_back("WATERMARK FOR " + quoteName(watermark.column) + " AS " +
                      expression(*watermark.expression));
    }
    if (key) parts.push_back(primaryKey(*key));
    return fmt::format("({})", fmt::join(parts, ", "));
  }

  std::string createTable(const CreateTableStatement& create) {
    std::string text = create.replace == CreateTableStatement::Replace::kReplace ? "REPLACE TABLE "
                       : create.replace == CreateTableStatement::Replace::kCreateOrReplace
                           ? "CREATE OR REPLACE TABLE "
                       : create.temporary ? "CREATE TEMPORARY TABLE "
                                          : "CREATE TABLE ";
    if (create.ifNotExists) text += "IF NOT EXISTS ";
    text += quoteName(create.tableName);
    if (!create.columns.empty() || !create.watermarks.empty() || create.primaryKey) {
      text += " " + schemaElements(create.columns, create.watermarks, create.primaryKey);
    }
    if (create.comment) text += " COMMENT " + quoteString(*create.comment);
    if (!create.partitionKeys.empty()) {
      text += " PARTITIONED BY (" + quoteNames(create.partitionKeys) + ")";
    }
    if (!create.options.empty()) text += " WITH " + options(create.options);
    if (create.like) {
      text += " LIKE " + quoteName(create.like->sourceTable);
      if (!create.like->options.empty()) {
        static constexpr const char* kStrategies[] = {"INCLUDING", "EXCLUDING", "OVERWRITING"};
        static constexpr const char* kFeatures[] = {
            "ALL", "CONSTRAINTS", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS", "WATERMARKS"};
        std::vector<std::string> parts;
        for (const LikeOption& option : create.like->options) {
          parts.push_back(fmt::format("{} {}", kStrategies[static_cast<int>(option.strategy)],
                                      kFeatures[static_cast<int>(option.feature)]));
        }
        text += fmt::format(" ({})", fmt::join(parts, " "));
      }
    }
    if (create.asQuery) text += " AS " + query(*create.asQuery);
    return text;
  }

  std::string drop(const DropStatement& drop) {
    static constexpr const char* kObjects[] = {"TABLE", "VIEW", "DATABASE", "CATALOG"};
    std::string text =
        fmt::format("DROP {}{} {}", drop.temporary ? "TEMPORARY " : "",
                    kObjects[static_cast<int>(drop.objectKind)], drop.ifExists ? "IF EXISTS " : "");
    text += quoteName(drop.name);
    if (drop.cascade) text += " CASCADE";
    return text;
  }

  std::string alterTable(const AlterTableStatement& alter) {
    std::string text = "ALTER TABLE ";
    if (alter.ifExists) text += "IF EXISTS ";
    text += quoteName(alter.tableName);
    switch (alter.action) {
      case AlterTableAction::kRename:
        return text + " RENAME TO " + quoteName(alter.newName);
      case AlterTableAction::kSetOptions:
        return text + " SET " + options(alter.options);
      case AlterTableAction::kResetOptions: {
        std::vector<std::string> keys;
        for (const std::string& key : alter.resetKeys) keys.push_back(quoteString(key));
        return text + fmt::format(" RESET ({})", fmt::join(keys, ", "));
      }
      case AlterTableAction::kAdd:
        return text + " ADD " + schemaElements(alter.columns, alter.watermarks, alter.primaryKey);
      case AlterTableAction::kModify:
        return text + " MODIFY " + schemaElements(alter.columns, alter.watermarks, alter.primaryKey);
      case AlterTableAction::kDropColumns:
        return text + " DROP (" + quoteNames(alter.dropColumns) + ")";
      case AlterTableAction::kDropPrimaryKey:
        return text + (alter.constraintName ? " DROP CONSTRAINT " + escapeIdentifier(*alter.constraintName)
                                            : std::string(" DROP PRIMARY KEY"));
      case AlterTableAction::kDropWatermark:
        return text + " DROP WATERMARK";
      case AlterTableAction::kRenameColumn:
        return text + " RENAME " + escapeIdentifier(alter.column) + " TO " +
               escapeIdentifier(alter.newColumnName);
    }
    return text;
  }

  std::string show(const ShowStatement& show) {
    std::string like;
    if (show.likePattern) {
      like = fmt::format(" {}LIKE {}", show.notLike ? "NOT " : "", quoteString(*show.likePattern));
    }
    std::string from = show.name.empty() ? "" : " FROM " + quoteName(show.name);
    switch (show.showKind) {
      case ShowKind::kCatalogs:
        return "SHOW CATALOGS";
      case ShowKind::kCurrentCatalog:
        return "SHOW CURRENT CATALOG";
      case ShowKind::kDatabases:
        return "SHOW DATABASES";
      case ShowKind::kCurrentDatabase:
        return "SHOW CURRENT DATABASE";
      case ShowKind::kTables:
        return "SHOW TABLES" + from + like;
      case ShowKind::kViews:
        return "SHOW VIEWS" + from;
      case ShowKind::kFunctions:
        return "SHOW FUNCTIONS";
      case ShowKind::kColumns:
        return "SHOW COLUMNS" + from + like;
      case ShowKind::kCreateTable:
        return "SHOW CREATE TABLE " + quoteName(show.name);
      case ShowKind::kCreateView:
        return "SHOW CREATE VIEW " + quoteName(show.name);
      case ShowKind::kJobs:
        return "SHOW JOBS";
    }
    return "";
  }

  std::string statementSet(const StatementSetStatement& set) {
    std::string text = "STATEMENT SET BEGIN ";
    for (const StatementPtr& statement : set.statements) text += this->statement(*statement) + "; ";
    return text + "END";
  }

  std::string explain(const ExplainStatement& explain) {
    static constexpr const char* kDetails[] = {"CHANGELOG_MODE", "ESTIMATED_COST",
                                               "JSON_EXECUTION_PLAN", "PLAN_ADVICE"};
    std::string text = "EXPLAIN ";
    if (explain.planFor) text += "PLAN FOR ";
    if (!explain.details.empty()) {
      std::vector<std::string> details;
      for (ExplainDetail detail : explain.details) {
        details.push_back(kDetails[static_cast<int>(detail)]);
      }
      text += fmt::format("{} ", fmt::join(details, ", "));
    }
    if (explain.statement->is<StatementSetStatement>()) {
      return text + statementSet(explain.statement->as<StatementSetStatement>());
    }
    return text + statement(*explain.statement);
  }
};

}  // namespace

const char* binaryOperatorText(BinaryOperator op) {
  switch (op) {
    case BinaryOperator::kOr:
      return "OR";
    case BinaryOperator::kAnd:
      return "AND";
    case BinaryOperator::kEquals:
      return "=";
    case BinaryOperator::kNotEquals:
      return "<>";
    case BinaryOperator::kLessThan:
      return "<";
    case BinaryOperator::kLessThanOrEqual:
      return "<=";
    case BinaryOperator::kGreaterThan:
      return ">";
    case BinaryOperator::kGreaterThanOrEqual:
      return ">=";
    case BinaryOperator::kIsDistinctFrom:
      return "IS DISTINCT FROM";
    case BinaryOperator::kIsNotDistinctFrom:
      return "IS NOT DISTINCT FROM";
    case BinaryOperator::kPlus:
      return "+";
    case BinaryOperator::kMinus:
      return "-";
    case BinaryOperator::kMultiply:
      return "*";
    case BinaryOperator::kDivide:
      return "/";
    case BinaryOperator::kModulo:
      return "%";
    case BinaryOperator::kConcat:
      return "||";
  }
  return "?";
}


std::string unparse(const Node& node) {
  Printer printer;
  if (const auto* expression = dynamic_cast<const Expression*>(&node)) {
    return printer.expression(*expression);
  }
  if (const auto* query = dynamic_cast<const Query*>(&node)) return printer.query(*query);
  if (const auto* reference = dynamic_cast<const TableReference*>(&node)) {
    return printer.tableReference(*reference);
  }
  if (const auto* statement = dynamic_cast<const Statement*>(&node)) {
    return printer.statement(*statement);
  }
  if (const auto* window = dynamic_cast<const WindowSpecification*>(&node)) {
    return printer.windowSpecification(*window);
  }
  EDDY_CHECK(false);
  return "";
}

}  // namespace eddy::sql
