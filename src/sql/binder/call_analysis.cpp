// Finding the aggregate, OVER aggregate and JSON constructor calls of parsed expressions
// (call_analysis.h).
#include "sql/binder/call_analysis.h"

#include "sql/binder/name_matching.h"

namespace eddy::sql {

using function::AggregateKind;

bool isJsonConstructorCall(const Expression& node) {
  if (!node.is<FunctionCallExpression>()) return false;
  const auto& call = node.as<FunctionCallExpression>();
  const std::string name = upper(call.name.back());
  return call.syntax == FunctionSyntax::kJson && (name == "JSON_OBJECT" || name == "JSON_ARRAY");
}

std::optional<AggregateKind> aggregateKindOfCall(const FunctionCallExpression& call) {
  if (call.name.size() != 1) return std::nullopt;
  const std::string name = upper(call.name[0]);
  if (name == "COUNT") {
    bool star = call.arguments.size() == 1 && call.arguments[0]->is<StarExpression>();
    return star || call.arguments.empty() ? AggregateKind::COUNT_STAR : AggregateKind::COUNT;
  }
  return function::aggregateKindOfName(name);
}

std::optional<AggregateKind> aggregateKindOf(const FunctionCallExpression& call) {
  if (call.over) return std::nullopt;
  return aggregateKindOfCall(call);
}

void forEachSubexpression(const Expression& expression,
                          const std::function<bool(const Expression&)>& visit) {
  if (visit(expression)) return;
  auto recurse = [&visit](const Expression& child) { forEachSubexpression(child, visit); };
  switch (expression.kind) {
    case ExpressionKind::kFunctionCall:
      for (const auto& argument : expression.as<FunctionCallExpression>().arguments) {
        recurse(*argument);
      }
      break;
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

void forEachCall(const Expression& expression,
                 const std::function<bool(const FunctionCallExpression&)>& visit) {
  forEachSubexpression(expression, [&visit](const Expression& node) {
    return node.is<FunctionCallExpression>() && visit(node.as<FunctionCallExpression>());
  });
}

void forEachAggregate(const Expression& expression,
                      const std::function<void(const FunctionCallExpression&)>& visit) {
  forEachCall(expression, [&visit](const FunctionCallExpression& call) {
    if (!aggregateKindOf(call)) return false;
    visit(call);
    return true;
  });
}

bool hasNestedAggregate(const FunctionCallExpression& call) {
  bool nested = false;
  for (const auto& argument : call.arguments) {
    forEachAggregate(*argument, [&](const FunctionCallExpression&) { nested = true; });
  }
  return nested;
}

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

void forEachOverAggregate(const Expression& expression,
                          const std::function<void(const FunctionCallExpression&)>& visit) {
  forEachCall(expression, [&visit](const FunctionCallExpression& call) {
    if (!call.over || !aggregateKindOfCall(call)) return false;
    visit(call);
    return true;
  });
}

}  // namespace eddy::sql
