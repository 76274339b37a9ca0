// The abstract syntax tree of Flink's SQL dialect, as the parser (parser.h) produces it and the
// binder consumes it. It records what was written, not what it means: names are unresolved,
// functions are unknown, and only the syntax is checked. Types written in SQL (CAST, column
// definitions) are the exception: they are built at parse time with the types module, so a bad
// type such as DECIMAL(40, 2) is a parse error with its position.
//
// Shape: four small class hierarchies, each with a kind enum (Expression, Query,
// TableReference, Statement). A node is a plain struct with public fields; children are owned
// through std::unique_ptr, optional children are null pointers. `is<T>()` tests the kind and
// `as<T>()` casts to the concrete struct. Every node carries the SourcePosition (1-based line
// and column) of its first token, which the binder uses in its error messages.
//
// The tree is normalized where SQL offers two spellings of one thing: `!=` is `<>`, MINUS is
// EXCEPT, `x::T` is CAST, FETCH FIRST n ROWS ONLY is a fetch like LIMIT n, plural interval units
// are singular, column-level PRIMARY KEY becomes the table's primary key. unparse() (unparse.h)
// prints this normalized form, and parsing the printed text gives the same tree.
//
// Nodes are built by one thread and immutable afterwards; any thread may read them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eddy/types/logical_type.h"
#include "relational/join_type.h"

namespace eddy::sql {

/// A 1-based line and column in the SQL text. Columns count characters (UTF-8 code points).
struct SourcePosition {
  int line = 0;
  int column = 0;

  bool operator==(const SourcePosition& other) const = default;
};

/// Base of every node: a virtual destructor (so unparse(const Node&) can dispatch) and the
/// position of the node's first token.
struct Node {
  virtual ~Node() = default;
  SourcePosition position;
};

/// A possibly qualified name as written: `t`, `db.t`, `cat.db.t`. Each part keeps its spelling.
using QualifiedName = std::vector<std::string>;

// Mixin for the kind-tagged hierarchies: `is<T>()` and `as<T>()` on a base with a `kind` field.
template <typename Kind>
struct KindTagged : Node {
  explicit KindTagged(Kind nodeKind) : kind(nodeKind) {}
  const Kind kind;

  template <typename T>
  bool is() const {
    return kind == T::kKind;
  }
  /// The node as its concrete type; the caller has checked `is<T>()`.
  template <typename T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
  template <typename T>
  T& as() {
    return static_cast<T&>(*this);
  }
};

struct Query;
using QueryPtr = std::unique_ptr<Query>;

// ------------------------------------------------------------------------------------------
// Expressions
// ------------------------------------------------------------------------------------------

/// The kinds of expression nodes, one per struct below.
enum class ExpressionKind {
  kIdentifier,
  kLiteral,
  kIntervalLiteral,
  kParameter,
  kStar,
  kUnary,
  kBinary,
  kIs,
  kBetween,
  kLike,
  kIn,
  kExists,
  kSubquery,
  kCase,
  kCast,
  kFunctionCall,
  kSymbol,
  kConstructor,
  kElementAccess,
  kFieldAccess,
  kDescriptor,
  kTableArgument,
  kNamedArgument,
};

/// Base of all expressions.
struct Expression : KindTagged<ExpressionKind> {
  using KindTagged::KindTagged;
};
using ExpressionPtr = std::unique_ptr<Expression>;

/// A column or field reference: `a`, `t.a`, `cat.db.t.a` (resolved by the binder).
struct IdentifierExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kIdentifier;
  IdentifierExpression() : Expression(kKind) {}
  QualifiedName names;
};

enum class LiteralKind {
  kExactNumeric,        // 12, 12.50 (text as written)
  kApproximateNumeric,  // 1.5E3 (text as written, exponent marker upper case)
  kString,              // 'it''s' (value unescaped: it's)
  kBinaryString,        // X'0AFF' (value: the hex digits)
  kBoolean,             // TRUE / FALSE (value: "TRUE" or "FALSE")
  kNull,                // NULL (value empty)
  kDate,                // DATE '2024-01-31'
  kTime,                // TIME '12:00:00'
  kTimestamp,           // TIMESTAMP '2024-01-31 12:00:00'
  kTimestampLtz,        // TIMESTAMP WITH LOCAL TIME ZONE '2024-01-31 12:00:00'
};

