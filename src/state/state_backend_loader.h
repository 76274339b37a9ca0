// StateBackendLoader: the keyed state backend a task creates for an operator subtask from the
// job's configuration (`state.backend.type`), as Flink's StateBackendLoader. Only the heap
// backend (`hashmap`) exists; `rocksdb` is a known value that is refused until its backend
// comes, and any other value is refused naming the option.
#pragma once

#include <memory>
#include <string_view>

#include "eddy/clock.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"
#include "state/heap_keyed_state_backend.h"

namespace eddy::state {

/// The option's name, for messages.
inline constexpr std::string_view kStateBackendTypeOption = "state.backend.type";

/// A backend of type `backendType` (the option's value, any case) owning `range` of
/// `maxParallelism` key groups, TTL reading `clock` (which must outlive it). Throws
/// ValidationException naming the option for an unknown or unsupported type.
std::unique_ptr<KeyedStateBackend> loadKeyedStateBackend(std::string_view backendType,
                                                         KeyGroupRange range, int maxParallelism,
                                                         const Clock& clock);

/// `backend` as the heap backend, for operators whose per-row code calls it directly (its
/// methods are final, so those calls are not virtual); throws ValidationException naming
/// `operatorName` and the option when the task created another type.
HeapKeyedStateBackend& heapKeyedStateBackendOf(KeyedStateBackend& backend,
                                               std::string_view operatorName);

}  // namespace eddy::state
