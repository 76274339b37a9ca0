#include "eddy/state/key_group_range.h"

// The xxHash implementation is compiled inline from Debian's header: calling into the shared
// library for an 8-byte key cost a quarter of a keyed pipeline's time (measured with perf).
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace eddy {

int assignToKeyGroup(std::string_view keyBytes, int maxParallelism) {
  uint64_t hash = XXH3_64bits(keyBytes.data(), keyBytes.size());
  // Multiply-shift range reduction (the high 64 bits of hash × maxParallelism) instead of a
  // 64-bit division, which cost as much as the hash itself on every record.
  return static_cast<int>((static_cast<unsigned __int128>(hash) *
                           static_cast<uint64_t>(maxParallelism)) >> 64);
}

}  // namespace eddy
