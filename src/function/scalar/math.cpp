// Math functions: ABS, SIGN, CEIL/CEILING, FLOOR (FLOOR/CEIL(datetime TO unit) delegate to
// temporal.h), ROUND, TRUNCATE, POWER/POW, SQRT, EXP, LN, LOG10, LOG2, LOG, PI, E, SIN, COS,
// TAN, COT, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH, DEGREES, RADIANS, BIN, HEX. Functions
// of Java's Math (POWER, SQRT, EXP, LN, ...) take and return
// DOUBLE (other numerics are cast), so their results match Java's on IEEE doubles (LN(-1) is
// NaN, not an error). ABS, SIGN, CEIL, FLOOR, ROUND and TRUNCATE keep the argument's type
// family; ROUND and TRUNCATE of a DECIMAL take their result scale from the literal digits
// argument (Flink's findRoundDecimalType); DOUBLE rounding works on the shortest decimal form
// of the double (Java's BigDecimal.valueOf), so ROUND(2.675, 2) = 2.68 as in Flink.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "function/scalar/scalar_function_builders.h"
#include "function/scalar/temporal.h"

namespace eddy::function {
namespace {

using Root = LogicalTypeRoot;

LogicalTypePtr doubleType(bool nullable) { return LogicalType::simple(Root::DOUBLE, nullable); }

// Rounds (or truncates) an integer to `digits` (negative: tens, hundreds, ...).
template <typename T>
T roundIntegral(T value, int digits, bool truncate) {
  if (digits >= 0) return value;
  if (-digits > 18) return 0;
  __int128 factor = decimal::powerOfTen(-digits);
  __int128 rounded = truncate ? decimal::scaleDownTruncate(value, -digits)
                              : decimal::scaleDownHalfUp(value, -digits);
  return static_cast<T>(rounded * factor);
}

// Rounds (or truncates) a double at `digits` fraction digits of its shortest decimal form.
double roundDouble(double value, int digits, bool truncate) {
  if (!std::isfinite(value)) return value;
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                    std::chars_format::scientific);
  if (error != std::errc()) return value;
  // d.ddddde±x → unscaled digits and decimal exponent.
  std::string_view text(buffer, end - buffer);
  size_t exponentAt = text.find('e');
  int exponent = std::atoi(std::string(text.substr(exponentAt + 1)).c_str());
  std::string digitsText;
  for (char c : text.substr(0, exponentAt)) {
    if (c >= '0' && c <= '9') digitsText.push_back(c);
  }
  bool negative = text[0] == '-';
  // value = digitsText × 10^(exponent - (digitsText.size() - 1)); scale = fraction digits.
  int scale = static_cast<int>(digitsText.size()) - 1 - exponent;
  if (scale <= digits) return value;
  __int128 unscaled = 0;
  for (char c : digitsText) unscaled = unscaled * 10 + (c - '0');
  int drop = scale - digits;
  __int128 rounded = drop > 38 ? 0
                     : truncate ? decimal::scaleDownTruncate(unscaled, drop)
                                : decimal::scaleDownHalfUp(unscaled, drop);
  std::string result = (negative ? "-" : "") + types::int128ToString(rounded) + "e" +
                       std::to_string(-digits);
  return std::strtod(result.c_str(), nullptr);
}

// The DECIMAL type of ROUND/TRUNCATE(DECIMAL(p, s), digits) (Flink's findRoundDecimalType).
LogicalTypePtr roundDecimalType(const LogicalType& type, int digits, bool nullable) {
  int precision = type.getPrecision();
  int scale = type.getScale();
  if (digits >= scale) return type.copy(nullable);
  if (digits < 0) {
    return LogicalType::decimal(std::min(38, 1 + precision - scale), 0, nullable);
  }
  return LogicalType::decimal(std::min(38, 1 + precision - scale + digits), digits, nullable);
}

std::optional<BoundScalarFunction> bindRound(const std::vector<LogicalTypePtr>& arguments,
                                             const LiteralArguments& literals, bool truncate) {
  if (arguments.empty() || arguments.size() > 2 || !isNumeric(*arguments[0])) return std::nullopt;
  int digits = 0;
  if (arguments.size() == 2) {
    if (!isIntegral(*arguments[1])) return std::nullopt;
    // A non-literal digits argument cannot type a DECIMAL result; other types accept it.
    if (literals[1] && !literals[1]->isNull()) {
      const Value& literal = *literals[1];
      digits = literal.is<int8_t>()    ? literal.get<int8_t>()
               : literal.is<int16_t>() ? literal.get<int16_t>()
               : literal.is<int32_t>() ? literal.get<int32_t>()
                                       : static_cast<int>(literal.get<int64_t>());
    } else if (arguments[0]->getTypeRoot() == Root::DECIMAL) {
      return std::nullopt;
    }
  }
  const LogicalType& type = *arguments[0];
  bool nullable = anyNullable(arguments);
  std::vector<LogicalTypePtr> types = arguments;
  if (types.size() == 2) types[1] = LogicalType::simple(Root::INTEGER, arguments[1]->isNullable());
  if (type.getTypeRoot() == Root::DECIMAL) {
    LogicalTypePtr resultType = roundDecimalType(type, digits, nullable);
    int fromScale = type.getScale();
    int precision = resultType->getPrecision();
    auto operation = [fromScale, digits, truncate,
                      precision](__int128 value) -> std::optional<__int128> {
      if (digits >= fromScale) return value;
      int drop = fromScale - digits;
      __int128 rounded = drop > 38   ? 0
                         : truncate ? decimal::scaleDownTruncate(value, drop)
                                    : decimal::scaleDownHalfUp(value, drop);
      // `rounded` has scale `digits`; a negative digits count is scale 0 times 10^-digits.
      std::optional<__int128> result =
          digits >= 0 ? std::optional<__int128>(rounded) : decimal::scaleUp(rounded, -digits);
      if (!result || !decimal::fitsPrecision(*result, precision)) return std::nullopt;
      return result;
    };
    ScalarKernel kernel = unaryKernel<__int128, __int128>(operation);
    if (types.size() == 2) {
      kernel = [operation](const std::vector<KernelVector>& values,
                           const LogicalTypePtr& resultType) {
        return UnaryExecutor::execute<__int128, __int128>(values[0], resultType, operation);
      };
    }
    return BoundScalarFunction{types, resultType, kernel};
  }
  ScalarKernel kernel = dispatchNumeric(type, [&](auto tag) -> ScalarKernel {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, __int128>) {
      throw InternalError("unexpected ROUND type");
    } else if (types.size() == 1) {
      return unaryKernel<T, T>([truncate](T value) {
        if constexpr (std::is_floating_point_v<T>) {
          return static_cast<T>(roundDouble(value, 0, truncate));
        } else {
          return value;
        }
      });
    } else {
      return binaryKernel<T, int32_t, T>([truncate](T value, int32_t places) {
        if constexpr (std::is_floating_point_v<T>) {
          return static_cast<T>(roundDouble(value, places, truncate));
        } else {
          return roundIntegral<T>(value, places, truncate);
        }
      });
    }
  });
  return BoundScalarFunction{types, type.copy(nullable), kernel};
}

