// What a plan's changelog is (logical_node.h): the kinds of rows each node emits (EXPLAIN
// CHANGELOG_MODE), its unique and upsert keys (Flink's FlinkRelMdUniqueKeys /
// FlinkRelMdUpsertKeys), the node that first produces updates, and the plan rewritten to send
// updates without -U where its consumer takes upserts.
#include <algorithm>
#include <numeric>
#include <set>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

std::optional<std::vector<int>> uniqueKeyOf(const LogicalNode& node) {
  switch (node.kind) {
    case LogicalNodeKind::kRank: {
      const auto& rank = static_cast<const LogicalRank&>(node);
      if (rank.rankKind != relational::RankKind::ROW_NUMBER || rank.rankEnd != 1) {
        return std::nullopt;
      }
      return rank.partitionKeys;
    }
    case LogicalNodeKind::kAggregate: {
      // The output starts with the grouping columns.
      std::vector<int> key(static_cast<const LogicalAggregate&>(node).groupingColumns.size());
      std::iota(key.begin(), key.end(), 0);
      if (key.empty()) return std::nullopt;
      return key;
    }
    case LogicalNodeKind::kDataStreamScan: {
      const auto& scan = static_cast<const LogicalDataStreamScan&>(node);
      if (scan.source->kinds != DataStreamSource::Kinds::kUpsert) return std::nullopt;
      return scan.source->upsertKey;
    }
    case LogicalNodeKind::kFilter:
    case LogicalNodeKind::kWatermarkAssigner:
      return uniqueKeyOf(*node.inputs[0]);
    case LogicalNodeKind::kProject: {
      auto inputKey = uniqueKeyOf(*node.inputs[0]);
      if (!inputKey) return std::nullopt;
      const auto& expressions = static_cast<const LogicalProject&>(node).expressions;
      std::vector<int> key;
      for (int column : *inputKey) {
        auto found = std::find_if(expressions.begin(), expressions.end(), [&](const auto& e) {
          return e->kind() == expression::ExpressionKind::kColumnReference &&
                 static_cast<const expression::ColumnReference&>(*e).index() == column;
        });
        if (found == expressions.end()) return std::nullopt;
        key.push_back(static_cast<int>(found - expressions.begin()));
      }
      return key;
    }
    default:
      return std::nullopt;
  }
}

std::string changelogKindsOf(const LogicalNode& node) {
  if (node.changelogMode == ChangelogMode::kInsertOnly) return "[I]";
  switch (node.kind) {
    case LogicalNodeKind::kAggregate: {
      const auto& aggregate = static_cast<const LogicalAggregate&>(node);
      // Over an insert-only input a group's count only grows: it is never deleted.
      const bool deletes = node.inputs[0]->changelogMode != ChangelogMode::kInsertOnly;
      return std::string("[I,") + (aggregate.generateUpdateBefore ? "UB," : "") + "UA" +
             (deletes ? ",D]" : "]");
    }
    case LogicalNodeKind::kRank: {
      const auto& rank = static_cast<const LogicalRank&>(node);
      // A deduplication replaces a key's row, never deletes it.
      if (isDeduplicate(*node.inputs[0], rank.rankKind, rank.rankStart, rank.rankEnd,
                        rank.outputRankNumber, rank.sortKeys)) {
        return rank.generateUpdateBefore ? "[I,UB,UA]" : "[I,UA]";
      }
      return rank.generateUpdateBefore ? "[I,UB,UA,D]" : "[I,UA,D]";
    }
    case LogicalNodeKind::kProject:
    case LogicalNodeKind::kFilter:
    case LogicalNodeKind::kWatermarkAssigner:
      return changelogKindsOf(*node.inputs[0]);
    case LogicalNodeKind::kTableScan:
      // A changelog source: an upsert one's through its ChangelogNormalize.
      return static_cast<const LogicalTableScan&>(node).generateUpdateBefore ? "[I,UB,UA,D]"
                                                                             : "[I,UA,D]";
    default:
      return "[I,UB,UA,D]";
  }
}

