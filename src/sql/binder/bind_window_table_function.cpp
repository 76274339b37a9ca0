// Window table functions, `TABLE(TUMBLE|HOP|CUMULATE|SESSION(TABLE t, DESCRIPTOR(ts),
// INTERVAL ..))`: their arguments (positional and named), and the window they describe, which a
// legacy group window of GROUP BY (bindSelect) describes too.
#include "sql/binder/binder.h"

#include <algorithm>
#include <map>

#include "expression/expression_evaluator.h"
#include "sql/binder/name_matching.h"
#include "sql/parser/unparse.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;

int64_t Binder::windowIntervalMillis(const Expression& argument, const std::string& parameter) {
  BoundPtr bound = bindExpression(argument, {Scope{}});
  std::optional<Value> value;
  if (bound->isConstant()) value = expression::ExpressionEvaluator::evaluateConstant(bound);
  if (!value || value->isNull() || value->kind() != ValueKind::DURATION) {
    fail(argument, "The " + parameter +
                       " of a window must be a constant day-time interval such as INTERVAL '10' "
                       "MINUTE, but is '" + unparse(argument) + "'");
  }
  return value->get<Duration>().toMillis();
}

relational::WindowSpec Binder::windowSpecOf(const Node& at,
                                                    relational::WindowKind kind,
                                                    int timeColumn, const Scope& scope,
                                                    const Expression* size,
                                                    const Expression* slide,
                                                    const Expression* offset) {
  using relational::WindowKind;
  const LogicalType& timeType = *scope[timeColumn].type;
  if (timeType.getTimestampKind() == TimestampKind::REGULAR) {
    fail(at, "The window function requires the timecol is a time attribute type, but is " +
                 timeType.asSummaryString() + ".");
  }
  relational::WindowSpec window;
  window.kind = kind;
  window.timeColumn = timeColumn;
  window.processingTime = timeType.getTimestampKind() == TimestampKind::PROCTIME;
  const bool session = kind == WindowKind::SESSION;
  window.size = windowIntervalMillis(*size, session ? "gap" : "size");
  if (slide) {
    window.slide = windowIntervalMillis(*slide, kind == WindowKind::HOP ? "slide" : "step");
  }
  if (offset) window.offset = windowIntervalMillis(*offset, "offset");
  if (window.size <= 0) {
    fail(*size, std::string(session ? "The gap" : "The size") + " of a window must be positive");
  }
  if (slide && window.slide <= 0) fail(*slide, "The slide or step of a window must be positive");
  if (kind == WindowKind::CUMULATE && window.size % window.slide != 0) {
    fail(at, "CUMULATE table function based aggregate requires maxSize must be an integral "
             "multiple of step, but got maxSize " + std::to_string(window.size) +
             " ms and step " + std::to_string(window.slide) + " ms.");
  }
  if (window.processingTime ||
      timeType.getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
    window.timeZone = context_.sessionTimeZone;
  }
  return window;
}

Binder::Relation Binder::bindWindowTableFunction(const TableFunctionReference& reference) {
  using relational::WindowKind;
  const FunctionCallExpression& call = *reference.call;
  std::string name = call.name.size() == 1 ? upper(call.name[0]) : unparse(call);
  WindowKind kind;
  std::vector<std::string> parameters;
  if (name == "TUMBLE") {
    kind = WindowKind::TUMBLE;
    parameters = {"DATA", "TIMECOL", "SIZE", "OFFSET"};
  } else if (name == "HOP") {
    kind = WindowKind::HOP;
    parameters = {"DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"};
  } else if (name == "CUMULATE") {
    kind = WindowKind::CUMULATE;
    parameters = {"DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"};
  } else if (name == "SESSION") {
    kind = WindowKind::SESSION;
    parameters = {"DATA", "TIMECOL", "GAP"};
  } else {
    notSupported(reference, "The table function '" + name + "'");
  }
  if (reference.lateral) notSupported(reference, "LATERAL TABLE");
  // Positional arguments first, then named ones (`SIZE => INTERVAL ..`).
  std::map<std::string, const Expression*> arguments;
  for (size_t i = 0; i < call.arguments.size(); ++i) {
    const Expression& argument = *call.arguments[i];
    if (argument.is<NamedArgumentExpression>()) {
      const auto& named = argument.as<NamedArgumentExpression>();
      std::string parameter = upper(named.name);
      if (std::find(parameters.begin(), parameters.end(), parameter) == parameters.end()) {
        fail(argument, "Unknown parameter '" + named.name + "' of the window function " + name);
      }
      if (!arguments.emplace(parameter, named.value.get()).second) {
        fail(argument, "The parameter '" + named.name + "' is given twice");
      }
      continue;
    }
    if (i >= parameters.size()) {
      fail(argument, "Too many arguments for the window function " + name);
    }
    arguments[parameters[i]] = &argument;
  }
  const size_t required = kind == WindowKind::TUMBLE || kind == WindowKind::SESSION ? 3 : 4;
  for (size_t i = 0; i < required; ++i) {
    if (!arguments.count(parameters[i])) {
      fail(call, "The window function " + name + " requires the parameter " + parameters[i]);
    }
  }
  const Expression& data = *arguments["DATA"];
  if (!data.is<TableArgumentExpression>()) {
    fail(data, "The first argument of the window function " + name +
                   " must be a table, written TABLE name");
  }
  const auto& table = data.as<TableArgumentExpression>();
  NamedTableReference named;
  named.position = table.position;
  named.name = table.tableName;
  Relation relation = bindNamedTable(named, /*versioned=*/false);
  const Expression& descriptor = *arguments["TIMECOL"];
  if (!descriptor.is<DescriptorExpression>() ||
      descriptor.as<DescriptorExpression>().columns.size() != 1) {
    fail(descriptor, "The second argument of the window function " + name +
                         " must name one time attribute column, written DESCRIPTOR(column)");
  }
  const std::string& timeName = descriptor.as<DescriptorExpression>().columns[0];
  int timeColumn = -1;
  for (size_t c = 0; c < relation.scope.size(); ++c) {
    if (relation.scope[c].name == timeName) timeColumn = static_cast<int>(c);
  }
  if (timeColumn < 0) fail(descriptor, "Column '" + timeName + "' not found in the table");
  for (const std::string& key : table.partitionBy) {
    bool found = std::any_of(relation.scope.begin(), relation.scope.end(),
                             [&](const ScopeColumn& column) { return column.name == key; });
    if (!found) fail(table, "Column '" + key + "' not found in the table");
  }
  auto argumentOf = [&](const char* parameter) -> const Expression* {
    auto found = arguments.find(parameter);
    return found == arguments.end() ? nullptr : found->second;
  };
  const Expression* size = argumentOf(kind == WindowKind::SESSION ? "GAP" : "SIZE");
  const Expression* slide = kind == WindowKind::HOP        ? argumentOf("SLIDE")
                            : kind == WindowKind::CUMULATE ? argumentOf("STEP")
                                                           : nullptr;
  relational::WindowSpec window = windowSpecOf(descriptor, kind, timeColumn, relation.scope,
                                                       size, slide, argumentOf("OFFSET"));
  auto node = std::make_shared<LogicalWindowTableFunction>(relation.node, std::move(window));
  Relation result;
  result.node = node;
  const auto& fields = node->rowType->getFields();
  for (size_t c = 0; c < fields.size(); ++c) {
    result.scope.push_back(ScopeColumn{"", fields[c].name, fields[c].type, false});
  }
  return result;
}

}  // namespace eddy::sql
