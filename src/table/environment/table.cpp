#include "eddy/table/table.h"

#include <algorithm>
#include <iostream>
#include <set>

#include "catalog/catalog_manager.h"
#include "eddy/exceptions.h"
#include "eddy/table/table_environment.h"
#include "sql/binder/binder.h"
#include "sql/parser/parser.h"
#include "sql/planner/logical_node.h"
#include "table/environment/table_environment_impl.h"

namespace eddy {

namespace {

/// A select item: the expression and its `AS` name.
std::string selectItem(const Expression& expression) {
  std::string text = expression.asSummaryString();
  if (expression.alias()) text += " AS " + escapeIdentifier(*expression.alias());
  return text;
}

std::string joined(const std::vector<Expression>& expressions, bool withAliases) {
  std::string text;
  for (size_t i = 0; i < expressions.size(); ++i) {
    if (i > 0) text += ", ";
    text += withAliases ? selectItem(expressions[i]) : expressions[i].asSummaryString();
  }
  return text;
}

/// Errors of the SQL the operation was written as carry its line and column, which mean
/// nothing to a Table API caller: keep only the message.
[[noreturn]] void rethrowWithoutPosition(const ValidationException& error) {
  throw ValidationException(error.message());
}

/// The column name an expression names when it is a bare column reference (`name`).
std::optional<std::string> columnNameOf(const Expression& expression) {
  const std::string& text = expression.asSummaryString();
  if (text.size() < 2 || text.front() != '`' || text.back() != '`') return std::nullopt;
  std::string name;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    if (text[i] == '`') {
      if (text[i + 1] != '`') return std::nullopt;
      ++i;
    }
    name += text[i];
  }
  return name;
}

}  // namespace

// ---- Table ----------------------------------------------------------------------------------

Table::Table(TableEnvironment* environment, std::shared_ptr<const table::TablePlan> plan,
             ResolvedSchema schema)
    : environment_(environment), plan_(std::move(plan)), schema_(std::move(schema)) {}

void Table::printSchema() const { std::cout << schema_.toString() << std::endl; }

std::vector<std::string> Table::columnNames() const {
  std::vector<std::string> names;
  for (const RowField& field : plan_->node->rowType->getFields()) names.push_back(field.name);
  return names;
}

Table Table::derive(const std::string& query, const std::vector<const Table*>& inputs) const {
  for (const Table* input : inputs) {
    if (input->environment_ != environment_) {
      throw ValidationException(
          "Only tables from the same TableEnvironment can be joined or combined.");
    }
  }
  sql::StatementPtr statement = sql::parseStatement(query);
  table::TableEnvironmentImpl& session = table::TableInternals::implOf(*environment_);
  sql::Binder binder(session.catalogManager(), session.bindingContext());
  for (size_t i = 0; i < inputs.size(); ++i) {
    binder.addInlineTable("input" + std::to_string(i), inputs[i]->plan_->node);
  }
  try {
    return table::TableInternals::newTable(
        environment_, binder.bindQuery(*statement->as<sql::QueryStatement>().query));
  } catch (const ValidationException& error) {
    rethrowWithoutPosition(error);
  }
}

Table Table::select(const std::vector<Expression>& fields) const {
  return derive("SELECT " + joined(fields, true) + " FROM input0", {this});
}

Table Table::filter(const Expression& predicate) const {
  return derive("SELECT * FROM input0 WHERE " + predicate.asSummaryString(), {this});
}

GroupedTable Table::groupBy(const std::vector<Expression>& keys) const {
  return GroupedTable(*this, keys);
}

Table Table::distinct() const { return derive("SELECT DISTINCT * FROM input0", {this}); }

Table Table::joinWith(const Table& right, const char* joinKind, const Expression* predicate) const {
  // Flink's Table API joins tables with distinct column names.
  std::set<std::string> left;
  for (const std::string& name : columnNames()) left.insert(name);
  for (const std::string& name : right.columnNames()) {
    if (left.count(name)) {
      throw ValidationException("join relations with ambiguous names: [" + name + "]");
    }
  }
  std::string query = std::string("SELECT * FROM input0 ") + joinKind + " input1";
  if (predicate) query += " ON " + predicate->asSummaryString();
  return derive(query, {this, &right});
}

