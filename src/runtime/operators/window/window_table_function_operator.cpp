#include "runtime/operators/window/window_table_function_operator.h"

#include <fmt/format.h>

#include <algorithm>

#include "eddy/exceptions.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using relational::WindowKind;
using relational::WindowSpec;

namespace {

const WindowSpec& checkedWindow(const WindowTableFunctionSpec& spec) {
  if (spec.window.kind == WindowKind::SESSION) {
    throw ValidationException(
        "The SESSION window table function is only supported when followed by a window "
        "aggregation; it cannot be used as a standalone table function.");
  }
  return spec.window;
}

}  // namespace

WindowTableFunctionOperator::WindowTableFunctionOperator(
    std::shared_ptr<const WindowTableFunctionSpec> spec)
    : spec_(std::move(spec)), assigner_(checkedWindow(*spec_), *spec_->inputRowType) {
  int inputCount = spec_->inputRowType->getFieldCount();
  const auto& outputFields = spec_->outputRowType->getFields();
  bool fits = static_cast<int>(outputFields.size()) == inputCount + 3;
  for (int i = 0; fits && i < inputCount; ++i) {
    fits = vector::physicalLayoutOf(*outputFields[i].type) ==
           vector::physicalLayoutOf(*spec_->inputRowType->getFields()[i].type);
  }
  for (int i = inputCount; fits && i < inputCount + 3; ++i) {
    fits = vector::physicalLayoutOf(*outputFields[i].type) == vector::PhysicalLayout::kTimestamp;
  }
  if (!fits) {
    throw InternalError(fmt::format(
        "The output type {} of a window table function over {} must be the input fields "
        "followed by window_start, window_end and window_time.",
        spec_->outputRowType->toString(), spec_->inputRowType->toString()));
  }
}

void WindowTableFunctionOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  eventTime_ =
      !spec_->window.processingTime && context.executionMode != RuntimeExecutionMode::BATCH;
  if (spec_->window.processingTime && context.processingTimeService == nullptr) {
    throw InternalError("A processing-time window table function needs a ProcessingTimeService.");
  }
}

void WindowTableFunctionOperator::processBatch(int, BatchPtr batch) {
  auto out = std::make_unique<TypedBatch<vector::Chunk>>();
  for (const vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    selectedRows_.clear();
    selectedWindows_.clear();
    int64_t now =
        spec_->window.processingTime
            ? assigner_.toWindowScale(context().processingTimeService->currentProcessingTime())
            : 0;
    const vector::Vector* timeColumn =
        spec_->window.processingTime ? nullptr : &chunk.column(spec_->window.timeColumn);
    int64_t lateRows = 0;
    for (int64_t row = 0; row < chunk.size(); ++row) {
      int64_t time =
          timeColumn ? assigner_.toWindowScale(WindowAssigner::rowTime(*timeColumn, row)) : now;
      assigner_.assignWindows(time, windows_);
      bool assigned = false;
      for (const TimeWindow& window : windows_) {
        if (eventTime_ && assigner_.windowTime(window.end) <= currentWatermark_) continue;
        selectedRows_.push_back(static_cast<int32_t>(row));
        selectedWindows_.push_back(window);
        assigned = true;
      }
      if (!assigned) ++lateRows;
    }
    if (lateRows > 0 && context().metrics != nullptr) {
      context().metrics->numLateRecordsDropped.fetch_add(lateRows, std::memory_order_relaxed);
    }
    // Output chunks of at most kDefaultBatchSize rows: HOP multiplies the input.
    int64_t total = static_cast<int64_t>(selectedRows_.size());
    for (int64_t begin = 0; begin < total; begin += static_cast<int64_t>(kDefaultBatchSize)) {
      int64_t count = std::min<int64_t>(total - begin, static_cast<int64_t>(kDefaultBatchSize));
      vector::Chunk windowed(spec_->outputRowType);
      vector::Chunk gathered = vector::gather(chunk, selectedRows_.data() + begin, count);
      int inputCount = gathered.columnCount();
      for (int column = 0; column < inputCount; ++column) {
        windowed.mutableColumn(column) = std::move(gathered.mutableColumn(column));
      }
      vector::Vector& start = windowed.mutableColumn(inputCount);
      vector::Vector& end = windowed.mutableColumn(inputCount + 1);
      vector::Vector& time = windowed.mutableColumn(inputCount + 2);
      start.reserve(count);
      end.reserve(count);
      time.reserve(count);
      for (int64_t i = begin; i < begin + count; ++i) {
        const TimeWindow& window = selectedWindows_[i];
        start.appendTimestamp(window.start, 0);
        end.appendTimestamp(window.end, 0);
        time.appendTimestamp(assigner_.windowTime(window.end), 0);
      }
      windowed.mutableRowKinds() = std::move(gathered.mutableRowKinds());
      out->push(std::move(windowed), kNoTimestamp);
    }
  }
  if (!out->records.empty()) output().emitBatch(std::move(out));
}

void WindowTableFunctionOperator::processWatermark(Watermark watermark) {
  currentWatermark_ = std::max(currentWatermark_, watermark.timestamp);
  output().emitWatermark(watermark);
}

}  // namespace eddy::runtime::operators
