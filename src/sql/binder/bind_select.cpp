// SELECT: a driver of named phases over the state they share (SelectBinding), in the order
// Calcite's validator and Flink's planner see a query block: FROM; WHERE (with its
// subqueries, the Top-N filter push-down and the predicate push-down into an inner join); the
// select list with stars expanded; whether and what it aggregates; a legacy group window of
// GROUP BY; ranking functions and OVER aggregates of the select list; then either the
// projection of the select list, or the aggregation (grouping keys, aggregate calls, grouping
// sets, HAVING and the select list over the aggregation's output); and last rank-number
// pruning, the projection and DISTINCT. A correlated subquery's SELECT is bound here too,
// grouping and outputting per correlation key (Binder::Correlation).
#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

#include "sql/binder/aggregate_binding.h"
#include "sql/binder/binder.h"
#include "sql/binder/call_analysis.h"
#include "sql/binder/clause_syntax.h"
#include "sql/binder/name_matching.h"
#include "sql/parser/unparse.h"
#include "sql/planner/plan_join.h"
#include "sql/planner/window_grouping.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;
using function::AggregateCall;

namespace {

/// `node` without its columns after the first `count` (those a WHERE subquery's markers add
/// beyond the scope), or `node` itself when it has no more.
LogicalNodePtr withFirstColumns(const LogicalNodePtr& node, size_t count) {
  const auto& fields = node->rowType->getFields();
  if (fields.size() == count) return node;
  std::vector<BoundPtr> columns;
  std::vector<std::string> names;
  for (size_t c = 0; c < count; ++c) {
    columns.push_back(expression::column(static_cast<int>(c), fields[c].type));
    names.push_back(fields[c].name);
  }
  return std::make_shared<LogicalProject>(node, std::move(columns), std::move(names));
}

/// The grouping sets of a GROUP BY clause (SQL's rules: each element gives a list of sets,
/// the clause is their cross product; ROLLUP gives its prefixes, longest first; CUBE every
/// subset, in Calcite's order), as indexes into `keys`, the distinct key expressions (by their
/// SQL text) in first appearance. Duplicate sets are kept, as SQL keeps them.
std::vector<std::vector<int>> expandGroupingSets(const std::vector<GroupingElement>& elements,
                                                 std::vector<const Expression*>& keys) {
  std::vector<std::string> texts;
  for (const Expression* key : keys) texts.push_back(unparse(*key));
  auto keyOf = [&](const Expression& expression) {
    std::string text = unparse(expression);
    auto position = std::find(texts.begin(), texts.end(), text);
    if (position != texts.end()) return static_cast<int>(position - texts.begin());
    texts.push_back(text);
    keys.push_back(&expression);
    return static_cast<int>(keys.size() - 1);
  };
  auto merged = [](std::vector<int> a, const std::vector<int>& b) {
    for (int key : b) {
      if (std::find(a.begin(), a.end(), key) == a.end()) a.push_back(key);
    }
    return a;
  };
  // The keys of a plain element (an expression or a parenthesized list).
  auto group = [&](const GroupingElement& element) {
    std::vector<int> set;
    if (element.kind == GroupingKind::kExpression) {
      set.push_back(keyOf(*element.expression));
    } else {
      for (const auto& expression : element.expressions) set = merged(set, {keyOf(*expression)});
    }
    return set;
  };
  std::function<std::vector<std::vector<int>>(const GroupingElement&)> expand =
      [&](const GroupingElement& element) -> std::vector<std::vector<int>> {
    switch (element.kind) {
      case GroupingKind::kExpression:
      case GroupingKind::kList:
        return {group(element)};
      case GroupingKind::kGroupingSets: {
        std::vector<std::vector<int>> sets;
        for (const GroupingElement& child : element.children) {
          for (auto& set : expand(child)) sets.push_back(std::move(set));
        }
        return sets;
      }
      case GroupingKind::kRollup: {
        std::vector<std::vector<int>> groups;
        for (const GroupingElement& child : element.children) groups.push_back(group(child));
        std::vector<std::vector<int>> sets;
        for (size_t length = groups.size() + 1; length-- > 0;) {
          std::vector<int> set;
          for (size_t i = 0; i < length; ++i) set = merged(set, groups[i]);
          sets.push_back(set);
        }
        return sets;
      }
      case GroupingKind::kCube: {
        std::vector<std::vector<int>> groups;
        for (const GroupingElement& child : element.children) groups.push_back(group(child));
        const size_t n = groups.size();
        std::vector<std::vector<int>> sets;
        for (size_t mask = (size_t{1} << n); mask-- > 0;) {
          std::vector<int> set;
          for (size_t i = 0; i < n; ++i) {
            if (mask & (size_t{1} << (n - 1 - i))) set = merged(set, groups[i]);
          }
          sets.push_back(set);
        }
        return sets;
      }
    }
    return {};
  };
  std::vector<std::vector<int>> result = {{}};
  for (const GroupingElement& element : elements) {
    std::vector<std::vector<int>> next;
    for (const auto& prefix : result) {
      for (const auto& set : expand(element)) next.push_back(merged(prefix, set));
    }
    result = std::move(next);
  }
  return result;
}

}  // namespace

