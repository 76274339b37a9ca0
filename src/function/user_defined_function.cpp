#include "function/user_defined_function.h"

#include <fmt/format.h>

#include <memory>
#include <utility>
#include <vector>

#include "eddy/exceptions.h"
#include "function/type_rules.h"
#include "vector/vector.h"

namespace eddy::function {

bool implicitlyCastsTo(const LogicalType& argument, const LogicalType& parameter) {
  if (isNullType(argument) || argument.getTypeRoot() == parameter.getTypeRoot()) return true;
  if (isCharacterString(argument) && isCharacterString(parameter)) return true;
  if (isNumeric(argument) && isNumeric(parameter)) {
    LogicalTypePtr common = commonNumericType(argument, parameter);
    return common != nullptr && common->getTypeRoot() == parameter.getTypeRoot();
  }
  return false;
}

ScalarFunction userDefinedScalarFunction(const std::string& name,
                                         ScalarFunctionDefinition definition) {
  std::string upperName;
  for (char c : name) upperName += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto shared = std::make_shared<const ScalarFunctionDefinition>(std::move(definition));
  std::vector<std::string> parameters;
  for (const LogicalTypePtr& type : shared->parameterTypes) {
    parameters.push_back("<" + type->copy(true)->asSummaryString() + ">");
  }
  std::string form = fmt::format("'{}({})'", upperName, fmt::join(parameters, ", "));

  ScalarFunctionBinder binder =
      [shared](const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
    const std::vector<LogicalTypePtr>& parameterTypes = shared->parameterTypes;
    if (arguments.size() != parameterTypes.size()) return std::nullopt;
    BoundScalarFunction bound;
    bool nullPropagates = false;  // a nullable argument of a NOT NULL parameter
    for (size_t i = 0; i < arguments.size(); ++i) {
      if (!implicitlyCastsTo(*arguments[i], *parameterTypes[i])) return std::nullopt;
      bound.argumentTypes.push_back(parameterTypes[i]->copy(arguments[i]->isNullable()));
      nullPropagates = nullPropagates ||
                       (arguments[i]->isNullable() && !parameterTypes[i]->isNullable());
    }
    bound.returnType = shared->resultType->copy(shared->resultType->isNullable() || nullPropagates);
    bound.kernel = [shared](const std::vector<KernelVector>& arguments,
                            const LogicalTypePtr& resultType) {
      const std::vector<LogicalTypePtr>& parameterTypes = shared->parameterTypes;
      const int64_t rows = arguments.empty() ? 1 : arguments[0].size();
      vector::Vector result(resultType);
      result.reserve(rows);
      std::vector<Value> values(arguments.size());
      for (int64_t row = 0; row < rows; ++row) {
        bool nullResult = false;
        for (size_t i = 0; i < arguments.size(); ++i) {
          values[i] = arguments[i].valueAt(row);
          nullResult = nullResult || (values[i].isNull() && !parameterTypes[i]->isNullable());
        }
        Value value = nullResult ? Value() : shared->eval(values);
        if (value.isNull()) {
          result.appendNull();
        } else {
          result.appendValue(value);
        }
      }
      if (arguments.empty()) {
        return KernelVector::constant(resultType, result.valueAt(0), 1);
      }
      return KernelVector::adopt(std::move(result));
    };
    return bound;
  };
  return ScalarFunction(upperName, FunctionSyntax::kFunction, {form}, std::move(binder),
                        shared->deterministic);
}

}  // namespace eddy::function
