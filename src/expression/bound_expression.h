// Bound expressions: typed, resolved scalar expressions over the columns of one input row type
// (what the binder makes of the SQL AST and what Calc, Filter, Join conditions and the
// optimizer's folding pass work with). A bound expression is immutable and shared
// (ExpressionPtr); every node carries its result type, nullability included.
//
// Node kinds:
//   ColumnReference  $i: input column i
//   Literal          a Value of a type (a typed NULL literal has a null Value)
//   Call             a resolved scalar function (function/function_registry.h) over arguments
//                    already cast to the function's argument types
//   Cast             CAST / TRY_CAST
//   Case             searched CASE (WHEN c THEN r ... ELSE e END); the simple form, IF, NULLIF
//                    are rewritten into it by the builders
//   Coalesce         COALESCE(a, b, ...)
//   FieldAccess      `row.field`: one field of a ROW value (NULL when the row is NULL)
// IN lists become OR chains of `=`, BETWEEN an AND of `>=` and `<=`, NOT LIKE a NOT of LIKE,
// so the evaluator has few forms to know.
//
// The builders at the bottom apply Flink's type rules (function/type_rules.h): implicit
// widening casts, result types and nullability, and throw ValidationException with Flink's
// (Calcite's) messages, which the binder prefixes with the line and column.
//
// toString() prints the form of Flink's plans: `+($0, 1)`, `CAST($1 AS BIGINT)`,
// `>($2, 500.00)`, `CASE(>($0, 1), 'a', 'b')`, `IS NULL($0)`, `'abc'`, `null:INT`.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eddy/types/logical_type.h"
#include "eddy/types/value.h"
#include "function/function_registry.h"

namespace eddy::expression {

class BoundExpression;
/// Expressions are immutable and shared.
using ExpressionPtr = std::shared_ptr<const BoundExpression>;

/// The kind of a bound expression node.
enum class ExpressionKind {
  kColumnReference,
  kLiteral,
  kCall,
  kCast,
  kCase,
  kCoalesce,
  kFieldAccess
};

/// A typed scalar expression; see the file comment.
class BoundExpression {
 public:
  virtual ~BoundExpression() = default;

  ExpressionKind kind() const { return kind_; }
  /// The result type, nullability included.
  const LogicalTypePtr& type() const { return type_; }
  /// Operands in evaluation order (empty for leaves).
  const std::vector<ExpressionPtr>& children() const { return children_; }
  /// The plan form; see the file comment.
  std::string toString() const { return format(nullptr); }
  /// The plan form with column references printed as `columnNames` (the input's field names,
  /// as Flink's physical plans print them: `>(amount, 10)`).
  std::string toString(const std::vector<std::string>& columnNames) const {
    return format(&columnNames);
  }

  /// Whether the expression reads no input column (so it can be folded).
  bool isConstant() const;
  /// Whether the expression is deterministic (no RAND, ...).
  bool isDeterministic() const;

 protected:
  BoundExpression(ExpressionKind kind, LogicalTypePtr type, std::vector<ExpressionPtr> children)
      : kind_(kind), type_(std::move(type)), children_(std::move(children)) {}

 private:
  virtual std::string format(const std::vector<std::string>* columnNames) const = 0;

  ExpressionKind kind_;
  LogicalTypePtr type_;
  std::vector<ExpressionPtr> children_;
};

/// $index: the input column at `index`.
class ColumnReference final : public BoundExpression {
 public:
  ColumnReference(int index, LogicalTypePtr type)
      : BoundExpression(ExpressionKind::kColumnReference, std::move(type), {}), index_(index) {}
  int index() const { return index_; }
  std::string format(const std::vector<std::string>* columnNames) const override;

 private:
  int index_;
};

/// A constant of a type; a null `value` is a typed NULL.
class Literal final : public BoundExpression {
 public:
  Literal(Value value, LogicalTypePtr type)
      : BoundExpression(ExpressionKind::kLiteral, std::move(type), {}), value_(std::move(value)) {}
  const Value& value() const { return value_; }
  /// Flink's literal forms: 1, 500.00, 1.5E0, 'abc', TRUE, 2021-08-21, null:INT.
  std::string format(const std::vector<std::string>* columnNames) const override;

