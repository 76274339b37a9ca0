// The harness the operator tests drive one subtask of a Table-runtime operator with, as Flink's
// (Keyed)OneInputStreamOperatorTestHarness and KeyedTwoInputStreamOperatorTestHarness do: the
// test decides which rows arrive on which input and in which chunks, when watermarks, processing
// time and end of input come, and reads back the exact output as printed rows.
//
// CollectingOutput prints what an operator emits (rows as Row::toString) and fails the test on a
// chunk larger than kDefaultBatchSize. ManualProcessingTimeService is a processing-time clock the
// test moves by hand. OneInputOperatorTestHarness and TwoInputOperatorTestHarness open one
// operator as the only subtask, owning every key group, with a JobMetrics, a Clock and a runtime
// mode, and close it when destroyed. Everything runs on the test's thread, as the task thread
// would call the operator. A harness owns the operator, the output, the processing-time service
// and the metrics, and the context it opens the operator with points at them, so a harness is
// neither copied nor moved.
//
// Checkpoints: snapshot(checkpointId) takes the operator's part of a checkpoint as the task does
// (prepareSnapshotPreBarrier, snapshotState, then the state stores it created). The constructors
// taking SubtaskOptions open the operator as one subtask of several, owning its key group range,
// restored from the snapshots of the old subtasks as the task restores it (redistributed to the
// new parallelism, then initializeState and the stores), as Flink's harnesses do with
// initializeState(OperatorSubtaskState) and repartitionOperatorState.
#pragma once

#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "eddy/state/keyed_state_backend.h"
#include "state/state_redistribution.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators::testing {

/// Printed rows ("+I[a, 1]") in emission order, and printed watermarks where asked for.
using Rows = std::vector<std::string>;

/// How a watermark reads among printed rows.
using WatermarkPrinter = std::string (*)(int64_t timestamp);

/// "watermark <epoch millis>".
inline std::string printWatermarkMillis(int64_t timestamp) {
  return "watermark " + std::to_string(timestamp);
}

/// "Watermark[<wall clock>]", the timestamp read as UTC; "Watermark[MAX]" at end of input.
inline std::string printWatermarkWallClock(int64_t timestamp) {
  return "Watermark[" +
         (timestamp == Watermark::kMax ? std::string("MAX")
                                       : LocalDateTime::ofEpochMillis(timestamp).toString()) +
         "]";
}

/// Collects what an operator emits into three lists, each taken (and emptied) on its own:
/// rows, printed, with the watermarks among them where a WatermarkPrinter is given; every
/// watermark's timestamp; and an event log of rows and watermarks ("watermark <millis>") in
/// emission order.
class CollectingOutput final : public Output {
 public:
  explicit CollectingOutput(WatermarkPrinter watermarksAmongRows = nullptr)
      : watermarksAmongRows_(watermarksAmongRows) {}

  void emitBatch(BatchPtr batch) override {
    for (const vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
      EXPECT_LE(chunk.size(), static_cast<int64_t>(kDefaultBatchSize));
      for (int64_t row = 0; row < chunk.size(); ++row) {
        rows_.push_back(chunk.rowAt(row).toString());
        events_.push_back(rows_.back());
      }
    }
  }
  void emitWatermark(Watermark watermark) override {
    if (watermarksAmongRows_ != nullptr) rows_.push_back(watermarksAmongRows_(watermark.timestamp));
    watermarks_.push_back(watermark.timestamp);
    events_.push_back(printWatermarkMillis(watermark.timestamp));
  }
  void emitWatermarkStatus(WatermarkStatus) override {}

  Rows takeRows() { return std::exchange(rows_, {}); }
  std::vector<int64_t> takeWatermarks() { return std::exchange(watermarks_, {}); }
  Rows takeEvents() { return std::exchange(events_, {}); }

 private:
  WatermarkPrinter watermarksAmongRows_;
  Rows rows_;
  std::vector<int64_t> watermarks_;
  Rows events_;
};

/// A processing-time clock the test moves by hand, starting at 0. advanceTo() runs the timers
/// that are due in time order, each with its own time, also the ones registered meanwhile.
class ManualProcessingTimeService final : public ProcessingTimeService {
 public:
  int64_t currentProcessingTime() const override { return now_; }
  void registerTimer(int64_t time, std::function<void(int64_t)> callback) override {
    timers_.emplace(time, std::move(callback));
  }
  void advanceTo(int64_t time) {
    now_ = time;
    while (!timers_.empty() && timers_.begin()->first <= now_) {
      auto timer = timers_.extract(timers_.begin());
      timer.mapped()(timer.key());
    }
  }

 private:
  int64_t now_ = 0;
  std::multimap<int64_t, std::function<void(int64_t)>> timers_;
};

