#include "sql/optimizer/optimizer.h"

#include <algorithm>
#include <functional>
#include <set>

#include "connectors/dynamic_table_factory.h"
#include "eddy/exceptions.h"
#include "expression/expression_evaluator.h"
#include "sql/planner/plan_digest.h"
#include "sql/planner/plan_join.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

namespace {
std::vector<std::string> namesOf(const LogicalNode& node);
}  // namespace

LogicalNodePtr withInputs(const LogicalNode& node, std::vector<LogicalNodePtr> inputs) {
  switch (node.kind) {
    case LogicalNodeKind::kValues:
    case LogicalNodeKind::kTableScan:
    case LogicalNodeKind::kDataStreamScan:
      throw InternalError("a leaf node has no inputs to replace");
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(node);
      std::vector<std::string> names;
      for (const RowField& field : node.rowType->getFields()) names.push_back(field.name);
      return std::make_shared<LogicalProject>(inputs[0], project.expressions, std::move(names));
    }
    case LogicalNodeKind::kFilter:
      return std::make_shared<LogicalFilter>(inputs[0],
                                             static_cast<const LogicalFilter&>(node).condition);
    case LogicalNodeKind::kAggregate: {
      const auto& aggregate = static_cast<const LogicalAggregate&>(node);
      std::vector<std::string> names;
      const auto& fields = node.rowType->getFields();
      for (size_t i = aggregate.groupingColumns.size(); i < fields.size(); ++i) {
        names.push_back(fields[i].name);
      }
      return std::make_shared<LogicalAggregate>(inputs[0], aggregate.groupingColumns,
                                                aggregate.calls, std::move(names),
                                                aggregate.generateUpdateBefore);
    }
    case LogicalNodeKind::kUnion:
      return std::make_shared<LogicalUnion>(std::move(inputs), node.rowType);
    case LogicalNodeKind::kSort: {
      const auto& sort = static_cast<const LogicalSort&>(node);
      return std::make_shared<LogicalSort>(inputs[0], sort.keys, sort.offset, sort.fetch);
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(node);
      return join.with(inputs[0], inputs[1], join.condition);
    }
    case LogicalNodeKind::kRank: {
      const auto& rank = static_cast<const LogicalRank&>(node);
      return std::make_shared<LogicalRank>(inputs[0], rank.partitionKeys, rank.sortKeys,
                                           rank.rankKind, rank.rankStart, rank.rankEnd,
                                           rank.outputRankNumber, rank.rankName,
                                           rank.generateUpdateBefore);
    }
    case LogicalNodeKind::kWatermarkAssigner: {
      const auto& assigner = static_cast<const LogicalWatermarkAssigner&>(node);
      return std::make_shared<LogicalWatermarkAssigner>(inputs[0], assigner.rowtimeColumn,
                                                        assigner.watermark);
    }
    case LogicalNodeKind::kWindowTableFunction:
      return std::make_shared<LogicalWindowTableFunction>(
          inputs[0], static_cast<const LogicalWindowTableFunction&>(node).window);
    case LogicalNodeKind::kOverAggregate: {
      const auto& over = static_cast<const LogicalOverAggregate&>(node);
      std::vector<std::string> names;
      const auto& fields = node.rowType->getFields();
      for (size_t i = fields.size() - over.calls.size(); i < fields.size(); ++i) {
        names.push_back(fields[i].name);
      }
      return std::make_shared<LogicalOverAggregate>(inputs[0], over.partitionKeys,
                                                    over.orderColumn, over.unit, over.preceding,
                                                    over.calls, std::move(names), over.orderKeys);
    }
    case LogicalNodeKind::kLookupJoin: {
      const auto& lookup = static_cast<const LogicalLookupJoin&>(node);
      return std::make_shared<LogicalLookupJoin>(inputs[0], lookup.table, lookup.joinType,
                                                 lookup.inputKeys, lookup.lookupKeys,
                                                 lookup.condition);
    }
    case LogicalNodeKind::kUnnest: {
      const auto& unnest = static_cast<const LogicalUnnest&>(node);
      return std::make_shared<LogicalUnnest>(inputs[0], unnest.collection, unnest.withOrdinality,
                                             unnest.leftOuter);
    }
    case LogicalNodeKind::kWindowAggregate: {
      const auto& aggregate = static_cast<const LogicalWindowAggregate&>(node);
      return std::make_shared<LogicalWindowAggregate>(inputs[0], aggregate.window,
                                                      aggregate.keyColumns, aggregate.calls,
                                                      aggregate.outputColumns, namesOf(node));
    }
  }
  throw InternalError("unknown logical node");
}

