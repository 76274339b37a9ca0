#include "sql/planner/logical_node.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "eddy/exceptions.h"
#include "sql/planner/cost_model.h"
#include "sql/planner/window_grouping.h"

namespace eddy::sql {

namespace {

std::vector<RowField> fieldsOf(const LogicalTypePtr& rowType) { return rowType->getFields(); }

LogicalTypePtr rowTypeOf(const std::vector<std::string>& names,
                         const std::vector<LogicalTypePtr>& types) {
  std::vector<RowField> fields;
  for (size_t i = 0; i < names.size(); ++i) fields.push_back(RowField{names[i], types[i], std::nullopt});
  return LogicalType::row(std::move(fields), false);
}

std::vector<LogicalTypePtr> typesOf(const std::vector<expression::ExpressionPtr>& expressions) {
  std::vector<LogicalTypePtr> types;
  for (const auto& expression : expressions) types.push_back(expression->type());
  return types;
}

/// `type` without its time attribute: where Flink materializes a rowtime or proctime (a
/// regular aggregation's keys, a regular join's output) it becomes a plain timestamp.
LogicalTypePtr materialized(const LogicalTypePtr& type) {
  if (type->getTimestampKind() == TimestampKind::REGULAR) return type;
  return type->copyWithTimestampKind(TimestampKind::REGULAR);
}

LogicalTypePtr aggregateRowType(const LogicalNode& input, const std::vector<int>& grouping,
                                const std::vector<function::AggregateCall>& calls,
                                const std::vector<std::string>& names,
                                const std::vector<std::vector<int>>& groupingSets, bool windowed) {
  std::vector<RowField> fields;
  const auto& inputFields = input.rowType->getFields();
  std::optional<WindowGrouping> window;
  if (windowed) {
    window = windowGroupingOf(input, static_cast<int>(grouping.size()), calls);
    if (!window) throw InternalError("a windowed aggregation that does not group by a window");
  }
  for (size_t k = 0; k < grouping.size(); ++k) {
    RowField field = inputFields.at(grouping[k]);
    if (window && window->keys[k] == WindowGrouping::Key::WINDOW_TIME) {
      field.type = field.type->copy(false);  // a window's time: a time attribute, never NULL
    } else {
      field.type = materialized(field.type);
    }
    const bool inEverySet =
        std::all_of(groupingSets.begin(), groupingSets.end(), [&](const std::vector<int>& set) {
          return std::find(set.begin(), set.end(), static_cast<int>(k)) != set.end();
        });
    if (!inEverySet) field.type = field.type->copy(true);
    fields.push_back(std::move(field));
  }
  for (size_t i = 0; i < calls.size(); ++i) {
    fields.push_back(RowField{names.at(i), calls[i].resultType, std::nullopt});
  }
  if (!groupingSets.empty()) {
    for (size_t k = 0; k < grouping.size(); ++k) {
      fields.push_back(RowField{"$g" + std::to_string(k),
                                LogicalType::simple(LogicalTypeRoot::BIGINT, false), std::nullopt});
    }
  }
  return LogicalType::row(std::move(fields), false);
}

/// An aggregation's changelog: insert-only when it groups without calls (DISTINCT, an IN
/// subquery's keys) an insert-only input, each group being emitted once and never changed (but
/// a grouping set without keys is a global aggregate, updated per row), or when it is a window
/// aggregation; updating otherwise.
ChangelogMode aggregateMode(const LogicalNode& input, const std::vector<int>& grouping,
                            const std::vector<function::AggregateCall>& calls,
                            const std::vector<std::vector<int>>& groupingSets, bool windowed) {
  if (windowed) return ChangelogMode::kInsertOnly;
  const bool keyed =
      !grouping.empty() && std::none_of(groupingSets.begin(), groupingSets.end(),
                                        [](const std::vector<int>& set) { return set.empty(); });
  return calls.empty() && keyed && input.changelogMode == ChangelogMode::kInsertOnly
             ? ChangelogMode::kInsertOnly
             : ChangelogMode::kRetract;
}

}  // namespace

std::vector<std::string> uniquifyNames(const std::vector<std::string>& names) {
  std::set<std::string> used(names.begin(), names.end());
  std::set<std::string> seen;
  std::vector<std::string> result;
  for (const std::string& name : names) {
    if (!seen.insert(name).second) {
      for (int suffix = 0;; ++suffix) {
        std::string candidate = name + std::to_string(suffix);
        if (!used.count(candidate)) {
          used.insert(candidate);
          result.push_back(candidate);
          break;
        }
      }
    } else {
      result.push_back(name);
    }
  }
  return result;
}

namespace {

/// A NOT NULL ROW of `fields`, their names made unique as uniquifyNames does.
LogicalTypePtr rowTypeWithUniqueNames(std::vector<RowField> fields) {
  std::vector<std::string> names;
  for (const RowField& field : fields) names.push_back(field.name);
  names = uniquifyNames(names);
  for (size_t i = 0; i < fields.size(); ++i) fields[i].name = names[i];
  return LogicalType::row(std::move(fields), false);
}

}  // namespace

LogicalValues::LogicalValues(LogicalTypePtr rowType, std::vector<Row> valuesRows)
    : LogicalNode(LogicalNodeKind::kValues, std::move(rowType), {}, ChangelogMode::kInsertOnly),
      rows(std::move(valuesRows)) {}

std::string LogicalValues::describe() const {
  std::string text = "LogicalValues(tuples=[[";
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) text += ", ";
    std::string row = rows[i].toString();
    text += "{ " + row.substr(3, row.size() - 4) + " }";
  }
  return text + "]])";
}

namespace {
ChangelogMode changelogModeOf(connectors::SourceChangelogMode changes) {
  return changes == connectors::SourceChangelogMode::kInsertOnly ? ChangelogMode::kInsertOnly
                                                                 : ChangelogMode::kRetract;
}

LogicalTypePtr withMetadataFields(const LogicalTypePtr& physical, std::vector<RowField> metadata) {
  if (metadata.empty()) return physical;
  std::vector<RowField> fields = physical->getFields();
  for (RowField& field : metadata) fields.push_back(std::move(field));
  return LogicalType::row(std::move(fields), false);
}
}  // namespace

LogicalTableScan::LogicalTableScan(std::string name, LogicalTypePtr physical,
                                   std::map<std::string, std::string> tableOptions,
                                   std::vector<std::string> partitions,
                                   std::vector<RowField> metadata, std::vector<std::string> keys,
                                   std::vector<int> primary,
                                   connectors::SourceChangelogMode sourceChanges)
    : LogicalNode(LogicalNodeKind::kTableScan, withMetadataFields(physical, std::move(metadata)),
                  {}, changelogModeOf(sourceChanges)),
      tableName(std::move(name)),
      physicalRowType(std::move(physical)),
      options(std::move(tableOptions)),
      partitionKeys(std::move(partitions)),
      primaryKey(std::move(primary)),
      changes(sourceChanges),
      metadataKeys(std::move(keys)) {}

