// Table: a relational query not yet run, as Flink's Table. Operations (select, filter,
// groupBy, join, ...) build a new Table over this one; nothing runs until execute(),
// executeInsert() or a pipeline's execute(). Expressions (eddy/table/expressions.h) are
// resolved against the table's columns with SQL's type rules; an unknown column or a type
// error throws ValidationException from the operation that used it.
//
// A Table is cheap to copy and refers to its TableEnvironment, which must outlive it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "eddy/table/expressions.h"
#include "eddy/table/group_window.h"
#include "eddy/table/resolved_schema.h"
#include "eddy/table/table_result.h"

namespace eddy {

namespace table {
// eddy's side of a Table: its bound plan, and the accessor eddy reaches it through
// (src/table/environment/table_environment_impl.h).
struct TablePlan;
class TableInternals;
}  // namespace table
class TableEnvironment;
class Table;

/// A Table grouped by keys (Table::groupBy); select() aggregates per group.
class GroupedTable {
 public:
  template <typename... E>
  Table select(const E&... fields) const;
  Table select(const std::vector<Expression>& fields) const;

 private:
  friend class Table;
  GroupedTable(const Table& table, std::vector<Expression> keys);
  std::shared_ptr<const Table> table_;
  std::vector<Expression> keys_;
};

/// A windowed table grouped by the window alias and keys (GroupWindowedTable::groupBy);
/// select() aggregates per window and group.
class WindowGroupedTable {
 public:
  template <typename... E>
  Table select(const E&... fields) const;
  Table select(const std::vector<Expression>& fields) const;

 private:
  friend class GroupWindowedTable;
  WindowGroupedTable(const Table& table, GroupWindow window, std::vector<Expression> keys);
  std::shared_ptr<const Table> table_;
  GroupWindow window_;
  std::vector<Expression> keys_;
};

/// A Table with an over window (Table::window(OverWindow)): select() may aggregate over it.
class OverWindowedTable {
 public:
  template <typename... E>
  Table select(const E&... fields) const;
  Table select(const std::vector<Expression>& fields) const;

 private:
  friend class Table;
  OverWindowedTable(const Table& table, OverWindow window);
  std::shared_ptr<const Table> table_;
  OverWindow window_;
};

/// A Table with a group window (Table::window): groupBy must name the window's alias.
class GroupWindowedTable {
 public:
  template <typename... E>
  WindowGroupedTable groupBy(const E&... keys) const {
    return groupBy(std::vector<Expression>{Expression(keys)...});
  }
  /// Throws ValidationException when `keys` do not name the window's alias exactly once.
  WindowGroupedTable groupBy(const std::vector<Expression>& keys) const;

 private:
  friend class Table;
  GroupWindowedTable(const Table& table, GroupWindow window);
  std::shared_ptr<const Table> table_;
  GroupWindow window_;
};

/// `insertInto(path)`: a Table bound to a sink, run by execute() (Flink's TablePipeline).
class TablePipeline {
 public:
  TableResult execute() const;
  std::string explain() const;
  const Table& table() const { return *table_; }
  const std::string& targetPath() const { return targetPath_; }

 private:
  friend class Table;
  TablePipeline(const Table& table, std::string targetPath);
  std::shared_ptr<const Table> table_;
  std::string targetPath_;
};

/// A Table is made by its TableEnvironment (sqlQuery, from, fromValues, fromDataStream, ...)
/// and by the operations below.
class Table {
 public:
  const ResolvedSchema& getResolvedSchema() const { return schema_; }
  /// Prints the schema to stdout (see ResolvedSchema::toString).
  void printSchema() const;