// CEIL / FLOOR: integers unchanged, DECIMAL(p, s) → DECIMAL(p, 0), floats stay floats.
std::optional<BoundScalarFunction> bindCeilFloor(const std::vector<LogicalTypePtr>& arguments,
                                                 bool ceil) {
  if (arguments.size() != 1 || !isNumeric(*arguments[0])) return std::nullopt;
  const LogicalType& type = *arguments[0];
  if (type.getTypeRoot() == Root::DECIMAL) {
    int scale = type.getScale();
    LogicalTypePtr resultType =
        LogicalType::decimal(std::max(1, type.getPrecision()), 0, type.isNullable());
    return boundAs(arguments, resultType,
                   unaryKernel<__int128, __int128>([scale, ceil](__int128 value) {
                     __int128 truncated = decimal::scaleDownTruncate(value, scale);
                     bool exact = decimal::scaleUp(truncated, scale).value_or(0) == value;
                     if (!exact && ceil && value > 0) return truncated + 1;
                     if (!exact && !ceil && value < 0) return truncated - 1;
                     return truncated;
                   }));
  }
  ScalarKernel kernel = dispatchNumeric(type, [&](auto tag) -> ScalarKernel {
    using T = typename decltype(tag)::type;
    return unaryKernel<T, T>([ceil](T value) {
      if constexpr (std::is_floating_point_v<T>) {
        return ceil ? std::ceil(value) : std::floor(value);
      } else {
        return value;
      }
    });
  });
  return boundAs(arguments, arguments[0], kernel);
}