/// A literal. Numbers stay text so that the binder chooses their type (INT, BIGINT, DECIMAL,
/// DOUBLE) with Flink's rules; typed literals keep their string unparsed.
struct LiteralExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kLiteral;
  LiteralExpression() : Expression(kKind) {}
  LiteralKind literalKind = LiteralKind::kNull;
  std::string value;
};

/// The units of an interval qualifier.
enum class TimeUnit { kYear, kMonth, kDay, kHour, kMinute, kSecond };

/// The unit's SQL keyword, as written in an interval qualifier: `YEAR`, `MONTH`, ... `SECOND`.
inline std::string_view intervalUnitKeyword(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kYear:
      return "YEAR";
    case TimeUnit::kMonth:
      return "MONTH";
    case TimeUnit::kDay:
      return "DAY";
    case TimeUnit::kHour:
      return "HOUR";
    case TimeUnit::kMinute:
      return "MINUTE";
    case TimeUnit::kSecond:
      return "SECOND";
  }
  return "";
}

/// `HOUR`, `DAY(3) TO SECOND(6)`, `SECOND(2, 3)`. Precisions are -1 when not written.
struct IntervalQualifier {
  TimeUnit start = TimeUnit::kSecond;
  int startPrecision = -1;
  std::optional<TimeUnit> end;
  /// The fractional-second precision: of the end unit SECOND, or the second parameter of a
  /// lone SECOND(p, f).
  int fractionalPrecision = -1;

  bool operator==(const IntervalQualifier& other) const = default;
};

/// `INTERVAL '5' MINUTE`, `INTERVAL '1:30' HOUR TO MINUTE`, `INTERVAL -'5' SECOND`.
struct IntervalLiteralExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kIntervalLiteral;
  IntervalLiteralExpression() : Expression(kKind) {}
  bool negative = false;
  std::string value;  // the string as written inside the quotes
  IntervalQualifier qualifier;
};

/// A dynamic parameter `?`; `index` counts them from 0 in the order of the text.
struct ParameterExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kParameter;
  ParameterExpression() : Expression(kKind) {}
  int index = 0;
};

/// `*` or `t.*` in a select list, and the `*` of COUNT(*).
struct StarExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kStar;
  StarExpression() : Expression(kKind) {}
  QualifiedName qualifier;  // empty for a bare `*`
};

enum class UnaryOperator { kNot, kMinus, kPlus };

struct UnaryExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kUnary;
  UnaryExpression() : Expression(kKind) {}
  UnaryOperator op = UnaryOperator::kNot;
  ExpressionPtr operand;
};

enum class BinaryOperator {
  kOr,
  kAnd,
  kEquals,
  kNotEquals,  // <> and !=
  kLessThan,
  kLessThanOrEqual,
  kGreaterThan,
  kGreaterThanOrEqual,
  kIsDistinctFrom,
  kIsNotDistinctFrom,
  kPlus,
  kMinus,
  kMultiply,
  kDivide,
  kModulo,
  kConcat,  // ||
};

struct BinaryExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kBinary;
  BinaryExpression() : Expression(kKind) {}
  BinaryOperator op = BinaryOperator::kAnd;
  ExpressionPtr left;
  ExpressionPtr right;
};

enum class IsPredicate { kNull, kTrue, kFalse, kUnknown, kJson, kJsonValue, kJsonScalar, kJsonArray, kJsonObject };

/// `x IS [NOT] NULL | TRUE | FALSE | UNKNOWN | JSON [VALUE | SCALAR | ARRAY | OBJECT]`.
struct IsExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kIs;
  IsExpression() : Expression(kKind) {}
  ExpressionPtr operand;
  IsPredicate predicate = IsPredicate::kNull;
  bool negated = false;
};

/// `x [NOT] BETWEEN [ASYMMETRIC | SYMMETRIC] lower AND upper` (ASYMMETRIC is the default).
struct BetweenExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kBetween;
  BetweenExpression() : Expression(kKind) {}
  ExpressionPtr operand;
  ExpressionPtr lower;
  ExpressionPtr upper;
  bool negated = false;
  bool symmetric = false;
};

/// `x [NOT] LIKE pattern [ESCAPE c]` and `x [NOT] SIMILAR TO pattern [ESCAPE c]`.
struct LikeExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kLike;
  LikeExpression() : Expression(kKind) {}
  bool similarTo = false;
  bool negated = false;
  ExpressionPtr operand;
  ExpressionPtr pattern;
  ExpressionPtr escape;  // null when absent
};

