// FunctionRegistry: Flink's built-in scalar functions by name (case-insensitive), each with
// the call forms it accepts and, for a given list of argument types, its return type and its
// vectorized kernel.
//
// How a call is resolved: the binder (or the expression builders in src/expression) asks
// `resolve(name, argumentTypes)`. The function's binder looks at the argument types and either
// declines (std::nullopt) or returns a BoundScalarFunction: the types the arguments must be
// implicitly cast to (the caller inserts the CASTs, so a kernel sees exactly these types), the
// return type with its nullability, and the kernel. A decline becomes Calcite's message:
//   Cannot apply '+' to arguments of type '<VARCHAR(2147483647)> + <INT>'. Supported form(s):
//   '<NUMERIC> + <NUMERIC>'
//
// Adding a function (the checklist): write its operation as a small struct in
// src/function/scalar/<family>.cpp, register it in that file's register...Functions with one
// `add` (its binder built from the helpers in scalar/scalar_function_builders.h), test it in
// src/function/tests/ or src/expression/tests/, and list it in docs/functions.md.
//
// Threading: builtIn() is built once (thread-safe static) and never changed; lookups and
// kernels may run on any thread concurrently. A registry under construction (add) is not
// synchronized.
#pragma once

#include <concepts>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/session_time_zone.h"
#include "eddy/types/logical_type.h"
#include "eddy/types/value.h"
#include "function/evaluation_context.h"
#include "function/kernel_vector.h"

namespace eddy::function {

/// Computes a function over whole vectors: `arguments` all have the same logical size (some
/// may be constants); returns a vector of `resultType` of that size. Made from a callable of
/// `(arguments, resultType)` — most kernels, which read nothing else — or of
/// `(arguments, resultType, EvaluationContext&)` for the few that read the evaluation
/// (RAND, UUID, CURRENT_WATERMARK); the evaluator always passes its context.
class ScalarKernel {
 public:
  using Function = std::function<KernelVector(const std::vector<KernelVector>& arguments,
                                              const LogicalTypePtr& resultType,
                                              EvaluationContext& context)>;

  ScalarKernel() = default;
  template <typename Callable>
    requires(!std::same_as<std::remove_cvref_t<Callable>, ScalarKernel>)
  ScalarKernel(Callable callable) {  // NOLINT(google-explicit-constructor): kernels are lambdas
    if constexpr (std::is_invocable_r_v<KernelVector, Callable&, const std::vector<KernelVector>&,
                                        const LogicalTypePtr&, EvaluationContext&>) {
      function_ = std::move(callable);
    } else {
      function_ = [callable = std::move(callable)](const std::vector<KernelVector>& arguments,
                                                   const LogicalTypePtr& resultType,
                                                   EvaluationContext&) {
        return callable(arguments, resultType);
      };
    }
  }

  KernelVector operator()(const std::vector<KernelVector>& arguments,
                          const LogicalTypePtr& resultType, EvaluationContext& context) const {
    return function_(arguments, resultType, context);
  }
  explicit operator bool() const { return static_cast<bool>(function_); }

 private:
  Function function_;
};

/// How a call is written, for messages and EXPLAIN.
enum class FunctionSyntax {
  kFunction,        ///< NAME(a, b)
  kBinaryOperator,  ///< a + b
  kPrefixOperator,  ///< -a, NOT a
  kPostfixOperator  ///< a IS NULL
};

class ScalarFunction;

/// A function resolved for argument types.
struct BoundScalarFunction {
  /// Types the arguments are implicitly cast to before the kernel sees them (nullability is
  /// the argument's own; only root and parameters matter).
  std::vector<LogicalTypePtr> argumentTypes;
  /// The result type, nullability included.
  LogicalTypePtr returnType;
  ScalarKernel kernel;
};

/// Resolves a call for argument types, or declines with std::nullopt.
using ScalarFunctionBinder =
    std::function<std::optional<BoundScalarFunction>(const std::vector<LogicalTypePtr>&)>;
/// The value of each argument that is a literal (std::nullopt for the others): ROUND(x, 2)
/// types its DECIMAL result by the literal 2, as Flink does.
using LiteralArguments = std::vector<std::optional<Value>>;
/// A binder that also sees the literal arguments.
using ScalarFunctionLiteralBinder = std::function<std::optional<BoundScalarFunction>(
    const std::vector<LogicalTypePtr>&, const LiteralArguments&)>;

/// What a call's kernel may depend on besides its arguments and the EvaluationContext: the
/// session the plan is bound in. The binder (sql::Binder) resolves it once per plan; functions
/// that need it (the temporal functions reading TIMESTAMP_LTZ values as wall-clock times)
/// capture it in their kernel, so nothing is looked up per row or read from a global.
struct BindingContext {
  /// `table.local-time-zone` (UTC unless set).
  common::SessionTimeZone sessionTimeZone;
  /// The statement is planned for BATCH, which allows what STREAMING cannot run (an OVER window
  /// ordered by columns that are not a time attribute).
  bool batchMode = false;
};
/// A binder that also sees the binding context.
using ScalarFunctionContextBinder = std::function<std::optional<BoundScalarFunction>(
    const std::vector<LogicalTypePtr>&, const LiteralArguments&, const BindingContext&)>;

/// A built-in scalar function.
class ScalarFunction {
 public:
  ScalarFunction(std::string name, FunctionSyntax syntax, std::vector<std::string> supportedForms,
                 ScalarFunctionBinder binder, bool deterministic = true)
      : name_(std::move(name)),
        syntax_(syntax),
        supportedForms_(std::move(supportedForms)),
        binder_([binder = std::move(binder)](const std::vector<LogicalTypePtr>& types,
                                             const LiteralArguments&,
                                             const BindingContext&) { return binder(types); }),
        deterministic_(deterministic) {}
  ScalarFunction(std::string name, FunctionSyntax syntax, std::vector<std::string> supportedForms,
                 ScalarFunctionLiteralBinder binder, bool deterministic = true)
      : name_(std::move(name)),
        syntax_(syntax),
        supportedForms_(std::move(supportedForms)),
        binder_([binder = std::move(binder)](
                    const std::vector<LogicalTypePtr>& types, const LiteralArguments& literals,
                    const BindingContext&) { return binder(types, literals); }),
        deterministic_(deterministic) {}
  ScalarFunction(std::string name, FunctionSyntax syntax, std::vector<std::string> supportedForms,
                 ScalarFunctionContextBinder binder, bool deterministic = true)
      : name_(std::move(name)),
        syntax_(syntax),
        supportedForms_(std::move(supportedForms)),
        binder_(std::move(binder)),
        deterministic_(deterministic) {}