// What the phases of one SELECT share. `input` is the relation each phase plans on (the FROM,
// then the WHERE's filter, the group window, Rank and OverAggregate nodes over it);
// `projections` and `names` are the output being built.
struct Binder::SelectBinding {
  // A select list item with stars expanded: an expression, or (null) the input column
  // `inputColumn`, under its output name.
  struct OutputItem {
    const Expression* expression;
    int inputColumn;
    std::string name;
  };
  const SelectQuery& select;
  Correlation* correlation;
  Relation input = {};
  std::vector<OutputItem> items = {};
  // The aggregate calls of the select list and HAVING, in order.
  std::vector<const FunctionCallExpression*> aggregateCalls = {};
  // GROUP BY, aggregate calls in SELECT or HAVING, or HAVING alone.
  bool aggregating = false;
  int correlationKeys = 0;
  // Correlated by keys or by other conditions: ranks and OVER aggregates would see rows of
  // other outer rows.
  bool correlated = false;
  // A legacy group window of GROUP BY: its call, its properties' SQL text (_START, _END,
  // _ROWTIME), the column of window_start in the input scope.
  const FunctionCallExpression* groupWindow = nullptr;
  std::vector<std::string> groupWindowTexts = {};
  int groupWindowColumn = -1;
  // The columns of the select list's ranking functions and OVER aggregates, planned before it.
  OverColumns overColumns = {};
  std::vector<BoundPtr> projections = {};
  std::vector<std::string> names = {};
  // ORDER BY keys over the FROM clause: the last `sortColumns` items (hidden in the output).
  SortItems* sortItems = nullptr;
  int sortColumns = 0;
};

// What the phases of an aggregation share: the projection below it (the correlation keys, the
// grouping keys, then the calls' arguments), how expressions above refer to its output, its
// grouping sets, and its calls.
struct Binder::GroupingBinding {
  std::vector<BoundPtr> preProjection;
  std::vector<std::string> preNames;
  AggregateBinding binding;
  std::vector<std::vector<int>> groupingSets;
  bool multipleSets = false;
  int groupCount = 0;
  std::vector<AggregateCall> calls;
  std::vector<std::string> callNames;
  // Each call's result over no rows (COUNT 0, COLLECT an empty multiset, the others NULL).
  std::vector<Value> emptyResults;
};

Binder::Relation Binder::bindSelect(const SelectQuery& select, Correlation* correlation,
                                    SortItems* sortItems) {
  SelectBinding state{select, correlation};
  state.sortItems = sortItems;
  if (select.from) {
    state.input = bindTableReference(*select.from);
  } else {
    // SELECT without FROM reads one empty row.
    state.input.node =
        std::make_shared<LogicalValues>(LogicalType::row({}, false), std::vector<Row>{Row(0)});
  }
  if (select.where) bindWhere(state);
  expandSelectList(state);
  findAggregation(state);
  addSortItems(state);
  bindGroupWindow(state);
  planRankFunctions(state);
  planSelectOverAggregates(state);
  if (state.aggregating) {
    bindAggregation(state);
  } else {
    bindProjection(state);
  }
  return finishSelect(state);
}

