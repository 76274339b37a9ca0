// ExpressionEvaluator: recursive evaluation of bound expressions into kernel vectors, with
// row subsets for the operands of CASE, COALESCE, AND and OR (see the header).
#include "expression/expression_evaluator.h"

#include <numeric>

#include "eddy/row.h"
#include "function/scalar/cast.h"

namespace eddy::expression {
namespace {

using function::KernelVector;
using Rows = std::vector<int32_t>;

// The columns an evaluation reads: borrowed from the chunk, or gathered row subsets of them.
// `context`: the evaluating operator's, handed to every kernel.
struct EvaluationInput {
  std::vector<KernelVector> columns;
  int64_t rowCount;
  function::EvaluationContext* context;
};

KernelVector evaluateNode(const BoundExpression& expression, const EvaluationInput& input);

void collectColumns(const BoundExpression& expression, std::vector<int>& columns) {
  if (expression.kind() == ExpressionKind::kColumnReference) {
    columns.push_back(static_cast<const ColumnReference&>(expression).index());
  }
  for (const ExpressionPtr& child : expression.children()) collectColumns(*child, columns);
}

// `expression` over only the rows `rows` of `input` (a result of rows.size() rows).
KernelVector evaluateOnRows(const BoundExpression& expression, const EvaluationInput& input,
                            const Rows& rows) {
  if (static_cast<int64_t>(rows.size()) == input.rowCount) {
    return evaluateNode(expression, input);  // every row: no gathering
  }
  EvaluationInput subset{input.columns, static_cast<int64_t>(rows.size()), input.context};
  std::vector<int> columns;
  collectColumns(expression, columns);
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  for (int column : columns) subset.columns[column] = input.columns[column].gather(rows);
  return evaluateNode(expression, subset);
}

Rows allRows(int64_t count) {
  Rows rows(static_cast<size_t>(count));
  std::iota(rows.begin(), rows.end(), 0);
  return rows;
}

bool isTrueAt(const KernelVector& predicate, int64_t row) {
  return !predicate.isNull(row) && predicate.data<bool>()[predicate.physicalIndex(row)];
}

// CASE: each WHEN sees only the rows no earlier WHEN took; each THEN only its rows.
KernelVector evaluateCase(const Case& node, const EvaluationInput& input) {
  int64_t count = input.rowCount;
  std::vector<int32_t> sourceOf(static_cast<size_t>(count), -1);
  std::vector<int32_t> positionOf(static_cast<size_t>(count), 0);
  std::vector<KernelVector> branches;
  branches.reserve(static_cast<size_t>(node.branchCount()) + 1);
  Rows remaining = allRows(count);
  auto assign = [&](const BoundExpression& result, const Rows& rows) {
    branches.push_back(evaluateOnRows(result, input, rows));
    for (size_t i = 0; i < rows.size(); ++i) {
      sourceOf[rows[i]] = static_cast<int32_t>(branches.size() - 1);
      positionOf[rows[i]] = static_cast<int32_t>(i);
    }
  };
  for (int branch = 0; branch < node.branchCount() && !remaining.empty(); ++branch) {
    KernelVector condition = evaluateOnRows(*node.when(branch), input, remaining);
    Rows matched;
    Rows unmatched;
    for (size_t i = 0; i < remaining.size(); ++i) {
      (isTrueAt(condition, static_cast<int64_t>(i)) ? matched : unmatched).push_back(remaining[i]);
    }
    if (!matched.empty()) assign(*node.then(branch), matched);
    remaining = std::move(unmatched);
  }
  if (!remaining.empty()) assign(*node.elseResult(), remaining);
  std::vector<const KernelVector*> sources;
  for (const KernelVector& branch : branches) sources.push_back(&branch);
  return KernelVector::interleave(node.type(), sources, sourceOf, positionOf);
}

// COALESCE: each argument sees only the rows still NULL.
KernelVector evaluateCoalesce(const Coalesce& node, const EvaluationInput& input) {
  int64_t count = input.rowCount;
  std::vector<int32_t> sourceOf(static_cast<size_t>(count), -1);
  std::vector<int32_t> positionOf(static_cast<size_t>(count), 0);
  std::vector<KernelVector> values;
  values.reserve(node.children().size());
  Rows remaining = allRows(count);
  for (const ExpressionPtr& argument : node.children()) {
    if (remaining.empty()) break;
    values.push_back(evaluateOnRows(*argument, input, remaining));
    const KernelVector& value = values.back();
    Rows stillNull;
    for (size_t i = 0; i < remaining.size(); ++i) {
      if (value.isNull(static_cast<int64_t>(i))) {
        stillNull.push_back(remaining[i]);
      } else {
        sourceOf[remaining[i]] = static_cast<int32_t>(values.size() - 1);
        positionOf[remaining[i]] = static_cast<int32_t>(i);
      }
    }
    remaining = std::move(stillNull);
  }
  std::vector<const KernelVector*> sources;
  for (const KernelVector& value : values) sources.push_back(&value);
  return KernelVector::interleave(node.type(), sources, sourceOf, positionOf);
}

// AND / OR: the right operand is evaluated only where the left one does not decide the result
// (left FALSE for AND, TRUE for OR); elsewhere it counts as NULL, which the three-valued
// kernel then ignores.
KernelVector evaluateConnective(const Call& node, const EvaluationInput& input, bool isOr) {
  KernelVector left = evaluateNode(*node.children()[0], input);
  Rows undecided;
  for (int64_t row = 0; row < input.rowCount; ++row) {
    bool decided = !left.isNull(row) && left.data<bool>()[left.physicalIndex(row)] == isOr;
    if (!decided) undecided.push_back(static_cast<int32_t>(row));
  }
  KernelVector right = [&] {
    const BoundExpression& operand = *node.children()[1];
    if (static_cast<int64_t>(undecided.size()) == input.rowCount) {
      return evaluateNode(operand, input);
    }
    if (undecided.empty()) return KernelVector::constant(operand.type(), Value(), input.rowCount);
    KernelVector subset = evaluateOnRows(operand, input, undecided);
    std::vector<int32_t> sourceOf(static_cast<size_t>(input.rowCount), -1);
    std::vector<int32_t> positionOf(static_cast<size_t>(input.rowCount), 0);
    for (size_t i = 0; i < undecided.size(); ++i) {
      sourceOf[undecided[i]] = 0;
      positionOf[undecided[i]] = static_cast<int32_t>(i);
    }
    return KernelVector::interleave(operand.type()->copy(true), {&subset}, sourceOf, positionOf);
  }();
  return node.bound().kernel({left, right}, node.type(), *input.context);
}

// `row.field` over boxed ROW values: the field of each non-NULL row, NULL elsewhere.
KernelVector evaluateFieldAccess(const FieldAccess& node, const EvaluationInput& input) {
  KernelVector rows = evaluateNode(*node.operand(), input);
  vector::Vector result(node.type());
  result.reserve(input.rowCount);
  for (int64_t row = 0; row < input.rowCount; ++row) {
    if (rows.isNull(row)) {
      result.appendNull();
    } else {
      result.appendValue(rows.boxedAt(row).getRow().getField(node.fieldIndex()));
    }
  }
  return KernelVector::adopt(std::move(result));
}

KernelVector evaluateNode(const BoundExpression& expression, const EvaluationInput& input) {
  switch (expression.kind()) {
    case ExpressionKind::kColumnReference: {
      const auto& reference = static_cast<const ColumnReference&>(expression);
      EDDY_CHECK_LT(reference.index(), static_cast<int>(input.columns.size()));
      return input.columns[reference.index()];
    }
    case ExpressionKind::kLiteral:
      return KernelVector::constant(expression.type(),
                                    static_cast<const Literal&>(expression).value(),
                                    input.rowCount);
    case ExpressionKind::kCall: {
      const auto& node = static_cast<const Call&>(expression);
      const std::string& name = node.function().name();
      if (node.children().size() == 2 && (name == "AND" || name == "OR")) {
        return evaluateConnective(node, input, name == "OR");
      }
      std::vector<KernelVector> arguments;
      arguments.reserve(node.children().size());
      for (const ExpressionPtr& child : node.children()) {
        arguments.push_back(evaluateNode(*child, input));
      }
      if (!arguments.empty()) return node.bound().kernel(arguments, node.type(), *input.context);
      // Without arguments a kernel returns one constant row (CURRENT_TIMESTAMP) or, told how
      // many rows the chunk has, a value per row (RAND()).
      input.context->setRowCount(input.rowCount);
      KernelVector result = node.bound().kernel(arguments, node.type(), *input.context);
      input.context->setRowCount(1);
      if (result.isConstant()) result.setConstantSize(input.rowCount);
      EDDY_CHECK_EQ(result.size(), input.rowCount);
      return result;
    }
    case ExpressionKind::kCast: {
      const auto& node = static_cast<const Cast&>(expression);
      return function::castVector(evaluateNode(*node.operand(), input), node.type(),
                                  node.isTryCast(), node.sessionTimeZone());
    }
    case ExpressionKind::kCase:
      return evaluateCase(static_cast<const Case&>(expression), input);
    case ExpressionKind::kCoalesce:
      return evaluateCoalesce(static_cast<const Coalesce&>(expression), input);
    case ExpressionKind::kFieldAccess:
      return evaluateFieldAccess(static_cast<const FieldAccess&>(expression), input);
  }
  throw InternalError("unknown expression kind");
}

EvaluationInput borrowChunk(const vector::Chunk& chunk, function::EvaluationContext& context) {
  EvaluationInput input{{}, chunk.size(), &context};
  input.columns.reserve(static_cast<size_t>(chunk.columnCount()));
  for (int column = 0; column < chunk.columnCount(); ++column) {
    input.columns.push_back(KernelVector::borrow(chunk.column(column)));
  }
  return input;
}

}  // namespace

ExpressionEvaluator::ExpressionEvaluator(std::vector<ExpressionPtr> expressions)
    : expressions_(std::move(expressions)) {
  for (const ExpressionPtr& expression : expressions_) EDDY_CHECK(expression != nullptr);
}

void ExpressionEvaluator::evaluate(const vector::Chunk& input, std::vector<vector::Vector>& results,
                                   function::EvaluationContext& context) const {
  EvaluationInput borrowed = borrowChunk(input, context);
  results.clear();
  results.reserve(expressions_.size());
  for (const ExpressionPtr& expression : expressions_) {
    if (expression->kind() == ExpressionKind::kColumnReference) {
      // A buffer copy of the column (the Vector API cannot share buffers).
      results.push_back(input.column(static_cast<const ColumnReference&>(*expression).index()));
      continue;
    }
    results.push_back(evaluateNode(*expression, borrowed).toVector());
  }
}

void ExpressionEvaluator::evaluate(vector::Chunk&& input, std::vector<vector::Vector>& results,
                                   function::EvaluationContext& context) const {
  // Computed expressions first, while every column is still in place.
  std::vector<std::optional<vector::Vector>> computed(expressions_.size());
  std::vector<int> lastReference(static_cast<size_t>(input.columnCount()), -1);
  {
    EvaluationInput borrowed = borrowChunk(input, context);
    for (size_t i = 0; i < expressions_.size(); ++i) {
      const BoundExpression& expression = *expressions_[i];
      if (expression.kind() == ExpressionKind::kColumnReference) {
        lastReference[static_cast<size_t>(static_cast<const ColumnReference&>(expression).index())] =
            static_cast<int>(i);
        continue;
      }
      computed[i].emplace(evaluateNode(expression, borrowed).toVector());
    }
  }
  results.clear();
  results.reserve(expressions_.size());
  for (size_t i = 0; i < expressions_.size(); ++i) {
    const BoundExpression& expression = *expressions_[i];
    if (expression.kind() != ExpressionKind::kColumnReference) {
      results.push_back(std::move(*computed[i]));
      continue;
    }
    const int column = static_cast<const ColumnReference&>(expression).index();
    if (lastReference[static_cast<size_t>(column)] == static_cast<int>(i)) {
      results.push_back(std::move(input.mutableColumn(column)));
    } else {
      results.push_back(input.column(column));
    }
  }
}

std::vector<bool> ExpressionEvaluator::readColumns(int inputColumnCount) const {
  std::vector<int> read;
  for (const ExpressionPtr& expression : expressions_) collectColumns(*expression, read);
  std::vector<bool> columns(static_cast<size_t>(inputColumnCount), false);
  for (int index : read) {
    EDDY_CHECK_LT(index, inputColumnCount);
    columns[static_cast<size_t>(index)] = true;
  }
  return columns;
}

function::KernelVector ExpressionEvaluator::evaluateToKernelVector(
    int index, const vector::Chunk& input, function::EvaluationContext& context) const {
  return evaluateNode(*expressions_.at(static_cast<size_t>(index)), borrowChunk(input, context));
}

std::vector<int32_t> ExpressionEvaluator::selectTrue(const ExpressionPtr& predicate,
                                                     const vector::Chunk& input,
                                                     function::EvaluationContext& context) const {
  EDDY_CHECK(predicate->type()->getTypeRoot() == LogicalTypeRoot::BOOLEAN);
  KernelVector result = evaluateNode(*predicate, borrowChunk(input, context));
  std::vector<int32_t> selected;
  int64_t count = input.size();
  if (result.isConstant()) {
    if (isTrueAt(result, 0)) selected = allRows(count);
    return selected;
  }
  const bool* values = result.data<bool>();
  selected.reserve(static_cast<size_t>(count));
  if (!result.mayHaveNulls()) {
    for (int64_t row = 0; row < count; ++row) {
      if (values[row]) selected.push_back(static_cast<int32_t>(row));
    }
  } else {
    const uint64_t* validity = result.validity();
    for (int64_t row = 0; row < count; ++row) {
      if (values[row] && ((validity[row >> 6] >> (row & 63)) & 1)) {
        selected.push_back(static_cast<int32_t>(row));
      }
    }
  }
  return selected;
}

std::optional<Value> ExpressionEvaluator::evaluateConstant(const ExpressionPtr& expression) {
  if (!expression->isConstant() || !expression->isDeterministic()) return std::nullopt;
  try {
    function::EvaluationContext context;
    EvaluationInput input{{}, 1, &context};
    return evaluateNode(*expression, input).valueAt(0);
  } catch (const EddyException&) {
    return std::nullopt;
  }
}

}  // namespace eddy::expression