LogicalTableScan::LogicalTableScan(
    const LogicalTableScan& table, LogicalTypePtr producedRowType,
    std::optional<std::vector<std::vector<int>>> paths,
    std::optional<std::vector<std::vector<std::optional<std::string>>>> read,
    expression::ExpressionPtr pushed, bool withUpdateBefore)
    : LogicalNode(LogicalNodeKind::kTableScan, std::move(producedRowType), {}, table.changelogMode),
      tableName(table.tableName),
      physicalRowType(table.physicalRowType),
      options(table.options),
      partitionKeys(table.partitionKeys),
      primaryKey(table.primaryKey),
      changes(table.changes),
      generateUpdateBefore(withUpdateBefore),
      projection(std::move(paths)),
      metadataKeys(table.metadataKeys),
      partitions(std::move(read)),
      watermark(std::move(pushed)) {}

LogicalTableScan::LogicalTableScan(const LogicalTableScan& table,
                                   std::vector<std::vector<int>> paths,
                                   LogicalTypePtr producedRowType)
    : LogicalTableScan(table, std::move(producedRowType), std::move(paths), table.partitions,
                       table.watermark, table.generateUpdateBefore) {}

LogicalTableScan::LogicalTableScan(const LogicalTableScan& table,
                                   std::vector<std::vector<std::optional<std::string>>> read)
    : LogicalTableScan(table, table.rowType, table.projection, std::move(read), table.watermark,
                       table.generateUpdateBefore) {}

LogicalTableScan::LogicalTableScan(const LogicalTableScan& table, expression::ExpressionPtr pushed)
    : LogicalTableScan(table, table.rowType, table.projection, table.partitions, std::move(pushed),
                       table.generateUpdateBefore) {}

LogicalTableScan::LogicalTableScan(const LogicalTableScan& table, bool withUpdateBefore)
    : LogicalTableScan(table, table.rowType, table.projection, table.partitions, table.watermark,
                       withUpdateBefore) {}

std::string LogicalTableScan::describePartitions() const {
  if (!partitions) return "";
  std::string text = "partitions=[";
  for (size_t p = 0; p < partitions->size(); ++p) {
    text += p ? ", {" : "{";
    for (size_t k = 0; k < partitionKeys.size(); ++k) {
      const std::optional<std::string>& value = (*partitions)[p][k];
      text += (k ? ", " : "") + partitionKeys[k] + "=" + (value ? *value : "null");
    }
    text += "}";
  }
  return text + "]";
}

std::string LogicalTableScan::describe() const {
  std::string text = "LogicalTableScan(table=[[" + tableName + "]]";
  if (!metadataKeys.empty()) {
    text += ", metadata=[";
    for (size_t i = 0; i < metadataKeys.size(); ++i) text += (i ? ", " : "") + metadataKeys[i];
    text += "]";
  }
  if (partitions) text += ", " + describePartitions();
  if (projection) {
    // Flink's form: project=[event_type, bid.price, ...].
    text += ", project=[";
    for (size_t i = 0; i < projection->size(); ++i) {
      const LogicalType* type = physicalRowType.get();
      std::string path;
      for (int index : (*projection)[i]) {
        const RowField& field = type->getFields().at(static_cast<size_t>(index));
        path += (path.empty() ? "" : ".") + field.name;
        type = field.type.get();
      }
      text += (i ? ", " : "") + path;
    }
    text += "]";
  }
  if (watermark) text += ", watermark=[" + watermark->toString() + "]";
  return text + ")";
}

LogicalDataStreamScan::LogicalDataStreamScan(std::shared_ptr<const DataStreamSource> streamSource,
                                             LogicalTypePtr scanRowType)
    : LogicalNode(LogicalNodeKind::kDataStreamScan, std::move(scanRowType), {},
                  streamSource->kinds == DataStreamSource::Kinds::kInsertOnly
                      ? ChangelogMode::kInsertOnly
                      : ChangelogMode::kRetract),
      source(std::move(streamSource)) {}

std::string LogicalDataStreamScan::describe() const {
  std::string text = "DataStreamScan(table=[[" + source->name + "]], fields=[";
  const auto& fields = rowType->getFields();
  for (size_t i = 0; i < fields.size(); ++i) text += (i ? ", " : "") + fields[i].name;
  return text + "])";
}

LogicalProject::LogicalProject(LogicalNodePtr input,
                               std::vector<expression::ExpressionPtr> projected,
                               std::vector<std::string> names)
    : LogicalNode(LogicalNodeKind::kProject, rowTypeOf(names, typesOf(projected)), {input},
                  input->changelogMode),
      expressions(std::move(projected)) {}

std::string LogicalProject::describe() const {
  std::string text = "LogicalProject(";
  const auto fields = fieldsOf(rowType);
  for (size_t i = 0; i < expressions.size(); ++i) {
    if (i > 0) text += ", ";
    text += fields[i].name + "=[" + expressions[i]->toString() + "]";
  }
  return text + ")";
}

LogicalFilter::LogicalFilter(LogicalNodePtr input, expression::ExpressionPtr filterCondition)
    : LogicalNode(LogicalNodeKind::kFilter, input->rowType, {input}, input->changelogMode),
      condition(std::move(filterCondition)) {}

std::string LogicalFilter::describe() const {
  return "LogicalFilter(condition=[" + condition->toString() + "])";
}

namespace {

LogicalTypePtr unnestRowType(const LogicalNode& input, const LogicalType& collection,
                             bool withOrdinality, bool leftOuter) {
  std::vector<RowField> fields = input.rowType->getFields();
  for (RowField& field : relational::unnestedFields(collection, withOrdinality)) {
    if (leftOuter) field.type = field.type->copy(true);
    fields.push_back(std::move(field));
  }
  return rowTypeWithUniqueNames(std::move(fields));
}

}  // namespace

LogicalUnnest::LogicalUnnest(LogicalNodePtr input, expression::ExpressionPtr collectionExpression,
                             bool ordinality, bool outer)
    : LogicalNode(LogicalNodeKind::kUnnest,
                  unnestRowType(*input, *collectionExpression->type(), ordinality, outer), {input},
                  input->changelogMode),
      collection(std::move(collectionExpression)),
      withOrdinality(ordinality),
      leftOuter(outer) {}

