// The runtime operators behind the DataStream API, as class templates over the record types
// and the user's callable (so a lambda is called directly, without std::function or a
// virtual call per record). The DataStream methods in data_stream.h create them; users do
// not name them. Every operator here follows runtime::StreamOperator's contract: one task
// thread, initializeState → open → process* → finish → close.
//
// State: keyed operators use the keyed state backend the task created for their key groups
// (OperatorContext::keyedStateBackend) and keep their timers in it, so the task's default
// snapshot of the backend carries both; a user function that is a CheckpointedFunction gets
// initializeState and snapshotState, with the operator state store of the subtask.
//
// Internal (eddy/detail/): installed only because the DataStream templates instantiate these
// operators in user code.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eddy/connector/source.h"
#include "eddy/datastream/checkpointed_function.h"
#include "eddy/datastream/functions.h"
#include "eddy/datastream/source.h"
#include "eddy/datastream/watermark_strategy.h"
#include "eddy/detail/runtime/keyed_timer_service.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/types/type_serializer.h"

namespace eddy::operators {

using runtime::BatchPtr;
using runtime::kNoTimestamp;
using runtime::TypedBatch;
using runtime::Watermark;
using runtime::WatermarkStatus;

/// A Collector that fills a batch and hands it to an Output.
template <typename T>
class BatchCollector final : public Collector<T> {
 public:
  BatchCollector() { renew(); }
  void setTimestamp(int64_t timestamp) { this->timestamp_ = timestamp; }
  size_t pending() const { return this->batch_->size(); }
  /// Ships what was collected (if anything) and starts a new batch.
  void emitTo(runtime::Output& output) {
    if (this->batch_->size() == 0) return;
    output.emitBatch(std::move(ownedBatch_));
    renew();
  }

 private:
  void renew() {
    ownedBatch_ = std::make_unique<TypedBatch<T>>();
    this->batch_ = ownedBatch_.get();
  }
  std::unique_ptr<TypedBatch<T>> ownedBatch_;
};

/// A ReaderOutput that fills a batch.
template <typename T>
class BatchReaderOutput final : public ReaderOutput<T> {
 public:
  BatchReaderOutput() { renew(); }
  /// The batch; with `recordSplits`, also each record's split (see ReaderOutput::recordSplits;
  /// swapped out, so the next batch starts empty).
  std::unique_ptr<TypedBatch<T>> take(std::vector<int32_t>* recordSplits = nullptr) {
    auto batch = std::move(ownedBatch_);
    renew();
    if (recordSplits) {
      recordSplits->clear();
      std::swap(*recordSplits, this->mutableRecordSplits());
    } else {
      this->mutableRecordSplits().clear();
    }
    return batch;
  }

 private:
  void renew() {
    ownedBatch_ = std::make_unique<TypedBatch<T>>();
    ownedBatch_->reserve(runtime::kDefaultBatchSize);
    this->batch_ = ownedBatch_.get();
  }
  std::unique_ptr<TypedBatch<T>> ownedBatch_;
};

/// Assigns timestamps and tracks watermarks for one subtask (used by sources and by
/// assignTimestampsAndWatermarks). In BATCH mode no watermark progresses. A source whose
/// reader emits through split outputs gets one generator per split; the watermark is the
/// lowest of the live splits' (and of the main output's, once it emitted a record), and never
/// goes back (Flink's WatermarkOutputMultiplexer).
template <typename T>
class WatermarkTracker {
 public:
  WatermarkTracker(const WatermarkStrategy<T>& strategy, bool batchMode)
      : strategy_(strategy),
        generator_(strategy.createWatermarkGenerator()),
        emitWatermarks_(!batchMode && strategy.generatesWatermarks()) {}

