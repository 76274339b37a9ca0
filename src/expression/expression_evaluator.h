// ExpressionEvaluator: evaluates bound expressions over a whole Chunk, a vector at a time
// (DESIGN §2). Built once per operator (Calc, Filter, join conditions) from its expressions;
// evaluate() and selectTrue() are const and keep no state between calls, so one evaluator
// may serve every subtask thread at once; what an evaluation reads besides the chunk (the
// operator's watermark, per-call state such as RAND(seed)'s generator) is the caller's
// function::EvaluationContext, one per operator instance.
//
// How it evaluates: each node yields a function::KernelVector. A column reference borrows the
// chunk's buffers (no copy); a literal is a constant vector (one value for all rows); a call
// runs its registry kernel over its arguments' vectors; CAST runs the cast kernels. CASE,
// COALESCE, AND and OR evaluate an operand only on the rows that need it (they gather those
// rows first), so `CASE WHEN b <> 0 THEN a / b END` and `b <> 0 AND a / b > 1` never divide
// by zero, as in Flink's generated code.
//
// Results leave as vector::Vector. evaluate() of a const chunk copies a column reference (one
// buffer copy); evaluate() of a chunk given up (an rvalue) moves the column out instead. Other
// results become Vectors by KernelVector::toVector. selectTrue() needs no Vector at all.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eddy/types/value.h"
#include "expression/bound_expression.h"
#include "function/evaluation_context.h"
#include "function/kernel_vector.h"
#include "vector/chunk.h"

namespace eddy::expression {

/// Evaluates a fixed list of expressions over chunks; see the file comment.
class ExpressionEvaluator {
 public:
  /// `expressions` refer to the columns of the chunks evaluate() will get.
  explicit ExpressionEvaluator(std::vector<ExpressionPtr> expressions);

  const std::vector<ExpressionPtr>& expressions() const { return expressions_; }

  /// Evaluates every expression over all rows of `input`; `results` is resized to one Vector
  /// per expression, each of input.size() rows and of the expression's type. Throws
  /// TableException from failing functions ("Division by zero in '/'.", failed CASTs).
  void evaluate(const vector::Chunk& input, std::vector<vector::Vector>& results,
                function::EvaluationContext& context) const;
  /// As above over an input the caller gives up: a column reference takes the input's column
  /// (moved, not copied) where it is the column's last reference. `input` is left with those
  /// columns empty.
  void evaluate(vector::Chunk&& input, std::vector<vector::Vector>& results,
                function::EvaluationContext& context) const;
  /// Sets `columns[i]` for every input column the expressions read (the size is the input's
  /// column count).
  std::vector<bool> readColumns(int inputColumnCount) const;

  /// Expression `index` over `input` as a kernel vector (column references borrow `input`'s
  /// buffers, so the result must not outlive `input`).
  function::KernelVector evaluateToKernelVector(int index, const vector::Chunk& input,
                                                function::EvaluationContext& context) const;

  /// The rows of `input` (ascending) where the BOOLEAN `predicate` is TRUE (not FALSE, not
  /// NULL): Filter's selection vector. `predicate` need not be one of expressions().
  std::vector<int32_t> selectTrue(const ExpressionPtr& predicate, const vector::Chunk& input,
                                  function::EvaluationContext& context) const;

  /// The value of an expression that reads no column (the optimizer's constant folding).
  /// std::nullopt when it reads a column, is not deterministic, or fails (it is then left to
  /// fail at runtime, as unfolded); a NULL result is a null Value.
  static std::optional<Value> evaluateConstant(const ExpressionPtr& expression);

 private:
  std::vector<ExpressionPtr> expressions_;
};

}  // namespace eddy::expression