std::string LogicalUnnest::describe() const {
  const bool replicate = collection->type()->getTypeRoot() == LogicalTypeRoot::BIGINT;
  return "LogicalCorrelate(invocation=[" + std::string(replicate ? "REPLICATE_ROWS(" : "UNNEST(") +
         collection->toString() + ")" +
         (withOrdinality ? " WITH ORDINALITY" : "") + "], joinType=[" +
         (leftOuter ? "left" : "inner") + "])";
}

LogicalAggregate::LogicalAggregate(LogicalNodePtr input, std::vector<int> grouping,
                                   std::vector<function::AggregateCall> aggregateCalls,
                                   std::vector<std::string> names, bool updateBefore,
                                   std::vector<std::vector<int>> sets, bool window)
    : LogicalNode(LogicalNodeKind::kAggregate,
                  aggregateRowType(*input, grouping, aggregateCalls, names, sets, window), {input},
                  aggregateMode(*input, grouping, aggregateCalls, sets, window)),
      groupingColumns(std::move(grouping)),
      calls(std::move(aggregateCalls)),
      generateUpdateBefore(updateBefore),
      groupingSets(std::move(sets)),
      windowed(window) {}

std::string LogicalAggregate::describe() const {
  std::string text = "LogicalAggregate(group=[{";
  for (size_t i = 0; i < groupingColumns.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(groupingColumns[i]);
  }
  text += "}]";
  auto columnSet = [&](const std::vector<int>& positions) {
    std::string set = "{";
    for (size_t i = 0; i < positions.size(); ++i) {
      set += (i ? ", " : "") + std::to_string(groupingColumns[static_cast<size_t>(positions[i])]);
    }
    return set + "}";
  };
  if (!groupingSets.empty()) {
    text += ", groups=[[";
    for (size_t s = 0; s < groupingSets.size(); ++s) {
      text += (s ? ", " : "") + columnSet(groupingSets[s]);
    }
    text += "]]";
  }
  const auto fields = fieldsOf(rowType);
  for (size_t i = 0; i < calls.size(); ++i) {
    const auto& call = calls[i];
    std::string argument = call.argumentColumn < 0 ? "" : "$" + std::to_string(call.argumentColumn);
    text += ", " + fields[groupingColumns.size() + i].name + "=[" +
            function::aggregateKindName(call.kind) + "(" +
            (call.distinct ? "DISTINCT " : "") + argument + ")" +
            (call.filterColumn >= 0 ? " FILTER $" + std::to_string(call.filterColumn) : "") + "]";
  }
  if (!groupingSets.empty()) {
    for (size_t k = 0; k < groupingColumns.size(); ++k) {
      text += ", " + fields[groupingColumns.size() + calls.size() + k].name + "=[GROUPING($" +
              std::to_string(groupingColumns[k]) + ")]";
    }
  }
  return text + ")";
}

LogicalSort::LogicalSort(LogicalNodePtr input, std::vector<relational::SortKey> sortKeys,
                         int64_t sortOffset, int64_t sortFetch)
    : LogicalNode(LogicalNodeKind::kSort, input->rowType, {input}, input->changelogMode),
      keys(std::move(sortKeys)),
      offset(sortOffset),
      fetch(sortFetch) {}

std::string LogicalSort::describe() const {
  std::string text = "LogicalSort(";
  for (size_t i = 0; i < keys.size(); ++i) {
    text += (i ? ", " : "") + std::string("sort") + std::to_string(i) + "=[$" +
            std::to_string(keys[i].column) + "], dir" + std::to_string(i) + "=[" +
            (keys[i].ascending ? "ASC" : "DESC") + "]";
  }
  if (offset > 0) text += std::string(keys.empty() ? "" : ", ") + "offset=[" + std::to_string(offset) + "]";
  if (fetch >= 0) {
    text += std::string(keys.empty() && offset <= 0 ? "" : ", ") + "fetch=[" + std::to_string(fetch) + "]";
  }
  return text + ")";
}

namespace {
ChangelogMode unionMode(const std::vector<LogicalNodePtr>& inputs) {
  for (const auto& input : inputs) {
    if (input->changelogMode == ChangelogMode::kRetract) return ChangelogMode::kRetract;
  }
  return ChangelogMode::kInsertOnly;
}
}  // namespace

LogicalUnion::LogicalUnion(std::vector<LogicalNodePtr> unionInputs, LogicalTypePtr unionRowType)
    : LogicalNode(LogicalNodeKind::kUnion, std::move(unionRowType), unionInputs,
                  unionMode(unionInputs)) {}

std::string LogicalUnion::describe() const {
  std::string text = "LogicalUnion(all=[true], fields=[";
  const auto& fields = rowType->getFields();
  for (size_t i = 0; i < fields.size(); ++i) text += (i ? ", " : "") + fields[i].name;
  return text + "])";
}

namespace {

/// `expression` as a time attribute column plus a constant offset in milliseconds (`ts`,
/// `ts + INTERVAL ..`, `ts - INTERVAL ..`, `INTERVAL .. + ts`); nullopt for anything else.
struct TimeOffset {
  int column = -1;
  int64_t offset = 0;
};

std::optional<int64_t> intervalMillis(const expression::ExpressionPtr& e) {
  if (e->kind() != expression::ExpressionKind::kLiteral) return std::nullopt;
  const Value& value = static_cast<const expression::Literal&>(*e).value();
  if (value.isNull() || value.kind() != ValueKind::DURATION) return std::nullopt;
  return value.get<Duration>().toMillis();
}

std::optional<TimeOffset> timeOffsetOf(const expression::ExpressionPtr& e) {
  if (e->kind() == expression::ExpressionKind::kColumnReference) {
    if (e->type()->getTimestampKind() == TimestampKind::REGULAR) return std::nullopt;
    return TimeOffset{static_cast<const expression::ColumnReference&>(*e).index(), 0};
  }
  bool plus = expression::isCallTo(*e, "+");
  if (!plus && !expression::isCallTo(*e, "-")) return std::nullopt;
  const auto& operands = e->children();
  if (operands.size() != 2) return std::nullopt;
  if (auto base = timeOffsetOf(operands[0])) {
    auto millis = intervalMillis(operands[1]);
    if (!millis) return std::nullopt;
    base->offset += plus ? *millis : -*millis;
    return base;
  }
  if (plus) {
    auto millis = intervalMillis(operands[0]);
    auto base = timeOffsetOf(operands[1]);
    if (!millis || !base) return std::nullopt;
    base->offset += *millis;
    return base;
  }
  return std::nullopt;
}

}  // namespace

