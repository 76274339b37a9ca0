// Arithmetic operators: +, -, *, /, % (and MOD), unary - and +, over every numeric type
// (datetime and interval operands of + and - are temporal arithmetic: temporal.h).
// Integers wrap on overflow as Java's int/long arithmetic does (Flink's generated code);
// integer division truncates and fails on a zero divisor; FLOAT/DOUBLE follow IEEE (x / 0 is
// Infinity or NaN); DECIMAL is exact with Flink's result precision and scale (type_rules.h),
// rounding HALF_UP, and a result that overflows its precision is NULL (Flink's DecimalData).
#include <cmath>
#include <type_traits>

#include "function/scalar/scalar_function_builders.h"
#include "function/scalar/temporal.h"

namespace eddy::function {
namespace {

[[noreturn]] void throwDivisionByZero(const char* function) {
  throw TableException(std::string("Division by zero in '") + function + "'.");
}

// --- Operations on one physical type. Integers go through unsigned arithmetic to wrap. ---

struct AddOperation {
  template <typename T>
  static T call(T left, T right) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(static_cast<U>(left) + static_cast<U>(right)));
    } else {
      return left + right;
    }
  }
};

struct SubtractOperation {
  template <typename T>
  static T call(T left, T right) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(static_cast<U>(left) - static_cast<U>(right)));
    } else {
      return left - right;
    }
  }
};

struct MultiplyOperation {
  template <typename T>
  static T call(T left, T right) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(static_cast<U>(left) * static_cast<U>(right)));
    } else {
      return left * right;
    }
  }
};

struct DivideOperation {
  template <typename T>
  static T call(T left, T right) {
    if constexpr (std::is_integral_v<T>) {
      if (right == 0) throwDivisionByZero("/");
      if (right == -1) return SubtractOperation::call<T>(0, left);  // MIN / -1 wraps to MIN
      return static_cast<T>(left / right);
    } else {
      return left / right;
    }
  }
};

template <const char* kName>
struct ModuloOperation {
  template <typename T>
  static T call(T left, T right) {
    if constexpr (std::is_integral_v<T>) {
      if (right == 0) throwDivisionByZero(kName);
      if (right == -1) return 0;
      return static_cast<T>(left % right);
    } else {
      return std::fmod(left, right);
    }
  }
};

struct NegateOperation {
  template <typename T>
  static T call(T value) {
    if constexpr (std::is_integral_v<T>) {
      return SubtractOperation::call<T>(0, value);
    } else {
      return -value;
    }
  }
};

// --- DECIMAL operations: unscaled values with their scales, result precision and scale. ---

struct DecimalAddOperation {
  int leftScale, rightScale, resultScale, resultPrecision;
  bool subtract;
  std::optional<__int128> operator()(__int128 left, __int128 right) const {
    std::optional<__int128> a = decimal::scaleUp(left, resultScale - leftScale);
    std::optional<__int128> b = decimal::scaleUp(right, resultScale - rightScale);
    if (!a || !b) return std::nullopt;
    __int128 sum;
    if (subtract ? __builtin_sub_overflow(*a, *b, &sum) : __builtin_add_overflow(*a, *b, &sum)) {
      return std::nullopt;
    }
    if (!decimal::fitsPrecision(sum, resultPrecision)) return std::nullopt;
    return sum;
  }
};

struct DecimalMultiplyOperation {
  int productScale, resultScale, resultPrecision;
  std::optional<__int128> operator()(__int128 left, __int128 right) const {
    __int128 product;
    if (__builtin_mul_overflow(left, right, &product)) return std::nullopt;
    product = decimal::scaleDownHalfUp(product, productScale - resultScale);
    if (!decimal::fitsPrecision(product, resultPrecision)) return std::nullopt;
    return product;
  }
};

struct DecimalDivideOperation {
  int exponent, resultPrecision;
  std::optional<__int128> operator()(__int128 left, __int128 right) const {
    if (right == 0) throwDivisionByZero("/");
    std::optional<__int128> quotient = decimal::divideHalfUp(left, exponent, right);
    if (!quotient || !decimal::fitsPrecision(*quotient, resultPrecision)) return std::nullopt;
    return quotient;
  }
};

struct DecimalModuloOperation {
  const char* name;
  int leftScale, rightScale, resultScale, resultPrecision;
  std::optional<__int128> operator()(__int128 left, __int128 right) const {
    if (right == 0) throwDivisionByZero(name);
    std::optional<__int128> a = decimal::scaleUp(left, resultScale - leftScale);
    std::optional<__int128> b = decimal::scaleUp(right, resultScale - rightScale);
    if (!a || !b) return std::nullopt;
    __int128 remainder = *a % *b;  // sign of the dividend, as BigDecimal.remainder
    if (!decimal::fitsPrecision(remainder, resultPrecision)) return std::nullopt;
    return remainder;
  }
};

enum class ArithmeticKind { kPlus, kMinus, kTimes, kDivide, kModulo };

constexpr char kPercentName[] = "%";
constexpr char kModName[] = "MOD";