/// `x [NOT] IN (a, b, ...)` (values) or `x [NOT] IN (SELECT ...)` (subquery).
struct InExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kIn;
  InExpression() : Expression(kKind) {}
  ExpressionPtr operand;
  bool negated = false;
  std::vector<ExpressionPtr> values;  // empty when `subquery` is set
  QueryPtr subquery;
};

/// `EXISTS (query)`.
struct ExistsExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kExists;
  ExistsExpression() : Expression(kKind) {}
  QueryPtr query;
};

/// A scalar subquery `(SELECT ...)` in an expression.
struct SubqueryExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kSubquery;
  SubqueryExpression() : Expression(kKind) {}
  QueryPtr query;
};

struct WhenClause {
  ExpressionPtr condition;  // the compared value in a simple CASE
  ExpressionPtr result;
};

/// `CASE [operand] WHEN .. THEN .. [ELSE ..] END`.
struct CaseExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kCase;
  CaseExpression() : Expression(kKind) {}
  ExpressionPtr operand;  // null for a searched CASE
  std::vector<WhenClause> whenClauses;
  ExpressionPtr elseResult;  // null when absent
};

/// `CAST(x AS type)`, `TRY_CAST(x AS type)` and `x::type`.
struct CastExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kCast;
  CastExpression() : Expression(kKind) {}
  ExpressionPtr operand;
  LogicalTypePtr targetType;
  bool tryCast = false;
};

/// How a function call is written. Special forms keep their keywords when printed.
enum class FunctionSyntax {
  kRegular,      // f(a, b)
  kNiladic,      // CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIME, LOCALTIMESTAMP
  kExtract,      // EXTRACT(unit FROM x): arguments [Symbol unit, x]
  kFloorCeilTo,  // FLOOR(x TO unit) / CEIL(x TO unit): arguments [x, Symbol unit]
  kPosition,     // POSITION(a IN b): arguments [a, b]
  kSubstring,    // SUBSTRING(s FROM a [FOR b]): arguments [s, a, (b)]
  kTrim,         // TRIM([flag] [chars] FROM s): arguments [Symbol flag, chars, s], defaults
                 // BOTH and ' ' filled in
  kOverlay,      // OVERLAY(s PLACING r FROM p [FOR n]): arguments [s, r, p, (n)]
  kJson,         // JSON_OBJECT(k VALUE v, ..), JSON_ARRAY, JSON_VALUE/QUERY/EXISTS with their
                 // clauses (FunctionCallExpression::json); JSON_OBJECT's arguments are
                 // [k1, v1, k2, v2, ..]
};

/// The clauses of a JSON function call, as written ("" when absent).
struct JsonClauses {
  std::string onNull;           // JSON_OBJECT, JSON_ARRAY: "NULL" or "ABSENT" (ON NULL)
  LogicalTypePtr returning;     // JSON_VALUE, JSON_QUERY: RETURNING type, null when absent
  std::string wrapper;          // JSON_QUERY: "WITHOUT", "CONDITIONAL" or "UNCONDITIONAL"
  std::string onEmpty;          // "NULL", "ERROR", "DEFAULT", "EMPTY ARRAY", "EMPTY OBJECT"
  std::string onError;          // the same, or JSON_EXISTS's "TRUE", "FALSE", "UNKNOWN"
  ExpressionPtr emptyDefault;   // DEFAULT expr ON EMPTY
  ExpressionPtr errorDefault;   // DEFAULT expr ON ERROR
};

enum class FrameUnit { kRows, kRange };
enum class FrameBoundKind {
  kUnboundedPreceding,
  kPreceding,
  kCurrentRow,
  kFollowing,
  kUnboundedFollowing
};

struct FrameBound {
  FrameBoundKind kind = FrameBoundKind::kCurrentRow;
  ExpressionPtr offset;  // for kPreceding and kFollowing
};

/// `ROWS|RANGE start` or `ROWS|RANGE BETWEEN start AND end`.
struct WindowFrame {
  FrameUnit unit = FrameUnit::kRows;
  FrameBound start;
  std::optional<FrameBound> end;  // absent without BETWEEN
};

/// One ORDER BY item: `expr [ASC|DESC] [NULLS FIRST|LAST]`.
enum class NullOrdering { kDefault, kNullsFirst, kNullsLast };
struct OrderItem {
  ExpressionPtr expression;
  bool descending = false;
  NullOrdering nullOrdering = NullOrdering::kDefault;
};

