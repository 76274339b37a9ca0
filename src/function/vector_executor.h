// The shared executor templates of vectorized scalar functions (STYLE rule 7; DuckDB's
// unary/binary/ternary executors). A function supplies only a small typed operation; the
// executor owns everything else, once:
//   - null propagation: a result row is NULL when any argument row is NULL, and the operation
//     is never called for such a row (so it may throw, e.g. "Division by zero");
//   - the no-null fast path: when no argument may hold nulls the loop has no null test;
//   - constants: a constant argument is read from its single value, and a call whose
//     arguments are all constant is computed once and returns a constant;
//   - a constant NULL argument makes the whole result a constant NULL without any loop.
//
// Physical types: bool, int8_t .. int64_t, float, double, __int128 (DECIMAL unscaled values)
// and std::string_view (CHAR/VARCHAR/BINARY/VARBINARY). A string result's operation returns
// anything convertible to std::string_view (a std::string temporary is fine).
//
// Operations come in two shapes:
//   execute:          Result op(Args...)                     (NULL only from NULL input)
//   executeNullable:  std::optional<Result> op(Args...)      (may also produce NULL, e.g.
//                                                             TRY_CAST, decimal overflow)
//
// Functions whose NULL handling is not "null in, null out" (AND, OR, IS NULL, COALESCE,
// CONCAT_WS) write their own loops over KernelVector.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "function/kernel_vector.h"

namespace eddy::function {

/// Reads the values of one argument as physical type T.
template <typename T>
class ArgumentReader {
 public:
  explicit ArgumentReader(const KernelVector& vector) : values_(vector.data<T>()) {}
  T operator[](int64_t physicalIndex) const { return values_[physicalIndex]; }

 private:
  const T* values_;
};

template <>
class ArgumentReader<std::string_view> {
 public:
  explicit ArgumentReader(const KernelVector& vector) : vector_(&vector) {}
  std::string_view operator[](int64_t physicalIndex) const {
    return vector_->stringAt(physicalIndex);
  }

 private:
  const KernelVector* vector_;
};

/// A TIMESTAMP / TIMESTAMP_LTZ value as kernels read it: epoch milliseconds and nanoseconds
/// within the millisecond (Flink's TimestampData); ordered as the time line.
struct TimestampValue {
  int64_t millisecond;
  int32_t nanoOfMillisecond;
  auto operator<=>(const TimestampValue&) const = default;
};

template <>
class ArgumentReader<TimestampValue> {
 public:
  explicit ArgumentReader(const KernelVector& vector)
      : milliseconds_(vector.data<int64_t>()), nanos_(vector.nanosOfMillisecond()) {}
  TimestampValue operator[](int64_t physicalIndex) const {
    return TimestampValue{milliseconds_[physicalIndex], nanos_[physicalIndex]};
  }

 private:
  const int64_t* milliseconds_;
  const int32_t* nanos_;
};

/// Writes the result values as physical type T, in row order.
template <typename T>
class ResultWriter {
 public:
  explicit ResultWriter(KernelVector& vector) : values_(vector.mutableData<T>()) {}
  template <typename V>
  void set(int64_t index, V&& value) {
    values_[index] = static_cast<T>(value);
  }
  void skip(int64_t) {}

 private:
  T* values_;
};

template <>
class ResultWriter<std::string_view> {
 public:
  explicit ResultWriter(KernelVector& vector) : vector_(&vector) {}
  template <typename V>
  void set(int64_t, V&& value) {
    vector_->appendString(std::string_view(value));
  }
  void skip(int64_t) { vector_->appendString(std::string_view()); }

 private:
  KernelVector* vector_;
};

template <>
class ResultWriter<TimestampValue> {
 public:
  explicit ResultWriter(KernelVector& vector)
      : milliseconds_(vector.mutableData<int64_t>()),
        nanos_(vector.mutableNanosOfMillisecond()) {}
  void set(int64_t index, TimestampValue value) {
    milliseconds_[index] = value.millisecond;
    nanos_[index] = value.nanoOfMillisecond;
  }
  void skip(int64_t) {}

