// RankFilterPushDown (passes.h).
#include <algorithm>
#include <cstdint>
#include <optional>

#include "expression/expression_evaluator.h"
#include "sql/optimizer/passes.h"
#include "sql/optimizer/top_n_pattern.h"

namespace eddy::sql {

namespace {

std::optional<int64_t> integerConstant(const expression::ExpressionPtr& expression) {
  if (!expression->isConstant()) return std::nullopt;
  std::optional<Value> value = expression::ExpressionEvaluator::evaluateConstant(expression);
  if (!value || value->isNull()) return std::nullopt;
  if (value->kind() == ValueKind::INT) return value->get<int32_t>();
  if (value->kind() == ValueKind::BIGINT) return value->get<int64_t>();
  return std::nullopt;
}

// The Top-N below `input` bounded by `condition`; null when it bounds no rank from above.
LogicalNodePtr pushRankFilter(const LogicalNodePtr& input,
                              const expression::ExpressionPtr& condition) {
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
        while ((*inner)->kind() == expression::ExpressionKind::kCast)
          inner = &(*inner)->children()[0];
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
        if (op == "<")
          effective = ">";
        else if (op == "<=")
          effective = ">=";
        else if (op == ">")
          effective = "<";
        else if (op == ">=")
          effective = "<=";
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
  if (!rest.empty())
    result = std::make_shared<LogicalFilter>(result, expression::conjunction(rest));
  return result;
}

}  // namespace

LogicalNodePtr pushFiltersIntoRanks(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kFilter) return node;
  LogicalNodePtr topN =
      pushRankFilter(node->inputs[0], static_cast<const LogicalFilter&>(*node).condition);
  return topN ? topN : node;
}

}  // namespace eddy::sql