/// The window of an OVER clause or a WINDOW definition: `(w PARTITION BY .. ORDER BY ..
/// ROWS ..)`. `OVER w` is a specification with only `referenceName`.
struct WindowSpecification : Node {
  std::string referenceName;  // empty when not based on a named window
  std::vector<ExpressionPtr> partitionBy;
  std::vector<OrderItem> orderBy;
  std::optional<WindowFrame> frame;
};

/// A function call, aggregate or not: `f(a, b)`, `COUNT(*)` (argument a StarExpression),
/// `COUNT(DISTINCT x)`, `agg(x) FILTER (WHERE c)`, `f(..) OVER (..)`, the special forms of
/// FunctionSyntax, and window TVF calls `TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL ..)`.
/// Unquoted one-part names are stored upper case (function names are case-insensitive).
struct FunctionCallExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kFunctionCall;
  FunctionCallExpression() : Expression(kKind) {}
  QualifiedName name;
  bool quotedName = false;  // written in backquotes or qualified: printed in backquotes
  FunctionSyntax syntax = FunctionSyntax::kRegular;
  bool distinct = false;
  std::vector<ExpressionPtr> arguments;
  ExpressionPtr filter;                       // FILTER (WHERE ..), null when absent
  std::unique_ptr<WindowSpecification> over;  // OVER .., null when absent
  std::unique_ptr<JsonClauses> json;          // FunctionSyntax::kJson
};

/// A keyword argument of a special form: a time unit (`YEAR`, `DOW`, `MILLISECOND`) of
/// EXTRACT, FLOOR/CEIL .. TO, TIMESTAMPADD and TIMESTAMPDIFF, or a TRIM flag.
struct SymbolExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kSymbol;
  SymbolExpression() : Expression(kKind) {}
  std::string name;  // upper case, plural units made singular
};

enum class ConstructorKind { kArray, kMap, kRow };

/// `ARRAY[a, b]`, `MAP[k1, v1, k2, v2]`, `ROW(a, b)` and the implicit row `(a, b)`.
struct ConstructorExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kConstructor;
  ConstructorExpression() : Expression(kKind) {}
  ConstructorKind constructorKind = ConstructorKind::kRow;
  std::vector<ExpressionPtr> elements;
};

/// `base[index]`: array element (1-based) or map value.
struct ElementAccessExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kElementAccess;
  ElementAccessExpression() : Expression(kKind) {}
  ExpressionPtr base;
  ExpressionPtr index;
};

/// `(expr).field` or `a[1].field`. `r.f` on a column is an IdentifierExpression instead.
struct FieldAccessExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kFieldAccess;
  FieldAccessExpression() : Expression(kKind) {}
  ExpressionPtr base;
  std::string field;
};

/// `DESCRIPTOR(col, ..)`: the time column argument of a window TVF.
struct DescriptorExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kDescriptor;
  DescriptorExpression() : Expression(kKind) {}
  std::vector<std::string> columns;
};

/// `TABLE t [PARTITION BY k | PARTITION BY (k1, k2)]`: a table argument of a table-valued
/// function (SESSION windows take the partition keys here).
struct TableArgumentExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kTableArgument;
  TableArgumentExpression() : Expression(kKind) {}
  QualifiedName tableName;
  std::vector<std::string> partitionBy;
};

/// `name => value`: a named argument of a function call.
struct NamedArgumentExpression : Expression {
  static constexpr ExpressionKind kKind = ExpressionKind::kNamedArgument;
  NamedArgumentExpression() : Expression(kKind) {}
  std::string name;
  ExpressionPtr value;
};

// ------------------------------------------------------------------------------------------
// Table references (the FROM clause)
// ------------------------------------------------------------------------------------------

enum class TableReferenceKind { kNamedTable, kDerivedTable, kTableFunction, kUnnest, kJoin };

/// Base of FROM items. Every item but a join may carry `[AS] alias [(column aliases)]`.
struct TableReference : KindTagged<TableReferenceKind> {
  using KindTagged::KindTagged;
  std::optional<std::string> alias;
  std::vector<std::string> columnAliases;
};
using TableReferencePtr = std::unique_ptr<TableReference>;

/// `'key' = 'value'` of a WITH, SET or ALTER .. SET clause.
struct TableOption {
  std::string key;
  std::string value;
  SourcePosition position;
};