  /// Assigns timestamps to the batch's records and shows them to the generator of their split
  /// (`recordSplits`: per record, see ReaderOutput::recordSplits; empty: all the main output's);
  /// `nowMillis` (processing time) marks the splits that had records as active.
  void onBatch(TypedBatch<T>& batch, const std::vector<int32_t>& recordSplits = {},
               int64_t nowMillis = 0) {
    lastNowMillis_ = nowMillis;
    if (strategy_.hasTimestampAssigner()) {
      const auto& assigner = strategy_.timestampAssigner();
      for (size_t i = 0; i < batch.records.size(); ++i) {
        batch.timestamps[i] = assigner(batch.records[i], batch.timestamps[i]);
      }
    }
    if (recordSplits.empty()) {
      mainUsed_ = mainUsed_ || !batch.timestamps.empty();
      for (int64_t timestamp : batch.timestamps) {
        if (timestamp != kNoTimestamp) generator_->onEvent(timestamp);
      }
      return;
    }
    for (size_t i = 0; i < batch.timestamps.size(); ++i) {
      WatermarkGenerator& generator = generatorOf(recordSplits[i]);
      if (batch.timestamps[i] != kNoTimestamp) generator.onEvent(batch.timestamps[i]);
      if (recordSplits[i] != ReaderOutput<T>::kMainOutput) {
        splitActiveMillis_[static_cast<size_t>(recordSplits[i])] = nowMillis;
      }
    }
  }

  /// Emits the watermark when it advanced; `splits` (the reader's output, for which splits are
  /// live) when the source has split outputs. A split without records for the strategy's
  /// idleness timeout (processing time, `nowMillis`) does not hold the watermark back.
  void emitWatermarkIfAdvanced(runtime::Output& output, const ReaderOutput<T>* splits = nullptr,
                               int64_t nowMillis = 0) {
    if (!emitWatermarks_) return;
    int64_t watermark = generator_->currentWatermark();
    if (splits != nullptr && splits->splitCount() > 0) {
      lastNowMillis_ = std::max(lastNowMillis_, nowMillis);
      bool any = mainUsed_;
      if (!mainUsed_) watermark = Watermark::kMax;
      const int64_t idleTimeout = strategy_.idleTimeoutMillis();
      for (size_t i = 0; i < splits->splitCount(); ++i) {
        if (!splits->splitLive(static_cast<int32_t>(i))) continue;
        WatermarkGenerator& generator = generatorOf(static_cast<int32_t>(i));
        if (idleTimeout > 0 && nowMillis - splitActiveMillis_[i] >= idleTimeout) continue;
        any = true;
        watermark = std::min(watermark, generator.currentWatermark());
      }
      if (!any) return;  // every split released or idle, no main output: nothing to say now
    }
    if (watermark > lastEmitted_) {
      lastEmitted_ = watermark;
      output.emitWatermark(Watermark{watermark});
    }
  }

  int64_t idleTimeoutMillis() const { return strategy_.idleTimeoutMillis(); }

 private:
  WatermarkGenerator& generatorOf(int32_t split) {
    if (split == ReaderOutput<T>::kMainOutput) {
      mainUsed_ = true;
      return *generator_;
    }
    while (splitGenerators_.size() <= static_cast<size_t>(split)) {
      splitGenerators_.push_back(strategy_.createWatermarkGenerator());
      splitActiveMillis_.push_back(lastNowMillis_);  // a split starts active
    }
    return *splitGenerators_[static_cast<size_t>(split)];
  }

