// Expressions of the Table API, as Flink's (org.apache.flink.table.api.Expressions and
// ApiExpression): `$("amount").isGreater(lit(500.00))`, `$("score").sum().as("total")`,
// `$("a") + 1`. An Expression is a value: cheap to copy, immutable, resolved only when a Table
// operation uses it, against that table's columns and with the same type rules as SQL (an
// Expression is kept as the SQL it stands for, so `$("a").plus(lit(1))` types exactly as
// `a + 1` does).
//
// `$` is accepted by GCC and Clang as an identifier; `col("x")` is the portable spelling.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eddy/types/data_types.h"

namespace eddy {

class Expression {
 public:
  /// Literals, so that `$("a").plus(1)` and `$("a") > 10` read as in Java.
  Expression(int32_t value);             // NOLINT(google-explicit-constructor)
  Expression(int64_t value);             // NOLINT(google-explicit-constructor)
  Expression(double value);              // NOLINT(google-explicit-constructor)
  Expression(bool value);                // NOLINT(google-explicit-constructor)
  Expression(const char* value);         // NOLINT(google-explicit-constructor)
  Expression(const std::string& value);  // NOLINT(google-explicit-constructor)

  /// An expression from SQL text (Flink's callSql): "UPPER(name) || '!'".
  static Expression sql(std::string text);

  // Arithmetic and comparison (Flink's method names; the C++ operators below do the same).
  Expression plus(const Expression& other) const;
  Expression minus(const Expression& other) const;
  Expression times(const Expression& other) const;
  Expression dividedBy(const Expression& other) const;
  Expression mod(const Expression& other) const;
  Expression isEqual(const Expression& other) const;
  Expression isNotEqual(const Expression& other) const;
  Expression isGreater(const Expression& other) const;
  Expression isGreaterOrEqual(const Expression& other) const;
  Expression isLess(const Expression& other) const;
  Expression isLessOrEqual(const Expression& other) const;
  Expression and_(const Expression& other) const;
  Expression or_(const Expression& other) const;
  Expression not_() const;
  Expression isNull() const;
  Expression isNotNull() const;
  Expression isTrue() const;
  Expression isFalse() const;
  Expression between(const Expression& lower, const Expression& upper) const;
  Expression in(const std::vector<Expression>& values) const;
  Expression like(const Expression& pattern) const;

  /// A field of a ROW value: `$("person").get("name")` is SQL's `person.name`.
  Expression get(const std::string& field) const;
  /// Collections (Flink's ApiExpression names): `at(i)` is SQL's `array[i]` (from 1) or
  /// `map[key]`; CARDINALITY, ELEMENT, ARRAY_CONTAINS.
  Expression at(const Expression& index) const;
  Expression cardinality() const;
  Expression element() const;
  Expression arrayContains(const Expression& needle) const;

  // Scalar functions.
  Expression abs() const;
  Expression upperCase() const;
  Expression lowerCase() const;
  Expression charLength() const;
  Expression trim() const;
  Expression substring(const Expression& begin) const;
  Expression substring(const Expression& begin, const Expression& length) const;
  /// CAST(this AS type).
  Expression cast(const DataType& type) const;
  Expression tryCast(const DataType& type) const;
  /// IF(this, then, otherwise).
  Expression then(const Expression& then, const Expression& otherwise) const;

  // Aggregates (in groupBy(...).select(...) or a select without groupBy).
  Expression count() const;
  Expression sum() const;
  Expression avg() const;
  Expression min() const;
  Expression max() const;
  /// The aggregate over distinct values: `$("a").count().distinct()`.
  Expression distinct() const;

  // Intervals of an integer literal: `lit(5).minutes()` is INTERVAL '5' MINUTE (Flink's
  // ApiExpression.minutes() and friends); other expressions are multiplied by one unit.
  Expression millis() const;
  Expression seconds() const;
  Expression minutes() const;
  Expression hours() const;
  Expression days() const;

  // Properties of a group window named by its alias (`$("w").start()`), in the select of
  // `window(...).groupBy($("w"), ...)`.
  Expression start() const;
  Expression end() const;
  Expression rowtime() const;
  Expression proctime() const;