std::optional<IntervalJoinBounds> intervalJoinBoundsOf(const LogicalNode& left,
                                                       const LogicalNode& right,
                                                       const expression::ExpressionPtr& condition) {
  if (!condition || left.changelogMode != ChangelogMode::kInsertOnly ||
      right.changelogMode != ChangelogMode::kInsertOnly) {
    return std::nullopt;
  }
  const int leftArity = left.rowType->getFieldCount();
  std::optional<int64_t> lower;
  std::optional<int64_t> upper;
  IntervalJoinBounds bounds;
  std::vector<expression::ExpressionPtr> residual;
  for (const expression::ExpressionPtr& conjunct : expression::conjunctsOf(condition)) {
    bool less = expression::isCallTo(*conjunct, "<");
    bool lessEqual = expression::isCallTo(*conjunct, "<=");
    bool greater = expression::isCallTo(*conjunct, ">");
    bool greaterEqual = expression::isCallTo(*conjunct, ">=");
    std::optional<TimeOffset> a;
    std::optional<TimeOffset> b;
    if (less || lessEqual || greater || greaterEqual) {
      a = timeOffsetOf(conjunct->children()[0]);
      b = timeOffsetOf(conjunct->children()[1]);
    }
    bool usable = a && b && (a->column < leftArity) != (b->column < leftArity);
    if (usable) {
      // Orient as `L + x  op  R + y`, then bound R - L against x - y.
      if (a->column >= leftArity) {
        std::swap(a, b);
        std::swap(less, greater);
        std::swap(lessEqual, greaterEqual);
      }
      const LogicalType& leftType = *left.rowType->getFields()[a->column].type;
      const LogicalType& rightType = *right.rowType->getFields()[b->column - leftArity].type;
      usable = leftType.getTimestampKind() == rightType.getTimestampKind() &&
               (bounds.leftTimeColumn < 0 ||
                (bounds.leftTimeColumn == a->column && bounds.rightTimeColumn == b->column - leftArity));
      if (usable) {
        bounds.leftTimeColumn = a->column;
        bounds.rightTimeColumn = b->column - leftArity;
        bounds.processingTime = leftType.getTimestampKind() == TimestampKind::PROCTIME;
        int64_t difference = a->offset - b->offset;
        if (lessEqual || less) {
          int64_t bound = less ? difference + 1 : difference;  // R - L >= bound
          lower = lower ? std::max(*lower, bound) : bound;
        } else {
          int64_t bound = greater ? difference - 1 : difference;  // R - L <= bound
          upper = upper ? std::min(*upper, bound) : bound;
        }
        continue;
      }
    }
    residual.push_back(conjunct);
  }
  if (!lower || !upper) return std::nullopt;
  bounds.lowerBound = *lower;
  bounds.upperBound = *upper;
  if (!residual.empty()) bounds.residual = expression::conjunction(std::move(residual));
  return bounds;
}

std::optional<IntervalJoinBounds> windowJoinBoundsOf(const LogicalNode& left,
                                                     const LogicalNode& right,
                                                     const std::vector<int>& leftKeys,
                                                     const std::vector<int>& rightKeys,
                                                     const expression::ExpressionPtr& condition) {
  using Kind = relational::WindowOutputColumn::Kind;
  if (left.changelogMode != ChangelogMode::kInsertOnly ||
      right.changelogMode != ChangelogMode::kInsertOnly) {
    return std::nullopt;
  }
  // An event-time window (on a TIMESTAMP rowtime, or a TIMESTAMP_LTZ one whose window ends are
  // wall-clock times of the window's zone).
  auto eventTime = [](const WindowProperty& property) { return !property.window.processingTime; };
  bool starts = false;
  IntervalJoinBounds bounds;
  int leftStart = -1;
  int rightStart = -1;
  std::optional<relational::WindowSpec> leftWindow, rightWindow;
  for (size_t i = 0; i < leftKeys.size(); ++i) {
    auto leftProperty = windowPropertyOf(left, leftKeys[i]);
    auto rightProperty = windowPropertyOf(right, rightKeys[i]);
    if (!leftProperty || !rightProperty || leftProperty->kind != rightProperty->kind ||
        !eventTime(*leftProperty) || !eventTime(*rightProperty)) {
      continue;
    }
    if (leftProperty->window.timeZone.has_value() != rightProperty->window.timeZone.has_value()) {
      auto typeOf = [](const WindowProperty& property) {
        return std::string(property.window.timeZone ? "TIMESTAMP_LTZ(3)" : "TIMESTAMP(3)");
      };
      throw TableException(
          "Currently, window join doesn't support different time attribute type of left and "
          "right inputs.\nThe left time attribute type is " + typeOf(*leftProperty) +
          ".\nThe right time attribute type is " + typeOf(*rightProperty) + ".");
    }
    if (leftProperty->kind == Kind::WINDOW_START) {
      starts = true;
      leftStart = leftKeys[i];
      rightStart = rightKeys[i];
    }
    if (leftProperty->kind == Kind::WINDOW_END) {
      bounds.leftTimeColumn = leftKeys[i];
      bounds.rightTimeColumn = rightKeys[i];
      bounds.windowTimeZone = leftProperty->window.timeZone;
      leftWindow = leftProperty->window;
      rightWindow = rightProperty->window;
    }
  }
  if (!starts || bounds.leftTimeColumn < 0) return std::nullopt;
  // Flink joins windows of one kind and size only.
  const auto& a = *leftWindow;
  const auto& b = *rightWindow;
  if (a.kind != b.kind || a.size != b.size || a.slide != b.slide || a.offset != b.offset) {
    auto summary = [](const relational::WindowSpec& window, const LogicalNode& input,
                      int start, int end) {
      return describeWindowWith(window, "win_start=[" + input.rowType->getFields()[start].name +
                                            "], win_end=[" + input.rowType->getFields()[end].name +
                                            "]");
    };
    throw TableException(
        "Currently, window join doesn't support different window table function of left and "
        "right inputs.\nThe left window table function is " +
        summary(a, left, leftStart, bounds.leftTimeColumn) +
        ".\nThe right window table function is " +
        summary(b, right, rightStart, bounds.rightTimeColumn) + ".");
  }
  bounds.windowJoin = true;
  bounds.residual = condition;
  return bounds;
}