Table Table::join(const Table& right) const { return joinWith(right, "CROSS JOIN", nullptr); }
Table Table::join(const Table& right, const Expression& predicate) const {
  return joinWith(right, "JOIN", &predicate);
}
Table Table::leftOuterJoin(const Table& right, const Expression& predicate) const {
  return joinWith(right, "LEFT JOIN", &predicate);
}
Table Table::rightOuterJoin(const Table& right, const Expression& predicate) const {
  return joinWith(right, "RIGHT JOIN", &predicate);
}
Table Table::fullOuterJoin(const Table& right, const Expression& predicate) const {
  return joinWith(right, "FULL JOIN", &predicate);
}

Table Table::union_(const Table& other) const {
  return derive("SELECT * FROM input0 UNION SELECT * FROM input1", {this, &other});
}
Table Table::unionAll(const Table& other) const {
  return derive("SELECT * FROM input0 UNION ALL SELECT * FROM input1", {this, &other});
}

Table Table::intersect(const Table& other) const {
  return derive("SELECT * FROM input0 INTERSECT SELECT * FROM input1", {this, &other});
}
Table Table::minus(const Table& other) const {
  return derive("SELECT * FROM input0 EXCEPT SELECT * FROM input1", {this, &other});
}
Table Table::intersectAll(const Table& other) const {
  return derive("SELECT * FROM input0 INTERSECT ALL SELECT * FROM input1", {this, &other});
}
Table Table::minusAll(const Table& other) const {
  return derive("SELECT * FROM input0 EXCEPT ALL SELECT * FROM input1", {this, &other});
}

Table Table::orderBy(const std::vector<Expression>& fields) const {
  std::string keys;
  for (size_t i = 0; i < fields.size(); ++i) {
    keys += (i ? ", " : "") + fields[i].asSummaryString();
    if (!fields[i].ordering().empty()) keys += " " + fields[i].ordering();
  }
  return derive("SELECT * FROM input0 ORDER BY " + keys, {this});
}

Table Table::limit(int64_t fetch) const { return limit(0, fetch); }
Table Table::limit(int64_t offset, int64_t fetch) const {
  if (offset < 0 || fetch < 0) throw ValidationException("limit() needs non-negative numbers");
  return derive("SELECT * FROM input0 LIMIT " + std::to_string(fetch) +
                    (offset > 0 ? " OFFSET " + std::to_string(offset) : ""),
                {this});
}
Table Table::offset(int64_t offset) const {
  if (offset < 0) throw ValidationException("offset() needs a non-negative number");
  return derive("SELECT * FROM input0 OFFSET " + std::to_string(offset), {this});
}
Table Table::fetch(int64_t fetch) const { return limit(0, fetch); }

Table Table::as(const std::vector<std::string>& fields) const {
  std::vector<std::string> names = columnNames();
  if (fields.size() != names.size()) {
    throw ValidationException(
        "Aliases must have the same length as the number of columns; "
        "the table has " +
        std::to_string(names.size()) + " columns, got " + std::to_string(fields.size()) +
        " aliases");
  }
  std::vector<Expression> items;
  for (size_t i = 0; i < names.size(); ++i) items.push_back(col(names[i]).as(fields[i]));
  return select(items);
}

Table Table::addColumns(const std::vector<Expression>& fields) const {
  return derive("SELECT *, " + joined(fields, true) + " FROM input0", {this});
}

Table Table::addOrReplaceColumns(const std::vector<Expression>& fields) const {
  std::vector<std::string> names = columnNames();
  std::vector<Expression> items;
  for (const std::string& name : names) items.push_back(col(name));
  for (size_t i = 0; i < fields.size(); ++i) {
    std::optional<std::string> name =
        fields[i].alias() ? fields[i].alias() : columnNameOf(fields[i]);
    if (!name) {
      throw ValidationException("addOrReplaceColumns() needs named columns (use as()): " +
                                fields[i].asSummaryString());
    }
    bool replaced = false;
    for (size_t c = 0; c < names.size(); ++c) {
      if (names[c] == *name) {
        items[c] = fields[i].as(*name);
        replaced = true;
      }
    }
    if (!replaced) items.push_back(fields[i].as(*name));
  }
  return select(items);
}

