// Binder: turns a parsed query (sql/parser/ast.h) into a logical plan (sql/planner), resolving
// every name against the catalog manager and typing every expression with Flink's rules
// (through the expression builders). Errors are ValidationExceptions in the spirit of Flink's:
//
//   SQL validation failed. From line 1, column 8: Column 'nme' not found in any table; did
//   you mean 'name'?
//
// Supported now: SELECT [DISTINCT] over one FROM item (a table or view of the catalog, a
// derived table, VALUES) with WHERE, GROUP BY expressions, HAVING and the aggregates COUNT,
// SUM, AVG, MIN, MAX (with FILTER); VALUES; WITH; UNION [ALL]; ORDER BY selected columns
// with LIMIT/OFFSET/FETCH. Other clauses (joins, INTERSECT/EXCEPT, window functions) fail with a clear "not supported yet"
// error naming the clause and its position. Used on the table environment's thread.
#pragma once

#include <map>
#include <string>

#include "catalog/catalog_manager.h"
#include "function/function_registry.h"
#include "sql/parser/ast.h"
#include "sql/planner/logical_node.h"

namespace eddy::sql {

class Binder {
 public:
  /// `context` is the session the plan is bound in: its time zone (`table.local-time-zone`)
  /// is captured by the casts and functions that read TIMESTAMP_LTZ values as wall-clock
  /// times, so a plan keeps the zone it was bound in.
  explicit Binder(const catalog::CatalogManager& catalogManager,
                  function::BindingContext context = {});

  LogicalNodePtr bindQuery(const Query& query);
  /// Makes `plan` readable as the table `name` by the queries bound next (as a WITH item is):
  /// how the Table API refers to the tables its operations apply to.
  void addInlineTable(const std::string& name, LogicalNodePtr plan);
  /// Binds an expression given as SQL text (a computed column, a watermark) over `columns`.
  expression::ExpressionPtr bindExpressionText(const std::string& sql,
                                               const std::vector<RowField>& columns);

 private:
  struct ScopeColumn {
    std::string qualifier;  // table name or alias; empty for unnamed derived columns
    std::string name;
    LogicalTypePtr type;
    /// A column a JOIN ... USING / NATURAL JOIN merged into one: reachable only by its
    /// qualified name (`a.k`) and by a qualified star, not by `k` or `*`.
    bool hidden = false;
  };
  using Scope = std::vector<ScopeColumn>;
  struct Relation {
    LogicalNodePtr node;
    Scope scope;
    /// The PRIMARY KEY columns of a catalog table read as it is (empty otherwise).
    std::vector<int> primaryKey = {};
  };
  struct AggregateBinding;
  struct SubqueryScope;