namespace {

using Rewrite = std::function<LogicalNodePtr(const LogicalNodePtr&)>;

/// Applies `rewrite` bottom-up: inputs first, then the node (rebuilt when an input changed).
LogicalNodePtr bottomUp(const LogicalNodePtr& node, const Rewrite& rewrite) {
  bool changed = false;
  std::vector<LogicalNodePtr> inputs;
  for (const LogicalNodePtr& input : node->inputs) {
    inputs.push_back(bottomUp(input, rewrite));
    changed = changed || inputs.back() != input;
  }
  LogicalNodePtr current = changed ? withInputs(*node, std::move(inputs)) : node;
  return rewrite(current);
}

std::vector<std::string> namesOf(const LogicalNode& node) {
  std::vector<std::string> names;
  for (const RowField& field : node.rowType->getFields()) names.push_back(field.name);
  return names;
}

using expression::isLiteralTrue;

// ---- ConstantFolding ----------------------------------------------------------------------

BoundPtr fold(const BoundPtr& e) {
  if (e->kind() == expression::ExpressionKind::kLiteral ||
      e->kind() == expression::ExpressionKind::kColumnReference) {
    return e;
  }
  if (e->isConstant() && e->isDeterministic()) {
    std::optional<Value> value = expression::ExpressionEvaluator::evaluateConstant(e);
    // A failing constant (1 / 0) is left to fail at runtime, as unfolded.
    if (value) return expression::literal(*value, e->type());
    return e;
  }
  // Fold the operands; the node is rebuilt only when one of them changed.
  bool changed = false;
  std::vector<BoundPtr> children;
  for (const BoundPtr& child : e->children()) {
    children.push_back(fold(child));
    changed = changed || children.back() != child;
  }
  if (!changed) return e;
  return expression::withChildren(e, std::move(children));
}

bool isLiteralFalse(const BoundPtr& e) {
  if (e->kind() != expression::ExpressionKind::kLiteral) return false;
  const Value& value = static_cast<const expression::Literal&>(*e).value();
  return !value.isNull() && value.kind() == ValueKind::BOOLEAN && !value.get<bool>();
}

/// A folded predicate (where only TRUE passes) with TRUE operands of AND and FALSE operands of
/// OR left out, and AND with a FALSE operand / OR with a TRUE operand decided.
BoundPtr simplifyPredicate(const BoundPtr& e) {
  bool isAnd = expression::isCallTo(*e, "AND");
  bool isOr = expression::isCallTo(*e, "OR");
  if (!isAnd && !isOr) return e;
  std::vector<BoundPtr> kept;
  for (const BoundPtr& child : e->children()) {
    BoundPtr simplified = simplifyPredicate(child);
    if (isAnd && isLiteralFalse(simplified)) return simplified;
    if (isOr && isLiteralTrue(simplified)) return simplified;
    if ((isAnd && isLiteralTrue(simplified)) || (isOr && isLiteralFalse(simplified))) continue;
    kept.push_back(simplified);
  }
  if (kept.empty()) return expression::literal(Value(isAnd));
  if (kept.size() == 1) return kept[0];
  return isAnd ? expression::conjunction(std::move(kept)) : expression::disjunction(std::move(kept));
}

LogicalNodePtr foldConstants(const LogicalNodePtr& node) {
  switch (node->kind) {
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(*node);
      bool changed = false;
      std::vector<BoundPtr> folded;
      for (const BoundPtr& e : project.expressions) {
        folded.push_back(fold(e));
        changed = changed || folded.back() != e;
      }
      if (!changed) return node;
      return std::make_shared<LogicalProject>(node->inputs[0], std::move(folded), namesOf(*node));
    }
    case LogicalNodeKind::kFilter: {
      BoundPtr folded = simplifyPredicate(fold(static_cast<const LogicalFilter&>(*node).condition));
      if (isLiteralTrue(folded)) return node->inputs[0];
      if (folded == static_cast<const LogicalFilter&>(*node).condition) return node;
      return std::make_shared<LogicalFilter>(node->inputs[0], folded);
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(*node);
      if (!join.condition) return node;
      BoundPtr folded = simplifyPredicate(fold(join.condition));
      if (folded == join.condition) return node;
      return join.with(node->inputs[0], node->inputs[1], isLiteralTrue(folded) ? nullptr : folded);
    }
    default:
      return node;
  }
}