// Binds a binary arithmetic call: approximate or integer operands are widened to their common
// type; DECIMAL operands (with integers as DECIMAL) get Flink's DECIMAL result type.
std::optional<BoundScalarFunction> bindArithmetic(ArithmeticKind kind, const char* name,
                                                  const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() != 2) return std::nullopt;
  const LogicalType& left = *arguments[0];
  const LogicalType& right = *arguments[1];
  if (!isNumeric(left) || !isNumeric(right)) return std::nullopt;
  bool nullable = anyNullable(arguments);
  bool decimalArithmetic = (left.getTypeRoot() == LogicalTypeRoot::DECIMAL ||
                            right.getTypeRoot() == LogicalTypeRoot::DECIMAL) &&
                           isExactNumeric(left) && isExactNumeric(right);
  if (!decimalArithmetic) {
    LogicalTypePtr common = commonNumericType(left, right);
    ScalarKernel kernel = dispatchNumeric(*common, [&](auto tag) -> ScalarKernel {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, __int128>) {
        throw InternalError("no plain arithmetic on this type");
      } else {
        switch (kind) {
          case ArithmeticKind::kPlus:
            return binaryKernel<T, T, T>([](T a, T b) { return AddOperation::call<T>(a, b); });
          case ArithmeticKind::kMinus:
            return binaryKernel<T, T, T>(
                [](T a, T b) { return SubtractOperation::call<T>(a, b); });
          case ArithmeticKind::kTimes:
            return binaryKernel<T, T, T>(
                [](T a, T b) { return MultiplyOperation::call<T>(a, b); });
          case ArithmeticKind::kDivide:
            return binaryKernel<T, T, T>([](T a, T b) { return DivideOperation::call<T>(a, b); });
          case ArithmeticKind::kModulo:
            if (name == kModName) {
              return binaryKernel<T, T, T>(
                  [](T a, T b) { return ModuloOperation<kModName>::call<T>(a, b); });
            }
            return binaryKernel<T, T, T>(
                [](T a, T b) { return ModuloOperation<kPercentName>::call<T>(a, b); });
        }
        throw InternalError("unknown arithmetic");
      }
    });
    LogicalTypePtr resultType = common->copy(nullable);
    return BoundScalarFunction{{common, common}, resultType, std::move(kernel)};
  }
  LogicalTypePtr a = toDecimal(left);
  LogicalTypePtr b = toDecimal(right);
  LogicalTypePtr resultType;
  ScalarKernel kernel;
  switch (kind) {
    case ArithmeticKind::kPlus:
    case ArithmeticKind::kMinus:
      resultType = decimalPlusType(*a, *b, nullable);
      kernel = binaryKernel<__int128, __int128, __int128>(DecimalAddOperation{
          a->getScale(), b->getScale(), resultType->getScale(), resultType->getPrecision(),
          kind == ArithmeticKind::kMinus});
      break;
    case ArithmeticKind::kTimes:
      resultType = decimalTimesType(*a, *b, nullable);
      kernel = binaryKernel<__int128, __int128, __int128>(DecimalMultiplyOperation{
          a->getScale() + b->getScale(), resultType->getScale(), resultType->getPrecision()});
      break;
    case ArithmeticKind::kDivide:
      resultType = decimalDivideType(*a, *b, nullable);
      kernel = binaryKernel<__int128, __int128, __int128>(DecimalDivideOperation{
          resultType->getScale() - a->getScale() + b->getScale(), resultType->getPrecision()});
      break;
    case ArithmeticKind::kModulo:
      resultType = decimalModType(*a, *b, nullable);
      kernel = binaryKernel<__int128, __int128, __int128>(
          DecimalModuloOperation{name, a->getScale(), b->getScale(), resultType->getScale(),
                                 resultType->getPrecision()});
      break;
  }
  return BoundScalarFunction{{a, b}, resultType, std::move(kernel)};
}

std::optional<BoundScalarFunction> bindNegate(const std::vector<LogicalTypePtr>& arguments,
                                              bool plus) {
  if (arguments.size() != 1 || !isNumeric(*arguments[0])) return std::nullopt;
  LogicalTypePtr type = arguments[0];
  if (plus) {
    return boundAs(arguments, type, [](const std::vector<KernelVector>& values,
                                       const LogicalTypePtr&) { return values[0]; });
  }
  ScalarKernel kernel = dispatchNumeric(*type, [&](auto tag) -> ScalarKernel {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      throw InternalError("no negation of BOOLEAN");
    } else {
      return unaryKernel<T, T>([](T value) { return NegateOperation::call<T>(value); });
    }
  });
  return boundAs(arguments, type, std::move(kernel));
}

void addOperator(FunctionRegistry& registry, const char* name, ArithmeticKind kind,
                 bool withUnary) {
  std::string form = std::string("'<NUMERIC> ") + name + " <NUMERIC>'";
  std::vector<std::string> forms{form};
  if (withUnary) forms.push_back(std::string("'") + name + "<NUMERIC>'");
  registry.add(ScalarFunction(
      name, FunctionSyntax::kBinaryOperator, forms,
      [kind, name, withUnary](
          const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        if (kind == ArithmeticKind::kPlus || kind == ArithmeticKind::kMinus) {
          // Datetime and interval operands: temporal.h.
          if (auto temporal = bindTemporalArithmetic(kind == ArithmeticKind::kMinus, arguments)) {
            return temporal;
          }
        }
        if (withUnary && arguments.size() == 1) {
          return bindNegate(arguments, kind == ArithmeticKind::kPlus);
        }
        return bindArithmetic(kind, name, arguments);
      }));
}

}  // namespace

void registerArithmeticFunctions(FunctionRegistry& registry) {
  addOperator(registry, "+", ArithmeticKind::kPlus, true);
  addOperator(registry, "-", ArithmeticKind::kMinus, true);
  addOperator(registry, "*", ArithmeticKind::kTimes, false);
  addOperator(registry, "/", ArithmeticKind::kDivide, false);
  addOperator(registry, kPercentName, ArithmeticKind::kModulo, false);
  registry.add(ScalarFunction(
      kModName, FunctionSyntax::kFunction,
      {"'MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)'"},
      [](const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 2 || !isExactNumeric(*arguments[0]) ||
            !isExactNumeric(*arguments[1])) {
          return std::nullopt;
        }
        return bindArithmetic(ArithmeticKind::kModulo, kModName, arguments);
      }));
}

}  // namespace eddy::function
