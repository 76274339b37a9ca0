// ProjectionPushDown (passes.h).
#include <algorithm>
#include <optional>
#include <set>

#include "connectors/dynamic_table_factory.h"
#include "eddy/exceptions.h"
#include "sql/optimizer/passes.h"
#include "sql/optimizer/plan_rewriting.h"
#include "sql/planner/plan_digest.h"
#include "sql/planner/plan_table_scan.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

namespace {

// A column and the fields read inside it: {3} is column 3, {3, 2} field 2 of ROW column 3.
using Path = std::vector<int>;

// The path `e` reads when it is a column reference under zero or more field accesses.
std::optional<Path> pathOf(const BoundPtr& e) {
  if (e->kind() == expression::ExpressionKind::kColumnReference) {
    return Path{static_cast<const expression::ColumnReference&>(*e).index()};
  }
  if (e->kind() == expression::ExpressionKind::kFieldAccess) {
    const auto& access = static_cast<const expression::FieldAccess&>(*e);
    std::optional<Path> path = pathOf(access.operand());
    if (path) path->push_back(access.fieldIndex());
    return path;
  }
  return std::nullopt;
}

// Adds the paths `e` reads (its maximal field-access chains over columns) to `paths`.
void collectPaths(const BoundPtr& e, std::set<Path>& paths) {
  if (std::optional<Path> path = pathOf(e)) {
    paths.insert(std::move(*path));
    return;
  }
  for (const BoundPtr& child : e->children()) collectPaths(child, paths);
}

// Whether `path` is `prefix` or a field inside it.
bool covers(const Path& prefix, const Path& path) {
  return prefix.size() <= path.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

// `paths` without those inside another one ({3, 1} goes when {3} is there), in order.
std::vector<Path> withoutCoveredPaths(const std::set<Path>& paths) {
  std::vector<Path> result;
  for (const Path& path : paths) {  // a prefix sorts before the paths it covers
    if (!result.empty() && covers(result.back(), path)) continue;
    result.push_back(path);
  }
  return result;
}

// A node rewritten to produce only some paths of the original's output: column j of `node`
// holds `provided[j]` of the original.
struct PrunedNode {
  LogicalNodePtr node;
  std::vector<Path> provided;
};

// `path` of the original output, over the pruned node: the provided column covering it with
// the remaining field accesses on top.
BoundPtr resolvePath(const Path& path, const PrunedNode& pruned) {
  for (size_t j = 0; j < pruned.provided.size(); ++j) {
    const Path& provided = pruned.provided[j];
    if (!covers(provided, path)) continue;
    BoundPtr result =
        expression::column(static_cast<int>(j), pruned.node->rowType->getFields()[j].type);
    for (size_t k = provided.size(); k < path.size(); ++k) {
      const RowField& field = result->type()->getFields().at(static_cast<size_t>(path[k]));
      result = expression::fieldAccess(result, field.name);
    }
    return result;
  }
  throw InternalError("projection push-down lost a column");
}

BoundPtr replacePaths(const BoundPtr& e, const PrunedNode& pruned) {
  if (std::optional<Path> path = pathOf(e)) return resolvePath(*path, pruned);
  if (e->children().empty()) return e;
  std::vector<BoundPtr> children;
  for (const BoundPtr& child : e->children()) children.push_back(replacePaths(child, pruned));
  return expression::withChildren(e, std::move(children));
}

// The table source of `scan` when it supports projection push-down, else null.
std::unique_ptr<connectors::DynamicTableSource> projectableSource(const LogicalTableScan& scan) {
  if (!scan.metadataKeys.empty()) return nullptr;  // projection paths index physical columns
  // A changelog's rows are normalized or retracted by whole rows (and keys): read them whole.
  if (scan.changes != connectors::SourceChangelogMode::kInsertOnly) return nullptr;
  try {
    connectors::ConnectorContext context = connectorContextOf(scan);
    const auto& factory = connectors::FactoryRegistry::builtIn().factoryFor(context);
    auto source = factory.createDynamicTableSource(context);
    if (source->supportsProjection()) return source;
  } catch (const std::exception&) {
    // An invalid table fails when the job is built, with its message.
  }
  return nullptr;
}

// Whether `node` is a chain of projections, filters and watermark assigners over a table scan
// whose source can project.
bool readsProjectableScan(const LogicalNode& node) {
  const LogicalNode* current = &node;
  while (current->kind == LogicalNodeKind::kProject || current->kind == LogicalNodeKind::kFilter ||
         current->kind == LogicalNodeKind::kWatermarkAssigner) {
    current = current->inputs[0].get();
  }
  return current->kind == LogicalNodeKind::kTableScan &&
         projectableSource(static_cast<const LogicalTableScan&>(*current)) != nullptr;
}

// `node` rewritten to produce `needed` (paths of its output, none covering another), through
// projections, filters and watermark assigners down to the scan, which is asked for just the
// fields read.
PrunedNode prune(const LogicalNodePtr& node, const std::vector<Path>& needed) {
  switch (node->kind) {
    case LogicalNodeKind::kTableScan: {
      const auto& scan = static_cast<const LogicalTableScan&>(*node);
      auto source = projectableSource(scan);
      std::set<Path> physical;
      for (const Path& path : needed) {
        // Paths of a projected scan's output continue the projection's paths.
        Path full = scan.projection ? (*scan.projection)[static_cast<size_t>(path[0])] : Path{};
        full.insert(full.end(), scan.projection ? path.begin() + 1 : path.begin(), path.end());
        if (!source->supportsNestedProjection()) full.resize(1);
        physical.insert(std::move(full));
      }
      std::vector<Path> paths = withoutCoveredPaths(physical);
      // The provided paths, over the original scan's output.
      std::vector<Path> provided;
      for (const Path& path : paths) {
        if (!scan.projection) {
          provided.push_back(path);
          continue;
        }
        // Back to the projected output: the projected column whose path is a prefix.
        for (size_t j = 0; j < scan.projection->size(); ++j) {
          const Path& projected = (*scan.projection)[j];
          if (covers(projected, path)) {
            Path local{static_cast<int>(j)};
            local.insert(local.end(), path.begin() + static_cast<long>(projected.size()),
                         path.end());
            provided.push_back(std::move(local));
            break;
          }
        }
      }
      bool everything = !scan.projection &&
                        paths.size() == static_cast<size_t>(scan.physicalRowType->getFieldCount());
      for (size_t i = 0; everything && i < paths.size(); ++i) {
        everything = paths[i].size() == 1 && paths[i][0] == static_cast<int>(i);
      }
      if (everything || (scan.projection && paths == *scan.projection)) {
        PrunedNode unchanged{node, {}};
        for (int i = 0; i < node->rowType->getFieldCount(); ++i) unchanged.provided.push_back({i});
        return unchanged;
      }
      LogicalTypePtr produced = source->applyProjection(paths);
      return PrunedNode{std::make_shared<LogicalTableScan>(scan, paths, produced), provided};
    }
    case LogicalNodeKind::kFilter: {
      const auto& filter = static_cast<const LogicalFilter&>(*node);
      std::set<Path> inputNeeded(needed.begin(), needed.end());
      collectPaths(filter.condition, inputNeeded);
      PrunedNode input = prune(node->inputs[0], withoutCoveredPaths(inputNeeded));
      return PrunedNode{
          std::make_shared<LogicalFilter>(input.node, replacePaths(filter.condition, input)),
          input.provided};
    }
    case LogicalNodeKind::kWatermarkAssigner: {
      const auto& assigner = static_cast<const LogicalWatermarkAssigner&>(*node);
      std::set<Path> inputNeeded(needed.begin(), needed.end());
      inputNeeded.insert(Path{assigner.rowtimeColumn});
      collectPaths(assigner.watermark, inputNeeded);
      PrunedNode input = prune(node->inputs[0], withoutCoveredPaths(inputNeeded));
      auto rowtime =
          std::find(input.provided.begin(), input.provided.end(), Path{assigner.rowtimeColumn});
      EDDY_CHECK(rowtime != input.provided.end());
      return PrunedNode{std::make_shared<LogicalWatermarkAssigner>(
                            input.node, static_cast<int>(rowtime - input.provided.begin()),
                            replacePaths(assigner.watermark, input)),
                        input.provided};
    }
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(*node);
      // What each needed path reads of the input: a path through a plain column reference
      // continues into the input; any other expression is read whole.
      std::set<Path> inputNeeded;
      for (const Path& path : needed) {
        const BoundPtr& e = project.expressions[static_cast<size_t>(path[0])];
        std::optional<Path> inner = pathOf(e);
        if (inner) {
          inner->insert(inner->end(), path.begin() + 1, path.end());
          inputNeeded.insert(std::move(*inner));
        } else {
          collectPaths(e, inputNeeded);
        }
      }
      PrunedNode input = prune(node->inputs[0], withoutCoveredPaths(inputNeeded));
      std::vector<BoundPtr> expressions;
      std::vector<std::string> names;
      const auto& fields = node->rowType->getFields();
      for (const Path& path : needed) {
        const BoundPtr& e = project.expressions[static_cast<size_t>(path[0])];
        std::string name = fields[static_cast<size_t>(path[0])].name;
        const LogicalType* type = e->type().get();
        for (size_t k = 1; k < path.size(); ++k) {
          const RowField& field = type->getFields().at(static_cast<size_t>(path[k]));
          name += "_" + field.name;
          type = field.type.get();
        }
        BoundPtr rewritten;
        if (std::optional<Path> inner = pathOf(e)) {
          inner->insert(inner->end(), path.begin() + 1, path.end());
          rewritten = resolvePath(*inner, input);
        } else {
          rewritten = replacePaths(e, input);
          for (size_t k = 1; k < path.size(); ++k) {
            rewritten = expression::fieldAccess(
                rewritten, rewritten->type()->getFields().at(static_cast<size_t>(path[k])).name);
          }
        }
        expressions.push_back(std::move(rewritten));
        names.push_back(std::move(name));
      }
      return PrunedNode{std::make_shared<LogicalProject>(input.node, std::move(expressions),
                                                         uniquifyNames(names)),
                        needed};
    }
    default: {
      PrunedNode unchanged{node, {}};
      for (int i = 0; i < node->rowType->getFieldCount(); ++i) unchanged.provided.push_back({i});
      return unchanged;
    }
  }
}

}  // namespace

// A projection over a scan whose source can project: the scan produces only what is read.
LogicalNodePtr pushProjection(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kProject || !readsProjectableScan(*node)) return node;
  std::vector<Path> all;
  for (int i = 0; i < node->rowType->getFieldCount(); ++i) all.push_back({i});
  PrunedNode pruned = prune(node, all);
  return samePlan(*pruned.node, *node) ? node : pruned.node;
}

}  // namespace eddy::sql
