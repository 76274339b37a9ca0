#include "sql/binder/binder.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "connectors/dynamic_table_factory.h"
#include "eddy/exceptions.h"
#include "expression/expression_evaluator.h"
#include "function/json_text.h"
#include "function/scalar/cast.h"
#include "function/scalar/temporal.h"
#include "function/type_rules.h"
#include "sql/parser/parser.h"
#include "sql/parser/unparse.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;
using runtime::operators::AggregateCall;
using runtime::operators::AggregateKind;

namespace {

/// Flink's default NULL order of an ORDER BY item: NULLs first in ascending order, last in
/// descending order, unless NULLS FIRST/LAST says otherwise.
bool nullsFirstOf(const OrderItem& item) {
  return item.nullOrdering == NullOrdering::kDefault
             ? !item.descending
             : item.nullOrdering == NullOrdering::kNullsFirst;
}

/// `node` without its columns after the first `count` (those a WHERE subquery's markers add
/// beyond the scope), or `node` itself when it has no more.
LogicalNodePtr withFirstColumns(const LogicalNodePtr& node, size_t count) {
  const auto& fields = node->rowType->getFields();
  if (fields.size() == count) return node;
  std::vector<BoundPtr> columns;
  std::vector<std::string> names;
  for (size_t c = 0; c < count; ++c) {
    columns.push_back(expression::column(static_cast<int>(c), fields[c].type));
    names.push_back(fields[c].name);
  }
  return std::make_shared<LogicalProject>(node, std::move(columns), std::move(names));
}

}  // namespace

namespace {

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

/// Levenshtein distance, for "did you mean" suggestions.
size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t substitution = previous[j - 1] + (std::tolower(a[i - 1]) != std::tolower(b[j - 1]));
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

LogicalTypePtr rowTypeOf(const std::vector<std::string>& names,
                         const std::vector<LogicalTypePtr>& types) {
  std::vector<RowField> fields;
  for (size_t i = 0; i < names.size(); ++i) {
    fields.push_back(RowField{names[i], types[i], std::nullopt});
  }
  return LogicalType::row(std::move(fields), false);
}

/// Flink's result types of the aggregate functions.
LogicalTypePtr aggregateResultType(AggregateKind kind, const LogicalTypePtr& timeArgument) {
  // An aggregate of a time attribute (MAX(rowtime)) is a plain timestamp, as in Flink.
  const LogicalTypePtr argument =
      timeArgument->getTimestampKind() == TimestampKind::REGULAR
          ? timeArgument
          : timeArgument->copyWithTimestampKind(TimestampKind::REGULAR);
  switch (kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
      return LogicalType::simple(LogicalTypeRoot::BIGINT, false);
    case AggregateKind::SUM:
      if (argument->getTypeRoot() == LogicalTypeRoot::DECIMAL) {
        return LogicalType::decimal(38, argument->getScale());
      }
      return argument->copy(true);
    case AggregateKind::AVG:
    // Flink's planner rewrites these four to its Welford m2 and COUNT and casts the result
    // to AVG's type: DECIMAL(38, max(s, 6)), otherwise the argument's (INT stays INT).
    case AggregateKind::STDDEV_POP:
    case AggregateKind::STDDEV_SAMP:
    case AggregateKind::VAR_POP:
    case AggregateKind::VAR_SAMP:
      if (argument->getTypeRoot() == LogicalTypeRoot::DECIMAL) {
        return LogicalType::decimal(38, std::max(argument->getScale(), 6));
      }
      return argument->copy(true);
    case AggregateKind::MIN:
    case AggregateKind::MAX:
    case AggregateKind::SINGLE_VALUE:
    case AggregateKind::FIRST_VALUE:
    case AggregateKind::LAST_VALUE:
    case AggregateKind::LISTAGG:  // Flink's SqlListAggFunction: ARG0_NULLABLE
    case AggregateKind::LAG:      // NULL before the offset's row (without a default)
      return argument->copy(true);
    case AggregateKind::COLLECT:  // Calcite's TO_MULTISET; an empty group collects {}
      return LogicalType::multiset(argument, false);
    case AggregateKind::JSON_OBJECTAGG:  // '{}' / '[]' over no rows
    case AggregateKind::JSON_ARRAYAGG:
      return LogicalType::varchar(LogicalType::kMaxLength, false);
  }
  return argument;
}

/// Whether `node` is a JSON_OBJECT or JSON_ARRAY call, whose value a JSON constructor or JSON
/// aggregate around it inserts as JSON rather than as a string.
bool isJsonConstructorCall(const Expression& node) {
  if (!node.is<FunctionCallExpression>()) return false;
  const auto& call = node.as<FunctionCallExpression>();
  const std::string name = upper(call.name.back());
  return call.syntax == FunctionSyntax::kJson && (name == "JSON_OBJECT" || name == "JSON_ARRAY");
}

/// The aggregate function `call` calls, with or without OVER (COUNT(*) and COUNT() are
/// COUNT_STAR); nullopt for other functions.
std::optional<AggregateKind> aggregateKindOfCall(const FunctionCallExpression& call) {
  if (call.name.size() != 1) return std::nullopt;
  const std::string name = upper(call.name[0]);
  if (name == "COUNT") {
    bool star = call.arguments.size() == 1 && call.arguments[0]->is<StarExpression>();
    return star || call.arguments.empty() ? AggregateKind::COUNT_STAR : AggregateKind::COUNT;
  }
  return runtime::operators::aggregateKindOfName(name);
}

/// The aggregate function of a GROUP BY aggregate call (not one with OVER).
std::optional<AggregateKind> aggregateKindOf(const FunctionCallExpression& call) {
  if (call.over) return std::nullopt;
  return aggregateKindOfCall(call);
}

/// Checks the argument types of an aggregate call as Flink's operand checkers do and takes
/// LISTAGG's literal separator into `aggregate`; returns Calcite's "Cannot apply" message, or
/// "" when the arguments fit.
std::string checkAggregateArguments(const FunctionCallExpression& call, AggregateKind kind,
                                    const expression::BoundExpression& argument,
                                    const BoundPtr& separator, AggregateCall& aggregate) {
  const std::string name = upper(call.name[0]);
  auto rejection = [&](const std::string& forms) {
    std::string shown = "<" + function::typeNameInMessage(*argument.type()) + ">";
    if (separator) shown += ", <" + function::typeNameInMessage(*separator->type()) + ">";
    return "Cannot apply '" + name + "' to arguments of type '" + name + "(" + shown +
           ")'. Supported form(s): " + forms;
  };
  switch (kind) {
    case AggregateKind::SUM:
    case AggregateKind::AVG:
    case AggregateKind::STDDEV_POP:
    case AggregateKind::STDDEV_SAMP:
    case AggregateKind::VAR_POP:
    case AggregateKind::VAR_SAMP:
      if (!function::isNumeric(*argument.type())) return rejection("'" + name + "(<NUMERIC>)'");
      return "";
    case AggregateKind::LISTAGG: {
      // Flink's SqlListAggFunction: a character value and an optional character literal.
      const auto* literal = dynamic_cast<const expression::Literal*>(separator.get());
      bool separatorFits = !separator || (literal && !literal->value().isNull() &&
                                          function::isCharacterString(*separator->type()));
      if (!function::isCharacterString(*argument.type()) || !separatorFits) {
        return rejection("'LISTAGG(<CHARACTER>)'\n'LISTAGG(<CHARACTER>, <CHARACTER_LITERAL>)'");
      }
      if (literal) aggregate.listSeparator = literal->value().get<std::string>();
      return "";
    }
    default:
      return "";
  }
}

/// Calls `visit` for the function calls of `expression`, outermost first; the arguments of a
/// call are visited only when `visit` returns false for it.
void forEachCall(const Expression& expression,
                 const std::function<bool(const FunctionCallExpression&)>& visit) {
  auto recurse = [&visit](const Expression& child) { forEachCall(child, visit); };
  if (expression.is<FunctionCallExpression>()) {
    const auto& call = expression.as<FunctionCallExpression>();
    if (visit(call)) return;
    for (const auto& argument : call.arguments) recurse(*argument);
    return;
  }
  switch (expression.kind) {
    case ExpressionKind::kUnary:
      recurse(*expression.as<UnaryExpression>().operand);
      break;
    case ExpressionKind::kBinary:
      recurse(*expression.as<BinaryExpression>().left);
      recurse(*expression.as<BinaryExpression>().right);
      break;
    case ExpressionKind::kIs:
      recurse(*expression.as<IsExpression>().operand);
      break;
    case ExpressionKind::kCast:
      recurse(*expression.as<CastExpression>().operand);
      break;
    case ExpressionKind::kBetween: {
      const auto& between = expression.as<BetweenExpression>();
      recurse(*between.operand);
      recurse(*between.lower);
      recurse(*between.upper);
      break;
    }
    case ExpressionKind::kCase: {
      const auto& caseExpression = expression.as<CaseExpression>();
      if (caseExpression.operand) recurse(*caseExpression.operand);
      for (const auto& when : caseExpression.whenClauses) {
        recurse(*when.condition);
        recurse(*when.result);
      }
      if (caseExpression.elseResult) recurse(*caseExpression.elseResult);
      break;
    }
    case ExpressionKind::kIn: {
      const auto& in = expression.as<InExpression>();
      recurse(*in.operand);
      for (const auto& value : in.values) recurse(*value);
      break;
    }
    default:
      break;
  }
}

/// Calls `visit` for every aggregate call in `expression`, outermost first (aggregates are not
/// looked for inside other aggregates: nesting is an error reported when binding).
void forEachAggregate(const Expression& expression,
                      const std::function<void(const FunctionCallExpression&)>& visit) {
  forEachCall(expression, [&visit](const FunctionCallExpression& call) {
    if (!aggregateKindOf(call)) return false;
    visit(call);
    return true;
  });
}

/// Whether an argument of `call` calls an aggregate function.
bool hasNestedAggregate(const FunctionCallExpression& call) {
  bool nested = false;
  for (const auto& argument : call.arguments) {
    forEachAggregate(*argument, [&](const FunctionCallExpression&) { nested = true; });
  }
  return nested;
}

/// Whether `query` is a SELECT that aggregates without GROUP BY or HAVING (so it has exactly one
/// row).
bool aggregatesWithoutGroupBy(const Query& query) {
  if (!query.is<SelectQuery>()) return false;
  const auto& select = query.as<SelectQuery>();
  if (!select.groupBy.empty() || select.having || !select.windows.empty()) return false;
  bool aggregates = false;
  for (const SelectItem& item : select.items) {
    forEachAggregate(*item.expression, [&](const FunctionCallExpression&) { aggregates = true; });
  }
  return aggregates;
}

/// Calls `visit` for every aggregate function called with OVER in `expression`.
void forEachOverAggregate(const Expression& expression,
                          const std::function<void(const FunctionCallExpression&)>& visit) {
  forEachCall(expression, [&visit](const FunctionCallExpression& call) {
    if (!call.over || !aggregateKindOfCall(call)) return false;
    visit(call);
    return true;
  });
}

/// The grouping sets of a GROUP BY clause (SQL's rules: each element gives a list of sets,
/// the clause is their cross product; ROLLUP gives its prefixes, longest first; CUBE every
/// subset, in Calcite's order), as indexes into `keys`, the distinct key expressions (by their
/// SQL text) in first appearance. Duplicate sets are kept, as SQL keeps them.
std::vector<std::vector<int>> expandGroupingSets(const std::vector<GroupingElement>& elements,
                                                 std::vector<const Expression*>& keys) {
  std::vector<std::string> texts;
  for (const Expression* key : keys) texts.push_back(unparse(*key));
  auto keyOf = [&](const Expression& expression) {
    std::string text = unparse(expression);
    auto position = std::find(texts.begin(), texts.end(), text);
    if (position != texts.end()) return static_cast<int>(position - texts.begin());
    texts.push_back(text);
    keys.push_back(&expression);
    return static_cast<int>(keys.size() - 1);
  };
  auto merged = [](std::vector<int> a, const std::vector<int>& b) {
    for (int key : b) {
      if (std::find(a.begin(), a.end(), key) == a.end()) a.push_back(key);
    }
    return a;
  };
  // The keys of a plain element (an expression or a parenthesized list).
  auto group = [&](const GroupingElement& element) {
    std::vector<int> set;
    if (element.kind == GroupingKind::kExpression) {
      set.push_back(keyOf(*element.expression));
    } else {
      for (const auto& expression : element.expressions) set = merged(set, {keyOf(*expression)});
    }
    return set;
  };
  std::function<std::vector<std::vector<int>>(const GroupingElement&)> expand =
      [&](const GroupingElement& element) -> std::vector<std::vector<int>> {
    switch (element.kind) {
      case GroupingKind::kExpression:
      case GroupingKind::kList:
        return {group(element)};
      case GroupingKind::kGroupingSets: {
        std::vector<std::vector<int>> sets;
        for (const GroupingElement& child : element.children) {
          for (auto& set : expand(child)) sets.push_back(std::move(set));
        }
        return sets;
      }
      case GroupingKind::kRollup: {
        std::vector<std::vector<int>> groups;
        for (const GroupingElement& child : element.children) groups.push_back(group(child));
        std::vector<std::vector<int>> sets;
        for (size_t length = groups.size() + 1; length-- > 0;) {
          std::vector<int> set;
          for (size_t i = 0; i < length; ++i) set = merged(set, groups[i]);
          sets.push_back(set);
        }
        return sets;
      }
      case GroupingKind::kCube: {
        std::vector<std::vector<int>> groups;
        for (const GroupingElement& child : element.children) groups.push_back(group(child));
        const size_t n = groups.size();
        std::vector<std::vector<int>> sets;
        for (size_t mask = (size_t{1} << n); mask-- > 0;) {
          std::vector<int> set;
          for (size_t i = 0; i < n; ++i) {
            if (mask & (size_t{1} << (n - 1 - i))) set = merged(set, groups[i]);
          }
          sets.push_back(set);
        }
        return sets;
      }
    }
    return {};
  };
  std::vector<std::vector<int>> result = {{}};
  for (const GroupingElement& element : elements) {
    std::vector<std::vector<int>> next;
    for (const auto& prefix : result) {
      for (const auto& set : expand(element)) next.push_back(merged(prefix, set));
    }
    result = std::move(next);
  }
  return result;
}

/// Appends the operands of the AND chain `predicate` (the predicate itself when it is no AND).
void collectConjuncts(const Expression& predicate, std::vector<const Expression*>& out) {
  if (predicate.is<BinaryExpression>() && predicate.as<BinaryExpression>().op == BinaryOperator::kAnd) {
    collectConjuncts(*predicate.as<BinaryExpression>().left, out);
    collectConjuncts(*predicate.as<BinaryExpression>().right, out);
  } else {
    out.push_back(&predicate);
  }
}

/// Which input an expression over a join's concatenated row reads: 0 only the left (the
/// first `leftArity` columns), 1 only the right, -1 both or none.
int sideOf(const BoundPtr& expression, int leftArity) {
  std::vector<int> columns;
  expression::collectColumns(expression, columns);
  if (columns.empty()) return -1;
  bool anyLeft = false, anyRight = false;
  for (int column : columns) (column < leftArity ? anyLeft : anyRight) = true;
  if (anyLeft && anyRight) return -1;
  return anyLeft ? 0 : 1;
}

}  // namespace

LogicalNodePtr intersectOrExcept(const LogicalNodePtr& left, const LogicalNodePtr& right,
                                 bool intersect, bool all) {
  // Both sides, each row marked with its side, grouped by all columns: a row of the result is
  // a group seen on the left and (INTERSECT) also / (EXCEPT) never on the right. As an
  // aggregate it retracts correctly in STREAMING.
  // A column is nullable when it is on either side (each side's projection reads its own
  // types; the union's row type is the merged one).
  std::vector<RowField> fields = left->rowType->getFields();
  const int arity = static_cast<int>(fields.size());
  const auto& rightFields = right->rowType->getFields();
  for (int i = 0; i < arity; ++i) {
    if (rightFields[i].type->isNullable()) fields[i].type = fields[i].type->copy(true);
  }
  auto marked = [&](const LogicalNodePtr& side, bool isLeft) -> LogicalNodePtr {
    std::vector<BoundPtr> columns;
    std::vector<std::string> names;
    const auto& sideFields = side->rowType->getFields();
    for (int i = 0; i < arity; ++i) {
      columns.push_back(expression::column(i, sideFields[i].type));
      names.push_back(fields[i].name);
    }
    columns.push_back(expression::literal(Value(isLeft)));
    names.push_back("$left");
    columns.push_back(expression::literal(Value(!isLeft)));
    names.push_back("$right");
    return std::make_shared<LogicalProject>(side, std::move(columns), std::move(names));
  };
  LogicalNodePtr leftMarked = marked(left, true);
  std::vector<RowField> unionFields = fields;
  for (size_t i = static_cast<size_t>(arity); i < leftMarked->rowType->getFields().size(); ++i) {
    unionFields.push_back(leftMarked->rowType->getFields()[i]);
  }
  LogicalNodePtr both = std::make_shared<LogicalUnion>(
      std::vector<LogicalNodePtr>{leftMarked, marked(right, false)},
      LogicalType::row(std::move(unionFields), false));
  std::vector<int> grouping;
  for (int i = 0; i < arity; ++i) grouping.push_back(i);
  LogicalTypePtr count = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
  std::vector<AggregateCall> calls = {AggregateCall{AggregateKind::COUNT_STAR, -1, count, arity},
                                      AggregateCall{AggregateKind::COUNT_STAR, -1, count, arity + 1}};
  LogicalNodePtr counted = std::make_shared<LogicalAggregate>(
      both, grouping, std::move(calls), std::vector<std::string>{"$leftCount", "$rightCount"});
  BoundPtr zero = expression::literal(Value(int64_t{0}));
  BoundPtr leftCount = expression::column(arity, count);
  BoundPtr rightCount = expression::column(arity + 1, count);
  BoundPtr onLeft = expression::call(">", {leftCount, zero});
  // ALL: INTERSECT keeps a row min(left, right) times, EXCEPT left - right times (Flink's
  // ReplicateRows after the same aggregate).
  BoundPtr onRight = all && !intersect ? expression::call(">", {leftCount, rightCount})
                                       : expression::call(intersect ? ">" : "=", {rightCount, zero});
  LogicalNodePtr kept = std::make_shared<LogicalFilter>(
      counted, expression::conjunction({onLeft, onRight}));
  std::vector<BoundPtr> columns;
  std::vector<std::string> names;
  for (int i = 0; i < arity; ++i) {
    columns.push_back(expression::column(i, fields[i].type));
    names.push_back(fields[i].name);
  }
  if (all) {
    BoundPtr times = intersect ? expression::caseWhen({expression::call("<", {leftCount, rightCount})},
                                                      {leftCount}, rightCount)
                               : expression::call("-", {leftCount, rightCount});
    std::vector<BoundPtr> withCount = columns;
    std::vector<std::string> withCountNames = names;
    withCount.push_back(times);
    withCountNames.push_back("$times");
    kept = std::make_shared<LogicalUnnest>(
        std::make_shared<LogicalProject>(kept, std::move(withCount), std::move(withCountNames)),
        expression::column(arity, count), false, false);
  }
  return std::make_shared<LogicalProject>(kept, std::move(columns), std::move(names));
}

LogicalNodePtr planJoin(LogicalNodePtr left, LogicalNodePtr right,
                        runtime::operators::JoinType joinType, const BoundPtr& condition,
                        std::optional<TemporalJoinTime> temporal) {
  const int leftArity = left->rowType->getFieldCount();
  const int rightArity = right->rowType->getFieldCount();
  // Split the condition into equi keys (`=` between an expression of each side, of one type)
  // and the residual predicate.
  std::vector<BoundPtr> leftKeyExpressions, rightKeyExpressions, residual;
  if (condition) {
    for (const BoundPtr& conjunct : expression::conjunctsOf(condition)) {
      // TRUE (a cross join's condition, a decided subquery conjunct) adds nothing.
      if (expression::isLiteralTrue(conjunct)) continue;
      if (expression::isCallTo(*conjunct, "=")) {
        BoundPtr a = conjunct->children()[0];
        BoundPtr b = conjunct->children()[1];
        int sideA = sideOf(a, leftArity), sideB = sideOf(b, leftArity);
        if (sideA == 1 && sideB == 0) {
          std::swap(a, b);
          std::swap(sideA, sideB);
        }
        // Strings of different lengths (VARCHAR(3) = STRING) compare as they are: both sides
        // become keys of their common type.
        if (sideA == 0 && sideB == 1 && !(*a->type()->copy(true) == *b->type()->copy(true)) &&
            ((function::isCharacterString(*a->type()) && function::isCharacterString(*b->type())) ||
             (function::isBinaryString(*a->type()) && function::isBinaryString(*b->type())))) {
          if (LogicalTypePtr common = function::leastRestrictive({a->type(), b->type()})) {
            a = expression::castIfNeeded(a, common);
            b = expression::castIfNeeded(b, common);
          }
        }
        if (sideA == 0 && sideB == 1 && *a->type()->copy(true) == *b->type()->copy(true)) {
          leftKeyExpressions.push_back(a);
          rightKeyExpressions.push_back(
              expression::remapColumns(b, [leftArity](int column) { return column - leftArity; }));
          continue;
        }
      }
      residual.push_back(conjunct);
    }
  }
  // Key expressions that are not plain columns are computed by a projection below the join.
  auto keyColumns = [](LogicalNodePtr& input, const std::vector<BoundPtr>& keys) {
    const auto& fields = input->rowType->getFields();
    std::vector<BoundPtr> projection;
    std::vector<std::string> names;
    for (size_t i = 0; i < fields.size(); ++i) {
      projection.push_back(expression::column(static_cast<int>(i), fields[i].type));
      names.push_back(fields[i].name);
    }
    std::vector<int> columns;
    for (const BoundPtr& key : keys) {
      if (key->kind() == expression::ExpressionKind::kColumnReference) {
        columns.push_back(static_cast<const expression::ColumnReference&>(*key).index());
      } else {
        columns.push_back(static_cast<int>(projection.size()));
        names.push_back("$f" + std::to_string(projection.size()));
        projection.push_back(key);
      }
    }
    if (projection.size() > fields.size()) {
      input = std::make_shared<LogicalProject>(input, std::move(projection), std::move(names));
    }
    return columns;
  };
  std::vector<int> leftKeys = keyColumns(left, leftKeyExpressions);
  std::vector<int> rightKeys = keyColumns(right, rightKeyExpressions);
  const int leftExtra = left->rowType->getFieldCount() - leftArity;
  const int rightExtra = right->rowType->getFieldCount() - rightArity;
  BoundPtr residualCondition;
  if (!residual.empty()) {
    residualCondition = expression::remapColumns(
        expression::conjunction(std::move(residual)),
        [leftArity, leftExtra](int column) { return column < leftArity ? column : column + leftExtra; });
  }
  LogicalNodePtr join =
      temporal ? std::make_shared<LogicalJoin>(left, right, joinType, std::move(leftKeys),
                                               std::move(rightKeys), residualCondition, *temporal)
               : std::make_shared<LogicalJoin>(left, right, joinType, std::move(leftKeys),
                                               std::move(rightKeys), residualCondition);
  // Drop the computed key columns again (a SEMI/ANTI join outputs the left columns only).
  const bool leftOnly = runtime::operators::outputsLeftOnly(joinType);
  if (leftExtra == 0 && (rightExtra == 0 || leftOnly)) return join;
  std::vector<BoundPtr> projection;
  std::vector<std::string> names;
  const auto& fields = join->rowType->getFields();
  for (int i = 0; i < leftArity + (leftOnly ? 0 : rightArity); ++i) {
    int column = i < leftArity ? i : i + leftExtra;
    projection.push_back(expression::column(column, fields[column].type));
    names.push_back(fields[column].name);
  }
  return std::make_shared<LogicalProject>(join, std::move(projection), std::move(names));
}

