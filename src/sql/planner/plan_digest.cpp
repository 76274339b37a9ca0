#include "sql/planner/plan_digest.h"

namespace eddy::sql {
namespace {

// A node's own part of its digest: its EXPLAIN line, its changelog kinds and its row type.
std::string nodeDigest(const LogicalNode& node) {
  return node.describe() + ", changelogMode=" + changelogKindsOf(node) + ", rowType=" +
         node.rowType->asSummaryString();
}

}  // namespace

int64_t PlanDigests::idOf(const LogicalNode& node) {
  auto known = byNode_.find(&node);
  if (known != byNode_.end()) return known->second;
  std::string digest = nodeDigest(node);
  digest += ", inputs=[";
  for (const LogicalNodePtr& input : node.inputs) {
    digest += std::to_string(idOf(*input));
    digest += ',';
  }
  digest += ']';
  auto [entry, added] = byDigest_.emplace(std::move(digest), static_cast<int64_t>(byDigest_.size()));
  byNode_.emplace(&node, entry->second);
  return entry->second;
}

bool samePlan(const LogicalNode& a, const LogicalNode& b) {
  if (&a == &b) return true;
  if (a.kind != b.kind || a.inputs.size() != b.inputs.size() ||
      a.changelogMode != b.changelogMode || nodeDigest(a) != nodeDigest(b)) {
    return false;
  }
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    if (!samePlan(*a.inputs[i], *b.inputs[i])) return false;
  }
  return true;
}

}  // namespace eddy::sql
