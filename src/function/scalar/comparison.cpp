// Comparison operators: =, <>, <, <=, >, >= (NULL when either side is NULL) and
// IS [NOT] DISTINCT FROM (never NULL: two NULLs are not distinct). Operands are compared after
// Flink's implicit widening: numerics in their common type (DECIMALs exactly across scales),
// strings by their UTF-8 bytes (Flink's BinaryStringData order), BOOLEAN with FALSE < TRUE,
// date/time values of one family on their time line (DATE widens to TIMESTAMP).
#include <absl/container/flat_hash_set.h>

#include <memory>

#include "function/scalar/scalar_function_builders.h"

namespace eddy::function {
namespace {

enum class ComparisonKind { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };

template <typename T>
ScalarKernel orderingKernel(ComparisonKind kind) {
  switch (kind) {
    case ComparisonKind::kEqual:
      return binaryKernel<T, T, bool>([](T a, T b) { return a == b; });
    case ComparisonKind::kNotEqual:
      return binaryKernel<T, T, bool>([](T a, T b) { return a != b; });
    case ComparisonKind::kLess:
      return binaryKernel<T, T, bool>([](T a, T b) { return a < b; });
    case ComparisonKind::kLessEqual:
      return binaryKernel<T, T, bool>([](T a, T b) { return a <= b; });
    case ComparisonKind::kGreater:
      return binaryKernel<T, T, bool>([](T a, T b) { return a > b; });
    case ComparisonKind::kGreaterEqual:
      return binaryKernel<T, T, bool>([](T a, T b) { return a >= b; });
  }
  throw InternalError("unknown comparison");
}

bool holds(ComparisonKind kind, int order) {
  switch (kind) {
    case ComparisonKind::kEqual:
      return order == 0;
    case ComparisonKind::kNotEqual:
      return order != 0;
    case ComparisonKind::kLess:
      return order < 0;
    case ComparisonKind::kLessEqual:
      return order <= 0;
    case ComparisonKind::kGreater:
      return order > 0;
    case ComparisonKind::kGreaterEqual:
      return order >= 0;
  }
  return false;
}

// DECIMALs of different scales compare exactly without a common type.
struct DecimalComparison {
  ComparisonKind kind;
  int leftScale, rightScale;
  bool operator()(__int128 left, __int128 right) const {
    return holds(kind, decimal::compare(left, leftScale, right, rightScale));
  }
};

// The types the two operands of a comparison are cast to.
/// Whether values of `type` are boxed (ARRAY, MAP, MULTISET, ROW): only `=`, `<>` and
/// IS [NOT] DISTINCT FROM compare them, as whole values.
bool isBoxed(const LogicalType& type) {
  return vector::physicalLayoutOf(type) == vector::PhysicalLayout::kBoxed;
}

struct ComparisonPlan {
  LogicalTypePtr leftType;
  LogicalTypePtr rightType;
};

// The types both operands are cast to, or nullopt when they cannot be compared.
std::optional<ComparisonPlan> planComparison(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() != 2) return std::nullopt;
  LogicalTypePtr left = arguments[0];
  LogicalTypePtr right = arguments[1];
  if (isNullType(*left) && isNullType(*right)) {
    left = LogicalType::simple(LogicalTypeRoot::BOOLEAN);
    right = left;
  } else if (isNullType(*left)) {
    left = right->copy(true);
  } else if (isNullType(*right)) {
    right = left->copy(true);
  }
  if (!areComparable(*left, *right)) return std::nullopt;
  if (isBoxed(*left)) {
    // Nested values compare as whole values, once both have the common type.
    LogicalTypePtr common = leastRestrictive({left, right});
    if (common == nullptr) return std::nullopt;
    return ComparisonPlan{common->copy(left->isNullable()), common->copy(right->isNullable())};
  }
  if (isNumeric(*left)) {
    if (isExactNumeric(*left) && isExactNumeric(*right) &&
        (left->getTypeRoot() == LogicalTypeRoot::DECIMAL ||
         right->getTypeRoot() == LogicalTypeRoot::DECIMAL)) {
      return ComparisonPlan{toDecimal(*left), toDecimal(*right)};
    }
    LogicalTypePtr common = commonNumericType(*left, *right);
    return ComparisonPlan{common->copy(left->isNullable()), common->copy(right->isNullable())};
  }
  if (isDatetime(*left) && left->getTypeRoot() != right->getTypeRoot()) {
    LogicalTypePtr common = leastRestrictive({left, right});
    return ComparisonPlan{common->copy(left->isNullable()), common->copy(right->isNullable())};
  }
  return ComparisonPlan{left, right};
}

// Calls f(TypeTag<T>{}) with the physical type values of `type` are compared as.
template <typename F>
ScalarKernel dispatchComparable(const LogicalType& type, F&& f) {
  switch (vector::physicalLayoutOf(type)) {
    case vector::PhysicalLayout::kBoolean:
      return f(TypeTag<bool>{});
    case vector::PhysicalLayout::kInt8:
      return f(TypeTag<int8_t>{});
    case vector::PhysicalLayout::kInt16:
      return f(TypeTag<int16_t>{});
    case vector::PhysicalLayout::kInt32:
      return f(TypeTag<int32_t>{});
    case vector::PhysicalLayout::kInt64:
      return f(TypeTag<int64_t>{});
    case vector::PhysicalLayout::kFloat:
      return f(TypeTag<float>{});
    case vector::PhysicalLayout::kDouble:
      return f(TypeTag<double>{});
    case vector::PhysicalLayout::kInt128:
      return f(TypeTag<__int128>{});
    case vector::PhysicalLayout::kTimestamp:
      return f(TypeTag<TimestampValue>{});
    case vector::PhysicalLayout::kVariableWidth:
      return f(TypeTag<std::string_view>{});
    case vector::PhysicalLayout::kBoxed:
      break;
  }
  throw InternalError("values of " + type.asSummaryString() + " cannot be compared");
}

/// Equality of boxed values: `equal` true for `=` / IS NOT DISTINCT FROM. With `nullSafe`
/// (IS [NOT] DISTINCT FROM) NULLs compare as values; otherwise a NULL operand gives NULL.
ScalarKernel boxedEqualityKernel(bool equal, bool nullSafe) {
  return [=](const std::vector<KernelVector>& arguments, const LogicalTypePtr& resultType) {
    const KernelVector& left = arguments[0];
    const KernelVector& right = arguments[1];
    KernelVector result(resultType, left.size(), left.isConstant() && right.isConstant());
    bool* out = result.mutableData<bool>();
    for (int64_t row = 0; row < result.physicalSize(); ++row) {
      bool leftNull = left.isNull(row);
      bool rightNull = right.isNull(row);
      if (leftNull || rightNull) {
        if (!nullSafe) {
          result.setNull(row);
          out[row] = false;
          continue;
        }
        out[row] = (leftNull == rightNull) == equal;
        continue;
      }
      out[row] = (left.boxedAt(row) == right.boxedAt(row)) == equal;
    }
    return result;
  };
}

std::optional<BoundScalarFunction> bindComparison(ComparisonKind kind,
                                                  const std::vector<LogicalTypePtr>& arguments) {
  std::optional<ComparisonPlan> plan = planComparison(arguments);
  if (!plan) return std::nullopt;
  LogicalTypePtr resultType =
      LogicalType::simple(LogicalTypeRoot::BOOLEAN, anyNullable(arguments));
  ScalarKernel kernel;
  if (isBoxed(*plan->leftType)) {
    if (kind != ComparisonKind::kEqual && kind != ComparisonKind::kNotEqual) return std::nullopt;
    kernel = boxedEqualityKernel(kind == ComparisonKind::kEqual, false);
  } else if (plan->leftType->getTypeRoot() == LogicalTypeRoot::DECIMAL &&
      plan->leftType->getScale() != plan->rightType->getScale()) {
    kernel = binaryKernel<__int128, __int128, bool>(
        DecimalComparison{kind, plan->leftType->getScale(), plan->rightType->getScale()});
  } else {
    kernel = dispatchComparable(*plan->leftType, [&](auto tag) {
      return orderingKernel<typename decltype(tag)::type>(kind);
    });
  }
  return BoundScalarFunction{{plan->leftType, plan->rightType}, resultType, std::move(kernel)};
}

// IS [NOT] DISTINCT FROM: NULL-aware equality, never NULL.
template <typename T>
ScalarKernel distinctKernel(bool notDistinct, int leftScale, int rightScale) {
  return [=](const std::vector<KernelVector>& arguments, const LogicalTypePtr& resultType) {
    const KernelVector& left = arguments[0];
    const KernelVector& right = arguments[1];
    bool allConstant = left.isConstant() && right.isConstant();
    KernelVector result(resultType, left.size(), allConstant);
    ArgumentReader<T> leftValues(left);
    ArgumentReader<T> rightValues(right);
    bool* out = result.mutableData<bool>();
    for (int64_t row = 0; row < result.physicalSize(); ++row) {
      bool leftNull = left.isNull(row);
      bool rightNull = right.isNull(row);
      bool distinct;
      if (leftNull || rightNull) {
        distinct = leftNull != rightNull;
      } else {
        T a = leftValues[left.physicalIndex(row)];
        T b = rightValues[right.physicalIndex(row)];
        if constexpr (std::is_same_v<T, __int128>) {
          distinct = decimal::compare(a, leftScale, b, rightScale) != 0;
        } else {
          distinct = !(a == b);
        }
      }
      out[row] = notDistinct ? !distinct : distinct;
    }
    return result;
  };
}

std::optional<BoundScalarFunction> bindDistinct(bool notDistinct,
                                                const std::vector<LogicalTypePtr>& arguments) {
  std::optional<ComparisonPlan> plan = planComparison(arguments);
  if (!plan) return std::nullopt;
  LogicalTypePtr resultType = LogicalType::simple(LogicalTypeRoot::BOOLEAN, false);
  if (isBoxed(*plan->leftType)) {
    return BoundScalarFunction{{plan->leftType, plan->rightType}, resultType,
                               boxedEqualityKernel(notDistinct, true)};
  }
  int leftScale = plan->leftType->getScale();
  int rightScale = plan->rightType->getScale();
  ScalarKernel kernel = dispatchComparable(*plan->leftType, [&](auto tag) {
    return distinctKernel<typename decltype(tag)::type>(notDistinct, leftScale, rightScale);
  });
  return BoundScalarFunction{{plan->leftType, plan->rightType}, resultType, std::move(kernel)};
}

void addComparison(FunctionRegistry& registry, const char* name, ComparisonKind kind) {
  registry.add(ScalarFunction(
      name, FunctionSyntax::kBinaryOperator,
      {std::string("'<COMPARABLE_TYPE> ") + name + " <COMPARABLE_TYPE>'"},
      [kind](const std::vector<LogicalTypePtr>& arguments) {
        return bindComparison(kind, arguments);
      }));
}


// --- IN over constants. ---

// The constants of `x IN (c1, .., cn)`: integers widened to int64_t, or strings by their UTF-8
// bytes (how `=` compares them), and whether one of them is NULL.
struct InSet {
  absl::flat_hash_set<int64_t> integers;
  absl::flat_hash_set<std::string> strings;
  bool hasNull = false;
};

int64_t integerAt(const KernelVector& vector, int64_t row) {
  int64_t index = vector.physicalIndex(row);
  switch (vector.layout()) {
    case vector::PhysicalLayout::kInt8:
      return vector.data<int8_t>()[index];
    case vector::PhysicalLayout::kInt16:
      return vector.data<int16_t>()[index];
    case vector::PhysicalLayout::kInt32:
      return vector.data<int32_t>()[index];
    default:
      return vector.data<int64_t>()[index];
  }
}

int64_t integerOf(const Value& constant) {
  if (constant.is<int8_t>()) return constant.get<int8_t>();
  if (constant.is<int16_t>()) return constant.get<int16_t>();
  if (constant.is<int32_t>()) return constant.get<int32_t>();
  return constant.get<int64_t>();
}

// SQL's three-valued IN: TRUE on a match; otherwise NULL when x or a constant is NULL; FALSE.
KernelVector inKernel(const InSet& set, bool integers, const KernelVector& value,
                      const LogicalTypePtr& resultType) {
  KernelVector result(resultType, value.size(), value.isConstant());
  bool* out = result.mutableData<bool>();
  for (int64_t index = 0; index < value.physicalSize(); ++index) {
    bool found = false;
    if (!value.isNull(index)) {
      found = integers ? set.integers.contains(integerAt(value, index))
                       : set.strings.contains(absl::string_view(value.stringAt(index).data(),
                                                                value.stringAt(index).size()));
    }
    out[index] = found;
    if (!found && (set.hasNull || value.isNull(index))) result.setNull(index);
  }
  return result;
}

// `IN(x, c1, .., cn)`, which expression::in builds for a list of constants: bound only where a
// set lookup is exactly `=` — an integer x (TINYINT..BIGINT) with integer constants, or a
// character string x with character string constants (each may also be a NULL literal); it
// declines otherwise, and expression::in writes the ORs of `=` instead.
std::optional<BoundScalarFunction> bindIn(const std::vector<LogicalTypePtr>& arguments,
                                          const LiteralArguments& literals) {
  if (arguments.size() < 2) return std::nullopt;
  const LogicalType& valueType = *arguments[0];
  const bool integers = isIntegral(valueType);
  if (!integers && !isCharacterString(valueType)) return std::nullopt;
  auto set = std::make_shared<InSet>();
  for (size_t i = 1; i < arguments.size(); ++i) {
    if (!literals[i]) return std::nullopt;
    const Value& constant = *literals[i];
    if (constant.isNull()) {
      set->hasNull = true;
    } else if (integers && isIntegral(*arguments[i])) {
      set->integers.insert(integerOf(constant));
    } else if (!integers && isCharacterString(*arguments[i])) {
      set->strings.insert(constant.get<std::string>());
    } else {
      return std::nullopt;
    }
  }
  bool nullable = set->hasNull || valueType.isNullable();
  return boundAs(arguments, LogicalType::simple(LogicalTypeRoot::BOOLEAN, nullable),
                 [set, integers](const std::vector<KernelVector>& values,
                                 const LogicalTypePtr& resultType) {
                   return inKernel(*set, integers, values[0], resultType);
                 });
}

}  // namespace

void registerComparisonFunctions(FunctionRegistry& registry) {
  registry.add(ScalarFunction("IN", FunctionSyntax::kFunction, {"'<COMPARABLE_TYPE> IN (<ANY>, ...)'"},
                              bindIn));
  addComparison(registry, "=", ComparisonKind::kEqual);
  addComparison(registry, "<>", ComparisonKind::kNotEqual);
  addComparison(registry, "<", ComparisonKind::kLess);
  addComparison(registry, "<=", ComparisonKind::kLessEqual);
  addComparison(registry, ">", ComparisonKind::kGreater);
  addComparison(registry, ">=", ComparisonKind::kGreaterEqual);
  for (bool notDistinct : {false, true}) {
    const char* name = notDistinct ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM";
    registry.add(ScalarFunction(
        name, FunctionSyntax::kBinaryOperator,
        {std::string("'<COMPARABLE_TYPE> ") + name + " <COMPARABLE_TYPE>'"},
        [notDistinct](const std::vector<LogicalTypePtr>& arguments) {
          return bindDistinct(notDistinct, arguments);
        }));
  }
}

}  // namespace eddy::function