// ---- FilterPushDown ------------------------------------------------------------------------

bool allDeterministic(const std::vector<BoundPtr>& expressions) {
  for (const BoundPtr& e : expressions) {
    if (!e->isDeterministic()) return false;
  }
  return true;
}

LogicalNodePtr pushFilters(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kFilter) return node;
  const auto& filter = static_cast<const LogicalFilter&>(*node);
  const LogicalNodePtr& input = node->inputs[0];
  if (!filter.condition->isDeterministic()) return node;
  switch (input->kind) {
    case LogicalNodeKind::kFilter: {
      // Two filters: one, the lower condition first (AND evaluates its right operand only
      // where the left one holds, so the lower filter's guards still apply).
      const auto& lower = static_cast<const LogicalFilter&>(*input);
      if (!lower.condition->isDeterministic()) return node;
      return pushFilters(std::make_shared<LogicalFilter>(
          input->inputs[0], expression::conjunction({lower.condition, filter.condition})));
    }
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(*input);
      if (!allDeterministic(project.expressions)) return node;
      LogicalNodePtr pushed = pushFilters(std::make_shared<LogicalFilter>(
          input->inputs[0], expression::inlineColumns(filter.condition, project.expressions)));
      return std::make_shared<LogicalProject>(pushed, project.expressions, namesOf(*input));
    }
    case LogicalNodeKind::kUnion: {
      std::vector<LogicalNodePtr> inputs;
      for (const LogicalNodePtr& branch : input->inputs) {
        inputs.push_back(pushFilters(std::make_shared<LogicalFilter>(branch, filter.condition)));
      }
      return std::make_shared<LogicalUnion>(std::move(inputs), input->rowType);
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(*input);
      // A filter above a temporal join stays there: merged into the join's condition it could
      // add equi keys and change which versions a row is matched against.
      if (runtime::operators::outputsLeftOnly(join.joinType) && !join.temporal) {
        // A SEMI/ANTI join outputs its left input's columns at their positions: the filter
        // applies to the left input (and may become keys of a join there).
        return join.with(pushFilters(std::make_shared<LogicalFilter>(input->inputs[0],
                                                                     filter.condition)),
                         input->inputs[1], join.condition);
      }
      if (join.joinType != runtime::operators::JoinType::INNER || join.temporal) return node;
      return planJoin(input->inputs[0], input->inputs[1], join.joinType,
                      expression::conjunction({join.fullCondition(), filter.condition}));
    }
    default:
      return node;
  }
}

// ---- ProjectMerge ----------------------------------------------------------------------------