std::optional<BoundScalarFunction> bindAbsSign(const std::vector<LogicalTypePtr>& arguments,
                                               bool sign) {
  if (arguments.size() != 1 || !isNumeric(*arguments[0])) return std::nullopt;
  const LogicalType& type = *arguments[0];
  if (type.getTypeRoot() == Root::DECIMAL) {
    __int128 one = decimal::powerOfTen(type.getScale());
    if (sign && type.getPrecision() == type.getScale()) one = 0;  // DECIMAL(p, p) has no 1
    return boundAs(arguments, arguments[0],
                   unaryKernel<__int128, __int128>([sign, one](__int128 value) -> __int128 {
                     if (sign) return value > 0 ? one : (value < 0 ? -one : 0);
                     return value < 0 ? -value : value;
                   }));
  }
  ScalarKernel kernel = dispatchNumeric(type, [&](auto tag) -> ScalarKernel {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, __int128>) {
      throw InternalError("ABS/SIGN of an unexpected type");
    } else {
    return unaryKernel<T, T>([sign](T value) -> T {
      if (sign) return value > 0 ? T(1) : (value < 0 ? T(-1) : T(0));
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        return value < 0 ? static_cast<T>(U(0) - static_cast<U>(value)) : value;
      } else {
        return std::fabs(value);
      }
    });
    }
  });
  return boundAs(arguments, arguments[0], kernel);
}

// A DOUBLE function of DOUBLE arguments (other numerics cast).
template <typename Operation>
void addDoubleFunction(FunctionRegistry& registry, const char* name, Operation operation) {
  registry.add(ScalarFunction(
      name, FunctionSyntax::kFunction, std::vector<std::string>{fmt::format("'{}(<NUMERIC>)'", name)},
      [operation](const std::vector<LogicalTypePtr>& arguments)
          -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 1 || !isNumeric(*arguments[0])) return std::nullopt;
        bool nullable = anyNullable(arguments);
        return BoundScalarFunction{{doubleType(arguments[0]->isNullable())},
                                   doubleType(nullable),
                                   unaryKernel<double, double>(operation)};
      }));
}

// NAME(<NUMERIC>, <NUMERIC>) as `operation` on the arguments cast to DOUBLE.
template <typename Operation>
void addBinaryDoubleFunction(FunctionRegistry& registry, const char* name, Operation operation) {
  registry.add(ScalarFunction(
      name, FunctionSyntax::kFunction,
      std::vector<std::string>{fmt::format("'{}(<NUMERIC>, <NUMERIC>)'", name)},
      [operation](
          const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 2 || !isNumeric(*arguments[0]) || !isNumeric(*arguments[1])) {
          return std::nullopt;
        }
        return BoundScalarFunction{
            {doubleType(arguments[0]->isNullable()), doubleType(arguments[1]->isNullable())},
            doubleType(anyNullable(arguments)),
            binaryKernel<double, double, double>(operation)};
      }));
}

}  // namespace

