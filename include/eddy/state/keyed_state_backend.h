// KeyedStateBackend: where a keyed operator subtask keeps its keyed state, as Flink's
// KeyedStateBackend. The runtime owns one backend per keyed operator subtask; before it hands
// a record or a timer to the user function it calls setCurrentKey(keyBytes, keyGroup), and
// every state object of the backend then reads and writes that key's values.
//
// The backend owns a contiguous KeyGroupRange of the operator's maxParallelism key groups.
// Snapshots are written one key group at a time, in the format of docs/state_format.md, so a
// restore at another parallelism reads exactly the key groups each new subtask owns, into any
// backend implementation.
//
// Threading: a backend and its state objects are single-threaded. Only the task thread that
// owns the subtask calls them (records, timers and snapshots are serialized on that thread).
//
// Ownership: state objects returned by the accessors are owned by the backend and stay valid
// until it is destroyed. Asking again with the same name returns the same object; asking with
// the same name but another kind or value type throws ValidationException.
//
// Implementations: the accessors are templates over the value types, the implementations are
// virtual; the bridge between them is StateType (state_type.h). An implementation overrides
// createOrGetState plus the key and snapshot methods. HeapKeyedStateBackend keeps typed
// objects in memory; a serialized-bytes backend (RocksDB) implements the same interface.
//
// Raw keyed state: state that its owner keeps in its own structure but that belongs in the
// key group sections with the typed states (a keyed operator's timers, as Flink keeps timers
// in the keyed backend's priority-queue states). The owner registers it by name; the backend
// asks it for its block bodies when it snapshots and hands it its blocks when it restores.
//
// Asynchronous snapshots: freezeKeyGroups() takes on the task thread what a snapshot would
// write now, and the FrozenKeyedState it returns writes the sections later, on any thread,
// while the task goes on with its records (Flink's asynchronous snapshot phase). A frozen
// snapshot owns or shares (immutably) everything it writes and nothing of it changes
// afterwards; the bytes it writes equal those snapshotKeyGroups would have written at the
// freeze. A raw state takes part by overriding RawKeyedState::freezeKeyGroups; one that does
// not is written at the freeze (synchronously), as are the typed states of the heap backend.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/detail/state/state_type.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state.h"
#include "eddy/state/state_descriptor.h"

namespace eddy {

namespace state {

/// The block bodies of a raw keyed state as they were at a freeze, written later on any thread
/// (see the file comment), one key group at a time, so that a checkpoint streams them into its
/// state file without holding all of them at once.
class FrozenKeyGroups {
 public:
  virtual ~FrozenKeyGroups() = default;
  /// Appends to `body` (empty on entry) what RawKeyedState::snapshotKeyGroups would have
  /// written for `keyGroup` at the freeze; nothing for a key group without entries. Called for
  /// key groups of the frozen range in ascending order, each at most once, on one thread.
  virtual void writeKeyGroup(int keyGroup, std::string& body) = 0;
};

/// A FrozenKeyGroups that writes every body at once, at the first writeKeyGroup, and then
/// hands them out: for raw states whose bodies are small beside the rows an operator stores.
class FrozenKeyGroupBodies : public FrozenKeyGroups {
 public:
  explicit FrozenKeyGroupBodies(KeyGroupRange range) : range_(range) {}
  void writeKeyGroup(int keyGroup, std::string& body) final;

 protected:
  /// Writes what RawKeyedState::snapshotKeyGroups would have written at the freeze into
  /// `bodies` (sized to the range, filled with empty strings). Called once.
  virtual void write(std::vector<std::string>& bodies) = 0;
  /// The frozen range.
  KeyGroupRange range() const { return range_; }

