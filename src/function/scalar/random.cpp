// Random functions with Flink's semantics: RAND() (DOUBLE in [0, 1)), RAND(seed),
// RAND_INTEGER(bound) (INT in [0, bound)), RAND_INTEGER(seed, bound) and UUID() (a random
// version 4 UUID, STRING NOT NULL). None is deterministic, so none is constant-folded.
//
// With a seed, Flink's generated code keeps one java.util.Random(seed) per call and operator
// instance, so every parallel subtask draws the same sequence; eddy does the same with
// JavaRandom, the linear congruential generator java.util.Random documents (48-bit state,
// multiplier 0x5DEECE66D), so RAND(42) gives Flink's numbers. Each operator instance keeps its
// own generator per bound call in its EvaluationContext (a plan bound again starts the
// sequence again). Unseeded calls draw from the context's std::mt19937_64, seeded by
// std::random_device.
#include <random>

#include "common/uuid.h"
#include "eddy/exceptions.h"
#include "function/scalar/scalar_function_builders.h"

namespace eddy::function {
namespace {

/// java.util.Random's generator (its documented algorithm).
class JavaRandom {
 public:
  explicit JavaRandom(int64_t seed)
      : seed_((static_cast<uint64_t>(seed) ^ kMultiplier) & kMask) {}

  double nextDouble() {
    int64_t high = next(26);
    int64_t low = next(27);
    return static_cast<double>((high << 27) + low) * 0x1.0p-53;
  }

  /// A value in [0, bound); bound > 0.
  int32_t nextInt(int32_t bound) {
    int32_t r = next(31);
    const int32_t m = bound - 1;
    if ((bound & m) == 0) return static_cast<int32_t>((static_cast<int64_t>(bound) * r) >> 31);
    // Java's loop `for (u = r; u - (r = u % bound) + m < 0; u = next(31))` rejects the values
    // whose int arithmetic overflows, i.e. u - r + m > INT32_MAX.
    for (int32_t u = r;; u = next(31)) {
      r = u % bound;
      if (static_cast<int64_t>(u) - r + m <= INT32_MAX) return r;
    }
  }

 private:
  static constexpr uint64_t kMultiplier = 0x5DEECE66DULL;
  static constexpr uint64_t kMask = (uint64_t{1} << 48) - 1;

  int32_t next(int bits) {
    seed_ = (seed_ * kMultiplier + 0xBULL) & kMask;
    return static_cast<int32_t>(static_cast<uint32_t>(seed_ >> (48 - bits)));
  }

  uint64_t seed_;
};

/// The rows a kernel without arguments fills (the evaluator sets them; 1 outside one).
int64_t rowsToFill(const std::vector<KernelVector>& arguments, const EvaluationContext& context) {
  return arguments.empty() ? context.rowCount() : arguments[0].size();
}

int32_t checkedBound(int32_t bound) {
  if (bound <= 0) {
    throw TableException("RAND_INTEGER's bound must be positive, but was " + std::to_string(bound));
  }
  return bound;
}

std::optional<BoundScalarFunction> bindRand(const std::vector<LogicalTypePtr>& arguments,
                                            bool integer) {
  // RAND([seed]) and RAND_INTEGER([seed,] bound): integer arguments as INT.
  const size_t expected = integer ? 2 : 1;
  if (arguments.size() > expected || (integer && arguments.empty())) return std::nullopt;
  std::vector<LogicalTypePtr> types;
  for (const LogicalTypePtr& argument : arguments) {
    if (!isIntegral(*argument) && !isNullType(*argument)) return std::nullopt;
    types.push_back(LogicalType::simple(LogicalTypeRoot::INTEGER, argument->isNullable()));
  }
  const bool seeded = arguments.size() == expected;
  LogicalTypePtr result = integer ? LogicalType::simple(LogicalTypeRoot::INTEGER, anyNullable(types))
                                  : LogicalType::simple(LogicalTypeRoot::DOUBLE, anyNullable(types));
  // The key of this call's generator in an evaluation context: an address owned by the bound
  // call.
  auto identity = std::make_shared<char>();
  ScalarKernel kernel = [identity, seeded, integer](const std::vector<KernelVector>& values,
                                                  const LogicalTypePtr& type,
                                                  EvaluationContext& context) {
    const int64_t rows = rowsToFill(values, context);
    vector::Vector out(type);
    out.reserve(rows);
    for (int64_t row = 0; row < rows; ++row) {
      bool isNull = false;
      for (const KernelVector& value : values) isNull = isNull || value.isNull(row);
      if (isNull) {
        out.appendNull();
        continue;
      }
      const int32_t* seed = seeded ? values[0].data<int32_t>() : nullptr;
      const int32_t bound =
          integer ? checkedBound(values.back().data<int32_t>()[values.back().physicalIndex(row)]) : 0;
      if (seed != nullptr) {
        auto& random = context.callState<JavaRandom>(
            identity.get(), static_cast<int64_t>(seed[values[0].physicalIndex(row)]));
        out.appendValue(integer ? Value(random.nextInt(bound)) : Value(random.nextDouble()));
      } else if (integer) {
        out.appendValue(Value(static_cast<int32_t>(
            std::uniform_int_distribution<int32_t>(0, bound - 1)(context.random()))));
      } else {
        out.appendValue(Value(std::generate_canonical<double, 53>(context.random())));
      }
    }
    return KernelVector::adopt(std::move(out));
  };
  return BoundScalarFunction{types, result, std::move(kernel)};
}

}  // namespace

void registerRandomFunctions(FunctionRegistry& registry) {
  registry.add(ScalarFunction(
      "RAND", FunctionSyntax::kFunction, {"'RAND()'", "'RAND(<INTEGER>)'"},
      ScalarFunctionBinder([](const std::vector<LogicalTypePtr>& arguments) {
        return bindRand(arguments, false);
      }),
      /*deterministic=*/false));
  registry.add(ScalarFunction(
      "RAND_INTEGER", FunctionSyntax::kFunction,
      {"'RAND_INTEGER(<INTEGER>)'", "'RAND_INTEGER(<INTEGER>, <INTEGER>)'"},
      ScalarFunctionBinder([](const std::vector<LogicalTypePtr>& arguments) {
        return bindRand(arguments, true);
      }),
      /*deterministic=*/false));
  registry.add(ScalarFunction(
      "UUID", FunctionSyntax::kFunction, {"'UUID()'"},
      ScalarFunctionBinder([](const std::vector<LogicalTypePtr>& arguments)
                               -> std::optional<BoundScalarFunction> {
        if (!arguments.empty()) return std::nullopt;
        return BoundScalarFunction{
            {}, LogicalType::varchar(36, false),
            [](const std::vector<KernelVector>& values, const LogicalTypePtr& type,
               EvaluationContext& context) {
              const int64_t rows = rowsToFill(values, context);
              vector::Vector out(type);
              out.reserve(rows);
              for (int64_t row = 0; row < rows; ++row) {
                out.appendValue(Value(common::randomUuid(context.random())));
              }
              return KernelVector::adopt(std::move(out));
            }};
      }),
      /*deterministic=*/false));
}

}  // namespace eddy::function