LogicalTypePtr logicalTypeOf(const Schema::ColumnType& type) {
  if (const auto* dataType = std::get_if<DataType>(&type)) return dataType->getLogicalType();
  return parseLogicalType(std::get<std::string>(type));
}

std::string withoutSqlPosition(const std::string& message) {
  const std::string prefix = "SQL validation failed. From line ";
  size_t colon = message.find(": ");
  if (message.rfind(prefix, 0) != 0 || colon == std::string::npos) return message;
  return message.substr(colon + 2);
}

LogicalTypePtr physicalRowTypeOf(const catalog::CatalogBaseTable& table,
                                 const std::string& tableName, bool primaryKeyNotNull) {
  (void)tableName;
  // Flink's schema resolution makes the primary key's columns NOT NULL, whatever they declare.
  const auto& primaryKey = table.schema.getPrimaryKey();
  auto inPrimaryKey = [&primaryKey](const std::string& name) {
    return primaryKey && std::find(primaryKey->columnNames.begin(), primaryKey->columnNames.end(),
                                   name) != primaryKey->columnNames.end();
  };
  std::vector<RowField> fields;
  for (const Schema::Column& column : table.schema.getColumns()) {
    const auto* physical = std::get_if<Schema::PhysicalColumn>(&column);
    if (!physical) continue;
    LogicalTypePtr type = logicalTypeOf(physical->type);
    if (primaryKeyNotNull && inPrimaryKey(physical->name)) type = type->copy(false);
    fields.push_back(RowField{physical->name, std::move(type), std::nullopt});
  }
  return LogicalType::row(std::move(fields), false);
}

void checkNoWritableMetadata(const catalog::CatalogBaseTable& table, const std::string& tableName) {
  for (const Schema::Column& column : table.schema.getColumns()) {
    const auto* metadata = std::get_if<Schema::MetadataColumn>(&column);
    if (metadata && !metadata->isVirtual) {
      throw ValidationException(
          "Invalid metadata key '" + metadata->metadataKey.value_or(metadata->name) +
          "' in column '" + metadata->name + "' of table '" + tableName +
          "'. The connector supports no metadata keys for writing; declare the column VIRTUAL "
          "to read it only.");
    }
  }
}

void checkWatermarkTypes(const LogicalType& timeType, const LogicalType* expressionType) {
  auto isTimestamp = [](const LogicalType& type) {
    return type.getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE ||
           type.getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE;
  };
  if (!isTimestamp(timeType) || timeType.getPrecision() > 3) {
    throw ValidationException(
        "Invalid data type of time field for watermark definition. The field must be of type "
        "TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the "
        "time field type is " + timeType.asSummaryString());
  }
  if (expressionType && !isTimestamp(*expressionType)) {
    throw ValidationException(
        "Invalid data type of expression for watermark definition. The field must be of type "
        "TIMESTAMP(p) or TIMESTAMP_LTZ(p), but the watermark expression type is " +
        expressionType->asSummaryString());
  }
}

LogicalNodePtr planTableScan(const catalog::CatalogManager& catalogManager,
                             const catalog::CatalogBaseTable& table, const std::string& tableName,
                             MetadataKeys keyCheck,
                             const function::BindingContext& context) {
  LogicalTypePtr physical = physicalRowTypeOf(table, tableName, /*primaryKeyNotNull=*/false);
  // METADATA columns: the keys the connector reads after the physical columns, each cast to
  // the declared type (which must be castable from the metadata's type).
  std::vector<RowField> metadataFields;
  std::vector<std::string> metadataKeys;
  std::vector<LogicalTypePtr> declaredMetadataTypes;
  for (const Schema::Column& column : table.schema.getColumns()) {
    const auto* metadata = std::get_if<Schema::MetadataColumn>(&column);
    if (!metadata) continue;
    const std::string key = metadata->metadataKey.value_or(metadata->name);
    if (keyCheck == MetadataKeys::kDeclared) {
      LogicalTypePtr declared = logicalTypeOf(metadata->type);
      metadataFields.push_back(RowField{metadata->name, declared, std::nullopt});
      metadataKeys.push_back(key);
      declaredMetadataTypes.push_back(declared);
      continue;
    }
    std::map<std::string, LogicalTypePtr> readable;
    std::string connector = "?";
    try {
      connectors::ConnectorContext context{tableName, physical, table.options, true,
                                           table.partitionKeys};
      const auto& factory = connectors::FactoryRegistry::builtIn().factoryFor(context);
      connector = factory.factoryIdentifier();
      readable = factory.createDynamicTableSource(context)->listReadableMetadata();
    } catch (const ValidationException&) {
      // An invalid table fails when the job is built, with its own message.
      continue;
    }
    auto found = readable.find(key);
    if (found == readable.end()) {
      std::string keys;
      for (const auto& [name, type] : readable) keys += "\n" + name;
      throw ValidationException("Invalid metadata key '" + key + "' in column '" + metadata->name +
                                "' of table '" + tableName + "'. The connector '" + connector +
                                "' supports the following metadata keys for reading:" +
                                (keys.empty() ? std::string("\n(none)") : keys));
    }
    LogicalTypePtr declared = logicalTypeOf(metadata->type);
    if (!function::isCastSupported(*found->second, *declared)) {
      throw ValidationException("Invalid data type for metadata column '" + metadata->name +
                                "' of table '" + tableName + "'. The column cannot be declared as '" +
                                declared->asSummaryString() + "' because the type must be castable "
                                "from metadata type '" + found->second->asSummaryString() + "'.");
    }
    metadataFields.push_back(RowField{metadata->name, found->second, std::nullopt});
    metadataKeys.push_back(key);
    declaredMetadataTypes.push_back(declared);
  }
  std::vector<int> primaryKey;
  if (const auto& key = table.schema.getPrimaryKey()) {
    for (const std::string& column : key->columnNames) {
      const int index = physical->getFieldIndex(column);
      if (index >= 0) primaryKey.push_back(index);
    }
    if (primaryKey.size() != key->columnNames.size()) primaryKey.clear();
  }
  LogicalNodePtr scan = std::make_shared<LogicalTableScan>(tableName, physical, table.options,
                                                           table.partitionKeys, metadataFields,
                                                           metadataKeys, std::move(primaryKey));
  bool computed = std::any_of(table.schema.getColumns().begin(), table.schema.getColumns().end(),
                              [](const Schema::Column& column) {
                                return std::holds_alternative<Schema::ComputedColumn>(column);
                              });
  const auto& watermarks = table.schema.getWatermarkSpecs();
  if (!computed && watermarks.empty() && metadataKeys.empty()) return scan;
  // Computed columns: a projection over the scanned columns, in the declared column order.
  Binder binder(catalogManager, context);
  const auto& fields = scan->rowType->getFields();
  const size_t physicalCount = physical->getFieldCount();
  std::vector<BoundPtr> columns;
  std::vector<std::string> names;
  for (const Schema::Column& column : table.schema.getColumns()) {
    if (const auto* computedColumn = std::get_if<Schema::ComputedColumn>(&column)) {
      try {
        columns.push_back(binder.bindExpressionText(computedColumn->expression, fields));
      } catch (const std::exception& error) {
        // The position inside the column's expression text means little here: keep the cause.
        throw ValidationException("Invalid expression for computed column '" + computedColumn->name +
                                  "' of table '" + tableName + "': " +
                                  withoutSqlPosition(error.what()));
      }
      names.push_back(computedColumn->name);
      continue;
    }
    const std::string& name = Schema::columnName(column);
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].name != name) continue;
      BoundPtr read = expression::column(static_cast<int>(i), fields[i].type);
      if (i >= physicalCount) {
        read = expression::castIfNeeded(read, declaredMetadataTypes[i - physicalCount]);
      }
      columns.push_back(read);
    }
    names.push_back(name);
  }
  if (watermarks.empty()) {
    return std::make_shared<LogicalProject>(scan, std::move(columns), std::move(names));
  }
  // WATERMARK FOR rowtime AS expression: the column becomes the rowtime attribute, and a
  // watermark assigner over the table's columns generates the watermarks.
  if (watermarks.size() > 1) {
    throw ValidationException("Multiple watermark definitions are not supported yet: table '" +
                              tableName + "'");
  }
  const Schema::WatermarkSpec& watermark = watermarks[0];
  auto position = std::find(names.begin(), names.end(), watermark.columnName) - names.begin();
  if (position == static_cast<long>(names.size())) {
    throw ValidationException("The rowtime attribute field '" + watermark.columnName +
                              "' is not defined in the table schema of '" + tableName + "'");
  }
  const LogicalType& timeType = *columns[position]->type();
  checkWatermarkTypes(timeType, nullptr);
  columns[position] = expression::cast(columns[position],
                                       timeType.copyWithTimestampKind(TimestampKind::ROWTIME));
  LogicalNodePtr project = std::make_shared<LogicalProject>(scan, std::move(columns), names);
  BoundPtr bound;
  try {
    bound = binder.bindExpressionText(watermark.expression, project->rowType->getFields());
  } catch (const std::exception& error) {
    throw ValidationException("Invalid expression for watermark '" + watermark.expression +
                              "' of table '" + tableName + "': " + withoutSqlPosition(error.what()));
  }
  checkWatermarkTypes(timeType, bound->type().get());
  return std::make_shared<LogicalWatermarkAssigner>(project, static_cast<int>(position), bound);
}

bool isAggregateFunctionName(const std::string& upperCaseName) {
  return runtime::operators::aggregateKindOfName(upperCaseName).has_value();
}

/// How expressions above an aggregation refer to its output: an aggregate call of the AST
/// becomes a reference to its result column; an expression equal (as SQL text) to a GROUP BY
/// expression becomes a reference to that grouping column.
struct Binder::AggregateBinding {
  std::map<const FunctionCallExpression*, int> callColumns;  // AST call → output column
  std::vector<std::string> groupingTexts;                    // unparsed GROUP BY expressions
  std::vector<int> groupingInputColumns;  // the input column a key is, -1 for other expressions
  std::vector<LogicalTypePtr> outputTypes;                   // aggregate output columns
  /// With several grouping sets: the column of the first key's GROUPING flag (one BIGINT
  /// column per key follows); -1 otherwise (GROUPING is then 0).
  int groupingFlagsOffset = -1;
};

Binder::Binder(const catalog::CatalogManager& catalogManager, function::BindingContext context)
    : catalogManager_(catalogManager), context_(std::move(context)) {}

void Binder::fail(const Node& node, const std::string& message) {
  throw ValidationException("SQL validation failed. From line " +
                            std::to_string(node.position.line) + ", column " +
                            std::to_string(node.position.column) + ": " + message);
}

void Binder::notSupported(const Node& node, const std::string& what) {
  fail(node, what + " is not supported yet");
}

LogicalNodePtr Binder::bindQuery(const Query& query) { return bindRelation(query).node; }

void Binder::addInlineTable(const std::string& name, LogicalNodePtr plan) {
  Relation relation;
  for (const RowField& field : plan->rowType->getFields()) {
    relation.scope.push_back(ScopeColumn{name, field.name, field.type, false});
  }
  relation.node = std::move(plan);
  commonTableExpressions_.emplace_back(name, std::move(relation));
}

expression::ExpressionPtr Binder::bindExpressionText(const std::string& sql,
                                                     const std::vector<RowField>& columns) {
  ExpressionPtr parsed = parseExpression(sql);
  Scope scope;
  for (const RowField& field : columns) scope.push_back(ScopeColumn{"", field.name, field.type, false});
  return bindExpression(*parsed, scope, nullptr);
}

Binder::Relation Binder::bindRelation(const Query& query) {
  switch (query.kind) {
    case QueryKind::kSelect:
      return bindSelect(query.as<SelectQuery>());
    case QueryKind::kValues:
      return bindValues(query.as<ValuesQuery>());
    case QueryKind::kWith: {
      const auto& with = query.as<WithQuery>();
      size_t visible = commonTableExpressions_.size();
      for (const WithItem& item : with.items) {
        Relation relation = bindRelation(*item.query);
        if (!item.columns.empty()) {
          if (item.columns.size() != relation.scope.size()) {
            fail(*item.query, "List of column aliases must have same degree as table; table has " +
                                  std::to_string(relation.scope.size()) + " columns, list has " +
                                  std::to_string(item.columns.size()));
          }
          for (size_t i = 0; i < item.columns.size(); ++i) relation.scope[i].name = item.columns[i];
        }
        for (auto& column : relation.scope) column.qualifier = item.name;
        commonTableExpressions_.emplace_back(item.name, std::move(relation));
      }
      Relation body = bindRelation(*with.body);
      commonTableExpressions_.resize(visible);
      return body;
    }
    case QueryKind::kSetOperation:
      return bindSetOperation(query.as<SetOperationQuery>());
    case QueryKind::kOrderBy:
      return bindOrderBy(query.as<OrderByQuery>());
  }
  notSupported(query, "This query");
}

Binder::Relation Binder::bindSetOperation(const SetOperationQuery& set) {
  const char* opName = set.op == SetOperator::kUnion       ? "UNION"
                       : set.op == SetOperator::kIntersect ? "INTERSECT"
                                                           : "EXCEPT";
  Relation left = bindRelation(*set.left);
  Relation right = bindRelation(*set.right);
  if (left.scope.size() != right.scope.size()) {
    fail(set, std::string("Column count mismatch in ") + opName);
  }
  std::vector<std::string> names;
  std::vector<LogicalTypePtr> types;
  for (size_t i = 0; i < left.scope.size(); ++i) {
    LogicalTypePtr type = function::leastRestrictive({left.scope[i].type, right.scope[i].type});
    if (!type) {
      fail(set, "Type mismatch in column " + std::to_string(i + 1) + " of " + opName);
    }
    if (type->getTypeRoot() == LogicalTypeRoot::CHAR) {
      type = LogicalType::varchar(type->getLength(), type->isNullable());
    }
    names.push_back(left.scope[i].name);
    types.push_back(type);
  }
  // Both sides become exactly the union's row type (casts, the left side's names).
  auto conform = [&](const Relation& side) -> LogicalNodePtr {
    std::vector<BoundPtr> columns;
    for (size_t i = 0; i < side.scope.size(); ++i) {
      columns.push_back(expression::castIfNeeded(
          expression::column(static_cast<int>(i), side.scope[i].type), types[i], context_));
    }
    return std::make_shared<LogicalProject>(side.node, std::move(columns), names);
  };
  Scope scope;
  for (size_t i = 0; i < names.size(); ++i) scope.push_back(ScopeColumn{"", names[i], types[i], false});
  if (set.op != SetOperator::kUnion) {
    return Relation{intersectOrExcept(conform(left), conform(right),
                                      set.op == SetOperator::kIntersect, set.all),
                    scope};
  }
  LogicalNodePtr result = std::make_shared<LogicalUnion>(
      std::vector<LogicalNodePtr>{conform(left), conform(right)}, rowTypeOf(names, types));
  if (!set.all) {
    std::vector<int> all;
    for (size_t i = 0; i < names.size(); ++i) all.push_back(static_cast<int>(i));
    result = std::make_shared<LogicalAggregate>(result, all, std::vector<AggregateCall>{},
                                                std::vector<std::string>{});
  }
  return Relation{result, scope};
}

Binder::Relation Binder::bindOrderBy(const OrderByQuery& orderBy) {
  Relation input = bindRelation(*orderBy.query);
  std::vector<runtime::operators::SortKey> keys;
  for (const OrderItem& item : orderBy.orderBy) {
    int column = -1;
    const Expression& key = *item.expression;
    if (key.is<LiteralExpression>() &&
        key.as<LiteralExpression>().literalKind == LiteralKind::kExactNumeric) {
      int ordinal = std::stoi(key.as<LiteralExpression>().value);
      if (ordinal < 1 || ordinal > static_cast<int>(input.scope.size())) {
        fail(key, "Ordinal out of range");
      }
      column = ordinal - 1;
    } else {
      BoundPtr bound = bindExpression(key, input.scope, nullptr);
      const auto* reference = dynamic_cast<const expression::ColumnReference*>(bound.get());
      if (!reference) notSupported(key, "ORDER BY an expression that is not a selected column");
      column = reference->index();
    }
    keys.push_back(runtime::operators::SortKey{column, !item.descending, nullsFirstOf(item)});
  }
  auto count = [this](const ExpressionPtr& expression, const char* clause) -> int64_t {
    if (!expression) return -1;
    BoundPtr bound = bindExpression(*expression, {}, nullptr);
    std::optional<Value> value = expression::ExpressionEvaluator::evaluateConstant(bound);
    if (!value || value->isNull() ||
        (value->kind() != ValueKind::INT && value->kind() != ValueKind::BIGINT)) {
      fail(*expression, std::string(clause) + " must be a non-negative integer literal");
    }
    int64_t number = value->kind() == ValueKind::INT ? value->get<int32_t>() : value->get<int64_t>();
    if (number < 0) fail(*expression, std::string(clause) + " must be a non-negative integer literal");
    return number;
  };
  int64_t offset = std::max<int64_t>(0, count(orderBy.offset, "OFFSET"));
  int64_t fetch = count(orderBy.fetch, "LIMIT");
  input.node = std::make_shared<LogicalSort>(input.node, std::move(keys), offset, fetch);
  return input;
}

Binder::Relation Binder::bindValues(const ValuesQuery& values) {
  if (values.rows.empty()) fail(values, "VALUES needs at least one row");
  size_t arity = values.rows[0].size();
  std::vector<std::vector<BoundPtr>> boundRows;
  for (const auto& row : values.rows) {
    if (row.size() != arity) {
      fail(*row[0], "Values passed to VALUES operator must have compatible types");
    }
    std::vector<BoundPtr> bound;
    for (const auto& value : row) {
      BoundPtr expression = bindExpression(*value, {}, nullptr);
      if (!expression->isConstant()) fail(*value, "VALUES accepts only constant expressions");
      bound.push_back(std::move(expression));
    }
    boundRows.push_back(std::move(bound));
  }
  // Column types: the least restrictive type of each column; string literals widen to
  // VARCHAR of the longest (eddy does not pad VALUES strings to CHAR(n) as Calcite does).
  std::vector<LogicalTypePtr> types;
  std::vector<std::string> names;
  for (size_t column = 0; column < arity; ++column) {
    std::vector<LogicalTypePtr> columnTypes;
    for (const auto& row : boundRows) columnTypes.push_back(row[column]->type());
    LogicalTypePtr type = function::leastRestrictive(columnTypes);
    if (!type) fail(*values.rows[0][column], "Values passed to VALUES operator must have compatible types");
    if (type->getTypeRoot() == LogicalTypeRoot::CHAR) {
      type = LogicalType::varchar(type->getLength(), type->isNullable());
    }
    types.push_back(type);
    names.push_back("EXPR$" + std::to_string(column));
  }
  std::vector<Row> rows;
  for (size_t r = 0; r < boundRows.size(); ++r) {
    Row row(static_cast<int>(arity));
    for (size_t column = 0; column < arity; ++column) {
      BoundPtr typed = expression::castIfNeeded(boundRows[r][column], types[column], context_);
      std::optional<Value> value = expression::ExpressionEvaluator::evaluateConstant(typed);
      if (!value) fail(*values.rows[r][column], "Cannot evaluate '" + typed->toString() + "'");
      row.setField(static_cast<int>(column), *value);
    }
    rows.push_back(std::move(row));
  }
  Scope scope;
  for (size_t i = 0; i < arity; ++i) scope.push_back(ScopeColumn{"", names[i], types[i], false});
  return Relation{std::make_shared<LogicalValues>(rowTypeOf(names, types), std::move(rows)), scope};
}

Binder::Relation Binder::renamed(Relation relation, const TableReference& reference) {
  if (!reference.columnAliases.empty()) {
    if (reference.columnAliases.size() != relation.scope.size()) {
      fail(reference, "List of column aliases must have same degree as table; table has " +
                          std::to_string(relation.scope.size()) + " columns, list has " +
                          std::to_string(reference.columnAliases.size()));
    }
    std::vector<BoundPtr> columns;
    std::vector<std::string> names;
    for (size_t i = 0; i < relation.scope.size(); ++i) {
      relation.scope[i].name = reference.columnAliases[i];
      columns.push_back(expression::column(static_cast<int>(i), relation.scope[i].type));
      names.push_back(reference.columnAliases[i]);
    }
    relation.node = std::make_shared<LogicalProject>(relation.node, std::move(columns), names);
  }
  if (reference.alias) {
    for (auto& column : relation.scope) column.qualifier = *reference.alias;
  }
  return relation;
}