void Binder::bindWhere(SelectBinding& state) {
  const SelectQuery& select = state.select;
  Relation& input = state.input;
  bool hasAggregate = false;
  forEachAggregate(*select.where, [&](const FunctionCallExpression&) { hasAggregate = true; });
  if (hasAggregate) fail(*select.where, "Aggregate expression is illegal in WHERE clause");
  BoundPtr condition;
  if (state.correlation) {
    condition = bindCorrelatedWhere(*select.where, input, *state.correlation);
  } else {
    std::vector<const Expression*> conjuncts;
    collectConjuncts(*select.where, conjuncts);
    condition = bindExpression(*select.where, {.scope = input.scope,
                                               .subqueryInput = &input,
                                               .topLevelConjuncts = conjuncts});
  }
  if (condition && condition->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
    fail(*select.where, "WHERE clause must be a condition");
  }
  // Every conjunct may have been a correlation key. (The optimizer pushes the filter into a
  // Top-N's range or an inner join's keys: RankFilterPushDown, FilterPushDown.)
  if (condition) input.node = std::make_shared<LogicalFilter>(input.node, condition);
}

void Binder::expandSelectList(SelectBinding& state) {
  const SelectQuery& select = state.select;
  const Relation& input = state.input;
  std::vector<SelectBinding::OutputItem>& items = state.items;
  for (size_t i = 0; i < select.items.size(); ++i) {
    const SelectItem& item = select.items[i];
    if (item.expression->is<StarExpression>()) {
      const auto& star = item.expression->as<StarExpression>();
      bool any = false;
      for (size_t c = 0; c < input.scope.size(); ++c) {
        if (!star.qualifier.empty() && input.scope[c].qualifier != star.qualifier.back()) continue;
        if (star.qualifier.empty() && input.scope[c].hidden) continue;
        items.push_back(
            SelectBinding::OutputItem{nullptr, static_cast<int>(c), input.scope[c].name});
        any = true;
      }
      if (!any) fail(star, "Unknown identifier in '" + unparse(star) + "'");
      continue;
    }
    std::string name;
    if (item.alias) {
      name = *item.alias;
    } else if (item.expression->is<IdentifierExpression>()) {
      name = item.expression->as<IdentifierExpression>().names.back();
    } else if (item.expression->is<FieldAccessExpression>()) {
      name = item.expression->as<FieldAccessExpression>().field;
    } else {
      name = "EXPR$" + std::to_string(i);
    }
    items.push_back(SelectBinding::OutputItem{item.expression.get(), -1, name});
  }
}

void Binder::findAggregation(SelectBinding& state) {
  const SelectQuery& select = state.select;
  Correlation* correlation = state.correlation;
  for (const SelectBinding::OutputItem& item : state.items) {
    if (item.expression) {
      forEachAggregate(*item.expression, [&](const FunctionCallExpression& call) {
        state.aggregateCalls.push_back(&call);
      });
    }
  }
  if (select.having) {
    forEachAggregate(*select.having, [&](const FunctionCallExpression& call) {
      state.aggregateCalls.push_back(&call);
    });
  }
  state.aggregating = !select.groupBy.empty() || !state.aggregateCalls.empty() || select.having;
  if (correlation && !correlation->residuals.empty() && !correlation->validateOnly &&
      (state.aggregating || !correlation->allowResiduals)) {
    decorrelateResiduals(select, state.input, *correlation);
  }
  state.correlationKeys = correlation ? static_cast<int>(correlation->innerKeys.size()) : 0;
  state.correlated = state.correlationKeys > 0 || (correlation && !correlation->residuals.empty());
  if (state.correlationKeys > 0 && state.aggregating && select.groupBy.empty() && select.having) {
    notSupported(*select.having, "HAVING without GROUP BY in a correlated subquery");
  }
}