 private:
  int64_t* milliseconds_;
  int32_t* nanos_;
};

namespace detail {

inline bool validAt(const uint64_t* validity, int64_t index) {
  return (validity[index >> 6] >> (index & 63)) & 1;
}

/// Whether some constant argument is NULL.
template <size_t N>
bool anyConstantNull(const std::array<const KernelVector*, N>& arguments) {
  for (const KernelVector* argument : arguments) {
    if (argument->isConstant() && argument->isNull(0)) return true;
  }
  return false;
}

/// The AND of the validity of the non-constant arguments (constants are known valid here),
/// into `result`; false when no argument has nulls.
template <size_t N>
bool combineValidity(const std::array<const KernelVector*, N>& arguments, KernelVector& result) {
  bool anyNulls = false;
  for (const KernelVector* argument : arguments) {
    if (!argument->isConstant() && argument->mayHaveNulls()) anyNulls = true;
  }
  if (!anyNulls) return false;
  uint64_t* validity = result.mutableValidity();
  int64_t words = validityWords(result.physicalSize());
  for (const KernelVector* argument : arguments) {
    if (argument->isConstant() || !argument->mayHaveNulls()) continue;
    const uint64_t* other = argument->validity();
    for (int64_t word = 0; word < words; ++word) validity[word] &= other[word];
  }
  return true;
}

/// Stores an operation's result, or marks the row NULL for an empty optional.
template <typename Result, typename Value>
void store(ResultWriter<Result>& writer, KernelVector& result, int64_t index, Value&& value) {
  if constexpr (requires { value.has_value(); }) {
    if (value.has_value()) {
      writer.set(index, *value);
    } else {
      writer.skip(index);
      result.setNull(index);
    }
  } else {
    writer.set(index, std::forward<Value>(value));
  }
}

/// The common loop: `arguments` all have the result's logical size; `kConstant[i]` says
/// whether argument i is read at index 0.
template <typename Result, typename... Args, size_t... I, typename Operation>
KernelVector executeLoop(const std::array<const KernelVector*, sizeof...(Args)>& arguments,
                         const LogicalTypePtr& resultType, Operation& operation,
                         std::index_sequence<I...>) {
  int64_t size = arguments[0]->size();
  bool allConstant = (arguments[I]->isConstant() && ...);
  if (anyConstantNull(arguments)) {
    return KernelVector::constant(resultType, Value(), size);
  }
  KernelVector result(resultType, size, allConstant);
  int64_t count = result.physicalSize();
  std::tuple<ArgumentReader<Args>...> readers{ArgumentReader<Args>(*arguments[I])...};
  [[maybe_unused]] std::array<bool, sizeof...(Args)> constant{arguments[I]->isConstant()...};
  ResultWriter<Result> writer(result);
  bool hasNulls = combineValidity(arguments, result);
  // Specialize the hot unary and binary shapes on which arguments are constant, so the
  // all-valid loop is a plain indexed loop the compiler can vectorize.
  using OperationResult = std::invoke_result_t<Operation&, Args...>;
  constexpr bool kPlainLoop = !requires(OperationResult value) { value.has_value(); } &&
                              std::is_arithmetic_v<Result> &&
                              (std::is_arithmetic_v<Args> && ...);
  auto loop = [&](auto... isConstant) {
    if constexpr (kPlainLoop) {
      if (!hasNulls) {
        // Raw pointers in locals, so the compiler sees no aliasing and vectorizes.
        Result* __restrict out = result.mutableData<Result>();
        std::tuple<const Args*...> in{arguments[I]->template data<Args>()...};
        for (int64_t row = 0; row < count; ++row) {
          out[row] = static_cast<Result>(
              operation(std::get<I>(in)[decltype(isConstant)::value ? 0 : row]...));
        }
        return;
      }
    }
    if (!hasNulls) {
      for (int64_t row = 0; row < count; ++row) {
        store(writer, result, row,
              operation(std::get<I>(readers)[decltype(isConstant)::value ? 0 : row]...));
      }
    } else {
      const uint64_t* validity = result.validity();
      for (int64_t row = 0; row < count; ++row) {
        if (validAt(validity, row)) {
          store(writer, result, row,
                operation(std::get<I>(readers)[decltype(isConstant)::value ? 0 : row]...));
        } else {
          writer.skip(row);
        }
      }
    }
  };
  using Flat [[maybe_unused]] = std::false_type;
  using Constant [[maybe_unused]] = std::true_type;
  if constexpr (sizeof...(Args) == 1) {
    loop(Flat{});  // a constant unary call is computed over one physical row already
  } else if constexpr (sizeof...(Args) == 2) {
    if (allConstant || (!constant[0] && !constant[1])) {
      loop(Flat{}, Flat{});
    } else if (constant[0]) {
      loop(Constant{}, Flat{});
    } else {
      loop(Flat{}, Constant{});
    }
  } else {
    // Three or more arguments (string functions mostly): read each through its physical index.
    if (!hasNulls) {
      for (int64_t row = 0; row < count; ++row) {
        store(writer, result, row,
              operation(std::get<I>(readers)[constant[I] ? 0 : row]...));
      }
    } else {
      const uint64_t* validity = result.validity();
      for (int64_t row = 0; row < count; ++row) {
        if (validAt(validity, row)) {
          store(writer, result, row, operation(std::get<I>(readers)[constant[I] ? 0 : row]...));
        } else {
          writer.skip(row);
        }
      }
    }
  }
  return result;
}

}  // namespace detail

/// One argument.
struct UnaryExecutor {
  template <typename Input, typename Result, typename Operation>
  static KernelVector execute(const KernelVector& input, const LogicalTypePtr& resultType,
                              Operation&& operation) {
    return detail::executeLoop<Result, Input>({&input}, resultType, operation,
                                              std::index_sequence_for<Input>{});
  }
};

/// Two arguments of the same logical size.
struct BinaryExecutor {
  template <typename Left, typename Right, typename Result, typename Operation>
  static KernelVector execute(const KernelVector& left, const KernelVector& right,
                              const LogicalTypePtr& resultType, Operation&& operation) {
    return detail::executeLoop<Result, Left, Right>({&left, &right}, resultType, operation,
                                                    std::index_sequence_for<Left, Right>{});
  }
};

/// Three arguments of the same logical size.
struct TernaryExecutor {
  template <typename First, typename Second, typename Third, typename Result,
            typename Operation>
  static KernelVector execute(const KernelVector& first, const KernelVector& second,
                              const KernelVector& third, const LogicalTypePtr& resultType,
                              Operation&& operation) {
    return detail::executeLoop<Result, First, Second, Third>(
        {&first, &second, &third}, resultType, operation,
        std::index_sequence_for<First, Second, Third>{});
  }
};

}  // namespace eddy::function
