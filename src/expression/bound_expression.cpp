// Bound expression nodes, their plan strings, and the builders that apply Flink's type rules.
#include "expression/bound_expression.h"

#include <fmt/format.h>

#include "function/scalar/cast.h"
#include "function/scalar/scalar_function_builders.h"
#include "function/type_rules.h"

namespace eddy::expression {
namespace {

using function::typeNameInMessage;

std::vector<std::string> childStrings(const BoundExpression& expression,
                                      const std::vector<std::string>* columnNames) {
  std::vector<std::string> parts;
  for (const ExpressionPtr& child : expression.children()) {
    parts.push_back(columnNames ? child->toString(*columnNames) : child->toString());
  }
  return parts;
}

int64_t codePointCount(std::string_view text) {
  int64_t count = 0;
  for (unsigned char c : text) count += (c & 0xC0) != 0x80;
  return count;
}

// The fractional-second precision a nanosecond value needs: 0, 3, 6 or 9.
int precisionOfNanos(int64_t nanoOfSecond) {
  if (nanoOfSecond == 0) return 0;
  if (nanoOfSecond % 1'000'000 == 0) return 3;
  if (nanoOfSecond % 1'000 == 0) return 6;
  return 9;
}

bool isNullLiteral(const ExpressionPtr& expression) {
  return expression->kind() == ExpressionKind::kLiteral &&
         static_cast<const Literal&>(*expression).value().isNull();
}

LogicalTypePtr booleanType(bool nullable) {
  return LogicalType::simple(LogicalTypeRoot::BOOLEAN, nullable);
}

}  // namespace

bool BoundExpression::isConstant() const {
  if (kind_ == ExpressionKind::kColumnReference) return false;
  for (const ExpressionPtr& child : children_) {
    if (!child->isConstant()) return false;
  }
  return true;
}

bool BoundExpression::isDeterministic() const {
  if (kind_ == ExpressionKind::kCall &&
      !static_cast<const Call*>(this)->function().isDeterministic()) {
    return false;
  }
  for (const ExpressionPtr& child : children_) {
    if (!child->isDeterministic()) return false;
  }
  return true;
}

std::string ColumnReference::format(const std::vector<std::string>* columnNames) const {
  if (columnNames && index_ >= 0 && static_cast<size_t>(index_) < columnNames->size()) {
    return (*columnNames)[static_cast<size_t>(index_)];
  }
  return fmt::format("${}", index_);
}

std::string Literal::format(const std::vector<std::string>*) const {
  if (value_.isNull()) return "null:" + typeNameInMessage(*type());
  switch (value_.kind()) {
    case ValueKind::BOOLEAN:
      return value_.get<bool>() ? "true" : "false";
    case ValueKind::STRING: {
      std::string quoted = "'";
      for (char c : value_.get<std::string>()) {
        if (c == '\'') quoted.push_back('\'');
        quoted.push_back(c);
      }
      return quoted + "'";
    }
    case ValueKind::DOUBLE:
      return function::javaDoubleToString(value_.get<double>());
    case ValueKind::FLOAT:
      return function::javaFloatToString(value_.get<float>());
    case ValueKind::DECIMAL: {
      const Decimal& decimal = value_.get<Decimal>();
      return function::decimal::toPlainString(decimal.unscaledValue(), decimal.scale());
    }
    default:
      return value_.toString();
  }
}

std::string Call::format(const std::vector<std::string>* columnNames) const {
  return function_->formatCall(childStrings(*this, columnNames));
}

std::string Cast::format(const std::vector<std::string>* columnNames) const {
  return fmt::format("{}({} AS {})", tryCast_ ? "TRY_CAST" : "CAST",
                     childStrings(*this, columnNames)[0], typeNameInMessage(*type()));
}

std::string Case::format(const std::vector<std::string>* columnNames) const {
  return fmt::format("CASE({})", fmt::join(childStrings(*this, columnNames), ", "));
}

std::string Coalesce::format(const std::vector<std::string>* columnNames) const {
  return fmt::format("COALESCE({})", fmt::join(childStrings(*this, columnNames), ", "));
}

std::string FieldAccess::format(const std::vector<std::string>* columnNames) const {
  return childStrings(*this, columnNames)[0] + "." + fieldName();
}

// --- Builders. ---

ExpressionPtr column(int index, LogicalTypePtr type) {
  return std::make_shared<ColumnReference>(index, std::move(type));
}

ExpressionPtr literal(const Value& value) {
  switch (value.kind()) {
    case ValueKind::NULL_VALUE:
      return nullLiteral();
    case ValueKind::BOOLEAN:
      return literal(value, LogicalType::simple(LogicalTypeRoot::BOOLEAN, false));
    case ValueKind::TINYINT:
      return literal(value, LogicalType::simple(LogicalTypeRoot::TINYINT, false));
    case ValueKind::SMALLINT:
      return literal(value, LogicalType::simple(LogicalTypeRoot::SMALLINT, false));
    case ValueKind::INT:
      return literal(value, LogicalType::simple(LogicalTypeRoot::INTEGER, false));
    case ValueKind::BIGINT:
      return literal(value, LogicalType::simple(LogicalTypeRoot::BIGINT, false));
    case ValueKind::FLOAT:
      return literal(value, LogicalType::simple(LogicalTypeRoot::FLOAT, false));
    case ValueKind::DOUBLE:
      return literal(value, LogicalType::simple(LogicalTypeRoot::DOUBLE, false));
    case ValueKind::DECIMAL: {
      const Decimal& decimal = value.get<Decimal>();
      int precision = std::max({decimal.precision(), decimal.scale(), 1});
      return literal(value, LogicalType::decimal(precision, decimal.scale(), false));
    }
    case ValueKind::STRING: {
      int64_t length = codePointCount(value.get<std::string>());
      // An empty literal has no CHAR(0) here; VARCHAR(1) holds it without padding.
      LogicalTypePtr type = length == 0 ? LogicalType::varchar(1, false)
                                        : LogicalType::charType(static_cast<int>(length), false);
      return literal(value, type);
    }
    case ValueKind::BYTES: {
      int length = static_cast<int>(value.get<Bytes>().size());
      return literal(value, length == 0 ? LogicalType::varbinary(1, false)
                                        : LogicalType::binary(length, false));
    }
    case ValueKind::DATE:
      return literal(value, LogicalType::simple(LogicalTypeRoot::DATE, false));
    case ValueKind::TIME:
      return literal(value,
                     LogicalType::time(precisionOfNanos(value.get<LocalTime>().getNano()), false));
    case ValueKind::TIMESTAMP: {
      const LocalDateTime& timestamp = value.get<LocalDateTime>();
      int64_t nanos = types::floorModulo(timestamp.getMillisecond(), 1000) * 1'000'000 +
                      timestamp.getNanoOfMillisecond();
      return literal(value, LogicalType::timestamp(precisionOfNanos(nanos),
                                                   TimestampKind::REGULAR, false));
    }
    case ValueKind::TIMESTAMP_LTZ: {
      const Instant& instant = value.get<Instant>();
      int64_t nanos = types::floorModulo(instant.toEpochMilli(), 1000) * 1'000'000 +
                      instant.getNanoOfMillisecond();
      return literal(value, LogicalType::localZonedTimestamp(precisionOfNanos(nanos),
                                                             TimestampKind::REGULAR, false));
    }
    default:
      throw ValidationException(fmt::format("A literal of kind {} is not supported.",
                                            valueKindName(value.kind())));
  }
}

ExpressionPtr literal(Value value, LogicalTypePtr type) {
  if (value.isNull() && !type->isNullable()) type = type->copy(true);
  return std::make_shared<Literal>(std::move(value), std::move(type));
}

ExpressionPtr nullLiteral() { return literal(Value(), LogicalType::nullType()); }

ExpressionPtr castIfNeeded(ExpressionPtr operand, const LogicalTypePtr& type,
                           const function::BindingContext& context) {
  const LogicalTypePtr& from = operand->type();
  if (*from->copy(true) == *type->copy(true)) return operand;
  if (isNullLiteral(operand)) return literal(Value(), type->copy(true));
  return cast(std::move(operand), type, context);
}

ExpressionPtr call(std::string_view name, std::vector<ExpressionPtr> arguments,
                   const function::FunctionRegistry& registry) {
  return call(name, std::move(arguments), function::BindingContext{}, registry);
}

ExpressionPtr call(std::string_view name, std::vector<ExpressionPtr> arguments,
                   const function::BindingContext& context,
                   const function::FunctionRegistry& registry) {
  std::vector<LogicalTypePtr> types;
  function::LiteralArguments literals;
  for (const ExpressionPtr& argument : arguments) {
    types.push_back(argument->type());
    if (argument->kind() == ExpressionKind::kLiteral) {
      literals.emplace_back(static_cast<const Literal&>(*argument).value());
    } else {
      literals.emplace_back(std::nullopt);
    }
  }
  const function::ScalarFunction* function = registry.lookup(name);
  std::optional<function::BoundScalarFunction> untypedNullsBound;
  if (function != nullptr && !function->bind(types, literals, context)) {
    // An untyped NULL takes the type of the first typed argument, as Calcite infers unknown
    // operand types (1 + NULL is INT).
    auto typed = std::find_if(types.begin(), types.end(), [](const LogicalTypePtr& type) {
      return !function::isNullType(*type);
    });
    if (typed != types.end()) {
      std::vector<LogicalTypePtr> inferred = types;
      for (LogicalTypePtr& type : inferred) {
        if (function::isNullType(*type)) type = (*typed)->copy(true);
      }
      untypedNullsBound = function->bind(inferred, literals, context);
    }
  }
  function::BoundScalarFunction bound = untypedNullsBound
                                            ? std::move(*untypedNullsBound)
                                            : registry.resolve(name, types, literals, context);
  for (size_t i = 0; i < arguments.size(); ++i) {
    arguments[i] =
        castIfNeeded(std::move(arguments[i]),
                     bound.argumentTypes[i]->copy(arguments[i]->type()->isNullable()), context);
  }
  return std::make_shared<Call>(function, std::move(bound), std::move(arguments));
}

ExpressionPtr cast(ExpressionPtr operand, LogicalTypePtr type,
                   const function::BindingContext& context) {
  if (!function::isCastSupported(*operand->type(), *type)) {
    throw ValidationException(fmt::format("Cast function cannot convert value of type {} to type {}",
                                          typeNameInMessage(*operand->type()),
                                          typeNameInMessage(*type)));
  }
  LogicalTypePtr result = type->copy(operand->type()->isNullable());
  return std::make_shared<Cast>(std::move(operand), std::move(result), false,
                                context.sessionTimeZone);
}

ExpressionPtr tryCast(ExpressionPtr operand, LogicalTypePtr type,
                      const function::BindingContext& context) {
  if (!function::isCastSupported(*operand->type(), *type)) {
    throw ValidationException(fmt::format("Cast function cannot convert value of type {} to type {}",
                                          typeNameInMessage(*operand->type()),
                                          typeNameInMessage(*type)));
  }
  return std::make_shared<Cast>(std::move(operand), type->copy(true), true,
                                context.sessionTimeZone);
}

ExpressionPtr caseWhen(std::vector<ExpressionPtr> conditions, std::vector<ExpressionPtr> results,
                       ExpressionPtr elseResult) {
  if (conditions.empty() || conditions.size() != results.size()) {
    throw InternalError("CASE needs as many results as conditions, and at least one");
  }
  if (elseResult == nullptr) elseResult = nullLiteral();
  std::vector<LogicalTypePtr> resultTypes;
  for (const ExpressionPtr& result : results) resultTypes.push_back(result->type());
  resultTypes.push_back(elseResult->type());
  LogicalTypePtr common = function::leastRestrictive(resultTypes);
  if (common == nullptr) {
    throw ValidationException("Illegal mixing of types in CASE or COALESCE statement");
  }
  std::vector<ExpressionPtr> children;
  for (size_t i = 0; i < conditions.size(); ++i) {
    ExpressionPtr condition = std::move(conditions[i]);
    if (function::isNullType(*condition->type())) {
      condition = literal(Value(), booleanType(true));
    } else if (!function::isBoolean(*condition->type())) {
      throw ValidationException(
          fmt::format("Expected a BOOLEAN condition in CASE WHEN, but got {}.",
                      typeNameInMessage(*condition->type())));
    }
    children.push_back(std::move(condition));
    children.push_back(castIfNeeded(std::move(results[i]), common));
  }
  children.push_back(castIfNeeded(std::move(elseResult), common));
  return std::make_shared<Case>(std::move(children), common);
}

ExpressionPtr simpleCase(ExpressionPtr operand, std::vector<ExpressionPtr> values,
                         std::vector<ExpressionPtr> results, ExpressionPtr elseResult) {
  std::vector<ExpressionPtr> conditions;
  for (ExpressionPtr& value : values) conditions.push_back(call("=", {operand, std::move(value)}));
  return caseWhen(std::move(conditions), std::move(results), std::move(elseResult));
}

ExpressionPtr fieldAccess(ExpressionPtr operand, std::string_view field) {
  const LogicalType& rowType = *operand->type();
  if (rowType.getTypeRoot() != LogicalTypeRoot::ROW) {
    throw ValidationException(fmt::format("Cannot access field '{}' of type {}", field,
                                          typeNameInMessage(rowType)));
  }
  const std::vector<RowField>& fields = rowType.getFields();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name != field) continue;
    LogicalTypePtr type = fields[i].type;
    if (rowType.isNullable() && !type->isNullable()) type = type->copy(true);
    return std::make_shared<FieldAccess>(std::move(operand), static_cast<int>(i), std::move(type));
  }
  throw ValidationException(
      fmt::format("Unknown field '{}' in {}", field, typeNameInMessage(rowType)));
}

