// LookupJoinOperator: a processing-time lookup join (Flink's LookupJoin, `JOIN t FOR SYSTEM_TIME
// AS OF o.proctime ON t.k = o.x`). For each input chunk it evaluates the key expressions, asks the
// table's lookup function for the rows of the keys (one call per chunk, the rows with a NULL key
// left out: they match nothing), keeps the pairs that pass the residual condition and emits, per
// input row in order, its matches — or, for a LEFT join without a match, the row with NULL table
// columns. Output rows keep their input row's RowKind. Stateless (the table is the connector's);
// watermarks pass through.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "expression/expression_evaluator.h"
#include "runtime/operators/join/join_operator.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// Looks rows up: for each row i of the key chunk, appends the table's rows with that key to the
/// matches chunk and i to the key-row list (see connectors::LookupFunction).
using LookupCall =
    std::function<void(const vector::Chunk& keys, vector::Chunk& matches, std::vector<int32_t>& keyRows)>;

struct LookupJoinSpec {
  relational::JoinType joinType = relational::JoinType::INNER;  // INNER or LEFT
  LogicalTypePtr inputRowType;
  /// The table's physical columns, as the lookup function returns them.
  LogicalTypePtr tableRowType;
  /// Over the input row, of the table's key column types, in the lookup function's key order.
  std::vector<expression::ExpressionPtr> keys;
  /// Over the input's columns then the table's; null for none.
  expression::ExpressionPtr condition;
  /// The input's columns then the table's (nullable for LEFT).
  LogicalTypePtr outputRowType;
  /// Creates one subtask's lookup function.
  std::function<LookupCall()> createLookup;
};

class LookupJoinOperator final : public StreamOperator {
 public:
  explicit LookupJoinOperator(std::shared_ptr<const LookupJoinSpec> spec);
  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  /// Keeps the watermark for CURRENT_WATERMARK in its expressions, then forwards it.
  void processWatermark(Watermark watermark) override;

 private:
  vector::Chunk join(const vector::Chunk& input);

  std::shared_ptr<const LookupJoinSpec> spec_;
  expression::ExpressionEvaluator keyEvaluator_;
  expression::ExpressionEvaluator conditionEvaluator_;
  /// What this instance's evaluations read besides their chunk (see EvaluationContext).
  function::EvaluationContext evaluationContext_;
  LookupCall lookup_;
  LogicalTypePtr keyRowType_;
  std::vector<vector::Vector> keyValues_;
};

}  // namespace eddy::runtime::operators
