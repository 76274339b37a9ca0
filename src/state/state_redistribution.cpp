// redistributeOperatorSnapshots: key groups by range, list state by Flink's round robin.
#include "state/state_redistribution.h"

#include <fmt/format.h>

#include <map>
#include <string>
#include <string_view>

#include "common/check.h"
#include "eddy/exceptions.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/operator_state_store.h"

namespace eddy::state {

namespace {

/// One list state's blobs over the old subtasks (the same name in each).
struct ListStateOverSubtasks {
  OperatorStateDistributionMode mode = OperatorStateDistributionMode::kSplitDistribute;
  bool modeKnown = false;
  std::vector<std::string_view> elements;  // in old subtask order
};

}  // namespace

std::vector<runtime::OperatorSnapshot> redistributeOperatorSnapshots(
    const std::vector<runtime::OperatorSnapshot>& previous, int newParallelism,
    int maxParallelism) {
  EDDY_CHECK_GT(newParallelism, 0);
  EDDY_CHECK_GT(maxParallelism, 0);
  const int oldParallelism = static_cast<int>(previous.size());
  const bool sameParallelism = oldParallelism == newParallelism;
  std::vector<runtime::OperatorSnapshot> assigned(static_cast<size_t>(newParallelism));

  bool allFinished = !previous.empty();
  for (const runtime::OperatorSnapshot& old : previous) allFinished = allFinished && old.finished;
  for (runtime::OperatorSnapshot& snapshot : assigned) snapshot.finished = allFinished;

  // Keyed state: each key group to the subtask that owns it now.
  for (const runtime::OperatorSnapshot& old : previous) {
    for (const auto& [keyGroup, section] : old.keyedState) {
      if (keyGroup < 0 || keyGroup >= maxParallelism) {
        throw InternalError(fmt::format(
            "A snapshot holds key group {} of an operator with {} key groups", keyGroup,
            maxParallelism));
      }
      const int subtask = computeOperatorIndexForKeyGroup(maxParallelism, newParallelism, keyGroup);
      assigned[static_cast<size_t>(subtask)].keyedState[keyGroup] = section;
    }
  }

  // Operator state: list states gathered over the old subtasks; other blobs kept in place.
  std::map<std::string, ListStateOverSubtasks> lists;
  for (int oldSubtask = 0; oldSubtask < oldParallelism; ++oldSubtask) {
    for (const auto& [name, blob] : previous[static_cast<size_t>(oldSubtask)].operatorState) {
      if (!name.starts_with(kOperatorListStatePrefix)) {
        if (!sameParallelism) {
          throw ValidationException(fmt::format(
              "Operator state '{}' cannot be redistributed from parallelism {} to {}: only "
              "operator list state can",
              name, oldParallelism, newParallelism));
        }
        assigned[static_cast<size_t>(oldSubtask)].operatorState[name] = blob;
        continue;
      }
      OperatorListStateBlob decoded = decodeOperatorListState(blob);
      ListStateOverSubtasks& list = lists[name];
      if (list.modeKnown && list.mode != decoded.mode) {
        throw InternalError(
            fmt::format("Operator list state '{}' has different modes in its subtasks", name));
      }
      list.mode = decoded.mode;
      list.modeKnown = true;
      if (sameParallelism && decoded.mode == OperatorStateDistributionMode::kSplitDistribute) {
        assigned[static_cast<size_t>(oldSubtask)].operatorState[name] = blob;
        continue;
      }
      list.elements.insert(list.elements.end(), decoded.elements.begin(), decoded.elements.end());
    }
  }

  int startSubtask = 0;  // Flink's startParallelOp, carried from one split state to the next
  for (const auto& [name, list] : lists) {
    if (list.mode == OperatorStateDistributionMode::kUnion) {
      std::string blob;
      encodeOperatorListState(list.mode, list.elements, blob);
      for (runtime::OperatorSnapshot& snapshot : assigned) snapshot.operatorState[name] = blob;
      continue;
    }
    if (sameParallelism) continue;  // kept in place above
    const int total = static_cast<int>(list.elements.size());
    const int baseFraction = total / newParallelism;
    int remainder = total % newParallelism;
    int nextStartSubtask = startSubtask;
    size_t next = 0;
    for (int i = 0; i < newParallelism; ++i) {
      const int subtask = (i + startSubtask) % newParallelism;
      int count = baseFraction;
      if (remainder > 0) {
        ++count;
        --remainder;
      } else if (remainder == 0) {
        nextStartSubtask = subtask;
        --remainder;
      }
      std::vector<std::string_view> part(list.elements.begin() + static_cast<std::ptrdiff_t>(next),
                                         list.elements.begin() +
                                             static_cast<std::ptrdiff_t>(next + count));
      next += static_cast<size_t>(count);
      std::string blob;
      encodeOperatorListState(list.mode, part, blob);
      assigned[static_cast<size_t>(subtask)].operatorState[name] = std::move(blob);
    }
    startSubtask = nextStartSubtask;
  }
  return assigned;
}

}  // namespace eddy::state