// ORDER BY keys that read the FROM clause (`ORDER BY p.id`, a column not selected): hidden items
// after the select list, so they are computed with it (over the aggregation when it
// aggregates). A key over selected columns only is left to bindOrderBy, as is every key of a
// SELECT DISTINCT (which only selected columns can order).
void Binder::addSortItems(SelectBinding& state) {
  if (!state.sortItems) return;
  SortItems& sort = *state.sortItems;
  sort.columns.assign(sort.keys.size(), -1);
  if (state.select.distinct || state.correlation) return;
  std::set<std::string> outputNames;
  for (const SelectBinding::OutputItem& item : state.items) outputNames.insert(item.name);
  for (size_t k = 0; k < sort.keys.size(); ++k) {
    const Expression& key = *sort.keys[k].expression;
    if (key.is<LiteralExpression>()) continue;  // an ordinal, or a constant
    // (An aggregate call reads the FROM clause's rows.)
    bool readsOutput = false, readsOther = false;
    forEachAggregate(key, [&](const FunctionCallExpression&) { readsOther = true; });
    forEachSubexpression(key, [&](const Expression& node) {
      if (node.is<IdentifierExpression>()) {
        (outputNames.count(node.as<IdentifierExpression>().names.front()) ? readsOutput
                                                                          : readsOther) = true;
      }
      return false;
    });
    // A key over output names only binds against the output; one that mixes them with other
    // columns is left to it too (and fails there): bound over the FROM clause its aliases
    // would read other columns.
    if (!readsOther || readsOutput) continue;
    bool aggregates = false;
    forEachAggregate(key, [&](const FunctionCallExpression& call) {
      state.aggregateCalls.push_back(&call);
      aggregates = true;
    });
    if (aggregates && !state.aggregating) {
      fail(key, "Aggregate expression is illegal in ORDER BY clause of non-aggregate SELECT");
    }
    sort.columns[k] = static_cast<int>(state.items.size());
    state.items.push_back(SelectBinding::OutputItem{&key, -1, "$sort" + std::to_string(k)});
    ++state.sortColumns;
  }
}

// A legacy group window, `GROUP BY TUMBLE(ts, INTERVAL ..)` (or HOP(ts, slide, size),
// SESSION(ts, gap)): the window TVF over the input, grouped by its window; TUMBLE_START,
// TUMBLE_END and TUMBLE_ROWTIME (TUMBLE_PROCTIME) read the window's properties.
void Binder::bindGroupWindow(SelectBinding& state) {
  Relation& input = state.input;
  for (const GroupingElement& element : state.select.groupBy) {
    if (!element.expression || !element.expression->is<FunctionCallExpression>()) continue;
    const auto& call = element.expression->as<FunctionCallExpression>();
    if (call.name.size() != 1 || call.quotedName) continue;
    std::string name = upper(call.name[0]);
    if (name != "TUMBLE" && name != "HOP" && name != "SESSION") continue;
    if (element.kind != GroupingKind::kExpression) {
      notSupported(call, "A group window inside GROUPING SETS, ROLLUP or CUBE");
    }
    if (state.groupWindow) fail(call, "Only one group window is allowed in GROUP BY");
    state.groupWindow = &call;
    using relational::WindowKind;
    WindowKind kind = name == "TUMBLE" ? WindowKind::TUMBLE
                      : name == "HOP"  ? WindowKind::HOP
                                       : WindowKind::SESSION;
    size_t minimum = kind == WindowKind::HOP ? 3 : 2;
    size_t maximum = kind == WindowKind::SESSION ? 2 : minimum + 1;
    if (call.arguments.size() < minimum || call.arguments.size() > maximum) {
      fail(call, "Invalid number of arguments to the group window function " + name);
    }
    BoundPtr time = bindExpression(*call.arguments[0], {input.scope});
    if (time->kind() != expression::ExpressionKind::kColumnReference) {
      fail(*call.arguments[0],
           "The time argument of the group window " + name + " must be a time attribute column");
    }
    int timeColumn = static_cast<const expression::ColumnReference&>(*time).index();
    const Expression* slide = kind == WindowKind::HOP ? call.arguments[1].get() : nullptr;
    const Expression* size =
        kind == WindowKind::HOP ? call.arguments[2].get() : call.arguments[1].get();
    const Expression* offset =
        call.arguments.size() > minimum ? call.arguments.back().get() : nullptr;
    relational::WindowSpec window =
        windowSpecOf(*call.arguments[0], kind, timeColumn, input.scope, size, slide, offset);
    bool processingTime = window.processingTime;
    auto function = std::make_shared<LogicalWindowTableFunction>(input.node, std::move(window));
    state.groupWindowColumn = static_cast<int>(input.scope.size());
    const auto& fields = function->rowType->getFields();
    for (size_t c = input.scope.size(); c < fields.size(); ++c) {
      input.scope.push_back(ScopeColumn{"", fields[c].name, fields[c].type, true});
    }
    input.node = function;
    std::string arguments = unparse(call).substr(call.name[0].size());
    state.groupWindowTexts = {name + "_START" + arguments, name + "_END" + arguments,
                              name + (processingTime ? "_PROCTIME" : "_ROWTIME") + arguments};
  }
}

