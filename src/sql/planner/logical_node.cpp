#include "sql/planner/logical_node.h"

#include <set>

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

LogicalTypePtr aggregateRowType(const LogicalNode& input, const std::vector<int>& grouping,
                                const std::vector<runtime::operators::AggregateCall>& calls,
                                const std::vector<std::string>& names) {
  std::vector<RowField> fields;
  const auto& inputFields = input.rowType->getFields();
  for (int column : grouping) fields.push_back(inputFields.at(column));
  for (size_t i = 0; i < calls.size(); ++i) {
    fields.push_back(RowField{names.at(i), calls[i].resultType, std::nullopt});
  }
  return LogicalType::row(std::move(fields), false);
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

std::string changelogModeName(ChangelogMode mode) {
  return mode == ChangelogMode::kInsertOnly ? "[I]" : "[I,UB,UA,D]";
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

LogicalTableScan::LogicalTableScan(std::string name, LogicalTypePtr physicalRowType,
                                   std::map<std::string, std::string> tableOptions,
                                   std::vector<std::string> partitions)
    : LogicalNode(LogicalNodeKind::kTableScan, std::move(physicalRowType), {},
                  ChangelogMode::kInsertOnly),
      tableName(std::move(name)),
      options(std::move(tableOptions)),
      partitionKeys(std::move(partitions)) {}

std::string LogicalTableScan::describe() const {
  return "LogicalTableScan(table=[[" + tableName + "]])";
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

LogicalAggregate::LogicalAggregate(LogicalNodePtr input, std::vector<int> grouping,
                                   std::vector<runtime::operators::AggregateCall> aggregateCalls,
                                   std::vector<std::string> names)
    : LogicalNode(LogicalNodeKind::kAggregate,
                  aggregateRowType(*input, grouping, aggregateCalls, names), {input},
                  // Grouping without aggregate calls (DISTINCT, an IN subquery's keys) over an
                  // insert-only input emits each group once and never changes it.
                  aggregateCalls.empty() && !grouping.empty() &&
                          input->changelogMode == ChangelogMode::kInsertOnly
                      ? ChangelogMode::kInsertOnly
                      : ChangelogMode::kRetract),
      groupingColumns(std::move(grouping)),
      calls(std::move(aggregateCalls)) {}

std::string LogicalAggregate::describe() const {
  std::string text = "LogicalAggregate(group=[{";
  for (size_t i = 0; i < groupingColumns.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(groupingColumns[i]);
  }
  text += "}]";
  const auto fields = fieldsOf(rowType);
  for (size_t i = 0; i < calls.size(); ++i) {
    const auto& call = calls[i];
    std::string argument = call.argumentColumn < 0 ? "" : "$" + std::to_string(call.argumentColumn);
    text += ", " + fields[groupingColumns.size() + i].name + "=[" +
            runtime::operators::aggregateKindName(call.kind) + "(" +
            (call.distinct ? "DISTINCT " : "") + argument + ")" +
            (call.filterColumn >= 0 ? " FILTER $" + std::to_string(call.filterColumn) : "") + "]";
  }
  return text + ")";
}

LogicalSort::LogicalSort(LogicalNodePtr input, std::vector<runtime::operators::SortKey> sortKeys,
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
LogicalTypePtr joinRowType(const LogicalNode& left, const LogicalNode& right,
                           runtime::operators::JoinType joinType) {
  using runtime::operators::JoinType;
  bool padLeft = joinType == JoinType::RIGHT || joinType == JoinType::FULL;
  bool padRight = joinType == JoinType::LEFT || joinType == JoinType::FULL;
  std::vector<RowField> fields;
  for (const RowField& field : left.rowType->getFields()) {
    fields.push_back(RowField{field.name, padLeft ? field.type->copy(true) : field.type, std::nullopt});
  }
  for (const RowField& field : right.rowType->getFields()) {
    fields.push_back(RowField{field.name, padRight ? field.type->copy(true) : field.type, std::nullopt});
  }
  std::vector<std::string> names;
  for (const RowField& field : fields) names.push_back(field.name);
  names = uniquifyNames(names);
  for (size_t i = 0; i < fields.size(); ++i) fields[i].name = names[i];
  return LogicalType::row(std::move(fields), false);
}

ChangelogMode joinMode(const LogicalNode& left, const LogicalNode& right,
                       runtime::operators::JoinType joinType) {
  bool insertOnly = joinType == runtime::operators::JoinType::INNER &&
                    left.changelogMode == ChangelogMode::kInsertOnly &&
                    right.changelogMode == ChangelogMode::kInsertOnly;
  return insertOnly ? ChangelogMode::kInsertOnly : ChangelogMode::kRetract;
}
}  // namespace

LogicalJoin::LogicalJoin(LogicalNodePtr left, LogicalNodePtr right,
                         runtime::operators::JoinType type, std::vector<int> leftKeyColumns,
                         std::vector<int> rightKeyColumns, expression::ExpressionPtr residual)
    : LogicalNode(LogicalNodeKind::kJoin, joinRowType(*left, *right, type), {left, right},
                  joinMode(*left, *right, type)),
      joinType(type),
      leftKeys(std::move(leftKeyColumns)),
      rightKeys(std::move(rightKeyColumns)),
      condition(std::move(residual)) {}

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
  static const char* kNames[] = {"inner", "left", "right", "full"};
  return "LogicalJoin(condition=[" + fullCondition()->toString() + "], joinType=[" +
         kNames[static_cast<int>(joinType)] + "])";
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

LogicalRank::LogicalRank(LogicalNodePtr input, std::vector<int> partition,
                         std::vector<runtime::operators::SortKey> sort,
                         runtime::operators::RankKind kind, int64_t start, int64_t end,
                         bool rankNumber, std::string name)
    : LogicalNode(LogicalNodeKind::kRank, rankRowType(*input, rankNumber, name), {input},
                  ChangelogMode::kRetract),
      partitionKeys(std::move(partition)),
      sortKeys(std::move(sort)),
      rankKind(kind),
      rankStart(start),
      rankEnd(end),
      outputRankNumber(rankNumber),
      rankName(std::move(name)) {}

std::shared_ptr<const LogicalRank> LogicalRank::with(int64_t start, int64_t end,
                                                     bool rankNumber) const {
  return std::make_shared<LogicalRank>(inputs[0], partitionKeys, sortKeys, rankKind, start, end,
                                       rankNumber, rankName);
}

std::string LogicalRank::describe() const {
  std::string text = "LogicalRank(rankType=[" + runtime::operators::rankKindName(rankKind) +
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
void explainInto(const LogicalNode& node, int depth, bool withChangelogMode, std::string& out) {
  out += std::string(depth * 2, ' ') + node.describe();
  if (withChangelogMode) out += ", changelogMode=" + changelogModeName(node.changelogMode);
  out += "\n";
  for (const auto& input : node.inputs) explainInto(*input, depth + 1, withChangelogMode, out);
}
}  // namespace

std::string explainPlan(const LogicalNode& root, bool withChangelogMode) {
  std::string text;
  explainInto(root, 0, withChangelogMode, text);
  return text;
}

}  // namespace eddy::sql