Binder::Relation Binder::bindNamedTable(const NamedTableReference& table) {
  if (table.systemTimeAsOf && !bindingVersionedTable_) {
    notSupported(table, "FOR SYSTEM_TIME AS OF outside the right side of a join");
  }
  if (table.name.size() == 1) {
    for (auto it = commonTableExpressions_.rbegin(); it != commonTableExpressions_.rend(); ++it) {
      if (it->first == table.name[0]) return it->second;
    }
  }
  catalog::ObjectIdentifier identifier;
  try {
    identifier = catalogManager_.qualifyIdentifier(table.name);
  } catch (const ValidationException& error) {
    fail(table, error.what());
  }
  auto resolved = catalogManager_.getTable(identifier);
  if (!resolved) {
    std::string written;
    for (size_t i = 0; i < table.name.size(); ++i) written += (i ? "." : "") + table.name[i];
    fail(table, "Object '" + written + "' not found");
  }
  const catalog::CatalogBaseTable& catalogTable = *resolved->table;
  if (catalogTable.kind != catalog::CatalogBaseTable::Kind::VIEW) {
    Relation relation;
    try {
      relation.node = planTableScan(catalogManager_, catalogTable, identifier.asSummaryString(),
                                    MetadataKeys::kCheck, context_);
    } catch (const ValidationException& error) {
      fail(table, error.what());
    }
    for (const RowField& field : relation.node->rowType->getFields()) {
      relation.scope.push_back(ScopeColumn{identifier.objectName, field.name, field.type, false});
    }
    if (const auto& primaryKey = catalogTable.schema.getPrimaryKey()) {
      for (const std::string& name : primaryKey->columnNames) {
        for (size_t i = 0; i < relation.scope.size(); ++i) {
          if (relation.scope[i].name == name) relation.primaryKey.push_back(static_cast<int>(i));
        }
      }
    }
    return relation;
  }
  if (catalogTable.plan) {
    Relation relation;
    relation.node = catalogTable.plan;
    for (const RowField& field : catalogTable.plan->rowType->getFields()) {
      relation.scope.push_back(ScopeColumn{identifier.objectName, field.name, field.type, false});
    }
    return relation;
  }
  StatementPtr statement = parseStatement(catalogTable.expandedQuery.empty()
                                              ? catalogTable.originalQuery
                                              : catalogTable.expandedQuery);
  if (!statement->is<QueryStatement>()) fail(table, "View '" + identifier.asSummaryString() + "' does not hold a query");
  // Bound where it is read, in the session's time zone and runtime mode (as Flink expands a
  // view into the query).
  Binder viewBinder(catalogManager_, context_);
  Relation relation = viewBinder.bindRelation(*statement->as<QueryStatement>().query);
  // A view declared with a column list names its columns itself.
  const auto& columns = catalogTable.schema.getColumns();
  bool renamed = false;
  if (columns.size() == relation.scope.size()) {
    for (size_t i = 0; i < columns.size(); ++i) {
      const std::string& name = Schema::columnName(columns[i]);
      renamed = renamed || relation.scope[i].name != name;
      relation.scope[i].name = name;
    }
  }
  if (renamed) {
    std::vector<BoundPtr> projected;
    std::vector<std::string> names;
    for (size_t i = 0; i < relation.scope.size(); ++i) {
      projected.push_back(expression::column(static_cast<int>(i), relation.scope[i].type));
      names.push_back(relation.scope[i].name);
    }
    relation.node = std::make_shared<LogicalProject>(relation.node, std::move(projected), names);
  }
  for (auto& column : relation.scope) column.qualifier = identifier.objectName;
  return relation;
}

Binder::Relation Binder::bindUnnest(const UnnestReference& unnest, const Relation* left,
                                    bool leftOuter) {
  if (unnest.arguments.size() != 1) notSupported(unnest, "UNNEST of several collections");
  Relation input;
  if (left != nullptr) {
    input = *left;
  } else {
    input.node = std::make_shared<LogicalValues>(LogicalType::row({}, false),
                                                 std::vector<Row>{Row(0)});
  }
  const Expression& argument = *unnest.arguments[0];
  BoundPtr collection = bindExpression(argument, input.scope, nullptr);
  const LogicalTypeRoot root = collection->type()->getTypeRoot();
  if (root != LogicalTypeRoot::ARRAY && root != LogicalTypeRoot::MAP &&
      root != LogicalTypeRoot::MULTISET) {
    fail(argument, "UNNEST argument must be a collection (ARRAY, MAP or MULTISET), but was " +
                       function::typeNameInMessage(*collection->type()));
  }
  LogicalNodePtr node = std::make_shared<LogicalUnnest>(input.node, collection,
                                                        unnest.withOrdinality, leftOuter);
  const auto& fields = node->rowType->getFields();
  const size_t inputArity = input.scope.size();
  const size_t elementArity = fields.size() - inputArity;
  std::vector<std::string> names;
  for (const RowField& field : fields) names.push_back(field.name);
  if (!unnest.columnAliases.empty()) {
    if (unnest.columnAliases.size() != elementArity) {
      fail(unnest, "List of column aliases must have same degree as table; table has " +
                       std::to_string(elementArity) + " columns, list has " +
                       std::to_string(unnest.columnAliases.size()));
    }
    for (size_t i = 0; i < elementArity; ++i) names[inputArity + i] = unnest.columnAliases[i];
  }
  // Rename the element columns, and drop the empty row's (no) columns of a lone UNNEST.
  std::vector<BoundPtr> columns;
  for (size_t i = 0; i < fields.size(); ++i) {
    columns.push_back(expression::column(static_cast<int>(i), fields[i].type));
  }
  Relation result;
  result.scope = input.scope;
  for (size_t i = inputArity; i < fields.size(); ++i) {
    result.scope.push_back(ScopeColumn{unnest.alias.value_or(""), names[i], fields[i].type});
  }
  bool renamedColumns = !unnest.columnAliases.empty();
  result.node = renamedColumns
                    ? std::make_shared<LogicalProject>(node, std::move(columns), uniquifyNames(names))
                    : node;
  return result;
}

Binder::Relation Binder::bindJoin(const JoinReference& join) {
  using runtime::operators::JoinType;
  Relation left = bindTableReference(*join.left);
  if (join.right->is<UnnestReference>()) {
    // A correlated UNNEST: CROSS JOIN, comma, [INNER] JOIN .. ON cond (a filter above), or
    // LEFT JOIN .. ON TRUE (Flink's only outer form).
    if (join.natural || !join.usingColumns.empty()) {
      notSupported(join, "UNNEST with NATURAL or USING");
    }
    const bool leftOuter = join.joinType == sql::JoinType::kLeft;
    if (join.joinType == sql::JoinType::kRight || join.joinType == sql::JoinType::kFull) {
      notSupported(join, "A RIGHT or FULL join with UNNEST");
    }
    if ((join.joinType == sql::JoinType::kInner || leftOuter) && !join.condition) {
      fail(join, "INNER, LEFT, RIGHT or FULL join requires a condition (NATURAL keyword or ON or "
                 "USING clause)");
    }
    Relation result = bindUnnest(join.right->as<UnnestReference>(), &left, leftOuter);
    if (join.condition) {
      BoundPtr condition = bindExpression(*join.condition, result.scope, nullptr);
      if (condition->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
        fail(*join.condition, "ON clause must be a condition");
      }
      const bool alwaysTrue = condition->kind() == expression::ExpressionKind::kLiteral &&
                              static_cast<const expression::Literal&>(*condition).value() ==
                                  Value(true);
      if (leftOuter && !alwaysTrue) {
        fail(*join.condition, "A LEFT JOIN with UNNEST supports only the condition ON TRUE");
      }
      if (!alwaysTrue) result.node = std::make_shared<LogicalFilter>(result.node, condition);
    }
    return result;
  }
  const bool temporal = join.right->is<NamedTableReference>() &&
                        join.right->as<NamedTableReference>().systemTimeAsOf != nullptr;
  bindingVersionedTable_ = temporal;
  Relation right = bindTableReference(*join.right);
  bindingVersionedTable_ = false;
  JoinType joinType = JoinType::INNER;
  switch (join.joinType) {
    case sql::JoinType::kLeft:
      joinType = JoinType::LEFT;
      break;
    case sql::JoinType::kRight:
      joinType = JoinType::RIGHT;
      break;
    case sql::JoinType::kFull:
      joinType = JoinType::FULL;
      break;
    default:
      break;
  }
  if (temporal && (join.natural || !join.usingColumns.empty())) {
    notSupported(join, "A temporal join with NATURAL or USING");
  }
  if (join.natural || !join.usingColumns.empty()) return bindUsingJoin(join, left, right, joinType);
  bool needsCondition = join.joinType != sql::JoinType::kCross && join.joinType != sql::JoinType::kComma;
  if (needsCondition && !join.condition) {
    fail(join, "INNER, LEFT, RIGHT or FULL join requires a condition (NATURAL keyword or ON or "
               "USING clause)");
  }

  Scope combined = left.scope;
  combined.insert(combined.end(), right.scope.begin(), right.scope.end());
  BoundPtr condition;
  if (join.condition) {
    bool hasAggregate = false;
    forEachAggregate(*join.condition, [&](const FunctionCallExpression&) { hasAggregate = true; });
    if (hasAggregate) fail(*join.condition, "Aggregate expression is illegal in ON clause");
    condition = bindExpression(*join.condition, combined, nullptr);
    if (condition->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
      fail(*join.condition, "ON clause must be a condition");
    }
  }
  if (temporal) return bindTemporalJoin(join, std::move(left), std::move(right), joinType, condition);
  Relation result;
  result.node = planJoin(left.node, right.node, joinType, condition);
  bool padLeft = joinType == JoinType::RIGHT || joinType == JoinType::FULL;
  bool padRight = joinType == JoinType::LEFT || joinType == JoinType::FULL;
  for (size_t i = 0; i < combined.size(); ++i) {
    ScopeColumn column = combined[i];
    if (i < left.scope.size() ? padLeft : padRight) column.type = column.type->copy(true);
    result.scope.push_back(std::move(column));
  }
  return result;
}

Binder::Relation Binder::bindTemporalJoin(const JoinReference& join, Relation left,
                                          Relation right, runtime::operators::JoinType joinType,
                                          const BoundPtr& condition) {
  using runtime::operators::JoinType;
  const auto& versioned = join.right->as<NamedTableReference>();
  std::string tableName;
  for (size_t i = 0; i < versioned.name.size(); ++i) tableName += (i ? "." : "") + versioned.name[i];
  if (joinType != JoinType::INNER && joinType != JoinType::LEFT) {
    fail(join, std::string("Temporal table join currently only supports INNER JOIN and LEFT JOIN, "
                           "but was ") +
                   (joinType == JoinType::RIGHT ? "RIGHT" : "FULL") + " JOIN.");
  }
  if (!condition) {
    fail(join, "Temporal table join requires an equality condition on fields of table [" +
                   tableName + "].");
  }
  // FOR SYSTEM_TIME AS OF: the left side's rowtime attribute.
  BoundPtr asOf = bindExpression(*versioned.systemTimeAsOf, left.scope, nullptr);
  const LogicalType& asOfType = *asOf->type();
  if (asOfType.getTimestampKind() == TimestampKind::PROCTIME) {
    return bindLookupJoin(join, std::move(left), std::move(right), joinType, condition, tableName);
  }
  if (asOf->kind() != expression::ExpressionKind::kColumnReference ||
      asOfType.getTimestampKind() != TimestampKind::ROWTIME) {
    fail(*versioned.systemTimeAsOf, "Temporal table join currently only supports 'FOR "
                                    "SYSTEM_TIME AS OF' left table's time attribute field");
  }
  const int leftTime = static_cast<const expression::ColumnReference&>(*asOf).index();
  if (left.node->changelogMode != ChangelogMode::kInsertOnly) {
    fail(join, "Temporal join doesn't support consuming update and delete changes which is "
               "produced by node " + updateProducer(*left.node).describe());
  }
  // The versioned side: a rowtime attribute and a primary key (declared, or the key of a
  // deduplicating view).
  const auto& rightFields = right.node->rowType->getFields();
  int rightTime = -1;
  for (size_t i = 0; i < rightFields.size(); ++i) {
    if (rightFields[i].type->getTimestampKind() == TimestampKind::ROWTIME) {
      rightTime = static_cast<int>(i);
      break;
    }
  }
  if (rightTime < 0) {
    fail(*join.right, "Event-Time Temporal Table Join requires both primary key and row time "
                      "attribute in versioned table, but no row time attribute can be found.");
  }
  std::vector<int> primaryKey = right.primaryKey;
  if (primaryKey.empty()) primaryKey = uniqueKeyOf(*right.node).value_or(std::vector<int>{});
  if (primaryKey.empty()) {
    fail(*join.right, "Temporal Table Join requires primary key in versioned table, but no "
                      "primary key can be found.");
  }
  // Every primary key column must be equated with an expression of the left side.
  const int leftArity = static_cast<int>(left.scope.size());
  std::vector<int> equated;
  for (const BoundPtr& conjunct : expression::conjunctsOf(condition)) {
    if (!expression::isCallTo(*conjunct, "=")) continue;
    for (int side = 0; side < 2; ++side) {
      const BoundPtr& own = conjunct->children()[static_cast<size_t>(side)];
      const BoundPtr& other = conjunct->children()[static_cast<size_t>(1 - side)];
      if (own->kind() != expression::ExpressionKind::kColumnReference) continue;
      const int column = static_cast<const expression::ColumnReference&>(*own).index();
      std::vector<int> otherColumns;
      expression::collectColumns(other, otherColumns);
      bool otherIsLeft = std::all_of(otherColumns.begin(), otherColumns.end(),
                                     [&](int c) { return c < leftArity; });
      if (column >= leftArity && otherIsLeft) equated.push_back(column - leftArity);
    }
  }
  for (int key : primaryKey) {
    if (std::find(equated.begin(), equated.end(), key) != equated.end()) continue;
    std::string keyNames;
    for (size_t i = 0; i < primaryKey.size(); ++i) {
      keyNames += (i ? ", " : "") + rightFields[static_cast<size_t>(primaryKey[i])].name;
    }
    fail(join, "Temporal table's primary key [" + keyNames + "] must be included in the "
               "equivalence condition of temporal join, but current temporal join condition is [" +
               unparse(*join.condition) + "].");
  }
  Relation result;
  result.node = planJoin(left.node, right.node, joinType, condition,
                         TemporalJoinTime{leftTime, rightTime});
  const auto& fields = result.node->rowType->getFields();
  result.scope = left.scope;
  result.scope.insert(result.scope.end(), right.scope.begin(), right.scope.end());
  for (size_t i = 0; i < result.scope.size(); ++i) result.scope[i].type = fields[i].type;
  return result;
}

namespace {
/// Whether comparing a `from` value with a `to` column in SQL compares them as `to` values (the
/// common type of both is `to`): then the value converted to `to` is the key, with nothing lost.
bool comparesAs(const LogicalType& from, const LogicalType& to) {
  LogicalTypePtr common = function::leastRestrictive({from.copy(true), to.copy(true)});
  return common && *common == *to.copy(true);
}
}  // namespace

Binder::Relation Binder::bindLookupJoin(const JoinReference& join, Relation left, Relation right,
                                        runtime::operators::JoinType joinType,
                                        const BoundPtr& condition, const std::string& tableName) {
  const auto& versioned = join.right->as<NamedTableReference>();
  if (right.node->kind != LogicalNodeKind::kTableScan) {
    notSupported(*join.right, "A lookup join with a view, or with a table that has computed or "
                              "metadata columns or a watermark,");
  }
  auto table = std::static_pointer_cast<const LogicalTableScan>(right.node);
  // The table's connector must look rows up by key (Flink's LookupTableSource).
  bool lookup = false;
  std::string connector = "?";
  try {
    connectors::ConnectorContext context{table->tableName, table->physicalRowType, table->options,
                                         true, table->partitionKeys};
    const auto& factory = connectors::FactoryRegistry::builtIn().factoryFor(context);
    connector = factory.factoryIdentifier();
    lookup = factory.createDynamicTableSource(context)->supportsLookup();
  } catch (const ValidationException&) {
    // An invalid table fails when the job is built, with its own message.
    lookup = true;
  }
  if (!lookup) {
    fail(*versioned.systemTimeAsOf,
         "Processing-time temporal join is not supported yet: table [" + tableName +
             "] (connector '" + connector + "') cannot be looked up by key; a lookup join "
             "needs a connector that supports lookups (filesystem)");
  }
  // Equalities `table.column = <expression over the left side>` are the lookup keys; the rest
  // of the condition filters the pairs.
  const int leftArity = static_cast<int>(left.scope.size());
  const auto& tableFields = table->rowType->getFields();
  std::vector<BoundPtr> inputKeys;
  std::vector<int> lookupKeys;
  std::vector<BoundPtr> residual;
  for (const BoundPtr& conjunct : expression::conjunctsOf(condition)) {
    bool key = false;
    if (expression::isCallTo(*conjunct, "=")) {
      for (int side = 0; side < 2 && !key; ++side) {
        BoundPtr own = conjunct->children()[static_cast<size_t>(side)];
        const BoundPtr& other = conjunct->children()[static_cast<size_t>(1 - side)];
        // A table column widened to the other side's type is compared in its own type.
        if (own->kind() == expression::ExpressionKind::kCast) own = own->children()[0];
        if (own->kind() != expression::ExpressionKind::kColumnReference) continue;
        const int column = static_cast<const expression::ColumnReference&>(*own).index() - leftArity;
        std::vector<int> otherColumns;
        expression::collectColumns(other, otherColumns);
        bool otherIsLeft = std::all_of(otherColumns.begin(), otherColumns.end(),
                                       [&](int c) { return c < leftArity; });
        if (column < 0 || !otherIsLeft ||
            std::find(lookupKeys.begin(), lookupKeys.end(), column) != lookupKeys.end()) {
          continue;
        }
        // The probe value in the column's type (the key bytes of both must agree). A value of
        // another type is converted with TRY_CAST (no lookup when it does not fit) and the
        // equality is checked again on the pair, since the conversion may lose digits (1.5 →
        // 1, 'ABCD' → 'ABC', a BIGINT beyond INT).
        LogicalTypePtr columnType =
            tableFields[static_cast<size_t>(column)].type->copy(other->type()->isNullable());
        if (*other->type() == *columnType) {
          inputKeys.push_back(other);
        } else if (comparesAs(*other->type(), *columnType)) {
          inputKeys.push_back(expression::cast(other, columnType, context_));
        } else {
          inputKeys.push_back(expression::tryCast(other, columnType, context_));
          residual.push_back(conjunct);
        }
        lookupKeys.push_back(column);
        key = true;
      }
    }
    if (!key) residual.push_back(conjunct);
  }
  if (lookupKeys.empty()) {
    fail(join, "Temporal table join requires an equality condition on fields of table [" +
                   tableName + "].");
  }
  Relation result;
  result.node = std::make_shared<LogicalLookupJoin>(
      left.node, table, joinType, std::move(inputKeys), std::move(lookupKeys),
      residual.empty() ? nullptr : expression::conjunction(std::move(residual)));
  const auto& fields = result.node->rowType->getFields();
  result.scope = left.scope;
  result.scope.insert(result.scope.end(), right.scope.begin(), right.scope.end());
  for (size_t i = 0; i < result.scope.size(); ++i) result.scope[i].type = fields[i].type;
  return result;
}

Binder::Relation Binder::bindUsingJoin(const JoinReference& join, const Relation& left,
                                      const Relation& right,
                                      runtime::operators::JoinType joinType) {
  using runtime::operators::JoinType;
  // The visible column of a side called `name`; -1 when none.
  auto find = [&](const Scope& scope, const std::string& name, const char* side) {
    int found = -1;
    for (size_t i = 0; i < scope.size(); ++i) {
      if (scope[i].hidden || scope[i].name != name) continue;
      if (found >= 0) fail(join, "Column name '" + name + "' in USING clause is not unique on one side of join");
      found = static_cast<int>(i);
    }
    if (found < 0 && side) fail(join, "Column '" + name + "' not found in " + side + " table");
    return found;
  };
  std::vector<std::string> names = join.usingColumns;
  if (join.natural) {
    for (const ScopeColumn& column : left.scope) {
      if (!column.hidden && find(right.scope, column.name, nullptr) >= 0) names.push_back(column.name);
    }
  }
  std::vector<int> leftColumns;
  std::vector<int> rightColumns;
  std::vector<BoundPtr> equalities;
  const int leftArity = static_cast<int>(left.scope.size());
  for (const std::string& name : names) {
    if (std::count(names.begin(), names.end(), name) > 1) {
      fail(join, "Duplicate column name '" + name + "' in USING clause");
    }
    int l = find(left.scope, name, "left");
    int r = find(right.scope, name, "right");
    leftColumns.push_back(l);
    rightColumns.push_back(r);
    try {
      equalities.push_back(expression::call(
          "=", {expression::column(l, left.scope[l].type),
                expression::column(leftArity + r, right.scope[r].type)}));
    } catch (const ValidationException& error) {
      fail(join, "Column '" + name + "' matched using NATURAL keyword or USING clause has "
                 "incompatible types: " + error.what());
    }
  }
  BoundPtr condition = equalities.empty() ? nullptr : expression::conjunction(std::move(equalities));
  LogicalNodePtr joined = planJoin(left.node, right.node, joinType, condition);
  bool padLeft = joinType == JoinType::RIGHT || joinType == JoinType::FULL;
  bool padRight = joinType == JoinType::LEFT || joinType == JoinType::FULL;
  // Output: each USING column once (the left's value; the right's for a RIGHT join; COALESCE of
  // both for a FULL join), then both sides' columns, the merged ones hidden.
  std::vector<BoundPtr> projection;
  std::vector<std::string> outputNames;
  Relation result;
  const auto& fields = joined->rowType->getFields();
  for (size_t k = 0; k < names.size(); ++k) {
    BoundPtr l = expression::column(leftColumns[k], fields[leftColumns[k]].type);
    BoundPtr r = expression::column(leftArity + rightColumns[k], fields[leftArity + rightColumns[k]].type);
    BoundPtr merged = joinType == JoinType::RIGHT ? r
                      : joinType == JoinType::FULL ? expression::coalesce({l, r})
                                                    : l;
    result.scope.push_back(ScopeColumn{"", names[k], merged->type(), false});
    outputNames.push_back(names[k]);
    projection.push_back(std::move(merged));
  }
  for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
    bool fromLeft = i < leftArity;
    ScopeColumn column = fromLeft ? left.scope[i] : right.scope[i - leftArity];
    if (fromLeft ? padLeft : padRight) column.type = column.type->copy(true);
    const std::vector<int>& merged = fromLeft ? leftColumns : rightColumns;
    column.hidden = column.hidden ||
                    std::find(merged.begin(), merged.end(), fromLeft ? i : i - leftArity) != merged.end();
    projection.push_back(expression::column(i, fields[i].type));
    outputNames.push_back(fields[i].name);
    result.scope.push_back(std::move(column));
  }
  // Field names of a row are unique (the hidden columns become `uid0`, ... as Calcite names
  // repeated join columns); the scope keeps the names SQL refers to.
  std::set<std::string> used;
  for (std::string& name : outputNames) {
    std::string unique = name;
    for (int suffix = 0; !used.insert(unique).second; ++suffix) unique = name + std::to_string(suffix);
    name = unique;
  }
  result.node = std::make_shared<LogicalProject>(joined, std::move(projection), std::move(outputNames));
  return result;
}