namespace {
LogicalTypePtr joinRowType(const LogicalNode& left, const LogicalNode& right,
                           relational::JoinType joinType, bool keepLeftTimes,
                           bool keepRightTimes) {
  using relational::JoinType;
  bool padLeft = joinType == JoinType::RIGHT || joinType == JoinType::FULL;
  bool padRight = joinType == JoinType::LEFT || joinType == JoinType::FULL;
  auto typeOf = [](const LogicalTypePtr& type, bool keepTime, bool padded) {
    LogicalTypePtr result = keepTime ? type : materialized(type);
    return padded ? result->copy(true) : result;
  };
  std::vector<RowField> fields;
  for (const RowField& field : left.rowType->getFields()) {
    fields.push_back(RowField{field.name, typeOf(field.type, keepLeftTimes, padLeft), std::nullopt});
  }
  if (relational::outputsLeftOnly(joinType)) return rowTypeWithUniqueNames(std::move(fields));
  for (const RowField& field : right.rowType->getFields()) {
    fields.push_back(
        RowField{field.name, typeOf(field.type, keepRightTimes, padRight), std::nullopt});
  }
  return rowTypeWithUniqueNames(std::move(fields));
}

ChangelogMode joinMode(const LogicalNode& left, const LogicalNode& right,
                       relational::JoinType joinType, bool temporal, bool timeBounded) {
  // A temporal join emits each (insert-only) left row once, whatever the versioned side does;
  // an interval or window join emits each pair once and each unjoined outer row once, padded.
  if (temporal || timeBounded) return ChangelogMode::kInsertOnly;
  // Flink: an inner or semi join forwards its inputs' kinds of change; the others may emit any.
  bool insertOnly = (joinType == relational::JoinType::INNER ||
                     joinType == relational::JoinType::SEMI) &&
                    left.changelogMode == ChangelogMode::kInsertOnly &&
                    right.changelogMode == ChangelogMode::kInsertOnly;
  return insertOnly ? ChangelogMode::kInsertOnly : ChangelogMode::kRetract;
}
}  // namespace

LogicalLookupJoin::LogicalLookupJoin(LogicalNodePtr input,
                                     std::shared_ptr<const LogicalTableScan> lookupTable,
                                     relational::JoinType type,
                                     std::vector<expression::ExpressionPtr> keys,
                                     std::vector<int> lookupKeyColumns,
                                     expression::ExpressionPtr residual)
    : LogicalNode(LogicalNodeKind::kLookupJoin,
                  joinRowType(*input, *lookupTable, type, true, false), {input},
                  input->changelogMode),
      table(std::move(lookupTable)),
      joinType(type),
      inputKeys(std::move(keys)),
      lookupKeys(std::move(lookupKeyColumns)),
      condition(std::move(residual)) {}

std::string LogicalLookupJoin::describe() const {
  static const char* kNames[] = {"inner", "left", "right", "full"};
  std::string lookup;
  const int inputArity = inputs[0]->rowType->getFieldCount();
  for (size_t i = 0; i < lookupKeys.size(); ++i) {
    lookup += (i ? ", " : "") + std::string("$") + std::to_string(inputArity + lookupKeys[i]) +
              "=" + inputKeys[i]->toString();
  }
  return "LogicalLookupJoin(table=[" + table->tableName + "], joinType=[" +
         kNames[static_cast<int>(joinType)] + "], lookup=[" + lookup + "]" +
         (condition ? ", condition=[" + condition->toString() + "]" : "") + ")";
}

namespace {
// An interval join's bounds, else a window join's.
std::optional<IntervalJoinBounds> timeBoundsOf(const LogicalNode& left, const LogicalNode& right,
                                               relational::JoinType joinType,
                                               const std::vector<int>& leftKeys,
                                               const std::vector<int>& rightKeys,
                                               const expression::ExpressionPtr& condition) {
  if (relational::outputsLeftOnly(joinType)) return std::nullopt;  // regular joins only
  if (auto bounds = intervalJoinBoundsOf(left, right, condition)) return bounds;
  return windowJoinBoundsOf(left, right, leftKeys, rightKeys, condition);
}
}  // namespace

LogicalJoin::LogicalJoin(LogicalNodePtr left, LogicalNodePtr right,
                         relational::JoinType type, std::vector<int> leftKeyColumns,
                         std::vector<int> rightKeyColumns, expression::ExpressionPtr residual)
    : LogicalJoin(left, right, type, leftKeyColumns, rightKeyColumns, residual,
                  timeBoundsOf(*left, *right, type, leftKeyColumns, rightKeyColumns, residual),
                  std::nullopt) {}

LogicalJoin::LogicalJoin(LogicalNodePtr left, LogicalNodePtr right,
                         relational::JoinType type, std::vector<int> leftKeyColumns,
                         std::vector<int> rightKeyColumns, expression::ExpressionPtr residual,
                         TemporalJoinTime temporalTime)
    : LogicalJoin(std::move(left), std::move(right), type, std::move(leftKeyColumns),
                  std::move(rightKeyColumns), std::move(residual), std::nullopt, temporalTime) {}

LogicalJoin::LogicalJoin(LogicalNodePtr left, LogicalNodePtr right,
                         relational::JoinType type, std::vector<int> leftKeyColumns,
                         std::vector<int> rightKeyColumns, expression::ExpressionPtr residual,
                         std::optional<IntervalJoinBounds> bounds,
                         std::optional<TemporalJoinTime> temporalTime)
    : LogicalNode(LogicalNodeKind::kJoin,
                  joinRowType(*left, *right, type, bounds || temporalTime, bounds.has_value()),
                  {left, right},
                  joinMode(*left, *right, type, temporalTime.has_value(), bounds.has_value())),
      joinType(type),
      leftKeys(std::move(leftKeyColumns)),
      rightKeys(std::move(rightKeyColumns)),
      condition(std::move(residual)),
      interval(std::move(bounds)),
      temporal(temporalTime) {}

std::shared_ptr<const LogicalJoin> LogicalJoin::with(LogicalNodePtr left, LogicalNodePtr right,
                                                     expression::ExpressionPtr residual) const {
  if (temporal) {
    return std::make_shared<LogicalJoin>(std::move(left), std::move(right), joinType, leftKeys,
                                         rightKeys, std::move(residual), *temporal);
  }
  return std::make_shared<LogicalJoin>(std::move(left), std::move(right), joinType, leftKeys,
                                       rightKeys, std::move(residual));
}

expression::ExpressionPtr LogicalJoin::fullCondition() const {
  std::vector<expression::ExpressionPtr> conjuncts;
  const int leftArity = inputs[0]->rowType->getFieldCount();
  const auto& leftFields = inputs[0]->rowType->getFields();
  const auto& rightFields = inputs[1]->rowType->getFields();
  for (size_t i = 0; i < leftKeys.size(); ++i) {
    conjuncts.push_back(expression::call(
        "=", {expression::column(leftKeys[i], leftFields[leftKeys[i]].type),
              expression::column(leftArity + rightKeys[i], rightFields[rightKeys[i]].type)}));
  }
  if (condition) conjuncts.push_back(condition);
  return expression::conjunction(std::move(conjuncts));
}