 private:
  Value value_;
};

/// A call of a resolved scalar function.
class Call final : public BoundExpression {
 public:
  Call(const function::ScalarFunction* function, function::BoundScalarFunction bound,
       std::vector<ExpressionPtr> arguments)
      : BoundExpression(ExpressionKind::kCall, bound.returnType, std::move(arguments)),
        function_(function),
        bound_(std::move(bound)) {}
  const function::ScalarFunction& function() const { return *function_; }
  const function::BoundScalarFunction& bound() const { return bound_; }
  std::string format(const std::vector<std::string>* columnNames) const override;

 private:
  const function::ScalarFunction* function_;  // owned by the (immortal) registry
  function::BoundScalarFunction bound_;
};

/// CAST(operand AS type) or TRY_CAST (whose type is always nullable). A cast between
/// TIMESTAMP_LTZ and a zoneless type reads instants in the session time zone it was bound in.
class Cast final : public BoundExpression {
 public:
  Cast(ExpressionPtr operand, LogicalTypePtr type, bool tryCast,
       common::SessionTimeZone sessionTimeZone = {})
      : BoundExpression(ExpressionKind::kCast, std::move(type), {std::move(operand)}),
        tryCast_(tryCast),
        sessionTimeZone_(std::move(sessionTimeZone)) {}
  const ExpressionPtr& operand() const { return children()[0]; }
  bool isTryCast() const { return tryCast_; }
  const common::SessionTimeZone& sessionTimeZone() const { return sessionTimeZone_; }
  std::string format(const std::vector<std::string>* columnNames) const override;

 private:
  bool tryCast_;
  common::SessionTimeZone sessionTimeZone_;
};

/// Searched CASE: children are when0, then0, when1, then1, ..., else.
class Case final : public BoundExpression {
 public:
  Case(std::vector<ExpressionPtr> children, LogicalTypePtr type)
      : BoundExpression(ExpressionKind::kCase, std::move(type), std::move(children)) {}
  int branchCount() const { return static_cast<int>(children().size() / 2); }
  const ExpressionPtr& when(int branch) const { return children()[2 * branch]; }
  const ExpressionPtr& then(int branch) const { return children()[2 * branch + 1]; }
  const ExpressionPtr& elseResult() const { return children().back(); }
  std::string format(const std::vector<std::string>* columnNames) const override;
};

/// COALESCE(a, b, ...): the first non-NULL argument.
class Coalesce final : public BoundExpression {
 public:
  Coalesce(std::vector<ExpressionPtr> arguments, LogicalTypePtr type)
      : BoundExpression(ExpressionKind::kCoalesce, std::move(type), std::move(arguments)) {}
  std::string format(const std::vector<std::string>* columnNames) const override;
};

/// `operand.field`: field `fieldIndex` of a ROW operand; the result is the field's type, made
/// nullable when the row is. Printed as Flink's plans print it: `$1.id`.
class FieldAccess final : public BoundExpression {
 public:
  FieldAccess(ExpressionPtr operand, int fieldIndex, LogicalTypePtr type)
      : BoundExpression(ExpressionKind::kFieldAccess, std::move(type), {std::move(operand)}),
        fieldIndex_(fieldIndex) {}
  const ExpressionPtr& operand() const { return children()[0]; }
  int fieldIndex() const { return fieldIndex_; }
  const std::string& fieldName() const {
    return operand()->type()->getFields()[static_cast<size_t>(fieldIndex_)].name;
  }
  std::string format(const std::vector<std::string>* columnNames) const override;