namespace {

// The rank of an integer type by width (0: not an integer type).
int integerRank(LogicalTypeRoot root) {
  switch (root) {
    case LogicalTypeRoot::TINYINT:
      return 1;
    case LogicalTypeRoot::SMALLINT:
      return 2;
    case LogicalTypeRoot::INTEGER:
      return 3;
    case LogicalTypeRoot::BIGINT:
      return 4;
    default:
      return 0;
  }
}

// Whether casting `from` to `to` keeps distinct values distinct: the same type (nullability
// aside), a wider integer, a longer string or binary string, a wider DECIMAL of the same scale.
bool isInjectiveCast(const LogicalType& from, const LogicalType& to) {
  if (*from.copy(true) == *to.copy(true)) return true;
  const LogicalTypeRoot fromRoot = from.getTypeRoot(), toRoot = to.getTypeRoot();
  if (integerRank(fromRoot) > 0 && integerRank(toRoot) > 0) {
    return integerRank(toRoot) >= integerRank(fromRoot);
  }
  if (from.isCharacterString() && toRoot == LogicalTypeRoot::VARCHAR) {
    return to.getLength() >= from.getLength();
  }
  if ((fromRoot == LogicalTypeRoot::BINARY || fromRoot == LogicalTypeRoot::VARBINARY) &&
      toRoot == LogicalTypeRoot::VARBINARY) {
    return to.getLength() >= from.getLength();
  }
  if (fromRoot == LogicalTypeRoot::DECIMAL && toRoot == LogicalTypeRoot::DECIMAL) {
    return to.getScale() == from.getScale() && to.getPrecision() >= from.getPrecision();
  }
  return false;
}

// The input column `e` passes on unchanged as a key: a column reference, or one under an
// injective CAST; -1 for any other expression.
int keyColumnOf(const expression::ExpressionPtr& e) {
  const expression::BoundExpression* column = e.get();
  if (e->kind() == expression::ExpressionKind::kCast) {
    column = e->children()[0].get();
    if (!isInjectiveCast(*column->type(), *e->type())) return -1;
  }
  if (column->kind() != expression::ExpressionKind::kColumnReference) return -1;
  return static_cast<const expression::ColumnReference&>(*column).index();
}

}  // namespace

namespace {

using Keys = std::vector<std::vector<int>>;

/// Adds `key` (sorted, deduplicated) to `keys` unless present.
void addKey(Keys& keys, std::vector<int> key) {
  std::sort(key.begin(), key.end());
  key.erase(std::unique(key.begin(), key.end()), key.end());
  if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
}

/// Whether every column of `inner` is in `outer` (both sorted or not).
bool containsAll(const std::vector<int>& outer, const std::vector<int>& inner) {
  return std::all_of(inner.begin(), inner.end(), [&outer](int column) {
    return std::find(outer.begin(), outer.end(), column) != outer.end();
  });
}

/// The keys of `keys` that hold all of `columns` (Flink keeps the upsert keys that contain the
/// distribution key of a keyed operator: changes of one key then meet in one subtask).
Keys keysHolding(const Keys& keys, const std::vector<int>& columns) {
  Keys held;
  for (const auto& key : keys) {
    if (containsAll(key, columns)) held.push_back(key);
  }
  return held;
}

/// Whether `columns` hold one of `keys` (then at most one row has each of their values).
bool holdsAKey(const Keys& keys, const std::vector<int>& columns) {
  return std::any_of(keys.begin(), keys.end(),
                     [&columns](const auto& key) { return containsAll(columns, key); });
}

}  // namespace

