// `left JOIN versioned FOR SYSTEM_TIME AS OF left.time ON ...`: an event-time temporal join
// (the versioned side's rowtime and primary key, Flink's checks and messages), or, AS OF the
// left's processing time, a lookup join against a connector that looks rows up by key.
#include <algorithm>

#include "connectors/dynamic_table_factory.h"
#include "eddy/exceptions.h"
#include "function/type_rules.h"
#include "sql/binder/binder.h"
#include "sql/optimizer/optimizer.h"
#include "sql/parser/unparse.h"
#include "sql/planner/plan_join.h"
#include "sql/planner/plan_table_scan.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

Binder::Relation Binder::bindTemporalJoin(const JoinReference& join, Relation left, Relation right,
                                          relational::JoinType joinType,
                                          const BoundPtr& condition) {
  using relational::JoinType;
  const auto& versioned = join.right->as<NamedTableReference>();
  std::string tableName;
  for (size_t i = 0; i < versioned.name.size(); ++i)
    tableName += (i ? "." : "") + versioned.name[i];
  if (joinType != JoinType::INNER && joinType != JoinType::LEFT) {
    fail(join, std::string("Temporal table join currently only supports INNER JOIN and LEFT JOIN, "
                           "but was ") +
                   (joinType == JoinType::RIGHT ? "RIGHT" : "FULL") + " JOIN.");
  }
  if (!condition) {
    fail(join, "Temporal table join requires an equality condition on fields of table [" +
                   tableName + "].");
  }
  // FOR SYSTEM_TIME AS OF: the left side's rowtime attribute.
  BoundPtr asOf = bindExpression(*versioned.systemTimeAsOf, {left.scope});
  const LogicalType& asOfType = *asOf->type();
  if (asOfType.getTimestampKind() == TimestampKind::PROCTIME) {
    return bindLookupJoin(join, std::move(left), std::move(right), joinType, condition, tableName);
  }
  if (asOf->kind() != expression::ExpressionKind::kColumnReference ||
      asOfType.getTimestampKind() != TimestampKind::ROWTIME) {
    fail(*versioned.systemTimeAsOf,
         "Temporal table join currently only supports 'FOR "
         "SYSTEM_TIME AS OF' left table's time attribute field");
  }
  const int leftTime = static_cast<const expression::ColumnReference&>(*asOf).index();
  // (Whether the left side updates, and the node named, are those of the plan as the optimizer
  // leaves it: a keep-first deduplication is insert-only once its filter is the Rank's range.)
  if (LogicalNodePtr optimizedLeft = optimize(left.node);
      optimizedLeft->changelogMode != ChangelogMode::kInsertOnly) {
    fail(join,
         "Temporal join doesn't support consuming update and delete changes which is "
         "produced by node " +
             updateProducer(*optimizedLeft).describe());
  }
  // The versioned side: a rowtime attribute and a primary key (declared, or the key of a
  // deduplicating view).
  const auto& rightFields = right.node->rowType->getFields();
  int rightTime = -1;
  for (size_t i = 0; i < rightFields.size(); ++i) {
    if (rightFields[i].type->getTimestampKind() == TimestampKind::ROWTIME) {
      rightTime = static_cast<int>(i);
      break;
    }
  }
  if (rightTime < 0) {
    fail(*join.right,
         "Event-Time Temporal Table Join requires both primary key and row time "
         "attribute in versioned table, but no row time attribute can be found.");
  }
  // (A deduplicating view's key, and the node named below, are those of the plan as the
  // optimizer leaves it: its filter on the row number is the Rank's range there.)
  std::vector<int> primaryKey = right.primaryKey;
  if (primaryKey.empty()) {
    primaryKey = uniqueKeyOf(*optimize(right.node)).value_or(std::vector<int>{});
  }
  if (primaryKey.empty()) {
    fail(*join.right,
         "Temporal Table Join requires primary key in versioned table, but no "
         "primary key can be found.");
  }
  // Every primary key column must be equated with an expression of the left side.
  const int leftArity = static_cast<int>(left.scope.size());
  std::vector<int> equated;
  for (const BoundPtr& conjunct : expression::conjunctsOf(condition)) {
    if (!expression::isCallTo(*conjunct, "=")) continue;
    for (int side = 0; side < 2; ++side) {
      const BoundPtr& own = conjunct->children()[static_cast<size_t>(side)];
      const BoundPtr& other = conjunct->children()[static_cast<size_t>(1 - side)];
      if (own->kind() != expression::ExpressionKind::kColumnReference) continue;
      const int column = static_cast<const expression::ColumnReference&>(*own).index();
      std::vector<int> otherColumns;
      expression::collectColumns(other, otherColumns);
      bool otherIsLeft = std::all_of(otherColumns.begin(), otherColumns.end(),
                                     [&](int c) { return c < leftArity; });
      if (column >= leftArity && otherIsLeft) equated.push_back(column - leftArity);
    }
  }
  for (int key : primaryKey) {
    if (std::find(equated.begin(), equated.end(), key) != equated.end()) continue;
    std::string keyNames;
    for (size_t i = 0; i < primaryKey.size(); ++i) {
      keyNames += (i ? ", " : "") + rightFields[static_cast<size_t>(primaryKey[i])].name;
    }
    fail(join,
         "Temporal table's primary key [" + keyNames +
             "] must be included in the "
             "equivalence condition of temporal join, but current temporal join condition is [" +
             unparse(*join.condition) + "].");
  }
  Relation result;
  result.node =
      planJoin(left.node, right.node, joinType, condition, TemporalJoinTime{leftTime, rightTime});
  const auto& fields = result.node->rowType->getFields();
  result.scope = left.scope;
  result.scope.insert(result.scope.end(), right.scope.begin(), right.scope.end());
  for (size_t i = 0; i < result.scope.size(); ++i) result.scope[i].type = fields[i].type;
  return result;
}

