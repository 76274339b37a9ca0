#include "sql/optimizer/optimizer.h"

#include <functional>

#include "eddy/exceptions.h"
#include "expression/expression_evaluator.h"
#include "sql/binder/binder.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

namespace {
std::vector<std::string> namesOf(const LogicalNode& node);
}  // namespace

LogicalNodePtr withInputs(const LogicalNode& node, std::vector<LogicalNodePtr> inputs) {
  switch (node.kind) {
    case LogicalNodeKind::kValues:
    case LogicalNodeKind::kTableScan:
    case LogicalNodeKind::kDataStreamScan:
      throw InternalError("a leaf node has no inputs to replace");
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(node);
      std::vector<std::string> names;
      for (const RowField& field : node.rowType->getFields()) names.push_back(field.name);
      return std::make_shared<LogicalProject>(inputs[0], project.expressions, std::move(names));
    }
    case LogicalNodeKind::kFilter:
      return std::make_shared<LogicalFilter>(inputs[0],
                                             static_cast<const LogicalFilter&>(node).condition);
    case LogicalNodeKind::kAggregate: {
      const auto& aggregate = static_cast<const LogicalAggregate&>(node);
      std::vector<std::string> names;
      const auto& fields = node.rowType->getFields();
      for (size_t i = aggregate.groupingColumns.size(); i < fields.size(); ++i) {
        names.push_back(fields[i].name);
      }
      return std::make_shared<LogicalAggregate>(inputs[0], aggregate.groupingColumns,
                                                aggregate.calls, std::move(names));
    }
    case LogicalNodeKind::kUnion:
      return std::make_shared<LogicalUnion>(std::move(inputs), node.rowType);
    case LogicalNodeKind::kSort: {
      const auto& sort = static_cast<const LogicalSort&>(node);
      return std::make_shared<LogicalSort>(inputs[0], sort.keys, sort.offset, sort.fetch);
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(node);
      return join.with(inputs[0], inputs[1], join.condition);
    }
    case LogicalNodeKind::kRank: {
      const auto& rank = static_cast<const LogicalRank&>(node);
      return std::make_shared<LogicalRank>(inputs[0], rank.partitionKeys, rank.sortKeys,
                                           rank.rankKind, rank.rankStart, rank.rankEnd,
                                           rank.outputRankNumber, rank.rankName);
    }
    case LogicalNodeKind::kWatermarkAssigner: {
      const auto& assigner = static_cast<const LogicalWatermarkAssigner&>(node);
      return std::make_shared<LogicalWatermarkAssigner>(inputs[0], assigner.rowtimeColumn,
                                                        assigner.watermark);
    }
    case LogicalNodeKind::kWindowTableFunction:
      return std::make_shared<LogicalWindowTableFunction>(
          inputs[0], static_cast<const LogicalWindowTableFunction&>(node).window);
    case LogicalNodeKind::kOverAggregate: {
      const auto& over = static_cast<const LogicalOverAggregate&>(node);
      std::vector<std::string> names;
      const auto& fields = node.rowType->getFields();
      for (size_t i = fields.size() - over.calls.size(); i < fields.size(); ++i) {
        names.push_back(fields[i].name);
      }
      return std::make_shared<LogicalOverAggregate>(inputs[0], over.partitionKeys,
                                                    over.orderColumn, over.unit, over.preceding,
                                                    over.calls, std::move(names));
    }
    case LogicalNodeKind::kWindowAggregate: {
      const auto& aggregate = static_cast<const LogicalWindowAggregate&>(node);
      return std::make_shared<LogicalWindowAggregate>(inputs[0], aggregate.window,
                                                      aggregate.keyColumns, aggregate.calls,
                                                      aggregate.outputColumns, namesOf(node));
    }
  }
  throw InternalError("unknown logical node");
}

namespace {

using Rewrite = std::function<LogicalNodePtr(const LogicalNodePtr&)>;

/// Applies `rewrite` bottom-up: inputs first, then the node (rebuilt when an input changed).
LogicalNodePtr bottomUp(const LogicalNodePtr& node, const Rewrite& rewrite) {
  bool changed = false;
  std::vector<LogicalNodePtr> inputs;
  for (const LogicalNodePtr& input : node->inputs) {
    inputs.push_back(bottomUp(input, rewrite));
    changed = changed || inputs.back() != input;
  }
  LogicalNodePtr current = changed ? withInputs(*node, std::move(inputs)) : node;
  return rewrite(current);
}

std::vector<std::string> namesOf(const LogicalNode& node) {
  std::vector<std::string> names;
  for (const RowField& field : node.rowType->getFields()) names.push_back(field.name);
  return names;
}

bool isLiteralTrue(const BoundPtr& e) {
  if (e->kind() != expression::ExpressionKind::kLiteral) return false;
  const Value& value = static_cast<const expression::Literal&>(*e).value();
  return !value.isNull() && value.kind() == ValueKind::BOOLEAN && value.get<bool>();
}

// ---- ConstantFolding ----------------------------------------------------------------------

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
  return isAnd ? expression::conjunction(std::move(kept)) : expression::disjunction(std::move(kept));
}

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