  // --- Relational operations (each returns a new Table). ---
  template <typename... E>
  Table select(const E&... fields) const {
    return select(std::vector<Expression>{Expression(fields)...});
  }
  Table select(const std::vector<Expression>& fields) const;
  Table filter(const Expression& predicate) const;
  Table where(const Expression& predicate) const { return filter(predicate); }
  template <typename... E>
  GroupedTable groupBy(const E&... keys) const {
    return groupBy(std::vector<Expression>{Expression(keys)...});
  }
  GroupedTable groupBy(const std::vector<Expression>& keys) const;
  /// Groups by a window (Tumble, Slide, Session; see eddy/table/group_window.h).
  GroupWindowedTable window(const GroupWindow& window) const;
  /// Aggregates over an over window (Over; see eddy/table/group_window.h).
  OverWindowedTable window(const OverWindow& window) const;
  Table distinct() const;
  /// Inner join; without a predicate, follow with where() (or it is a cross join).
  Table join(const Table& right) const;
  Table join(const Table& right, const Expression& predicate) const;
  Table leftOuterJoin(const Table& right, const Expression& predicate) const;
  Table rightOuterJoin(const Table& right, const Expression& predicate) const;
  Table fullOuterJoin(const Table& right, const Expression& predicate) const;
  /// UNION (duplicates removed) and UNION ALL; `union` is a C++ keyword.
  Table union_(const Table& other) const;
  Table unionAll(const Table& other) const;
  /// INTERSECT and EXCEPT (distinct rows), and the ALL forms (a row as often as it is in both,
  /// or as often more on this side).
  Table intersect(const Table& other) const;
  Table minus(const Table& other) const;
  Table intersectAll(const Table& other) const;
  Table minusAll(const Table& other) const;
  template <typename... E>
  Table orderBy(const E&... fields) const {
    return orderBy(std::vector<Expression>{Expression(fields)...});
  }
  Table orderBy(const std::vector<Expression>& fields) const;
  /// The first `fetch` rows; limit(offset, fetch) skips `offset` first.
  Table limit(int64_t fetch) const;
  Table limit(int64_t offset, int64_t fetch) const;
  Table offset(int64_t offset) const;
  Table fetch(int64_t fetch) const;
  /// Renames all columns, in order (Flink's `as(String field, String... fields)`).
  template <typename... S>
  Table as(const std::string& field, const S&... fields) const {
    return as(std::vector<std::string>{field, std::string(fields)...});
  }
  Table as(const std::vector<std::string>& fields) const;
  /// Appends columns; addOrReplaceColumns replaces an existing column of the same name.
  Table addColumns(const std::vector<Expression>& fields) const;
  Table addOrReplaceColumns(const std::vector<Expression>& fields) const;
  Table dropColumns(const std::vector<Expression>& fields) const;
  /// `renameColumns({$("a").as("b")})`.
  Table renameColumns(const std::vector<Expression>& fields) const;

  // --- Running. ---
  /// Runs the query; the result's rows are its changelog in STREAMING mode.
  TableResult execute() const;
  /// Writes the rows into the catalog table `path` (INSERT INTO) as one job.
  TableResult executeInsert(const std::string& path) const;
  TablePipeline insertInto(const std::string& path) const;
  /// The plan, as EXPLAIN prints it.
  std::string explain() const;

  TableEnvironment* environment() const { return environment_; }

 private:
  friend class table::TableInternals;
  friend class GroupedTable;
  friend class WindowGroupedTable;
  friend class OverWindowedTable;
  /// A new Table from a query over `inputs` (SQL text naming them `input0`, `input1`, ...):
  /// every Table operation is one such query.
  Table derive(const std::string& query, const std::vector<const Table*>& inputs) const;
  Table joinWith(const Table& right, const char* joinKind, const Expression* predicate) const;
  std::vector<std::string> columnNames() const;
  /// `schema` may say more than the plan's row type (computed and metadata columns,
  /// watermarks: a table read from a DataStream with a Schema).
  Table(TableEnvironment* environment, std::shared_ptr<const table::TablePlan> plan,
        ResolvedSchema schema);

  TableEnvironment* environment_;
  std::shared_ptr<const table::TablePlan> plan_;
  ResolvedSchema schema_;
};

template <typename... E>
Table GroupedTable::select(const E&... fields) const {
  return select(std::vector<Expression>{Expression(fields)...});
}

template <typename... E>
Table OverWindowedTable::select(const E&... fields) const {
  return select(std::vector<Expression>{Expression(fields)...});
}

template <typename... E>
Table WindowGroupedTable::select(const E&... fields) const {
  return select(std::vector<Expression>{Expression(fields)...});
}

}  // namespace eddy