// Ranking functions ROW_NUMBER() / RANK() / DENSE_RANK() OVER (PARTITION BY .. ORDER BY ..)
// as select items: a Rank node appends the rank column (bounded later by a WHERE above).
void Binder::planRankFunctions(SelectBinding& state) {
  Relation& input = state.input;
  int rankFunctions = 0;
  for (const SelectBinding::OutputItem& item : state.items) {
    if (!item.expression || !item.expression->is<FunctionCallExpression>()) continue;
    const auto& call = item.expression->as<FunctionCallExpression>();
    if (!call.over || call.name.size() != 1) continue;
    std::string name = upper(call.name[0]);
    relational::RankKind kind;
    if (name == "ROW_NUMBER") {
      kind = relational::RankKind::ROW_NUMBER;
    } else if (name == "RANK") {
      kind = relational::RankKind::RANK;
    } else if (name == "DENSE_RANK") {
      kind = relational::RankKind::DENSE_RANK;
    } else {
      continue;
    }
    if (state.aggregating) notSupported(call, name + " over an aggregation");
    if (!call.arguments.empty()) fail(call, "Function '" + name + "' takes no arguments");
    const WindowSpecification& window = *call.over;
    if (!window.referenceName.empty() || window.frame) {
      notSupported(window, "A named window or a frame for " + name);
    }
    if (window.orderBy.empty()) fail(window, name + " needs an ORDER BY in its OVER clause");
    // Keys may be expressions: computed below the Rank (Calcite's projection of them).
    auto columnOf = [&](const Expression& expression) {
      BoundPtr bound = bindExpression(expression, {input.scope});
      if (!bound->isDeterministic()) {
        notSupported(expression, "A non-deterministic PARTITION BY / ORDER BY key of " + name);
      }
      return windowKeyColumn(input, bound);
    };
    std::vector<int> partition;
    for (const auto& key : window.partitionBy) partition.push_back(columnOf(*key));
    std::vector<relational::SortKey> sort;
    for (const OrderItem& key : window.orderBy) {
      sort.push_back(relational::SortKey{columnOf(*key.expression), !key.descending,
                                                 nullsFirstOf(key)});
    }
    if (++rankFunctions > 1) notSupported(call, "More than one ranking function in a select list");
    if (state.correlated) notSupported(call, name + " in a correlated subquery");
    // Without the columns a WHERE subquery's markers added: the rank column follows the scope's.
    input.node = withFirstColumns(input.node, input.scope.size());
    state.overColumns[&call] = OverColumn{input.node->rowType->getFieldCount(),
                                          LogicalType::simple(LogicalTypeRoot::BIGINT, false)};
    input.node = std::make_shared<LogicalRank>(input.node, std::move(partition), std::move(sort),
                                               kind, 1, INT64_MAX, true, item.name);
    // The rank column is reachable only through the call (but counts among the input's
    // columns, which an OVER aggregation planned next keeps).
    const RowField& rankField = input.node->rowType->getFields().back();
    input.scope.push_back(ScopeColumn{"", rankField.name, rankField.type, /*hidden=*/true});
  }
}

// OVER aggregates: `agg(x) OVER (PARTITION BY .. ORDER BY time ROWS|RANGE .. PRECEDING)`.
void Binder::planSelectOverAggregates(SelectBinding& state) {
  std::vector<const FunctionCallExpression*> overCalls;
  for (const SelectBinding::OutputItem& item : state.items) {
    if (item.expression) {
      forEachOverAggregate(*item.expression,
                           [&](const FunctionCallExpression& call) { overCalls.push_back(&call); });
    }
  }
  if (!overCalls.empty()) {
    if (state.aggregating) notSupported(*overCalls[0], "OVER aggregates together with GROUP BY");
    if (state.correlated) notSupported(*overCalls[0], "OVER aggregates in a correlated subquery");
    planOverAggregates(state.select, overCalls, state.input, state.overColumns);
  }
}