// ---- FilterPushDown ------------------------------------------------------------------------

/// `e` over a projection's output rewritten over the projection's input.
BoundPtr inlineColumns(const BoundPtr& e, const std::vector<BoundPtr>& projections) {
  if (e->kind() == expression::ExpressionKind::kColumnReference) {
    return projections[static_cast<const expression::ColumnReference&>(*e).index()];
  }
  if (e->children().empty()) return e;
  std::vector<BoundPtr> children;
  for (const BoundPtr& child : e->children()) children.push_back(inlineColumns(child, projections));
  return expression::withChildren(e, std::move(children));
}

bool allDeterministic(const std::vector<BoundPtr>& expressions) {
  for (const BoundPtr& e : expressions) {
    if (!e->isDeterministic()) return false;
  }
  return true;
}

LogicalNodePtr pushFilters(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kFilter) return node;
  const auto& filter = static_cast<const LogicalFilter&>(*node);
  const LogicalNodePtr& input = node->inputs[0];
  if (!filter.condition->isDeterministic()) return node;
  switch (input->kind) {
    case LogicalNodeKind::kFilter: {
      // Two filters: one, the lower condition first (AND evaluates its right operand only
      // where the left one holds, so the lower filter's guards still apply).
      const auto& lower = static_cast<const LogicalFilter&>(*input);
      if (!lower.condition->isDeterministic()) return node;
      return pushFilters(std::make_shared<LogicalFilter>(
          input->inputs[0], expression::conjunction({lower.condition, filter.condition})));
    }
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(*input);
      if (!allDeterministic(project.expressions)) return node;
      LogicalNodePtr pushed = pushFilters(std::make_shared<LogicalFilter>(
          input->inputs[0], inlineColumns(filter.condition, project.expressions)));
      return std::make_shared<LogicalProject>(pushed, project.expressions, namesOf(*input));
    }
    case LogicalNodeKind::kUnion: {
      std::vector<LogicalNodePtr> inputs;
      for (const LogicalNodePtr& branch : input->inputs) {
        inputs.push_back(pushFilters(std::make_shared<LogicalFilter>(branch, filter.condition)));
      }
      return std::make_shared<LogicalUnion>(std::move(inputs), input->rowType);
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(*input);
      // A filter above a temporal join stays there: merged into the join's condition it could
      // add equi keys and change which versions a row is matched against.
      if (join.joinType != runtime::operators::JoinType::INNER || join.temporal) return node;
      return planJoin(input->inputs[0], input->inputs[1], join.joinType,
                      expression::conjunction({join.fullCondition(), filter.condition}));
    }
    default:
      return node;
  }
}

// ---- ProjectMerge ----------------------------------------------------------------------------

bool isIdentity(const LogicalProject& project) {
  const LogicalNode& input = *project.inputs[0];
  if (project.expressions.size() != static_cast<size_t>(input.rowType->getFieldCount())) return false;
  const auto& inputFields = input.rowType->getFields();
  const auto& fields = project.rowType->getFields();
  for (size_t i = 0; i < project.expressions.size(); ++i) {
    const auto& e = project.expressions[i];
    if (e->kind() != expression::ExpressionKind::kColumnReference ||
        static_cast<const expression::ColumnReference&>(*e).index() != static_cast<int>(i) ||
        fields[i].name != inputFields[i].name || !(*fields[i].type == *inputFields[i].type)) {
      return false;
    }
  }
  return true;
}

LogicalNodePtr mergeProjects(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kProject) return node;
  const auto& project = static_cast<const LogicalProject&>(*node);
  if (isIdentity(project)) return node->inputs[0];
  const LogicalNodePtr& input = node->inputs[0];
  if (input->kind != LogicalNodeKind::kProject) return node;
  const auto& inner = static_cast<const LogicalProject&>(*input);
  if (!allDeterministic(inner.expressions)) return node;
  std::vector<BoundPtr> merged;
  for (const BoundPtr& e : project.expressions) {
    merged.push_back(inlineColumns(e, inner.expressions));
  }
  auto result = std::make_shared<LogicalProject>(input->inputs[0], std::move(merged), namesOf(*node));
  return isIdentity(*result) ? input->inputs[0] : result;
}

}  // namespace

LogicalNodePtr optimize(const LogicalNodePtr& plan, std::vector<std::string>* appliedPasses) {
  static const std::vector<std::pair<const char*, Rewrite>> kPasses = {
      {"ConstantFolding", foldConstants},
      {"FilterPushDown", pushFilters},
      {"ProjectMerge", mergeProjects},
  };
  LogicalNodePtr current = plan;
  for (const auto& [name, rewrite] : kPasses) {
    LogicalNodePtr next = bottomUp(current, rewrite);
    if (next != current && appliedPasses) appliedPasses->push_back(name);
    current = next;
  }
  return current;
}

}  // namespace eddy::sql