std::string LogicalJoin::describe() const {
  static const char* kNames[] = {"inner", "left", "right", "full", "semi", "anti"};
  std::string text = "LogicalJoin(condition=[" + fullCondition()->toString() + "], joinType=[" +
                     kNames[static_cast<int>(joinType)] + "]";
  if (interval && interval->windowJoin) {
    text += ", window=[$" + std::to_string(interval->leftTimeColumn) + " = $" +
            std::to_string(inputs[0]->rowType->getFieldCount() + interval->rightTimeColumn) + "]";
  } else if (interval) {
    // An interval join: rightTime - leftTime in [lower, upper] ms.
    text += ", interval=[" + std::string(interval->processingTime ? "proctime" : "rowtime") +
            ", $" + std::to_string(interval->leftTimeColumn) + " to $" +
            std::to_string(inputs[0]->rowType->getFieldCount() + interval->rightTimeColumn) +
            " within [" + std::to_string(interval->lowerBound) + ", " +
            std::to_string(interval->upperBound) + "] ms]";
  }
  if (temporal) {
    // Each left row joins the right version valid at its time.
    text += ", temporal=[$" + std::to_string(temporal->leftTimeColumn) + " as of $" +
            std::to_string(inputs[0]->rowType->getFieldCount() + temporal->rightTimeColumn) + "]";
  }
  return text + ")";
}

namespace {
LogicalTypePtr rankRowType(const LogicalNode& input, bool outputRankNumber,
                           const std::string& rankName) {
  std::vector<RowField> fields = input.rowType->getFields();
  if (outputRankNumber) {
    fields.push_back(RowField{rankName, LogicalType::simple(LogicalTypeRoot::BIGINT, false),
                              std::nullopt});
  }
  return LogicalType::row(std::move(fields), false);
}
}  // namespace

bool isDeduplicate(const LogicalNode& input, relational::RankKind kind, int64_t rankStart,
                   int64_t rankEnd, bool outputRankNumber,
                   const std::vector<relational::SortKey>& sortKeys) {
  return input.changelogMode == ChangelogMode::kInsertOnly &&
         kind == relational::RankKind::ROW_NUMBER && rankStart == 1 && rankEnd == 1 &&
         !outputRankNumber && sortKeys.size() == 1 &&
         input.rowType->getFields().at(sortKeys[0].column).type->getTimestampKind() !=
             TimestampKind::REGULAR;
}

bool isProcTimeKeepFirst(const LogicalNode& input, relational::RankKind kind,
                         int64_t rankStart, int64_t rankEnd, bool outputRankNumber,
                         const std::vector<relational::SortKey>& sortKeys) {
  return isDeduplicate(input, kind, rankStart, rankEnd, outputRankNumber, sortKeys) &&
         sortKeys[0].ascending &&
         input.rowType->getFields().at(sortKeys[0].column).type->getTimestampKind() ==
             TimestampKind::PROCTIME;
}

int windowRankEndColumn(const LogicalNode& input, const std::vector<int>& partitionKeys) {
  using Kind = relational::WindowOutputColumn::Kind;
  if (input.changelogMode != ChangelogMode::kInsertOnly) return -1;
  int start = -1;
  int end = -1;
  for (int key : partitionKeys) {
    auto property = windowPropertyOf(input, key);
    if (property && property->kind == Kind::WINDOW_START) start = key;
    if (property && property->kind == Kind::WINDOW_END) end = key;
  }
  return start >= 0 ? end : -1;
}

LogicalRank::LogicalRank(LogicalNodePtr input, std::vector<int> partition,
                         std::vector<relational::SortKey> sort,
                         relational::RankKind kind, int64_t start, int64_t end,
                         bool rankNumber, std::string name, bool updateBefore)
    : LogicalNode(LogicalNodeKind::kRank, rankRowType(*input, rankNumber, name), {input},
                  windowRankEndColumn(*input, partition) >= 0 ||
                          isProcTimeKeepFirst(*input, kind, start, end, rankNumber, sort)
                      ? ChangelogMode::kInsertOnly
                      : ChangelogMode::kRetract),
      partitionKeys(std::move(partition)),
      sortKeys(std::move(sort)),
      rankKind(kind),
      rankStart(start),
      rankEnd(end),
      outputRankNumber(rankNumber),
      rankName(std::move(name)),
      generateUpdateBefore(updateBefore) {}

std::shared_ptr<const LogicalRank> LogicalRank::with(int64_t start, int64_t end,
                                                     bool rankNumber) const {
  return std::make_shared<LogicalRank>(inputs[0], partitionKeys, sortKeys, rankKind, start, end,
                                       rankNumber, rankName, generateUpdateBefore);
}

std::string LogicalRank::describe() const {
  std::string text = "LogicalRank(rankType=[" + relational::rankKindName(rankKind) +
                     "], rankRange=[rankStart=" + std::to_string(rankStart) + ", rankEnd=" +
                     (rankEnd == INT64_MAX ? std::string("unbounded") : std::to_string(rankEnd)) +
                     "], partitionBy=[";
  for (size_t i = 0; i < partitionKeys.size(); ++i) {
    text += (i ? ", " : "") + std::string("$") + std::to_string(partitionKeys[i]);
  }
  text += "], orderBy=[";
  for (size_t i = 0; i < sortKeys.size(); ++i) {
    text += (i ? ", " : "") + std::string("$") + std::to_string(sortKeys[i].column) +
            (sortKeys[i].ascending ? " ASC" : " DESC");
  }
  return text + "], select=[" + (outputRankNumber ? "*, " + rankName : "*") + "])";
}

namespace {
void explainInto(const LogicalNode& node, int depth, bool withChangelogMode, bool withCost,
                 std::string& out) {
  out += std::string(depth * 2, ' ') + node.describe();
  const bool sink = node.kind == LogicalNodeKind::kSink;
  if (withChangelogMode && !sink) out += ", changelogMode=" + changelogKindsOf(node);
  if (withCost && !sink) out += ": " + describeCost(node);
  out += "\n";
  for (const auto& input : node.inputs) {
    explainInto(*input, depth + 1, withChangelogMode, withCost, out);
  }
}
}  // namespace

std::string explainPlan(const LogicalNode& root, bool withChangelogMode, bool withCost) {
  std::string text;
  explainInto(root, 0, withChangelogMode, withCost, text);
  return text;
}

// ---- Event time ------------------------------------------------------------------------------

LogicalWatermarkAssigner::LogicalWatermarkAssigner(LogicalNodePtr input, int rowtime,
                                                   expression::ExpressionPtr watermarkExpression)
    : LogicalNode(LogicalNodeKind::kWatermarkAssigner, input->rowType, {input},
                  input->changelogMode),
      rowtimeColumn(rowtime),
      watermark(std::move(watermarkExpression)) {}

std::string LogicalWatermarkAssigner::describe() const {
  return "LogicalWatermarkAssigner(rowtime=[" + rowType->getFields()[rowtimeColumn].name +
         "], watermark=[" + watermark->toString() + "])";
}

LogicalTypePtr windowStartType() { return LogicalType::timestamp(3, TimestampKind::REGULAR, false); }