// Without aggregation: the correlation keys and carried columns of a correlated subquery,
// then the select list over the input (its subqueries joined onto the input).
void Binder::bindProjection(SelectBinding& state) {
  Relation& input = state.input;
  Correlation* correlation = state.correlation;
  for (int k = 0; k < state.correlationKeys; ++k) {
    state.projections.push_back(correlation->innerKeys[static_cast<size_t>(k)]);
    state.names.push_back("$corr" + std::to_string(k));
  }
  if (correlation) {
    for (int column : correlation->carried) {
      state.projections.push_back(
          expression::column(column, input.scope[static_cast<size_t>(column)].type));
      state.names.push_back("$carried" + std::to_string(state.projections.size() - 1));
    }
  }
  const ClauseContext selectList{
      .scope = input.scope, .subqueryInput = &input, .overColumns = &state.overColumns};
  for (const SelectBinding::OutputItem& item : state.items) {
    BoundPtr bound = item.expression
                         ? bindExpression(*item.expression, selectList)
                         : expression::column(item.inputColumn, input.scope[item.inputColumn].type);
    state.projections.push_back(bound);
    state.names.push_back(item.name);
  }
}

// With aggregation: the projection of the grouping keys and the calls' arguments, the
// aggregation over it (its grouping sets and its window, if any, left to the optimizer's
// passes), then HAVING and the select list over its output.
void Binder::bindAggregation(SelectBinding& state) {
  const SelectQuery& select = state.select;
  Relation& input = state.input;
  Correlation* correlation = state.correlation;
  if (correlation && !correlation->residuals.empty() && !correlation->validateOnly) {
    notSupported(select,
                 "A correlated subquery with a condition other than `inner = outer` "
                 "that aggregates");  // decorrelateResiduals took them (see below)
  }
  GroupingBinding grouping;
  bindGroupingKeys(state, grouping);
  AggregateBinding& binding = grouping.binding;
  const int groupCount = grouping.groupCount;
  for (const FunctionCallExpression* call : state.aggregateCalls) {
    AggregateCall aggregate =
        bindAggregateCall(*call, input.scope, grouping.preProjection, grouping.preNames);
    binding.callColumns[call] = groupCount + static_cast<int>(grouping.calls.size());
    binding.outputTypes.push_back(aggregate.resultType);
    grouping.callNames.push_back("$f" + std::to_string(groupCount + grouping.calls.size()));
    grouping.calls.push_back(std::move(aggregate));
  }
  for (const AggregateCall& call : grouping.calls) {
    grouping.emptyResults.push_back(
        function::aggregateResult(call, function::createAccumulator(call)));
  }
  // Two keys of one name (`GROUP BY a.k, b.k`) get distinct names (k, k0).
  grouping.preNames = uniquifyNames(grouping.preNames);
  LogicalNodePtr pre =
      std::make_shared<LogicalProject>(input.node, grouping.preProjection, grouping.preNames);
  // One aggregation: with grouping sets (planned by GroupingSetsExpansion), or windowed when
  // it groups by the window of a window TVF (planned by WindowAggregateDetection).
  std::vector<int> keys(static_cast<size_t>(groupCount));
  std::iota(keys.begin(), keys.end(), 0);
  std::vector<std::vector<int>> sets;
  if (grouping.multipleSets) sets = grouping.groupingSets;
  const bool windowed =
      !grouping.multipleSets && windowGroupingOf(*pre, groupCount, grouping.calls).has_value();
  if (grouping.multipleSets) {
    binding.groupingFlagsOffset = groupCount + static_cast<int>(grouping.calls.size());
  }
  LogicalNodePtr aggregate =
      std::make_shared<LogicalAggregate>(pre, std::move(keys), grouping.calls, grouping.callNames,
                                         true, std::move(sets), windowed);
  // The keys' types as the aggregation outputs them (time attributes materialized, but
  // window_time of a window aggregation; NULL where a grouping set lacks the key).
  for (int k = 0; k < groupCount; ++k) {
    binding.outputTypes[static_cast<size_t>(k)] =
        aggregate->rowType->getFields()[static_cast<size_t>(k)].type;
  }
  bindAggregatedOutput(state, grouping, std::move(aggregate));
}

