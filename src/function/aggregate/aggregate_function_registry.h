// AggregateFunctionRegistry: Flink's built-in aggregate functions — each kind of aggregate
// call with the name SQL calls it by — as FunctionRegistry (function_registry.h) holds the
// scalar ones. The binder resolves an aggregate call's name here (aggregateKindOfName), EXPLAIN
// prints a call's name (aggregateKindName) and SHOW FUNCTIONS lists the names
// (aggregateFunctionNames). What an aggregate computes is its accumulator (aggregate_call.h).
//
// Adding an aggregate function (the checklist): a kind below and its line in the registry's
// table (aggregate_function_registry.cpp), its accumulator in aggregate_call.cpp (create,
// accumulate, result; merge where it can be split into local and global phases) with the
// arithmetic in the family's file, its result type in the binder
// (src/sql/binder/bind_aggregate_call.cpp), a test in tests/sql/aggregate/, and a line in
// docs/functions.md.
//
// Threading: builtIn() is built once (thread-safe static) and never changed; lookups may run on
// any thread concurrently.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eddy::function {

/// SINGLE_VALUE is Calcite's: the value of a scalar subquery (NULL without rows; more than one
/// row is an error).
enum class AggregateKind {
  COUNT_STAR,
  COUNT,
  SUM,
  AVG,
  MIN,
  MAX,
  SINGLE_VALUE,
  FIRST_VALUE,
  LAST_VALUE,
  LISTAGG,
  STDDEV_POP,
  STDDEV_SAMP,
  VAR_POP,
  VAR_SAMP,
  COLLECT,
  /// LAG(x [, offset [, default]]) OVER (..): x of the row `offset` rows before the current one
  /// in its partition (OVER only; the frame does not matter).
  LAG,
  JSON_OBJECTAGG,
  JSON_ARRAYAGG
};

/// A built-in aggregate function.
struct AggregateFunction {
  AggregateKind kind;
  /// The SQL name ("COUNT", "SUM", ...), upper case.
  std::string name;
  /// Whether a query calls it by its name: COUNT(*) is COUNT by name (the binder tells it
  /// apart), SINGLE_VALUE is internal.
  bool callableByName = true;
};

/// The built-in aggregate functions by kind and by name; see the file comment.
class AggregateFunctionRegistry {
 public:
  /// Every built-in aggregate function (immutable; any thread).
  static const AggregateFunctionRegistry& builtIn();

  /// The function of `kind`.
  const AggregateFunction& ofKind(AggregateKind kind) const;
  /// The function a query calls `upperCaseName`, or nullptr.
  const AggregateFunction* lookup(std::string_view upperCaseName) const;
  /// The names a query may call, sorted (for SHOW FUNCTIONS).
  const std::vector<std::string>& functionNames() const { return functionNames_; }

 private:
  AggregateFunctionRegistry();

  std::vector<AggregateFunction> functions_;  // indexed by kind
  std::vector<std::string> functionNames_;
};

/// The SQL name of `kind` ("COUNT", "SUM", ...).
std::string aggregateKindName(AggregateKind kind);

/// The aggregate function called `upperCaseName` (COUNT is COUNT; the binder tells COUNT(*)
/// apart), or std::nullopt. SINGLE_VALUE is internal and has no name here.
std::optional<AggregateKind> aggregateKindOfName(std::string_view upperCaseName);

/// Every aggregate function name a query may call, sorted (for SHOW FUNCTIONS).
const std::vector<std::string>& aggregateFunctionNames();

}  // namespace eddy::function
