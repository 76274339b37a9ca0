// Function calls: aggregate calls read from the aggregation's output, GROUPING / GROUPING_ID,
// ranking functions and OVER aggregates read from the columns their nodes added, the special
// syntaxes (OVERLAY, TRIM, the JSON functions' clauses), conditional functions built from
// CASE, and every other function resolved in the function registry with Flink's type rules.
#include "sql/binder/binder.h"

#include <algorithm>
#include <map>

#include "eddy/exceptions.h"
#include "function/type_rules.h"
#include "sql/binder/aggregate_binding.h"
#include "sql/binder/call_analysis.h"
#include "sql/binder/name_matching.h"
#include "sql/parser/unparse.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

BoundPtr Binder::bindFunctionCall(const FunctionCallExpression& call, const ClauseContext& clause) {
  const AggregateBinding* aggregates = clause.aggregates;
  if (aggregateKindOf(call)) {
    if (aggregates) {
      auto it = aggregates->callColumns.find(&call);
      if (it != aggregates->callColumns.end()) {
        return expression::column(it->second, aggregates->outputTypes[it->second]);
      }
    }
    fail(call, std::string("Aggregate expression is illegal in ") +
                   (aggregates ? "this position" : "GROUP BY clause"));
  }
  if (call.name.size() == 1 && (upper(call.name[0]) == "GROUPING" || upper(call.name[0]) == "GROUPING_ID")) {
    if (!aggregates) fail(call, upper(call.name[0]) + " is allowed only above a GROUP BY");
    if (call.arguments.empty()) {
      fail(call, "Invalid number of arguments to function '" + upper(call.name[0]) + "'");
    }
    // GROUPING(a, b, ...) = flag(a) * 2^(n-1) + ... + flag(last).
    LogicalTypePtr flagType = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
    BoundPtr result;
    for (const auto& argument : call.arguments) {
      std::string text = unparse(*argument);
      auto position = std::find(aggregates->groupingTexts.begin(), aggregates->groupingTexts.end(), text);
      if (position == aggregates->groupingTexts.end()) {
        fail(*argument, "Argument to " + upper(call.name[0]) + " operator must be a grouped expression");
      }
      int key = static_cast<int>(position - aggregates->groupingTexts.begin());
      BoundPtr flag = aggregates->groupingFlagsOffset < 0
                          ? expression::literal(Value(int64_t{0}), flagType)
                          : expression::column(aggregates->groupingFlagsOffset + key, flagType);
      result = result ? expression::call("+", {expression::call("*", {result, expression::literal(Value(int64_t{2}), flagType)}), flag})
                      : flag;
    }
    return result;
  }
  if (call.syntax == FunctionSyntax::kJson) return bindJsonCall(call, clause);
  if (call.syntax == FunctionSyntax::kOverlay) {
    // OVERLAY(s PLACING r FROM p [FOR n]) = SUBSTRING(s, 1, p - 1) || r || SUBSTRING(s, p + n),
    // n defaulting to CHAR_LENGTH(r) (Flink's definition, with SUBSTRING's clamping).
    BoundPtr text = bindExpression(*call.arguments[0], clause);
    BoundPtr replacement = bindExpression(*call.arguments[1], clause);
    BoundPtr position = bindExpression(*call.arguments[2], clause);
    BoundPtr length = call.arguments.size() > 3
                          ? bindExpression(*call.arguments[3], clause)
                          : expression::call("CHAR_LENGTH", {replacement});
    BoundPtr one = expression::literal(Value(int32_t{1}));
    BoundPtr head = expression::call(
        "SUBSTRING", {text, one, expression::call("-", {position, one}, context_)}, context_);
    BoundPtr tail = expression::call(
        "SUBSTRING", {text, expression::call("+", {position, length}, context_)}, context_);
    return expression::call(
        "||", {expression::call("||", {head, replacement}, context_), tail}, context_);
  }
  if (call.over) {
    // A ranking function or OVER aggregate of the select list reads its node's column.
    if (clause.overColumns) {
      auto over = clause.overColumns->find(&call);
      if (over != clause.overColumns->end()) {
        return expression::column(over->second.column, over->second.type);
      }
    }
    notSupported(call, "OVER windows");
  }
  if (call.distinct || call.filter) fail(call, "DISTINCT and FILTER apply only to aggregate functions");
  if (call.syntax == FunctionSyntax::kTrim && call.arguments.size() == 3 &&
      call.arguments[0]->is<SymbolExpression>()) {
    // TRIM([BOTH|LEADING|TRAILING] chars FROM s) is TRIM/LTRIM/RTRIM(s, chars).
    const std::string& flag = call.arguments[0]->as<SymbolExpression>().name;
    std::string function = flag == "LEADING" ? "LTRIM" : flag == "TRAILING" ? "RTRIM" : "TRIM";
    BoundPtr text = bindExpression(*call.arguments[2], clause);
    BoundPtr characters = bindExpression(*call.arguments[1], clause);
    try {
      return expression::call(function, {text, characters}, context_);
    } catch (const ValidationException& error) {
      fail(call, error.message());
    }
  }
  std::vector<BoundPtr> arguments;
  for (const auto& argument : call.arguments) {
    if (argument->is<SymbolExpression>()) {
      // The time unit of EXTRACT, FLOOR/CEIL .. TO, TIMESTAMPADD and TIMESTAMPDIFF reaches the
      // function as a character literal, whose value its binder reads.
      arguments.push_back(expression::literal(Value(argument->as<SymbolExpression>().name)));
      continue;
    }
    arguments.push_back(bindExpression(*argument, clause));
  }
  if (call.name.size() == 1) {
    // Conditional functions are built from CASE (their NULL handling is not a function's).
    const std::string function = upper(call.name[0]);
    auto expect = [&](size_t count) {
      if (arguments.size() != count) {
        fail(call, "Invalid number of arguments to function '" + function + "'. Was expecting " +
                       std::to_string(count) + " arguments");
      }
    };
    try {
      if (function == "COALESCE") {
        if (arguments.empty()) fail(call, "Invalid number of arguments to function 'COALESCE'");
        return expression::coalesce(std::move(arguments));
      }
      if (function == "NULLIF") {
        expect(2);
        return expression::nullIf(arguments[0], arguments[1]);
      }
      if (function == "IF") {
        expect(3);
        return expression::ifThenElse(arguments[0], arguments[1], arguments[2]);
      }
    } catch (const ValidationException& error) {
      if (error.hasPosition()) throw;
      fail(call, error.message());
    }
  }
  std::string name;
  for (size_t i = 0; i < call.name.size(); ++i) name += (i ? "." : "") + call.name[i];
  try {
    return expression::call(name, std::move(arguments), context_, catalogManager_.functions());
  } catch (const ValidationException& error) {
    fail(call, error.message());
  }
}