// The keys of GROUP BY (after the correlation keys of a correlated subquery, which group
// first), projected below the aggregation, and its grouping sets.
void Binder::bindGroupingKeys(SelectBinding& state, GroupingBinding& grouping) {
  const SelectQuery& select = state.select;
  Relation& input = state.input;
  std::vector<BoundPtr>& preProjection = grouping.preProjection;
  std::vector<std::string>& preNames = grouping.preNames;
  AggregateBinding& binding = grouping.binding;
  // The distinct GROUP BY expressions (the keys) and the grouping sets over them.
  std::vector<const Expression*> keyExpressions;
  grouping.groupingSets = expandGroupingSets(select.groupBy, keyExpressions);
  const std::vector<std::vector<int>>& groupingSets = grouping.groupingSets;
  bool plainGrouping = std::all_of(
      select.groupBy.begin(), select.groupBy.end(),
      [](const GroupingElement& element) { return element.kind == GroupingKind::kExpression; });
  if (plainGrouping) {
    // GROUP BY a, b: one grouping set with every expression, as written (repeats kept).
    keyExpressions.clear();
    for (const GroupingElement& element : select.groupBy) {
      keyExpressions.push_back(element.expression.get());
    }
  }
  grouping.multipleSets = !plainGrouping && groupingSets.size() > 1;
  const bool multipleSets = grouping.multipleSets;
  if (state.correlationKeys > 0 && (multipleSets || state.groupWindow)) {
    notSupported(select,
                 "A correlated subquery with GROUPING SETS, ROLLUP, CUBE or a group window");
  }
  // A correlated subquery aggregates per correlation key: the inner keys group first.
  for (int k = 0; k < state.correlationKeys; ++k) {
    const BoundPtr& key = state.correlation->innerKeys[static_cast<size_t>(k)];
    binding.groupingTexts.emplace_back();  // no expression's SQL text is empty
    binding.groupingInputColumns.push_back(-1);
    binding.outputTypes.push_back(key->type());
    preProjection.push_back(key);
    preNames.push_back("$corr" + std::to_string(k));
  }
  for (size_t k = 0; k < keyExpressions.size(); ++k) {
    const Expression& keyExpression = *keyExpressions[k];
    if (&keyExpression == state.groupWindow) {
      // The group window: its start, end and time, read as TUMBLE_START(..) and so on.
      static const char* kNames[] = {"w$start", "w$end", "w$rowtime"};
      for (int property = 0; property < 3; ++property) {
        const ScopeColumn& column = input.scope[state.groupWindowColumn + property];
        binding.groupingTexts.push_back(state.groupWindowTexts[property]);
        binding.groupingInputColumns.push_back(-1);
        binding.outputTypes.push_back(column.type);
        preProjection.push_back(
            expression::column(state.groupWindowColumn + property, column.type));
        preNames.push_back(kNames[property]);
      }
      continue;
    }
    BoundPtr key = bindExpression(keyExpression, {input.scope});
    binding.groupingTexts.push_back(unparse(keyExpression));
    binding.groupingInputColumns.push_back(
        key->kind() == expression::ExpressionKind::kColumnReference
            ? static_cast<const expression::ColumnReference&>(*key).index()
            : -1);
    // (Replaced by the aggregation's output type of the key, NULL where a set lacks it.)
    binding.outputTypes.push_back(key->type());
    std::string keyName = keyExpression.is<IdentifierExpression>()
                              ? keyExpression.as<IdentifierExpression>().names.back()
                              : "$f" + std::to_string(preProjection.size());
    preProjection.push_back(key);
    preNames.push_back(keyName);
  }
  grouping.groupCount = static_cast<int>(preProjection.size());
}

