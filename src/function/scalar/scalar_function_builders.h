// Small building blocks shared by the scalar function families: dispatch from a logical type
// to its physical C++ type, kernels made from an executor and an operation, exact DECIMAL
// arithmetic on unscaled 128-bit values, and binder shorthands. Internal to src/function.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "eddy/exceptions.h"
#include "function/function_registry.h"
#include "function/type_rules.h"
#include "function/vector_executor.h"

namespace eddy::function {

template <typename T>
struct TypeTag {
  using type = T;
};

/// Calls `f(TypeTag<T>{})` with T the physical type of a numeric or boolean logical type
/// (DECIMAL → __int128).
template <typename F>
decltype(auto) dispatchNumeric(const LogicalType& type, F&& f) {
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::BOOLEAN:
      return f(TypeTag<bool>{});
    case LogicalTypeRoot::TINYINT:
      return f(TypeTag<int8_t>{});
    case LogicalTypeRoot::SMALLINT:
      return f(TypeTag<int16_t>{});
    case LogicalTypeRoot::INTEGER:
      return f(TypeTag<int32_t>{});
    case LogicalTypeRoot::BIGINT:
      return f(TypeTag<int64_t>{});
    case LogicalTypeRoot::FLOAT:
      return f(TypeTag<float>{});
    case LogicalTypeRoot::DOUBLE:
      return f(TypeTag<double>{});
    case LogicalTypeRoot::DECIMAL:
      return f(TypeTag<__int128>{});
    default:
      throw InternalError("not a numeric type: " + type.asSummaryString());
  }
}

/// A kernel running `operation` through the UnaryExecutor.
template <typename Input, typename Result, typename Operation>
ScalarKernel unaryKernel(Operation operation) {
  return [operation](const std::vector<KernelVector>& arguments,
                     const LogicalTypePtr& resultType) {
    return UnaryExecutor::execute<Input, Result>(arguments[0], resultType, operation);
  };
}

/// A kernel running `operation` through the BinaryExecutor.
template <typename Left, typename Right, typename Result, typename Operation>
ScalarKernel binaryKernel(Operation operation) {
  return [operation](const std::vector<KernelVector>& arguments,
                     const LogicalTypePtr& resultType) {
    return BinaryExecutor::execute<Left, Right, Result>(arguments[0], arguments[1], resultType,
                                                        operation);
  };
}

/// A kernel running `operation` through the TernaryExecutor.
template <typename First, typename Second, typename Third, typename Result, typename Operation>
ScalarKernel ternaryKernel(Operation operation) {
  return [operation](const std::vector<KernelVector>& arguments,
                     const LogicalTypePtr& resultType) {
    return TernaryExecutor::execute<First, Second, Third, Result>(
        arguments[0], arguments[1], arguments[2], resultType, operation);
  };
}

/// A bound function whose arguments keep their types.
inline BoundScalarFunction boundAs(const std::vector<LogicalTypePtr>& arguments,
                                   LogicalTypePtr returnType, ScalarKernel kernel) {
  return BoundScalarFunction{arguments, std::move(returnType), std::move(kernel)};
}

/// The STRING-ish result type VARCHAR(2147483647) with the given nullability.
inline LogicalTypePtr stringType(bool nullable) {
  return LogicalType::varchar(LogicalType::kMaxLength, nullable);
}

/// A character-string argument as a binder takes it: an untyped NULL becomes STRING, CHAR and
/// VARCHAR keep their types; nullopt for any other type.
inline std::optional<LogicalTypePtr> characterArgument(const LogicalTypePtr& type) {
  if (isNullType(*type)) return stringType(true);
  if (isCharacterString(*type)) return type;
  return std::nullopt;
}

/// Arguments of the given shape: 'S' a character string (characterArgument), 'I' an integer
/// (cast to INT, its nullability kept); nullopt on another count or type.
inline std::optional<std::vector<LogicalTypePtr>> shapedArguments(
    const std::vector<LogicalTypePtr>& arguments, std::string_view shape) {
  if (arguments.size() != shape.size()) return std::nullopt;
  std::vector<LogicalTypePtr> types;
  for (size_t i = 0; i < shape.size(); ++i) {
    const LogicalTypePtr& type = arguments[i];
    if (shape[i] == 'S') {
      std::optional<LogicalTypePtr> character = characterArgument(type);
      if (!character) return std::nullopt;
      types.push_back(std::move(*character));
    } else {
      if (!isNullType(*type) && !isIntegral(*type)) return std::nullopt;
      types.push_back(LogicalType::simple(LogicalTypeRoot::INTEGER, type->isNullable()));
    }
  }
  return types;
}

/// Character-string arguments, any number of them: shapedArguments with every argument 'S'.
inline std::optional<std::vector<LogicalTypePtr>> characterArguments(
    const std::vector<LogicalTypePtr>& arguments) {
  return shapedArguments(arguments, std::string(arguments.size(), 'S'));
}

// --- Exact DECIMAL arithmetic on unscaled values. ---
namespace decimal {

using Int128 = __int128;

/// 10^exponent, 0 <= exponent <= 38.
Int128 powerOfTen(int exponent);
/// value × 10^exponent, or nullopt on 128-bit overflow.
std::optional<Int128> scaleUp(Int128 value, int exponent);
/// value / 10^exponent rounded HALF_UP (ties away from zero).
Int128 scaleDownHalfUp(Int128 value, int exponent);
/// value / 10^exponent truncated toward zero.
Int128 scaleDownTruncate(Int128 value, int exponent);
/// Whether |value| < 10^precision.
bool fitsPrecision(Int128 value, int precision);
/// value rescaled from one scale to another (HALF_UP when shrinking), nullopt on overflow of
/// `precision`.
std::optional<Int128> rescale(Int128 value, int fromScale, int toScale, int precision);
/// (dividend × 10^exponent) / divisor rounded HALF_UP, by long division so the product never
/// has to fit; nullopt on overflow. divisor != 0.
std::optional<Int128> divideHalfUp(Int128 dividend, int exponent, Int128 divisor);
/// Compares two unscaled values of different scales exactly: -1, 0, 1.
int compare(Int128 left, int leftScale, Int128 right, int rightScale);
/// Plain decimal text (BigDecimal.toPlainString) of unscaled × 10^-scale.
std::string toPlainString(Int128 unscaled, int scale);

}  // namespace decimal

}  // namespace eddy::function