  Relation bindRelation(const Query& query);
  /// The column of `input` holding a window's PARTITION BY / ORDER BY `key`: the column it
  /// reads, or one appended (hidden in the scope) when it is an expression.
  static int windowKeyColumn(Relation& input, const expression::ExpressionPtr& key);
  /// LAG's offset and default arguments (literals) into `aggregate`; LAG must have an OVER.
  /// JSON_OBJECTAGG / JSON_ARRAYAGG: checks the key and value types (character key; a value
  /// of a JSON scalar type), takes the ON NULL clause and whether the value is nested JSON text
  /// into `aggregate`, sets `valueType`; returns the accumulator's argument (the value, or
  /// ROW(key, value)).
  expression::ExpressionPtr bindJsonAggregateArgument(const FunctionCallExpression& call,
                                                      runtime::operators::AggregateKind kind,
                                                      const Scope& scope,
                                                      runtime::operators::AggregateCall& aggregate,
                                                      LogicalTypePtr& valueType);
  void bindLagArguments(const FunctionCallExpression& call, const LogicalTypePtr& type,
                        runtime::operators::AggregateCall& aggregate);
  /// A processing-time temporal join (`FOR SYSTEM_TIME AS OF` the left's proctime) against a
  /// connector table that supports lookups: a LogicalLookupJoin on the condition's
  /// `table.column = left expression` equalities.
  Relation bindLookupJoin(const JoinReference& join, Relation left, Relation right,
                          runtime::operators::JoinType joinType,
                          const expression::ExpressionPtr& condition, const std::string& tableName);
  /// JOIN ... USING (cols) and NATURAL JOIN: equalities of the named columns, each merged
  /// into one output column.
  Relation bindUsingJoin(const JoinReference& join, const Relation& left, const Relation& right,
                         runtime::operators::JoinType joinType);
  /// How a subquery's SELECT is tied to the query around it: each WHERE conjunct
  /// `inner = outer` (one side over the subquery's FROM, the other over `outerScope`, bound with
  /// `outerAggregates`) becomes a correlation key instead of a filter. bindSelect then groups
  /// and outputs per key: the inner keys are its first columns (extra GROUP BY keys when it
  /// aggregates), the select list follows.
  struct Correlation {
    const Scope* outerScope = nullptr;
    const AggregateBinding* outerAggregates = nullptr;
    std::vector<expression::ExpressionPtr> innerKeys;
    std::vector<expression::ExpressionPtr> outerKeys;
    /// Set by bindSelect when it aggregates without GROUP BY (so one row per key): each select
    /// item's value over no rows (COUNT 0, other aggregates NULL), for the keys without rows.
    std::vector<expression::ExpressionPtr> emptyGroupValues;
    /// Whether correlation conditions other than `inner = outer` are taken (the subquery of a
    /// WHERE conjunct `[NOT] EXISTS` or `x IN`, planned as a semi or anti join).
    bool allowResiduals = false;
    /// Those conditions (e.g. `inner.y > outer.y`), over the subquery's input columns (the
    /// first `inputArity`) followed by the outer scope's columns; `carried`: the input columns
    /// they read, which bindSelect projects right after the inner keys.
    std::vector<expression::ExpressionPtr> residuals;
    std::vector<int> carried;
    int inputArity = 0;
    /// The subquery is bound only to be validated (EXISTS over an aggregation without GROUP
    /// BY is TRUE): residuals are taken whatever it does.
    bool validateOnly = false;
    /// The outer query's rows (the enclosing clause's input, whose columns the outer scope
    /// names), for decorrelateResiduals; null where the clause takes no subquery.
    LogicalNodePtr outerInput;
  };
  /// A correlated subquery's conditions other than `inner = outer` where no semi or anti join
  /// can take them (the subquery aggregates, or its value is needed: a scalar subquery, IN or
  /// EXISTS outside a WHERE conjunct, NOT IN), as Calcite's decorrelator plans them with a
  /// value generator: the distinct values of the outer columns those conditions and the keys
  /// read are joined with the subquery's input on them, and become the correlation keys
  /// (`input` gains them as hidden columns; the residuals are gone).
  void decorrelateResiduals(const Node& at, Relation& input, Correlation& correlation);
  Relation bindSelect(const SelectQuery& select, Correlation* correlation = nullptr);
  /// The conjuncts of a correlated subquery's WHERE: those over `input` (bound, returned as one
  /// condition, null when none) and the `inner = outer` keys (added to `correlation`).
  expression::ExpressionPtr bindCorrelatedWhere(const Expression& where, Relation& input,
                                                Correlation& correlation);
  /// An aggregate call of `call` (a GROUP BY aggregate or an OVER aggregate): its argument and
  /// FILTER expressions, bound over `scope`, are appended to `projection` (named `$fN`) and
  /// the call refers to them there.
  runtime::operators::AggregateCall bindAggregateCall(const FunctionCallExpression& call,
                                                      const Scope& scope,
                                                      std::vector<expression::ExpressionPtr>& projection,
                                                      std::vector<std::string>& names);
  /// OVER aggregates of the select list (`items`): an OverAggregate over `input`, whose
  /// result columns the calls then read (overColumns_).
  void planOverAggregates(const SelectQuery& select,
                          const std::vector<const FunctionCallExpression*>& calls,
                          Relation& input);
  Relation bindValues(const ValuesQuery& values);
  Relation bindSetOperation(const SetOperationQuery& set);
  Relation bindOrderBy(const OrderByQuery& orderBy);
  Relation bindTableReference(const TableReference& reference);
  Relation bindNamedTable(const NamedTableReference& table);
  Relation bindJoin(const JoinReference& join);
  /// JSON_OBJECT, JSON_ARRAY, JSON_VALUE/QUERY/EXISTS with their clauses.
  expression::ExpressionPtr bindJsonCall(const FunctionCallExpression& call, const Scope& scope,
                                         const AggregateBinding* aggregates);
  /// UNNEST(collection) joined with `left` (whose columns the collection may read), or alone
  /// (over one empty row) when `left` is null.
  Relation bindUnnest(const UnnestReference& unnest, const Relation* left, bool leftOuter);
  /// `left JOIN right FOR SYSTEM_TIME AS OF left.time ON ...`: Flink's checks, then a temporal
  /// LogicalJoin.
  Relation bindTemporalJoin(const JoinReference& join, Relation left, Relation right,
                            runtime::operators::JoinType joinType,
                            const expression::ExpressionPtr& condition);
  /// `TABLE(TUMBLE|HOP|CUMULATE|SESSION(TABLE t, DESCRIPTOR(ts), INTERVAL ..))`.
  Relation bindWindowTableFunction(const TableFunctionReference& reference);
  /// The window of a window TVF call or a legacy group window (`TUMBLE(ts, INTERVAL ..)` in
  /// GROUP BY) over `timeColumn` of `scope`.
  runtime::operators::WindowSpec windowSpecOf(const Node& at, runtime::operators::WindowKind kind,
                                               int timeColumn, const Scope& scope,
                                               const Expression* size, const Expression* slide,
                                               const Expression* offset);
  /// Milliseconds of a constant day-time interval argument of a window function.
  int64_t windowIntervalMillis(const Expression& argument, const std::string& parameter);
  static Relation renamed(Relation relation, const TableReference& reference);