ExpressionPtr coalesce(std::vector<ExpressionPtr> arguments) {
  if (arguments.empty()) {
    throw ValidationException("Invalid number of arguments to function 'COALESCE'. Was expecting "
                              "1 arguments");
  }
  std::vector<LogicalTypePtr> types;
  for (const ExpressionPtr& argument : arguments) types.push_back(argument->type());
  LogicalTypePtr common = function::leastRestrictive(types);
  if (common == nullptr) {
    throw ValidationException("Illegal mixing of types in CASE or COALESCE statement");
  }
  bool allNullable = std::all_of(types.begin(), types.end(),
                                 [](const LogicalTypePtr& type) { return type->isNullable(); });
  common = common->copy(allNullable);
  for (ExpressionPtr& argument : arguments) {
    argument = castIfNeeded(std::move(argument), common);
  }
  if (arguments.size() == 1) return arguments[0];
  return std::make_shared<Coalesce>(std::move(arguments), common);
}

ExpressionPtr nullIf(ExpressionPtr left, ExpressionPtr right) {
  ExpressionPtr condition = call("=", {left, std::move(right)});
  return caseWhen({std::move(condition)}, {literal(Value(), left->type()->copy(true))}, left);
}

ExpressionPtr ifThenElse(ExpressionPtr condition, ExpressionPtr then, ExpressionPtr otherwise) {
  return caseWhen({std::move(condition)}, {std::move(then)}, std::move(otherwise));
}