int64_t Binder::windowIntervalMillis(const Expression& argument, const std::string& parameter) {
  BoundPtr bound = bindExpression(argument, Scope{}, nullptr);
  std::optional<Value> value;
  if (bound->isConstant()) value = expression::ExpressionEvaluator::evaluateConstant(bound);
  if (!value || value->isNull() || value->kind() != ValueKind::DURATION) {
    fail(argument, "The " + parameter +
                       " of a window must be a constant day-time interval such as INTERVAL '10' "
                       "MINUTE, but is '" + unparse(argument) + "'");
  }
  return value->get<Duration>().toMillis();
}

runtime::operators::WindowSpec Binder::windowSpecOf(const Node& at,
                                                    runtime::operators::WindowKind kind,
                                                    int timeColumn, const Scope& scope,
                                                    const Expression* size,
                                                    const Expression* slide,
                                                    const Expression* offset) {
  using runtime::operators::WindowKind;
  const LogicalType& timeType = *scope[timeColumn].type;
  if (timeType.getTimestampKind() == TimestampKind::REGULAR) {
    fail(at, "The window function requires the timecol is a time attribute type, but is " +
                 timeType.asSummaryString() + ".");
  }
  runtime::operators::WindowSpec window;
  window.kind = kind;
  window.timeColumn = timeColumn;
  window.processingTime = timeType.getTimestampKind() == TimestampKind::PROCTIME;
  const bool session = kind == WindowKind::SESSION;
  window.size = windowIntervalMillis(*size, session ? "gap" : "size");
  if (slide) {
    window.slide = windowIntervalMillis(*slide, kind == WindowKind::HOP ? "slide" : "step");
  }
  if (offset) window.offset = windowIntervalMillis(*offset, "offset");
  if (window.size <= 0) {
    fail(*size, std::string(session ? "The gap" : "The size") + " of a window must be positive");
  }
  if (slide && window.slide <= 0) fail(*slide, "The slide or step of a window must be positive");
  if (kind == WindowKind::CUMULATE && window.size % window.slide != 0) {
    fail(at, "CUMULATE table function based aggregate requires maxSize must be an integral "
             "multiple of step, but got maxSize " + std::to_string(window.size) +
             " ms and step " + std::to_string(window.slide) + " ms.");
  }
  if (window.processingTime ||
      timeType.getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
    window.timeZone = context_.sessionTimeZone;
  }
  return window;
}

Binder::Relation Binder::bindWindowTableFunction(const TableFunctionReference& reference) {
  using runtime::operators::WindowKind;
  const FunctionCallExpression& call = *reference.call;
  std::string name = call.name.size() == 1 ? upper(call.name[0]) : unparse(call);
  WindowKind kind;
  std::vector<std::string> parameters;
  if (name == "TUMBLE") {
    kind = WindowKind::TUMBLE;
    parameters = {"DATA", "TIMECOL", "SIZE", "OFFSET"};
  } else if (name == "HOP") {
    kind = WindowKind::HOP;
    parameters = {"DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"};
  } else if (name == "CUMULATE") {
    kind = WindowKind::CUMULATE;
    parameters = {"DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"};
  } else if (name == "SESSION") {
    kind = WindowKind::SESSION;
    parameters = {"DATA", "TIMECOL", "GAP"};
  } else {
    notSupported(reference, "The table function '" + name + "'");
  }
  if (reference.lateral) notSupported(reference, "LATERAL TABLE");
  // Positional arguments first, then named ones (`SIZE => INTERVAL ..`).
  std::map<std::string, const Expression*> arguments;
  for (size_t i = 0; i < call.arguments.size(); ++i) {
    const Expression& argument = *call.arguments[i];
    if (argument.is<NamedArgumentExpression>()) {
      const auto& named = argument.as<NamedArgumentExpression>();
      std::string parameter = upper(named.name);
      if (std::find(parameters.begin(), parameters.end(), parameter) == parameters.end()) {
        fail(argument, "Unknown parameter '" + named.name + "' of the window function " + name);
      }
      if (!arguments.emplace(parameter, named.value.get()).second) {
        fail(argument, "The parameter '" + named.name + "' is given twice");
      }
      continue;
    }
    if (i >= parameters.size()) {
      fail(argument, "Too many arguments for the window function " + name);
    }
    arguments[parameters[i]] = &argument;
  }
  const size_t required = kind == WindowKind::TUMBLE || kind == WindowKind::SESSION ? 3 : 4;
  for (size_t i = 0; i < required; ++i) {
    if (!arguments.count(parameters[i])) {
      fail(call, "The window function " + name + " requires the parameter " + parameters[i]);
    }
  }
  const Expression& data = *arguments["DATA"];
  if (!data.is<TableArgumentExpression>()) {
    fail(data, "The first argument of the window function " + name +
                   " must be a table, written TABLE name");
  }
  const auto& table = data.as<TableArgumentExpression>();
  NamedTableReference named;
  named.position = table.position;
  named.name = table.tableName;
  Relation relation = bindNamedTable(named);
  const Expression& descriptor = *arguments["TIMECOL"];
  if (!descriptor.is<DescriptorExpression>() ||
      descriptor.as<DescriptorExpression>().columns.size() != 1) {
    fail(descriptor, "The second argument of the window function " + name +
                         " must name one time attribute column, written DESCRIPTOR(column)");
  }
  const std::string& timeName = descriptor.as<DescriptorExpression>().columns[0];
  int timeColumn = -1;
  for (size_t c = 0; c < relation.scope.size(); ++c) {
    if (relation.scope[c].name == timeName) timeColumn = static_cast<int>(c);
  }
  if (timeColumn < 0) fail(descriptor, "Column '" + timeName + "' not found in the table");
  for (const std::string& key : table.partitionBy) {
    bool found = std::any_of(relation.scope.begin(), relation.scope.end(),
                             [&](const ScopeColumn& column) { return column.name == key; });
    if (!found) fail(table, "Column '" + key + "' not found in the table");
  }
  auto argumentOf = [&](const char* parameter) -> const Expression* {
    auto found = arguments.find(parameter);
    return found == arguments.end() ? nullptr : found->second;
  };
  const Expression* size = argumentOf(kind == WindowKind::SESSION ? "GAP" : "SIZE");
  const Expression* slide = kind == WindowKind::HOP        ? argumentOf("SLIDE")
                            : kind == WindowKind::CUMULATE ? argumentOf("STEP")
                                                           : nullptr;
  runtime::operators::WindowSpec window = windowSpecOf(descriptor, kind, timeColumn, relation.scope,
                                                       size, slide, argumentOf("OFFSET"));
  auto node = std::make_shared<LogicalWindowTableFunction>(relation.node, std::move(window));
  Relation result;
  result.node = node;
  const auto& fields = node->rowType->getFields();
  for (size_t c = 0; c < fields.size(); ++c) {
    result.scope.push_back(ScopeColumn{"", fields[c].name, fields[c].type, false});
  }
  return result;
}

namespace {
bool readsColumnAtOrAbove(const BoundPtr& e, int column) {
  if (e->kind() == expression::ExpressionKind::kColumnReference) {
    return static_cast<const expression::ColumnReference&>(*e).index() >= column;
  }
  for (const BoundPtr& child : e->children()) {
    if (readsColumnAtOrAbove(child, column)) return true;
  }
  return false;
}
}  // namespace

LogicalNodePtr planWindowAggregate(const LogicalNodePtr& pre, int groupCount,
                                   const std::vector<AggregateCall>& calls,
                                   const std::vector<std::string>& names) {
  using Output = runtime::operators::WindowAggregateSpec::OutputColumn;
  const auto* project = dynamic_cast<const LogicalProject*>(pre.get());
  if (!project) return nullptr;
  std::vector<BoundPtr> filters;
  LogicalNodePtr below = project->inputs[0];
  while (below->kind == LogicalNodeKind::kFilter) {
    filters.push_back(static_cast<const LogicalFilter&>(*below).condition);
    below = below->inputs[0];
  }
  const auto* function = dynamic_cast<const LogicalWindowTableFunction*>(below.get());
  if (!function) return nullptr;
  const LogicalNodePtr& data = function->inputs[0];
  const int arity = data->rowType->getFieldCount();
  for (const BoundPtr& filter : filters) {
    if (readsColumnAtOrAbove(filter, arity)) return nullptr;
  }
  const auto& preFields = pre->rowType->getFields();
  std::vector<BoundPtr> projection;
  std::vector<std::string> projectionNames;
  std::vector<int> keyColumns;
  std::vector<Output> outputs;
  bool hasStart = false;
  bool hasEnd = false;
  for (int k = 0; k < groupCount; ++k) {
    const BoundPtr& key = project->expressions[k];
    if (key->kind() == expression::ExpressionKind::kColumnReference &&
        static_cast<const expression::ColumnReference&>(*key).index() >= arity) {
      int property = static_cast<const expression::ColumnReference&>(*key).index() - arity;
      hasStart = hasStart || property == 0;
      hasEnd = hasEnd || property == 1;
      outputs.push_back(Output{property == 0   ? Output::Kind::WINDOW_START
                               : property == 1 ? Output::Kind::WINDOW_END
                                               : Output::Kind::WINDOW_TIME,
                               0});
      continue;
    }
    if (readsColumnAtOrAbove(key, arity)) return nullptr;
    outputs.push_back(Output{Output::Kind::KEY, static_cast<int>(keyColumns.size())});
    keyColumns.push_back(static_cast<int>(projection.size()));
    projection.push_back(key);
    projectionNames.push_back(preFields[k].name);
  }
  if (!hasStart || !hasEnd) return nullptr;
  // The aggregate arguments and filters, re-projected after the keys.
  std::map<int, int> moved;
  auto move = [&](int column) {
    if (column < 0) return column;
    auto found = moved.find(column);
    if (found != moved.end()) return found->second;
    int index = static_cast<int>(projection.size());
    projection.push_back(project->expressions[column]);
    projectionNames.push_back(preFields[column].name);
    moved.emplace(column, index);
    return index;
  };
  std::vector<AggregateCall> windowCalls = calls;
  for (size_t i = 0; i < windowCalls.size(); ++i) {
    for (int column : {windowCalls[i].argumentColumn, windowCalls[i].filterColumn}) {
      if (column >= 0 && readsColumnAtOrAbove(project->expressions[column], arity)) return nullptr;
    }
    windowCalls[i].argumentColumn = move(windowCalls[i].argumentColumn);
    windowCalls[i].filterColumn = move(windowCalls[i].filterColumn);
    outputs.push_back(Output{Output::Kind::CALL, static_cast<int>(i)});
  }
  runtime::operators::WindowSpec window = function->window;
  const RowField& timeField = data->rowType->getFields()[window.timeColumn];
  window.timeColumn = static_cast<int>(projection.size());
  projection.push_back(expression::column(function->window.timeColumn, timeField.type));
  projectionNames.push_back(timeField.name);
  LogicalNodePtr input = data;
  for (auto it = filters.rbegin(); it != filters.rend(); ++it) {
    input = std::make_shared<LogicalFilter>(input, *it);
  }
  input = std::make_shared<LogicalProject>(input, std::move(projection),
                                           uniquifyNames(projectionNames));
  return std::make_shared<LogicalWindowAggregate>(input, std::move(window), std::move(keyColumns),
                                                  std::move(windowCalls), std::move(outputs),
                                                  names);
}

Binder::Relation Binder::bindTableReference(const TableReference& reference) {
  switch (reference.kind) {
    case TableReferenceKind::kNamedTable:
      return renamed(bindNamedTable(reference.as<NamedTableReference>()), reference);
    case TableReferenceKind::kDerivedTable: {
      const auto& derived = reference.as<DerivedTableReference>();
      if (derived.lateral) notSupported(reference, "LATERAL");
      Relation relation = bindRelation(*derived.query);
      for (auto& column : relation.scope) column.qualifier.clear();
      return renamed(std::move(relation), reference);
    }
    case TableReferenceKind::kJoin:
      return bindJoin(reference.as<JoinReference>());
    case TableReferenceKind::kTableFunction:
      return renamed(bindWindowTableFunction(reference.as<TableFunctionReference>()), reference);
    case TableReferenceKind::kUnnest:
      return bindUnnest(reference.as<UnnestReference>(), nullptr, false);
  }
  notSupported(reference, "This FROM item");
}

BoundPtr Binder::bindIdentifier(const IdentifierExpression& identifier, const Scope& scope) {
  // `a.b.c` is, as in Calcite, table `a`'s column `b` with field `c` when `a` names a table in
  // scope, and otherwise column `a` with the field path `b.c`.
  const QualifiedName& names = identifier.names;
  bool qualified = names.size() >= 2 && std::any_of(scope.begin(), scope.end(), [&](const ScopeColumn& column) {
    return column.qualifier == names[0];
  });
  if (names.size() == 2 && !qualified && !std::any_of(scope.begin(), scope.end(), [&](const ScopeColumn& column) {
        return !column.hidden && column.name == names[0];
      })) {
    fail(identifier, "Table '" + names[0] + "' not found");
  }
  const std::string* qualifier = qualified ? &names[0] : nullptr;
  const std::string& name = names[qualified ? 1 : 0];
  int found = -1;
  for (size_t i = 0; i < scope.size(); ++i) {
    if (scope[i].name != name) continue;
    if (qualifier ? scope[i].qualifier != *qualifier : scope[i].hidden) continue;
    if (found >= 0) fail(identifier, "Column '" + name + "' is ambiguous");
    found = static_cast<int>(i);
  }
  if (found < 0) {
    std::string message = "Column '" + name + "' not found in ";
    message += qualifier ? "table '" + *qualifier + "'" : "any table";
    const ScopeColumn* nearest = nullptr;
    size_t best = std::max<size_t>(2, name.size() / 3) + 1;
    for (const ScopeColumn& column : scope) {
      if (qualifier ? column.qualifier != *qualifier : column.hidden) continue;
      size_t distance = editDistance(name, column.name);
      if (distance < best) {
        best = distance;
        nearest = &column;
      }
    }
    if (nearest) message += "; did you mean '" + nearest->name + "'?";
    fail(identifier, message);
  }
  BoundPtr result = expression::column(found, scope[found].type);
  for (size_t part = qualified ? 2 : 1; part < names.size(); ++part) {
    result = expression::fieldAccess(std::move(result), names[part]);
  }
  return result;
}

BoundPtr Binder::bindLiteral(const LiteralExpression& literal) {
  try {
    switch (literal.literalKind) {
      case LiteralKind::kExactNumeric: {
        if (literal.value.find('.') == std::string::npos) {
          // INT when it fits, else BIGINT, else DECIMAL (Calcite's exact numeric literals).
          try {
            size_t used = 0;
            long long number = std::stoll(literal.value, &used);
            if (number >= INT32_MIN && number <= INT32_MAX) {
              return expression::literal(Value(static_cast<int32_t>(number)));
            }
            return expression::literal(Value(static_cast<int64_t>(number)));
          } catch (const std::out_of_range&) {
          }
        }
        return expression::literal(Value(Decimal::fromString(literal.value)));
      }
      case LiteralKind::kApproximateNumeric:
        return expression::literal(Value(std::stod(literal.value)));
      case LiteralKind::kString:
        return expression::literal(Value(literal.value));
      case LiteralKind::kBoolean:
        return expression::literal(Value(literal.value == "TRUE"));
      case LiteralKind::kNull:
        return expression::nullLiteral();
      case LiteralKind::kDate:
        return expression::literal(Value(LocalDate::parse(literal.value)));
      case LiteralKind::kTime:
        return expression::literal(Value(LocalTime::parse(literal.value)));
      case LiteralKind::kTimestamp:
        return expression::literal(Value(LocalDateTime::parse(literal.value)));
      default:
        notSupported(literal, "This literal");
    }
  } catch (const ValidationException& error) {
    if (std::string(error.what()).rfind("SQL validation failed.", 0) == 0) throw;
    fail(literal, error.what());
  }
}

namespace {

/// `INTERVAL '5' MINUTE`: the value and type Flink gives interval literals (function/scalar/
/// temporal.h checks the text with Calcite's rules and messages).
BoundPtr bindIntervalLiteral(const IntervalLiteralExpression& interval) {
  auto field = [](TimeUnit unit) {
    switch (unit) {
      case TimeUnit::kYear:
        return function::IntervalField::kYear;
      case TimeUnit::kMonth:
        return function::IntervalField::kMonth;
      case TimeUnit::kDay:
        return function::IntervalField::kDay;
      case TimeUnit::kHour:
        return function::IntervalField::kHour;
      case TimeUnit::kMinute:
        return function::IntervalField::kMinute;
      case TimeUnit::kSecond:
        break;
    }
    return function::IntervalField::kSecond;
  };
  const IntervalQualifier& qualifier = interval.qualifier;
  std::optional<function::IntervalField> end;
  if (qualifier.end) end = field(*qualifier.end);
  auto [value, type] = function::intervalLiteral(interval.value, interval.negative,
                                                 field(qualifier.start), end,
                                                 qualifier.startPrecision);
  return expression::literal(std::move(value), std::move(type));
}

}  // namespace

BoundPtr Binder::bindJsonCall(const FunctionCallExpression& call, const Scope& scope,
                              const AggregateBinding* aggregates) {
  // The clauses become INT literal arguments of the functions (src/function/scalar/json.cpp).
  const std::string name = upper(call.name.back());
  const JsonClauses& clauses = *call.json;
  auto bind = [&](const Expression& node) { return bindExpression(node, scope, aggregates); };
  auto code = [](int32_t value) { return expression::literal(Value(value)); };
  auto illegal = [&](const std::string& behaviour) {
    fail(call, "Illegal behavior '" + behaviour + "' specified in " + name + " function");
  };
  if (name == "JSON_OBJECT" || name == "JSON_ARRAY") {
    const bool object = name == "JSON_OBJECT";
    const std::string onNull = clauses.onNull.empty() ? (object ? "NULL" : "ABSENT") : clauses.onNull;
    std::vector<BoundPtr> arguments{code(onNull == "ABSENT" ? 1 : 0)};
    for (size_t i = 0; i < call.arguments.size(); ++i) {
      arguments.push_back(bind(*call.arguments[i]));
      if (object && i % 2 == 0) continue;
      // A nested JSON_OBJECT/JSON_ARRAY is inserted as JSON, not as a string.
      arguments.push_back(expression::literal(Value(isJsonConstructorCall(*call.arguments[i]))));
    }
    return expression::call(name, std::move(arguments), context_);
  }
  std::vector<BoundPtr> arguments{bind(*call.arguments[0]), bind(*call.arguments[1])};
  if (name == "JSON_EXISTS") {
    if (clauses.onError.empty()) return expression::call(name, std::move(arguments), context_);
    static const std::map<std::string, int32_t> kModes = {
        {"FALSE", 0}, {"TRUE", 1}, {"UNKNOWN", 2}, {"ERROR", 3}};
    auto mode = kModes.find(clauses.onError);
    if (mode == kModes.end()) illegal(clauses.onError);
    arguments.push_back(code(mode->second));
    return expression::call(name, std::move(arguments), context_);
  }
  if (name == "JSON_VALUE") {
    if (!clauses.returning && clauses.onEmpty.empty() && clauses.onError.empty()) {
      return expression::call(name, std::move(arguments), context_);
    }
    LogicalTypePtr type = clauses.returning ? clauses.returning->copy(true)
                                            : LogicalType::varchar(LogicalType::kMaxLength, true);
    arguments.push_back(expression::literal(Value(), type));
    for (const auto& [behaviour, defaultValue] :
         {std::pair<const std::string&, const ExpressionPtr&>{clauses.onEmpty, clauses.emptyDefault},
          std::pair<const std::string&, const ExpressionPtr&>{clauses.onError, clauses.errorDefault}}) {
      if (behaviour != "" && behaviour != "NULL" && behaviour != "ERROR" && behaviour != "DEFAULT") {
        illegal(behaviour);
      }
      arguments.push_back(code(behaviour == "ERROR" ? 1 : behaviour == "DEFAULT" ? 2 : 0));
      arguments.push_back(defaultValue ? expression::castIfNeeded(bind(*defaultValue), type, context_)
                                       : expression::literal(Value(), type));
    }
    return expression::call(name, std::move(arguments), context_);
  }
  // JSON_QUERY.
  if (clauses.returning && !function::isCharacterString(*clauses.returning)) {
    notSupported(call, "JSON_QUERY RETURNING " + clauses.returning->asSummaryString());
  }
  if (clauses.wrapper.empty() && clauses.onEmpty.empty() && clauses.onError.empty()) {
    return expression::call(name, std::move(arguments), context_);
  }
  arguments.push_back(code(clauses.wrapper == "CONDITIONAL"     ? 1
                           : clauses.wrapper == "UNCONDITIONAL" ? 2
                                                                : 0));
  for (const std::string& behaviour : {clauses.onEmpty, clauses.onError}) {
    if (behaviour == "DEFAULT" || behaviour == "TRUE" || behaviour == "FALSE" ||
        behaviour == "UNKNOWN") {
      illegal(behaviour);
    }
    arguments.push_back(code(behaviour == "ERROR"          ? 1
                             : behaviour == "EMPTY ARRAY"  ? 2
                             : behaviour == "EMPTY OBJECT" ? 3
                                                           : 0));
  }
  return expression::call(name, std::move(arguments), context_);
}