LogicalTypePtr windowTimeType(const LogicalType& timeType) {
  if (timeType.getTimestampKind() == TimestampKind::PROCTIME) {
    return LogicalType::localZonedTimestamp(3, TimestampKind::PROCTIME, false);
  }
  if (timeType.getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
    return LogicalType::localZonedTimestamp(3, TimestampKind::ROWTIME, timeType.isNullable());
  }
  return LogicalType::timestamp(3, TimestampKind::ROWTIME, timeType.isNullable());
}

namespace {
/// Flink's TimeUtils.formatWithHighestUnit: "10 min", "1 h", "2 d", "1500 ms".
std::string formatDuration(int64_t millis) {
  static const std::pair<int64_t, const char*> kUnits[] = {
      {86400000, "d"}, {3600000, "h"}, {60000, "min"}, {1000, "s"}};
  for (const auto& [unit, name] : kUnits) {
    if (millis != 0 && millis % unit == 0) return std::to_string(millis / unit) + " " + name;
  }
  return std::to_string(millis) + " ms";
}
}  // namespace

std::string describeWindow(const relational::WindowSpec& window,
                           const std::string& timeColumn) {
  return describeWindowWith(window, "time_col=[" + timeColumn + "]");
}

std::string describeWindowWith(const relational::WindowSpec& window,
                               const std::string& columns) {
  using relational::WindowKind;
  std::string text = relational::windowKindName(window.kind) + "(" + columns;
  switch (window.kind) {
    case WindowKind::TUMBLE:
      text += ", size=[" + formatDuration(window.size) + "]";
      break;
    case WindowKind::HOP:
      text += ", size=[" + formatDuration(window.size) + "], slide=[" +
              formatDuration(window.slide) + "]";
      break;
    case WindowKind::CUMULATE:
      text += ", max_size=[" + formatDuration(window.size) + "], step=[" +
              formatDuration(window.slide) + "]";
      break;
    case WindowKind::SESSION:
      text += ", gap=[" + formatDuration(window.size) + "]";
      break;
  }
  if (window.offset != 0) text += ", offset=[" + formatDuration(window.offset) + "]";
  return text + ")";
}

namespace {
LogicalTypePtr windowTableFunctionRowType(const LogicalNode& input,
                                          const relational::WindowSpec& window) {
  std::vector<RowField> fields = input.rowType->getFields();
  const LogicalType& timeType = *fields.at(window.timeColumn).type;
  fields.push_back(RowField{"window_start", windowStartType(), std::nullopt});
  fields.push_back(RowField{"window_end", windowStartType(), std::nullopt});
  fields.push_back(RowField{"window_time", windowTimeType(timeType), std::nullopt});
  return rowTypeWithUniqueNames(std::move(fields));
}
}  // namespace

LogicalWindowTableFunction::LogicalWindowTableFunction(LogicalNodePtr input,
                                                       relational::WindowSpec spec)
    : LogicalNode(LogicalNodeKind::kWindowTableFunction, windowTableFunctionRowType(*input, spec),
                  {input}, input->changelogMode),
      window(std::move(spec)) {}

std::string LogicalWindowTableFunction::describe() const {
  return "LogicalWindowTableFunction(window=[" +
         describeWindow(window, rowType->getFields()[window.timeColumn].name) + "])";
}

namespace {
LogicalTypePtr windowAggregateRowType(
    const LogicalNode& input, const relational::WindowSpec& window,
    const std::vector<int>& keys, const std::vector<function::AggregateCall>& calls,
    const std::vector<relational::WindowOutputColumn>& columns,
    const std::vector<std::string>& names) {
  using Kind = relational::WindowOutputColumn::Kind;
  const auto& inputFields = input.rowType->getFields();
  std::vector<RowField> fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    LogicalTypePtr type;
    switch (columns[i].kind) {
      case Kind::KEY:
        type = materialized(inputFields.at(keys.at(columns[i].index)).type);
        break;
      case Kind::WINDOW_START:
      case Kind::WINDOW_END:
        type = windowStartType();
        break;
      case Kind::WINDOW_TIME:
        type = windowTimeType(*inputFields.at(window.timeColumn).type)->copy(false);
        break;
      case Kind::CALL:
        type = calls.at(columns[i].index).resultType;
        break;
    }
    fields.push_back(RowField{names.at(i), type, std::nullopt});
  }
  return LogicalType::row(std::move(fields), false);
}
}  // namespace

LogicalWindowAggregate::LogicalWindowAggregate(
    LogicalNodePtr input, relational::WindowSpec spec, std::vector<int> keys,
    std::vector<function::AggregateCall> aggregateCalls,
    std::vector<relational::WindowOutputColumn> columns,
    std::vector<std::string> names)
    : LogicalNode(LogicalNodeKind::kWindowAggregate,
                  windowAggregateRowType(*input, spec, keys, aggregateCalls, columns, names),
                  {input}, ChangelogMode::kInsertOnly),
      window(std::move(spec)),
      keyColumns(std::move(keys)),
      calls(std::move(aggregateCalls)),
      outputColumns(std::move(columns)) {}

std::string LogicalWindowAggregate::describe() const {
  using Kind = relational::WindowOutputColumn::Kind;
  const auto& inputFields = inputs[0]->rowType->getFields();
  std::string text = "LogicalWindowAggregate(groupBy=[";
  for (size_t i = 0; i < keyColumns.size(); ++i) {
    text += (i ? ", " : "") + inputFields[keyColumns[i]].name;
  }
  text += "], window=[" + describeWindow(window, inputFields[window.timeColumn].name) +
          "], select=[";
  const auto& fields = rowType->getFields();
  for (size_t i = 0; i < outputColumns.size(); ++i) {
    const auto& column = outputColumns[i];
    text += i ? ", " : "";
    switch (column.kind) {
      case Kind::KEY:
        text += inputFields[keyColumns[column.index]].name;
        break;
      case Kind::WINDOW_START:
        text += "start('w$) AS " + fields[i].name;
        break;
      case Kind::WINDOW_END:
        text += "end('w$) AS " + fields[i].name;
        break;
      case Kind::WINDOW_TIME:
        text += "rowtime('w$) AS " + fields[i].name;
        break;
      case Kind::CALL: {
        const auto& call = calls[column.index];
        std::string argument =
            call.argumentColumn < 0 ? "*" : inputFields[call.argumentColumn].name;
        text += function::aggregateKindName(call.kind) + "(" +
                (call.distinct ? "DISTINCT " : "") + argument + ")" +
                (call.filterColumn >= 0 ? " FILTER " + inputFields[call.filterColumn].name : "") +
                " AS " + fields[i].name;
        break;
      }
    }
  }
  return text + "])";
}

