// Plan identity in time linear in the plan. A plan's EXPLAIN text names a subtree completely,
// but it grows with the subtree (and its indentation with the depth), so comparing or keying
// subtrees by their text costs quadratic time and memory in the plan's size: a UNION ALL of
// 1,000 branches took a gigabyte to plan. Instead, as Calcite's RelNode digests refer to their
// inputs by id, a subtree is identified by its root's EXPLAIN line (with its changelog mode and
// row type) and the ids of its inputs.
//
// PlanDigests: one per planning run (the translator's sub-plan reuse); not thread-safe.
// samePlan: a structural comparison that stops at shared subtrees (the optimizer's check that a
// rewrite changed nothing).
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <string>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

class PlanDigests {
 public:
  /// The id of the subtree rooted at `node`: equal for subtrees that explain alike (EXPLAIN
  /// with changelog modes, and the same row types), different otherwise. `node` must outlive
  /// this object or the next forgetNodes() (ids are memoized by address).
  int64_t idOf(const LogicalNode& node);
  /// Forgets which node had which id (not the ids of digests): call it before plans are freed,
  /// since a later node may take a freed node's address.
  void forgetNodes() { byNode_.clear(); }

 private:
  absl::flat_hash_map<const LogicalNode*, int64_t> byNode_;
  absl::flat_hash_map<std::string, int64_t> byDigest_;
};

/// Whether the plans `a` and `b` are equal node by node (each node's EXPLAIN line, changelog
/// mode and row type, and its inputs in order); shared subtrees are equal without a look.
bool samePlan(const LogicalNode& a, const LogicalNode& b);

}  // namespace eddy::sql