  /// An aggregate over an over window named by its alias: `$("b").sum().over($("w"))`, in the
  /// select of `window(Over::partitionBy(..)...as("w"))`.
  Expression over(const Expression& windowAlias) const;

  /// Names the column a select produces (Flink's `as`).
  Expression as(const std::string& name) const;
  /// Sort directions for orderBy.
  Expression asc() const;
  Expression desc() const;

  /// The SQL this expression stands for, fully parenthesized (as in the explain output).
  const std::string& asSummaryString() const { return sql_; }
  const std::optional<std::string>& alias() const { return alias_; }
  /// "ASC", "DESC" or empty.
  const std::string& ordering() const { return ordering_; }

 private:
  struct SqlText {};
  Expression(SqlText, std::string sql) : sql_(std::move(sql)) {}
  static Expression ofSql(std::string sql) { return Expression(SqlText{}, std::move(sql)); }
  Expression binary(const char* op, const Expression& other) const;
  Expression function(const char* name) const;
  Expression aggregate(const char* name) const;
  Expression interval(const char* unit) const;
  friend Expression col(const std::string& name);
  friend Expression row(const std::vector<Expression>& fields);
  friend Expression array(const std::vector<Expression>& elements);
  friend Expression map(const std::vector<Expression>& keysAndValues);
  friend Expression nullOf(const DataType& type);
  friend Expression callFunction(const std::string& name, const std::vector<Expression>& arguments);
  friend Expression rowInterval(int64_t rows);
  friend struct OverBound;

  std::string sql_;
  std::optional<std::string> alias_;
  std::string ordering_;
  // An aggregate call, kept apart so distinct() can rebuild it.
  std::string aggregateName_;
  std::string aggregateArgument_;
};

/// A column of the table an operation applies to.
Expression col(const std::string& name);
#if defined(__GNUC__)
inline Expression $(const std::string& name) { return col(name); }
#endif
/// A literal; the type follows the C++ type (int32_t INT, int64_t BIGINT, double DOUBLE, bool
/// BOOLEAN, strings CHAR(n) as in Flink).
inline Expression lit(const Expression& value) { return value; }
/// A typed NULL.
Expression nullOf(const DataType& type);
/// ROW(a, b, ...): a row value (its fields are EXPR$0, EXPR$1, ...; also rows for fromValues).
Expression row(const std::vector<Expression>& fields);
/// ARRAY[a, b, ...] (at least one element; they meet at their common type).
Expression array(const std::vector<Expression>& elements);
/// MAP[k1, v1, k2, v2, ...] (keys and values alternate).
Expression map(const std::vector<Expression>& keysAndValues);
/// Over window bounds for `Over::...preceding(..)` (Flink's constants): every row before the
/// current one, counted in rows or in time; `rowInterval(n)`: the n rows before it.
extern const Expression UNBOUNDED_ROW;
extern const Expression UNBOUNDED_RANGE;
extern const Expression CURRENT_ROW;
extern const Expression CURRENT_RANGE;
Expression rowInterval(int64_t rows);

/// A call of a built-in function by name: callFunction("CONCAT", {$("a"), lit("!")}).
Expression callFunction(const std::string& name, const std::vector<Expression>& arguments);

Expression operator+(const Expression& a, const Expression& b);
Expression operator-(const Expression& a, const Expression& b);
Expression operator*(const Expression& a, const Expression& b);
Expression operator/(const Expression& a, const Expression& b);
Expression operator%(const Expression& a, const Expression& b);
Expression operator==(const Expression& a, const Expression& b);
Expression operator!=(const Expression& a, const Expression& b);
Expression operator<(const Expression& a, const Expression& b);
Expression operator<=(const Expression& a, const Expression& b);
Expression operator>(const Expression& a, const Expression& b);
Expression operator>=(const Expression& a, const Expression& b);
Expression operator&&(const Expression& a, const Expression& b);
Expression operator||(const Expression& a, const Expression& b);
Expression operator!(const Expression& a);
Expression operator-(const Expression& a);

}  // namespace eddy
