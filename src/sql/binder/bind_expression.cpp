// Expressions: the dispatch over the kinds of parsed expression (operators, CASE, CAST,
// constructors), identifiers resolved against the scope (qualified, nested fields, "did you
// mean"), literals, and, above an aggregation, expressions that are a GROUP BY key. Function
// calls are bound in bind_function_call.cpp, subqueries in bind_subquery.cpp.
#include "sql/binder/binder.h"

#include <algorithm>
#include <charconv>
#include <functional>

#include "eddy/exceptions.h"
#include "expression/expression_evaluator.h"
#include "function/scalar/temporal.h"
#include "function/type_rules.h"
#include "sql/binder/aggregate_binding.h"
#include "sql/binder/call_analysis.h"
#include "sql/binder/name_matching.h"
#include "sql/parser/unparse.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

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

/// Whether `holds` is true of every identifier that binding `node` resolves: those of its
/// operands as bindExpression reaches them, not those of its subqueries (bound in their own
/// scopes) nor those of the symbols of special forms.
bool allIdentifiers(const Expression& node,
                    const std::function<bool(const IdentifierExpression&)>& holds) {
  auto all = [&](const auto& expressions) {
    return std::all_of(expressions.begin(), expressions.end(),
                       [&](const ExpressionPtr& e) { return allIdentifiers(*e, holds); });
  };
  auto each = [&](std::initializer_list<const Expression*> operands) {
    return std::all_of(operands.begin(), operands.end(),
                       [&](const Expression* e) { return !e || allIdentifiers(*e, holds); });
  };
  switch (node.kind) {
    case ExpressionKind::kIdentifier:
      return holds(node.as<IdentifierExpression>());
    case ExpressionKind::kUnary:
      return allIdentifiers(*node.as<UnaryExpression>().operand, holds);
    case ExpressionKind::kBinary:
      return each({node.as<BinaryExpression>().left.get(),
                   node.as<BinaryExpression>().right.get()});
    case ExpressionKind::kIs:
      return allIdentifiers(*node.as<IsExpression>().operand, holds);
    case ExpressionKind::kBetween: {
      const auto& between = node.as<BetweenExpression>();
      return each({between.operand.get(), between.lower.get(), between.upper.get()});
    }
    case ExpressionKind::kLike: {
      const auto& like = node.as<LikeExpression>();
      return each({like.operand.get(), like.pattern.get(), like.escape.get()});
    }
    case ExpressionKind::kIn: {
      const auto& in = node.as<InExpression>();
      return allIdentifiers(*in.operand, holds) && (in.subquery || all(in.values));
    }
    case ExpressionKind::kCase: {
      const auto& caseNode = node.as<CaseExpression>();
      for (const auto& when : caseNode.whenClauses) {
        if (!each({when.condition.get(), when.result.get()})) return false;
      }
      return each({caseNode.operand.get(), caseNode.elseResult.get()});
    }
    case ExpressionKind::kCast:
      return allIdentifiers(*node.as<CastExpression>().operand, holds);
    case ExpressionKind::kFunctionCall: {
      const auto& call = node.as<FunctionCallExpression>();
      if (call.json && !each({call.json->emptyDefault.get(), call.json->errorDefault.get()})) {
        return false;
      }
      // An aggregate's FILTER reads names too (an OVER window fails when bound: it is not
      // allowed where this is asked, a WHERE conjunct).
      return each({call.filter.get()}) && all(call.arguments);
    }
    case ExpressionKind::kNamedArgument:
      return allIdentifiers(*node.as<NamedArgumentExpression>().value, holds);
    case ExpressionKind::kFieldAccess:
      return allIdentifiers(*node.as<FieldAccessExpression>().base, holds);
    case ExpressionKind::kConstructor:
      return all(node.as<ConstructorExpression>().elements);
    case ExpressionKind::kElementAccess: {
      const auto& access = node.as<ElementAccessExpression>();
      return each({access.base.get(), access.index.get()});
    }
    default:  // literals, stars, symbols, subqueries, EXISTS
      return true;
  }
}

}  // namespace