  WatermarkStrategy<T> strategy_;
  std::unique_ptr<WatermarkGenerator> generator_;  // the main output's
  std::vector<std::unique_ptr<WatermarkGenerator>> splitGenerators_;
  std::vector<int64_t> splitActiveMillis_;  // per split: processing time of its last record
  int64_t lastNowMillis_ = 0;
  bool mainUsed_ = false;
  bool emitWatermarks_;
  int64_t lastEmitted_ = Watermark::kMin;
};

/// Runs a Source's reader for one subtask (the head of a source chain).
///
/// A connector::Source (splits, eddy/connector/source.h) gets its reader from
/// createReader(SourceReaderContext), with the splits of the operator's list state
/// "SourceReaderState" (one element per split, its versioned split bytes) added before the
/// first poll; then it registers with the source's enumerator, whose assignments the task
/// hands over from its mailbox (handleAddSplits, handleNoMoreSplits). Every checkpoint writes
/// the reader's splits (snapshotState) back into that list state, which the task writes into
/// the snapshot; restored at another parallelism, the list is split evenly over the new
/// subtasks. A source of the legacy shape (createReader(subtaskIndex, parallelism)) keeps no
/// state: a restore starts it from the beginning.
template <typename T>
class SourceReaderOperator final : public runtime::SourceOperator,
                                   public connector::detail::SplitReadingOperator {
 public:
  SourceReaderOperator(std::shared_ptr<const Source<T>> source, WatermarkStrategy<T> strategy)
      : source_(std::move(source)),
        strategy_(std::move(strategy)),
        splitSource_(
            dynamic_cast<const connector::detail::SplitReaderFactory<T>*>(source_.get())) {}

  void initializeState(runtime::StateInitializationContext& context) override {
    if (splitSource_ == nullptr) return;  // the legacy shape keeps no position
    readerState_ = context.operatorContext->operatorStateStore().getListState(
        connector::detail::sourceReaderStateDescriptor());
  }

  void open(runtime::OperatorContext& context) override {
    SourceOperator::open(context);
    if (splitSource_ != nullptr) {
      if (readerState_ == nullptr) {  // driven without initializeState
        readerState_ = context.operatorStateStore().getListState(
            connector::detail::sourceReaderStateDescriptor());
      }
      readerContext_ = std::make_unique<connector::detail::TaskSourceReaderContext>(
          context.subtaskIndex, context.parallelism, gateway_);
      splitReader_ = splitSource_->createSplitReader(*readerContext_, context.operatorName);
      // Flink's order: the restored splits, the registration (the enumerator may assign more
      // at once: they arrive as mail, before the first poll), then start.
      std::vector<std::string> restored = readerState_->get();
      if (!restored.empty()) splitReader_->addSerializedSplits(restored);
      if (gateway_ != nullptr) gateway_->registerReader();
      splitReader_->start();
    } else {
      reader_ = source_->createReader(context.subtaskIndex, context.parallelism);
    }
    tracker_.emplace(strategy_, context.executionMode == RuntimeExecutionMode::BATCH);
    lastRecordMillis_ = context.clock->currentTimeMillis();
  }

  runtime::SourceStatus emitNext() override {
    runtime::SourceStatus status;
    if (splitReader_) {
      readerContext_->clearWakeUp();
      status = splitReader_->pollNext(readerOutput_);
    } else {
      status = reader_->pollNext(readerOutput_);
    }
    auto batch = readerOutput_.take(&recordSplits_);
    const bool emitted = batch->size() > 0;
    if (emitted) {
      if (idle_) {
        idle_ = false;
        output().emitWatermarkStatus(WatermarkStatus{false});
      }
      lastRecordMillis_ = context().clock->currentTimeMillis();
      if (context().metrics) context().metrics->numRowsRead += batch->rowCount();
      tracker_->onBatch(*batch, recordSplits_, lastRecordMillis_);
      output().emitBatch(std::move(batch));
    }
    // Also without records: a released or idle split may no longer hold the watermark back.
    if (emitted || readerOutput_.splitCount() > 0) {
      tracker_->emitWatermarkIfAdvanced(output(), &readerOutput_,
                                        context().clock->currentTimeMillis());
    }
    if (!emitted && status == runtime::SourceStatus::NOTHING_AVAILABLE && !idle_ &&
        tracker_->idleTimeoutMillis() > 0 &&
        context().clock->currentTimeMillis() - lastRecordMillis_ >=
            tracker_->idleTimeoutMillis()) {
      idle_ = true;
      output().emitWatermarkStatus(WatermarkStatus{true});
    }
    if (status == runtime::SourceStatus::END_OF_INPUT) {
      // A finished source no longer holds event time back (also in BATCH mode, where this
      // is the only watermark).
      if (idle_) output().emitWatermarkStatus(WatermarkStatus{false});
      output().emitWatermark(Watermark{Watermark::kMax});
    }
    return status;
  }

  void snapshotState(runtime::StateSnapshotContext& context) override {
    if (splitReader_) {
      readerState_->update(splitReader_->snapshotSerializedSplits(context.checkpointId));
    }
  }
  void notifyCheckpointComplete(int64_t checkpointId) override {
    if (splitReader_) splitReader_->notifyCheckpointComplete(checkpointId);
  }
  void notifyCheckpointAborted(int64_t checkpointId) override {
    if (splitReader_) splitReader_->notifyCheckpointAborted(checkpointId);
  }
  void close() override {
    if (splitReader_) splitReader_->close();
  }

  // connector::detail::SplitReadingOperator
  std::shared_ptr<const connector::detail::SourceCoordinatorProvider> sourceCoordinatorProvider()
      const override {
    return std::dynamic_pointer_cast<const connector::detail::SourceCoordinatorProvider>(source_);
  }
  void setReaderGateway(connector::detail::SourceReaderGateway& gateway) override {
    gateway_ = &gateway;
  }
  void handleAddSplits(const std::vector<std::string>& splits) override {
    if (splitReader_) splitReader_->addSerializedSplits(splits);
  }
  void handleNoMoreSplits() override {
    if (splitReader_) splitReader_->notifyNoMoreSplits();
  }
  std::optional<std::chrono::steady_clock::time_point> pollAgainBy() const override {
    // withIdleness needs polls to notice an idle source or split; so does a reader that does
    // not signal.
    if (!splitReader_ || !splitReader_->signalsAvailability() ||
        tracker_->idleTimeoutMillis() > 0) {
      return std::nullopt;
    }
    return readerContext_->requestedWakeUp().value_or(
        std::chrono::steady_clock::time_point::max());
  }

 private:
  std::shared_ptr<const Source<T>> source_;
  WatermarkStrategy<T> strategy_;
  // Set when the source is a connector::Source.
  const connector::detail::SplitReaderFactory<T>* const splitSource_;
  connector::detail::SourceReaderGateway* gateway_ = nullptr;
  ListState<std::string>* readerState_ = nullptr;  // in the context's operator state store
  std::unique_ptr<connector::detail::TaskSourceReaderContext> readerContext_;
  std::unique_ptr<connector::detail::SplitReaderRuntime<T>> splitReader_;
  std::unique_ptr<SourceReader<T>> reader_;  // the legacy shape
  BatchReaderOutput<T> readerOutput_;
  std::vector<int32_t> recordSplits_;  // the split of each record of the batch just taken
  std::optional<WatermarkTracker<T>> tracker_;
  int64_t lastRecordMillis_ = 0;
  bool idle_ = false;
};

/// assignTimestampsAndWatermarks on a stream: replaces upstream timestamps and watermarks
/// (only the final end-of-time watermark passes through, as in Flink).
template <typename T>
class TimestampsAndWatermarksOperator final : public runtime::StreamOperator {
 public:
  explicit TimestampsAndWatermarksOperator(WatermarkStrategy<T> strategy)
      : strategy_(std::move(strategy)) {}
  void open(runtime::OperatorContext& context) override {
    StreamOperator::open(context);
    tracker_.emplace(strategy_, context.executionMode == RuntimeExecutionMode::BATCH);
  }
  void processBatch(int, BatchPtr batch) override {
    tracker_->onBatch(runtime::typedBatch<T>(*batch));
    output().emitBatch(std::move(batch));
    tracker_->emitWatermarkIfAdvanced(output());
  }
  void processWatermark(Watermark watermark) override {
    if (watermark.timestamp == Watermark::kMax) output().emitWatermark(watermark);
  }