  expression::ExpressionPtr bindExpression(const Expression& expression, const Scope& scope,
                                           const AggregateBinding* aggregates);
  expression::ExpressionPtr bindIdentifier(const IdentifierExpression& identifier,
                                           const Scope& scope);
  expression::ExpressionPtr bindLiteral(const LiteralExpression& literal);
  expression::ExpressionPtr bindFunctionCall(const FunctionCallExpression& call,
                                             const Scope& scope,
                                             const AggregateBinding* aggregates);

  /// A subquery's rows as the join that evaluates it needs them: `node` (the subquery's output;
  /// when correlated, its correlation key columns first, see Correlation), the IN value over it
  /// (null for EXISTS), and the correlation keys: `innerKeys` (columns of `node`) equal to
  /// `outerKeys` over the outer query's scope.
  struct SubqueryRows {
    LogicalNodePtr node;
    expression::ExpressionPtr value;
    std::vector<expression::ExpressionPtr> innerKeys;
    std::vector<expression::ExpressionPtr> outerKeys;
    /// The other correlation conditions (see Correlation), over `node`'s columns followed by
    /// the outer scope's; empty unless `allowResiduals`.
    std::vector<expression::ExpressionPtr> residuals;
  };
  SubqueryRows bindSubqueryRows(const Query& query, const Scope& outer, bool needsValue,
                                bool allowResiduals = false);
  /// The subquery of an expression over `outer` (the enclosing clause's scope), bound with
  /// `correlation` (its outer scope and aggregation set here) when it is a SELECT, uncorrelated
  /// otherwise.
  Relation bindCorrelated(const Query& query, const Scope& outer, Correlation& correlation);
  /// Joins `subqueryInput_` with the subquery (LEFT, on the IN value and the correlation
  /// keys, the subquery's side distinct) and returns the marker column: TRUE where the row
  /// has a match, NULL where not. `semi`: an INNER join instead (a WHERE conjunct that keeps
  /// only the matched rows), so the marker is always TRUE.
  /// `bound`: the subquery's rows when the caller bound them already (without residuals).
  expression::ExpressionPtr markSubquery(const Expression& node, const Query& query,
                                         const Scope& scope, const Expression* inOperand,
                                         bool semi = false, SubqueryRows* bound = nullptr);
  /// A WHERE conjunct `[NOT] EXISTS (..)` or `x IN (..)` whose subquery `rows` is correlated
  /// by conditions other than `inner = outer` (`rows.residuals`): `subqueryInput_` becomes its
  /// SEMI (ANTI when `anti`) join with the subquery's rows, on the keys, the IN value and
  /// those conditions.
  void semiJoinSubquery(SubqueryRows rows, const Scope& scope, const Expression* inOperand,
                        bool anti);
  expression::ExpressionPtr bindInSubquery(const InExpression& in, const Scope& scope);
  /// A scalar subquery (`query`, written at `subquery`): joins `subqueryInput_` with its value
  /// and returns the value's column.
  expression::ExpressionPtr bindScalarSubquery(const Node& subquery, const Query& query,
                                               const Scope& scope);

  [[noreturn]] static void fail(const Node& node, const std::string& message);
  [[noreturn]] static void notSupported(const Node& node, const std::string& what);

