// The keyed state interfaces user functions program against, as Flink's
// org.apache.flink.api.common.state: ValueState, ListState, MapState, ReducingState and
// AggregatingState. Every call acts on the value of the *current key*: the runtime sets the
// key on the keyed state backend before it hands a record or a timer to the user function, so
// the same state object reads and writes a different value for each key.
//
// State objects are created and owned by a KeyedStateBackend (see keyed_state_backend.h) and
// stay valid until that backend is destroyed. Like the backend they are single-threaded: only
// the task thread that owns the subtask may call them. Values are passed in and returned by
// value; a returned value is a copy, so changing it does not change the state until it is
// written back.
#pragma once

#include <optional>
#include <utility>
#include <vector>

namespace eddy {

/// The base of every keyed state: it can be cleared for the current key.
class State {
 public:
  virtual ~State() = default;
  /// Removes the current key's value.
  virtual void clear() = 0;
};

/// One value per key.
template <typename V>
class ValueState : public State {
 public:
  /// The current key's value, or nullopt when it has none (or it expired).
  virtual std::optional<V> value() = 0;
  /// Replaces the current key's value.
  virtual void update(V value) = 0;
  /// The current key's value for an in-place change, or nullptr when it has none (or it
  /// expired) — and always nullptr in backends that keep values serialized, so callers fall
  /// back to value()/update(). A change through the pointer counts as an update() (a TTL
  /// write); the pointer is valid until the next call on the state backend. An eddy
  /// extension, for operators that change large values a little per record.
  virtual V* valuePointer() { return nullptr; }
};

/// A list of values per key.
template <typename V>
class ListState : public State {
 public:
  /// The current key's elements in insertion order; empty when it has none.
  virtual std::vector<V> get() = 0;
  /// Appends one element.
  virtual void add(V value) = 0;
  /// Appends the elements in order.
  virtual void addAll(std::vector<V> values) = 0;
  /// Replaces the list; an empty vector clears it.
  virtual void update(std::vector<V> values) = 0;
};

/// A map from user keys (K) to values (V) per key. The order of entries(), keys() and
/// values() is unspecified but the same for the three when nothing changes in between.
template <typename K, typename V>
class MapState : public State {
 public:
  /// The value mapped to `key`, or nullopt.
  virtual std::optional<V> get(const K& key) = 0;
  /// Maps `key` to `value`, replacing any previous value.
  virtual void put(K key, V value) = 0;
  /// Puts every pair.
  virtual void putAll(std::vector<std::pair<K, V>> entries) = 0;
  /// Removes the mapping for `key`, if any.
  virtual void remove(const K& key) = 0;
  /// Whether `key` is mapped.
  virtual bool contains(const K& key) = 0;
  /// Every (key, value) pair.
  virtual std::vector<std::pair<K, V>> entries() = 0;
  /// Every key.
  virtual std::vector<K> keys() = 0;
  /// Every value.
  virtual std::vector<V> values() = 0;
  /// Whether the map is empty.
  virtual bool isEmpty() = 0;
};

/// One value per key into which added values are folded by a reduce function.
template <typename V>
class ReducingState : public State {
 public:
  /// The reduced value, or nullopt when nothing was added.
  virtual std::optional<V> get() = 0;
  /// Folds `value` into the current value: reduce(current, value), or `value` when empty.
  virtual void add(V value) = 0;
};

/// One accumulator per key into which inputs are folded by an AggregateFunction; reads return
/// getResult(accumulator). The accumulator type is hidden from the user function.
template <typename IN, typename OUT>
class AggregatingState : public State {
 public:
  /// The aggregate's result, or nullopt when nothing was added.
  virtual std::optional<OUT> get() = 0;
  /// Folds `value` into the accumulator (created by createAccumulator() when empty).
  virtual void add(IN value) = 0;
};

}  // namespace eddy