// HAVING and the select list, over the aggregation's output; their subqueries join onto it
// (appending columns, so the aggregation's keep their positions). A correlated subquery that
// aggregates without GROUP BY also gets each item's value for a key without rows.
void Binder::bindAggregatedOutput(SelectBinding& state, GroupingBinding& grouping,
                                  LogicalNodePtr aggregate) {
  const SelectQuery& select = state.select;
  Relation& input = state.input;
  AggregateBinding& binding = grouping.binding;
  std::vector<BoundPtr>& projections = state.projections;
  const int correlationKeys = state.correlationKeys;
  const int aggregateArity = aggregate->rowType->getFieldCount();
  Relation aggregated{aggregate, {}};
  if (select.having) {
    std::vector<const Expression*> conjuncts;
    collectConjuncts(*select.having, conjuncts);
    BoundPtr condition = bindExpression(*select.having, {.scope = input.scope,
                                                         .aggregates = &binding,
                                                         .subqueryInput = &aggregated,
                                                         .topLevelConjuncts = conjuncts});
    if (condition->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
      fail(*select.having, "HAVING clause must be a condition");
    }
    aggregated.node = std::make_shared<LogicalFilter>(aggregated.node, condition);
  }
  for (int k = 0; k < correlationKeys; ++k) {
    projections.push_back(expression::column(k, binding.outputTypes[static_cast<size_t>(k)]));
    state.names.push_back("$corr" + std::to_string(k));
  }
  const ClauseContext selectList{
      .scope = input.scope, .aggregates = &binding, .subqueryInput = &aggregated};
  for (const SelectBinding::OutputItem& item : state.items) {
    if (!item.expression) fail(select, "'*' cannot be used with GROUP BY or aggregates");
    projections.push_back(bindExpression(*item.expression, selectList));
    state.names.push_back(item.name);
  }
  aggregate = aggregated.node;
  if (correlationKeys > 0 && select.groupBy.empty()) {
    // One row per correlation key: what each item is for a key without rows (the count
    // bug), the aggregates' results over no rows inlined (COUNT 0, the others NULL).
    std::vector<BoundPtr> empty;
    const auto& fields = aggregate->rowType->getFields();
    for (size_t c = 0; c < fields.size(); ++c) {
      const int call = static_cast<int>(c) - grouping.groupCount;
      empty.push_back(call >= 0 && static_cast<int>(c) < aggregateArity
                          ? expression::literal(grouping.emptyResults[static_cast<size_t>(call)],
                                                fields[c].type->copy(true))
                          : expression::literal(Value(), fields[c].type->copy(true)));
    }
    for (size_t i = static_cast<size_t>(correlationKeys); i < projections.size(); ++i) {
      std::vector<int> read;
      expression::collectColumns(projections[i], read);
      if (std::any_of(read.begin(), read.end(), [&](int c) { return c >= aggregateArity; })) {
        // A subquery of the select list: its value for a key without rows is unknown here.
        notSupported(*state.items[i - static_cast<size_t>(correlationKeys)].expression,
                     "A subquery in the select list of a correlated subquery");
      }
      state.correlation->emptyGroupValues.push_back(
          expression::inlineColumns(projections[i], empty));
    }
  }
  input.node = aggregate;
}

// The projection (left out when it is the input's columns in order under
// the same names), DISTINCT, and the output scope (a correlated subquery's keys and carried
// columns hidden).
Binder::Relation Binder::finishSelect(SelectBinding& state) {
  Relation& input = state.input;
  std::vector<BoundPtr>& projections = state.projections;
  std::vector<std::string>& names = state.names;
  // A projection of every input column in order, under the same names, is left out.
  bool identity =
      !state.aggregating && projections.size() == input.node->rowType->getFields().size();
  for (size_t i = 0; identity && i < projections.size(); ++i) {
    const auto* reference = dynamic_cast<const expression::ColumnReference*>(projections[i].get());
    identity = reference && reference->index() == static_cast<int>(i) &&
               names[i] == input.node->rowType->getFields()[i].name;
  }
  LogicalNodePtr result =
      identity ? input.node
               : std::make_shared<LogicalProject>(input.node, projections, uniquifyNames(names));
  if (state.select.distinct) {
    std::vector<int> all;
    for (size_t i = 0; i < names.size(); ++i) all.push_back(static_cast<int>(i));
    result = std::make_shared<LogicalAggregate>(result, all, std::vector<AggregateCall>{},
                                                std::vector<std::string>{});
  }
  const int hiddenColumns =
      state.correlationKeys +
      (state.correlation ? static_cast<int>(state.correlation->carried.size()) : 0);
  Scope outputScope;
  for (size_t i = 0; i < names.size(); ++i) {
    const bool hidden = static_cast<int>(i) < hiddenColumns ||
                        i >= names.size() - static_cast<size_t>(state.sortColumns);
    outputScope.push_back(ScopeColumn{"", names[i], projections[i]->type(), hidden});
  }
  return Relation{result, outputScope};
}

}  // namespace eddy::sql