  const catalog::CatalogManager& catalogManager_;
  const function::BindingContext context_;
  // The relation that subqueries of the expression being bound join onto (the FROM of the
  // SELECT whose WHERE or select list is bound, the aggregation's output for HAVING and a
  // select list above GROUP BY); null where subqueries are not supported.
  Relation* subqueryInput_ = nullptr;
  // How expressions over `subqueryInput_` refer to an aggregation's output (HAVING and a select
  // list above GROUP BY); null elsewhere.
  const AggregateBinding* subqueryAggregates_ = nullptr;
  /// The outer scopes of the correlated subqueries being bound, outermost first (the last is
  /// the innermost subquery's outer scope): a name that resolves only further out is a
  /// correlation two levels out, reported as such.
  std::vector<const Scope*> enclosingScopes_;
  // IN predicates that are top-level conjuncts of the WHERE (or HAVING) being bound: for them
  // FALSE and UNKNOWN mean the same, so they need no NULL bookkeeping.
  std::vector<const Expression*> topLevelConjuncts_;
  // Ranking function calls of the select list being bound → their column in the Rank output.
  std::map<const FunctionCallExpression*, int> rankColumns_;
  // OVER aggregate calls of the select list being bound → their column in the OverAggregate.
  std::map<const FunctionCallExpression*, std::pair<int, LogicalTypePtr>> overColumns_;
  // WITH items visible to the query being bound, innermost last.
  std::vector<std::pair<std::string, Relation>> commonTableExpressions_;
  // Set while the right side of a join with FOR SYSTEM_TIME AS OF is bound.
  bool bindingVersionedTable_ = false;
};

/// Flink's checks of a watermark declaration: the rowtime column must be a TIMESTAMP(p) or
/// TIMESTAMP_LTZ(p) with p <= 3, and the watermark expression (when given) a timestamp too.
/// Throws ValidationException with Flink's messages.
void checkWatermarkTypes(const LogicalType& timeType, const LogicalType* expressionType);

/// The type of a schema column declared as a DataType or as a type string.
LogicalTypePtr logicalTypeOf(const Schema::ColumnType& type);

/// A binder message without its "SQL validation failed. From line L, column C: " prefix, for
/// errors whose SQL the user did not write as a statement (a computed column's expression, a
/// Table API operation): the position means nothing there, the cause does.
std::string withoutSqlPosition(const std::string& message);

/// ROW<...> of a catalog table's physical columns (the row its connector reads or writes;
/// computed and metadata columns are left out). With `primaryKeyNotNull` the primary key's
/// columns are NOT NULL whatever they declare (Flink's resolved schema: what a sink enforces);
/// a scan reads the declared types (a format may find no value for a key column, and Flink's
/// formats do not check it either).
LogicalTypePtr physicalRowTypeOf(const catalog::CatalogBaseTable& table,
                                 const std::string& tableName,
                                 bool primaryKeyNotNull = true);
/// An INSERT into `table`: throws ValidationException naming a persisted (not VIRTUAL)
/// METADATA column, as no connector writes metadata yet.
void checkNoWritableMetadata(const catalog::CatalogBaseTable& table, const std::string& tableName);

/// A join of `left` and `right` on `condition` (over their concatenated columns; null for a
/// cross join): equalities between an expression of each side become the join's equi keys
/// (computed keys are projected below the join and dropped above it), the rest its residual
/// condition.
LogicalNodePtr planJoin(LogicalNodePtr left, LogicalNodePtr right,
                        runtime::operators::JoinType joinType,
                        const expression::ExpressionPtr& condition,
                        std::optional<TemporalJoinTime> temporal = std::nullopt);

/// `left INTERSECT [ALL] right` or `left EXCEPT [ALL] right` of inputs of one row type.
LogicalNodePtr intersectOrExcept(const LogicalNodePtr& left, const LogicalNodePtr& right,
                                 bool intersect, bool all);

/// How planTableScan types a METADATA column: by what the connector reads under its key (a
/// key the connector does not offer fails), or by its declared type alone (CREATE/ALTER TABLE
/// resolve a schema without asking the connector, as Flink does).
enum class MetadataKeys { kCheck, kDeclared };

/// The plan that reads a catalog table (not a view) through its connector: a scan of the
/// physical columns, with a projection computing the computed columns when there are some
/// (bound in `context`: the session's time zone applies to them as to the query reading them).
LogicalNodePtr planTableScan(const catalog::CatalogManager& catalogManager,
                             const catalog::CatalogBaseTable& table, const std::string& tableName,
                             MetadataKeys keyCheck = MetadataKeys::kCheck,
                             const function::BindingContext& context = {});

/// A filter bounding the rank column of a Top-N below `input` (rn <= N, rn < N, rn = N,
/// rn BETWEEN a AND b, ...) pushed into the Rank; the other conjuncts stay as a filter.
/// Null when `condition` bounds no rank from above.
LogicalNodePtr pushRankFilter(const LogicalNodePtr& input, const expression::ExpressionPtr& condition);
/// `input` without the rank column of a Top-N below it when `projections` (over `input`) do
/// not read it; `projections` are remapped.
LogicalNodePtr pruneRankNumber(const LogicalNodePtr& input,
                               std::vector<expression::ExpressionPtr>& projections);

/// Aggregate(`pre`) grouped by its first `groupCount` columns as a window aggregation, when
/// `pre` is a projection over a window TVF (through filters that do not read the window
/// columns) that groups by window_start and window_end; null otherwise. `names`: the keys'
/// then the calls' output names.
LogicalNodePtr planWindowAggregate(const LogicalNodePtr& pre, int groupCount,
                                   const std::vector<runtime::operators::AggregateCall>& calls,
                                   const std::vector<std::string>& names);

/// True for the aggregate functions the binder knows (runtime::operators::aggregateKindOfName).
bool isAggregateFunctionName(const std::string& upperCaseName);

}  // namespace eddy::sql
