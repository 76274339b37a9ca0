// Key groups: the unit in which keyed state is partitioned and rescaled, as in Flink.
// A key's bytes hash to one of `maxParallelism` key groups; each subtask of a keyed operator
// owns one contiguous range of key groups. Snapshots are written per key group so that a
// restore at another parallelism reads exactly the key groups each new subtask owns.
#pragma once

#include <string_view>

namespace eddy {

/// An inclusive range [startKeyGroup, endKeyGroup]; empty when end < start.
struct KeyGroupRange {
  int startKeyGroup = 0;
  int endKeyGroup = -1;

  int size() const { return endKeyGroup < startKeyGroup ? 0 : endKeyGroup - startKeyGroup + 1; }
  bool contains(int keyGroup) const {
    return keyGroup >= startKeyGroup && keyGroup <= endKeyGroup;
  }
  bool operator==(const KeyGroupRange&) const = default;
};

/// The key group of a serialized key: the 64-bit XXH3 hash of the bytes, scaled to
/// [0, maxParallelism) as (hash × maxParallelism) >> 64.
int assignToKeyGroup(std::string_view keyBytes, int maxParallelism);

/// The subtask that owns `keyGroup` when the operator runs at `parallelism` (Flink's formula
/// keyGroup * parallelism / maxParallelism).
inline int computeOperatorIndexForKeyGroup(int maxParallelism, int parallelism, int keyGroup) {
  return keyGroup * parallelism / maxParallelism;
}

/// The key groups owned by subtask `operatorIndex` (the inverse of the formula above).
inline KeyGroupRange computeKeyGroupRangeForOperatorIndex(int maxParallelism, int parallelism,
                                                          int operatorIndex) {
  int start = (operatorIndex * maxParallelism + parallelism - 1) / parallelism;
  int end = ((operatorIndex + 1) * maxParallelism - 1) / parallelism;
  return KeyGroupRange{start, end};
}

}  // namespace eddy