namespace {
/// Whether comparing a `from` value with a `to` column in SQL compares them as `to` values (the
/// common type of both is `to`): then the value converted to `to` is the key, with nothing lost.
bool comparesAs(const LogicalType& from, const LogicalType& to) {
  LogicalTypePtr common = function::leastRestrictive({from.copy(true), to.copy(true)});
  return common && *common == *to.copy(true);
}
}  // namespace

Binder::Relation Binder::bindLookupJoin(const JoinReference& join, Relation left, Relation right,
                                        relational::JoinType joinType,
                                        const BoundPtr& condition, const std::string& tableName) {
  const auto& versioned = join.right->as<NamedTableReference>();
  if (right.node->kind != LogicalNodeKind::kTableScan) {
    notSupported(*join.right,
                 "A lookup join with a view, or with a table that has computed or "
                 "metadata columns or a watermark,");
  }
  auto table = std::static_pointer_cast<const LogicalTableScan>(right.node);
  // The table's connector must look rows up by key (Flink's LookupTableSource).
  bool lookup = false;
  std::string connector = "?";
  try {
    connectors::ConnectorContext context = connectorContextOf(*table);
    const auto& factory = connectors::FactoryRegistry::builtIn().factoryFor(context);
    connector = factory.factoryIdentifier();
    lookup = factory.createDynamicTableSource(context)->supportsLookup();
  } catch (const ValidationException&) {
    // An invalid table fails when the job is built, with its own message.
    lookup = true;
  }
  if (!lookup) {
    fail(*versioned.systemTimeAsOf, "Processing-time temporal join is not supported yet: table [" +
                                        tableName + "] (connector '" + connector +
                                        "') cannot be looked up by key; a lookup join "
                                        "needs a connector that supports lookups (filesystem)");
  }
  // Equalities `table.column = <expression over the left side>` are the lookup keys; the rest
  // of the condition filters the pairs.
  const int leftArity = static_cast<int>(left.scope.size());
  const auto& tableFields = table->rowType->getFields();
  std::vector<BoundPtr> inputKeys;
  std::vector<int> lookupKeys;
  std::vector<BoundPtr> residual;
  for (const BoundPtr& conjunct : expression::conjunctsOf(condition)) {
    bool key = false;
    if (expression::isCallTo(*conjunct, "=")) {
      for (int side = 0; side < 2 && !key; ++side) {
        BoundPtr own = conjunct->children()[static_cast<size_t>(side)];
        const BoundPtr& other = conjunct->children()[static_cast<size_t>(1 - side)];
        // A table column widened to the other side's type is compared in its own type.
        if (own->kind() == expression::ExpressionKind::kCast) own = own->children()[0];
        if (own->kind() != expression::ExpressionKind::kColumnReference) continue;
        const int column =
            static_cast<const expression::ColumnReference&>(*own).index() - leftArity;
        std::vector<int> otherColumns;
        expression::collectColumns(other, otherColumns);
        bool otherIsLeft = std::all_of(otherColumns.begin(), otherColumns.end(),
                                       [&](int c) { return c < leftArity; });
        if (column < 0 || !otherIsLeft ||
            std::find(lookupKeys.begin(), lookupKeys.end(), column) != lookupKeys.end()) {
          continue;
        }
        // The probe value in the column's type (the key bytes of both must agree). A value of
        // another type is converted with TRY_CAST (no lookup when it does not fit) and the
        // equality is checked again on the pair, since the conversion may lose digits (1.5 →
        // 1, 'ABCD' → 'ABC', a BIGINT beyond INT).
        LogicalTypePtr columnType =
            tableFields[static_cast<size_t>(column)].type->copy(other->type()->isNullable());
        if (*other->type() == *columnType) {
          inputKeys.push_back(other);
        } else if (comparesAs(*other->type(), *columnType)) {
          inputKeys.push_back(expression::cast(other, columnType, context_));
        } else {
          inputKeys.push_back(expression::tryCast(other, columnType, context_));
          residual.push_back(conjunct);
        }
        lookupKeys.push_back(column);
        key = true;
      }
    }
    if (!key) residual.push_back(conjunct);
  }
  if (lookupKeys.empty()) {
    fail(join, "Temporal table join requires an equality condition on fields of table [" +
                   tableName + "].");
  }
  Relation result;
  result.node = std::make_shared<LogicalLookupJoin>(
      left.node, table, joinType, std::move(inputKeys), std::move(lookupKeys),
      residual.empty() ? nullptr : expression::conjunction(std::move(residual)));
  const auto& fields = result.node->rowType->getFields();
  result.scope = left.scope;
  result.scope.insert(result.scope.end(), right.scope.begin(), right.scope.end());
  for (size_t i = 0; i < result.scope.size(); ++i) result.scope[i].type = fields[i].type;
  return result;
}

}  // namespace eddy::sql