  /// Flink's name, upper case ("+", "UPPER", "IS NULL").
  const std::string& name() const { return name_; }
  FunctionSyntax syntax() const { return syntax_; }
  /// Calcite's forms, e.g. "'<NUMERIC> + <NUMERIC>'" or "'UPPER(<CHARACTER>)'".
  const std::vector<std::string>& supportedForms() const { return supportedForms_; }
  bool isDeterministic() const { return deterministic_; }

  /// Resolves the call for `arguments`; `literals` (empty, or one entry per argument) holds
  /// the values of literal arguments.
  std::optional<BoundScalarFunction> bind(const std::vector<LogicalTypePtr>& arguments,
                                          const LiteralArguments& literals = {},
                                          const BindingContext& context = {}) const {
    if (literals.empty()) return binder_(arguments, LiteralArguments(arguments.size()), context);
    return binder_(arguments, literals, context);
  }
  /// The call printed with `arguments` as operand texts: `+($0, 1)` style for every syntax,
  /// as Flink prints RexCalls in plans.
  std::string formatCall(const std::vector<std::string>& arguments) const;

 private:
  std::string name_;
  FunctionSyntax syntax_;
  std::vector<std::string> supportedForms_;
  ScalarFunctionContextBinder binder_;
  bool deterministic_;
};

/// Built-in scalar functions by name; see the file comment.
class FunctionRegistry {
 public:
  FunctionRegistry() = default;
  /// A registry whose own functions come first and which looks up the rest in `fallback`
  /// (a session's user-defined functions over the built-ins: Flink's temporary system
  /// functions shadow built-in ones). `fallback` must outlive this registry.
  explicit FunctionRegistry(const FunctionRegistry* fallback) : fallback_(fallback) {}

  /// Every built-in function of this module (immutable; any thread).
  static const FunctionRegistry& builtIn();

  /// Adds `function`; throws InternalError when the name is taken.
  void add(ScalarFunction function);
  /// Makes `alias` another name of the function `name` (CHARACTER_LENGTH → CHAR_LENGTH).
  void addAlias(std::string alias, std::string_view name);

  /// Adds or replaces `function` (a user-defined function registered again).
  void put(ScalarFunction function);
  /// Removes the function called `name` (any case) from this registry (not the fallback);
  /// whether it was there.
  bool remove(std::string_view name);

  /// The function called `name` (any case), or nullptr; this registry's own first, then the
  /// fallback's.
  const ScalarFunction* lookup(std::string_view name) const;
  /// All names of this registry's own functions, aliases included, upper case and sorted (for
  /// SHOW FUNCTIONS; the fallback's are not listed).
  std::vector<std::string> functionNames() const;

  /// Resolves a call. Throws ValidationException "No match found for function signature
  /// FOO(<INT>)" for an unknown name and Calcite's "Cannot apply ..." message when the argument
  /// types fit no form.
  BoundScalarFunction resolve(std::string_view name,
                              const std::vector<LogicalTypePtr>& argumentTypes,
                              const LiteralArguments& literals = {},
                              const BindingContext& context = {}) const;

  /// Counts the changes of this registry's own functions (add, put, remove), so that what was
  /// derived from resolving calls (a view's bound plan) can tell it may be stale.
  uint64_t generation() const { return generation_; }

 private:
  std::map<std::string, std::shared_ptr<const ScalarFunction>, std::less<>> functions_;
  const FunctionRegistry* fallback_ = nullptr;
  uint64_t generation_ = 0;
};

/// The "Cannot apply" message for `function` and `argumentTypes`.
std::string cannotApplyMessage(const ScalarFunction& function,
                               const std::vector<LogicalTypePtr>& argumentTypes);

// Registration entry points of the function families (src/function/scalar/*.cpp).
void registerComparisonFunctions(FunctionRegistry& registry);
void registerLogicalFunctions(FunctionRegistry& registry);
void registerArithmeticFunctions(FunctionRegistry& registry);
void registerMathFunctions(FunctionRegistry& registry);
void registerStringFunctions(FunctionRegistry& registry);
void registerTemporalFunctions(FunctionRegistry& registry);
void registerRegularExpressionFunctions(FunctionRegistry& registry);
void registerHashFunctions(FunctionRegistry& registry);
void registerBase64Functions(FunctionRegistry& registry);
void registerJsonFunctions(FunctionRegistry& registry);
void registerCollectionFunctions(FunctionRegistry& registry);
void registerRandomFunctions(FunctionRegistry& registry);

}  // namespace eddy::function