/// `[cat.][db.]t [FOR SYSTEM_TIME AS OF expr]`.
struct NamedTableReference : TableReference {
  static constexpr TableReferenceKind kKind = TableReferenceKind::kNamedTable;
  NamedTableReference() : TableReference(kKind) {}
  QualifiedName name;
  ExpressionPtr systemTimeAsOf;  // null when absent
  /// `t /*+ OPTIONS('k' = 'v', ..) */`: Flink's dynamic table options, over the table's own.
  std::vector<TableOption> hintOptions;
  bool hasOptionsHint = false;
  SourcePosition hintPosition;
};

/// `(query)` or `LATERAL (query)`, including `(VALUES ..)`.
struct DerivedTableReference : TableReference {
  static constexpr TableReferenceKind kKind = TableReferenceKind::kDerivedTable;
  DerivedTableReference() : TableReference(kKind) {}
  QueryPtr query;
  bool lateral = false;
};

/// `TABLE(f(..))` (window TVFs: TUMBLE, HOP, CUMULATE, SESSION) or `LATERAL TABLE(f(..))`.
struct TableFunctionReference : TableReference {
  static constexpr TableReferenceKind kKind = TableReferenceKind::kTableFunction;
  TableFunctionReference() : TableReference(kKind) {}
  std::unique_ptr<FunctionCallExpression> call;
  bool lateral = false;
};

/// `UNNEST(expr, ..) [WITH ORDINALITY]`.
struct UnnestReference : TableReference {
  static constexpr TableReferenceKind kKind = TableReferenceKind::kUnnest;
  UnnestReference() : TableReference(kKind) {}
  std::vector<ExpressionPtr> arguments;
  bool withOrdinality = false;
};

/// How a join is written: `JOIN` with its type (INNER, LEFT, RIGHT, FULL), `CROSS JOIN`, or the
/// implicit cross join `FROM a, b` (both INNER without a condition).
enum class JoinSyntax { kJoin, kCross, kComma };

/// `left [NATURAL] [INNER|LEFT|RIGHT|FULL [OUTER]|CROSS] JOIN right [ON cond | USING (cols)]`.
struct JoinReference : TableReference {
  static constexpr TableReferenceKind kKind = TableReferenceKind::kJoin;
  JoinReference() : TableReference(kKind) {}
  JoinSyntax syntax = JoinSyntax::kJoin;
  relational::JoinType joinType = relational::JoinType::INNER;  // INNER, LEFT, RIGHT or FULL
  TableReferencePtr left;
  TableReferencePtr right;
  ExpressionPtr condition;                // ON, null when absent
  std::vector<std::string> usingColumns;  // USING, empty when absent
  bool natural = false;                   // NATURAL: USING the columns both sides name
};

// ------------------------------------------------------------------------------------------
// Queries
// ------------------------------------------------------------------------------------------

enum class QueryKind { kSelect, kSetOperation, kValues, kWith, kOrderBy };

/// Base of query expressions. Like Calcite's tree: ORDER BY/LIMIT/OFFSET/FETCH wrap a query
/// (OrderByQuery) and WITH wraps its body (WithQuery); parentheses leave no node.
struct Query : KindTagged<QueryKind> {
  using KindTagged::KindTagged;
};

/// `expr [[AS] alias]`, `*` or `t.*`.
struct SelectItem {
  ExpressionPtr expression;
  std::optional<std::string> alias;
};

enum class GroupingKind { kExpression, kList, kGroupingSets, kRollup, kCube };

/// One element of GROUP BY: an expression, a parenthesized list `(a, b)` or `()`,
/// `GROUPING SETS (..)`, `ROLLUP (..)` or `CUBE (..)`.
struct GroupingElement {
  GroupingKind kind = GroupingKind::kExpression;
  ExpressionPtr expression;                // kExpression
  std::vector<ExpressionPtr> expressions;  // kList
  std::vector<GroupingElement> children;   // kGroupingSets, kRollup, kCube
};

/// `WINDOW name AS (specification)`.
struct NamedWindow {
  std::string name;
  std::unique_ptr<WindowSpecification> specification;
  SourcePosition position;
};

/// `SELECT [DISTINCT] items [FROM ..] [WHERE ..] [GROUP BY ..] [HAVING ..] [WINDOW ..]`.
struct SelectQuery : Query {
  static constexpr QueryKind kKind = QueryKind::kSelect;
  SelectQuery() : Query(kKind) {}
  bool distinct = false;
  std::vector<SelectItem> items;
  TableReferencePtr from;  // null without FROM
  ExpressionPtr where;
  std::vector<GroupingElement> groupBy;
  ExpressionPtr having;
  std::vector<NamedWindow> windows;
};

/// MINUS is EXCEPT.
enum class SetOperator { kUnion, kIntersect, kExcept };