BoundPtr Binder::bindJsonCall(const FunctionCallExpression& call, const ClauseContext& clause) {
  // The clauses become INT literal arguments of the functions (src/function/scalar/json.cpp).
  const std::string name = upper(call.name.back());
  const JsonClauses& json = *call.json;
  auto bind = [&](const Expression& node) { return bindExpression(node, clause); };
  auto code = [](int32_t value) { return expression::literal(Value(value)); };
  auto illegal = [&](const std::string& behaviour) {
    fail(call, "Illegal behavior '" + behaviour + "' specified in " + name + " function");
  };
  if (name == "JSON_OBJECT" || name == "JSON_ARRAY") {
    const bool object = name == "JSON_OBJECT";
    const std::string onNull = json.onNull.empty() ? (object ? "NULL" : "ABSENT") : json.onNull;
    std::vector<BoundPtr> arguments{code(onNull == "ABSENT" ? 1 : 0)};
    for (size_t i = 0; i < call.arguments.size(); ++i) {
      arguments.push_back(bind(*call.arguments[i]));
      if (object && i % 2 == 0) continue;
      // A nested JSON_OBJECT/JSON_ARRAY is inserted as JSON, not as a string.
      arguments.push_back(expression::literal(Value(isJsonConstructorCall(*call.arguments[i]))));
    }
    return expression::call(name, std::move(arguments), context_);
  }
  std::vector<BoundPtr> arguments{bind(*call.arguments[0]), bind(*call.arguments[1])};
  if (name == "JSON_EXISTS") {
    if (json.onError.empty()) return expression::call(name, std::move(arguments), context_);
    static const std::map<std::string, int32_t> kModes = {
        {"FALSE", 0}, {"TRUE", 1}, {"UNKNOWN", 2}, {"ERROR", 3}};
    auto mode = kModes.find(json.onError);
    if (mode == kModes.end()) illegal(json.onError);
    arguments.push_back(code(mode->second));
    return expression::call(name, std::move(arguments), context_);
  }
  if (name == "JSON_VALUE") {
    if (!json.returning && json.onEmpty.empty() && json.onError.empty()) {
      return expression::call(name, std::move(arguments), context_);
    }
    LogicalTypePtr type = json.returning ? json.returning->copy(true)
                                            : LogicalType::varchar(LogicalType::kMaxLength, true);
    arguments.push_back(expression::literal(Value(), type));
    for (const auto& [behaviour, defaultValue] :
         {std::pair<const std::string&, const ExpressionPtr&>{json.onEmpty, json.emptyDefault},
          std::pair<const std::string&, const ExpressionPtr&>{json.onError, json.errorDefault}}) {
      if (behaviour != "" && behaviour != "NULL" && behaviour != "ERROR" && behaviour != "DEFAULT") {
        illegal(behaviour);
      }
      arguments.push_back(code(behaviour == "ERROR" ? 1 : behaviour == "DEFAULT" ? 2 : 0));
      arguments.push_back(defaultValue ? expression::castIfNeeded(bind(*defaultValue), type, context_)
                                       : expression::literal(Value(), type));
    }
    return expression::call(name, std::move(arguments), context_);
  }
  // JSON_QUERY.
  if (json.returning && !function::isCharacterString(*json.returning)) {
    notSupported(call, "JSON_QUERY RETURNING " + json.returning->asSummaryString());
  }
  if (json.wrapper.empty() && json.onEmpty.empty() && json.onError.empty()) {
    return expression::call(name, std::move(arguments), context_);
  }
  arguments.push_back(code(json.wrapper == "CONDITIONAL"     ? 1
                           : json.wrapper == "UNCONDITIONAL" ? 2
                                                                : 0));
  for (const std::string& behaviour : {json.onEmpty, json.onError}) {
    if (behaviour == "DEFAULT" || behaviour == "TRUE" || behaviour == "FALSE" ||
        behaviour == "UNKNOWN") {
      illegal(behaviour);
    }
    arguments.push_back(code(behaviour == "ERROR"          ? 1
                             : behaviour == "EMPTY ARRAY"  ? 2
                             : behaviour == "EMPTY OBJECT" ? 3
                                                           : 0));
  }
  return expression::call(name, std::move(arguments), context_);
}

}  // namespace eddy::sql