BoundPtr Binder::bindFunctionCall(const FunctionCallExpression& call, const Scope& scope,
                                       const AggregateBinding* aggregates) {
  if (aggregateKindOf(call)) {
    if (aggregates) {
      auto it = aggregates->callColumns.find(&call);
      if (it != aggregates->callColumns.end()) {
        return expression::column(it->second, aggregates->outputTypes[it->second]);
      }
    }
    fail(call, std::string("Aggregate expression is illegal in ") +
                   (aggregates ? "this position" : "GROUP BY clause"));
  }
  if (call.name.size() == 1 && (upper(call.name[0]) == "GROUPING" || upper(call.name[0]) == "GROUPING_ID")) {
    if (!aggregates) fail(call, upper(call.name[0]) + " is allowed only above a GROUP BY");
    if (call.arguments.empty()) {
      fail(call, "Invalid number of arguments to function '" + upper(call.name[0]) + "'");
    }
    // GROUPING(a, b, ...) = flag(a) * 2^(n-1) + ... + flag(last).
    LogicalTypePtr flagType = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
    BoundPtr result;
    for (const auto& argument : call.arguments) {
      std::string text = unparse(*argument);
      auto position = std::find(aggregates->groupingTexts.begin(), aggregates->groupingTexts.end(), text);
      if (position == aggregates->groupingTexts.end()) {
        fail(*argument, "Argument to " + upper(call.name[0]) + " operator must be a grouped expression");
      }
      int key = static_cast<int>(position - aggregates->groupingTexts.begin());
      BoundPtr flag = aggregates->groupingFlagsOffset < 0
                          ? expression::literal(Value(int64_t{0}), flagType)
                          : expression::column(aggregates->groupingFlagsOffset + key, flagType);
      result = result ? expression::call("+", {expression::call("*", {result, expression::literal(Value(int64_t{2}), flagType)}), flag})
                      : flag;
    }
    return result;
  }
  if (call.syntax == FunctionSyntax::kJson) return bindJsonCall(call, scope, aggregates);
  if (call.syntax == FunctionSyntax::kOverlay) {
    // OVERLAY(s PLACING r FROM p [FOR n]) = SUBSTRING(s, 1, p - 1) || r || SUBSTRING(s, p + n),
    // n defaulting to CHAR_LENGTH(r) (Flink's definition, with SUBSTRING's clamping).
    BoundPtr text = bindExpression(*call.arguments[0], scope, aggregates);
    BoundPtr replacement = bindExpression(*call.arguments[1], scope, aggregates);
    BoundPtr position = bindExpression(*call.arguments[2], scope, aggregates);
    BoundPtr length = call.arguments.size() > 3
                          ? bindExpression(*call.arguments[3], scope, aggregates)
                          : expression::call("CHAR_LENGTH", {replacement});
    BoundPtr one = expression::literal(Value(int32_t{1}));
    BoundPtr head = expression::call(
        "SUBSTRING", {text, one, expression::call("-", {position, one}, context_)}, context_);
    BoundPtr tail = expression::call(
        "SUBSTRING", {text, expression::call("+", {position, length}, context_)}, context_);
    return expression::call(
        "||", {expression::call("||", {head, replacement}, context_), tail}, context_);
  }
  if (call.over) {
    auto rank = rankColumns_.find(&call);
    if (rank != rankColumns_.end()) {
      return expression::column(rank->second, LogicalType::simple(LogicalTypeRoot::BIGINT, false));
    }
    auto over = overColumns_.find(&call);
    if (over != overColumns_.end()) return expression::column(over->second.first, over->second.second);
    notSupported(call, "OVER windows");
  }
  if (call.distinct || call.filter) fail(call, "DISTINCT and FILTER apply only to aggregate functions");
  if (call.syntax == FunctionSyntax::kTrim && call.arguments.size() == 3 &&
      call.arguments[0]->is<SymbolExpression>()) {
    // TRIM([BOTH|LEADING|TRAILING] chars FROM s) is TRIM/LTRIM/RTRIM(s, chars).
    const std::string& flag = call.arguments[0]->as<SymbolExpression>().name;
    std::string function = flag == "LEADING" ? "LTRIM" : flag == "TRAILING" ? "RTRIM" : "TRIM";
    BoundPtr text = bindExpression(*call.arguments[2], scope, aggregates);
    BoundPtr characters = bindExpression(*call.arguments[1], scope, aggregates);
    try {
      return expression::call(function, {text, characters}, context_);
    } catch (const ValidationException& error) {
      fail(call, error.what());
    }
  }
  std::vector<BoundPtr> arguments;
  for (const auto& argument : call.arguments) {
    if (argument->is<SymbolExpression>()) {
      // The time unit of EXTRACT, FLOOR/CEIL .. TO, TIMESTAMPADD and TIMESTAMPDIFF reaches the
      // function as a character literal, whose value its binder reads.
      arguments.push_back(expression::literal(Value(argument->as<SymbolExpression>().name)));
      continue;
    }
    arguments.push_back(bindExpression(*argument, scope, aggregates));
  }
  if (call.name.size() == 1) {
    // Conditional functions are built from CASE (their NULL handling is not a function's).
    const std::string function = upper(call.name[0]);
    auto expect = [&](size_t count) {
      if (arguments.size() != count) {
        fail(call, "Invalid number of arguments to function '" + function + "'. Was expecting " +
                       std::to_string(count) + " arguments");
      }
    };
    try {
      if (function == "COALESCE") {
        if (arguments.empty()) fail(call, "Invalid number of arguments to function 'COALESCE'");
        return expression::coalesce(std::move(arguments));
      }
      if (function == "NULLIF") {
        expect(2);
        return expression::nullIf(arguments[0], arguments[1]);
      }
      if (function == "IF") {
        expect(3);
        return expression::ifThenElse(arguments[0], arguments[1], arguments[2]);
      }
    } catch (const ValidationException& error) {
      if (std::string(error.what()).rfind("SQL validation failed.", 0) == 0) throw;
      fail(call, error.what());
    }
  }
  std::string name;
  for (size_t i = 0; i < call.name.size(); ++i) name += (i ? "." : "") + call.name[i];
  try {
    return expression::call(name, std::move(arguments), context_, catalogManager_.functions());
  } catch (const ValidationException& error) {
    fail(call, error.what());
  }
}

BoundPtr Binder::bindExpression(const Expression& node, const Scope& scope,
                                     const AggregateBinding* aggregates) {
  // Above an aggregation, an expression that is a GROUP BY expression is its column.
  if (aggregates && !node.is<LiteralExpression>()) {
    std::string text = unparse(node);
    for (size_t i = 0; i < aggregates->groupingTexts.size(); ++i) {
      if (aggregates->groupingTexts[i] == text) {
        return expression::column(static_cast<int>(i), aggregates->outputTypes[i]);
      }
    }
    if (node.is<IdentifierExpression>()) {
      // The same column written otherwise (`t.k` for `GROUP BY k`).
      BoundPtr column;
      try {
        column = bindIdentifier(node.as<IdentifierExpression>(), scope);
      } catch (const ValidationException&) {
      }
      if (column && column->kind() == expression::ExpressionKind::kColumnReference) {
        const int index = static_cast<const expression::ColumnReference&>(*column).index();
        const auto& keys = aggregates->groupingInputColumns;
        auto position = std::find(keys.begin(), keys.end(), index);
        if (position != keys.end()) {
          size_t key = static_cast<size_t>(position - keys.begin());
          return expression::column(static_cast<int>(key), aggregates->outputTypes[key]);
        }
      }
      std::string written;
      for (const std::string& part : node.as<IdentifierExpression>().names) {
        written += (written.empty() ? "" : ".") + part;
      }
      fail(node, "Expression '" + written + "' is not being grouped");
    }
  }
  try {
    switch (node.kind) {
      case ExpressionKind::kIdentifier:
        return bindIdentifier(node.as<IdentifierExpression>(), scope);
      case ExpressionKind::kLiteral:
        return bindLiteral(node.as<LiteralExpression>());
      case ExpressionKind::kIntervalLiteral:
        return bindIntervalLiteral(node.as<IntervalLiteralExpression>());
      case ExpressionKind::kUnary: {
        const auto& unary = node.as<UnaryExpression>();
        BoundPtr operand = bindExpression(*unary.operand, scope, aggregates);
        switch (unary.op) {
          case UnaryOperator::kNot:
            return expression::call("NOT", {operand});
          case UnaryOperator::kMinus: {
            BoundPtr negated = expression::call("-", {operand});
            // A negative number is a literal (as Calcite's parser makes `-2`), so that functions
            // that need literal arguments (ROUND(x, -2)) take it.
            if (operand->kind() == expression::ExpressionKind::kLiteral &&
                function::isNumeric(*operand->type())) {
              if (std::optional<Value> value =
                      expression::ExpressionEvaluator::evaluateConstant(negated)) {
                return expression::literal(std::move(*value), negated->type());
              }
            }
            return negated;
          }
          case UnaryOperator::kPlus:
            return operand;
        }
        break;
      }
      case ExpressionKind::kBinary: {
        const auto& binary = node.as<BinaryExpression>();
        BoundPtr left = bindExpression(*binary.left, scope, aggregates);
        BoundPtr right = bindExpression(*binary.right, scope, aggregates);
        return expression::call(binaryOperatorText(binary.op), {left, right}, context_);
      }
      case ExpressionKind::kIs: {
        const auto& is = node.as<IsExpression>();
        BoundPtr operand = bindExpression(*is.operand, scope, aggregates);
        std::string name = std::string("IS ") + (is.negated ? "NOT " : "");
        auto jsonPredicate = [&](const char* predicate) {
          BoundPtr result = expression::call(predicate, {operand});
          return is.negated ? expression::call("NOT", {result}) : result;
        };
        switch (is.predicate) {
          case IsPredicate::kNull:
            name += "NULL";
            break;
          case IsPredicate::kTrue:
            name += "TRUE";
            break;
          case IsPredicate::kFalse:
            name += "FALSE";
            break;
          case IsPredicate::kUnknown:
            name += "NULL";  // UNKNOWN is the BOOLEAN NULL
            break;
          case IsPredicate::kJson:
          case IsPredicate::kJsonValue:
            return jsonPredicate("IS JSON VALUE");
          case IsPredicate::kJsonScalar:
            return jsonPredicate("IS JSON SCALAR");
          case IsPredicate::kJsonArray:
            return jsonPredicate("IS JSON ARRAY");
          case IsPredicate::kJsonObject:
            return jsonPredicate("IS JSON OBJECT");
        }
        return expression::call(name, {operand});
      }
      case ExpressionKind::kBetween: {
        const auto& between = node.as<BetweenExpression>();
        if (between.symmetric) notSupported(node, "BETWEEN SYMMETRIC");
        return expression::between(bindExpression(*between.operand, scope, aggregates),
                                   bindExpression(*between.lower, scope, aggregates),
                                   bindExpression(*between.upper, scope, aggregates),
                                   between.negated);
      }
      case ExpressionKind::kLike: {
        const auto& like = node.as<LikeExpression>();
        std::vector<BoundPtr> arguments{bindExpression(*like.operand, scope, aggregates),
                                             bindExpression(*like.pattern, scope, aggregates)};
        if (like.escape) arguments.push_back(bindExpression(*like.escape, scope, aggregates));
        BoundPtr result =
            expression::call(like.similarTo ? "SIMILAR TO" : "LIKE", std::move(arguments));
        return like.negated ? expression::call("NOT", {result}) : result;
      }
      case ExpressionKind::kIn: {
        const auto& in = node.as<InExpression>();
        if (in.subquery) return bindInSubquery(in, scope);
        std::vector<BoundPtr> list;
        for (const auto& value : in.values) list.push_back(bindExpression(*value, scope, aggregates));
        return expression::in(bindExpression(*in.operand, scope, aggregates), std::move(list),
                              in.negated);
      }
      case ExpressionKind::kCase: {
        const auto& caseNode = node.as<CaseExpression>();
        std::vector<BoundPtr> conditions, results;
        for (const auto& when : caseNode.whenClauses) {
          conditions.push_back(bindExpression(*when.condition, scope, aggregates));
          results.push_back(bindExpression(*when.result, scope, aggregates));
        }
        BoundPtr otherwise =
            caseNode.elseResult ? bindExpression(*caseNode.elseResult, scope, aggregates) : nullptr;
        if (caseNode.operand) {
          return expression::simpleCase(bindExpression(*caseNode.operand, scope, aggregates),
                                        std::move(conditions), std::move(results), otherwise);
        }
        return expression::caseWhen(std::move(conditions), std::move(results), otherwise);
      }
      case ExpressionKind::kCast: {
        const auto& castNode = node.as<CastExpression>();
        BoundPtr operand = bindExpression(*castNode.operand, scope, aggregates);
        return castNode.tryCast ? expression::tryCast(operand, castNode.targetType, context_)
                                : expression::cast(operand, castNode.targetType, context_);
      }
      case ExpressionKind::kFunctionCall:
        return bindFunctionCall(node.as<FunctionCallExpression>(), scope, aggregates);
      case ExpressionKind::kFieldAccess: {
        const auto& access = node.as<FieldAccessExpression>();
        return expression::fieldAccess(bindExpression(*access.base, scope, aggregates),
                                       access.field);
      }
      case ExpressionKind::kConstructor: {
        const auto& constructor = node.as<ConstructorExpression>();
        if (constructor.elements.empty()) fail(node, "Require at least 1 argument");
        std::vector<BoundPtr> elements;
        for (const auto& element : constructor.elements) {
          elements.push_back(bindExpression(*element, scope, aggregates));
        }
        switch (constructor.constructorKind) {
          case ConstructorKind::kArray:
            return expression::call("ARRAY", std::move(elements), context_);
          case ConstructorKind::kMap:
            return expression::call("MAP", std::move(elements), context_);
          case ConstructorKind::kRow:
            return expression::call("ROW", std::move(elements), context_);
        }
        break;
      }
      case ExpressionKind::kElementAccess: {
        const auto& access = node.as<ElementAccessExpression>();
        return expression::call("ITEM",
                                {bindExpression(*access.base, scope, aggregates),
                                 bindExpression(*access.index, scope, aggregates)},
                                context_);
      }
      case ExpressionKind::kStar:
        fail(node, "'*' is only allowed in the SELECT list and in COUNT(*)");
      case ExpressionKind::kSubquery:
        return bindScalarSubquery(node, *node.as<SubqueryExpression>().query, scope);
      case ExpressionKind::kExists: {
        const Query& query = *node.as<ExistsExpression>().query;
        if (aggregatesWithoutGroupBy(query)) {
          // An aggregation without GROUP BY has one row, whatever it aggregates: TRUE (once the
          // subquery is known to be valid).
          Correlation correlation;
          correlation.allowResiduals = true;
          correlation.validateOnly = true;
          bindCorrelated(query, scope, correlation);
          return expression::literal(Value(true));
        }
        // WHERE EXISTS (...) AND ...: a semi join; elsewhere the marker of a LEFT join.
        bool topLevel = std::find(topLevelConjuncts_.begin(), topLevelConjuncts_.end(), &node) !=
                        topLevelConjuncts_.end();
        // With a correlation other than `inner = outer`: WHERE [NOT] EXISTS is a semi (anti)
        // join; the conjunct is then TRUE (NOT FALSE) for the rows it leaves.
        const bool negatedTopLevel =
            std::any_of(topLevelConjuncts_.begin(), topLevelConjuncts_.end(),
                        [&](const Expression* conjunct) {
                          return conjunct->is<UnaryExpression>() &&
                                 conjunct->as<UnaryExpression>().op == UnaryOperator::kNot &&
                                 conjunct->as<UnaryExpression>().operand.get() == &node;
                        });
        std::optional<SubqueryRows> rows;
        if ((topLevel || negatedTopLevel) && subqueryInput_) {
          rows = bindSubqueryRows(query, scope, false, /*allowResiduals=*/true);
          if (!rows->residuals.empty()) {
            semiJoinSubquery(std::move(*rows), scope, nullptr, negatedTopLevel);
            return expression::literal(Value(!negatedTopLevel));
          }
        }
        return expression::call(
            "IS NOT NULL", {markSubquery(node, query, scope, nullptr, topLevel,
                                         rows ? &*rows : nullptr)});
      }
      default:
        notSupported(node, "The expression '" + unparse(node) + "'");
    }
  } catch (const ValidationException& error) {
    if (std::string(error.what()).rfind("SQL validation failed.", 0) == 0) throw;
    fail(node, error.what());
  }
  notSupported(node, "The expression '" + unparse(node) + "'");
}

namespace {

/// A Top-N below `node`: the Rank itself, or a projection of plain columns over it. Returns the
/// rank and the position of the rank column in `node`'s output (-1 when not found).
std::pair<const LogicalRank*, int> rankBelow(const LogicalNodePtr& node) {
  if (node->kind == LogicalNodeKind::kRank) {
    const auto* rank = static_cast<const LogicalRank*>(node.get());
    if (!rank->outputRankNumber) return {nullptr, -1};
    return {rank, node->rowType->getFieldCount() - 1};
  }
  if (node->kind != LogicalNodeKind::kProject || node->inputs[0]->kind != LogicalNodeKind::kRank) {
    return {nullptr, -1};
  }
  const auto* rank = static_cast<const LogicalRank*>(node->inputs[0].get());
  if (!rank->outputRankNumber) return {nullptr, -1};
  const int rankColumn = rank->rowType->getFieldCount() - 1;
  int position = -1;
  const auto& projections = static_cast<const LogicalProject&>(*node).expressions;
  for (size_t i = 0; i < projections.size(); ++i) {
    if (projections[i]->kind() != expression::ExpressionKind::kColumnReference) return {nullptr, -1};
    if (static_cast<const expression::ColumnReference&>(*projections[i]).index() == rankColumn) {
      position = static_cast<int>(i);
    }
  }
  return {rank, position};
}

/// `node` with its rank replaced (a projection over it is kept, minus `dropColumn` if >= 0).
LogicalNodePtr replaceRank(const LogicalNodePtr& node, std::shared_ptr<const LogicalRank> rank,
                           int dropColumn) {
  if (node->kind == LogicalNodeKind::kRank) return rank;
  const auto& project = static_cast<const LogicalProject&>(*node);
  std::vector<expression::ExpressionPtr> expressions;
  std::vector<std::string> names;
  const auto& fields = node->rowType->getFields();
  for (size_t i = 0; i < project.expressions.size(); ++i) {
    if (static_cast<int>(i) == dropColumn) continue;
    expressions.push_back(project.expressions[i]);
    names.push_back(fields[i].name);
  }
  return std::make_shared<LogicalProject>(rank, std::move(expressions), std::move(names));
}

std::optional<int64_t> integerConstant(const expression::ExpressionPtr& expression) {
  if (!expression->isConstant()) return std::nullopt;
  std::optional<Value> value = expression::ExpressionEvaluator::evaluateConstant(expression);
  if (!value || value->isNull()) return std::nullopt;
  if (value->kind() == ValueKind::INT) return value->get<int32_t>();
  if (value->kind() == ValueKind::BIGINT) return value->get<int64_t>();
  return std::nullopt;
}

}  // namespace

LogicalNodePtr pushRankFilter(const LogicalNodePtr& input, const expression::ExpressionPtr& condition) {
  auto [rank, rankColumn] = rankBelow(input);
  if (!rank || rankColumn < 0 || rank->rankEnd != INT64_MAX || rank->rankStart != 1) return nullptr;
  int64_t start = 1, end = INT64_MAX;
  std::vector<expression::ExpressionPtr> rest;
  bool bounded = false;
  for (const auto& conjunct : expression::conjunctsOf(condition)) {
    const auto& children = conjunct->children();
    bool used = false;
    if (conjunct->kind() == expression::ExpressionKind::kCall && children.size() == 2) {
      const std::string& op = static_cast<const expression::Call&>(*conjunct).function().name();
      auto isRank = [&](const expression::ExpressionPtr& e) {
        const expression::ExpressionPtr* inner = &e;
        while ((*inner)->kind() == expression::ExpressionKind::kCast) inner = &(*inner)->children()[0];
        return (*inner)->kind() == expression::ExpressionKind::kColumnReference &&
               static_cast<const expression::ColumnReference&>(**inner).index() == rankColumn;
      };
      std::string effective = op;
      std::optional<int64_t> bound;
      if (isRank(children[0])) {
        bound = integerConstant(children[1]);
      } else if (isRank(children[1])) {
        bound = integerConstant(children[0]);
        // Mirror the comparison: `5 >= rn` is `rn <= 5`.
        if (op == "<") effective = ">";
        else if (op == "<=") effective = ">=";
        else if (op == ">") effective = "<";
        else if (op == ">=") effective = "<=";
      }
      if (bound) {
        used = true;
        if (effective == "<=") {
          end = std::min(end, *bound);
        } else if (effective == "<") {
          end = std::min(end, *bound - 1);
        } else if (effective == "=") {
          start = std::max(start, *bound);
          end = std::min(end, *bound);
        } else if (effective == ">=") {
          start = std::max(start, *bound);
        } else if (effective == ">") {
          start = std::max(start, *bound + 1);
        } else {
          used = false;
        }
      }
    }
    if (used) {
      bounded = true;
    } else {
      rest.push_back(conjunct);
    }
  }
  if (!bounded || end == INT64_MAX) return nullptr;
  start = std::max<int64_t>(start, 1);
  LogicalNodePtr result = replaceRank(input, rank->with(start, std::max(end, start - 1), true), -1);
  if (!rest.empty()) result = std::make_shared<LogicalFilter>(result, expression::conjunction(rest));
  return result;
}

LogicalNodePtr pruneRankNumber(const LogicalNodePtr& input,
                               std::vector<expression::ExpressionPtr>& projections) {
  // The rank column unused above a Top-N (optionally under a filter that does not read it):
  // Flink then emits +I/-D only, without rank updates.
  const LogicalFilter* filter = input->kind == LogicalNodeKind::kFilter
                                    ? static_cast<const LogicalFilter*>(input.get())
                                    : nullptr;
  const LogicalNodePtr& below = filter ? input->inputs[0] : input;
  auto [rank, rankColumn] = rankBelow(below);
  if (!rank || rank->rankEnd == INT64_MAX) return input;
  std::vector<int> used;
  for (const auto& projection : projections) expression::collectColumns(projection, used);
  if (filter) expression::collectColumns(filter->condition, used);
  if (std::find(used.begin(), used.end(), rankColumn) != used.end()) return input;
  if (rankColumn < 0) {
    // The projection below never reads it: the rank is the last column, nothing shifts.
    LogicalNodePtr result = replaceRank(below, rank->with(rank->rankStart, rank->rankEnd, false), -1);
    return filter ? std::make_shared<LogicalFilter>(result, filter->condition) : result;
  }
  auto shift = [rankColumn](int column) { return column > rankColumn ? column - 1 : column; };
  LogicalNodePtr result = replaceRank(below, rank->with(rank->rankStart, rank->rankEnd, false),
                                      below->kind == LogicalNodeKind::kRank ? -1 : rankColumn);
  if (filter) {
    result = std::make_shared<LogicalFilter>(result, expression::remapColumns(filter->condition, shift));
  }
  for (auto& projection : projections) projection = expression::remapColumns(projection, shift);
  return result;
}

/// Sets the relation subqueries join onto while one clause is bound (and clears the
/// top-level conjunct list), restoring the enclosing clause's afterwards.
struct Binder::SubqueryScope {
  SubqueryScope(Binder& binder, Relation* input, const AggregateBinding* aggregates = nullptr)
      : binder_(binder),
        savedInput_(binder.subqueryInput_),
        savedAggregates_(binder.subqueryAggregates_),
        savedConjuncts_(std::move(binder.topLevelConjuncts_)) {
    binder.subqueryInput_ = input;
    binder.subqueryAggregates_ = aggregates;
    binder.topLevelConjuncts_.clear();
  }
  ~SubqueryScope() {
    binder_.subqueryInput_ = savedInput_;
    binder_.subqueryAggregates_ = savedAggregates_;
    binder_.topLevelConjuncts_ = std::move(savedConjuncts_);
  }
  Binder& binder_;
  Relation* savedInput_;
  const AggregateBinding* savedAggregates_;
  std::vector<const Expression*> savedConjuncts_;
};