BoundPtr Binder::bindExpression(const Expression& node, const ClauseContext& clause) {
  // Above an aggregation, an expression that is a GROUP BY expression is its column.
  if (clause.aggregates && !node.is<LiteralExpression>()) {
    if (BoundPtr key = bindGroupingKey(node, clause.scope, *clause.aggregates)) return key;
  }
  try {
    switch (node.kind) {
      case ExpressionKind::kIdentifier:
        return bindIdentifier(node.as<IdentifierExpression>(), clause.scope);
      case ExpressionKind::kLiteral:
        return bindLiteral(node.as<LiteralExpression>());
      case ExpressionKind::kIntervalLiteral:
        return bindIntervalLiteral(node.as<IntervalLiteralExpression>());
      case ExpressionKind::kUnary: {
        const auto& unary = node.as<UnaryExpression>();
        BoundPtr operand = bindExpression(*unary.operand, clause);
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
        BoundPtr left = bindExpression(*binary.left, clause);
        BoundPtr right = bindExpression(*binary.right, clause);
        return expression::call(binaryOperatorText(binary.op), {left, right}, context_);
      }
      case ExpressionKind::kIs:
        return bindIsExpression(node.as<IsExpression>(), clause);
      case ExpressionKind::kBetween: {
        const auto& between = node.as<BetweenExpression>();
        if (between.symmetric) notSupported(node, "BETWEEN SYMMETRIC");
        return expression::between(bindExpression(*between.operand, clause),
                                   bindExpression(*between.lower, clause),
                                   bindExpression(*between.upper, clause),
                                   between.negated);
      }
      case ExpressionKind::kLike: {
        const auto& like = node.as<LikeExpression>();
        std::vector<BoundPtr> arguments{bindExpression(*like.operand, clause),
                                             bindExpression(*like.pattern, clause)};
        if (like.escape) arguments.push_back(bindExpression(*like.escape, clause));
        BoundPtr result =
            expression::call(like.similarTo ? "SIMILAR TO" : "LIKE", std::move(arguments));
        return like.negated ? expression::call("NOT", {result}) : result;
      }
      case ExpressionKind::kIn: {
        const auto& in = node.as<InExpression>();
        if (in.subquery) return bindInSubquery(in, clause);
        std::vector<BoundPtr> list;
        for (const auto& value : in.values) list.push_back(bindExpression(*value, clause));
        return expression::in(bindExpression(*in.operand, clause), std::move(list),
                              in.negated);
      }
      case ExpressionKind::kCase: {
        const auto& caseNode = node.as<CaseExpression>();
        std::vector<BoundPtr> conditions, results;
        for (const auto& when : caseNode.whenClauses) {
          conditions.push_back(bindExpression(*when.condition, clause));
          results.push_back(bindExpression(*when.result, clause));
        }
        BoundPtr otherwise =
            caseNode.elseResult ? bindExpression(*caseNode.elseResult, clause) : nullptr;
        if (caseNode.operand) {
          return expression::simpleCase(bindExpression(*caseNode.operand, clause),
                                        std::move(conditions), std::move(results), otherwise);
        }
        return expression::caseWhen(std::move(conditions), std::move(results), otherwise);
      }
      case ExpressionKind::kCast: {
        const auto& castNode = node.as<CastExpression>();
        BoundPtr operand = bindExpression(*castNode.operand, clause);
        return castNode.tryCast ? expression::tryCast(operand, castNode.targetType, context_)
                                : expression::cast(operand, castNode.targetType, context_);
      }
      case ExpressionKind::kFunctionCall:
        return bindFunctionCall(node.as<FunctionCallExpression>(), clause);
      case ExpressionKind::kFieldAccess: {
        const auto& access = node.as<FieldAccessExpression>();
        return expression::fieldAccess(bindExpression(*access.base, clause),
                                       access.field);
      }
      case ExpressionKind::kConstructor: {
        const auto& constructor = node.as<ConstructorExpression>();
        if (constructor.elements.empty()) fail(node, "Require at least 1 argument");
        std::vector<BoundPtr> elements;
        for (const auto& element : constructor.elements) {
          elements.push_back(bindExpression(*element, clause));
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
                                {bindExpression(*access.base, clause),
                                 bindExpression(*access.index, clause)},
                                context_);
      }
      case ExpressionKind::kStar:
        fail(node, "'*' is only allowed in the SELECT list and in COUNT(*)");
      case ExpressionKind::kSubquery:
        return bindScalarSubquery(node, *node.as<SubqueryExpression>().query, clause);
      case ExpressionKind::kExists:
        return bindExistsSubquery(node, clause);
      default:
        notSupported(node, "The expression '" + unparse(node) + "'");
    }
  } catch (const ValidationException& error) {
    if (error.hasPosition()) throw;
    fail(node, error.message());
  }
  notSupported(node, "The expression '" + unparse(node) + "'");
}

