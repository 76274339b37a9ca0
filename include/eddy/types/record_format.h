// Record formatting: how the DataStream API prints a record (print(), the collect sinks,
// string conversions in examples), which is what Java's toString() gives for the Flink type:
//   std::string / string_view / const char*   as is
//   integers                                   decimal digits (int8_t prints as a number)
//   bool                                       true / false
//   double, float                              Java's Double.toString / Float.toString
//   Decimal, temporal values, Row, Value       their toString()
//   std::pair, std::tuple                      Flink's Tuple2.toString: (a,b) without spaces
//   std::vector                                [a, b]  (Java's List.toString)
//   std::optional                              the value, or null
// Extend it for a user type by specializing RecordFormatter<T> (the Enable parameter allows
// enable_if-constrained specializations). Stateless and thread-safe.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "eddy/row.h"
#include "eddy/types/decimal.h"
#include "eddy/types/temporal.h"
#include "eddy/types/value.h"

namespace eddy {

/// Java's Double.toString: shortest round-trip digits; plain notation for
/// 1e-3 <= |d| < 1e7 (`10.5`, `100.0`, `0.001`), otherwise `d.dddE±n` (`1.0E10`, `1.0E-5`);
/// `NaN`, `Infinity`, `-Infinity`, `-0.0`.
std::string formatDouble(double value);
/// Java's Float.toString, same rules with float's shortest digits (`0.1f` prints `0.1`).
std::string formatFloat(float value);
void appendDouble(double value, std::string& out);
void appendFloat(float value, std::string& out);

/// Appends the Java toString() form of a record; see the file comment. Types without a
/// specialization print with their operator<< when they have one.
template <typename T, typename Enable = void>
struct RecordFormatter {
  static void append(const T& value, std::string& out) {
    if constexpr (requires(std::ostream & stream, const T& record) { stream << record; }) {
      std::ostringstream stream;
      stream << value;
      out.append(stream.str());
    } else {
      static_assert(sizeof(T) == 0,
                    "Specialize eddy::RecordFormatter<T> or define operator<< to print this type");
    }
  }
};

template <typename T>
void appendRecord(const T& value, std::string& out) {
  RecordFormatter<T>::append(value, out);
}

/// The printed form of a record: formatRecord(std::pair{"a", 1}) is "(a,1)".
template <typename T>
std::string formatRecord(const T& value) {
  std::string out;
  RecordFormatter<T>::append(value, out);
  return out;
}

template <>
struct RecordFormatter<std::string> {
  static void append(const std::string& value, std::string& out) { out.append(value); }
};
template <>
struct RecordFormatter<std::string_view> {
  static void append(std::string_view value, std::string& out) { out.append(value); }
};
template <>
struct RecordFormatter<const char*> {
  static void append(const char* value, std::string& out) { out.append(value ? value : "null"); }
};
template <size_t N>
struct RecordFormatter<char[N]> {
  static void append(const char (&value)[N], std::string& out) { out.append(value); }
};
template <>
struct RecordFormatter<char> {
  static void append(char value, std::string& out) { out.push_back(value); }
};
template <>
struct RecordFormatter<bool> {
  static void append(bool value, std::string& out) { out.append(value ? "true" : "false"); }
};
template <typename T>
struct RecordFormatter<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                           !std::is_same_v<T, char>>> {
  static void append(T value, std::string& out) {
    if constexpr (sizeof(T) == 1) {
      out.append(std::to_string(static_cast<int>(value)));
    } else {
      out.append(std::to_string(value));
    }
  }
};
template <>
struct RecordFormatter<double> {
  static void append(double value, std::string& out) { appendDouble(value, out); }
};
template <>
struct RecordFormatter<float> {
  static void append(float value, std::string& out) { appendFloat(value, out); }
};

// Types with a Java-compatible toString().
template <typename T>
struct RecordFormatter<
    T, std::enable_if_t<std::is_same_v<T, Decimal> || std::is_same_v<T, LocalDate> ||
                        std::is_same_v<T, LocalTime> || std::is_same_v<T, LocalDateTime> ||
                        std::is_same_v<T, Instant> || std::is_same_v<T, Period> ||
                        std::is_same_v<T, Duration>>> {
  static void append(const T& value, std::string& out) { out.append(value.toString()); }
};
template <>
struct RecordFormatter<Row> {
  static void append(const Row& value, std::string& out) { value.appendTo(out); }
};
template <>
struct RecordFormatter<Value> {
  static void append(const Value& value, std::string& out) { value.appendTo(out); }
};

template <typename A, typename B>
struct RecordFormatter<std::pair<A, B>> {
  static void append(const std::pair<A, B>& value, std::string& out) {
    out.push_back('(');
    RecordFormatter<A>::append(value.first, out);
    out.push_back(',');
    RecordFormatter<B>::append(value.second, out);
    out.push_back(')');
  }
};
template <typename... Fields>
struct RecordFormatter<std::tuple<Fields...>> {
  static void append(const std::tuple<Fields...>& value, std::string& out) {
    out.push_back('(');
    std::apply(
        [&out](const auto&... field) {
          bool first = true;
          ((out.append(first ? "" : ","), first = false,
            RecordFormatter<std::decay_t<decltype(field)>>::append(field, out)),
           ...);
        },
        value);
    out.push_back(')');
  }
};
template <typename T>
struct RecordFormatter<std::vector<T>> {
  static void append(const std::vector<T>& value, std::string& out) {
    out.push_back('[');
    for (size_t i = 0; i < value.size(); ++i) {
      if (i > 0) out.append(", ");
      RecordFormatter<T>::append(value[i], out);
    }
    out.push_back(']');
  }
};
template <typename T>
struct RecordFormatter<std::optional<T>> {
  static void append(const std::optional<T>& value, std::string& out) {
    if (value) {
      RecordFormatter<T>::append(*value, out);
    } else {
      out.append("null");
    }
  }
};

}  // namespace eddy