/// `left UNION|INTERSECT|EXCEPT [ALL|DISTINCT] right`; INTERSECT binds tighter.
struct SetOperationQuery : Query {
  static constexpr QueryKind kKind = QueryKind::kSetOperation;
  SetOperationQuery() : Query(kKind) {}
  SetOperator op = SetOperator::kUnion;
  bool all = false;
  QueryPtr left;
  QueryPtr right;
};

/// `VALUES (a, b), (c, d)`; a row written without parentheses has one column.
struct ValuesQuery : Query {
  static constexpr QueryKind kKind = QueryKind::kValues;
  ValuesQuery() : Query(kKind) {}
  std::vector<std::vector<ExpressionPtr>> rows;
};

/// `name [(columns)] AS (query)`.
struct WithItem {
  std::string name;
  std::vector<std::string> columns;
  QueryPtr query;
  SourcePosition position;
};

/// `WITH item, .. body`.
struct WithQuery : Query {
  static constexpr QueryKind kKind = QueryKind::kWith;
  WithQuery() : Query(kKind) {}
  std::vector<WithItem> items;
  QueryPtr body;
};

/// `query ORDER BY .. [LIMIT n | FETCH FIRST n ROWS ONLY] [OFFSET m ROWS]`. At least one of
/// the clauses is present.
struct OrderByQuery : Query {
  static constexpr QueryKind kKind = QueryKind::kOrderBy;
  OrderByQuery() : Query(kKind) {}
  QueryPtr query;
  std::vector<OrderItem> orderBy;
  ExpressionPtr offset;  // null when absent
  ExpressionPtr fetch;   // LIMIT or FETCH, null when absent (or LIMIT ALL)
};

// ------------------------------------------------------------------------------------------
// Statements
// ------------------------------------------------------------------------------------------

enum class StatementKind {
  kQuery,
  kInsert,
  kCreateTable,
  kCreateView,
  kCreateDatabase,
  kCreateCatalog,
  kDrop,
  kAlterTable,
  kUseCatalog,
  kUseDatabase,
  kShow,
  kDescribe,
  kExplain,
  kSet,
  kReset,
  kStatementSet,
  kExecute,
  kStopJob,
};

/// Base of statements. `sourceText` is the statement's own text in the script (without the
/// terminating `;`), for error messages and EXPLAIN; `position` is where it starts.
struct Statement : KindTagged<StatementKind> {
  using KindTagged::KindTagged;
  std::string sourceText;
};
using StatementPtr = std::unique_ptr<Statement>;

/// A query as a statement.
struct QueryStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kQuery;
  QueryStatement() : Statement(kKind) {}
  QueryPtr query;
};

/// `column = value` of a static PARTITION clause.
struct PartitionValue {
  std::string column;
  ExpressionPtr value;
};

/// `INSERT INTO|OVERWRITE t [PARTITION (k = v, ..)] [(columns)] query`.
struct InsertStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kInsert;
  InsertStatement() : Statement(kKind) {}
  QualifiedName tableName;
  bool overwrite = false;
  std::vector<PartitionValue> partition;
  std::vector<std::string> columns;
  QueryPtr query;
};

enum class ColumnKind { kPhysical, kComputed, kMetadata };

/// A column of CREATE TABLE or ALTER TABLE ADD: `name TYPE`, `name AS expr` (computed) or
/// `name TYPE METADATA [FROM 'key'] [VIRTUAL]`, each with an optional COMMENT.
struct TableColumn {
  ColumnKind kind = ColumnKind::kPhysical;
  std::string name;
  LogicalTypePtr type;                     // null for computed columns and for a bare name
                                           // (`CREATE TABLE t (c, b) AS SELECT ..`)
  ExpressionPtr expression;                // computed columns
  std::optional<std::string> metadataKey;  // METADATA FROM 'key'
  bool isVirtual = false;                  // METADATA .. VIRTUAL
  std::optional<std::string> comment;
  SourcePosition position;
  /// ALTER TABLE ADD/MODIFY: `FIRST` or `AFTER column` (kDefault: ADD appends, MODIFY keeps
  /// the column's place).
  enum class Placement { kDefault, kFirst, kAfter } placement = Placement::kDefault;
  std::string afterColumn;  // kAfter
};

/// `WATERMARK FOR column AS expression`.
struct WatermarkDefinition {
  QualifiedName column;
  ExpressionPtr expression;
  SourcePosition position;
};

