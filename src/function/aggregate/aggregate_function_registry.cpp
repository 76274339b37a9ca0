// AggregateFunctionRegistry: the table of built-in aggregate functions (see the header).
#include "function/aggregate/aggregate_function_registry.h"

#include <algorithm>

#include "common/check.h"

namespace eddy::function {

AggregateFunctionRegistry::AggregateFunctionRegistry() {
  // In the order of AggregateKind: ofKind() indexes the table by kind.
  functions_ = {
      {AggregateKind::COUNT_STAR, "COUNT", /*callableByName=*/false},
      {AggregateKind::COUNT, "COUNT"},
      {AggregateKind::SUM, "SUM"},
      {AggregateKind::AVG, "AVG"},
      {AggregateKind::MIN, "MIN"},
      {AggregateKind::MAX, "MAX"},
      {AggregateKind::SINGLE_VALUE, "SINGLE_VALUE", /*callableByName=*/false},
      {AggregateKind::FIRST_VALUE, "FIRST_VALUE"},
      {AggregateKind::LAST_VALUE, "LAST_VALUE"},
      {AggregateKind::LISTAGG, "LISTAGG"},
      {AggregateKind::STDDEV_POP, "STDDEV_POP"},
      {AggregateKind::STDDEV_SAMP, "STDDEV_SAMP"},
      {AggregateKind::VAR_POP, "VAR_POP"},
      {AggregateKind::VAR_SAMP, "VAR_SAMP"},
      {AggregateKind::COLLECT, "COLLECT"},
      {AggregateKind::LAG, "LAG"},
      {AggregateKind::JSON_OBJECTAGG, "JSON_OBJECTAGG"},
      {AggregateKind::JSON_ARRAYAGG, "JSON_ARRAYAGG"},
  };
  for (size_t i = 0; i < functions_.size(); ++i) {
    EDDY_CHECK_EQ(static_cast<size_t>(functions_[i].kind), i);
    if (functions_[i].callableByName) functionNames_.push_back(functions_[i].name);
  }
  std::sort(functionNames_.begin(), functionNames_.end());
}

const AggregateFunctionRegistry& AggregateFunctionRegistry::builtIn() {
  static const AggregateFunctionRegistry registry;
  return registry;
}

const AggregateFunction& AggregateFunctionRegistry::ofKind(AggregateKind kind) const {
  const auto index = static_cast<size_t>(kind);
  EDDY_CHECK_LT(index, functions_.size());
  return functions_[index];
}

const AggregateFunction* AggregateFunctionRegistry::lookup(std::string_view upperCaseName) const {
  for (const AggregateFunction& candidate : functions_) {
    if (candidate.callableByName && candidate.name == upperCaseName) return &candidate;
  }
  return nullptr;
}

std::string aggregateKindName(AggregateKind kind) {
  return AggregateFunctionRegistry::builtIn().ofKind(kind).name;
}

std::optional<AggregateKind> aggregateKindOfName(std::string_view upperCaseName) {
  const AggregateFunction* found = AggregateFunctionRegistry::builtIn().lookup(upperCaseName);
  if (found == nullptr) return std::nullopt;
  return found->kind;
}

const std::vector<std::string>& aggregateFunctionNames() {
  return AggregateFunctionRegistry::builtIn().functionNames();
}

}  // namespace eddy::function