/// How a harness sets up its subtask.
struct HarnessOptions {
  /// OperatorContext::operatorName.
  std::string operatorName = "";
  RuntimeExecutionMode mode = RuntimeExecutionMode::STREAMING;
  /// The wall clock (state TTL); a test that moves it passes a ManualClock it owns.
  const Clock* clock = &SystemClock::instance();
  /// Without metrics the operator runs as outside a job (OperatorContext::metrics is null).
  bool withMetrics = true;
  /// Where set, the output the harness's calls return has the watermarks among the rows,
  /// printed by it; otherwise only takeWatermarks() and takeEvents() report them.
  WatermarkPrinter watermarksAmongRows = nullptr;
};

/// Where a harness's subtask runs among its operator's subtasks and what it starts from (for
/// the harness constructors that take it; the others are subtask 0 of 1 with 128 key groups,
/// not restored): the subtask owns its computeKeyGroupRangeForOperatorIndex range, and with
/// `restoredFrom` (the snapshots of every old subtask, index = old subtask, as snapshot()
/// returns them) it gets its share as the task does (state::redistributeOperatorSnapshots),
/// through initializeState and its state stores, before open().
struct SubtaskOptions {
  int subtaskIndex = 0;
  int parallelism = 1;
  int maxParallelism = 128;
  std::vector<OperatorSnapshot> restoredFrom;
};

/// What both harnesses share: the subtask's context, the control events, and the output.
/// `OperatorType` is the operator's class where a test reads its state, else StreamOperator.
template <typename OperatorType>
class OperatorTestHarness {
 public:
  OperatorTestHarness(const OperatorTestHarness&) = delete;
  OperatorTestHarness& operator=(const OperatorTestHarness&) = delete;
  ~OperatorTestHarness() { operator_->close(); }

  /// Each of these returns the rows the operator emitted in response (see
  /// HarnessOptions::watermarksAmongRows).
  Rows watermark(int64_t timestamp) {
    operator_->processWatermark(Watermark{timestamp});
    return takeOutput();
  }
  /// Moves the processing-time clock to `time`, running the timers that are due.
  Rows advanceProcessingTime(int64_t time) {
    processingTime_.advanceTo(time);
    return takeOutput();
  }
  Rows finish() {
    operator_->finish();
    return takeOutput();
  }

  /// The emitted watermarks' timestamps since the last call.
  std::vector<int64_t> takeWatermarks() { return output_.takeWatermarks(); }
  /// The emitted rows and watermarks ("watermark <millis>") in order since the last call.
  Rows takeEvents() { return output_.takeEvents(); }
  int64_t lateRecordsDropped() const { return metrics_.numLateRecordsDropped.load(); }

  /// The operator's part of checkpoint `checkpointId`, taken as the task takes it:
  /// prepareSnapshotPreBarrier (rows it emits come with the next call's output), snapshotState,
  /// then the state stores it created (keyed state by key group, operator state).
  OperatorSnapshot snapshot(int64_t checkpointId) { return freezeSnapshot(checkpointId).write(); }

  /// A snapshot taken as an asynchronous checkpoint takes it: its keyed state frozen at the
  /// call, written by write() later (after more input, on any thread).
  struct FrozenSnapshot {
    OperatorSnapshot snapshot;
    std::unique_ptr<state::FrozenKeyedState> keyedState;
    OperatorSnapshot write() {
      if (keyedState != nullptr) keyedState->write(snapshot.keyedState);
      keyedState.reset();
      return std::move(snapshot);
    }
  };
  FrozenSnapshot freezeSnapshot(int64_t checkpointId) {
    operator_->prepareSnapshotPreBarrier(checkpointId);
    StateSnapshotContext snapshotContext;
    snapshotContext.checkpointId = checkpointId;
    snapshotContext.checkpointTimestamp = context_.clock->currentTimeMillis();
    operator_->snapshotState(snapshotContext);
    FrozenSnapshot frozen;
    frozen.keyedState = context_.freezeStateStores(snapshotContext.snapshot);
    frozen.snapshot = std::move(snapshotContext.snapshot);
    return frozen;
  }

 protected:
  OperatorTestHarness(std::unique_ptr<OperatorType> operatorUnderTest, HarnessOptions options)
      : output_(options.watermarksAmongRows), operator_(std::move(operatorUnderTest)) {
    context_.operatorName = std::move(options.operatorName);
    context_.executionMode = options.mode;
    context_.maxParallelism = 128;
    context_.keyGroupRange = KeyGroupRange{0, 127};
    context_.output = &output_;
    context_.processingTimeService = &processingTime_;
    context_.clock = options.clock;
    context_.metrics = options.withMetrics ? &metrics_ : nullptr;
    operator_->open(context_);
  }