std::vector<std::vector<int>> upsertKeysOf(const LogicalNode& node) {
  Keys keys;
  switch (node.kind) {
    case LogicalNodeKind::kTableScan: {
      const auto& scan = static_cast<const LogicalTableScan&>(node);
      if (scan.primaryKey.empty()) break;
      std::vector<int> key;
      for (int column : scan.primaryKey) {
        int position = column;
        if (scan.projection) {
          const auto& paths = *scan.projection;
          auto found = std::find(paths.begin(), paths.end(), std::vector<int>{column});
          if (found == paths.end()) return {};
          position = static_cast<int>(found - paths.begin());
        }
        key.push_back(position);
      }
      addKey(keys, std::move(key));
      break;
    }
    case LogicalNodeKind::kDataStreamScan: {
      const auto& scan = static_cast<const LogicalDataStreamScan&>(node);
      if (scan.source->kinds == DataStreamSource::Kinds::kUpsert)
        addKey(keys, scan.source->upsertKey);
      break;
    }
    case LogicalNodeKind::kFilter:
    case LogicalNodeKind::kWatermarkAssigner:
    case LogicalNodeKind::kSort:
    case LogicalNodeKind::kOverAggregate:
      return upsertKeysOf(*node.inputs[0]);
    case LogicalNodeKind::kProject: {
      const auto& expressions = static_cast<const LogicalProject&>(node).expressions;
      for (const auto& inputKey : upsertKeysOf(*node.inputs[0])) {
        std::vector<int> key;
        for (int column : inputKey) {
          auto found = std::find_if(expressions.begin(), expressions.end(),
                                    [column](const auto& e) { return keyColumnOf(e) == column; });
          if (found == expressions.end()) break;
          key.push_back(static_cast<int>(found - expressions.begin()));
        }
        if (key.size() == inputKey.size()) addKey(keys, std::move(key));
      }
      break;
    }
    case LogicalNodeKind::kAggregate: {
      // (Grouping sets repeat keys across sets: unique with the GROUPING flags, once planned.)
      if (!static_cast<const LogicalAggregate&>(node).groupingSets.empty()) break;
      std::vector<int> key(static_cast<const LogicalAggregate&>(node).groupingColumns.size());
      std::iota(key.begin(), key.end(), 0);
      addKey(keys, std::move(key));
      break;
    }
    case LogicalNodeKind::kRank: {
      // Narrower than Flink's rules, to what RankOperator's changes are upserts by: a
      // deduplication replaces its key's row (-U/+U); a numbered Top-N changes rank by rank
      // (a row moving up gets its +U at the new rank before its -U at the old one, so its own
      // key is none); an unnumbered one inserts a row entering the top N before it deletes the
      // one leaving it (so the partition keys are none even for a Top-1), but each row's
      // own changes come in order.
      const auto& rank = static_cast<const LogicalRank&>(node);
      if (isDeduplicate(*node.inputs[0], rank.rankKind, rank.rankStart, rank.rankEnd,
                        rank.outputRankNumber, rank.sortKeys)) {
        addKey(keys, rank.partitionKeys);
      } else if (rank.outputRankNumber) {
        if (rank.rankKind == relational::RankKind::ROW_NUMBER) {
          std::vector<int> key = rank.partitionKeys;
          key.push_back(node.rowType->getFieldCount() - 1);
          addKey(keys, std::move(key));
        }
      } else {
        for (auto& key : keysHolding(upsertKeysOf(*node.inputs[0]), rank.partitionKeys)) {
          addKey(keys, std::move(key));
        }
      }
      break;
    }
    case LogicalNodeKind::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(node);
      using relational::JoinType;
      const Keys left = keysHolding(upsertKeysOf(*node.inputs[0]), join.leftKeys);
      if (outputsLeftOnly(join.joinType)) return left;
      if (join.interval || join.temporal) break;
      const Keys right = keysHolding(upsertKeysOf(*node.inputs[1]), join.rightKeys);
      const int leftWidth = node.inputs[0]->rowType->getFieldCount();
      auto shifted = [leftWidth](std::vector<int> key) {
        for (int& column : key) column += leftWidth;
        return key;
      };
      for (const auto& l : left) {
        for (const auto& r : right) {
          std::vector<int> key = l;
          for (int column : shifted(r)) key.push_back(column);
          addKey(keys, std::move(key));
        }
      }
      const bool nullsOnLeft = join.joinType == JoinType::RIGHT || join.joinType == JoinType::FULL;
      const bool nullsOnRight = join.joinType == JoinType::LEFT || join.joinType == JoinType::FULL;
      if (!nullsOnLeft && holdsAKey(upsertKeysOf(*node.inputs[1]), join.rightKeys)) {
        for (const auto& key : left) addKey(keys, key);
      }
      if (!nullsOnRight && holdsAKey(upsertKeysOf(*node.inputs[0]), join.leftKeys)) {
        for (const auto& key : right) addKey(keys, shifted(key));
      }
      break;
    }
    default:
      break;
  }
  return keys;
}

