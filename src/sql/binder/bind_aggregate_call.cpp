// Aggregate calls (of GROUP BY and OVER alike): their arguments and FILTER projected below the
// aggregation (each distinct argument once), checked as Flink's operand checkers do, typed with
// Flink's result types; JSON_OBJECTAGG / JSON_ARRAYAGG and LAG take extra arguments.
#include "sql/binder/binder.h"

#include <algorithm>

#include "eddy/exceptions.h"
#include "expression/expression_evaluator.h"
#include "function/json_text.h"
#include "function/scalar/cast.h"
#include "function/type_rules.h"
#include "sql/binder/call_analysis.h"
#include "sql/binder/name_matching.h"

namespace eddy::sql {

using BoundPtr = expression::ExpressionPtr;
using function::AggregateCall;
using function::AggregateKind;

namespace {

/// Flink's result types of the aggregate functions.
LogicalTypePtr aggregateResultType(AggregateKind kind, const LogicalTypePtr& timeArgument) {
  // An aggregate of a time attribute (MAX(rowtime)) is a plain timestamp, as in Flink.
  const LogicalTypePtr argument =
      timeArgument->getTimestampKind() == TimestampKind::REGULAR
          ? timeArgument
          : timeArgument->copyWithTimestampKind(TimestampKind::REGULAR);
  switch (kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
      return LogicalType::simple(LogicalTypeRoot::BIGINT, false);
    case AggregateKind::SUM:
      if (argument->getTypeRoot() == LogicalTypeRoot::DECIMAL) {
        return LogicalType::decimal(38, argument->getScale());
      }
      return argument->copy(true);
    case AggregateKind::AVG:
    // Flink's planner rewrites these four to its Welford m2 and COUNT and casts the result
    // to AVG's type: DECIMAL(38, max(s, 6)), otherwise the argument's (INT stays INT).
    case AggregateKind::STDDEV_POP:
    case AggregateKind::STDDEV_SAMP:
    case AggregateKind::VAR_POP:
    case AggregateKind::VAR_SAMP:
      if (argument->getTypeRoot() == LogicalTypeRoot::DECIMAL) {
        return LogicalType::decimal(38, std::max(argument->getScale(), 6));
      }
      return argument->copy(true);
    case AggregateKind::MIN:
    case AggregateKind::MAX:
    case AggregateKind::SINGLE_VALUE:
    case AggregateKind::FIRST_VALUE:
    case AggregateKind::LAST_VALUE:
    case AggregateKind::LISTAGG:  // Flink's SqlListAggFunction: ARG0_NULLABLE
    case AggregateKind::LAG:      // NULL before the offset's row (without a default)
      return argument->copy(true);
    case AggregateKind::COLLECT:  // Calcite's TO_MULTISET; an empty group collects {}
      return LogicalType::multiset(argument, false);
    case AggregateKind::JSON_OBJECTAGG:  // '{}' / '[]' over no rows
    case AggregateKind::JSON_ARRAYAGG:
      return LogicalType::varchar(LogicalType::kMaxLength, false);
  }
  return argument;
}

/// Checks the argument types of an aggregate call as Flink's operand checkers do and takes
/// LISTAGG's literal separator into `aggregate`; returns Calcite's "Cannot apply" message, or
/// "" when the arguments fit.
std::string checkAggregateArguments(const FunctionCallExpression& call, AggregateKind kind,
                                    const expression::BoundExpression& argument,
                                    const BoundPtr& separator, AggregateCall& aggregate) {
  const std::string name = upper(call.name[0]);
  auto rejection = [&](const std::string& forms) {
    std::string shown = "<" + function::typeNameInMessage(*argument.type()) + ">";
    if (separator) shown += ", <" + function::typeNameInMessage(*separator->type()) + ">";
    return "Cannot apply '" + name + "' to arguments of type '" + name + "(" + shown +
           ")'. Supported form(s): " + forms;
  };
  switch (kind) {
    case AggregateKind::SUM:
    case AggregateKind::AVG:
    case AggregateKind::STDDEV_POP:
    case AggregateKind::STDDEV_SAMP:
    case AggregateKind::VAR_POP:
    case AggregateKind::VAR_SAMP:
      if (!function::isNumeric(*argument.type())) return rejection("'" + name + "(<NUMERIC>)'");
      return "";
    case AggregateKind::LISTAGG: {
      // Flink's SqlListAggFunction: a character value and an optional character literal.
      const auto* literal = dynamic_cast<const expression::Literal*>(separator.get());
      bool separatorFits = !separator || (literal && !literal->value().isNull() &&
                                          function::isCharacterString(*separator->type()));
      if (!function::isCharacterString(*argument.type()) || !separatorFits) {
        return rejection("'LISTAGG(<CHARACTER>)'\n'LISTAGG(<CHARACTER>, <CHARACTER_LITERAL>)'");
      }
      if (literal) aggregate.listSeparator = literal->value().get<std::string>();
      return "";
    }
    default:
      return "";
  }
}

/// The column of `expression` in the projection below an aggregate: an equal deterministic
/// expression already there is read again (as Calcite projects each distinct argument once), so
/// calls over one argument read one column — which lets DISTINCT calls share a table.
int projectOnce(const BoundPtr& expression, std::vector<BoundPtr>& projection,
                std::vector<std::string>& names) {
  if (expression->isDeterministic()) {
    const std::string digest = expression->toString();
    for (size_t i = 0; i < projection.size(); ++i) {
      if (projection[i]->isDeterministic() && *projection[i]->type() == *expression->type() &&
          projection[i]->toString() == digest) {
        return static_cast<int>(i);
      }
    }
  }
  const int column = static_cast<int>(projection.size());
  projection.push_back(expression);
  names.push_back("$f" + std::to_string(column));
  return column;
}

}  // namespace

AggregateCall Binder::bindAggregateCall(const FunctionCallExpression& call, const Scope& scope,
                                        std::vector<BoundPtr>& projection,
                                        std::vector<std::string>& names) {
  const std::string name = upper(call.name[0]);
  const AggregateKind kind = *aggregateKindOfCall(call);
  AggregateCall aggregate{kind, -1, nullptr, -1, call.distinct};
  if (call.distinct && kind == AggregateKind::COUNT_STAR) {
    fail(call, "COUNT(DISTINCT *) is not allowed; name the columns");
  }
  LogicalTypePtr argumentType = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
  if (kind == AggregateKind::JSON_OBJECTAGG || kind == AggregateKind::JSON_ARRAYAGG) {
    BoundPtr argument = bindJsonAggregateArgument(call, kind, scope, aggregate, argumentType);
    aggregate.argumentColumn = projectOnce(argument, projection, names);
  } else if (kind != AggregateKind::COUNT_STAR) {
    size_t maxArguments = kind == AggregateKind::LISTAGG ? 2 : kind == AggregateKind::LAG ? 3 : 1;
    if (call.arguments.empty() || call.arguments.size() > maxArguments) {
      fail(call, "Invalid number of arguments to function '" + name + "'. Was expecting " +
                     (maxArguments == 1 ? std::string("1") : "1 to " + std::to_string(maxArguments)) +
                     " arguments");
    }
    if (hasNestedAggregate(call)) fail(call, "Aggregate expressions cannot be nested");
    BoundPtr argument = bindExpression(*call.arguments[0], {scope});
    argumentType = argument->type();
    if (kind == AggregateKind::LAG) bindLagArguments(call, argumentType, aggregate);
    BoundPtr separator = call.arguments.size() > 1 && kind == AggregateKind::LISTAGG
                             ? bindExpression(*call.arguments[1], {scope})
                             : nullptr;
    std::string error = checkAggregateArguments(call, kind, *argument, separator, aggregate);
    if (!error.empty()) fail(call, error);
    aggregate.argumentColumn = projectOnce(argument, projection, names);
  }
  if (call.filter) {
    BoundPtr filter = bindExpression(*call.filter, {scope});
    if (filter->type()->getTypeRoot() != LogicalTypeRoot::BOOLEAN) {
      fail(*call.filter, "FILTER expression must be of type BOOLEAN");
    }
    aggregate.filterColumn = projectOnce(filter, projection, names);
  }
  aggregate.resultType = aggregateResultType(kind, argumentType);
  return aggregate;
}

BoundPtr Binder::bindJsonAggregateArgument(const FunctionCallExpression& call,
                                           AggregateKind kind, const Scope& scope,
                                           AggregateCall& aggregate, LogicalTypePtr& valueType) {
  const std::string name = upper(call.name[0]);
  if (call.over) fail(call, name + " is not supported in OVER windows");
  if (call.distinct) fail(call, "DISTINCT is not allowed in " + name);
  if (hasNestedAggregate(call)) fail(call, "Aggregate expressions cannot be nested");
  const bool object = kind == AggregateKind::JSON_OBJECTAGG;
  const std::string onNull =
      call.json && !call.json->onNull.empty() ? call.json->onNull : (object ? "NULL" : "ABSENT");
  aggregate.jsonAbsentOnNull = onNull == "ABSENT";
  // A nested JSON_OBJECT/JSON_ARRAY is inserted as JSON, not as a string (as in JSON_OBJECT).
  aggregate.jsonRawValues = isJsonConstructorCall(*call.arguments.back());
  BoundPtr value = bindExpression(*call.arguments.back(), {scope});
  valueType = value->type();
  const bool valueFits = function::isJsonScalarType(*valueType) ||
                         valueType->getTypeRoot() == LogicalTypeRoot::NULL_TYPE;
  std::string shown = "<" + function::typeNameInMessage(*valueType) + ">";
  BoundPtr key = object ? bindExpression(*call.arguments[0], {scope}) : nullptr;
  if (key) shown = "<" + function::typeNameInMessage(*key->type()) + ">, " + shown;
  if (!valueFits || (key && !function::isCharacterString(*key->type()))) {
    fail(call, "Cannot apply '" + name + "' to arguments of type '" + name + "(" + shown +
                   ")'. Supported form(s): " +
                   (object ? "'JSON_OBJECTAGG(KEY <CHARACTER> VALUE <ANY>)'"
                           : "'JSON_ARRAYAGG(<ANY>)'"));
  }
  // JSON_OBJECTAGG's accumulator takes the pair as one ROW(k, v) value.
  return key ? expression::call("ROW", {key, value}, context_) : value;
}

void Binder::bindLagArguments(const FunctionCallExpression& call, const LogicalTypePtr& type,
                              AggregateCall& aggregate) {
  if (!call.over) fail(call, "Function 'LAG' can only be used with an OVER clause");
  if (call.distinct) fail(call, "DISTINCT is not allowed in LAG");
  // The offset: a non-negative integer literal (1 when not given).
  if (call.arguments.size() > 1) {
    std::optional<Value> offset = expression::ExpressionEvaluator::evaluateConstant(
        bindExpression(*call.arguments[1], {Scope{}}));
    std::optional<int64_t> rows;
    if (offset && !offset->isNull() && offset->kind() == ValueKind::INT) rows = offset->get<int32_t>();
    if (offset && !offset->isNull() && offset->kind() == ValueKind::BIGINT) rows = offset->get<int64_t>();
    if (!rows || *rows < 0) {
      fail(*call.arguments[1], "LAG's offset must be a non-negative integer literal");
    }
    aggregate.lagOffset = *rows;
  }
  // The default: a constant of (or castable to) the argument's type (NULL when not given).
  if (call.arguments.size() > 2) {
    const Expression& argument = *call.arguments[2];
    const std::string notConstant =
        "LAG's default must be a constant of type " + type->asSummaryString();
    BoundPtr bound;
    try {
      bound = bindExpression(argument, {Scope{}});
    } catch (const ValidationException&) {
      fail(argument, notConstant);  // whatever keeps it from binding over no columns
    }
    std::optional<Value> value;
    if (function::isCastSupported(*bound->type(), *type->copy(true))) {
      value = expression::ExpressionEvaluator::evaluateConstant(
          expression::castIfNeeded(bound, type->copy(true), context_));
    }
    if (!value) fail(argument, notConstant);
    aggregate.lagDefault = *value;
  }
}

}  // namespace eddy::sql
