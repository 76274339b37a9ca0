#include "runtime/operators/watermark/watermark_assigner_operator.h"

#include <algorithm>

#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

WatermarkAssignerOperator::WatermarkAssignerOperator(
    std::shared_ptr<const WatermarkAssignerSpec> spec)
    : spec_(std::move(spec)), evaluator_({spec_->watermark}) {}

void WatermarkAssignerOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  generate_ = context.executionMode != RuntimeExecutionMode::BATCH;
  if (generate_ && spec_->idleTimeout > 0) {
    lastActivity_ = context.processingTimeService->currentProcessingTime();
    idleCheckPending_ = true;
    context.processingTimeService->registerTimer(lastActivity_ + spec_->idleTimeout,
                                                 [this](int64_t now) { checkIdle(now); });
  }
}

void WatermarkAssignerOperator::emitRows(vector::Chunk& chunk, int64_t begin, int64_t end,
                                         int64_t timestamp) {
  if (begin >= end) return;
  auto batch = std::make_unique<TypedBatch<vector::Chunk>>();
  if (begin == 0 && end == chunk.size()) {
    batch->push(std::move(chunk), timestamp);  // the whole chunk: no copy
  } else {
    selection_.resize(end - begin);
    for (int64_t row = begin; row < end; ++row) selection_[row - begin] = static_cast<int32_t>(row);
    batch->push(vector::gather(chunk, selection_.data(), end - begin), timestamp);
  }
  output().emitBatch(std::move(batch));
}

void WatermarkAssignerOperator::emitWatermarkIfAdvanced() {
  if (current_ > lastEmitted_) {
    lastEmitted_ = current_;
    output().emitWatermark(Watermark{current_});
  }
}

void WatermarkAssignerOperator::processBatch(int, BatchPtr batch) {
  auto& typed = typedBatch<vector::Chunk>(*batch);
  if (!generate_) {
    output().emitBatch(std::move(batch));
    return;
  }
  if (spec_->idleTimeout > 0) markActive();
  for (size_t index = 0; index < typed.records.size(); ++index) {
    vector::Chunk& chunk = typed.records[index];
    const int64_t timestamp = typed.timestamps.empty() ? kNoTimestamp : typed.timestamps[index];
    evaluator_.evaluate(chunk, results_, evaluationContext_);
    const vector::Vector& values = results_[0];
    const int64_t* millis = values.data<int64_t>();
    int64_t begin = 0;
    for (int64_t row = 0; row < chunk.size(); ++row) {
      if (values.isNull(row) || millis[row] <= current_) continue;
      current_ = millis[row];
      // Eager emission (Flink: current - last > interval); the first watermark always goes.
      if (lastEmitted_ == Watermark::kMin || current_ - lastEmitted_ > spec_->emitInterval) {
        emitRows(chunk, begin, row + 1, timestamp);
        begin = row + 1;
        emitWatermarkIfAdvanced();
      }
    }
    emitRows(chunk, begin, chunk.size(), timestamp);  // last: may move the chunk out
  }
  emitWatermarkIfAdvanced();
}

void WatermarkAssignerOperator::processWatermark(Watermark watermark) {
  // Upstream watermarks are replaced by the declared ones; the end of input still ends time.
  if (watermark.timestamp == Watermark::kMax) {
    current_ = Watermark::kMax;
    emitWatermarkIfAdvanced();
  }
}

void WatermarkAssignerOperator::processWatermarkStatus(WatermarkStatus status) {
  if (spec_->idleTimeout > 0) return;  // this operator decides about idleness itself
  output().emitWatermarkStatus(status);
}

void WatermarkAssignerOperator::markActive() {
  ProcessingTimeService& time = *context().processingTimeService;
  lastActivity_ = time.currentProcessingTime();
  if (idle_) {
    idle_ = false;
    output().emitWatermarkStatus(WatermarkStatus{false});
  }
  if (!idleCheckPending_) {
    idleCheckPending_ = true;
    time.registerTimer(lastActivity_ + spec_->idleTimeout, [this](int64_t now) { checkIdle(now); });
  }
}

void WatermarkAssignerOperator::checkIdle(int64_t now) {
  idleCheckPending_ = false;
  if (idle_) return;
  if (now - lastActivity_ >= spec_->idleTimeout) {
    idle_ = true;
    output().emitWatermarkStatus(WatermarkStatus{true});
    return;
  }
  idleCheckPending_ = true;
  context().processingTimeService->registerTimer(lastActivity_ + spec_->idleTimeout,
                                                 [this](int64_t time) { checkIdle(time); });
}

}  // namespace eddy::runtime::operators
