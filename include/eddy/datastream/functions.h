// The user-function interfaces of the DataStream API, with Flink's names: Collector,
// RuntimeContext, RichFunction, TimerService, ProcessFunction and KeyedProcessFunction.
//
// map/flatMap/filter/reduce take any C++ callable (a lambda is the idiom); functions with a
// lifecycle, state or timers derive from RichFunction. A function object given to the API is
// a prototype: every parallel subtask runs its own copy (as Flink deserializes one copy per
// subtask), so member variables are per subtask. All calls on a function come from the one
// thread running its subtask.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "eddy/exceptions.h"
#include "eddy/runtime/record_batch.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/state/state.h"

namespace eddy {

/// Receives the records a function emits. Records take the timestamp of the input record
/// (or of the timer) being processed.
template <typename T>
class Collector {
 public:
  void collect(const T& record) { batch_->push(record, timestamp_); }
  void collect(T&& record) { batch_->push(std::move(record), timestamp_); }

 protected:
  runtime::TypedBatch<T>* batch_ = nullptr;
  int64_t timestamp_ = runtime::kNoTimestamp;
};

/// Passed to RichFunction::open (Flink's OpenContext; carries nothing yet).
class OpenContext {};

/// What a function knows about where it runs, and its access to keyed state.
class RuntimeContext {
 public:
  RuntimeContext(const runtime::OperatorContext& context, KeyedStateBackend* keyedState)
      : context_(context), keyedState_(keyedState) {}

  const std::string& getTaskName() const { return context_.operatorName; }
  int getIndexOfThisSubtask() const { return context_.subtaskIndex; }
  int getNumberOfParallelSubtasks() const { return context_.parallelism; }
  int getMaxNumberOfParallelSubtasks() const { return context_.maxParallelism; }
  RuntimeExecutionMode getExecutionMode() const { return context_.executionMode; }

  /// Keyed state of the current key; only on a keyed stream (after keyBy). The returned
  /// state belongs to the runtime and stays valid until the function is closed.
  template <typename V>
  ValueState<V>* getState(const ValueStateDescriptor<V>& descriptor) {
    return keyedStateBackend().getValueState(descriptor);
  }
  template <typename V>
  ListState<V>* getListState(const ListStateDescriptor<V>& descriptor) {
    return keyedStateBackend().getListState(descriptor);
  }
  template <typename K, typename V>
  MapState<K, V>* getMapState(const MapStateDescriptor<K, V>& descriptor) {
    return keyedStateBackend().getMapState(descriptor);
  }
  template <typename V>
  ReducingState<V>* getReducingState(const ReducingStateDescriptor<V>& descriptor) {
    return keyedStateBackend().getReducingState(descriptor);
  }
  template <typename IN, typename ACC, typename OUT>
  AggregatingState<IN, OUT>* getAggregatingState(
      const AggregatingStateDescriptor<IN, ACC, OUT>& descriptor) {
    return keyedStateBackend().getAggregatingState(descriptor);
  }

 private:
  KeyedStateBackend& keyedStateBackend() const {
    if (keyedState_ == nullptr) {
      throw ValidationException(
          "Keyed state can only be used on a 'keyed stream', i.e., after a 'keyBy()' "
          "operation.");
    }
    return *keyedState_;
  }

  const runtime::OperatorContext& context_;
  KeyedStateBackend* keyedState_;
};

/// A function with a lifecycle and a runtime context.
class RichFunction {
 public:
  virtual ~RichFunction() = default;
  virtual void open(const OpenContext&) {}
  virtual void close() {}

  RuntimeContext& getRuntimeContext() {
    if (runtimeContext_ == nullptr) {
      throw ValidationException("The runtime context has not been initialized.");
    }
    return *runtimeContext_;
  }
  /// Called by the runtime before open().
  void setRuntimeContext(RuntimeContext* runtimeContext) { runtimeContext_ = runtimeContext; }

 private:
  RuntimeContext* runtimeContext_ = nullptr;
};

enum class TimeDomain { EVENT_TIME, PROCESSING_TIME };

/// Time and timers, as seen from a process function.
class TimerService {
 public:
  virtual ~TimerService() = default;
  virtual int64_t currentProcessingTime() const = 0;
  virtual int64_t currentWatermark() const = 0;
  /// Timers exist per key: on a non-keyed stream these throw.
  virtual void registerEventTimeTimer(int64_t time) = 0;
  virtual void registerProcessingTimeTimer(int64_t time) = 0;
  virtual void deleteEventTimeTimer(int64_t time) = 0;
  virtual void deleteProcessingTimeTimer(int64_t time) = 0;
};

/// Processes each record of a (non-keyed) stream.
template <typename IN, typename OUT>
class ProcessFunction : public RichFunction {
 public:
  using InputType = IN;
  using OutputType = OUT;

  class Context {
   public:
    virtual ~Context() = default;
    /// The timestamp of the record being processed, if it has one.
    virtual std::optional<int64_t> timestamp() const = 0;
    virtual TimerService& timerService() = 0;
  };

  virtual void processElement(const IN& value, Context& context, Collector<OUT>& out) = 0;
};

/// Processes each record of a keyed stream, with keyed state and timers.
template <typename K, typename IN, typename OUT>
class KeyedProcessFunction : public RichFunction {
 public:
  using KeyType = K;
  using InputType = IN;
  using OutputType = OUT;

  class Context {
   public:
    virtual ~Context() = default;
    /// The timestamp of the record being processed (or of the firing timer), if any.
    virtual std::optional<int64_t> timestamp() const = 0;
    virtual TimerService& timerService() = 0;
    virtual const K& getCurrentKey() const = 0;
  };

  class OnTimerContext : public Context {
   public:
    virtual TimeDomain timeDomain() const = 0;
  };

  virtual void processElement(const IN& value, Context& context, Collector<OUT>& out) = 0;
  virtual void onTimer(int64_t timestamp, OnTimerContext& context, Collector<OUT>& out) {
    (void)timestamp;
    (void)context;
    (void)out;
  }
};

}  // namespace eddy
