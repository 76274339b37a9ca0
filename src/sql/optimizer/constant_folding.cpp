// ConstantFolding (passes.h).
#include "expression/expression_evaluator.h"
#include "sql/optimizer/passes.h"
#include "sql/optimizer/plan_rewriting.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

namespace {

using expression::isLiteralTrue;

BoundPtr fold(const BoundPtr& e) {
  if (e->kind() == expression::ExpressionKind::kLiteral ||
      e->kind() == expression::ExpressionKind::kColumnReference) {
    return e;
  }
  if (e->isConstant() && e->isDeterministic()) {
    std::optional<Value> value = expression::ExpressionEvaluator::evaluateConstant(e);
    // A failing constant (1 / 0) is left to fail at runtime, as unfolded.
    if (value) return expression::literal(*value, e->type());
    return e;
  }
  // Fold the operands; the node is rebuilt only when one of them changed.
  bool changed = false;
  std::vector<BoundPtr> children;
  for (const BoundPtr& child : e->children()) {
    children.push_back(fold(child));
    changed = changed || children.back() != child;
  }
  if (!changed) return e;
  return expression::withChildren(e, std::move(children));
}

bool isLiteralFalse(const BoundPtr& e) {
  if (e->kind() != expression::ExpressionKind::kLiteral) return false;
  const Value& value = static_cast<const expression::Literal&>(*e).value();
  return !value.isNull() && value.kind() == ValueKind::BOOLEAN && !value.get<bool>();
}

/// A folded predicate (where only TRUE passes) with TRUE operands of AND and FALSE operands of
/// OR left out, and AND with a FALSE operand / OR with a TRUE operand decided.
BoundPtr simplifyPredicate(const BoundPtr& e) {
  bool isAnd = expression::isCallTo(*e, "AND");
  bool isOr = expression::isCallTo(*e, "OR");
  if (!isAnd && !isOr) return e;
  std::vector<BoundPtr> kept;
  for (const BoundPtr& child : e->children()) {
    BoundPtr simplified = simplifyPredicate(child);
    if (isAnd && isLiteralFalse(simplified)) return simplified;
    if (isOr && isLiteralTrue(simplified)) return simplified;
    if ((isAnd && isLiteralTrue(simplified)) || (isOr && isLiteralFalse(simplified))) continue;
    kept.push_back(simplified);
  }
  if (kept.empty()) return expression::literal(Value(isAnd));
  if (kept.size() == 1) return kept[0];
  return isAnd ? expression::conjunction(std::move(kept))
               : expression::disjunction(std::move(kept));
}

}  // namespace

LogicalNodePtr foldConstants(const LogicalNodePtr& node) {
  switch (node->kind) {
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(*node);
      bool changed = false;
      std::vector<BoundPtr> folded;
      for (const BoundPtr& e : project.expressions) {
        folded.push_back(fold(e));
        changed = changed || folded.back() != e;
      }
      if (!changed) return node;
      return std::make_shared<LogicalProject>(node->inputs[0], std::move(folded), namesOf(*node));
    }
    case LogicalNodeKind::kFilter: {
      BoundPtr folded = simplifyPredicate(fold(static_cast<const LogicalFilter&>(*node).condition));
      if (isLiteralTrue(folded)) return node->inputs[0];
      if (folded == static_cast<const LogicalFilter&>(*node).condition) return node;
      return std::make_shared<LogicalFilter>(node->inputs[0], folded);
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(*node);
      if (!join.condition) return node;
      BoundPtr folded = simplifyPredicate(fold(join.condition));
      if (folded == join.condition) return node;
      return join.with(node->inputs[0], node->inputs[1], isLiteralTrue(folded) ? nullptr : folded);
    }
    default:
      return node;
  }
}

}  // namespace eddy::sql