BoundPtr Binder::bindIdentifier(const IdentifierExpression& identifier, const Scope& scope) {
  ColumnLookup lookup = lookupColumn(identifier, scope);
  if (!lookup.found()) fail(identifier, lookup.error);
  BoundPtr result = expression::column(lookup.column, scope[lookup.column].type);
  for (size_t part = lookup.fieldPath; part < identifier.names.size(); ++part) {
    result = expression::fieldAccess(std::move(result), identifier.names[part]);
  }
  return result;
}

Binder::ColumnLookup Binder::lookupColumn(const IdentifierExpression& identifier,
                                          const Scope& scope) {
  // `a.b.c` is, as in Calcite, table `a`'s column `b` with field `c` when `a` names a table in
  // scope, and otherwise column `a` with the field path `b.c`.
  const QualifiedName& names = identifier.names;
  bool qualified = names.size() >= 2 && std::any_of(scope.begin(), scope.end(), [&](const ScopeColumn& column) {
    return column.qualifier == names[0];
  });
  if (names.size() == 2 && !qualified && !std::any_of(scope.begin(), scope.end(), [&](const ScopeColumn& column) {
        return !column.hidden && column.name == names[0];
      })) {
    return ColumnLookup{-1, 0, "Table '" + names[0] + "' not found"};
  }
  const std::string* qualifier = qualified ? &names[0] : nullptr;
  const std::string& name = names[qualified ? 1 : 0];
  int found = -1;
  for (size_t i = 0; i < scope.size(); ++i) {
    if (scope[i].name != name) continue;
    if (qualifier ? scope[i].qualifier != *qualifier : scope[i].hidden) continue;
    if (found >= 0) return ColumnLookup{-1, 0, "Column '" + name + "' is ambiguous"};
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
    return ColumnLookup{-1, 0, std::move(message)};
  }
  return ColumnLookup{found, qualified ? size_t{2} : size_t{1}, ""};
}

bool Binder::resolvesIn(const Expression& expression, const Scope& scope) {
  return allIdentifiers(expression, [&](const IdentifierExpression& identifier) {
    return lookupColumn(identifier, scope).found();
  });
}

BoundPtr Binder::bindLiteral(const LiteralExpression& literal) {
  try {
    switch (literal.literalKind) {
      case LiteralKind::kExactNumeric: {
        if (literal.value.find('.') == std::string::npos) {
          // INT when it fits, else BIGINT, else DECIMAL (Calcite's exact numeric literals).
          int64_t number = 0;
          const char* end = literal.value.data() + literal.value.size();
          if (std::from_chars(literal.value.data(), end, number).ec == std::errc{}) {
            if (number >= INT32_MIN && number <= INT32_MAX) {
              return expression::literal(Value(static_cast<int32_t>(number)));
            }
            return expression::literal(Value(number));
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
    if (error.hasPosition()) throw;
    fail(literal, error.message());
  }
}

// Above an aggregation, an expression that is a GROUP BY expression is its column (also an
// identifier that names a key column otherwise, `t.k` for `GROUP BY k`); any other identifier
// is not grouped. Null for the other expressions.
BoundPtr Binder::bindGroupingKey(const Expression& node, const Scope& scope,
                                 const AggregateBinding& aggregates) {
  std::string text = unparse(node);
  for (size_t i = 0; i < aggregates.groupingTexts.size(); ++i) {
    if (aggregates.groupingTexts[i] == text) {
      return expression::column(static_cast<int>(i), aggregates.outputTypes[i]);
    }
  }
  if (node.is<IdentifierExpression>()) {
    // The same column written otherwise (`t.k` for `GROUP BY k`; a field of it is no key).
    const auto& identifier = node.as<IdentifierExpression>();
    ColumnLookup lookup = lookupColumn(identifier, scope);
    if (lookup.found() && lookup.fieldPath == identifier.names.size()) {
      const int index = lookup.column;
      const auto& keys = aggregates.groupingInputColumns;
      auto position = std::find(keys.begin(), keys.end(), index);
      if (position != keys.end()) {
        size_t key = static_cast<size_t>(position - keys.begin());
        return expression::column(static_cast<int>(key), aggregates.outputTypes[key]);
      }
    }
    std::string written;
    for (const std::string& part : node.as<IdentifierExpression>().names) {
      written += (written.empty() ? "" : ".") + part;
    }
    fail(node, "Expression '" + written + "' is not being grouped");
  }
  return nullptr;
}

BoundPtr Binder::bindIsExpression(const IsExpression& is, const ClauseContext& clause) {
  BoundPtr operand = bindExpression(*is.operand, clause);
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

}  // namespace eddy::sql
