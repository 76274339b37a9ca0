// HeapBackendFixture: a heap keyed state backend owning all 128 key groups of an operator at
// parallelism 1, driven by a ManualClock, plus selectKeyOn() which does what the runtime does
// before each record: serialize the key, assign its key group, set it current.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "eddy/clock.h"
#include "eddy/state/state.h"
#include "eddy/types/type_serializer.h"
#include "state/heap_keyed_state_backend.h"

namespace eddy::state {

inline constexpr int kMaxParallelism = 128;

/// Makes `key` the current key of `backend`, as the runtime does.
template <typename Key>
void selectKeyOn(KeyedStateBackend& backend, const Key& key) {
  std::string keyBytes = serializeToString(key);
  backend.setCurrentKey(keyBytes, assignToKeyGroup(keyBytes, backend.maxParallelism()));
}

class HeapBackendFixture : public ::testing::Test {
 protected:
  void selectKey(const std::string& key) { selectKeyOn(backend_, key); }

  ManualClock clock_{0};
  HeapKeyedStateBackend backend_{KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism, clock_};
};

}  // namespace eddy::state