namespace {

// The OR of `terms[begin, end)` as a balanced tree, so that its depth (and the evaluator's
// recursion) grows with the logarithm of the count, not with the count.
ExpressionPtr balancedDisjunction(std::vector<ExpressionPtr>& terms, size_t begin, size_t end) {
  if (end - begin == 1) return std::move(terms[begin]);
  size_t middle = begin + (end - begin + 1) / 2;
  return call("OR", {balancedDisjunction(terms, begin, middle),
                     balancedDisjunction(terms, middle, end)});
}

}  // namespace

ExpressionPtr in(ExpressionPtr value, std::vector<ExpressionPtr> list, bool negated) {
  if (list.empty()) throw ValidationException("IN needs at least one value.");
  ExpressionPtr result;
  // A list of constants is one call, IN(x, c1, .., cn), evaluated as a set lookup (the
  // function IN declines the types where that would differ from `=`).
  const bool constants =
      list.size() > 1 && std::all_of(list.begin(), list.end(), [](const ExpressionPtr& element) {
        return element->kind() == ExpressionKind::kLiteral;
      });
  if (constants) {
    std::vector<LogicalTypePtr> types{value->type()};
    function::LiteralArguments literals{std::nullopt};
    for (const ExpressionPtr& element : list) {
      types.push_back(element->type());
      literals.emplace_back(static_cast<const Literal&>(*element).value());
    }
    if (function::FunctionRegistry::builtIn().lookup("IN")->bind(types, literals)) {
      std::vector<ExpressionPtr> arguments{value};
      arguments.insert(arguments.end(), list.begin(), list.end());
      result = call("IN", std::move(arguments));
    }
  }
  if (!result) {
    std::vector<ExpressionPtr> equalities;
    for (ExpressionPtr& element : list) equalities.push_back(call("=", {value, std::move(element)}));
    result = balancedDisjunction(equalities, 0, equalities.size());
  }
  return negated ? call("NOT", {std::move(result)}) : result;
}

