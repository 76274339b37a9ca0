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
// with private headers for what several of them share: aggregate_binding.h, call_analysis.h
// (which calls are aggregates), clause_syntax.h (conjuncts, NULL order, row types),
// name_matching.h.
//
// What a clause gives the expressions it binds is explicit, as DuckDB's binders pass it: a
// ClauseContext built on the stack by the clause (its scope, the aggregation it is above, the
// relation its subqueries join onto, its top-level conjuncts, the columns of its OVER calls)
// and passed down unchanged to the operands. A subquery is bound by a child Binder of the
// query around it (DuckDB's child binder): its parent chain holds the scopes enclosing it and
// the WITH items in scope. Name resolution is a lookup that returns its result or its failure
// (lookupColumn, resolvesIn): no binding is tried and its error caught to try another reading,
// so an error of binding ends the statement.
//
// It builds plans with sql/planner's plan_join.h, plan_set_operation.h and plan_table_scan.h.
// An aggregation stays one LogicalAggregate: its grouping sets, and whether it groups by a
// window TVF's window (sql/planner/window_grouping.h, which decides its output types as
// Flink's do), are the optimizer's to plan. The rewrites of the plan are the optimizer's passes
// (sql/optimizer/passes.h).
#pragma once

#include <map>
#include <span>
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

  /// Where the select list reads a call with OVER: a ranking function's column in the output
  /// of its Rank, an OVER aggregate's in the output of its OverAggregate.
  struct OverColumn {
    int column;
    LogicalTypePtr type;
  };
  using OverColumns = std::map<const FunctionCallExpression*, OverColumn>;

  /// What the expressions of a clause are bound in (DuckDB's ExpressionBinder state as a value):
  /// the clause builds it on the stack and bindExpression passes it unchanged to the operands
  /// and subqueries of an expression. Only `scope` is needed: the rest is absent where the
  /// clause has none of it.
  struct ClauseContext {
    /// The columns that names resolve against.
    const Scope& scope;
    /// Above an aggregation (HAVING, a select list over GROUP BY): how aggregate calls and GROUP
    /// BY expressions read its output.
    const AggregateBinding* aggregates = nullptr;
    /// The relation the clause's subqueries join onto (the FROM of the SELECT whose WHERE or
    /// select list is bound, the aggregation's output for HAVING and a select list above GROUP
    /// BY; `aggregates` tells how expressions read it); null where a subquery is not supported.
    Relation* subqueryInput = nullptr;
    /// The conjuncts of the WHERE or HAVING being bound: an IN or EXISTS that is one needs no
    /// NULL bookkeeping (FALSE and UNKNOWN filter alike), so it is a semi or anti join.
    std::span<const Expression* const> topLevelConjuncts = {};
    /// The select list's calls with OVER (planned before it is bound); null elsewhere, where
    /// such a call is not supported.
    const OverColumns* overColumns = nullptr;
  };

  /// How a subquery's SELECT is tied to the query around it: each WHERE conjunct
  /// `inner = outer` (one side naming columns of the subquery's FROM, the other columns of
  /// `outerScope`, bound with `outerAggregates`) becomes a correlation key instead of a filter.
  /// bindSelect then groups and outputs per key: the inner keys are its first columns (extra
  /// GROUP BY keys when it aggregates), the select list follows.
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
  /// The binder of a subquery of an expression over `outerScope`, bound inside `parent`'s query.
  Binder(const Binder& parent, const Scope& outerScope);
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
  void bindAggregatedOutput(SelectBinding& state, GroupingBinding& grouping,
                            LogicalNodePtr aggregate);
  Relation finishSelect(SelectBinding& state);

  // bind_set_operation.cpp, bind_order_by.cpp, bind_values.cpp.
  Relation bindSetOperation(const SetOperationQuery& set);
  Relation bindOrderBy(const OrderByQuery& orderBy);
  Relation bindValues(const ValuesQuery& values);

  // bind_table_reference.cpp: FROM items.
  /// `versioned`: a named table is the right side of a join FOR SYSTEM_TIME AS OF.
  Relation bindTableReference(const TableReference& reference, bool versioned = false);
  /// `versioned`: the table is the right side of a join FOR SYSTEM_TIME AS OF (the only place
  /// a table may be read AS OF a time).
  Relation bindNamedTable(const NamedTableReference& table, bool versioned);
  static Relation renamed(Relation relation, const TableReference& reference);

  // bind_join.cpp, bind_temporal_join.cpp, bind_unnest.cpp.
  Relation bindJoin(const JoinReference& join);
  /// JOIN ... USING (cols) and NATURAL JOIN: equalities of the named columns, each merged
  /// into one output column.
  Relation bindUsingJoin(const JoinReference& join, const Relation& left, const Relation& right,
                         relational::JoinType joinType);
  /// `left JOIN right FOR SYSTEM_TIME AS OF left.time ON ...`: Flink's checks, then a temporal
  /// LogicalJoin.
  Relation bindTemporalJoin(const JoinReference& join, Relation left, Relation right,
                            relational::JoinType joinType,
                            const expression::ExpressionPtr& condition);
  /// A processing-time temporal join (`FOR SYSTEM_TIME AS OF` the left's proctime) against a
  /// connector table that supports lookups: a LogicalLookupJoin on the condition's
  /// `table.column = left expression` equalities.
  Relation bindLookupJoin(const JoinReference& join, Relation left, Relation right,
                          relational::JoinType joinType,
                          const expression::ExpressionPtr& condition, const std::string& tableName);
  /// UNNEST(collection) joined with `left` (whose columns the collection may read), or alone
  /// (over one empty row) when `left` is null.
  Relation bindUnnest(const UnnestReference& unnest, const Relation* left, bool leftOuter);

  // bind_window_table_function.cpp.
  /// `TABLE(TUMBLE|HOP|CUMULATE|SESSION(TABLE t, DESCRIPTOR(ts), INTERVAL ..))`.
  Relation bindWindowTableFunction(const TableFunctionReference& reference);
  /// The window of a window TVF call or a legacy group window (`TUMBLE(ts, INTERVAL ..)` in
  /// GROUP BY) over `timeColumn` of `scope`.
  relational::WindowSpec windowSpecOf(const Node& at, relational::WindowKind kind,
                                      int timeColumn, const Scope& scope, const Expression* size,
                                      const Expression* slide, const Expression* offset);
  /// Milliseconds of a constant day-time interval argument of a window function.
  int64_t windowIntervalMillis(const Expression& argument, const std::string& parameter);

  // bind_expression.cpp.
  expression::ExpressionPtr bindExpression(const Expression& expression,
                                           const ClauseContext& clause);
  /// Above an aggregation (`aggregates`), the output column of the GROUP BY key that `node`
  /// is; null when it is none (an identifier that is none fails: it is not grouped).
  expression::ExpressionPtr bindGroupingKey(const Expression& node, const Scope& scope,
                                            const AggregateBinding& aggregates);
  expression::ExpressionPtr bindIsExpression(const IsExpression& is, const ClauseContext& clause);
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
  /// Whether every identifier of `expression` (outside its subqueries, which have scopes of
  /// their own) resolves in `scope`: lookups, no binding. Decorrelation tells a correlated
  /// subquery's own conditions, its `inner = outer` keys and conditions over both queries apart
  /// by it.
  static bool resolvesIn(const Expression& expression, const Scope& scope);
  expression::ExpressionPtr bindLiteral(const LiteralExpression& literal);

  // bind_function_call.cpp.
  expression::ExpressionPtr bindFunctionCall(const FunctionCallExpression& call,
                                             const ClauseContext& clause);
  /// JSON_OBJECT, JSON_ARRAY, JSON_VALUE/QUERY/EXISTS with their clauses.
  expression::ExpressionPtr bindJsonCall(const FunctionCallExpression& call,
                                         const ClauseContext& clause);

  // bind_aggregate_call.cpp.
  /// An aggregate call of `call` (a GROUP BY aggregate or an OVER aggregate): its argument and
  /// FILTER expressions, bound over `scope`, are appended to `projection` (named `$fN`) and
  /// the call refers to them there.
  function::AggregateCall bindAggregateCall(
      const FunctionCallExpression& call, const Scope& scope,
      std::vector<expression::ExpressionPtr>& projection, std::vector<std::string>& names);
  /// JSON_OBJECTAGG / JSON_ARRAYAGG: checks the key and value types (character key; a value
  /// of a JSON scalar type), takes the ON NULL clause and whether the value is nested JSON text
  /// into `aggregate`, sets `valueType`; returns the accumulator's argument (the value, or
  /// ROW(key, value)).
  expression::ExpressionPtr bindJsonAggregateArgument(const FunctionCallExpression& call,
                                                      function::AggregateKind kind,
                                                      const Scope& scope,
                                                      function::AggregateCall& aggregate,
                                                      LogicalTypePtr& valueType);
  /// LAG's offset and default arguments (literals) into `aggregate`; LAG must have an OVER.
  void bindLagArguments(const FunctionCallExpression& call, const LogicalTypePtr& type,
                        function::AggregateCall& aggregate);

  // bind_over_window.cpp.
  /// OVER aggregates of the select list (`calls`): an OverAggregate over `input` (one per
  /// window, chained, in BATCH), whose result columns the calls then read (added to `columns`).
  void planOverAggregates(const SelectQuery& select,
                          const std::vector<const FunctionCallExpression*>& calls, Relation& input,
                          OverColumns& columns);
  void bindOverFrame(const WindowSpecification& window, int order,
                     relational::OverFrameUnit& unit, std::optional<int64_t>& preceding);
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
  /// The subquery of an expression of `clause`, bound by a child binder with `correlation`
  /// (its outer scope, aggregation and rows set here from the clause) when it is a SELECT,
  /// uncorrelated otherwise.
  Relation bindCorrelated(const Query& query, const ClauseContext& clause,
                          Correlation& correlation);
  SubqueryRows bindSubqueryRows(const Query& query, const ClauseContext& clause, bool needsValue,
                                bool allowResiduals = false);
  /// Joins the clause's subquery input with the subquery (LEFT, on the IN value and the
  /// correlation keys, the subquery's side distinct) and returns the marker column: TRUE where
  /// the row has a match, NULL where not. `semi`: an INNER join instead (a WHERE conjunct that
  /// keeps only the matched rows), so the marker is always TRUE.
  /// `bound`: the subquery's rows when the caller bound them already (without residuals).
  expression::ExpressionPtr markSubquery(const Expression& node, const Query& query,
                                         const ClauseContext& clause, const Expression* inOperand,
                                         bool semi = false, SubqueryRows* bound = nullptr);
  /// A WHERE conjunct `[NOT] EXISTS (..)` or `x IN (..)` whose subquery `rows` is correlated
  /// by conditions other than `inner = outer` (`rows.residuals`): the clause's subquery input
  /// becomes its SEMI (ANTI when `anti`) join with the subquery's rows, on the keys, the IN
  /// value and those conditions.
  void semiJoinSubquery(SubqueryRows rows, const ClauseContext& clause,
                        const Expression* inOperand, bool anti);
  expression::ExpressionPtr bindExistsSubquery(const Expression& node,
                                               const ClauseContext& clause);
  expression::ExpressionPtr bindInSubquery(const InExpression& in, const ClauseContext& clause);
  /// A scalar subquery (`query`, written at `subquery`): joins the clause's subquery input with
  /// its value and returns the value's column.
  expression::ExpressionPtr bindScalarSubquery(const Node& subquery, const Query& query,
                                               const ClauseContext& clause);

  // decorrelation.cpp.
  /// The conjuncts of a correlated subquery's WHERE: those over `input` (bound, returned as one
  /// condition, null when none) and the `inner = outer` keys (added to `correlation`).
  expression::ExpressionPtr bindCorrelatedWhere(const Expression& where, Relation& input,
                                                Correlation& correlation);
  /// A conjunct `a = b` of a correlated subquery's WHERE whose one side's names are columns of
  /// `inner` (the subquery's FROM) and the other's of the outer scope, as a correlation key;
  /// false when it is none.
  bool bindCorrelationKey(const Expression& conjunct, const Scope& inner,
                          Correlation& correlation);
  /// Any other condition over both queries (`inner.y > outer.y`), bound over `inner` followed
  /// by the outer scope, as a residual of `correlation`.
  void bindResidual(const Expression& conjunct, const Scope& inner, Correlation& correlation);
  /// A correlated subquery's conditions other than `inner = outer` where no semi or anti join
  /// can take them (the subquery aggregates, or its value is needed: a scalar subquery, IN or
  /// EXISTS outside a WHERE conjunct, NOT IN), as Calcite's decorrelator plans them with a
  /// value generator: the distinct values of the outer columns those conditions and the keys
  /// read are joined with the subquery's input on them, and become the correlation keys
  /// (`input` gains them as hidden columns; the residuals are gone).
  void decorrelateResiduals(const Node& at, Relation& input, Correlation& correlation);

  const catalog::CatalogManager& catalogManager_;
  const function::BindingContext context_;
  /// The binder of the query this binder's subquery is written in (null for a statement's
  /// query, a view's, an expression's), and the scope of the expression that holds the
  /// subquery: the chain of them, up to the statement's query, is the scopes enclosing it (a
  /// name that resolves only further out than the innermost is a correlation two levels out,
  /// reported as such) and the WITH items it sees.
  const Binder* const parent_ = nullptr;
  const Scope* const outerScope_ = nullptr;
  /// The WITH items (and the Table API's inline tables) visible to the query being bound,
  /// innermost last; a subquery sees its parents' too. A member, not a parameter: WITH is the
  /// lexical scoping of the binder itself, which every FROM item bound in its body, however
  /// deep, reads, and which bindRelation restores when the body is bound.
  std::vector<std::pair<std::string, Relation>> commonTableExpressions_;
};

/// An error's message without the SQL position of a ValidationException (its message()), for
/// errors whose SQL the user did not write as a statement (a computed column's expression, a
/// Table API operation): the position means nothing there, the cause does.
std::string withoutSqlPosition(const std::exception& error);

/// True for the aggregate functions the binder knows (function::aggregateKindOfName).
bool isAggregateFunctionName(const std::string& upperCaseName);

}  // namespace eddy::sql
