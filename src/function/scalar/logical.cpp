// Boolean logic with SQL's three values: AND, OR, NOT, and the predicates IS [NOT] NULL,
// IS [NOT] TRUE, IS [NOT] FALSE (which are never NULL). AND and OR do not propagate NULL
// blindly: FALSE AND NULL is FALSE, TRUE OR NULL is TRUE, so they have their own loops.
#include "function/scalar/scalar_function_builders.h"

namespace eddy::function {
namespace {

// AND / OR over two BOOLEAN vectors. `dominant` is the value that decides the result alone
// (FALSE for AND, TRUE for OR).
KernelVector connective(const KernelVector& left, const KernelVector& right,
                        const LogicalTypePtr& resultType, bool dominant) {
  bool allConstant = left.isConstant() && right.isConstant();
  KernelVector result(resultType, left.size(), allConstant);
  const bool* a = left.data<bool>();
  const bool* b = right.data<bool>();
  bool* out = result.mutableData<bool>();
  int64_t count = result.physicalSize();
  if (!left.mayHaveNulls() && !right.mayHaveNulls() && !left.isConstant() &&
      !right.isConstant()) {
    if (dominant) {
      for (int64_t row = 0; row < count; ++row) out[row] = a[row] | b[row];
    } else {
      for (int64_t row = 0; row < count; ++row) out[row] = a[row] & b[row];
    }
    return result;
  }
  for (int64_t row = 0; row < count; ++row) {
    bool leftNull = left.isNull(row);
    bool rightNull = right.isNull(row);
    bool leftValue = a[left.physicalIndex(row)];
    bool rightValue = b[right.physicalIndex(row)];
    if ((!leftNull && leftValue == dominant) || (!rightNull && rightValue == dominant)) {
      out[row] = dominant;
    } else if (leftNull || rightNull) {
      result.setNull(row);
    } else {
      out[row] = !dominant;
    }
  }
  return result;
}

enum class Predicate { kIsNull, kIsNotNull, kIsTrue, kIsNotTrue, kIsFalse, kIsNotFalse };

KernelVector testPredicate(const KernelVector& input, const LogicalTypePtr& resultType,
                           Predicate predicate) {
  KernelVector result(resultType, input.size(), input.isConstant());
  bool* out = result.mutableData<bool>();
  const bool* values =
      input.layout() == vector::PhysicalLayout::kBoolean ? input.data<bool>() : nullptr;
  for (int64_t row = 0; row < result.physicalSize(); ++row) {
    bool isNull = input.isNull(row);
    bool value = !isNull && values != nullptr && values[row];
    switch (predicate) {
      case Predicate::kIsNull:
        out[row] = isNull;
        break;
      case Predicate::kIsNotNull:
        out[row] = !isNull;
        break;
      case Predicate::kIsTrue:
        out[row] = !isNull && value;
        break;
      case Predicate::kIsNotTrue:
        out[row] = isNull || !value;
        break;
      case Predicate::kIsFalse:
        out[row] = !isNull && !value;
        break;
      case Predicate::kIsNotFalse:
        out[row] = isNull || value;
        break;
    }
  }
  return result;
}

// BOOLEAN arguments; a NULL-typed argument (an untyped NULL literal) is cast to BOOLEAN.
std::optional<std::vector<LogicalTypePtr>> booleanArguments(
    const std::vector<LogicalTypePtr>& arguments, size_t count) {
  if (arguments.size() != count) return std::nullopt;
  std::vector<LogicalTypePtr> types;
  for (const LogicalTypePtr& type : arguments) {
    if (isNullType(*type)) {
      types.push_back(LogicalType::simple(LogicalTypeRoot::BOOLEAN));
    } else if (isBoolean(*type)) {
      types.push_back(type);
    } else {
      return std::nullopt;
    }
  }
  return types;
}

}  // namespace

void registerLogicalFunctions(FunctionRegistry& registry) {
  for (bool isOr : {false, true}) {
    const char* name = isOr ? "OR" : "AND";
    registry.add(ScalarFunction(
        name, FunctionSyntax::kBinaryOperator,
        {std::string("'<BOOLEAN> ") + name + " <BOOLEAN>'"},
        [isOr](const std::vector<LogicalTypePtr>& arguments)
            -> std::optional<BoundScalarFunction> {
          auto types = booleanArguments(arguments, 2);
          if (!types) return std::nullopt;
          return BoundScalarFunction{
              *types, LogicalType::simple(LogicalTypeRoot::BOOLEAN, anyNullable(*types)),
              [isOr](const std::vector<KernelVector>& values, const LogicalTypePtr& resultType) {
                return connective(values[0], values[1], resultType, isOr);
              }};
        }));
  }
  registry.add(ScalarFunction(
      "NOT", FunctionSyntax::kPrefixOperator, {"'NOT<BOOLEAN>'"},
      [](const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        auto types = booleanArguments(arguments, 1);
        if (!types) return std::nullopt;
        return BoundScalarFunction{*types, (*types)[0],
                                   unaryKernel<bool, bool>([](bool value) { return !value; })};
      }));
  struct PredicateName {
    const char* name;
    Predicate predicate;
    bool anyType;
  };
  for (PredicateName entry : {PredicateName{"IS NULL", Predicate::kIsNull, true},
                              PredicateName{"IS NOT NULL", Predicate::kIsNotNull, true},
                              PredicateName{"IS TRUE", Predicate::kIsTrue, false},
                              PredicateName{"IS NOT TRUE", Predicate::kIsNotTrue, false},
                              PredicateName{"IS FALSE", Predicate::kIsFalse, false},
                              PredicateName{"IS NOT FALSE", Predicate::kIsNotFalse, false}}) {
    std::string form = std::string("'<") + (entry.anyType ? "ANY" : "BOOLEAN") + "> " +
                       entry.name + "'";
    registry.add(ScalarFunction(
        entry.name, FunctionSyntax::kPostfixOperator, {form},
        [entry](const std::vector<LogicalTypePtr>& arguments)
            -> std::optional<BoundScalarFunction> {
          std::vector<LogicalTypePtr> types = arguments;
          if (!entry.anyType) {
            auto booleans = booleanArguments(arguments, 1);
            if (!booleans) return std::nullopt;
            types = *booleans;
          } else if (arguments.size() != 1) {
            return std::nullopt;
          }
          Predicate predicate = entry.predicate;
          return BoundScalarFunction{
              types, LogicalType::simple(LogicalTypeRoot::BOOLEAN, false),
              [predicate](const std::vector<KernelVector>& values,
                          const LogicalTypePtr& resultType) {
                return testPredicate(values[0], resultType, predicate);
              }};
        }));
  }
}

}  // namespace eddy::function