bool isIdentity(const LogicalProject& project) {
  const LogicalNode& input = *project.inputs[0];
  if (project.expressions.size() != static_cast<size_t>(input.rowType->getFieldCount())) return false;
  const auto& inputFields = input.rowType->getFields();
  const auto& fields = project.rowType->getFields();
  for (size_t i = 0; i < project.expressions.size(); ++i) {
    const auto& e = project.expressions[i];
    if (e->kind() != expression::ExpressionKind::kColumnReference ||
        static_cast<const expression::ColumnReference&>(*e).index() != static_cast<int>(i) ||
        fields[i].name != inputFields[i].name || !(*fields[i].type == *inputFields[i].type)) {
      return false;
    }
  }
  return true;
}

LogicalNodePtr mergeProjects(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kProject) return node;
  const auto& project = static_cast<const LogicalProject&>(*node);
  if (isIdentity(project)) return node->inputs[0];
  const LogicalNodePtr& input = node->inputs[0];
  if (input->kind != LogicalNodeKind::kProject) return node;
  const auto& inner = static_cast<const LogicalProject&>(*input);
  if (!allDeterministic(inner.expressions)) return node;
  std::vector<BoundPtr> merged;
  for (const BoundPtr& e : project.expressions) {
    merged.push_back(expression::inlineColumns(e, inner.expressions));
  }
  auto result = std::make_shared<LogicalProject>(input->inputs[0], std::move(merged), namesOf(*node));
  return isIdentity(*result) ? input->inputs[0] : result;
}

// ---- ProjectJoinTranspose --------------------------------------------------------------------

// Sets used[i] for every column `e` reads.
void markColumns(const BoundPtr& e, std::vector<bool>& used) {
  std::vector<int> columns;
  expression::collectColumns(e, columns);
  for (int column : columns) used.at(static_cast<size_t>(column)) = true;
}

// `e` with column i read as column newIndex[i] (same type).
BoundPtr renumberColumns(const BoundPtr& e, const std::vector<int>& newIndex) {
  if (e->kind() == expression::ExpressionKind::kColumnReference) {
    const int index = static_cast<const expression::ColumnReference&>(*e).index();
    EDDY_CHECK_GE(newIndex[static_cast<size_t>(index)], 0);
    return expression::column(newIndex[static_cast<size_t>(index)], e->type());
  }
  if (e->children().empty()) return e;
  std::vector<BoundPtr> children;
  for (const BoundPtr& child : e->children()) children.push_back(renumberColumns(child, newIndex));
  return expression::withChildren(e, std::move(children));
}