Table Table::dropColumns(const std::vector<Expression>& fields) const {
  std::vector<std::string> names = columnNames();
  std::set<std::string> dropped;
  for (const Expression& field : fields) {
    std::optional<std::string> name = columnNameOf(field);
    if (!name || std::find(names.begin(), names.end(), *name) == names.end()) {
      throw ValidationException("Cannot resolve field [" +
                                (name ? *name : field.asSummaryString()) +
                                "] to drop; the table has [" +
                                [&] {
                                  std::string list;
                                  for (size_t i = 0; i < names.size(); ++i)
                                    list += (i ? ", " : "") + names[i];
                                  return list;
                                }() +
                                "]");
    }
    dropped.insert(*name);
  }
  std::vector<Expression> items;
  for (const std::string& name : names) {
    if (!dropped.count(name)) items.push_back(col(name));
  }
  if (items.empty()) throw ValidationException("dropColumns() cannot drop every column");
  return select(items);
}

Table Table::renameColumns(const std::vector<Expression>& fields) const {
  std::vector<std::string> names = columnNames();
  std::vector<Expression> items;
  for (const std::string& name : names) items.push_back(col(name));
  for (const Expression& field : fields) {
    std::optional<std::string> name = columnNameOf(field);
    if (!name || !field.alias()) {
      throw ValidationException(
          "renameColumns() takes column references with a new name, e.g. "
          "$(\"a\").as(\"b\"); got " +
          field.asSummaryString());
    }
    auto position = std::find(names.begin(), names.end(), *name);
    if (position == names.end()) {
      throw ValidationException("Cannot resolve field [" + *name + "] to rename");
    }
    items[position - names.begin()] = col(*name).as(*field.alias());
  }
  return select(items);
}

TableResult Table::execute() const {
  return table::TableInternals::implOf(*environment_).executePlan(plan_->node);
}

TableResult Table::executeInsert(const std::string& path) const {
  return table::TableInternals::implOf(*environment_).executeInsertPlan(path, plan_->node);
}

TablePipeline Table::insertInto(const std::string& path) const {
  return TablePipeline(*this, path);
}

std::string Table::explain() const {
  return table::TableInternals::implOf(*environment_).explainQueryPlan(plan_->node, true);
}

// ---- GroupedTable, TablePipeline ------------------------------------------------------------

GroupedTable::GroupedTable(const Table& table, std::vector<Expression> keys)
    : table_(std::make_shared<const Table>(table)), keys_(std::move(keys)) {}

Table GroupedTable::select(const std::vector<Expression>& fields) const {
  std::string query = "SELECT " + joined(fields, true) + " FROM input0";
  if (!keys_.empty()) query += " GROUP BY " + joined(keys_, false);
  return table_->derive(query, {table_.get()});
}

// ---- Group windows ---------------------------------------------------------------------------

GroupWindow TumbleWithSizeOnTime::as(const std::string& alias) const {
  return GroupWindow(
      "TUMBLE", "TUMBLE(" + time_.asSummaryString() + ", " + size_.asSummaryString() + ")", alias);
}

GroupWindow SlideWithSizeAndSlideOnTime::as(const std::string& alias) const {
  return GroupWindow("HOP",
                     "HOP(" + time_.asSummaryString() + ", " + slide_.asSummaryString() + ", " +
                         size_.asSummaryString() + ")",
                     alias);
}

GroupWindow SessionWithGapOnTime::as(const std::string& alias) const {
  return GroupWindow(
      "SESSION", "SESSION(" + time_.asSummaryString() + ", " + gap_.asSummaryString() + ")", alias);
}

OverWindowedTable Table::window(const OverWindow& window) const {
  return OverWindowedTable(*this, window);
}

OverWindowPartitioned Over::partitionBy(const std::vector<Expression>& keys) {
  return OverWindowPartitioned("PARTITION BY " + joined(keys, false) + " ");
}

