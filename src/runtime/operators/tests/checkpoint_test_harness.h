// What the Table operators' checkpoint tests share, on top of operator_test_harness.h: a run
// split around a snapshot and a restore compared with one uninterrupted run, the rows an
// exchange sends each subtask of a restore at another parallelism, and key-group sections read
// and cut the way docs/state_format.md lays them out (a state's block body; a section whose
// block of one state is truncated), with the check that every truncation is refused naming the
// state, the operator and the key group.
//
// Header-only; used by one test thread at a time.
#pragma once

#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eddy/detail/state/key_group_snapshot.h"
#include "runtime/operators/tests/operator_test_harness.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators::testing {

/// What a script drives a harness through; returns everything it emitted, in order.
template <typename Harness>
using Script = std::function<Rows(Harness&)>;

inline Rows concat(std::vector<Rows> parts) {
  Rows all;
  for (Rows& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

inline Rows sorted(Rows rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// `rows` without the printed watermarks, sorted (what several subtasks emit together).
inline Rows sortedRowsOnly(Rows rows) {
  std::erase_if(rows, [](const std::string& row) {
    return row.starts_with("watermark") || row.starts_with("Watermark");
  });
  return sorted(std::move(rows));
}

/// Runs `before` then `after` on a harness `make(SubtaskOptions{})` (the uninterrupted run)
/// and on two, the second restored from a snapshot of the first taken between them; expects
/// equal output before and after, and a snapshot of the restored operator equal to the one it
/// was restored from. Returns the output after the checkpoint. For operators that emit nothing
/// in prepareSnapshotPreBarrier (what they would emit stays in the first harness's output).
template <typename Harness, typename Make>
Rows expectRestoreChangesNothing(Make&& make, const Script<Harness>& before,
                                 const Script<Harness>& after) {
  std::unique_ptr<Harness> uninterrupted = make(SubtaskOptions{});
  const Rows expectedBefore = before(*uninterrupted);
  const Rows expectedAfter = after(*uninterrupted);

  std::unique_ptr<Harness> first = make(SubtaskOptions{});
  EXPECT_EQ(before(*first), expectedBefore);
  const OperatorSnapshot snapshot = first->snapshot(1);
  std::unique_ptr<Harness> restored = make(SubtaskOptions{.restoredFrom = {snapshot}});
  EXPECT_EQ(restored->snapshot(2), snapshot);  // the same bytes: nothing lost or reordered
  EXPECT_EQ(after(*restored), expectedAfter);
  return expectedAfter;
}

/// Restores each of `parallelism` subtasks made by `make` from `previous` (the snapshots of
/// every old subtask), runs `script(harness, subtask)` on it, and returns what they emitted,
/// subtask after subtask; each subtask's snapshot after the script goes into `snapshots` where
/// given.
template <typename Harness, typename Make>
Rows runRestoredSubtasks(Make&& make, const std::vector<OperatorSnapshot>& previous,
                         int parallelism, const std::function<Rows(Harness&, int subtask)>& script,
                         std::vector<OperatorSnapshot>* snapshots = nullptr) {
  Rows all;
  for (int subtask = 0; subtask < parallelism; ++subtask) {
    std::unique_ptr<Harness> harness = make(SubtaskOptions{
        .subtaskIndex = subtask, .parallelism = parallelism, .restoredFrom = previous});
    const Rows out = script(*harness, subtask);
    all.insert(all.end(), out.begin(), out.end());
    if (snapshots != nullptr) snapshots->push_back(harness->snapshot(2));
  }
  return all;
}

/// What a rescaling script drives a subtask of `parallelism` through: the rows the exchange
/// sends subtask `subtask` (all of them at parallelism 1).
template <typename Harness>
using SubtaskScript = std::function<Rows(Harness&, int subtask, int parallelism)>;

/// Runs `before` on a harness `make(SubtaskOptions{})` and snapshots it; restores the snapshot
/// as each of two subtasks and runs `after` on each; restores their snapshots as one subtask
/// again and runs `last` on it. Expects what the two subtasks emit together, and then the one,
/// to be what an uninterrupted harness emits for `after` and `last` at parallelism 1 (sorted,
/// watermarks left out); with `stateSize`, expects each restored subtask to hold some of the
/// snapshotted state, and the two together all of it. Returns the uninterrupted output of
/// `after`.
template <typename Harness, typename Make>
Rows expectRescalingChangesNothing(Make&& make, const Script<Harness>& before,
                                   const SubtaskScript<Harness>& after,
                                   const SubtaskScript<Harness>& last,
                                   const std::function<size_t(const Harness&)>& stateSize = {}) {
  std::unique_ptr<Harness> uninterrupted = make(SubtaskOptions{});
  std::unique_ptr<Harness> single = make(SubtaskOptions{});
  before(*uninterrupted);
  before(*single);
  const OperatorSnapshot atOne = single->snapshot(1);
  const Rows expectedAfter = after(*uninterrupted, 0, 1);
  const Rows expectedLast = last(*uninterrupted, 0, 1);

  std::vector<OperatorSnapshot> atTwo;
  size_t restoredState = 0;
  const Rows afterAtTwo = runRestoredSubtasks<Harness>(
      make, {atOne}, 2,
      [&](Harness& part, int subtask) {
        if (stateSize) {
          EXPECT_GT(stateSize(part), 0u) << "subtask " << subtask;
          restoredState += stateSize(part);
        }
        return after(part, subtask, 2);
      },
      &atTwo);
  if (stateSize) {
    EXPECT_EQ(restoredState, stateSize(*single));
  }
  EXPECT_EQ(sortedRowsOnly(afterAtTwo), sortedRowsOnly(expectedAfter));

  std::unique_ptr<Harness> merged = make(SubtaskOptions{.restoredFrom = atTwo});
  EXPECT_EQ(sortedRowsOnly(last(*merged, 0, 1)), sortedRowsOnly(expectedLast));
  return expectedAfter;
}

/// The key group of the key bytes of `row` (of `rowType`) over `keyColumns`, as the exchange
/// routes it.
inline int keyGroupOfRow(const Row& row, const LogicalTypePtr& rowType,
                         const std::vector<int>& keyColumns, int maxParallelism = 128) {
  const vector::Chunk chunk = vector::rowsToChunk({row}, rowType);
  std::string bytes;
  vector::appendKeyBytes(chunk, keyColumns, 0, bytes);
  return assignToKeyGroup(bytes, maxParallelism);
}

/// The rows of `rows` that subtask `subtask` of `parallelism` gets from a HASH exchange on
/// `keyColumns` (128 key groups).
inline std::vector<Row> rowsOfSubtask(const std::vector<Row>& rows, const LogicalTypePtr& rowType,
                                      const std::vector<int>& keyColumns, int subtask,
                                      int parallelism) {
  std::vector<Row> mine;
  for (const Row& row : rows) {
    if (computeOperatorIndexForKeyGroup(128, parallelism,
                                        keyGroupOfRow(row, rowType, keyColumns)) == subtask) {
      mine.push_back(row);
    }
  }
  return mine;
}

/// The body of state `stateName`'s block in `section`; empty when it has none.
inline std::string blockBody(std::string_view section, std::string_view stateName) {
  section.remove_prefix(1);            // version
  serialization::readVarint(section);  // key group
  const uint64_t blockCount = serialization::readVarint(section);
  for (uint64_t block = 0; block < blockCount; ++block) {
    const std::string_view name = state::readLengthPrefixed(section);
    section.remove_prefix(2);  // kind, flags
    const std::string_view body = state::readLengthPrefixed(section);
    if (name == stateName) return std::string(body);
  }
  return {};
}

/// The body of state `stateName`'s one block in `snapshot` (a failure when there is none or
/// more than one), and its key group in `keyGroup`.
inline std::string onlyBlockBody(const OperatorSnapshot& snapshot, std::string_view stateName,
                                 int* keyGroup = nullptr) {
  std::string body;
  int blocks = 0;
  for (const auto& [group, section] : snapshot.keyedState) {
    std::string found = blockBody(section, stateName);
    if (found.empty()) continue;
    ++blocks;
    body = std::move(found);
    if (keyGroup != nullptr) *keyGroup = group;
  }
  EXPECT_EQ(blocks, 1) << stateName;
  return body;
}

inline std::string hex(std::string_view bytes) {
  std::string out;
  for (unsigned char byte : bytes) {
    if (!out.empty()) out += ' ';
    out += "0123456789abcdef"[byte >> 4];
    out += "0123456789abcdef"[byte & 15];
  }
  return out;
}

/// `section` with the body of state `stateName`'s block cut to its first `keep` bytes (the
/// framing around it rewritten to fit); empty when the section has no such block.
inline std::string withTruncatedBlock(std::string_view section, std::string_view stateName,
                                      size_t keep) {
  std::string out;
  out.push_back(section.front());  // version
  section.remove_prefix(1);
  serialization::writeVarint(serialization::readVarint(section), out);  // key group
  const uint64_t blockCount = serialization::readVarint(section);
  serialization::writeVarint(blockCount, out);
  bool found = false;
  for (uint64_t block = 0; block < blockCount; ++block) {
    const std::string_view name = state::readLengthPrefixed(section);
    state::writeLengthPrefixed(name, out);
    out.append(section.substr(0, 2));  // kind, flags
    section.remove_prefix(2);
    std::string_view body = state::readLengthPrefixed(section);
    if (name == stateName) {
      found = true;
      body = body.substr(0, keep);
    }
    state::writeLengthPrefixed(body, out);
  }
  return found ? out : std::string();
}

/// For every section of `snapshot` holding a block of `stateName` and every shorter length of
/// that block's body, expects `restore(cut)` (restoring a harness from the snapshot with that
/// block cut) to throw InternalError naming the state, `operatorName` and the key group.
/// Expects at least one such block, of more than `minimumBodySize` bytes.
inline void expectEveryTruncationRefused(
    const OperatorSnapshot& snapshot, std::string_view stateName, std::string_view operatorName,
    const std::function<void(const OperatorSnapshot&)>& restore, size_t minimumBodySize = 10) {
  int blocks = 0;
  for (const auto& [keyGroup, section] : snapshot.keyedState) {
    const size_t bodySize = blockBody(section, stateName).size();
    if (bodySize == 0) continue;
    ++blocks;
    EXPECT_GT(bodySize, minimumBodySize) << stateName;
    for (size_t keep = 0; keep < bodySize; ++keep) {
      OperatorSnapshot cut = snapshot;
      cut.keyedState[keyGroup] = withTruncatedBlock(section, stateName, keep);
      try {
        restore(cut);
        ADD_FAILURE() << stateName << " cut to " << keep << " bytes was restored";
      } catch (const InternalError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find(stateName), std::string::npos) << message;
        EXPECT_NE(message.find(operatorName), std::string::npos) << message;
        EXPECT_NE(message.find("key group " + std::to_string(keyGroup)), std::string::npos)
            << message;
      }
    }
  }
  EXPECT_GT(blocks, 0) << stateName;
}

}  // namespace eddy::runtime::operators::testing