 private:
  const KeyGroupRange range_;
  bool written_ = false;
  std::vector<std::string> bodies_;
};

/// Writes the bodies of every key group of `range` (the frozen range) into `bodies`, as
/// RawKeyedState::snapshotKeyGroups would.
void writeAllKeyGroups(FrozenKeyGroups& frozen, KeyGroupRange range,
                       std::vector<std::string>& bodies);

/// Keyed state kept outside the backend's typed states and snapshotted with them (see the
/// file comment). Implemented by its owner, which outlives the backend's use of it (it is
/// called only from snapshot and restore calls on the backend, on the task thread).
class RawKeyedState {
 public:
  virtual ~RawKeyedState() = default;
  /// What snapshotKeyGroups(range, maxParallelism, ..) would write now, frozen to be written
  /// later on another thread. The default writes it now and keeps the bodies.
  virtual std::unique_ptr<FrozenKeyGroups> freezeKeyGroups(KeyGroupRange range,
                                                           int maxParallelism) const;
  /// For every key group of `range`, the body of this state's block in that key group's
  /// section (docs/state_format.md: keyCount, then keyed entries in the payload format of the
  /// kind the state was registered with, without timestamps) into
  /// `bodies[keyGroup - range.startKeyGroup]`, which the caller sized to the range and filled
  /// with empty strings; a key group without entries stays empty (no block is written).
  virtual void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                                 std::vector<std::string>& bodies) const = 0;
  /// Merges the block body this state wrote for `keyGroup`.
  virtual void restoreKeyGroup(int keyGroup, std::string_view body) = 0;
};

/// Where the sections of a frozen keyed state go as they are written: a checkpoint's state
/// file, or a map in memory.
class KeyGroupSectionSink {
 public:
  virtual ~KeyGroupSectionSink() = default;
  /// Takes the section of `keyGroup`; `bytes` are valid during the call only.
  virtual void addSection(int keyGroup, std::string_view bytes) = 0;
};

/// The sections of a keyed state backend as they were at a freeze, written later on any thread
/// (see the file comment).
class FrozenKeyedState {
 public:
  virtual ~FrozenKeyedState() = default;
  /// The key groups it writes: one section each.
  virtual KeyGroupRange keyGroupRange() const = 0;
  /// Hands `sink` the section of every key group of keyGroupRange(), in ascending order: what
  /// KeyedStateBackend::snapshotKeyGroups would have written at the freeze. Called once.
  virtual void writeSections(KeyGroupSectionSink& sink) = 0;
  /// writeSections into `sections`, by key group.
  void write(std::map<int, std::string>& sections);
};

}  // namespace state

/// The keyed state of one keyed operator subtask (see the file comment).
class KeyedStateBackend {
 public:
  virtual ~KeyedStateBackend() = default;

  /// Makes `keyBytes` (the key's TypeSerializer bytes) the current key. `keyGroup` must be
  /// assignToKeyGroup(keyBytes, maxParallelism()) and inside keyGroupRange(); a key group
  /// outside the range throws InternalError.
  virtual void setCurrentKey(std::string_view keyBytes, int keyGroup) = 0;

  /// The current key's bytes (valid until the next setCurrentKey); empty before the first.
  virtual std::string_view currentKey() const = 0;

  /// The current key's key group; -1 before the first setCurrentKey.
  virtual int currentKeyGroup() const = 0;

  /// The key groups this backend owns.
  virtual KeyGroupRange keyGroupRange() const = 0;

  /// The operator's number of key groups.
  virtual int maxParallelism() const = 0;

  /// The ValueState named by `descriptor`, created on first request.
  template <typename V, typename Serializer>
  ValueState<V>* getValueState(const ValueStateDescriptor<V, Serializer>& descriptor) {
    return static_cast<ValueState<V>*>(createOrGetState(
        state::DescribedStateType<ValueStateDescriptor<V, Serializer>>(descriptor)));
  }

  /// The ListState named by `descriptor`, created on first request.
  template <typename V, typename Serializer>
  ListState<V>* getListState(const ListStateDescriptor<V, Serializer>& descriptor) {
    return static_cast<ListState<V>*>(createOrGetState(
        state::DescribedStateType<ListStateDescriptor<V, Serializer>>(descriptor)));
  }