// A projection over a (non-temporal) join that reads only some of its columns: each input of
// the join gets a projection keeping the columns read above it, by its keys and by the
// residual condition, so the join stores and emits only those (Flink's ProjectJoinTranspose).
LogicalNodePtr pruneJoinInputs(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kProject) return node;
  const auto& project = static_cast<const LogicalProject&>(*node);
  const LogicalNodePtr& input = node->inputs[0];
  if (input->kind != LogicalNodeKind::kJoin) return node;
  const auto& join = static_cast<const LogicalJoin&>(*input);
  if (join.temporal) return node;  // its versioned side's time and key columns are implicit
  const int leftArity = join.inputs[0]->rowType->getFieldCount();
  const int rightArity = join.inputs[1]->rowType->getFieldCount();
  std::vector<bool> used(static_cast<size_t>(leftArity + rightArity), false);
  for (const BoundPtr& e : project.expressions) markColumns(e, used);
  if (join.condition) markColumns(join.condition, used);
  for (int key : join.leftKeys) used[static_cast<size_t>(key)] = true;
  for (int key : join.rightKeys) used[static_cast<size_t>(leftArity + key)] = true;
  if (std::all_of(used.begin(), used.end(), [](bool u) { return u; })) return node;

  std::vector<int> newIndex(used.size(), -1);
  int kept = 0;
  auto pruneSide = [&](int side) -> LogicalNodePtr {
    const LogicalNodePtr& sideInput = join.inputs[static_cast<size_t>(side)];
    const int offset = side == 0 ? 0 : leftArity;
    const int arity = side == 0 ? leftArity : rightArity;
    const auto& fields = sideInput->rowType->getFields();
    std::vector<BoundPtr> expressions;
    std::vector<std::string> names;
    for (int c = 0; c < arity; ++c) {
      // A side nothing reads still keeps one column (a row type has at least one field).
      const bool last = c == arity - 1 && expressions.empty();
      if (!used[static_cast<size_t>(offset + c)] && !last) continue;
      newIndex[static_cast<size_t>(offset + c)] = kept++;
      expressions.push_back(expression::column(c, fields[static_cast<size_t>(c)].type));
      names.push_back(fields[static_cast<size_t>(c)].name);
    }
    if (static_cast<int>(expressions.size()) == arity) return sideInput;
    return std::make_shared<LogicalProject>(sideInput, std::move(expressions), std::move(names));
  };
  LogicalNodePtr left = pruneSide(0);
  const int leftKept = kept;
  LogicalNodePtr right = pruneSide(1);
  std::vector<int> leftKeys, rightKeys;
  for (int key : join.leftKeys) leftKeys.push_back(newIndex[static_cast<size_t>(key)]);
  for (int key : join.rightKeys) {
    rightKeys.push_back(newIndex[static_cast<size_t>(leftArity + key)] - leftKept);
  }
  auto pruned = std::make_shared<LogicalJoin>(
      std::move(left), std::move(right), join.joinType, std::move(leftKeys), std::move(rightKeys),
      join.condition ? renumberColumns(join.condition, newIndex) : nullptr);
  if (pruned->interval.has_value() != join.interval.has_value()) return node;  // to be safe
  std::vector<BoundPtr> expressions;
  for (const BoundPtr& e : project.expressions) {
    expressions.push_back(renumberColumns(e, newIndex));
  }
  return std::make_shared<LogicalProject>(std::move(pruned), std::move(expressions),
                                          namesOf(*node));
}

// ---- PartitionPushDown -----------------------------------------------------------------------

// A filter over a scan of a partitioned table whose source lists its partitions: the conjuncts
// over partition keys only are evaluated on each partition's key values, the scan reads just
// the partitions where all of them hold, and those conjuncts go (Flink's
// PushPartitionIntoTableSourceScanRule). Conjuncts over other columns stay in the filter.
LogicalNodePtr prunePartitions(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kFilter ||
      node->inputs[0]->kind != LogicalNodeKind::kTableScan) {
    return node;
  }
  const auto& filter = static_cast<const LogicalFilter&>(*node);
  const auto& scan = static_cast<const LogicalTableScan&>(*node->inputs[0]);
  if (scan.partitionKeys.empty() || scan.partitions || scan.projection) return node;
  // The key columns (the scan's columns are the physical ones, then metadata).
  const std::vector<RowField>& fields = scan.rowType->getFields();
  std::vector<int> keyIndex(fields.size(), -1);  // scan column -> key position
  std::vector<RowField> keys;
  for (const std::string& key : scan.partitionKeys) {
    const int column = scan.physicalRowType->getFieldIndex(key);
    if (column < 0) return node;  // the connector reports it
    keyIndex[static_cast<size_t>(column)] = static_cast<int>(keys.size());
    keys.push_back(fields[static_cast<size_t>(column)]);
  }
  std::vector<BoundPtr> onKeys, others;
  for (const BoundPtr& conjunct : expression::conjunctsOf(filter.condition)) {
    std::vector<int> columns;
    expression::collectColumns(conjunct, columns);
    const bool keysOnly = !columns.empty() && conjunct->isDeterministic() &&
                          std::all_of(columns.begin(), columns.end(), [&](int column) {
                            return keyIndex[static_cast<size_t>(column)] >= 0;
                          });
    (keysOnly ? onKeys : others).push_back(conjunct);
  }
  if (onKeys.empty()) return node;
  std::unique_ptr<connectors::DynamicTableSource> source;
  try {
    connectors::ConnectorContext context{scan.tableName, scan.physicalRowType, scan.options,
                                         true, scan.partitionKeys};
    source = connectors::FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(
        context);
  } catch (const std::exception&) {
    return node;  // an invalid table fails when the job is built, with its message
  }
  if (!source->supportsPartitionPushDown()) return node;
  // The predicate over a chunk of the partitions' key values. A table that cannot be listed
  // (no directory yet) or has a value not of its key's type is left to the job, which fails
  // with that message when it reads the table.
  std::vector<connectors::PartitionSpec> partitions;
  std::vector<Row> keyRows;
  try {
    partitions = source->listPartitions();
    for (const connectors::PartitionSpec& partition : partitions) {
      keyRows.push_back(connectors::partitionRow(partition, keys, scan.tableName));
    }
  } catch (const ConnectorException&) {
    return node;
  }
  LogicalTypePtr keyRowType = LogicalType::row(keys, false);
  BoundPtr predicate = renumberColumns(expression::conjunction(onKeys), keyIndex);
  std::vector<int32_t> selected;
  try {
    expression::ExpressionEvaluator evaluator({predicate});
    selected = evaluator.selectTrue(predicate, vector::rowsToChunk(keyRows, keyRowType));
  } catch (const std::exception&) {
    return node;  // a failing predicate fails at runtime, row by row
  }
  std::vector<connectors::PartitionSpec> kept;
  for (int32_t row : selected) kept.push_back(partitions[static_cast<size_t>(row)]);
  auto pruned = std::make_shared<LogicalTableScan>(scan, std::move(kept));
  if (others.empty()) return pruned;
  return std::make_shared<LogicalFilter>(pruned, expression::conjunction(std::move(others)));
}