 private:
  int fieldIndex_;
};

// --- Builders (Flink's type rules; ValidationException on misuse). Any thread. ---

/// $index of `type`.
ExpressionPtr column(int index, LogicalTypePtr type);
/// A literal of `value`'s natural type: INT, BIGINT, DOUBLE, DECIMAL(p, s) of the value,
/// CHAR(n) for strings (as SQL literals), BOOLEAN, DATE, TIME(p), TIMESTAMP(p), all NOT NULL.
ExpressionPtr literal(const Value& value);
/// A literal of an explicit type (a null value gives a typed NULL literal).
ExpressionPtr literal(Value value, LogicalTypePtr type);
/// The untyped NULL literal (type NULL); calls cast it to what they need.
ExpressionPtr nullLiteral();

/// A call of the built-in function `name` (any case), e.g. call("+", {a, b}), call("UPPER",
/// {s}), call("IS NULL", {x}). Inserts the implicit casts the function asks for.
ExpressionPtr call(std::string_view name, std::vector<ExpressionPtr> arguments,
                   const function::FunctionRegistry& registry =
                       function::FunctionRegistry::builtIn());
/// The same, bound in `context` (the session time zone; the builders without a context bind
/// in UTC).
ExpressionPtr call(
    std::string_view name, std::vector<ExpressionPtr> arguments,
    const function::BindingContext& context,
    const function::FunctionRegistry& registry = function::FunctionRegistry::builtIn());
/// CAST(operand AS type); the type's nullability is adjusted to the operand's. Throws
/// "Cast function cannot convert value of type BOOLEAN to type DATE".
ExpressionPtr cast(ExpressionPtr operand, LogicalTypePtr type,
                   const function::BindingContext& context = {});
/// TRY_CAST(operand AS type): NULL instead of a failure; always nullable.
ExpressionPtr tryCast(ExpressionPtr operand, LogicalTypePtr type,
                      const function::BindingContext& context = {});
/// An implicit cast when the operand's type differs from `type` (up to nullability).
ExpressionPtr castIfNeeded(ExpressionPtr operand, const LogicalTypePtr& type,
                           const function::BindingContext& context = {});

/// Searched CASE WHEN conditions[i] THEN results[i] ... ELSE elseResult END (no ELSE: pass
/// nullptr for ELSE NULL). Conditions must be BOOLEAN; results merge to their least
/// restrictive type ("Illegal mixing of types in CASE or COALESCE statement" otherwise).
ExpressionPtr caseWhen(std::vector<ExpressionPtr> conditions, std::vector<ExpressionPtr> results,
                       ExpressionPtr elseResult);
/// Simple CASE operand WHEN values[i] THEN results[i] ... ELSE e END, rewritten to searched
/// form with `=`.
ExpressionPtr simpleCase(ExpressionPtr operand, std::vector<ExpressionPtr> values,
                         std::vector<ExpressionPtr> results, ExpressionPtr elseResult);
ExpressionPtr coalesce(std::vector<ExpressionPtr> arguments);
/// `operand.field` (case-sensitive, as Flink's default). Throws ValidationException when the
/// operand is not a ROW ("Cannot access field 'x' of type INT") or has no such field
/// ("Unknown field 'x' in ROW<`id` BIGINT, ...>").
ExpressionPtr fieldAccess(ExpressionPtr operand, std::string_view field);
/// NULLIF(a, b) = CASE WHEN a = b THEN NULL ELSE a END.
ExpressionPtr nullIf(ExpressionPtr left, ExpressionPtr right);
/// IF(condition, a, b) = CASE WHEN condition THEN a ELSE b END.
ExpressionPtr ifThenElse(ExpressionPtr condition, ExpressionPtr then, ExpressionPtr otherwise);
/// value [NOT] IN (list...): an OR chain of `=` (SQL's NULL semantics follow from it).
ExpressionPtr in(ExpressionPtr value, std::vector<ExpressionPtr> list, bool negated = false);
/// value [NOT] BETWEEN low AND high (ASYMMETRIC).
ExpressionPtr between(ExpressionPtr value, ExpressionPtr low, ExpressionPtr high,
                      bool negated = false);
/// AND / OR of several predicates (left-deep).
ExpressionPtr conjunction(std::vector<ExpressionPtr> predicates);
ExpressionPtr disjunction(std::vector<ExpressionPtr> predicates);

// --- Rewriting (the planner's passes). ---

/// `expression` with every column reference $i replaced by $map(i) (types unchanged); nodes
/// without column references below them are shared, not copied.
ExpressionPtr remapColumns(const ExpressionPtr& expression, const std::function<int(int)>& map);
/// `expression` over a projection's output rewritten over the projection's input: column $i
/// becomes `projections[i]`.
ExpressionPtr inlineColumns(const ExpressionPtr& expression,
                            const std::vector<ExpressionPtr>& projections);
/// `expression` with other operands (as many, of the same types); leaves are returned as they
/// are. Types and functions are kept: no casts are inserted again.
ExpressionPtr withChildren(const ExpressionPtr& expression, std::vector<ExpressionPtr> children);
/// Appends to `out` the index of every column `expression` reads (with repeats).
void collectColumns(const ExpressionPtr& expression, std::vector<int>& out);
/// The operands of an AND chain (the expression itself when it is no AND).
std::vector<ExpressionPtr> conjunctsOf(const ExpressionPtr& predicate);
/// Whether `expression` is the literal TRUE.
bool isLiteralTrue(const ExpressionPtr& expression);
/// Whether `expression` is a call of the function `name` (upper case, e.g. "=", "AND").
bool isCallTo(const BoundExpression& expression, std::string_view name);

}  // namespace eddy::expression