/// `[CONSTRAINT name] PRIMARY KEY (columns) [NOT ENFORCED]`. Flink accepts only NOT ENFORCED;
/// the binder rejects `notEnforced == false` with Flink's message.
struct PrimaryKeyConstraint {
  std::optional<std::string> name;
  std::vector<std::string> columns;
  bool notEnforced = false;
  SourcePosition position;
};


enum class LikeStrategy { kIncluding, kExcluding, kOverwriting };
enum class LikeFeature {
  kAll,
  kConstraints,
  kGenerated,
  kMetadata,
  kOptions,
  kPartitions,
  kWatermarks
};
struct LikeOption {
  LikeStrategy strategy = LikeStrategy::kIncluding;
  LikeFeature feature = LikeFeature::kAll;
};

/// `LIKE source [(INCLUDING ALL ..)]` of CREATE TABLE.
struct LikeClause {
  QualifiedName sourceTable;
  std::vector<LikeOption> options;
  SourcePosition position;
};

/// `CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name (schema) [COMMENT ..] [PARTITIONED BY (..)]
/// [WITH (..)] [LIKE ..] [AS query]`.
struct CreateTableStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateTable;
  CreateTableStatement() : Statement(kKind) {}
  QualifiedName tableName;
  bool temporary = false;
  bool ifNotExists = false;
  std::vector<TableColumn> columns;
  std::vector<WatermarkDefinition> watermarks;
  std::optional<PrimaryKeyConstraint> primaryKey;
  std::optional<std::string> comment;
  std::vector<std::string> partitionKeys;
  std::vector<TableOption> options;
  std::optional<LikeClause> like;
  QueryPtr asQuery;  // CREATE TABLE .. AS query
  /// `REPLACE TABLE .. AS query` (the table must exist) and `CREATE OR REPLACE TABLE .. AS
  /// query` (RTAS: the table is dropped if it exists, then created and filled).
  enum class Replace { kNo, kReplace, kCreateOrReplace };
  Replace replace = Replace::kNo;
};

/// `CREATE [TEMPORARY] VIEW [IF NOT EXISTS] name [(columns)] [COMMENT ..] AS query`.
struct CreateViewStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateView;
  CreateViewStatement() : Statement(kKind) {}
  QualifiedName viewName;
  bool temporary = false;
  bool ifNotExists = false;
  std::vector<std::string> columns;
  std::optional<std::string> comment;
  QueryPtr query;
};

/// `CREATE DATABASE [IF NOT EXISTS] [cat.]db [COMMENT ..] [WITH (..)]`.
struct CreateDatabaseStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateDatabase;
  CreateDatabaseStatement() : Statement(kKind) {}
  QualifiedName databaseName;
  bool ifNotExists = false;
  std::optional<std::string> comment;
  std::vector<TableOption> options;
};

/// `CREATE CATALOG [IF NOT EXISTS] name [COMMENT ..] WITH (..)`.
struct CreateCatalogStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kCreateCatalog;
  CreateCatalogStatement() : Statement(kKind) {}
  std::string catalogName;
  bool ifNotExists = false;
  std::optional<std::string> comment;
  std::vector<TableOption> options;
};

enum class ObjectKind { kTable, kView, kDatabase, kCatalog };

/// `DROP [TEMPORARY] TABLE|VIEW [IF EXISTS] name`, `DROP DATABASE [IF EXISTS] db
/// [RESTRICT|CASCADE]`, `DROP CATALOG [IF EXISTS] c`.
struct DropStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kDrop;
  DropStatement() : Statement(kKind) {}
  ObjectKind objectKind = ObjectKind::kTable;
  QualifiedName name;
  bool temporary = false;
  bool ifExists = false;
  bool cascade = false;  // DROP DATABASE .. CASCADE (RESTRICT is the default)
};

enum class AlterTableAction {
  kRename,
  kSetOptions,
  kResetOptions,
  kAdd,
  kModify,          // MODIFY element | MODIFY (elements)
  kDropColumns,     // DROP col | DROP (col, ..)
  kDropPrimaryKey,  // DROP PRIMARY KEY | DROP CONSTRAINT name
  kDropWatermark,   // DROP WATERMARK
  kRenameColumn,    // RENAME col TO new
};

