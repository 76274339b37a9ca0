#include "eddy/state/key_group_range.h"

#include <xxhash.h>

namespace eddy {

int assignToKeyGroup(std::string_view keyBytes, int maxParallelism) {
  uint64_t hash = XXH3_64bits(keyBytes.data(), keyBytes.size());
  return static_cast<int>(hash % static_cast<uint64_t>(maxParallelism));
}

}  // namespace eddy