// ---- ProjectionPushDown ----------------------------------------------------------------------

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
    BoundPtr result = expression::column(
        static_cast<int>(j), pruned.node->rowType->getFields()[j].type);
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
  try {
    connectors::ConnectorContext context{scan.tableName, scan.physicalRowType, scan.options,
                                         true, scan.partitionKeys};
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
            local.insert(local.end(), path.begin() + static_cast<long>(projected.size()), path.end());
            provided.push_back(std::move(local));
            break;
          }
        }
      }
      bool everything = !scan.projection && paths.size() == static_cast<size_t>(scan.physicalRowType->getFieldCount());
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
      auto rowtime = std::find(input.provided.begin(), input.provided.end(), Path{assigner.rowtimeColumn});
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

// A projection over a scan whose source can project: the scan produces only what is read.
LogicalNodePtr pushProjection(const LogicalNodePtr& node) {
  if (node->kind != LogicalNodeKind::kProject || !readsProjectableScan(*node)) return node;
  std::vector<Path> all;
  for (int i = 0; i < node->rowType->getFieldCount(); ++i) all.push_back({i});
  PrunedNode pruned = prune(node, all);
  return samePlan(*pruned.node, *node) ? node : pruned.node;
}

}  // namespace

LogicalNodePtr optimize(const LogicalNodePtr& plan, std::vector<std::string>* appliedPasses) {
  static const std::vector<std::pair<const char*, Rewrite>> kPasses = {
      {"ConstantFolding", foldConstants},
      {"FilterPushDown", pushFilters},
      {"ProjectJoinTranspose", pruneJoinInputs},
      {"ProjectMerge", mergeProjects},
      // Merged projections can put constants together again (CAST(1.5 AS DOUBLE) of a sink's
      // cast over a literal column): fold once more.
      {"ConstantFolding", foldConstants},
      {"PartitionPushDown", prunePartitions},
      {"ProjectionPushDown", pushProjection},
  };
  LogicalNodePtr current = plan;
  for (const auto& [name, rewrite] : kPasses) {
    LogicalNodePtr next = bottomUp(current, rewrite);
    if (next != current && appliedPasses) appliedPasses->push_back(name);
    current = next;
  }
  return current;
}

}  // namespace eddy::sql