 private:
  WatermarkStrategy<T> strategy_;
  std::optional<WatermarkTracker<T>> tracker_;
};

template <typename IN, typename OUT, typename F>
class MapOperator final : public runtime::StreamOperator {
 public:
  explicit MapOperator(F function) : function_(std::move(function)) {}
  void processBatch(int, BatchPtr batch) override {
    auto& input = runtime::typedBatch<IN>(*batch);
    auto result = std::make_unique<TypedBatch<OUT>>();
    result->records.reserve(input.records.size());
    for (const IN& record : input.records) result->records.push_back(function_(record));
    result->timestamps = std::move(input.timestamps);
    output().emitBatch(std::move(result));
  }

 private:
  F function_;
};

template <typename IN, typename OUT, typename F>
class FlatMapOperator final : public runtime::StreamOperator {
 public:
  explicit FlatMapOperator(F function) : function_(std::move(function)) {}
  void processBatch(int, BatchPtr batch) override {
    auto& input = runtime::typedBatch<IN>(*batch);
    for (size_t i = 0; i < input.records.size(); ++i) {
      collector_.setTimestamp(input.timestamps[i]);
      function_(input.records[i], static_cast<Collector<OUT>&>(collector_));
      if (collector_.pending() >= runtime::kDefaultBatchSize) collector_.emitTo(output());
    }
    collector_.emitTo(output());
  }

