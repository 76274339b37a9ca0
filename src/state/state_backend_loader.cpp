// loadKeyedStateBackend: `state.backend.type` to a backend.
#include "state/state_backend_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "eddy/exceptions.h"

namespace eddy::state {

std::unique_ptr<KeyedStateBackend> loadKeyedStateBackend(std::string_view backendType,
                                                         KeyGroupRange range, int maxParallelism,
                                                         const Clock& clock) {
  std::string type(backendType);
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (type == "hashmap") return std::make_unique<HeapKeyedStateBackend>(range, maxParallelism, clock);
  if (type == "rocksdb") {
    throw ValidationException(fmt::format(
        "Option '{}' = '{}' is not supported yet: eddy keeps keyed state in the 'hashmap' "
        "backend only",
        kStateBackendTypeOption, backendType));
  }
  throw ValidationException(fmt::format(
      "Could not parse value '{}' for key '{}': expected one of 'hashmap', 'rocksdb'.",
      backendType, kStateBackendTypeOption));
}

HeapKeyedStateBackend& heapKeyedStateBackendOf(KeyedStateBackend& backend,
                                               std::string_view operatorName) {
  auto* heap = dynamic_cast<HeapKeyedStateBackend*>(&backend);
  if (heap == nullptr) {
    throw ValidationException(fmt::format(
        "Operator '{}' keeps its state in the 'hashmap' backend only; set '{}' to 'hashmap'",
        operatorName, kStateBackendTypeOption));
  }
  return *heap;
}

}  // namespace eddy::state
