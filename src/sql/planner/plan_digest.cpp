#include "sql/planner/plan_digest.h"

namespace eddy::sql {
namespace {

// A node's own part of its digest: its EXPLAIN line, its changelog kinds and its row type; for
// a table scan also its options, which EXPLAIN leaves out but an OPTIONS hint changes (two
// scans of one table with other options are different sources, as Flink's digest says with
// its hints=[..]).
std::string nodeDigest(const LogicalNode& node) {
  std::string digest = node.describe() + ", changelogMode=" + changelogKindsOf(node) +
                       ", rowType=" + node.rowType->asSummaryString();
  if (node.kind == LogicalNodeKind::kTableScan) {
    digest += ", options=[";
    for (const auto& [key, value] : static_cast<const LogicalTableScan&>(node).options) {
      // Length-prefixed, so no key or value text can make two option sets alike.
      digest += std::to_string(key.size()) + ":" + key + std::to_string(value.size()) + ":" +
                value;
    }
    digest += "]";
  }
  return digest;
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