  /// As above, as the subtask `subtask` describes, restored from its snapshots where given.
  OperatorTestHarness(std::unique_ptr<OperatorType> operatorUnderTest, HarnessOptions options,
                      SubtaskOptions subtask)
      : output_(options.watermarksAmongRows), operator_(std::move(operatorUnderTest)) {
    context_.operatorName = std::move(options.operatorName);
    context_.executionMode = options.mode;
    context_.subtaskIndex = subtask.subtaskIndex;
    context_.parallelism = subtask.parallelism;
    context_.maxParallelism = subtask.maxParallelism;
    context_.keyGroupRange = computeKeyGroupRangeForOperatorIndex(
        subtask.maxParallelism, subtask.parallelism, subtask.subtaskIndex);
    context_.output = &output_;
    context_.processingTimeService = &processingTime_;
    context_.clock = options.clock;
    context_.metrics = options.withMetrics ? &metrics_ : nullptr;
    if (!subtask.restoredFrom.empty()) {
      restoredSnapshot_ = std::move(::eddy::state::redistributeOperatorSnapshots(
          subtask.restoredFrom, subtask.parallelism,
          subtask.maxParallelism)[static_cast<size_t>(subtask.subtaskIndex)]);
    }
    context_.restoredSnapshot = &restoredSnapshot_;
    StateInitializationContext initialization;
    initialization.restored = !subtask.restoredFrom.empty();
    initialization.previous = &restoredSnapshot_;
    initialization.operatorContext = &context_;
    operator_->initializeState(initialization);
    operator_->open(context_);
  }

  /// Feeds `rows` to input `inputIndex` as one chunk of `rowType`; returns what it emitted.
  Rows pushChunk(int inputIndex, const std::vector<Row>& rows, const LogicalTypePtr& rowType) {
    auto batch = std::make_unique<TypedBatch<vector::Chunk>>();
    batch->push(vector::rowsToChunk(rows, rowType), kNoTimestamp);
    operator_->processBatch(inputIndex, std::move(batch));
    return takeOutput();
  }

  const OperatorType& operatorUnderTest() const { return *operator_; }

 private:
  Rows takeOutput() { return output_.takeRows(); }

  CollectingOutput output_;
  ManualProcessingTimeService processingTime_;
  JobMetrics metrics_;
  OperatorSnapshot restoredSnapshot_;  // what context_.restoredSnapshot points at, where set
  OperatorContext context_;
  std::unique_ptr<OperatorType> operator_;
};

/// Drives one subtask of a one-input operator.
template <typename OperatorType = StreamOperator>
class OneInputOperatorTestHarness : public OperatorTestHarness<OperatorType> {
 public:
  OneInputOperatorTestHarness(std::unique_ptr<OperatorType> operatorUnderTest,
                              LogicalTypePtr inputRowType, HarnessOptions options = {})
      : OperatorTestHarness<OperatorType>(std::move(operatorUnderTest), std::move(options)),
        inputRowType_(std::move(inputRowType)) {}
  /// As the subtask `subtask` describes, restored from its snapshots where given.
  OneInputOperatorTestHarness(std::unique_ptr<OperatorType> operatorUnderTest,
                              LogicalTypePtr inputRowType, HarnessOptions options,
                              SubtaskOptions subtask)
      : OperatorTestHarness<OperatorType>(std::move(operatorUnderTest), std::move(options),
                                          std::move(subtask)),
        inputRowType_(std::move(inputRowType)) {}

  /// Feeds `rows` as one chunk; returns what the operator emitted.
  Rows push(const std::vector<Row>& rows) { return this->pushChunk(0, rows, inputRowType_); }

 private:
  LogicalTypePtr inputRowType_;
};

/// Drives one subtask of a two-input operator, so a test decides on which side and in which
/// order rows arrive.
template <typename OperatorType = StreamOperator>
class TwoInputOperatorTestHarness : public OperatorTestHarness<OperatorType> {
 public:
  TwoInputOperatorTestHarness(std::unique_ptr<OperatorType> operatorUnderTest,
                              LogicalTypePtr leftRowType, LogicalTypePtr rightRowType,
                              HarnessOptions options = {})
      : OperatorTestHarness<OperatorType>(std::move(operatorUnderTest), std::move(options)),
        leftRowType_(std::move(leftRowType)),
        rightRowType_(std::move(rightRowType)) {}
  /// As the subtask `subtask` describes, restored from its snapshots where given.
  TwoInputOperatorTestHarness(std::unique_ptr<OperatorType> operatorUnderTest,
                              LogicalTypePtr leftRowType, LogicalTypePtr rightRowType,
                              HarnessOptions options, SubtaskOptions subtask)
      : OperatorTestHarness<OperatorType>(std::move(operatorUnderTest), std::move(options),
                                          std::move(subtask)),
        leftRowType_(std::move(leftRowType)),
        rightRowType_(std::move(rightRowType)) {}

  /// Feeds `rows` to input `side` (0 left, 1 right) as one chunk of that side's row type, or
  /// of `rowType` when given; returns what the operator emitted.
  Rows push(int side, const std::vector<Row>& rows, const LogicalTypePtr& rowType = nullptr) {
    return this->pushChunk(side, rows,
                           rowType     ? rowType
                           : side == 0 ? leftRowType_
                                       : rightRowType_);
  }
  Rows left(const std::vector<Row>& rows) { return push(0, rows); }
  Rows right(const std::vector<Row>& rows) { return push(1, rows); }

 private:
  LogicalTypePtr leftRowType_;
  LogicalTypePtr rightRowType_;
};

}  // namespace eddy::runtime::operators::testing
