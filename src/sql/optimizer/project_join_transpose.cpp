// ProjectJoinTranspose (passes.h).
#include <algorithm>

#include "sql/optimizer/passes.h"
#include "sql/optimizer/plan_rewriting.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

// A projection over a (non-temporal) join that reads only some of its columns: each input of
// the join gets a projection keeping the columns read above it, by its keys and by the
// residual condition, so the join stores and emits only those (Flink's ProjectJoinTranspose).
LogicalNodePtr pruneJoinInputs(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kProject) return node;
  const auto& project = static_cast<const LogicalProject&>(*node);
  const LogicalNodePtr& input = node->inputs[0];
  if (input->kind != LogicalNodeKind::kJoin) return node;
  const auto& join = static_cast<const LogicalJoin&>(*input);
  if (join.temporal) return node;  // its versioned side's time and key columns are implicit
  const int leftArity = join.inputs[0]->rowType->getFieldCount();
  const int rightArity = join.inputs[1]->rowType->getFieldCount();
  std::vector<bool> used(static_cast<size_t>(leftArity + rightArity), false);
  for (const BoundPtr& e : project.expressions) markColumns(e, used);
  if (join.condition) markColumns(join.condition, used);
  for (int key : join.leftKeys) used[static_cast<size_t>(key)] = true;
  for (int key : join.rightKeys) used[static_cast<size_t>(leftArity + key)] = true;
  if (std::all_of(used.begin(), used.end(), [](bool u) { return u; })) return node;

  std::vector<int> newIndex(used.size(), -1);
  int kept = 0;
  auto pruneSide = [&](int side) -> LogicalNodePtr {
    const LogicalNodePtr& sideInput = join.inputs[static_cast<size_t>(side)];
    const int offset = side == 0 ? 0 : leftArity;
    const int arity = side == 0 ? leftArity : rightArity;
    const auto& fields = sideInput->rowType->getFields();
    std::vector<BoundPtr> expressions;
    std::vector<std::string> names;
    for (int c = 0; c < arity; ++c) {
      // A side nothing reads still keeps one column (a row type has at least one field).
      const bool last = c == arity - 1 && expressions.empty();
      if (!used[static_cast<size_t>(offset + c)] && !last) continue;
      newIndex[static_cast<size_t>(offset + c)] = kept++;
      expressions.push_back(expression::column(c, fields[static_cast<size_t>(c)].type));
      names.push_back(fields[static_cast<size_t>(c)].name);
    }
    if (static_cast<int>(expressions.size()) == arity) return sideInput;
    return std::make_shared<LogicalProject>(sideInput, std::move(expressions), std::move(names));
  };
  LogicalNodePtr left = pruneSide(0);
  const int leftKept = kept;
  LogicalNodePtr right = pruneSide(1);
  std::vector<int> leftKeys, rightKeys;
  for (int key : join.leftKeys) leftKeys.push_back(newIndex[static_cast<size_t>(key)]);
  for (int key : join.rightKeys) {
    rightKeys.push_back(newIndex[static_cast<size_t>(leftArity + key)] - leftKept);
  }
  auto pruned = std::make_shared<LogicalJoin>(
      std::move(left), std::move(right), join.joinType, std::move(leftKeys), std::move(rightKeys),
      join.condition ? renumberColumns(join.condition, newIndex) : nullptr);
  if (pruned->interval.has_value() != join.interval.has_value()) return node;  // to be safe
  std::vector<BoundPtr> expressions;
  for (const BoundPtr& e : project.expressions) {
    expressions.push_back(renumberColumns(e, newIndex));
  }
  return std::make_shared<LogicalProject>(std::move(pruned), std::move(expressions),
                                          namesOf(*node));
}

}  // namespace eddy::sql