ExpressionPtr between(ExpressionPtr value, ExpressionPtr low, ExpressionPtr high, bool negated) {
  if (negated) {
    return call("OR", {call("<", {value, std::move(low)}), call(">", {value, std::move(high)})});
  }
  return call("AND", {call(">=", {value, std::move(low)}), call("<=", {value, std::move(high)})});
}

ExpressionPtr conjunction(std::vector<ExpressionPtr> predicates) {
  if (predicates.empty()) return literal(Value(true));
  ExpressionPtr result = std::move(predicates[0]);
  for (size_t i = 1; i < predicates.size(); ++i) {
    result = call("AND", {std::move(result), std::move(predicates[i])});
  }
  return result;
}

ExpressionPtr disjunction(std::vector<ExpressionPtr> predicates) {
  if (predicates.empty()) return literal(Value(false));
  ExpressionPtr result = std::move(predicates[0]);
  for (size_t i = 1; i < predicates.size(); ++i) {
    result = call("OR", {std::move(result), std::move(predicates[i])});
  }
  return result;
}

ExpressionPtr remapColumns(const ExpressionPtr& expression, const std::function<int(int)>& map) {
  std::vector<int> columns;
  collectColumns(expression, columns);
  if (columns.empty()) return expression;
  if (expression->kind() == ExpressionKind::kColumnReference) {
    return column(map(static_cast<const ColumnReference&>(*expression).index()), expression->type());
  }
  std::vector<ExpressionPtr> children;
  children.reserve(expression->children().size());
  for (const ExpressionPtr& child : expression->children()) children.push_back(remapColumns(child, map));
  return withChildren(expression, std::move(children));
}