 private:
  F function_;
  BatchCollector<OUT> collector_;
};

/// Keeps the records the predicate accepts, compacting the batch in place.
template <typename T, typename F>
class FilterOperator final : public runtime::StreamOperator {
 public:
  explicit FilterOperator(F predicate) : predicate_(std::move(predicate)) {}
  void processBatch(int, BatchPtr batch) override {
    auto& input = runtime::typedBatch<T>(*batch);
    size_t kept = 0;
    for (size_t i = 0; i < input.records.size(); ++i) {
      if (!predicate_(static_cast<const T&>(input.records[i]))) continue;
      if (kept != i) {
        input.records[kept] = std::move(input.records[i]);
        input.timestamps[kept] = input.timestamps[i];
      }
      ++kept;
    }
    input.records.erase(input.records.begin() + kept, input.records.end());
    input.timestamps.resize(kept);
    output().emitBatch(std::move(batch));
  }

 private:
  F predicate_;
};

/// A timer service for non-keyed functions: it tells time but has no timers.
class NonKeyedTimerService final : public TimerService {
 public:
  explicit NonKeyedTimerService(const runtime::OperatorContext& context) : context_(context) {}
  int64_t currentProcessingTime() const override { return context_.clock->currentTimeMillis(); }
  int64_t currentWatermark() const override { return watermark_; }
  void registerEventTimeTimer(int64_t) override { unsupported(); }
  void registerProcessingTimeTimer(int64_t) override { unsupported(); }
  void deleteEventTimeTimer(int64_t) override { unsupported(); }
  void deleteProcessingTimeTimer(int64_t) override { unsupported(); }
  int64_t watermark_ = Watermark::kMin;

 private:
  [[noreturn]] static void unsupported() {
    throw ValidationException("Setting timers is only supported on a keyed streams.");
  }
  const runtime::OperatorContext& context_;
};

/// Runs a RichFunction's lifecycle around an operator: its own copy of the function, the
/// runtime context, initializeState and snapshotState when it is a CheckpointedFunction, open
/// and close.
template <typename Function>
class FunctionHolder {
 public:
  static constexpr bool kCheckpointed = std::is_base_of_v<CheckpointedFunction, Function>;

  explicit FunctionHolder(const Function& prototype) : function_(prototype) {}
  /// Before open(), as Flink's: the function has its runtime context already.
  void initializeState(runtime::StateInitializationContext& initialization,
                       KeyedStateBackend* keyedState) {
    if constexpr (kCheckpointed) {
      if (initialization.operatorContext == nullptr) {
        throw InternalError("initializeState without an operator context");
      }
      setRuntimeContext(*initialization.operatorContext, keyedState);
      FunctionInitializationContext context(initialization.isRestored(),
                                            *initialization.operatorContext, keyedState);
      function_.initializeState(context);
    }
  }
  void snapshotState(const runtime::StateSnapshotContext& snapshot) {
    if constexpr (kCheckpointed) {
      function_.snapshotState(
          FunctionSnapshotContext(snapshot.checkpointId, snapshot.checkpointTimestamp));
    }
  }
  void open(const runtime::OperatorContext& context, KeyedStateBackend* keyedState) {
    setRuntimeContext(context, keyedState);
    function_.open(OpenContext{});
    opened_ = true;
  }
  void close() {
    if (opened_) {
      opened_ = false;
      function_.close();
    }
  }
  Function& function() { return function_; }

 private:
  void setRuntimeContext(const runtime::OperatorContext& context, KeyedStateBackend* keyedState) {
    if (runtimeContext_) return;
    runtimeContext_.emplace(context, keyedState);
    function_.setRuntimeContext(&*runtimeContext_);
  }

  Function function_;
  std::optional<RuntimeContext> runtimeContext_;
  bool opened_ = false;
};

template <typename Function>
class ProcessOperator final : public runtime::StreamOperator {
 public:
  using IN = typename Function::InputType;
  using OUT = typename Function::OutputType;

