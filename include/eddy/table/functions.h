// User-defined scalar functions (Flink's ScalarFunction), registered on a TableEnvironment and
// called from SQL and the Table API like built-in functions:
//
//   tEnv->createTemporarySystemFunction("count_char",
//       eddy::scalarFunction([](const std::string& text, const std::string& ch) -> int64_t {
//         ...
//       }));
//   tEnv->executeSql("SELECT count_char(name, 'a') FROM people");
//
// The SQL signature comes from the C++ one. Parameter and return types:
//   bool → BOOLEAN, int8_t → TINYINT, int16_t → SMALLINT, int32_t → INT, int64_t → BIGINT,
//   float → FLOAT, double → DOUBLE, std::string → STRING,
//   std::optional<T> → T, nullable.
// Arguments are implicitly cast to the parameter types as for built-in functions (an INT
// argument reaches an int64_t parameter). A NULL argument for a parameter that is not a
// std::optional makes the result NULL without calling the function (as Flink does for
// primitive parameters); a std::optional parameter receives std::nullopt. The result is NOT NULL
// when the function returns a plain T and no argument can be NULL; returning std::optional<T>
// makes it nullable (std::nullopt is NULL). An exception thrown by the function fails the job
// with its message.
//
// The callable must be safe to call from several task threads at once (it is shared by the
// subtasks of a job) and is called once per row. `deterministic = false` marks a function
// whose result may differ for equal arguments (it is then never constant-folded).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "eddy/types/logical_type.h"
#include "eddy/types/value.h"

namespace eddy {

/// A user-defined scalar function in the form the engine registers: its signature and a
/// row-wise evaluation over Values (NULL arguments of non-nullable parameters never reach it).
struct ScalarFunctionDefinition {
  /// The parameter types; a nullable one means NULL arguments reach `eval`.
  std::vector<LogicalTypePtr> parameterTypes;
  /// The result type; nullable when `eval` may return a null Value.
  LogicalTypePtr resultType;
  bool deterministic = true;
  std::function<Value(const std::vector<Value>& arguments)> eval;
};

namespace detail {

template <typename T>
struct SqlType;
template <>
struct SqlType<bool> {
  static LogicalTypePtr get() { return LogicalType::simple(LogicalTypeRoot::BOOLEAN, false); }
};
template <>
struct SqlType<int8_t> {
  static LogicalTypePtr get() { return LogicalType::simple(LogicalTypeRoot::TINYINT, false); }
};
template <>
struct SqlType<int16_t> {
  static LogicalTypePtr get() { return LogicalType::simple(LogicalTypeRoot::SMALLINT, false); }
};
template <>
struct SqlType<int32_t> {
  static LogicalTypePtr get() { return LogicalType::simple(LogicalTypeRoot::INTEGER, false); }
};
template <>
struct SqlType<int64_t> {
  static LogicalTypePtr get() { return LogicalType::simple(LogicalTypeRoot::BIGINT, false); }
};
template <>
struct SqlType<float> {
  static LogicalTypePtr get() { return LogicalType::simple(LogicalTypeRoot::FLOAT, false); }
};
template <>
struct SqlType<double> {
  static LogicalTypePtr get() { return LogicalType::simple(LogicalTypeRoot::DOUBLE, false); }
};
template <>
struct SqlType<std::string> {
  static LogicalTypePtr get() { return LogicalType::varchar(LogicalType::kMaxLength, false); }
};
template <typename T>
struct SqlType<std::optional<T>> {
  static LogicalTypePtr get() { return SqlType<T>::get()->copy(true); }
};

template <typename T>
struct Argument {
  static T from(const Value& value) { return value.get<T>(); }
};
template <typename T>
struct Argument<std::optional<T>> {
  static std::optional<T> from(const Value& value) {
    if (value.isNull()) return std::nullopt;
    return value.get<T>();
  }
};

template <typename T>
Value toValue(T result) {
  return Value(std::move(result));
}
template <typename T>
Value toValue(std::optional<T> result) {
  return result ? Value(std::move(*result)) : Value();
}

template <typename F>
struct CallableTraits : CallableTraits<decltype(&F::operator())> {};
template <typename C, typename R, typename... A>
struct CallableTraits<R (C::*)(A...) const> {
  using Result = R;
  using Arguments = std::tuple<std::decay_t<A>...>;
};
template <typename C, typename R, typename... A>
struct CallableTraits<R (C::*)(A...)> {
  using Result = R;
  using Arguments = std::tuple<std::decay_t<A>...>;
};
template <typename R, typename... A>
struct CallableTraits<R (*)(A...)> {
  using Result = R;
  using Arguments = std::tuple<std::decay_t<A>...>;
};

template <typename F, typename Tuple, size_t... I>
ScalarFunctionDefinition define(F callable, bool deterministic, std::index_sequence<I...>) {
  using Result = typename CallableTraits<F>::Result;
  ScalarFunctionDefinition definition;
  definition.parameterTypes = {SqlType<std::tuple_element_t<I, Tuple>>::get()...};
  definition.resultType = SqlType<Result>::get();
  definition.deterministic = deterministic;
  definition.eval = [callable = std::move(callable)](const std::vector<Value>& arguments) {
    return toValue<>(callable(Argument<std::tuple_element_t<I, Tuple>>::from(arguments[I])...));
  };
  return definition;
}

}  // namespace detail

/// The definition of a scalar function computed by `callable` (a lambda, a function pointer or
/// a function object with one call operator); see the file comment.
template <typename F>
ScalarFunctionDefinition scalarFunction(F callable, bool deterministic = true) {
  using Arguments = typename detail::CallableTraits<std::decay_t<F>>::Arguments;
  return detail::define<std::decay_t<F>, Arguments>(
      std::move(callable), deterministic, std::make_index_sequence<std::tuple_size_v<Arguments>>{});
}

}  // namespace eddy