namespace {
LogicalTypePtr overRowType(const LogicalNode& input,
                           const std::vector<function::AggregateCall>& calls,
                           const std::vector<std::string>& names) {
  std::vector<RowField> fields = input.rowType->getFields();
  for (size_t i = 0; i < calls.size(); ++i) {
    fields.push_back(RowField{names.at(i), calls[i].resultType, std::nullopt});
  }
  return LogicalType::row(std::move(fields), false);
}
}  // namespace

LogicalOverAggregate::LogicalOverAggregate(LogicalNodePtr input, std::vector<int> partition,
                                           int order, relational::OverFrameUnit frameUnit,
                                           std::optional<int64_t> framePreceding,
                                           std::vector<function::AggregateCall> overCalls,
                                           std::vector<std::string> names,
                                           std::vector<relational::SortKey> keys)
    : LogicalNode(LogicalNodeKind::kOverAggregate, overRowType(*input, overCalls, names), {input},
                  ChangelogMode::kInsertOnly),
      partitionKeys(std::move(partition)),
      orderColumn(order),
      orderKeys(std::move(keys)),
      processingTime(order >= 0 &&
                     inputs[0]->rowType->getFields().at(order).type->getTimestampKind() ==
                         TimestampKind::PROCTIME),
      unit(frameUnit),
      preceding(framePreceding),
      calls(std::move(overCalls)) {}

std::string LogicalOverAggregate::describe() const {
  const auto& inputFields = inputs[0]->rowType->getFields();
  std::string text = "LogicalOverAggregate(partitionBy=[";
  for (size_t i = 0; i < partitionKeys.size(); ++i) {
    text += (i ? ", " : "") + inputFields[partitionKeys[i]].name;
  }
  std::string orderBy;
  if (orderColumn >= 0) {
    orderBy = inputFields[orderColumn].name + " ASC";
  } else {
    for (const auto& key : orderKeys) {
      orderBy += (orderBy.empty() ? "" : ", ") + inputFields[key.column].name +
                 (key.ascending ? " ASC" : " DESC") +
                 (key.nullsFirst == key.ascending ? "" : key.nullsFirst ? " NULLS FIRST"
                                                                       : " NULLS LAST");
    }
  }
  text += "], orderBy=[" + orderBy + "], window=[" +
          (unit == relational::OverFrameUnit::ROWS ? "ROWS" : "RANGE") + " BETWEEN " +
          (preceding ? std::to_string(*preceding) : std::string("UNBOUNDED")) +
          " PRECEDING AND CURRENT ROW], select=[";
  const auto& fields = rowType->getFields();
  for (size_t i = 0; i < calls.size(); ++i) {
    const auto& call = calls[i];
    std::string argument = call.argumentColumn < 0 ? "*" : inputFields[call.argumentColumn].name;
    text += (i ? ", " : "") + function::aggregateKindName(call.kind) + "(" +
            (call.distinct ? "DISTINCT " : "") + argument + ") AS " +
            fields[inputFields.size() + i].name;
  }
  return text + "])";
}

std::optional<WindowProperty> windowPropertyOf(const LogicalNode& node, int column) {
  using Kind = relational::WindowOutputColumn::Kind;
  switch (node.kind) {
    case LogicalNodeKind::kWindowTableFunction: {
      const auto& function = static_cast<const LogicalWindowTableFunction&>(node);
      int arity = node.inputs[0]->rowType->getFieldCount();
      if (column < arity) return windowPropertyOf(*node.inputs[0], column);
      static const Kind kKinds[] = {Kind::WINDOW_START, Kind::WINDOW_END, Kind::WINDOW_TIME};
      return WindowProperty{kKinds[column - arity], function.window};
    }
    case LogicalNodeKind::kWindowAggregate: {
      const auto& aggregate = static_cast<const LogicalWindowAggregate&>(node);
      Kind kind = aggregate.outputColumns.at(column).kind;
      if (kind == Kind::KEY || kind == Kind::CALL) return std::nullopt;
      return WindowProperty{kind, aggregate.window};
    }
    case LogicalNodeKind::kAggregate: {
      // An aggregation grouped by a window, before WindowAggregateDetection plans it.
      const auto& aggregate = static_cast<const LogicalAggregate&>(node);
      const int groupCount = static_cast<int>(aggregate.groupingColumns.size());
      if (!aggregate.windowed || column >= groupCount) return std::nullopt;
      auto grouping = windowGroupingOf(*node.inputs[0], groupCount, aggregate.calls);
      if (!grouping) return std::nullopt;
      switch (grouping->keys.at(static_cast<size_t>(column))) {
        case WindowGrouping::Key::WINDOW_START:
          return WindowProperty{Kind::WINDOW_START, grouping->function->window};
        case WindowGrouping::Key::WINDOW_END:
          return WindowProperty{Kind::WINDOW_END, grouping->function->window};
        case WindowGrouping::Key::WINDOW_TIME:
          return WindowProperty{Kind::WINDOW_TIME, grouping->function->window};
        case WindowGrouping::Key::DATA:
          return std::nullopt;
      }
      return std::nullopt;
    }
    case LogicalNodeKind::kProject: {
      const auto& expression = static_cast<const LogicalProject&>(node).expressions.at(column);
      if (expression->kind() != expression::ExpressionKind::kColumnReference) return std::nullopt;
      return windowPropertyOf(
          *node.inputs[0], static_cast<const expression::ColumnReference&>(*expression).index());
    }
    case LogicalNodeKind::kFilter:
    case LogicalNodeKind::kWatermarkAssigner:
      return windowPropertyOf(*node.inputs[0], column);
    case LogicalNodeKind::kRank: {
      // A window Top-N emits each window's rows once, when the window closes, unchanged.
      const auto& rank = static_cast<const LogicalRank&>(node);
      if (windowRankEndColumn(*node.inputs[0], rank.partitionKeys) < 0 ||
          column >= node.inputs[0]->rowType->getFieldCount()) {
        return std::nullopt;
      }
      return windowPropertyOf(*node.inputs[0], column);
    }
    case LogicalNodeKind::kJoin: {
      // A window join emits a window's rows before the watermark passes its end: the window
      // columns of a side that is never padded stay window columns (cascaded window joins).
      const auto& join = static_cast<const LogicalJoin&>(node);
      if (!join.interval || !join.interval->windowJoin) return std::nullopt;
      const int leftArity = node.inputs[0]->rowType->getFieldCount();
      const int side = column < leftArity ? 0 : 1;
      if (relational::isOuterSide(join.joinType, 1 - side)) return std::nullopt;
      return windowPropertyOf(*node.inputs[static_cast<size_t>(side)],
                              side == 0 ? column : column - leftArity);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace eddy::sql