BoundPtr Binder::bindCorrelatedWhere(const Expression& where, Relation& input,
                                     Correlation& correlation) {
  std::vector<const Expression*> conjuncts;
  collectConjuncts(where, conjuncts);
  auto binds = [&](const Expression& e, const Scope& scope,
                   const AggregateBinding* aggregates) -> BoundPtr {
    try {
      return bindExpression(e, scope, aggregates);
    } catch (const ValidationException&) {
      return nullptr;
    }
  };
  std::vector<BoundPtr> filters;
  for (const Expression* conjunct : conjuncts) {
    // A conjunct over the subquery's own columns (it may hold subqueries of its own).
    std::exception_ptr ownError;
    LogicalNodePtr before = input.node;
    try {
      SubqueryScope subqueries(*this, &input);
      topLevelConjuncts_ = {conjunct};
      filters.push_back(bindExpression(*conjunct, input.scope, nullptr));
      continue;
    } catch (const ValidationException&) {
      ownError = std::current_exception();
      input.node = before;
    }
    // Otherwise a correlation `inner = outer` (or the reverse).
    bool correlated = false;
    std::exception_ptr outerError;  // an outer column that is not grouped, above GROUP BY
    if (conjunct->is<BinaryExpression>() &&
        conjunct->as<BinaryExpression>().op == BinaryOperator::kEquals) {
      const auto& equals = conjunct->as<BinaryExpression>();
      for (int attempt = 0; attempt < 2 && !correlated; ++attempt) {
        const Expression& innerSide = attempt == 0 ? *equals.left : *equals.right;
        const Expression& outerSide = attempt == 0 ? *equals.right : *equals.left;
        BoundPtr inner = binds(innerSide, input.scope, nullptr);
        BoundPtr outerKey;
        if (inner) {
          try {
            outerKey = bindExpression(outerSide, *correlation.outerScope, correlation.outerAggregates);
          } catch (const ValidationException&) {
            if (correlation.outerAggregates && binds(outerSide, *correlation.outerScope, nullptr)) {
              outerError = std::current_exception();
            }
          }
        }
        if (inner && outerKey) {
          try {
            (void)expression::call("=", {inner, outerKey});  // checks the types
          } catch (const ValidationException& error) {
            fail(*conjunct, error.what());
          }
          correlation.innerKeys.push_back(inner);
          correlation.outerKeys.push_back(outerKey);
          correlated = true;
        }
      }
    }
    if (!correlated) {
      if (outerError) std::rethrow_exception(outerError);
      // A subquery of the subquery reports its own error; other conditions the error over
      // both queries' columns, which names what is unknown in either.
      auto isSubquery = [](const Expression& e) {
        return e.is<SubqueryExpression>() || e.is<ExistsExpression>() ||
               (e.is<InExpression>() && e.as<InExpression>().subquery);
      };
      if (isSubquery(*conjunct) ||
          (conjunct->is<BinaryExpression>() &&
           (isSubquery(*conjunct->as<BinaryExpression>().left) ||
            isSubquery(*conjunct->as<BinaryExpression>().right)))) {
        std::rethrow_exception(ownError);
      }
      // An unqualified name is the subquery's column where it has one (the innermost scope
      // first, as in Calcite): an outer column of the same name is reachable only qualified.
      Scope combined = input.scope;
      for (ScopeColumn column : *correlation.outerScope) {
        column.hidden = column.hidden ||
                        std::any_of(input.scope.begin(), input.scope.end(),
                                    [&](const ScopeColumn& inner) { return inner.name == column.name; });
        combined.push_back(std::move(column));
      }
      BoundPtr residual;
      try {
        residual = bindExpression(*conjunct, combined, nullptr);
      } catch (const ValidationException&) {
        // A name of a query further out: a correlation two levels out.
        Scope everything = combined;
        for (size_t i = 0; i + 1 < enclosingScopes_.size(); ++i) {
          everything.insert(everything.end(), enclosingScopes_[i]->begin(),
                            enclosingScopes_[i]->end());
        }
        if (everything.size() > combined.size() && binds(*conjunct, everything, nullptr)) {
          notSupported(*conjunct, "A subquery correlated to a query two levels out");
        }
        throw;
      }
      if (correlation.outerAggregates) {
        notSupported(*conjunct,
                     "A correlated subquery condition other than `inner = outer` above GROUP BY "
                     "(in the select list or HAVING of an aggregating query)");
      }
      if (!correlation.outerInput) {
        notSupported(*conjunct,
                     "A correlated subquery condition other than `inner = outer` in this clause");
      }
      if (residual->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
        fail(*conjunct, "WHERE clause must be a condition");
      }
      // Evaluated by the semi (anti) join: the subquery carries the inner columns it reads.
      correlation.inputArity = static_cast<int>(input.scope.size());
      std::vector<int> columns;
      expression::collectColumns(residual, columns);
      for (int column : columns) {
        if (column < correlation.inputArity &&
            std::find(correlation.carried.begin(), correlation.carried.end(), column) ==
                correlation.carried.end()) {
          correlation.carried.push_back(column);
        }
      }
      correlation.residuals.push_back(std::move(residual));
    }
  }
  return filters.empty() ? nullptr : expression::conjunction(std::move(filters));
}

