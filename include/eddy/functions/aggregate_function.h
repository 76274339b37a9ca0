// AggregateFunction: Flink's incremental aggregation contract. An aggregation keeps an
// accumulator (ACC) per key or window; each input (IN) is folded into it with add(), two
// accumulators combine with merge() (session windows, two-phase aggregation), and getResult()
// reads the output (OUT) without consuming the accumulator.
//
// Implementations are definitions: they hold no per-key data, since every accumulator lives
// in state (AggregatingState) or in the operator that calls them. One instance may be shared
// (std::shared_ptr) by the descriptors of several subtasks, which call it from their own task
// threads, so an implementation must not mutate members in its methods.
#pragma once

namespace eddy {

/// Flink's AggregateFunction<IN, ACC, OUT>.
template <typename IN, typename ACC, typename OUT>
class AggregateFunction {
 public:
  virtual ~AggregateFunction() = default;

  /// A fresh, empty accumulator.
  virtual ACC createAccumulator() const = 0;

  /// Folds `value` into `accumulator` and returns the updated accumulator.
  virtual ACC add(const IN& value, ACC accumulator) const = 0;

  /// The result of the aggregation so far; the accumulator stays usable.
  virtual OUT getResult(const ACC& accumulator) const = 0;

  /// Combines two accumulators into one.
  virtual ACC merge(ACC left, ACC right) const = 0;
};

}  // namespace eddy
