// FunctionRegistry: name lookup, resolution and Calcite-style signature messages.
#include "function/function_registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "function/type_rules.h"

namespace eddy::function {
namespace {

std::string upperCase(std::string_view name) {
  std::string result(name);
  for (char& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return result;
}

}  // namespace

std::string ScalarFunction::formatCall(const std::vector<std::string>& arguments) const {
  return fmt::format("{}({})", name_, fmt::join(arguments, ", "));
}

const FunctionRegistry& FunctionRegistry::builtIn() {
  static const FunctionRegistry registry = [] {
    FunctionRegistry built;
    registerComparisonFunctions(built);
    registerLogicalFunctions(built);
    registerArithmeticFunctions(built);
    registerMathFunctions(built);
    registerStringFunctions(built);
    registerTemporalFunctions(built);
    registerRegularExpressionFunctions(built);
    registerHashFunctions(built);
    registerBase64Functions(built);
    registerJsonFunctions(built);
    registerCollectionFunctions(built);
    registerRandomFunctions(built);
    return built;
  }();
  return registry;
}

void FunctionRegistry::add(ScalarFunction function) {
  std::string key = upperCase(function.name());
  if (functions_.count(key) != 0) throw InternalError("Function registered twice: " + key);
  functions_.emplace(std::move(key), std::make_shared<const ScalarFunction>(std::move(function)));
  ++generation_;
}

void FunctionRegistry::addAlias(std::string alias, std::string_view name) {
  auto found = functions_.find(upperCase(name));
  if (found == functions_.end()) throw InternalError("Alias of an unknown function: " + alias);
  std::string key = upperCase(alias);
  if (functions_.count(key) != 0) throw InternalError("Function registered twice: " + key);
  functions_.emplace(std::move(key), found->second);
}

void FunctionRegistry::put(ScalarFunction function) {
  std::string key = upperCase(function.name());
  functions_.insert_or_assign(std::move(key),
                              std::make_shared<const ScalarFunction>(std::move(function)));
  ++generation_;
}

bool FunctionRegistry::remove(std::string_view name) {
  auto found = functions_.find(upperCase(name));
  if (found == functions_.end()) return false;
  functions_.erase(found);
  ++generation_;
  return true;
}

const ScalarFunction* FunctionRegistry::lookup(std::string_view name) const {
  auto found = functions_.find(upperCase(name));
  if (found != functions_.end()) return found->second.get();
  return fallback_ != nullptr ? fallback_->lookup(name) : nullptr;
}

std::vector<std::string> FunctionRegistry::functionNames() const {
  std::vector<std::string> names;
  for (const auto& [name, function] : functions_) names.push_back(name);
  return names;
}

std::string cannotApplyMessage(const ScalarFunction& function,
                               const std::vector<LogicalTypePtr>& argumentTypes) {
  std::vector<std::string> shown;
  for (const LogicalTypePtr& type : argumentTypes) {
    shown.push_back("<" + typeNameInMessage(*type) + ">");
  }
  std::string call;
  switch (function.syntax()) {
    case FunctionSyntax::kBinaryOperator:
      if (shown.size() == 1) {  // unary minus and plus share their binary operator's name
        call = function.name() + shown[0];
        break;
      }
      call = fmt::format("{}", fmt::join(shown, " " + function.name() + " "));
      break;
    case FunctionSyntax::kPrefixOperator:
      call = fmt::format("{}{}", function.name(), shown.empty() ? "" : shown[0]);
      break;
    case FunctionSyntax::kPostfixOperator:
      call = fmt::format("{} {}", shown.empty() ? "" : shown[0], function.name());
      break;
    case FunctionSyntax::kFunction:
      call = fmt::format("{}({})", function.name(), fmt::join(shown, ", "));
      break;
  }
  return fmt::format("Cannot apply '{}' to arguments of type '{}'. Supported form(s): {}",
                     function.name(), call, fmt::join(function.supportedForms(), "\n"));
}

BoundScalarFunction FunctionRegistry::resolve(std::string_view name,
                                              const std::vector<LogicalTypePtr>& argumentTypes,
                                              const LiteralArguments& literals,
                                              const BindingContext& context) const {
  const ScalarFunction* function = lookup(name);
  if (function == nullptr) {
    std::vector<std::string> shown;
    for (const LogicalTypePtr& type : argumentTypes) {
      shown.push_back("<" + typeNameInMessage(*type) + ">");
    }
    throw ValidationException(fmt::format("No match found for function signature {}({})",
                                          upperCase(name), fmt::join(shown, ", ")));
  }
  std::optional<BoundScalarFunction> bound = function->bind(argumentTypes, literals, context);
  if (!bound) throw ValidationException(cannotApplyMessage(*function, argumentTypes));
  return std::move(*bound);
}

}  // namespace eddy::function