namespace {

/// A constant of `type` (NOT NULL) that stands for NULL in a NULL-safe key (paired with an IS
/// NULL flag, so any value does): 0, '', FALSE, the epoch; null for other types.
BoundPtr nullReplacementOf(const LogicalTypePtr& type) {
  const LogicalTypePtr notNull = type->copy(false);
  BoundPtr constant;
  switch (type->getTypeRoot()) {
    case LogicalTypeRoot::TINYINT:
    case LogicalTypeRoot::SMALLINT:
    case LogicalTypeRoot::INTEGER:
    case LogicalTypeRoot::BIGINT:
    case LogicalTypeRoot::DECIMAL:
    case LogicalTypeRoot::FLOAT:
    case LogicalTypeRoot::DOUBLE:
      constant = expression::literal(Value(int32_t{0}));
      break;
    case LogicalTypeRoot::CHAR:
    case LogicalTypeRoot::VARCHAR:
      constant = expression::literal(Value(std::string("")));
      break;
    case LogicalTypeRoot::BOOLEAN:
      return expression::literal(Value(false));
    case LogicalTypeRoot::DATE:
      constant = expression::literal(Value(std::string("1970-01-01")));
      break;
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      constant = expression::literal(Value(std::string("1970-01-01 00:00:00")));
      break;
    case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
      constant = expression::literal(Value(std::string("00:00:00")));
      break;
    case LogicalTypeRoot::BINARY:
    case LogicalTypeRoot::VARBINARY:
      constant = expression::literal(Value(std::string("")));
      break;
    default:
      return nullptr;
  }
  try {
    std::optional<Value> value = expression::ExpressionEvaluator::evaluateConstant(
        expression::castIfNeeded(constant, notNull, function::BindingContext{}));
    if (!value || value->isNull()) return nullptr;
    return expression::literal(std::move(*value), notNull);
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

void Binder::decorrelateResiduals(const Node& at, Relation& input, Correlation& correlation) {
  const int inputArity = correlation.inputArity;
  if (input.node->rowType->getFieldCount() != inputArity ||
      static_cast<int>(input.scope.size()) != inputArity) {
    notSupported(at, "A correlated subquery condition other than `inner = outer` beside a "
                     "subquery in the same WHERE");
  }
  // The outer columns read, in order: by the conditions (after the input's columns) and by
  // the keys (over the outer scope).
  std::vector<int> outerColumns;
  auto addOuter = [&outerColumns](int column) {
    if (std::find(outerColumns.begin(), outerColumns.end(), column) == outerColumns.end()) {
      outerColumns.push_back(column);
    }
  };
  for (const BoundPtr& residual : correlation.residuals) {
    std::vector<int> columns;
    expression::collectColumns(residual, columns);
    for (int column : columns) {
      if (column >= inputArity) addOuter(column - inputArity);
    }
  }
  for (const BoundPtr& key : correlation.outerKeys) {
    std::vector<int> columns;
    expression::collectColumns(key, columns);
    for (int column : columns) addOuter(column);
  }
  std::sort(outerColumns.begin(), outerColumns.end());
  // The value generator: the distinct values of those outer columns.
  const auto& outerFields = correlation.outerInput->rowType->getFields();
  std::vector<BoundPtr> projected;
  std::vector<std::string> names;
  for (size_t k = 0; k < outerColumns.size(); ++k) {
    const int column = outerColumns[k];
    projected.push_back(
        expression::column(column, outerFields[static_cast<size_t>(column)].type));
    names.push_back("$outer" + std::to_string(k));
  }
  std::vector<int> grouping(outerColumns.size());
  std::iota(grouping.begin(), grouping.end(), 0);
  LogicalNodePtr values = std::make_shared<LogicalAggregate>(
      std::make_shared<LogicalProject>(correlation.outerInput, projected, names), grouping,
      std::vector<AggregateCall>{}, std::vector<std::string>{});
  // The input joined with them on the conditions and the keys: over (input, values), outer
  // column j is values' column of j.
  auto valueColumn = [&](int outerColumn) {
    const auto position = std::find(outerColumns.begin(), outerColumns.end(), outerColumn) -
                          outerColumns.begin();
    return inputArity + static_cast<int>(position);
  };
  std::vector<BoundPtr> conditions;
  for (const BoundPtr& residual : correlation.residuals) {
    conditions.push_back(expression::remapColumns(residual, [&](int column) {
      return column < inputArity ? column : valueColumn(column - inputArity);
    }));
  }
  for (size_t k = 0; k < correlation.innerKeys.size(); ++k) {
    conditions.push_back(expression::call(
        "=", {correlation.innerKeys[k],
              expression::remapColumns(correlation.outerKeys[k], valueColumn)}));
  }
  input.node = planJoin(input.node, values, runtime::operators::JoinType::INNER,
                        expression::conjunction(conditions));
  // The subquery is now correlated by those values alone, compared NULL-safely (Calcite's IS
  // NOT DISTINCT FROM: an outer row whose value is NULL finds the rows the conditions gave its
  // NULL): a nullable value is two keys, whether it is NULL and the value with NULL replaced.
  correlation.innerKeys.clear();
  correlation.outerKeys.clear();
  for (size_t k = 0; k < outerColumns.size(); ++k) {
    const LogicalTypePtr& type = outerFields[static_cast<size_t>(outerColumns[k])].type;
    input.scope.push_back(ScopeColumn{"", names[k], type, /*hidden=*/true});
    BoundPtr inner = expression::column(inputArity + static_cast<int>(k), type);
    BoundPtr outerValue = expression::column(outerColumns[k], type);
    BoundPtr replacement = type->isNullable() ? nullReplacementOf(type) : nullptr;
    if (type->isNullable() && !replacement) {
      // A NULL of it would match nothing: refused rather than wrong.
      notSupported(at, "A correlated subquery condition other than `inner = outer` that reads an "
                       "outer column of type " + type->asSummaryString());
    }
    if (!replacement) {
      correlation.innerKeys.push_back(std::move(inner));
      correlation.outerKeys.push_back(std::move(outerValue));
      continue;
    }
    correlation.innerKeys.push_back(expression::call("IS NULL", {inner}));
    correlation.outerKeys.push_back(expression::call("IS NULL", {outerValue}));
    correlation.innerKeys.push_back(expression::coalesce({inner, replacement}));
    correlation.outerKeys.push_back(expression::coalesce({outerValue, replacement}));
  }
  correlation.residuals.clear();
  correlation.carried.clear();
}

Binder::Relation Binder::bindCorrelated(const Query& query, const Scope& outer,
                                        Correlation& correlation) {
  correlation.outerScope = &outer;
  correlation.outerAggregates = subqueryAggregates_;  // before the scope below clears it
  if (subqueryInput_) correlation.outerInput = subqueryInput_->node;
  SubqueryScope none(*this, nullptr);
  struct Enclosing {
    Enclosing(std::vector<const Scope*>& scopes, const Scope* scope) : scopes_(scopes) {
      scopes_.push_back(scope);
    }
    ~Enclosing() { scopes_.pop_back(); }
    std::vector<const Scope*>& scopes_;
  } enclosing(enclosingScopes_, &outer);
  if (query.is<SelectQuery>()) return bindSelect(query.as<SelectQuery>(), &correlation);
  return bindRelation(query);
}

Binder::SubqueryRows Binder::bindSubqueryRows(const Query& query, const Scope& outer,
                                              bool needsValue, bool allowResiduals) {
  Correlation correlation;
  correlation.allowResiduals = allowResiduals;
  Relation relation = bindCorrelated(query, outer, correlation);
  size_t keyCount = correlation.innerKeys.size();
  if (!correlation.emptyGroupValues.empty()) {
    notSupported(query, "A correlated IN or EXISTS subquery that aggregates without GROUP BY");
  }
  SubqueryRows rows;
  rows.node = relation.node;
  for (size_t i = 0; i < keyCount; ++i) {
    rows.innerKeys.push_back(expression::column(static_cast<int>(i), relation.scope[i].type));
  }
  rows.outerKeys = std::move(correlation.outerKeys);
  if (!correlation.residuals.empty()) {
    // Over the subquery's output (keys, carried columns, items) followed by the outer scope:
    // an input column read is the carried column it became, outer column j follows the output.
    const int inputArity = correlation.inputArity;
    const int nodeArity = static_cast<int>(relation.scope.size());
    const std::vector<int>& carried = correlation.carried;
    auto map = [&](int column) {
      if (column >= inputArity) return nodeArity + column - inputArity;
      const auto position = std::find(carried.begin(), carried.end(), column) - carried.begin();
      return static_cast<int>(keyCount + static_cast<size_t>(position));
    };
    for (const BoundPtr& residual : correlation.residuals) {
      rows.residuals.push_back(expression::remapColumns(residual, map));
    }
    keyCount += correlation.carried.size();  // the value follows the carried columns
  }
  if (needsValue) {
    if (relation.scope.size() != keyCount + 1) {
      fail(query, "The subquery of IN must return exactly one column; it returns " +
                      std::to_string(relation.scope.size() - keyCount));
    }
    rows.value = expression::column(static_cast<int>(keyCount), relation.scope[keyCount].type);
  }
  return rows;
}

namespace {

/// An aggregation for a subquery's side of a join: `columns` over `input`, grouped by the first
/// `groupCount` of them, with `calls` over the columns (named `callNames`). Where the keys
/// include a window's start and end (a correlation `L.window_start = R.window_start AND
/// L.window_end = R.window_end` over a window TVF) it is a window aggregation, which emits each
/// window's rows when the window closes and is insert-only, so the join on it becomes a window
/// join (Flink's window semi and anti joins: insert-only, state released with the window); else
/// a GroupAggregate.
LogicalNodePtr subqueryAggregate(const LogicalNodePtr& input, std::vector<BoundPtr> columns,
                                 std::vector<std::string> names, int groupCount,
                                 std::vector<AggregateCall> calls,
                                 std::vector<std::string> callNames) {
  LogicalNodePtr pre;
  const bool mergeable =
      input->kind == LogicalNodeKind::kProject &&
      std::all_of(static_cast<const LogicalProject&>(*input).expressions.begin(),
                  static_cast<const LogicalProject&>(*input).expressions.end(),
                  [](const BoundPtr& e) { return e->isDeterministic(); });
  if (mergeable) {
    // One projection over the subquery's input (as ProjectMerge would make it), so that a
    // window table function below it is seen.
    const auto& inner = static_cast<const LogicalProject&>(*input).expressions;
    std::vector<BoundPtr> merged;
    for (const BoundPtr& column : columns) merged.push_back(expression::inlineColumns(column, inner));
    pre = std::make_shared<LogicalProject>(input->inputs[0], std::move(merged), names);
  } else {
    pre = std::make_shared<LogicalProject>(input, std::move(columns), names);
  }
  std::vector<std::string> outputNames(names.begin(), names.begin() + groupCount);
  outputNames.insert(outputNames.end(), callNames.begin(), callNames.end());
  if (LogicalNodePtr window = planWindowAggregate(pre, groupCount, calls, outputNames)) {
    return window;
  }
  std::vector<int> grouping(static_cast<size_t>(groupCount));
  std::iota(grouping.begin(), grouping.end(), 0);
  return std::make_shared<LogicalAggregate>(pre, std::move(grouping), std::move(calls),
                                            std::move(callNames));
}

}  // namespace

BoundPtr Binder::markSubquery(const Expression& node, const Query& query, const Scope& scope,
                              const Expression* inOperand, bool semi, SubqueryRows* bound) {
  if (!subqueryInput_) notSupported(node, "A subquery in this clause");
  Relation& outer = *subqueryInput_;
  BoundPtr operand = inOperand ? bindExpression(*inOperand, scope, subqueryAggregates_) : nullptr;
  SubqueryRows rows =
      bound ? std::move(*bound) : bindSubqueryRows(query, scope, inOperand != nullptr);
  // The subquery's side: (TRUE, value?, inner keys...), distinct, so each outer row has at
  // most one partner.
  std::vector<BoundPtr> columns = {expression::literal(Value(true))};
  std::vector<std::string> names = {"$marker"};
  if (rows.value) {
    columns.push_back(rows.value);
    names.push_back("$value");
  }
  for (size_t i = 0; i < rows.innerKeys.size(); ++i) {
    columns.push_back(rows.innerKeys[i]);
    names.push_back("$key" + std::to_string(i));
  }
  const int columnCount = static_cast<int>(columns.size());
  LogicalNodePtr right =
      subqueryAggregate(rows.node, std::move(columns), std::move(names), columnCount, {}, {});
  // The join condition over (outer columns, right columns).
  const int outerArity = outer.node->rowType->getFieldCount();
  const auto& rightFields = right->rowType->getFields();
  std::vector<BoundPtr> conditions;
  int column = outerArity + 1;
  if (rows.value) {
    conditions.push_back(expression::call("=", {operand, expression::column(column, rightFields[1].type)}));
    ++column;
  }
  for (const BoundPtr& key : rows.outerKeys) {
    conditions.push_back(expression::call(
        "=", {key, expression::column(column, rightFields[column - outerArity].type)}));
    ++column;
  }
  // A semi join (a WHERE conjunct that keeps only matched rows) is an INNER join with the
  // distinct partners: insert-only over insert-only inputs, as Flink's semi join.
  outer.node = planJoin(outer.node, right,
                        semi ? runtime::operators::JoinType::INNER : runtime::operators::JoinType::LEFT,
                        conditions.empty() ? nullptr : expression::conjunction(conditions));
  return expression::column(outerArity, LogicalType::simple(LogicalTypeRoot::BOOLEAN, semi ? false : true));
}

void Binder::semiJoinSubquery(SubqueryRows rows, const Scope& scope, const Expression* inOperand,
                              bool anti) {
  Relation& outer = *subqueryInput_;
  // The IN operand first: a subquery in it adds columns to the outer side.
  BoundPtr operand = inOperand ? bindExpression(*inOperand, scope, subqueryAggregates_) : nullptr;
  // The condition over (outer columns, subquery columns): the IN value, the keys, the others.
  const int outerArity = outer.node->rowType->getFieldCount();
  const int rowsArity = rows.node->rowType->getFieldCount();
  // Subquery column r -> outerArity + r; outer column j (after the subquery's) -> j.
  auto map = [&](int column) {
    return column < rowsArity ? outerArity + column : column - rowsArity;
  };
  std::vector<BoundPtr> conditions;
  if (rows.value) {
    conditions.push_back(
        expression::call("=", {operand, expression::remapColumns(rows.value, map)}));
  }
  for (size_t i = 0; i < rows.outerKeys.size(); ++i) {
    conditions.push_back(expression::call(
        "=", {rows.outerKeys[i], expression::remapColumns(rows.innerKeys[i], map)}));
  }
  for (const BoundPtr& residual : rows.residuals) {
    conditions.push_back(expression::remapColumns(residual, map));
  }
  outer.node = planJoin(outer.node, rows.node,
                        anti ? runtime::operators::JoinType::ANTI : runtime::operators::JoinType::SEMI,
                        expression::conjunction(conditions));
}

BoundPtr Binder::bindInSubquery(const InExpression& in, const Scope& scope) {
  if (aggregatesWithoutGroupBy(*in.subquery)) {
    // Its one row's value v: `x IN (v)` is `x = v` (NOT IN: NOT (x = v)), also for a correlated
    // subquery, whose keys without rows get the aggregation's value over no rows (COUNT's 0).
    if (!subqueryInput_) notSupported(in, "A subquery in this clause");
    BoundPtr operand = bindExpression(*in.operand, scope, subqueryAggregates_);
    BoundPtr value = bindScalarSubquery(*in.subquery, *in.subquery, scope);
    BoundPtr result = expression::call("=", {operand, value});
    return in.negated ? expression::call("NOT", {result}) : result;
  }
  bool topLevel = std::find(topLevelConjuncts_.begin(), topLevelConjuncts_.end(), &in) !=
                  topLevelConjuncts_.end();
  if (topLevel && !in.negated) {
    // WHERE x IN (...) AND ...: a row without a match is filtered out, FALSE or UNKNOWN. With
    // a correlation other than `inner = outer`, a semi join.
    std::optional<SubqueryRows> rows;
    if (subqueryInput_) {
      rows = bindSubqueryRows(*in.subquery, scope, true, /*allowResiduals=*/true);
      if (!rows->residuals.empty()) {
        semiJoinSubquery(std::move(*rows), scope, in.operand.get(), false);
        return expression::literal(Value(true));
      }
    }
    return expression::call("IS NOT NULL", {markSubquery(in, *in.subquery, scope, in.operand.get(),
                                                         true, rows ? &*rows : nullptr)});
  }
  // SQL's three-valued IN: TRUE with a match; otherwise FALSE when the subquery is empty or
  // (x is not NULL and the subquery has no NULL), else UNKNOWN. The subquery's row count and
  // NULL count come from a global aggregate joined onto every row.
  if (!subqueryInput_) notSupported(in, "A subquery in this clause");
  BoundPtr operand = bindExpression(*in.operand, scope, subqueryAggregates_);
  BoundPtr marker = markSubquery(in, *in.subquery, scope, in.operand.get());
  SubqueryRows rows = bindSubqueryRows(*in.subquery, scope, true);
  Relation& outer = *subqueryInput_;
  LogicalTypePtr count = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
  // The counts per correlation key (one global row when uncorrelated): the keys, then whether
  // the value is NULL.
  const int keyCount = static_cast<int>(rows.innerKeys.size());
  std::vector<BoundPtr> flagged = rows.innerKeys;
  std::vector<std::string> flaggedNames;
  for (int i = 0; i < keyCount; ++i) flaggedNames.push_back("$key" + std::to_string(i));
  flagged.push_back(expression::call("IS NULL", {rows.value}));
  flaggedNames.push_back("$isNull");
  LogicalNodePtr stats = subqueryAggregate(
      rows.node, std::move(flagged), std::move(flaggedNames), keyCount,
      std::vector<AggregateCall>{AggregateCall{AggregateKind::COUNT_STAR, -1, count, -1},
                                 AggregateCall{AggregateKind::COUNT_STAR, -1, count, keyCount}},
      std::vector<std::string>{"$rows", "$nulls"});
  const int outerArity = outer.node->rowType->getFieldCount();
  std::vector<BoundPtr> keyEqualities;
  const auto& statsFields = stats->rowType->getFields();
  for (int i = 0; i < keyCount; ++i) {
    keyEqualities.push_back(expression::call(
        "=", {rows.outerKeys[static_cast<size_t>(i)],
              expression::column(outerArity + i, statsFields[static_cast<size_t>(i)].type)}));
  }
  outer.node = planJoin(outer.node, stats, runtime::operators::JoinType::LEFT,
                        keyEqualities.empty() ? nullptr : expression::conjunction(keyEqualities));
  LogicalTypePtr nullableCount = count->copy(true);
  BoundPtr rowCount = expression::column(outerArity + keyCount, nullableCount);
  BoundPtr nullCount = expression::column(outerArity + keyCount + 1, nullableCount);
  BoundPtr zero = expression::literal(Value(int64_t{0}));
  BoundPtr empty = expression::call("=", {expression::coalesce({rowCount, zero}), zero});
  BoundPtr unknown = expression::call(
      "OR", {expression::call("IS NULL", {operand}), expression::call(">", {nullCount, zero})});
  BoundPtr result = expression::caseWhen(
      {expression::call("IS NOT NULL", {marker}), empty, unknown},
      {expression::literal(Value(true)), expression::literal(Value(false)),
       expression::literal(Value(), LogicalType::simple(LogicalTypeRoot::BOOLEAN))},
      expression::literal(Value(false)));
  return in.negated ? expression::call("NOT", {result}) : result;
}

BoundPtr Binder::bindScalarSubquery(const Node& subquery, const Query& query, const Scope& scope) {
  if (!subqueryInput_) notSupported(subquery, "A subquery in this clause");
  Relation& outer = *subqueryInput_;
  Correlation correlation;
  Relation relation = bindCorrelated(query, scope, correlation);
  const int keyCount = static_cast<int>(correlation.innerKeys.size());
  if (relation.scope.size() != static_cast<size_t>(keyCount) + 1) {
    fail(subquery, "A scalar subquery must return exactly one column; it returns " +
                       std::to_string(relation.scope.size() - static_cast<size_t>(keyCount)));
  }
  LogicalTypePtr type = relation.scope[static_cast<size_t>(keyCount)].type->copy(true);
  const int outerArity = outer.node->rowType->getFieldCount();
  // The join condition: each outer key equals its inner key (the right side's first columns).
  auto keyEqualities = [&]() -> BoundPtr {
    std::vector<BoundPtr> equalities;
    for (int i = 0; i < keyCount; ++i) {
      equalities.push_back(expression::call(
          "=", {correlation.outerKeys[static_cast<size_t>(i)],
                expression::column(outerArity + i, relation.scope[static_cast<size_t>(i)].type)}));
    }
    return equalities.empty() ? nullptr : expression::conjunction(std::move(equalities));
  };
  if (!correlation.emptyGroupValues.empty()) {
    // An aggregation without GROUP BY: one row per correlation key, joined with a marker; a
    // row whose key has no rows gets the aggregation's value over no rows (COUNT's 0).
    BoundPtr emptyValue = correlation.emptyGroupValues[0];
    bool nullWhenEmpty = emptyValue->kind() == expression::ExpressionKind::kLiteral &&
                         static_cast<const expression::Literal&>(*emptyValue).value().isNull();
    LogicalNodePtr right = relation.node;
    if (!nullWhenEmpty) {
      std::vector<BoundPtr> columns;
      std::vector<std::string> names;
      for (int i = 0; i <= keyCount; ++i) {
        columns.push_back(expression::column(i, relation.scope[static_cast<size_t>(i)].type));
        names.push_back(relation.scope[static_cast<size_t>(i)].name);
      }
      columns.push_back(expression::literal(Value(true)));
      names.push_back("$marker");
      right = std::make_shared<LogicalProject>(right, std::move(columns), uniquifyNames(names));
    }
    outer.node = planJoin(outer.node, right, runtime::operators::JoinType::LEFT, keyEqualities());
    BoundPtr value = expression::column(outerArity + keyCount, type);
    if (nullWhenEmpty) return value;
    BoundPtr marker = expression::column(outerArity + keyCount + 1,
                                         LogicalType::simple(LogicalTypeRoot::BOOLEAN, true));
    return expression::caseWhen({expression::call("IS NULL", {marker})},
                                {expression::castIfNeeded(emptyValue, type)}, value);
  }
  // Otherwise at most one row per correlation key (or in all): the value, NULL without rows,
  // an error with more (SINGLE_VALUE).
  std::vector<int> grouping;
  for (int i = 0; i < keyCount; ++i) grouping.push_back(i);
  LogicalNodePtr single = std::make_shared<LogicalAggregate>(
      relation.node, std::move(grouping),
      std::vector<AggregateCall>{AggregateCall{AggregateKind::SINGLE_VALUE, keyCount, type, -1}},
      std::vector<std::string>{"$value"});
  outer.node = planJoin(outer.node, single, runtime::operators::JoinType::LEFT, keyEqualities());
  return expression::column(outerArity + keyCount, type);
}

namespace {

/// The column of `expression` in the projection below an aggregate: an equal deterministic
/// expression already there is read again (as Calcite projects each distinct argument once), so
/// calls over one argument read one column — which lets DISTINCT calls share a table.
int projectOnce(const BoundPtr& expression, std::vector<BoundPtr>& projection,
                std::vector<std::string>& names) {
  if (expression->isDeterministic()) {
    const std::string digest = expression->toString();
    for (size_t i = 0; i < projection.size(); ++i) {
      if (projection[i]->isDeterministic() && *projection[i]->type() == *expression->type() &&
          projection[i]->toString() == digest) {
        return static_cast<int>(i);
      }
    }
  }
  const int column = static_cast<int>(projection.size());
  projection.push_back(expression);
  names.push_back("$f" + std::to_string(column));
  return column;
}

}  // namespace

AggregateCall Binder::bindAggregateCall(const FunctionCallExpression& call, const Scope& scope,
                                        std::vector<BoundPtr>& projection,
                                        std::vector<std::string>& names) {
  const std::string name = upper(call.name[0]);
  const AggregateKind kind = *aggregateKindOfCall(call);
  AggregateCall aggregate{kind, -1, nullptr, -1, call.distinct};
  if (call.distinct && kind == AggregateKind::COUNT_STAR) {
    fail(call, "COUNT(DISTINCT *) is not allowed; name the columns");
  }
  LogicalTypePtr argumentType = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
  if (kind == AggregateKind::JSON_OBJECTAGG || kind == AggregateKind::JSON_ARRAYAGG) {
    BoundPtr argument = bindJsonAggregateArgument(call, kind, scope, aggregate, argumentType);
    aggregate.argumentColumn = projectOnce(argument, projection, names);
  } else if (kind != AggregateKind::COUNT_STAR) {
    size_t maxArguments = kind == AggregateKind::LISTAGG ? 2 : kind == AggregateKind::LAG ? 3 : 1;
    if (call.arguments.empty() || call.arguments.size() > maxArguments) {
      fail(call, "Invalid number of arguments to function '" + name + "'. Was expecting " +
                     (maxArguments == 1 ? std::string("1") : "1 to " + std::to_string(maxArguments)) +
                     " arguments");
    }
    if (hasNestedAggregate(call)) fail(call, "Aggregate expressions cannot be nested");
    BoundPtr argument = bindExpression(*call.arguments[0], scope, nullptr);
    argumentType = argument->type();
    if (kind == AggregateKind::LAG) bindLagArguments(call, argumentType, aggregate);
    BoundPtr separator = call.arguments.size() > 1 && kind == AggregateKind::LISTAGG
                             ? bindExpression(*call.arguments[1], scope, nullptr)
                             : nullptr;
    std::string error = checkAggregateArguments(call, kind, *argument, separator, aggregate);
    if (!error.empty()) fail(call, error);
    aggregate.argumentColumn = projectOnce(argument, projection, names);
  }
  if (call.filter) {
    BoundPtr filter = bindExpression(*call.filter, scope, nullptr);
    if (filter->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
      fail(*call.filter, "FILTER expression must be of type BOOLEAN");
    }
    aggregate.filterColumn = projectOnce(filter, projection, names);
  }
  aggregate.resultType = aggregateResultType(kind, argumentType);
  return aggregate;
}

BoundPtr Binder::bindJsonAggregateArgument(const FunctionCallExpression& call,
                                           AggregateKind kind, const Scope& scope,
                                           AggregateCall& aggregate, LogicalTypePtr& valueType) {
  const std::string name = upper(call.name[0]);
  if (call.over) fail(call, name + " is not supported in OVER windows");
  if (call.distinct) fail(call, "DISTINCT is not allowed in " + name);
  if (hasNestedAggregate(call)) fail(call, "Aggregate expressions cannot be nested");
  const bool object = kind == AggregateKind::JSON_OBJECTAGG;
  const std::string onNull =
      call.json && !call.json->onNull.empty() ? call.json->onNull : (object ? "NULL" : "ABSENT");
  aggregate.jsonAbsentOnNull = onNull == "ABSENT";
  // A nested JSON_OBJECT/JSON_ARRAY is inserted as JSON, not as a string (as in JSON_OBJECT).
  aggregate.jsonRawValues = isJsonConstructorCall(*call.arguments.back());
  BoundPtr value = bindExpression(*call.arguments.back(), scope, nullptr);
  valueType = value->type();
  const bool valueFits = function::isJsonScalarType(*valueType) ||
                         valueType->getTypeRoot() == LogicalTypeRoot::NULL_TYPE;
  std::string shown = "<" + function::typeNameInMessage(*valueType) + ">";
  BoundPtr key = object ? bindExpression(*call.arguments[0], scope, nullptr) : nullptr;
  if (key) shown = "<" + function::typeNameInMessage(*key->type()) + ">, " + shown;
  if (!valueFits || (key && !function::isCharacterString(*key->type()))) {
    fail(call, "Cannot apply '" + name + "' to arguments of type '" + name + "(" + shown +
                   ")'. Supported form(s): " +
                   (object ? "'JSON_OBJECTAGG(KEY <CHARACTER> VALUE <ANY>)'"
                           : "'JSON_ARRAYAGG(<ANY>)'"));
  }
  // JSON_OBJECTAGG's accumulator takes the pair as one ROW(k, v) value.
  return key ? expression::call("ROW", {key, value}, context_) : value;
}

void Binder::bindLagArguments(const FunctionCallExpression& call, const LogicalTypePtr& type,
                              AggregateCall& aggregate) {
  if (!call.over) fail(call, "Function 'LAG' can only be used with an OVER clause");
  if (call.distinct) fail(call, "DISTINCT is not allowed in LAG");
  // The offset: a non-negative integer literal (1 when not given).
  if (call.arguments.size() > 1) {
    std::optional<Value> offset = expression::ExpressionEvaluator::evaluateConstant(
        bindExpression(*call.arguments[1], Scope{}, nullptr));
    std::optional<int64_t> rows;
    if (offset && !offset->isNull() && offset->kind() == ValueKind::INT) rows = offset->get<int32_t>();
    if (offset && !offset->isNull() && offset->kind() == ValueKind::BIGINT) rows = offset->get<int64_t>();
    if (!rows || *rows < 0) {
      fail(*call.arguments[1], "LAG's offset must be a non-negative integer literal");
    }
    aggregate.lagOffset = *rows;
  }
  // The default: a constant of (or castable to) the argument's type (NULL when not given).
  if (call.arguments.size() > 2) {
    std::optional<Value> value;
    try {
      value = expression::ExpressionEvaluator::evaluateConstant(expression::castIfNeeded(
          bindExpression(*call.arguments[2], Scope{}, nullptr), type->copy(true), context_));
    } catch (const ValidationException&) {
    }
    if (!value) {
      fail(*call.arguments[2],
           "LAG's default must be a constant of type " + type->asSummaryString());
    }
    aggregate.lagDefault = *value;
  }
}

// The column of `input` that `key` (an expression over its columns) is: the column it reads
// when it is a plain reference, else a column appended to `input` by a projection that keeps
// every column (Calcite projects a window's computed keys below it); the scope gets a hidden
// column for it, so no name reaches it and the scope still lists the node's columns.
int Binder::windowKeyColumn(Relation& input, const expression::ExpressionPtr& key) {
  if (const auto* reference = dynamic_cast<const expression::ColumnReference*>(key.get())) {
    return reference->index();
  }
  // The scope's columns (not the columns a WHERE subquery's markers add after them), then the
  // key: its index is the scope's.
  const auto& fields = input.node->rowType->getFields();
  std::vector<expression::ExpressionPtr> columns;
  std::vector<std::string> names;
  for (size_t i = 0; i < input.scope.size(); ++i) {
    columns.push_back(expression::column(static_cast<int>(i), fields[i].type));
    names.push_back(fields[i].name);
  }
  const int index = static_cast<int>(input.scope.size());
  std::string name = "$window_key" + std::to_string(index);
  columns.push_back(key);
  names.push_back(name);
  input.node = std::make_shared<LogicalProject>(input.node, std::move(columns), std::move(names));
  input.scope.push_back(ScopeColumn{"", std::move(name), key->type(), true});
  return index;
}

void Binder::planOverAggregates(const SelectQuery& select,
                                const std::vector<const FunctionCallExpression*>& calls,
                                Relation& input) {
  // The window of each call: its own specification or a WINDOW clause entry.
  auto windowOf = [&](const FunctionCallExpression& call) -> const WindowSpecification& {
    const WindowSpecification& own = *call.over;
    if (own.referenceName.empty()) return own;
    if (!own.partitionBy.empty() || !own.orderBy.empty() || own.frame) {
      notSupported(own, "A window that refines a named window");
    }
    for (const NamedWindow& named : select.windows) {
      if (named.name == own.referenceName) return *named.specification;
    }
    fail(own, "Window '" + own.referenceName + "' not found");
  };
  const WindowSpecification& window = windowOf(*calls[0]);
  const std::string windowText = unparse(window);
  std::vector<const FunctionCallExpression*> sameWindow, otherWindows;
  for (const FunctionCallExpression* call : calls) {
    (unparse(windowOf(*call)) == windowText ? sameWindow : otherWindows).push_back(call);
  }
  if (!otherWindows.empty()) {
    // BATCH: one OverAggregate per window, each over the one before (Flink's batch planner
    // chains them too); STREAMING: one window per SELECT, as Flink.
    if (!context_.batchMode) {
      notSupported(*otherWindows[0], "OVER aggregates over different windows in one SELECT");
    }
    planOverAggregates(select, sameWindow, input);
    planOverAggregates(select, otherWindows, input);
    return;
  }
  // PARTITION BY keys may be expressions (computed below the window); the ORDER BY is a
  // time attribute column.
  auto columnOf = [&](const Expression& expression) {
    BoundPtr bound = bindExpression(expression, input.scope, nullptr);
    if (!bound->isDeterministic()) {
      notSupported(expression, "A non-deterministic PARTITION BY key in OVER");
    }
    return windowKeyColumn(input, bound);
  };
  std::vector<int> partition;
  for (const auto& key : window.partitionBy) partition.push_back(columnOf(*key));
  // STREAMING orders by one time attribute, ascending; BATCH by any keys, or not at all.
  const char* const streamOrderMessage =
      "OVER windows' ordering in stream mode must be defined on a time attribute.";
  int order = -1;
  std::vector<runtime::operators::SortKey> orderKeys;
  if (!context_.batchMode && (window.orderBy.size() != 1 || window.orderBy[0].descending)) {
    fail(window, streamOrderMessage);
  }
  for (const auto& key : window.orderBy) {
    orderKeys.push_back(
        runtime::operators::SortKey{columnOf(*key.expression), !key.descending, nullsFirstOf(key)});
  }
  if (orderKeys.size() == 1 && orderKeys[0].ascending &&
      input.scope[orderKeys[0].column].type->getTimestampKind() != TimestampKind::REGULAR) {
    order = orderKeys[0].column;
    orderKeys.clear();
  } else if (!context_.batchMode) {
    fail(*window.orderBy[0].expression, streamOrderMessage);
  }
  // The frame: SQL's default with ORDER BY is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW.
  runtime::operators::OverFrameUnit unit = runtime::operators::OverFrameUnit::RANGE;
  std::optional<int64_t> preceding;
  if (window.frame) {
    const WindowFrame& frame = *window.frame;
    unit = frame.unit == FrameUnit::kRows ? runtime::operators::OverFrameUnit::ROWS
                                          : runtime::operators::OverFrameUnit::RANGE;
    if (frame.end && frame.end->kind != FrameBoundKind::kCurrentRow) {
      notSupported(window, "An OVER window that does not end at CURRENT ROW");
    }
    if (frame.start.kind == FrameBoundKind::kPreceding) {
      BoundPtr offset = bindExpression(*frame.start.offset, Scope{}, nullptr);
      std::optional<Value> value;
      if (offset->isConstant()) value = expression::ExpressionEvaluator::evaluateConstant(offset);
      if (unit == runtime::operators::OverFrameUnit::ROWS) {
        std::optional<int64_t> rows;
        if (value && !value->isNull() && value->kind() == ValueKind::INT) rows = value->get<int32_t>();
        if (value && !value->isNull() && value->kind() == ValueKind::BIGINT) rows = value->get<int64_t>();
        if (!rows || *rows < 0) {
          fail(*frame.start.offset, "ROWS PRECEDING needs a non-negative integer literal");
        }
        preceding = *rows;
      } else {
        if (order < 0) {
          notSupported(*frame.start.offset,
                       "RANGE PRECEDING with an offset over an ORDER BY that is not a time "
                       "attribute");
        }
        if (!value || value->isNull() || value->kind() != ValueKind::DURATION) {
          fail(*frame.start.offset,
               "RANGE PRECEDING over a time attribute needs a day-time interval literal such "
               "as INTERVAL '10' MINUTE");
        }
        preceding = value->get<Duration>().toMillis();
      }
    } else if (frame.start.kind == FrameBoundKind::kCurrentRow) {
      preceding = 0;
    } else if (frame.start.kind != FrameBoundKind::kUnboundedPreceding) {
      notSupported(window, "An OVER window that starts after the current row");
    }
  }
  // BATCH orders by a rowtime as by any column (NULL times sorted, NULLS FIRST/LAST as
  // written), except for a RANGE frame with an offset, which measures time.
  if (context_.batchMode && order >= 0 &&
      input.scope[order].type->getTimestampKind() == TimestampKind::ROWTIME &&
      !(unit == runtime::operators::OverFrameUnit::RANGE && preceding && *preceding > 0)) {
    orderKeys.push_back(runtime::operators::SortKey{order, true, nullsFirstOf(window.orderBy[0])});
    order = -1;
  }
  // A projection of the input's columns then the calls' arguments, and the OverAggregate.
  std::vector<BoundPtr> projection;
  std::vector<std::string> names;
  for (size_t c = 0; c < input.scope.size(); ++c) {
    projection.push_back(expression::column(static_cast<int>(c), input.scope[c].type));
    names.push_back(input.node->rowType->getFields()[c].name);
  }
  std::vector<AggregateCall> aggregateCalls;
  for (const FunctionCallExpression* call : calls) {
    aggregateCalls.push_back(bindAggregateCall(*call, input.scope, projection, names));
  }
  const int width = static_cast<int>(projection.size());
  LogicalNodePtr pre = input.node;
  // Projected also where the input has columns its scope does not name (the markers of a
  // WHERE subquery), so that the calls' columns follow the scope's.
  if (width > static_cast<int>(input.scope.size()) ||
      input.node->rowType->getFieldCount() != static_cast<int>(input.scope.size())) {
    pre = std::make_shared<LogicalProject>(input.node, std::move(projection), uniquifyNames(names));
  }
  // Calls of the n-th window (BATCH chains one OverAggregate per window) are named wn$o0, ...
  int windowIndex = 0;
  for (const RowField& field : pre->rowType->getFields()) {
    const std::string& name = field.name;
    const size_t dollar = name.find("$o");
    if (name.size() > 1 && name[0] == 'w' && dollar != std::string::npos && dollar > 1 &&
        std::all_of(name.begin() + 1, name.begin() + static_cast<std::ptrdiff_t>(dollar),
                    [](char c) { return c >= '0' && c <= '9'; })) {
      windowIndex = std::max(windowIndex, std::stoi(name.substr(1, dollar - 1)) + 1);
    }
  }
  std::vector<std::string> callNames;
  for (size_t i = 0; i < aggregateCalls.size(); ++i) {
    callNames.push_back("w" + std::to_string(windowIndex) + "$o" + std::to_string(i));
    overColumns_[calls[i]] = {width + static_cast<int>(i), aggregateCalls[i].resultType};
  }
  input.node = std::make_shared<LogicalOverAggregate>(pre, std::move(partition), order, unit,
                                                      preceding, std::move(aggregateCalls),
                                                      uniquifyNames(callNames),
                                                      std::move(orderKeys));
  // The arguments and results are reachable only through the calls.
  const auto& fields = input.node->rowType->getFields();
  for (size_t c = input.scope.size(); c < fields.size(); ++c) {
    input.scope.push_back(ScopeColumn{"", fields[c].name, fields[c].type, true});
  }
}

Binder::Relation Binder::bindSelect(const SelectQuery& select, Correlation* correlation) {
  Relation input;
  if (select.from) {
    input = bindTableReference(*select.from);
  } else {
    // SELECT without FROM reads one empty row.
    input.node = std::make_shared<LogicalValues>(LogicalType::row({}, false),
                                                 std::vector<Row>{Row(0)});
  }

  if (select.where) {
    bool hasAggregate = false;
    forEachAggregate(*select.where, [&](const FunctionCallExpression&) { hasAggregate = true; });
    if (hasAggregate) fail(*select.where, "Aggregate expression is illegal in WHERE clause");
    BoundPtr condition;
    if (correlation) {
      condition = bindCorrelatedWhere(*select.where, input, *correlation);
    } else {
      SubqueryScope subqueries(*this, &input);
      collectConjuncts(*select.where, topLevelConjuncts_);
      condition = bindExpression(*select.where, input.scope, nullptr);
    }
    if (condition && condition->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
      fail(*select.where, "WHERE clause must be a condition");
    }
    const auto* join = dynamic_cast<const LogicalJoin*>(input.node.get());
    if (!condition) {
      // Every conjunct was a correlation key.
    } else if (LogicalNodePtr topN = pushRankFilter(input.node, condition)) {
      input.node = topN;
    } else if (join && join->joinType == runtime::operators::JoinType::INNER) {
      // Predicate push-down into an inner join: its equalities become join keys.
      input.node = planJoin(join->inputs[0], join->inputs[1], join->joinType,
                            expression::conjunction({join->fullCondition(), condition}));
    } else {
      input.node = std::make_shared<LogicalFilter>(input.node, condition);
    }
  }

  // The select list with stars expanded: (expression or input column, output name).
  struct OutputItem {
    const Expression* expression;  // null: the input column `inputColumn`
    int inputColumn;
    std::string name;
  };
  std::vector<OutputItem> items;
  for (size_t i = 0; i < select.items.size(); ++i) {
    const SelectItem& item = select.items[i];
    if (item.expression->is<StarExpression>()) {
      const auto& star = item.expression->as<StarExpression>();
      bool any = false;
      for (size_t c = 0; c < input.scope.size(); ++c) {
        if (!star.qualifier.empty() && input.scope[c].qualifier != star.qualifier.back()) continue;
        if (star.qualifier.empty() && input.scope[c].hidden) continue;
        items.push_back(OutputItem{nullptr, static_cast<int>(c), input.scope[c].name});
        any = true;
      }
      if (!any) fail(star, "Unknown identifier in '" + unparse(star) + "'");
      continue;
    }
    std::string name;
    if (item.alias) {
      name = *item.alias;
    } else if (item.expression->is<IdentifierExpression>()) {
      name = item.expression->as<IdentifierExpression>().names.back();
    } else if (item.expression->is<FieldAccessExpression>()) {
      name = item.expression->as<FieldAccessExpression>().field;
    } else {
      name = "EXPR$" + std::to_string(i);
    }
    items.push_back(OutputItem{item.expression.get(), -1, name});
  }

  // Aggregation: GROUP BY, aggregate calls in SELECT or HAVING, or DISTINCT on top.
  std::vector<const FunctionCallExpression*> aggregateCalls;
  for (const OutputItem& item : items) {
    if (item.expression) {
      forEachAggregate(*item.expression, [&](const FunctionCallExpression& call) {
        aggregateCalls.push_back(&call);
      });
    }
  }
  if (select.having) {
    forEachAggregate(*select.having, [&](const FunctionCallExpression& call) {
      aggregateCalls.push_back(&call);
    });
  }
  bool aggregating = !select.groupBy.empty() || !aggregateCalls.empty() || select.having;
  if (correlation && !correlation->residuals.empty() && !correlation->validateOnly &&
      (aggregating || !correlation->allowResiduals)) {
    decorrelateResiduals(select, input, *correlation);
  }
  const int correlationKeys = correlation ? static_cast<int>(correlation->innerKeys.size()) : 0;
  // Correlated by keys or by other conditions: ranks and OVER aggregates would see rows of
  // other outer rows.
  const bool correlated = correlationKeys > 0 || (correlation && !correlation->residuals.empty());
  if (correlationKeys > 0 && aggregating && select.groupBy.empty() && select.having) {
    notSupported(*select.having, "HAVING without GROUP BY in a correlated subquery");
  }

  // A legacy group window, `GROUP BY TUMBLE(ts, INTERVAL ..)` (or HOP(ts, slide, size),
  // SESSION(ts, gap)): the window TVF over the input, grouped by its window; TUMBLE_START,
  // TUMBLE_END and TUMBLE_ROWTIME (TUMBLE_PROCTIME) read the window's properties.
  const FunctionCallExpression* groupWindow = nullptr;
  std::vector<std::string> groupWindowTexts;  // _START, _END, _ROWTIME as SQL text
  int groupWindowColumn = -1;                 // window_start in the input scope
  for (const GroupingElement& element : select.groupBy) {
    if (!element.expression || !element.expression->is<FunctionCallExpression>()) continue;
    const auto& call = element.expression->as<FunctionCallExpression>();
    if (call.name.size() != 1 || call.quotedName) continue;
    std::string name = upper(call.name[0]);
    if (name != "TUMBLE" && name != "HOP" && name != "SESSION") continue;
    if (element.kind != GroupingKind::kExpression) {
      notSupported(call, "A group window inside GROUPING SETS, ROLLUP or CUBE");
    }
    if (groupWindow) fail(call, "Only one group window is allowed in GROUP BY");
    groupWindow = &call;
    using runtime::operators::WindowKind;
    WindowKind kind = name == "TUMBLE" ? WindowKind::TUMBLE
                      : name == "HOP"  ? WindowKind::HOP
                                       : WindowKind::SESSION;
    size_t minimum = kind == WindowKind::HOP ? 3 : 2;
    size_t maximum = kind == WindowKind::SESSION ? 2 : minimum + 1;
    if (call.arguments.size() < minimum || call.arguments.size() > maximum) {
      fail(call, "Invalid number of arguments to the group window function " + name);
    }
    BoundPtr time = bindExpression(*call.arguments[0], input.scope, nullptr);
    if (time->kind() != expression::ExpressionKind::kColumnReference) {
      fail(*call.arguments[0], "The time argument of the group window " + name +
                                   " must be a time attribute column");
    }
    int timeColumn = static_cast<const expression::ColumnReference&>(*time).index();
    const Expression* slide = kind == WindowKind::HOP ? call.arguments[1].get() : nullptr;
    const Expression* size = kind == WindowKind::HOP ? call.arguments[2].get() : call.arguments[1].get();
    const Expression* offset = call.arguments.size() > minimum ? call.arguments.back().get() : nullptr;
    runtime::operators::WindowSpec window =
        windowSpecOf(*call.arguments[0], kind, timeColumn, input.scope, size, slide, offset);
    bool processingTime = window.processingTime;
    auto function = std::make_shared<LogicalWindowTableFunction>(input.node, std::move(window));
    groupWindowColumn = static_cast<int>(input.scope.size());
    const auto& fields = function->rowType->getFields();
    for (size_t c = input.scope.size(); c < fields.size(); ++c) {
      input.scope.push_back(ScopeColumn{"", fields[c].name, fields[c].type, true});
    }
    input.node = function;
    std::string arguments = unparse(call).substr(call.name[0].size());
    groupWindowTexts = {name + "_START" + arguments, name + "_END" + arguments,
                        name + (processingTime ? "_PROCTIME" : "_ROWTIME") + arguments};
  }

  // Ranking functions ROW_NUMBER() / RANK() / DENSE_RANK() OVER (PARTITION BY .. ORDER BY ..)
  // as select items: a Rank node appends the rank column (bounded later by a WHERE above).
  int rankFunctions = 0;
  for (const OutputItem& item : items) {
    if (!item.expression || !item.expression->is<FunctionCallExpression>()) continue;
    const auto& call = item.expression->as<FunctionCallExpression>();
    if (!call.over || call.name.size() != 1) continue;
    std::string name = upper(call.name[0]);
    runtime::operators::RankKind kind;
    if (name == "ROW_NUMBER") {
      kind = runtime::operators::RankKind::ROW_NUMBER;
    } else if (name == "RANK") {
      kind = runtime::operators::RankKind::RANK;
    } else if (name == "DENSE_RANK") {
      kind = runtime::operators::RankKind::DENSE_RANK;
    } else {
      continue;
    }
    if (aggregating) notSupported(call, name + " over an aggregation");
    if (!call.arguments.empty()) fail(call, "Function '" + name + "' takes no arguments");
    const WindowSpecification& window = *call.over;
    if (!window.referenceName.empty() || window.frame) {
      notSupported(window, "A named window or a frame for " + name);
    }
    if (window.orderBy.empty()) fail(window, name + " needs an ORDER BY in its OVER clause");
    // Keys may be expressions: computed below the Rank (Calcite's projection of them).
    auto columnOf = [&](const Expression& expression) {
      BoundPtr bound = bindExpression(expression, input.scope, nullptr);
      if (!bound->isDeterministic()) {
        notSupported(expression, "A non-deterministic PARTITION BY / ORDER BY key of " + name);
      }
      return windowKeyColumn(input, bound);
    };
    std::vector<int> partition;
    for (const auto& key : window.partitionBy) partition.push_back(columnOf(*key));
    std::vector<runtime::operators::SortKey> sort;
    for (const OrderItem& key : window.orderBy) {
      sort.push_back(
          runtime::operators::SortKey{columnOf(*key.expression), !key.descending, nullsFirstOf(key)});
    }
    if (++rankFunctions > 1) notSupported(call, "More than one ranking function in a select list");
    if (correlated) notSupported(call, name + " in a correlated subquery");
    // Without the columns a WHERE subquery's markers added: the rank column follows the scope's.
    input.node = withFirstColumns(input.node, input.scope.size());
    rankColumns_[&call] = input.node->rowType->getFieldCount();
    input.node = std::make_shared<LogicalRank>(input.node, std::move(partition), std::move(sort),
                                               kind, 1, INT64_MAX, true, item.name);
    // The rank column is reachable only through the call (but counts among the input's
    // columns, which an OVER aggregation planned next keeps).
    const RowField& rankField = input.node->rowType->getFields().back();
    input.scope.push_back(ScopeColumn{"", rankField.name, rankField.type, /*hidden=*/true});
  }

  // OVER aggregates: `agg(x) OVER (PARTITION BY .. ORDER BY time ROWS|RANGE .. PRECEDING)`.
  std::vector<const FunctionCallExpression*> overCalls;
  for (const OutputItem& item : items) {
    if (item.expression) {
      forEachOverAggregate(*item.expression,
                           [&](const FunctionCallExpression& call) { overCalls.push_back(&call); });
    }
  }
  if (!overCalls.empty()) {
    if (aggregating) notSupported(*overCalls[0], "OVER aggregates together with GROUP BY");
    if (correlated) notSupported(*overCalls[0], "OVER aggregates in a correlated subquery");
    planOverAggregates(select, overCalls, input);
  }

  Scope outputScope;
  std::vector<BoundPtr> projections;
  std::vector<std::string> names;
  if (correlation && !correlation->residuals.empty() && aggregating &&
      !correlation->validateOnly) {
    notSupported(select, "A correlated subquery with a condition other than `inner = outer` "
                         "that aggregates");  // decorrelateResiduals took them (see below)
  }
  if (!aggregating) {
    for (int k = 0; k < correlationKeys; ++k) {
      projections.push_back(correlation->innerKeys[static_cast<size_t>(k)]);
      names.push_back("$corr" + std::to_string(k));
    }
    if (correlation) {
      for (int column : correlation->carried) {
        projections.push_back(expression::column(column, input.scope[static_cast<size_t>(column)].type));
        names.push_back("$carried" + std::to_string(projections.size() - 1));
      }
    }
    SubqueryScope subqueries(*this, &input);
    for (const OutputItem& item : items) {
      BoundPtr bound =
          item.expression ? bindExpression(*item.expression, input.scope, nullptr)
                          : expression::column(item.inputColumn, input.scope[item.inputColumn].type);
      projections.push_back(bound);
      names.push_back(item.name);
    }
  } else {
    // 1. Project the grouping expressions and the aggregate arguments.
    std::vector<BoundPtr> preProjection;
    std::vector<std::string> preNames;
    AggregateBinding binding;
    // The distinct GROUP BY expressions (the keys) and the grouping sets over them.
    std::vector<const Expression*> keyExpressions;
    std::vector<std::vector<int>> groupingSets = expandGroupingSets(select.groupBy, keyExpressions);
    bool plainGrouping = std::all_of(select.groupBy.begin(), select.groupBy.end(),
                                     [](const GroupingElement& element) {
                                       return element.kind == GroupingKind::kExpression;
                                     });
    if (plainGrouping) {
      // GROUP BY a, b: one grouping set with every expression, as written (repeats kept).
      keyExpressions.clear();
      for (const GroupingElement& element : select.groupBy) {
        keyExpressions.push_back(element.expression.get());
      }
    }
    const bool multipleSets = !plainGrouping && groupingSets.size() > 1;
    if (correlationKeys > 0 && (multipleSets || groupWindow)) {
      notSupported(select, "A correlated subquery with GROUPING SETS, ROLLUP, CUBE or a group window");
    }
    // A correlated subquery aggregates per correlation key: the inner keys group first.
    for (int k = 0; k < correlationKeys; ++k) {
      const BoundPtr& key = correlation->innerKeys[static_cast<size_t>(k)];
      binding.groupingTexts.emplace_back();  // no expression's SQL text is empty
      binding.groupingInputColumns.push_back(-1);
      binding.outputTypes.push_back(key->type());
      preProjection.push_back(key);
      preNames.push_back("$corr" + std::to_string(k));
    }
    for (size_t k = 0; k < keyExpressions.size(); ++k) {
      const Expression& keyExpression = *keyExpressions[k];
      if (&keyExpression == groupWindow) {
        // The group window: its start, end and time, read as TUMBLE_START(..) and so on.
        static const char* kNames[] = {"w$start", "w$end", "w$rowtime"};
        for (int property = 0; property < 3; ++property) {
          const ScopeColumn& column = input.scope[groupWindowColumn + property];
          binding.groupingTexts.push_back(groupWindowTexts[property]);
          binding.groupingInputColumns.push_back(-1);
          binding.outputTypes.push_back(column.type);
          preProjection.push_back(expression::column(groupWindowColumn + property, column.type));
          preNames.push_back(kNames[property]);
        }
        continue;
      }
      BoundPtr key = bindExpression(keyExpression, input.scope, nullptr);
      binding.groupingTexts.push_back(unparse(keyExpression));
      binding.groupingInputColumns.push_back(
          key->kind() == expression::ExpressionKind::kColumnReference
              ? static_cast<const expression::ColumnReference&>(*key).index()
              : -1);
      // A key absent from some grouping set is NULL in that set's rows.
      bool inEverySet = std::all_of(groupingSets.begin(), groupingSets.end(), [&](const auto& set) {
        return std::find(set.begin(), set.end(), static_cast<int>(k)) != set.end();
      });
      binding.outputTypes.push_back(multipleSets && !inEverySet ? key->type()->copy(true)
                                                                : key->type());
      std::string keyName = keyExpression.is<IdentifierExpression>()
                                ? keyExpression.as<IdentifierExpression>().names.back()
                                : "$f" + std::to_string(preProjection.size());
      preProjection.push_back(key);
      preNames.push_back(keyName);
    }
    int groupCount = static_cast<int>(preProjection.size());
    std::vector<AggregateCall> calls;
    std::vector<std::string> callNames;
    for (const FunctionCallExpression* call : aggregateCalls) {
      AggregateCall aggregate = bindAggregateCall(*call, input.scope, preProjection, preNames);
      binding.callColumns[call] = groupCount + static_cast<int>(calls.size());
      binding.outputTypes.push_back(aggregate.resultType);
      callNames.push_back("$f" + std::to_string(groupCount + calls.size()));
      calls.push_back(std::move(aggregate));
    }
    // Each call's result over no rows (COUNT 0, COLLECT an empty multiset, the others NULL).
    std::vector<Value> emptyResults;
    for (const AggregateCall& call : calls) {
      emptyResults.push_back(runtime::operators::aggregateResult(
          call, runtime::operators::createAccumulator(call)));
    }
    // Two keys of one name (`GROUP BY a.k, b.k`) get distinct names (k, k0).
    preNames = uniquifyNames(preNames);
    LogicalNodePtr pre = std::make_shared<LogicalProject>(input.node, preProjection, preNames);
    LogicalNodePtr aggregate;
    if (!multipleSets) {
      // One grouping set: every key, in order; a window aggregation when it groups by the
      // window of a window TVF.
      std::vector<std::string> outputNames(preNames.begin(), preNames.begin() + groupCount);
      outputNames.insert(outputNames.end(), callNames.begin(), callNames.end());
      aggregate = planWindowAggregate(pre, groupCount, calls, outputNames);
      if (!aggregate) {
        std::vector<int> grouping;
        for (int i = 0; i < groupCount; ++i) grouping.push_back(i);
        aggregate = std::make_shared<LogicalAggregate>(pre, std::move(grouping), std::move(calls),
                                                       callNames);
      }
      // The keys' types as the aggregation outputs them (time attributes materialized by a
      // regular aggregation, window_time kept by a window aggregation).
      for (int k = 0; k < groupCount; ++k) {
        binding.outputTypes[k] = aggregate->rowType->getFields()[k].type;
      }
    } else {
      // One aggregate per grouping set, each padded to all keys (NULL where the set lacks a
      // key) plus one GROUPING flag per key (1 where it lacks it), then UNION ALL.
      binding.groupingFlagsOffset = groupCount + static_cast<int>(calls.size());
      LogicalTypePtr flagType = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
      std::vector<LogicalNodePtr> perSet;
      std::vector<std::string> names;
      for (int k = 0; k < groupCount; ++k) names.push_back(preNames[k]);
      for (const std::string& name : callNames) names.push_back(name);
      for (int k = 0; k < groupCount; ++k) names.push_back("$g" + std::to_string(k));
      std::vector<LogicalTypePtr> unionTypes;
      for (const auto& set : groupingSets) {
        LogicalNodePtr setAggregate =
            std::make_shared<LogicalAggregate>(pre, set, calls, callNames);
        const auto& fields = setAggregate->rowType->getFields();
        std::vector<BoundPtr> columns;
        for (int k = 0; k < groupCount; ++k) {
          auto position = std::find(set.begin(), set.end(), k);
          if (position == set.end()) {
            columns.push_back(expression::literal(Value(), binding.outputTypes[k]));
          } else {
            int column = static_cast<int>(position - set.begin());
            columns.push_back(expression::column(column, fields[column].type));
          }
        }
        for (size_t c = 0; c < calls.size(); ++c) {
          int column = static_cast<int>(set.size() + c);
          columns.push_back(expression::column(column, fields[column].type));
        }
        for (int k = 0; k < groupCount; ++k) {
          bool absent = std::find(set.begin(), set.end(), k) == set.end();
          columns.push_back(expression::literal(Value(int64_t{absent ? 1 : 0}), flagType));
        }
        perSet.push_back(std::make_shared<LogicalProject>(setAggregate, std::move(columns), names));
      }
      for (int k = 0; k < groupCount; ++k) unionTypes.push_back(binding.outputTypes[k]);
      for (const AggregateCall& call : calls) unionTypes.push_back(call.resultType);
      for (int k = 0; k < groupCount; ++k) unionTypes.push_back(flagType);
      aggregate = std::make_shared<LogicalUnion>(std::move(perSet), rowTypeOf(names, unionTypes));
    }

    // 2. HAVING and the select list, over the aggregation's output; their subqueries join onto
    // it (appending columns, so the aggregation's keep their positions).
    const int aggregateArity = aggregate->rowType->getFieldCount();
    Relation aggregated{aggregate, {}};
    if (select.having) {
      BoundPtr condition;
      {
        SubqueryScope subqueries(*this, &aggregated, &binding);
        collectConjuncts(*select.having, topLevelConjuncts_);
        condition = bindExpression(*select.having, input.scope, &binding);
      }
      if (condition->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
        fail(*select.having, "HAVING clause must be a condition");
      }
      aggregated.node = std::make_shared<LogicalFilter>(aggregated.node, condition);
    }
    for (int k = 0; k < correlationKeys; ++k) {
      projections.push_back(expression::column(k, binding.outputTypes[static_cast<size_t>(k)]));
      names.push_back("$corr" + std::to_string(k));
    }
    {
      SubqueryScope subqueries(*this, &aggregated, &binding);
      for (const OutputItem& item : items) {
        if (!item.expression) fail(select, "'*' cannot be used with GROUP BY or aggregates");
        projections.push_back(bindExpression(*item.expression, input.scope, &binding));
        names.push_back(item.name);
      }
    }
    aggregate = aggregated.node;
    if (correlationKeys > 0 && select.groupBy.empty()) {
      // One row per correlation key: what each item is for a key without rows (the count
      // bug), the aggregates' results over no rows inlined (COUNT 0, the others NULL).
      std::vector<BoundPtr> empty;
      const auto& fields = aggregate->rowType->getFields();
      for (size_t c = 0; c < fields.size(); ++c) {
        const int call = static_cast<int>(c) - groupCount;
        empty.push_back(call >= 0 && static_cast<int>(c) < aggregateArity
                            ? expression::literal(emptyResults[static_cast<size_t>(call)],
                                                  fields[c].type->copy(true))
                            : expression::literal(Value(), fields[c].type->copy(true)));
      }
      for (size_t i = static_cast<size_t>(correlationKeys); i < projections.size(); ++i) {
        std::vector<int> read;
        expression::collectColumns(projections[i], read);
        if (std::any_of(read.begin(), read.end(), [&](int c) { return c >= aggregateArity; })) {
          // A subquery of the select list: its value for a key without rows is unknown here.
          notSupported(*items[i - static_cast<size_t>(correlationKeys)].expression,
                       "A subquery in the select list of a correlated subquery");
        }
        correlation->emptyGroupValues.push_back(expression::inlineColumns(projections[i], empty));
      }
    }
    input.node = aggregate;
  }

  if (!aggregating) input.node = pruneRankNumber(input.node, projections);

  // A projection of every input column in order, under the same names, is left out.
  bool identity = !aggregating && projections.size() == input.node->rowType->getFields().size();
  for (size_t i = 0; identity && i < projections.size(); ++i) {
    const auto* reference = dynamic_cast<const expression::ColumnReference*>(projections[i].get());
    identity = reference && reference->index() == static_cast<int>(i) &&
               names[i] == input.node->rowType->getFields()[i].name;
  }
  LogicalNodePtr result = identity ? input.node
                                    : std::make_shared<LogicalProject>(input.node, projections,
                                                                       uniquifyNames(names));
  if (select.distinct) {
    std::vector<int> all;
    for (size_t i = 0; i < names.size(); ++i) all.push_back(static_cast<int>(i));
    result = std::make_shared<LogicalAggregate>(result, all, std::vector<AggregateCall>{},
                                                std::vector<std::string>{});
  }
  const int hiddenColumns =
      correlationKeys + (correlation ? static_cast<int>(correlation->carried.size()) : 0);
  for (size_t i = 0; i < names.size(); ++i) {
    outputScope.push_back(
        ScopeColumn{"", names[i], projections[i]->type(), static_cast<int>(i) < hiddenColumns});
  }
  return Relation{result, outputScope};
}

}  // namespace eddy::sql
