// UnnestOperator: a join of each row with the elements of a collection it holds (Flink's
// Correlate of `t CROSS JOIN UNNEST(t.c)` / `t LEFT JOIN UNNEST(t.c) ON TRUE`). For every input
// row it evaluates the collection expression and emits one row per element: the input row's
// columns, then the element's columns —
//   ARRAY<ROW<a, b>>  the row's fields (a NULL element: NULL fields)
//   ARRAY<T>          the element
//   MULTISET<T>       the element, once per occurrence
//   MAP<K, V>         the key and the value
//   BIGINT n          nothing: the row itself, n times (Flink's ReplicateRows, with which
//                     INTERSECT ALL and EXCEPT ALL emit a row as often as it remains)
// then, WITH ORDINALITY, the element's position (INT, from 1). A NULL or empty collection gives
// no row, or, for a LEFT join, the input row with NULL element columns. Output rows carry their
// input row's RowKind, so an updating input stays a changelog: a -U/-D of a row retracts every
// row its elements gave. Stateless; watermarks pass through.
#pragma once

#include <memory>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "expression/expression_evaluator.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

struct UnnestSpec {
  /// The input's columns, the element's columns, then ORDINALITY if requested.
  LogicalTypePtr outputRowType;
  /// An ARRAY, MAP or MULTISET expression over the input row, or a BIGINT count.
  expression::ExpressionPtr collection;
  bool withOrdinality = false;
  /// LEFT JOIN ... ON TRUE: keep rows whose collection is NULL or empty.
  bool leftOuter = false;
};

class UnnestOperator final : public StreamOperator {
 public:
  explicit UnnestOperator(std::shared_ptr<const UnnestSpec> spec);
  void processBatch(int inputIndex, BatchPtr batch) override;
  /// Keeps the watermark for CURRENT_WATERMARK in its expressions, then forwards it.
  void processWatermark(Watermark watermark) override;

 private:
  vector::Chunk unnest(const vector::Chunk& input);

  std::shared_ptr<const UnnestSpec> spec_;
  expression::ExpressionEvaluator evaluator_;
  /// What this instance's evaluations read besides their chunk (see EvaluationContext).
  function::EvaluationContext evaluationContext_;
  std::vector<vector::Vector> results_;
  std::vector<int32_t> rows_;  // the input row of each output row
};

}  // namespace eddy::runtime::operators
