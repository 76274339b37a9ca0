// State descriptors: how a user function names and types a keyed state, as Flink's
// StateDescriptor family. A descriptor is a small value (name, serializers as type
// parameters, an optional reduce or aggregate function, an optional TTL config); handing it
// to KeyedStateBackend::getValueState (or RuntimeContext::getState) registers the state under
// its name on first use and returns the existing state afterwards.
//
// Serializers are type parameters that default to TypeSerializer<T>; a state's bytes in a
// snapshot are what its serializers write. The name identifies the state across checkpoints,
// so renaming a state loses its restored data.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "eddy/functions/aggregate_function.h"
#include "eddy/state/state_ttl_config.h"
#include "eddy/types/type_serializer.h"

namespace eddy {

namespace state {

/// The kind of a keyed state. The numbers are written into snapshots: never renumber.
enum class StateKind : uint8_t {
  kValue = 1,
  kList = 2,
  kMap = 3,
  kReducing = 4,
  kAggregating = 5,
};

/// "ValueState", "ListState", ... (for messages).
std::string_view stateKindName(StateKind kind);

}  // namespace state

/// What every descriptor has: a name and an optional TTL.
class StateDescriptor {
 public:
  explicit StateDescriptor(std::string name) : name_(std::move(name)) {}

  const std::string& getName() const { return name_; }

  /// Gives the state a time-to-live (see StateTtlConfig); a disabled config turns TTL off.
  void enableTimeToLive(const StateTtlConfig& ttlConfig) {
    if (ttlConfig.isEnabled()) {
      ttlConfig_ = ttlConfig;
    } else {
      ttlConfig_.reset();
    }
  }

  /// The TTL config, or nullopt when TTL is off.
  const std::optional<StateTtlConfig>& getTtlConfig() const { return ttlConfig_; }

 private:
  std::string name_;
  std::optional<StateTtlConfig> ttlConfig_;
};

/// Describes a ValueState<V>.
template <typename V, typename ValueSerializer = TypeSerializer<V>>
class ValueStateDescriptor : public StateDescriptor {
 public:
  static constexpr state::StateKind kKind = state::StateKind::kValue;
  explicit ValueStateDescriptor(std::string name) : StateDescriptor(std::move(name)) {}
};

/// Describes a ListState<V>.
template <typename V, typename ElementSerializer = TypeSerializer<V>>
class ListStateDescriptor : public StateDescriptor {
 public:
  static constexpr state::StateKind kKind = state::StateKind::kList;
  explicit ListStateDescriptor(std::string name) : StateDescriptor(std::move(name)) {}
};

/// Describes a MapState<K, V>.
template <typename K, typename V, typename KeySerializer = TypeSerializer<K>,
          typename ValueSerializer = TypeSerializer<V>>
class MapStateDescriptor : public StateDescriptor {
 public:
  static constexpr state::StateKind kKind = state::StateKind::kMap;
  explicit MapStateDescriptor(std::string name) : StateDescriptor(std::move(name)) {}
};

/// Describes a ReducingState<V> folded by `reduceFunction(accumulated, added)`.
template <typename V, typename ValueSerializer = TypeSerializer<V>>
class ReducingStateDescriptor : public StateDescriptor {
 public:
  static constexpr state::StateKind kKind = state::StateKind::kReducing;
  using ReduceFunction = std::function<V(const V&, const V&)>;

  ReducingStateDescriptor(std::string name, ReduceFunction reduceFunction)
      : StateDescriptor(std::move(name)), reduceFunction_(std::move(reduceFunction)) {}

  const ReduceFunction& getReduceFunction() const { return reduceFunction_; }

 private:
  ReduceFunction reduceFunction_;
};

/// Describes an AggregatingState<IN, OUT> whose accumulator ACC is stored (and snapshotted
/// with AccumulatorSerializer).
template <typename IN, typename ACC, typename OUT,
          typename AccumulatorSerializer = TypeSerializer<ACC>>
class AggregatingStateDescriptor : public StateDescriptor {
 public:
  static constexpr state::StateKind kKind = state::StateKind::kAggregating;

  AggregatingStateDescriptor(std::string name,
                             std::shared_ptr<AggregateFunction<IN, ACC, OUT>> aggregateFunction)
      : StateDescriptor(std::move(name)), aggregateFunction_(std::move(aggregateFunction)) {}

  const std::shared_ptr<AggregateFunction<IN, ACC, OUT>>& getAggregateFunction() const {
    return aggregateFunction_;
  }

 private:
  std::shared_ptr<AggregateFunction<IN, ACC, OUT>> aggregateFunction_;
};

}  // namespace eddy
