// State redistribution: what each subtask of an operator restored at a new parallelism gets
// from the snapshots of its old subtasks, as Flink's StateAssignmentOperation with its
// RoundRobinOperatorStateRepartitioner. A pure function over snapshots (bytes only): the task
// calls it with the operator's snapshots from the checkpoint it restores from.
//
// - Keyed state: the section of every key group goes to the new subtask whose key group range
//   (computeKeyGroupRangeForOperatorIndex) contains it.
// - Operator list state (OperatorStateStore's blobs): even-split lists are, at the same
//   parallelism, left where they were; at another one, the elements of all old subtasks in
//   subtask order are cut into contiguous runs, one per new subtask, the first `total % M` of
//   them (counted from a start that moves from one state to the next, in name order) one
//   element longer (Flink's round robin). Union lists give every new subtask all elements of
//   all old subtasks, in subtask order, also at the same parallelism.
// - Other named blobs (written by an operator itself) stay with their subtask at the same
//   parallelism and cannot be redistributed to another one (ValidationException naming the
//   blob).
// - The new subtasks are `finished` only when every old one was.
#pragma once

#include <vector>

#include "eddy/runtime/operator_snapshot.h"

namespace eddy::state {

/// The snapshot of each of `newParallelism` subtasks (index = subtask) of an operator with
/// `maxParallelism` key groups whose `previous` subtasks (index = old subtask) wrote
/// `previous`. Throws ValidationException for state that cannot be redistributed, and
/// InternalError for a list state blob that does not decode or whose mode differs between
/// old subtasks.
std::vector<runtime::OperatorSnapshot> redistributeOperatorSnapshots(
    const std::vector<runtime::OperatorSnapshot>& previous, int newParallelism,
    int maxParallelism);

}  // namespace eddy::state
