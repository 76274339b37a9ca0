// HeapKeyedStateBackend: the default keyed state backend, keeping every state's values as
// typed C++ objects in hash tables, one per key group per state (see
// eddy/detail/state/heap_keyed_state.h, whose typed states user code instantiates). The
// backend itself is eddy's: the task creates one per operator subtask that asks
// (OperatorContext::keyedStateBackend, `state.backend.type` = hashmap, state_backend_loader.h);
// raw keyed state (the timers) is written into its sections too. Accessing state costs a hash
// lookup of the current key's bytes and never serializes; serializers run only when a key group is
// snapshotted or restored.
//
// Restores are lazy by state name: a key group section may be restored before the user
// function registers its states (it registers them in open(), after restore). The backend
// keeps each unregistered state's raw block and decodes it when the state is registered with
// its serializers; until then snapshots write the block unchanged, so a checkpoint taken
// before registration loses nothing.
//
// State TTL: besides removing expired values on access and leaving them out of snapshots, the
// states remove them in the background by incremental cleanup (heap_keyed_state.h); for the
// states whose StateTtlConfig asks for it on every record, setCurrentKey runs a step.
//
// Threading and ownership as KeyedStateBackend: single-threaded, owns its states. The clock
// is borrowed and must outlive the backend. The backend is neither copyable nor movable
// (its states point at it).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "eddy/clock.h"
#include "eddy/detail/state/heap_keyed_state.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"

namespace eddy {

/// The in-memory KeyedStateBackend (see the file comment).
class HeapKeyedStateBackend final : public KeyedStateBackend {
 public:
  /// A backend owning the key groups in `range` of an operator with `maxParallelism` key
  /// groups; TTL reads processing time from `clock`.
  HeapKeyedStateBackend(KeyGroupRange range, int maxParallelism, const Clock& clock);
  ~HeapKeyedStateBackend() override;

  HeapKeyedStateBackend(const HeapKeyedStateBackend&) = delete;
  HeapKeyedStateBackend& operator=(const HeapKeyedStateBackend&) = delete;

  void setCurrentKey(std::string_view keyBytes, int keyGroup) override;
  std::string_view currentKey() const override { return context_.currentKey; }
  int currentKeyGroup() const override;
  KeyGroupRange keyGroupRange() const override { return range_; }
  int maxParallelism() const override { return maxParallelism_; }

  void snapshotKeyGroup(int keyGroup, std::string& out) const override;
  void restoreKeyGroup(int keyGroup, std::string_view bytes) override;
  void snapshotKeyGroups(std::map<int, std::string>& sections) const override;
  std::unique_ptr<state::FrozenKeyedState> freezeKeyGroups() const override;
  void registerRawKeyedState(const std::string& name, state::StateKind kind,
                             state::RawKeyedState& rawState) override;

  /// Names of the registered states, sorted.
  std::vector<std::string> registeredStateNames() const;

  /// The keys that have an entry in any registered state, counted once per state, expired or
  /// not yet cleaned up (Flink's numKeyValueStateEntries; for tests, O(states × key groups)).
  size_t numKeyValueStateEntries() const;
  /// The same for the state named `stateName`; 0 when none is registered under it.
  size_t numKeyValueStateEntries(std::string_view stateName) const;

 protected:
  State* createOrGetState(const state::StateType& type) override;

 private:
  struct RegisteredState {
    state::StateKind kind;
    const std::type_info* descriptorType;
    std::unique_ptr<state::HeapRegisteredState> heapState;
  };

  /// A restored state block waiting for its state to be registered.
  struct RestoredBlock {
    int keyGroup;
    state::StateKind kind;
    uint8_t flags;
    std::string body;
  };

  struct RegisteredRawState {
    state::StateKind kind;
    state::RawKeyedState* rawState;
  };

  int keyGroupIndex(int keyGroup) const { return keyGroup - range_.startKeyGroup; }
  void checkOwnsKeyGroup(int keyGroup, const char* operation) const;
  /// The frozen sections of the key groups of `range` (which the backend owns).
  std::unique_ptr<state::FrozenKeyedState> freezeKeyGroups(KeyGroupRange range) const;

  const KeyGroupRange range_;
  const int maxParallelism_;
  const Clock& clock_;
  state::HeapKeyContext context_;
  // Ordered maps: registration is rare and ordered iteration makes snapshots deterministic.
  std::map<std::string, RegisteredState, std::less<>> states_;
  std::map<std::string, std::vector<RestoredBlock>, std::less<>> restoredBlocks_;
  std::map<std::string, RegisteredRawState, std::less<>> rawStates_;
  // The states whose incremental TTL cleanup runs on every setCurrentKey.
  std::vector<state::HeapRegisteredState*> cleanupForEveryRecord_;
};

}  // namespace eddy
