// StateType: the type-erased bridge between the templated state accessors of
// KeyedStateBackend and its virtual, type-agnostic implementations.
//
// A user function asks for a state with a typed descriptor (ValueStateDescriptor<V> ...).
// The accessor template wraps the descriptor in a DescribedStateType<Descriptor> and hands it,
// as a `const StateType&`, to the backend's virtual createOrGetState. The backend sees the
// state's name, kind, TTL config and a type identity (typeid of the descriptor class, which
// covers the value types and serializers); it looks the name up in its registry, rejects a
// mismatching kind or type, and otherwise calls back into the StateType to build the typed
// state for its storage: createHeapState for the heap backend. A future backend family (the
// RocksDB backend, which stores serialized bytes) adds one virtual factory here, implemented
// once in DescribedStateType from the descriptor's serializers; nothing else changes.
//
// A StateType lives only for the duration of one createOrGetState call and refers to the
// caller's descriptor; backends copy what they keep.
//
// Internal (eddy/detail/): installed only because KeyedStateBackend's typed accessors
// instantiate it in user code; users do not include it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <typeindex>
#include <typeinfo>

#include "eddy/detail/state/heap_keyed_state.h"
#include "eddy/exceptions.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/state/state_ttl_config.h"

namespace eddy::state {

/// A state's name, kind, type identity and factories, without its C++ types.
class StateType {
 public:
  virtual ~StateType() = default;

  const std::string& name() const { return name_; }
  StateKind kind() const { return kind_; }
  /// The descriptor class: two requests for one name must agree on it.
  const std::type_info& descriptorType() const { return descriptorType_; }
  const std::optional<StateTtlConfig>& ttlConfig() const { return ttlConfig_; }

  /// Builds this state for the heap backend, reading the current key from `context`.
  virtual std::unique_ptr<HeapRegisteredState> createHeapState(
      const HeapKeyContext& context) const = 0;

 protected:
  StateType(const StateDescriptor& descriptor, StateKind kind, const std::type_info& descriptorType)
      : name_(descriptor.getName()),
        kind_(kind),
        descriptorType_(descriptorType),
        ttlConfig_(descriptor.getTtlConfig()) {}

 private:
  const std::string& name_;
  StateKind kind_;
  const std::type_info& descriptorType_;
  const std::optional<StateTtlConfig>& ttlConfig_;
};

/// The StateType of one descriptor class (see the file comment).
template <typename Descriptor>
class DescribedStateType final : public StateType {
 public:
  explicit DescribedStateType(const Descriptor& descriptor)
      : StateType(descriptor, Descriptor::kKind, typeid(Descriptor)), descriptor_(descriptor) {
    if (descriptor.getName().empty()) throw ValidationException("A state name must not be empty");
    if constexpr (Descriptor::kKind == StateKind::kReducing) {
      if (!descriptor.getReduceFunction()) {
        throw ValidationException("ReducingState '" + descriptor.getName() +
                                  "' has no reduce function");
      }
    } else if constexpr (Descriptor::kKind == StateKind::kAggregating) {
      if (!descriptor.getAggregateFunction()) {
        throw ValidationException("AggregatingState '" + descriptor.getName() +
                                  "' has no aggregate function");
      }
    }
  }

  std::unique_ptr<HeapRegisteredState> createHeapState(
      const HeapKeyContext& context) const override {
    return state::createHeapState(context, descriptor_);
  }

 private:
  const Descriptor& descriptor_;
};

/// Throws ValidationException unless a state registered with (registeredKind,
/// registeredType) may be returned for `requested`; the message names the state.
void checkStateTypeMatches(StateKind registeredKind, const std::type_info& registeredType,
                           const StateType& requested);

}  // namespace eddy::state