ExpressionPtr inlineColumns(const ExpressionPtr& expression,
                            const std::vector<ExpressionPtr>& projections) {
  if (expression->kind() == ExpressionKind::kColumnReference) {
    return projections[static_cast<size_t>(static_cast<const ColumnReference&>(*expression).index())];
  }
  if (expression->children().empty()) return expression;
  std::vector<ExpressionPtr> children;
  children.reserve(expression->children().size());
  for (const ExpressionPtr& child : expression->children()) {
    children.push_back(inlineColumns(child, projections));
  }
  return withChildren(expression, std::move(children));
}

ExpressionPtr withChildren(const ExpressionPtr& expression, std::vector<ExpressionPtr> children) {
  switch (expression->kind()) {
    case ExpressionKind::kCall: {
      const auto& call = static_cast<const Call&>(*expression);
      return std::make_shared<Call>(&call.function(), call.bound(), std::move(children));
    }
    case ExpressionKind::kCast: {
      const auto& castNode = static_cast<const Cast&>(*expression);
      return std::make_shared<Cast>(children.at(0), castNode.type(), castNode.isTryCast(),
                                    castNode.sessionTimeZone());
    }
    case ExpressionKind::kCase:
      return std::make_shared<Case>(std::move(children), expression->type());
    case ExpressionKind::kCoalesce:
      return std::make_shared<Coalesce>(std::move(children), expression->type());
    case ExpressionKind::kFieldAccess:
      return std::make_shared<FieldAccess>(
          children.at(0), static_cast<const FieldAccess&>(*expression).fieldIndex(),
          expression->type());
    case ExpressionKind::kColumnReference:
    case ExpressionKind::kLiteral:
      break;
  }
  return expression;
}

void collectColumns(const ExpressionPtr& expression, std::vector<int>& out) {
  if (expression->kind() == ExpressionKind::kColumnReference) {
    out.push_back(static_cast<const ColumnReference&>(*expression).index());
    return;
  }
  for (const ExpressionPtr& child : expression->children()) collectColumns(child, out);
}

bool isCallTo(const BoundExpression& expression, std::string_view name) {
  return expression.kind() == ExpressionKind::kCall &&
         static_cast<const Call&>(expression).function().name() == name;
}

bool isLiteralTrue(const ExpressionPtr& expression) {
  if (expression->kind() != ExpressionKind::kLiteral) return false;
  const Value& value = static_cast<const Literal&>(*expression).value();
  return !value.isNull() && value.kind() == ValueKind::BOOLEAN && value.get<bool>();
}

std::vector<ExpressionPtr> conjunctsOf(const ExpressionPtr& predicate) {
  if (!isCallTo(*predicate, "AND")) return {predicate};
  std::vector<ExpressionPtr> result;
  for (const ExpressionPtr& operand : predicate->children()) {
    std::vector<ExpressionPtr> inner = conjunctsOf(operand);
    result.insert(result.end(), inner.begin(), inner.end());
  }
  return result;
}

}  // namespace eddy::expression