/// `ALTER TABLE [IF EXISTS] t RENAME TO n | SET (..) | RESET (..) | ADD (..) | ADD element |
/// MODIFY (..) | MODIFY element | DROP col | DROP (cols) | DROP PRIMARY KEY | DROP CONSTRAINT name | DROP WATERMARK |
/// RENAME col TO new`.
struct AlterTableStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kAlterTable;
  AlterTableStatement() : Statement(kKind) {}
  QualifiedName tableName;
  bool ifExists = false;
  AlterTableAction action = AlterTableAction::kRename;
  QualifiedName newName;                           // kRename
  std::vector<TableOption> options;                // kSetOptions
  std::vector<std::string> resetKeys;              // kResetOptions
  std::vector<TableColumn> columns;                // kAdd, kModify
  std::vector<WatermarkDefinition> watermarks;     // kAdd, kModify
  std::optional<PrimaryKeyConstraint> primaryKey;  // kAdd, kModify
  std::vector<std::string> dropColumns;            // kDropColumns
  std::optional<std::string> constraintName;       // kDropPrimaryKey: DROP CONSTRAINT name
  std::string column;                              // kRenameColumn: the column ..
  std::string newColumnName;                       // .. and its new name
};

/// `USE CATALOG c`.
struct UseCatalogStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kUseCatalog;
  UseCatalogStatement() : Statement(kKind) {}
  std::string catalogName;
};

/// `USE [cat.]db`.
struct UseDatabaseStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kUseDatabase;
  UseDatabaseStatement() : Statement(kKind) {}
  QualifiedName databaseName;
};

enum class ShowKind {
  kCatalogs,
  kCurrentCatalog,
  kDatabases,
  kCurrentDatabase,
  kTables,
  kViews,
  kFunctions,
  kColumns,
  kCreateTable,
  kCreateView,
  kJobs,
};

/// `SHOW CATALOGS | CURRENT CATALOG | DATABASES | CURRENT DATABASE | TABLES [FROM|IN db]
/// [[NOT] LIKE 'p'] | VIEWS | FUNCTIONS | COLUMNS FROM|IN t [[NOT] LIKE 'p'] | CREATE TABLE t |
/// CREATE VIEW v | JOBS` (SHOW JOBS: the jobs the session started, Flink 1.17's job statement).
struct ShowStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kShow;
  ShowStatement() : Statement(kKind) {}
  ShowKind showKind = ShowKind::kTables;
  QualifiedName name;  // the database (TABLES, VIEWS, FUNCTIONS) or object; may be empty
  std::optional<std::string> likePattern;
  bool notLike = false;
};

/// `DESCRIBE|DESC [EXTENDED] t`.
struct DescribeStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kDescribe;
  DescribeStatement() : Statement(kKind) {}
  QualifiedName tableName;
  bool extended = false;
};

enum class ExplainDetail { kChangelogMode, kEstimatedCost, kJsonExecutionPlan, kPlanAdvice };

/// `EXPLAIN [PLAN FOR | detail, ..] statement` where the statement is a query, an INSERT or a
/// statement set.
struct ExplainStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kExplain;
  ExplainStatement() : Statement(kKind) {}
  std::vector<ExplainDetail> details;
  bool planFor = false;
  StatementPtr statement;
};

/// `SET` (list all) or `SET 'key' = 'value'`.
struct SetStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kSet;
  SetStatement() : Statement(kKind) {}
  std::optional<std::string> key;
  std::optional<std::string> value;
};

/// `RESET` (all) or `RESET 'key'`.
struct ResetStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kReset;
  ResetStatement() : Statement(kKind) {}
  std::optional<std::string> key;
};

/// `EXECUTE STATEMENT SET BEGIN insert; .. END`, and the SQL client's `BEGIN STATEMENT SET;
/// insert; .. END;` (both print as the first form). `statements` are InsertStatements.
struct StatementSetStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kStatementSet;
  StatementSetStatement() : Statement(kKind) {}
  std::vector<StatementPtr> statements;
};

/// `EXECUTE query` or `EXECUTE INSERT ..`.
struct ExecuteStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kExecute;
  ExecuteStatement() : Statement(kKind) {}
  StatementPtr statement;
};

/// `STOP JOB '<job id>' [WITH SAVEPOINT] [WITH DRAIN]` (Flink 1.17's job statement; WITH DRAIN
/// only after WITH SAVEPOINT).
struct StopJobStatement : Statement {
  static constexpr StatementKind kKind = StatementKind::kStopJob;
  StopJobStatement() : Statement(kKind) {}
  std::string jobId;  // as written, unchecked
  bool withSavepoint = false;
  bool withDrain = false;
};

}  // namespace eddy::sql