void registerMathFunctions(FunctionRegistry& registry) {
  registry.add(ScalarFunction("ABS", FunctionSyntax::kFunction, {"'ABS(<NUMERIC>)'"},
                              [](const std::vector<LogicalTypePtr>& arguments) {
                                return bindAbsSign(arguments, false);
                              }));
  registry.add(ScalarFunction("SIGN", FunctionSyntax::kFunction, {"'SIGN(<NUMERIC>)'"},
                              [](const std::vector<LogicalTypePtr>& arguments) {
                                return bindAbsSign(arguments, true);
                              }));
  // FLOOR/CEIL(datetime TO unit) arrive with the unit as a second, character argument.
  registry.add(ScalarFunction("CEIL", FunctionSyntax::kFunction, {"'CEIL(<NUMERIC>)'"},
                              [](const std::vector<LogicalTypePtr>& arguments,
                                 const LiteralArguments& literals, const BindingContext& context) {
                                if (arguments.size() == 2) {
                                  return bindTemporalFloorCeil(true, arguments, literals,
                                                               context.sessionTimeZone);
                                }
                                return bindCeilFloor(arguments, true);
                              }));
  registry.addAlias("CEILING", "CEIL");
  registry.add(ScalarFunction("FLOOR", FunctionSyntax::kFunction, {"'FLOOR(<NUMERIC>)'"},
                              [](const std::vector<LogicalTypePtr>& arguments,
                                 const LiteralArguments& literals, const BindingContext& context) {
                                if (arguments.size() == 2) {
                                  return bindTemporalFloorCeil(false, arguments, literals,
                                                               context.sessionTimeZone);
                                }
                                return bindCeilFloor(arguments, false);
                              }));
  for (bool truncate : {false, true}) {
    const char* name = truncate ? "TRUNCATE" : "ROUND";
    registry.add(ScalarFunction(
        name, FunctionSyntax::kFunction,
        std::vector<std::string>{fmt::format("'{}(<NUMERIC>)'", name),
                                 fmt::format("'{}(<NUMERIC>, <INTEGER>)'", name)},
        ScalarFunctionLiteralBinder(
            [truncate](const std::vector<LogicalTypePtr>& arguments,
                       const LiteralArguments& literals) {
              return bindRound(arguments, literals, truncate);
            })));
  }
  addDoubleFunction(registry, "SQRT", [](double x) { return std::sqrt(x); });
  addDoubleFunction(registry, "EXP", [](double x) { return std::exp(x); });
  addDoubleFunction(registry, "LN", [](double x) { return std::log(x); });
  addDoubleFunction(registry, "LOG10", [](double x) { return std::log10(x); });
  addDoubleFunction(registry, "LOG2", [](double x) { return std::log(x) / std::log(2.0); });
  addBinaryDoubleFunction(registry, "POWER", [](double x, double y) { return std::pow(x, y); });
  registry.addAlias("POW", "POWER");
  registry.add(ScalarFunction(
      "LOG", FunctionSyntax::kFunction, {"'LOG(<NUMERIC>)'", "'LOG(<NUMERIC>, <NUMERIC>)'"},
      [](const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        if (arguments.empty() || arguments.size() > 2) return std::nullopt;
        std::vector<LogicalTypePtr> types;
        for (const LogicalTypePtr& type : arguments) {
          if (!isNumeric(*type)) return std::nullopt;
          types.push_back(doubleType(type->isNullable()));
        }
        if (types.size() == 1) {
          return BoundScalarFunction{types, doubleType(anyNullable(arguments)),
                                     unaryKernel<double, double>([](double x) { return std::log(x); })};
        }
        // LOG(base, x), as Flink.
        return BoundScalarFunction{types, doubleType(anyNullable(arguments)),
                                   binaryKernel<double, double, double>([](double base, double x) {
                                     return std::log(x) / std::log(base);
                                   })};
      }));
  // Trigonometry and angles, as Java's Math (COT = 1 / tan).
  addDoubleFunction(registry, "SIN", [](double x) { return std::sin(x); });
  addDoubleFunction(registry, "COS", [](double x) { return std::cos(x); });
  addDoubleFunction(registry, "TAN", [](double x) { return std::tan(x); });
  addDoubleFunction(registry, "COT", [](double x) { return 1.0 / std::tan(x); });
  addDoubleFunction(registry, "ASIN", [](double x) { return std::asin(x); });
  addDoubleFunction(registry, "ACOS", [](double x) { return std::acos(x); });
  addDoubleFunction(registry, "ATAN", [](double x) { return std::atan(x); });
  addDoubleFunction(registry, "SINH", [](double x) { return std::sinh(x); });
  addDoubleFunction(registry, "COSH", [](double x) { return std::cosh(x); });
  addDoubleFunction(registry, "TANH", [](double x) { return std::tanh(x); });
  addDoubleFunction(registry, "DEGREES", [](double x) { return x * (180.0 / std::numbers::pi); });
  addDoubleFunction(registry, "RADIANS", [](double x) { return x / 180.0 * std::numbers::pi; });
  addBinaryDoubleFunction(registry, "ATAN2", [](double y, double x) { return std::atan2(y, x); });
  for (const auto& [name, constant] : {std::pair<const char*, double>{"PI", std::numbers::pi},
                                       std::pair<const char*, double>{"E", std::numbers::e}}) {
    registry.add(ScalarFunction(
        name, FunctionSyntax::kFunction, {fmt::format("'{}()'", name)},
        [constant](const std::vector<LogicalTypePtr>& arguments)
            -> std::optional<BoundScalarFunction> {
          if (!arguments.empty()) return std::nullopt;
          return BoundScalarFunction{
              {}, doubleType(false),
              [constant](const std::vector<KernelVector>&, const LogicalTypePtr& resultType) {
                // A call without arguments has no size to take; the evaluator expands constants.
                return KernelVector::constant(resultType, Value(constant), 1);
              }};
        }));
  }
  // BIN(integer): Java's Long.toBinaryString (a negative value as its 64-bit two's complement).
  registry.add(ScalarFunction(
      "BIN", FunctionSyntax::kFunction, {"'BIN(<INTEGER>)'"},
      [](const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 1 || !isIntegral(*arguments[0])) return std::nullopt;
        return BoundScalarFunction{
            {LogicalType::simple(Root::BIGINT, arguments[0]->isNullable())},
            stringType(arguments[0]->isNullable()),
            unaryKernel<int64_t, std::string_view>([](int64_t value) {
              uint64_t bits = static_cast<uint64_t>(value);
              if (bits == 0) return std::string("0");
              std::string text;
              for (; bits != 0; bits >>= 1) text.push_back(static_cast<char>('0' + (bits & 1)));
              return std::string(text.rbegin(), text.rend());
            })};
      }));
  // HEX(integer): Long.toHexString upper-cased; HEX(string): its UTF-8 bytes in upper-case hex.
  registry.add(ScalarFunction(
      "HEX", FunctionSyntax::kFunction, {"'HEX(<INTEGER>)'", "'HEX(<CHARACTER>)'"},
      [](const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 1) return std::nullopt;
        const bool nullable = arguments[0]->isNullable();
        if (isIntegral(*arguments[0])) {
          return BoundScalarFunction{{LogicalType::simple(Root::BIGINT, nullable)}, stringType(nullable),
                                     unaryKernel<int64_t, std::string_view>([](int64_t value) {
                                       return fmt::format("{:X}", static_cast<uint64_t>(value));
                                     })};
        }
        if (!isCharacterString(*arguments[0])) return std::nullopt;
        return BoundScalarFunction{{stringType(nullable)}, stringType(nullable),
                                   unaryKernel<std::string_view, std::string_view>(
                                       [](std::string_view text) {
                                         std::string hex;
                                         hex.reserve(text.size() * 2);
                                         for (unsigned char c : text) hex += fmt::format("{:02X}", c);
                                         return hex;
                                       })};
      }));
}

}  // namespace eddy::function