  explicit ProcessOperator(const Function& prototype) : holder_(prototype) {}
  void initializeState(runtime::StateInitializationContext& context) override {
    holder_.initializeState(context, nullptr);
  }
  void snapshotState(runtime::StateSnapshotContext& context) override {
    holder_.snapshotState(context);
  }
  void open(runtime::OperatorContext& context) override {
    StreamOperator::open(context);
    timerService_.emplace(context);
    holder_.open(context, nullptr);
  }
  void processBatch(int, BatchPtr batch) override {
    auto& input = runtime::typedBatch<IN>(*batch);
    for (size_t i = 0; i < input.records.size(); ++i) {
      context_.timestamp_ = input.timestamps[i];
      collector_.setTimestamp(input.timestamps[i]);
      holder_.function().processElement(input.records[i], context_, collector_);
      if (collector_.pending() >= runtime::kDefaultBatchSize) collector_.emitTo(output());
    }
    collector_.emitTo(output());
  }
  void processWatermark(Watermark watermark) override {
    timerService_->watermark_ = watermark.timestamp;
    output().emitWatermark(watermark);
  }
  void close() override { holder_.close(); }

 private:
  class Context final : public Function::Context {
   public:
    explicit Context(ProcessOperator& owner) : owner_(owner) {}
    std::optional<int64_t> timestamp() const override {
      if (timestamp_ == kNoTimestamp) return std::nullopt;
      return timestamp_;
    }
    TimerService& timerService() override { return *owner_.timerService_; }
    int64_t timestamp_ = kNoTimestamp;

   private:
    ProcessOperator& owner_;
  };

  FunctionHolder<Function> holder_;
  std::optional<NonKeyedTimerService> timerService_;
  Context context_{*this};
  BatchCollector<OUT> collector_;
};

/// The shared machinery of keyed operators (CRTP: Derived provides processKeyedRecord,
/// onEventTimeTimer, onProcessingTimeTimer and endOfKey, called with the current key set).
///
/// STREAMING: each record sets its key and is processed at once; watermarks fire event-time
/// timers. BATCH: records are buffered and, at the end of input, processed grouped by key and
/// in timestamp order within a key (Flink sorts keyed input in BATCH mode); after each key's records its remaining timers
/// fire as at the end of time, then endOfKey() lets rolling aggregations emit their final
/// value.
template <typename Derived, typename T, typename K, typename KeySelector>
class KeyedOperatorBase : public runtime::StreamOperator {
 public:
  explicit KeyedOperatorBase(KeySelector keySelector) : keySelector_(std::move(keySelector)) {}

  /// The task's keyed state backend for this subtask, restored, with the timers in it.
  void initializeState(runtime::StateInitializationContext& context) override {
    if (context.operatorContext == nullptr) {
      throw InternalError("initializeState without an operator context");
    }
    attachState(*context.operatorContext);
  }

  void open(runtime::OperatorContext& context) override {
    StreamOperator::open(context);
    batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
    attachState(context);  // when initializeState did not run (an operator driven by hand)
    timers_.open(
        batchMode_ ? nullptr : context.processingTimeService,
        [this](int64_t timestamp, const std::string& keyBytes) {
          setCurrentKeyFromBytes(keyBytes);
          derived().onEventTimeTimer(timestamp);
        },
        [this](int64_t timestamp, const std::string& keyBytes) {
          setCurrentKeyFromBytes(keyBytes);
          derived().onProcessingTimeTimer(timestamp);
          derived().flushOutput();
        });
  }

  void processBatch(int, BatchPtr batch) override {
    auto& input = runtime::typedBatch<T>(*batch);
    if (batchMode_) {
      for (size_t i = 0; i < input.records.size(); ++i) {
        std::string keyBytes;
        TypeSerializer<K>::serialize(keySelector_(input.records[i]), keyBytes);
        buffered_.push_back(
            BufferedRecord{std::move(keyBytes), std::move(input.records[i]), input.timestamps[i]});
      }
      return;
    }
    for (size_t i = 0; i < input.records.size(); ++i) {
      setCurrentKey(keySelector_(input.records[i]));
      derived().processKeyedRecord(input.records[i], input.timestamps[i]);
    }
    derived().flushOutput();
  }

  void processWatermark(Watermark watermark) override {
    if (batchMode_) return;  // BATCH: the final watermark leaves after finish()
    timers_.advanceWatermark(watermark.timestamp);
    derived().flushOutput();
    output().emitWatermark(watermark);
  }

