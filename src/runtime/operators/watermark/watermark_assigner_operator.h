// WatermarkAssignerOperator: the watermarks of a table declared with `WATERMARK FOR rowtime AS
// expression` (Flink's WatermarkAssignerOperator), chained to the table's source.
//
// Rows pass through unchanged. The watermark is the largest non-NULL value of the watermark
// expression over the rows seen so far. As in Flink, a watermark is emitted as soon as it moved
// more than `emitInterval` milliseconds past the last one emitted (`pipeline.auto-watermark-
// interval`, 200 ms by default; with 0 every advance is emitted, i.e. per row): the chunk is
// split there, so the rows before the watermark precede it downstream and the rows after it
// follow it. What advanced by less is emitted at the end of the chunk (where Flink's periodic
// timer would emit it; eddy emits at chunk ends, which keeps results independent of the wall
// clock). Watermarks arriving from upstream are replaced by this operator's (except the final
// one at the end of input, which is forwarded).
//
// `idleTimeout` (`table.exec.source.idle-timeout`, 0 = never): a subtask that received no rows
// for that long marks itself idle (WatermarkStatus idle), so it does not hold back the
// watermark of the operators downstream; the next row makes it active again.
//
// BATCH: no watermarks are generated (every time-based operator fires at the end of input).
//
// Threading: one operator per subtask, called by its task thread only.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "expression/expression_evaluator.h"

namespace eddy::runtime::operators {

struct WatermarkAssignerSpec {
  LogicalTypePtr rowType;
  /// Over the row; of a TIMESTAMP or TIMESTAMP_LTZ type (epoch milliseconds in chunks).
  expression::ExpressionPtr watermark;
  int64_t emitInterval = 200;
  int64_t idleTimeout = 0;
};

class WatermarkAssignerOperator final : public StreamOperator {
 public:
  explicit WatermarkAssignerOperator(std::shared_ptr<const WatermarkAssignerSpec> spec);
  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;
  void processWatermark(Watermark watermark) override;
  void processWatermarkStatus(WatermarkStatus status) override;

 private:
  void emitRows(vector::Chunk& chunk, int64_t begin, int64_t end, int64_t timestamp);
  void emitWatermarkIfAdvanced();
  void markActive();
  void checkIdle(int64_t now);

  std::shared_ptr<const WatermarkAssignerSpec> spec_;
  expression::ExpressionEvaluator evaluator_;
  /// What this instance's evaluations read besides their chunk (see EvaluationContext).
  function::EvaluationContext evaluationContext_;
  std::vector<vector::Vector> results_;
  std::vector<int32_t> selection_;
  bool generate_ = true;
  int64_t current_ = Watermark::kMin;
  int64_t lastEmitted_ = Watermark::kMin;
  // Idleness: the processing time of the last row, whether we said we are idle, and whether a
  // check is scheduled.
  int64_t lastActivity_ = 0;
  bool idle_ = false;
  bool idleCheckPending_ = false;
};

}  // namespace eddy::runtime::operators
