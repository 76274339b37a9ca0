// Binder: turns a parsed query (sql/parser/ast.h) into a logical plan (sql/planner), resolving
// every name against the catalog manager and typing every expression with Flink's rules
// (through the expression builders). Errors are ValidationExceptions in the spirit of Flink's:
//
//   SQL validation failed. From line 1, column 8: Column 'nme' not found in any table; did
//   you mean 'name'?
//
// It binds what Flink's SQL queries hold: SELECT (WHERE, GROUP BY with GROUPING SETS, ROLLUP,
// CUBE and legacy group windows, HAVING, the aggregate functions, DISTINCT, ranking functions
// and OVER aggregates), WITH, VALUES, UNION / INTERSECT / EXCEPT [ALL], ORDER BY with LIMIT /
// OFFSET / FETCH; FROM items that are catalog tables and views, derived tables, joins (ON,
// USING, NATURAL; event-time temporal and lookup joins), UNNEST and window table functions;
// scalar, IN and EXISTS subqueries, correlated ones decorrelated into joins. What it does not
// bind fails with a "... is not supported yet" error naming the clause and its position. Used
// on the table environment's thread.
//
// Its implementation is one file per concept, in DuckDB's binder shape:
//   binder.cpp                        entry points, the dispatch over query kinds, WITH, errors
//   bind_select.cpp                   SELECT as a driver of named phases (bindSelect)
//   bind_set_operation.cpp            UNION, INTERSECT, EXCEPT
//   bind_order_by.cpp                 ORDER BY, LIMIT, OFFSET, FETCH
//   bind_values.cpp                   VALUES
//   bind_table_reference.cpp          FROM items: dispatch, named tables and views, aliases
//   bind_join.cpp                     JOIN ... ON, USING, NATURAL
//   bind_temporal_join.cpp            FOR SYSTEM_TIME AS OF: temporal and lookup joins
//   bind_unnest.cpp                   UNNEST
//   bind_window_table_function.cpp    TUMBLE, HOP, CUMULATE, SESSION and their window spec
//   bind_expression.cpp               expressions: dispatch, identifiers, literals
//   bind_function_call.cpp            function calls, JSON functions
//   bind_aggregate_call.cpp           aggregate calls, JSON aggregates' and LAG's arguments
//   bind_over_window.cpp              OVER aggregates and their window keys
//   bind_subquery.cpp                 scalar, IN and EXISTS subqueries as joins
//   decorrelation.cpp                 a correlated subquery's WHERE, decorrelateResiduals
// with private headers for what several of them share: aggregate_binding.h, subquery_scope.h,
// call_analysis.h (which calls are aggregates), clause_syntax.h (conjuncts, NULL order, row
// types), name_matching.h. It builds plans with sql/planner's plan_join.h,
// plan_set_operation.h and plan_table_scan.h; a window aggregation it recognizes while binding
// (sql/optimizer's window_aggregate_detection.h: the choice decides the output types). The
// rewrites of the plan are the optimizer's passes (sql/optimizer/passes.h).
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

  // binder.cpp: the dispatch over the kinds of query (WITH items bound there), and errors.
  Relation bindRelation(const Query& query);
  [[noreturn]] static void fail(const Node& node, const std::string& message);
  [[noreturn]] static void notSupported(const Node& node, const std::string& what);

  // bind_select.cpp: bindSelect drives its phases over the state they share.
  struct SelectBinding;
  struct GroupingBinding;
  // The ORDER BY keys of the SELECT being bound (bind_order_by.cpp). A key that reads the FROM
  // clause (a qualified name, a column not selected) is computed by bindSelect as a hidden
  // column after the output, as Calcite's; `columns` receives that column per key (-1: the key
  // reads the output: an ordinal or names of selected columns only).
  struct SortItems {
    const std::vector<OrderItem>& keys;
    std::vector<int> columns;
  };
  Relation bindSelect(const SelectQuery& select, Correlation* correlation = nullptr,
                      SortItems* sortItems = nullptr);
  void bindWhere(SelectBinding& state);
  static void expandSelectList(SelectBinding& state);
  void findAggregation(SelectBinding& state);
  static void addSortItems(SelectBinding& state);
  void bindGroupWindow(SelectBinding& state);
  void planRankFunctions(SelectBinding& state);
  void planSelectOverAggregates(SelectBinding& state);
  void bindProjection(SelectBinding& state);
  void bindAggregation(SelectBinding& state);
  void bindGroupingKeys(SelectBinding& state, GroupingBinding& grouping);
  static LogicalNodePtr planGroupingSets(const LogicalNodePtr& pre, GroupingBinding& grouping);
  void bindAggregatedOutput(SelectBinding& state, GroupingBinding& grouping,
                            LogicalNodePtr aggregate);
  Relation finishSelect(SelectBinding& state);

  // bind_set_operation.cpp, bind_order_by.cpp, bind_values.cpp.
  Relation bindSetOperation(const SetOperationQuery& set);
  Relation bindOrderBy(const OrderByQuery& orderBy);
  Relation bindValues(const ValuesQuery& values);

  // bind_table_reference.cpp: FROM items.
  Relation bindTableReference(const TableReference& reference);
  Relation bindNamedTable(const NamedTableReference& table);
  static Relation renamed(Relation relation, const TableReference& reference);

  // bind_join.cpp, bind_temporal_join.cpp, bind_unnest.cpp.
  Relation bindJoin(const JoinReference& join);
  /// JOIN ... USING (cols) and NATURAL JOIN: equalities of the named columns, each merged
  /// into one output column.
  Relation bindUsingJoin(const JoinReference& join, const Relation& left, const Relation& right,
                         runtime::operators::JoinType joinType);
  /// `left JOIN right FOR SYSTEM_TIME AS OF left.time ON ...`: Flink's checks, then a temporal
  /// LogicalJoin.
  Relation bindTemporalJoin(const JoinReference& join, Relation left, Relation right,
                            runtime::operators::JoinType joinType,
                            const expression::ExpressionPtr& condition);
  /// A processing-time temporal join (`FOR SYSTEM_TIME AS OF` the left's proctime) against a
  /// connector table that supports lookups: a LogicalLookupJoin on the condition's
  /// `table.column = left expression` equalities.
  Relation bindLookupJoin(const JoinReference& join, Relation left, Relation right,
                          runtime::operators::JoinType joinType,
                          const expression::ExpressionPtr& condition, const std::string& tableName);
  /// UNNEST(collection) joined with `left` (whose columns the collection may read), or alone
  /// (over one empty row) when `left` is null.
  Relation bindUnnest(const UnnestReference& unnest, const Relation* left, bool leftOuter);

  // bind_window_table_function.cpp.
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

  // bind_expression.cpp.
  expression::ExpressionPtr bindExpression(const Expression& expression, const Scope& scope,
                                           const AggregateBinding* aggregates);
  /// Above an aggregation (`aggregates`), the output column of the GROUP BY key that `node`
  /// is; null when it is none (an identifier that is none fails: it is not grouped).
  expression::ExpressionPtr bindGroupingKey(const Expression& node, const Scope& scope,
                                            const AggregateBinding& aggregates);
  expression::ExpressionPtr bindIsExpression(const IsExpression& is, const Scope& scope,
                                             const AggregateBinding* aggregates);
  expression::ExpressionPtr bindIdentifier(const IdentifierExpression& identifier,
                                           const Scope& scope);
  /// Where an identifier resolves in a scope: its column and the index of the first name of
  /// the field path after it, or, when it resolves to none, the message why (DuckDB's
  /// BindResult: a lookup returns its failure, the caller decides whether it ends the
  /// statement).
  struct ColumnLookup {
    int column = -1;
    size_t fieldPath = 0;
    std::string error;
    bool found() const { return column >= 0; }
  };
  static ColumnLookup lookupColumn(const IdentifierExpression& identifier, const Scope& scope);
  expression::ExpressionPtr bindLiteral(const LiteralExpression& literal);

  // bind_function_call.cpp.
  expression::ExpressionPtr bindFunctionCall(const FunctionCallExpression& call, const Scope& scope,
                                             const AggregateBinding* aggregates);
  /// JSON_OBJECT, JSON_ARRAY, JSON_VALUE/QUERY/EXISTS with their clauses.
  expression::ExpressionPtr bindJsonCall(const FunctionCallExpression& call, const Scope& scope,
                                         const AggregateBinding* aggregates);

  // bind_aggregate_call.cpp.
  /// An aggregate call of `call` (a GROUP BY aggregate or an OVER aggregate): its argument and
  /// FILTER expressions, bound over `scope`, are appended to `projection` (named `$fN`) and
  /// the call refers to them there.
  runtime::operators::AggregateCall bindAggregateCall(
      const FunctionCallExpression& call, const Scope& scope,
      std::vector<expression::ExpressionPtr>& projection, std::vector<std::string>& names);
  /// JSON_OBJECTAGG / JSON_ARRAYAGG: checks the key and value types (character key; a value
  /// of a JSON scalar type), takes the ON NULL clause and whether the value is nested JSON text
  /// into `aggregate`, sets `valueType`; returns the accumulator's argument (the value, or
  /// ROW(key, value)).
  expression::ExpressionPtr bindJsonAggregateArgument(const FunctionCallExpression& call,
                                                      runtime::operators::AggregateKind kind,
                                                      const Scope& scope,
                                                      runtime::operators::AggregateCall& aggregate,
                                                      LogicalTypePtr& valueType);
  /// LAG's offset and default arguments (literals) into `aggregate`; LAG must have an OVER.
  void bindLagArguments(const FunctionCallExpression& call, const LogicalTypePtr& type,
                        runtime::operators::AggregateCall& aggregate);

  // bind_over_window.cpp.
  /// OVER aggregates of the select list (`items`): an OverAggregate over `input`, whose
  /// result columns the calls then read (overColumns_).
  void planOverAggregates(const SelectQuery& select,
                          const std::vector<const FunctionCallExpression*>& calls, Relation& input);
  void bindOverFrame(const WindowSpecification& window, int order,
                     runtime::operators::OverFrameUnit& unit, std::optional<int64_t>& preceding);
  /// The column of `input` holding a window's PARTITION BY / ORDER BY `key`: the column it
  /// reads, or one appended (hidden in the scope) when it is an expression.
  static int windowKeyColumn(Relation& input, const expression::ExpressionPtr& key);

  // bind_subquery.cpp.
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
  /// The subquery of an expression over `outer` (the enclosing clause's scope), bound with
  /// `correlation` (its outer scope and aggregation set here) when it is a SELECT, uncorrelated
  /// otherwise.
  Relation bindCorrelated(const Query& query, const Scope& outer, Correlation& correlation);
  SubqueryRows bindSubqueryRows(const Query& query, const Scope& outer, bool needsValue,
                                bool allowResiduals = false);
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
  expression::ExpressionPtr bindExistsSubquery(const Expression& node, const Scope& scope);
  expression::ExpressionPtr bindInSubquery(const InExpression& in, const Scope& scope);
  /// A scalar subquery (`query`, written at `subquery`): joins `subqueryInput_` with its value
  /// and returns the value's column.
  expression::ExpressionPtr bindScalarSubquery(const Node& subquery, const Query& query,
                                               const Scope& scope);

  // decorrelation.cpp.
  /// The conjuncts of a correlated subquery's WHERE: those over `input` (bound, returned as one
  /// condition, null when none) and the `inner = outer` keys (added to `correlation`).
  expression::ExpressionPtr bindCorrelatedWhere(const Expression& where, Relation& input,
                                                Correlation& correlation);
  /// A correlated subquery's conditions other than `inner = outer` where no semi or anti join
  /// can take them (the subquery aggregates, or its value is needed: a scalar subquery, IN or
  /// EXISTS outside a WHERE conjunct, NOT IN), as Calcite's decorrelator plans them with a
  /// value generator: the distinct values of the outer columns those conditions and the keys
  /// read are joined with the subquery's input on them, and become the correlation keys
  /// (`input` gains them as hidden columns; the residuals are gone).
  void decorrelateResiduals(const Node& at, Relation& input, Correlation& correlation);

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

/// An error's message without the SQL position of a ValidationException (its message()), for
/// errors whose SQL the user did not write as a statement (a computed column's expression, a
/// Table API operation): the position means nothing there, the cause does.
std::string withoutSqlPosition(const std::exception& error);

/// True for the aggregate functions the binder knows (runtime::operators::aggregateKindOfName).
bool isAggregateFunctionName(const std::string& upperCaseName);

}  // namespace eddy::sql