  void finish() override {
    if (!batchMode_) return;
    // Sorted by key, then by timestamp (as Flink's sorted BATCH input); records without a
    // timestamp keep their arrival order.
    std::stable_sort(buffered_.begin(), buffered_.end(),
                     [](const BufferedRecord& a, const BufferedRecord& b) {
                       int order = a.keyBytes.compare(b.keyBytes);
                       return order != 0 ? order < 0 : a.timestamp < b.timestamp;
                     });
    for (size_t begin = 0; begin < buffered_.size();) {
      size_t end = begin;
      setCurrentKey(keySelector_(buffered_[begin].record));
      while (end < buffered_.size() && buffered_[end].keyBytes == buffered_[begin].keyBytes) {
        derived().processKeyedRecord(buffered_[end].record, buffered_[end].timestamp);
        ++end;
      }
      timers_.fireAllTimersAtEndOfKey();
      derived().endOfKey();
      derived().flushOutput();
      begin = end;
    }
    buffered_.clear();
    buffered_.shrink_to_fit();
    output().emitWatermark(Watermark{Watermark::kMax});
  }

  // Defaults for Derived.
  void onEventTimeTimer(int64_t) {}
  void onProcessingTimeTimer(int64_t) {}
  void endOfKey() {}

 protected:
  Derived& derived() { return static_cast<Derived&>(*this); }

  void setCurrentKey(K key) {
    currentKeyBytes_.clear();
    TypeSerializer<K>::serialize(key, currentKeyBytes_);
    stateBackend_->setCurrentKey(currentKeyBytes_,
                                 assignToKeyGroup(currentKeyBytes_, context().maxParallelism));
    currentKey_ = std::move(key);
  }
  void setCurrentKeyFromBytes(const std::string& keyBytes) {
    std::string_view bytes = keyBytes;
    setCurrentKey(TypeSerializer<K>::deserialize(bytes));
  }

  void attachState(runtime::OperatorContext& context) {
    if (stateBackend_ != nullptr) return;
    stateBackend_ = &context.keyedStateBackend();
    timers_.registerWith(*stateBackend_);
  }

  bool batchMode() const { return batchMode_; }
  const K& currentKey() const { return *currentKey_; }
  const std::string& currentKeyBytes() const { return currentKeyBytes_; }
  KeyedStateBackend& stateBackend() { return *stateBackend_; }
  runtime::KeyedTimerService& timers() { return timers_; }

 private:
  struct BufferedRecord {
    std::string keyBytes;
    T record;
    int64_t timestamp;
  };