OverWindowPartitionedOrdered OverWindowPartitionedOrdered::preceding(
    const Expression& bound) const {
  const std::string& text = bound.asSummaryString();
  std::string frame;
  if (text == "$UNBOUNDED_RANGE") {
    frame = "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
  } else if (text == "$UNBOUNDED_ROW") {
    frame = "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
  } else if (text == "$CURRENT_ROW") {
    frame = "ROWS BETWEEN CURRENT ROW AND CURRENT ROW";
  } else if (text == "$CURRENT_RANGE") {
    frame = "RANGE BETWEEN CURRENT ROW AND CURRENT ROW";
  } else if (text.rfind("$ROWS ", 0) == 0) {
    frame = "ROWS BETWEEN " + text.substr(6) + " PRECEDING AND CURRENT ROW";
  } else {
    frame = "RANGE BETWEEN " + text + " PRECEDING AND CURRENT ROW";
  }
  return OverWindowPartitionedOrdered(partitionSql_, order_, frame);
}

OverWindow OverWindowPartitionedOrdered::as(const std::string& alias) const {
  return OverWindow(
      alias,
      partitionSql_ + "ORDER BY " + order_.asSummaryString() + " " +
          (frameSql_.empty() ? std::string("RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW")
                             : frameSql_));
}

OverWindowedTable::OverWindowedTable(const Table& table, OverWindow window)
    : table_(std::make_shared<const Table>(table)), window_(std::move(window)) {}

Table OverWindowedTable::select(const std::vector<Expression>& fields) const {
  return table_->derive("SELECT " + joined(fields, true) + " FROM input0 WINDOW " +
                            escapeIdentifier(window_.alias()) + " AS (" +
                            window_.specificationSql() + ")",
                        {table_.get()});
}

GroupWindowedTable Table::window(const GroupWindow& window) const {
  return GroupWindowedTable(*this, window);
}

GroupWindowedTable::GroupWindowedTable(const Table& table, GroupWindow window)
    : table_(std::make_shared<const Table>(table)), window_(std::move(window)) {}

WindowGroupedTable GroupWindowedTable::groupBy(const std::vector<Expression>& keys) const {
  int aliases = 0;
  for (const Expression& key : keys) {
    if (columnNameOf(key) == window_.alias()) ++aliases;
  }
  if (aliases != 1) {
    throw ValidationException("A group window expects the window alias '" + window_.alias() +
                              "' exactly once among the groupBy keys.");
  }
  return WindowGroupedTable(*table_, window_, keys);
}

WindowGroupedTable::WindowGroupedTable(const Table& table, GroupWindow window,
                                       std::vector<Expression> keys)
    : table_(std::make_shared<const Table>(table)),
      window_(std::move(window)),
      keys_(std::move(keys)) {}

Table WindowGroupedTable::select(const std::vector<Expression>& fields) const {
  // The window's properties (`start(`w`)`, ...) become TUMBLE_START(..) and friends; the
  // alias among the keys becomes the group window call.
  const std::string alias = escapeIdentifier(window_.alias());
  const std::string arguments = window_.functionSql().substr(window_.functionName().size());
  auto substituted = [&](std::string text) {
    for (const char* property : {"start", "end", "rowtime", "proctime"}) {
      std::string marker = std::string(property) + "(" + alias + ")";
      std::string upper = property;
      std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
      std::string replacement = window_.functionName() + "_" + upper + arguments;
      for (size_t at; (at = text.find(marker)) != std::string::npos;) {
        text.replace(at, marker.size(), replacement);
      }
    }
    return text;
  };
  std::string items;
  for (size_t i = 0; i < fields.size(); ++i) {
    items += (i ? ", " : "") + substituted(selectItem(fields[i]));
  }
  std::string groups;
  for (size_t i = 0; i < keys_.size(); ++i) {
    std::string key = columnNameOf(keys_[i]) == window_.alias() ? window_.functionSql()
                                                                : keys_[i].asSummaryString();
    groups += (i ? ", " : "") + key;
  }
  return table_->derive("SELECT " + items + " FROM input0 GROUP BY " + groups, {table_.get()});
}

TablePipeline::TablePipeline(const Table& table, std::string targetPath)
    : table_(std::make_shared<const Table>(table)), targetPath_(std::move(targetPath)) {}

TableResult TablePipeline::execute() const { return table_->executeInsert(targetPath_); }

std::string TablePipeline::explain() const {
  return "== Sink: " + targetPath_ + " ==\n" + table_->explain();
}

}  // namespace eddy