  /// The MapState named by `descriptor`, created on first request.
  template <typename K, typename V, typename KeySerializer, typename ValueSerializer>
  MapState<K, V>* getMapState(
      const MapStateDescriptor<K, V, KeySerializer, ValueSerializer>& descriptor) {
    return static_cast<MapState<K, V>*>(createOrGetState(
        state::DescribedStateType<MapStateDescriptor<K, V, KeySerializer, ValueSerializer>>(
            descriptor)));
  }

  /// The ReducingState named by `descriptor`, created on first request.
  template <typename V, typename Serializer>
  ReducingState<V>* getReducingState(const ReducingStateDescriptor<V, Serializer>& descriptor) {
    return static_cast<ReducingState<V>*>(createOrGetState(
        state::DescribedStateType<ReducingStateDescriptor<V, Serializer>>(descriptor)));
  }

  /// The AggregatingState named by `descriptor`, created on first request.
  template <typename IN, typename ACC, typename OUT, typename AccumulatorSerializer>
  AggregatingState<IN, OUT>* getAggregatingState(
      const AggregatingStateDescriptor<IN, ACC, OUT, AccumulatorSerializer>& descriptor) {
    return static_cast<AggregatingState<IN, OUT>*>(createOrGetState(
        state::DescribedStateType<AggregatingStateDescriptor<IN, ACC, OUT, AccumulatorSerializer>>(
            descriptor)));
  }

  /// Appends the snapshot section of `keyGroup` (which this backend must own) to `out`: every
  /// state's live entries of that key group, expired entries left out, in the format of
  /// docs/state_format.md. States restored but not yet registered are written as restored.
  virtual void snapshotKeyGroup(int keyGroup, std::string& out) const = 0;

  /// Reads one section written by snapshotKeyGroup of any backend (at any parallelism) for
  /// `keyGroup`, which this backend must own; the bytes must hold exactly that section. A
  /// state that is not registered yet keeps its bytes until the user function registers it.
  virtual void restoreKeyGroup(int keyGroup, std::string_view bytes) = 0;

  /// The sections of every key group the backend owns, into `sections` by key group (what an
  /// OperatorSnapshot's keyed state holds). Cheaper than snapshotKeyGroup in a loop where raw
  /// states are registered: each is asked once for all key groups.
  virtual void snapshotKeyGroups(std::map<int, std::string>& sections) const = 0;

  /// The sections snapshotKeyGroups would write now, frozen to be written later on another
  /// thread (see the file comment).
  virtual std::unique_ptr<state::FrozenKeyedState> freezeKeyGroups() const = 0;

  /// Restores the sections of `sections` whose key group this backend owns and ignores the
  /// others, so the sections of every old subtask of a rescaled operator may be handed in.
  void restoreKeyGroups(const std::map<int, std::string>& sections) {
    const KeyGroupRange range = keyGroupRange();
    for (auto it = sections.lower_bound(range.startKeyGroup);
         it != sections.end() && it->first <= range.endKeyGroup; ++it) {
      restoreKeyGroup(it->first, it->second);
    }
  }

  /// Registers raw keyed state `name` of payload kind `kind` (see the file comment); blocks of
  /// that name restored before are handed to it now, later ones as they are restored. The name
  /// must not be used by a typed state (ValidationException either way round); by convention
  /// raw state names start with '_' (the timers: "_timer_state/...").
  virtual void registerRawKeyedState(const std::string& name, state::StateKind kind,
                                     state::RawKeyedState& rawState) = 0;

 protected:
  /// The bridge from the typed accessors: returns the state registered under type.name(),
  /// creating it when absent. The result must be the object of the kind and types `type`
  /// describes, seen as a State (the accessors downcast it); a registered state of another
  /// kind or descriptor type throws ValidationException (see state::checkStateTypeMatches).
  virtual State* createOrGetState(const state::StateType& type) = 0;
};

}  // namespace eddy