LogicalNodePtr withoutUpdateBefore(const LogicalNodePtr& plan,
                                   const std::optional<std::vector<int>>& key) {
  if (plan->changelogMode == ChangelogMode::kInsertOnly || (key && key->empty())) return nullptr;
  switch (plan->kind) {
    case LogicalNodeKind::kProject: {
      const auto& project = static_cast<const LogicalProject&>(*plan);
      std::optional<std::vector<int>> inputKey;
      if (key) {
        inputKey.emplace();
        for (int column : *key) {
          const int input = keyColumnOf(project.expressions.at(static_cast<size_t>(column)));
          if (input < 0) return nullptr;
          inputKey->push_back(input);
        }
      }
      LogicalNodePtr input = withoutUpdateBefore(plan->inputs[0], inputKey);
      if (!input) return nullptr;
      return std::make_shared<LogicalProject>(input, project.expressions,
                                              plan->rowType->getFieldNames());
    }
    case LogicalNodeKind::kAggregate: {
      const auto& aggregate = static_cast<const LogicalAggregate&>(*plan);
      // A key must be the grouping columns (the first output columns), each once.
      std::vector<int> grouping(aggregate.groupingColumns.size());
      std::iota(grouping.begin(), grouping.end(), 0);
      if (key) {
        std::vector<int> sorted = *key;
        std::sort(sorted.begin(), sorted.end());
        if (sorted != grouping) return nullptr;
      }
      if (!aggregate.groupingSets.empty() || aggregate.windowed) return nullptr;  // not planned yet
      std::vector<std::string> names = plan->rowType->getFieldNames();
      names.erase(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(grouping.size()));
      return std::make_shared<LogicalAggregate>(plan->inputs[0], aggregate.groupingColumns,
                                                aggregate.calls, std::move(names), false);
    }
    case LogicalNodeKind::kRank: {
      // A deduplication, upserting by its partition keys, or a ROW_NUMBER Top-N with the
      // number selected, upserting by the partition keys and the number (its changes are per
      // rank: a row that drops out is not deleted by its own key); a key must be exactly that.
      const auto& rank = static_cast<const LogicalRank&>(*plan);
      const bool deduplicate = isDeduplicate(*plan->inputs[0], rank.rankKind, rank.rankStart,
                                             rank.rankEnd, rank.outputRankNumber, rank.sortKeys);
      const bool numbered =
          rank.outputRankNumber && rank.rankKind == relational::RankKind::ROW_NUMBER;
      if (!deduplicate && !numbered) return nullptr;
      if (key) {
        std::vector<int> sorted = *key, upsertKey = rank.partitionKeys;
        if (numbered) upsertKey.push_back(plan->rowType->getFieldCount() - 1);
        std::sort(sorted.begin(), sorted.end());
        std::sort(upsertKey.begin(), upsertKey.end());
        if (sorted != upsertKey) return nullptr;
      }
      return std::make_shared<LogicalRank>(plan->inputs[0], rank.partitionKeys, rank.sortKeys,
                                           rank.rankKind, rank.rankStart, rank.rankEnd,
                                           rank.outputRankNumber, rank.rankName, false);
    }
    case LogicalNodeKind::kTableScan: {
      // An upsert table, normalized by its primary key.
      const auto& scan = static_cast<const LogicalTableScan&>(*plan);
      if (scan.changes != connectors::SourceChangelogMode::kUpsert) return nullptr;
      if (key) {
        std::vector<int> sorted = *key, primaryKey = scan.primaryKey;
        std::sort(sorted.begin(), sorted.end());
        std::sort(primaryKey.begin(), primaryKey.end());
        if (sorted != primaryKey) return nullptr;
      }
      return std::make_shared<LogicalTableScan>(scan, false);
    }
    default:
      return nullptr;
  }
}

const LogicalNode& updateProducer(const LogicalNode& plan) {
  const LogicalNode* producer = &plan;
  for (bool descended = true; descended;) {
    descended = false;
    for (const auto& input : producer->inputs) {
      if (input->changelogMode != ChangelogMode::kInsertOnly) {
        producer = input.get();
        descended = true;
        break;
      }
    }
  }
  return *producer;
}

}  // namespace eddy::sql