  KeySelector keySelector_;
  bool batchMode_ = false;
  KeyedStateBackend* stateBackend_ = nullptr;  // the context's
  runtime::KeyedTimerService timers_;
  std::optional<K> currentKey_;
  std::string currentKeyBytes_;
  std::vector<BufferedRecord> buffered_;
};

template <typename Function, typename KeySelector>
class KeyedProcessOperator final
    : public KeyedOperatorBase<KeyedProcessOperator<Function, KeySelector>,
                               typename Function::InputType, typename Function::KeyType,
                               KeySelector> {
  using Base = KeyedOperatorBase<KeyedProcessOperator<Function, KeySelector>,
                                 typename Function::InputType, typename Function::KeyType,
                                 KeySelector>;
  friend Base;

 public:
  using K = typename Function::KeyType;
  using IN = typename Function::InputType;
  using OUT = typename Function::OutputType;

  KeyedProcessOperator(const Function& prototype, KeySelector keySelector)
      : Base(std::move(keySelector)), holder_(prototype) {}

  void initializeState(runtime::StateInitializationContext& context) override {
    Base::initializeState(context);
    holder_.initializeState(context, &this->stateBackend());
  }
  void snapshotState(runtime::StateSnapshotContext& context) override {
    holder_.snapshotState(context);
  }

  void open(runtime::OperatorContext& context) override {
    Base::open(context);
    holder_.open(context, &this->stateBackend());
  }
  void close() override { holder_.close(); }

  void processKeyedRecord(const IN& record, int64_t timestamp) {
    context_.timestamp_ = timestamp;
    collector_.setTimestamp(timestamp);
    holder_.function().processElement(record, context_, collector_);
    if (collector_.pending() >= runtime::kDefaultBatchSize) collector_.emitTo(this->output());
  }
  void onEventTimeTimer(int64_t timestamp) { fireTimer(timestamp, TimeDomain::EVENT_TIME); }
  void onProcessingTimeTimer(int64_t timestamp) {
    fireTimer(timestamp, TimeDomain::PROCESSING_TIME);
  }
  void flushOutput() { collector_.emitTo(this->output()); }

 private:
  void fireTimer(int64_t timestamp, TimeDomain domain) {
    context_.timestamp_ = domain == TimeDomain::EVENT_TIME ? timestamp : kNoTimestamp;
    context_.domain_ = domain;
    collector_.setTimestamp(context_.timestamp_);
    holder_.function().onTimer(timestamp, context_, collector_);
  }

  class Context final : public Function::OnTimerContext, public TimerService {
   public:
    explicit Context(KeyedProcessOperator& owner) : owner_(owner) {}
    std::optional<int64_t> timestamp() const override {
      if (timestamp_ == kNoTimestamp) return std::nullopt;
      return timestamp_;
    }
    TimerService& timerService() override { return *this; }
    const K& getCurrentKey() const override { return owner_.currentKey(); }
    TimeDomain timeDomain() const override { return domain_; }

    int64_t currentProcessingTime() const override {
      return owner_.context().clock->currentTimeMillis();
    }
    int64_t currentWatermark() const override { return owner_.timers().currentWatermark(); }
    void registerEventTimeTimer(int64_t time) override {
      owner_.timers().registerEventTimeTimer(time, owner_.currentKeyBytes());
    }
    void registerProcessingTimeTimer(int64_t time) override {
      owner_.timers().registerProcessingTimeTimer(time, owner_.currentKeyBytes());
    }
    void deleteEventTimeTimer(int64_t time) override {
      owner_.timers().deleteEventTimeTimer(time, owner_.currentKeyBytes());
    }
    void deleteProcessingTimeTimer(int64_t time) override {
      owner_.timers().deleteProcessingTimeTimer(time, owner_.currentKeyBytes());
    }

    int64_t timestamp_ = kNoTimestamp;
    TimeDomain domain_ = TimeDomain::EVENT_TIME;

   private:
    KeyedProcessOperator& owner_;
  };

  FunctionHolder<Function> holder_;
  Context context_{*this};
  BatchCollector<OUT> collector_;
};

/// keyBy(...).reduce(f) and the sum/min/max aggregations built on it. STREAMING emits the
/// updated value per record; BATCH emits each key's final value (Flink's semantics).
template <typename T, typename K, typename KeySelector, typename ReduceFunction>
class ReduceOperator final
    : public KeyedOperatorBase<ReduceOperator<T, K, KeySelector, ReduceFunction>, T, K,
                               KeySelector> {
  using Base =
      KeyedOperatorBase<ReduceOperator<T, K, KeySelector, ReduceFunction>, T, K, KeySelector>;
  friend Base;

 public:
  ReduceOperator(ReduceFunction reduce, KeySelector keySelector)
      : Base(std::move(keySelector)), reduce_(std::move(reduce)) {}

  void open(runtime::OperatorContext& context) override {
    Base::open(context);
    state_ = this->stateBackend().getValueState(ValueStateDescriptor<T>("_op_state"));
  }

  void processKeyedRecord(const T& record, int64_t timestamp) {
    std::optional<T> current = state_->value();
    T updated = current ? reduce_(*current, record) : record;
    if (this->batchMode()) {
      lastTimestamp_ = timestamp;
      state_->update(std::move(updated));
      return;
    }
    collector_.setTimestamp(timestamp);
    collector_.collect(updated);
    state_->update(std::move(updated));
  }
  void endOfKey() {
    std::optional<T> final = state_->value();
    if (!final) return;
    collector_.setTimestamp(lastTimestamp_);
    collector_.collect(std::move(*final));
    state_->clear();
  }
  void flushOutput() { collector_.emitTo(this->output()); }

 private:
  ReduceFunction reduce_;
  ValueState<T>* state_ = nullptr;
  BatchCollector<T> collector_;
  int64_t lastTimestamp_ = kNoTimestamp;
};

/// Calls a function for every record (addSink with a callable).
template <typename T, typename F>
class SinkFunctionOperator final : public runtime::StreamOperator {
 public:
  explicit SinkFunctionOperator(F function) : function_(std::move(function)) {}
  void processBatch(int, BatchPtr batch) override {
    for (const T& record : runtime::typedBatch<T>(*batch).records) function_(record);
  }

 private:
  F function_;
};

}  // namespace eddy::operators
