// Field aggregations of KeyedStream (sum, min, max): combine one field of the running
// aggregate with the same field of the next record; every other field keeps the value of
// the key's first record, as Flink's SumAggregator and ComparableAggregator do.
//
// FieldAggregator<T> is specialized for numbers (the record is the field, position 0),
// std::pair / std::tuple (by position) and Row (by position or by field name).
#pragma once

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "eddy/exceptions.h"
#include "eddy/row.h"

namespace eddy::datastream_detail {

enum class FieldAggregation { SUM, MIN, MAX };

/// A field by position, or by name (Row only).
struct FieldReference {
  int position = 0;
  std::string name;  // empty: by position

  std::string describe() const {
    return name.empty() ? "position " + std::to_string(position) : "'" + name + "'";
  }
};

template <typename V>
V aggregateValue(const V& accumulated, const V& next, FieldAggregation aggregation) {
  switch (aggregation) {
    case FieldAggregation::SUM:
      return static_cast<V>(accumulated + next);
    case FieldAggregation::MIN:
      return next < accumulated ? next : accumulated;
    case FieldAggregation::MAX:
      return accumulated < next ? next : accumulated;
  }
  return accumulated;
}

/// Combines two values of a Row field: both of the same numeric kind (TINYINT..DOUBLE,
/// DECIMAL); a null side yields the other side. Throws ValidationException naming the field
/// otherwise.
Value aggregateFieldValues(const Value& accumulated, const Value& next,
                           FieldAggregation aggregation, const FieldReference& field);

template <typename T>
struct FieldAggregator {
  static void check(const FieldReference& field) {
    if constexpr (std::is_arithmetic_v<T>) {
      if (!field.name.empty() || field.position != 0) {
        throw ValidationException("Aggregation field " + field.describe() +
                                  " is out of range: a stream of numbers has only position 0");
      }
    } else {
      throw ValidationException(
          "Field aggregations (sum/min/max) need a number, std::pair, std::tuple or Row record");
    }
  }
  static T apply(const T& accumulated, const T& next, const FieldReference&,
                 FieldAggregation aggregation) {
    if constexpr (std::is_arithmetic_v<T>) {
      return aggregateValue(accumulated, next, aggregation);
    } else {
      return accumulated;
    }
  }
};

template <typename... Fields>
struct FieldAggregator<std::tuple<Fields...>> {
  using T = std::tuple<Fields...>;
  static void check(const FieldReference& field) {
    if (!field.name.empty()) {
      throw ValidationException("Aggregation field " + field.describe() +
                                ": tuple fields are addressed by position");
    }
    int position = field.position;
    if (position < 0 || position >= static_cast<int>(sizeof...(Fields))) {
      throw ValidationException("Aggregation field position " + std::to_string(position) +
                                " is out of range for a tuple of arity " +
                                std::to_string(sizeof...(Fields)));
    }
    bool numeric = false;
    int index = 0;
    ((index++ == position ? (numeric = std::is_arithmetic_v<Fields>, void()) : void()), ...);
    if (!numeric) {
      throw ValidationException("Aggregation field position " + std::to_string(position) +
                                " is not a number");
    }
  }
  static T apply(const T& accumulated, const T& next, const FieldReference& field,
                 FieldAggregation aggregation) {
    T result = accumulated;
    applyAt(result, next, field.position, aggregation, std::index_sequence_for<Fields...>{});
    return result;
  }

 private:
  template <size_t... I>
  static void applyAt(T& result, const T& next, int position, FieldAggregation aggregation,
                      std::index_sequence<I...>) {
    (applyOne<I>(result, next, position, aggregation), ...);
  }
  template <size_t I>
  static void applyOne(T& result, const T& next, int position, FieldAggregation aggregation) {
    using Field = std::tuple_element_t<I, T>;
    if constexpr (std::is_arithmetic_v<Field>) {
      if (static_cast<int>(I) == position) {
        std::get<I>(result) = aggregateValue(std::get<I>(result), std::get<I>(next), aggregation);
      }
    }
  }
};

template <typename A, typename B>
struct FieldAggregator<std::pair<A, B>> {
  using T = std::pair<A, B>;
  using Tuple = std::tuple<A, B>;
  static void check(const FieldReference& field) { FieldAggregator<Tuple>::check(field); }
  static T apply(const T& accumulated, const T& next, const FieldReference& field,
                 FieldAggregation aggregation) {
    Tuple result = FieldAggregator<Tuple>::apply(Tuple(accumulated.first, accumulated.second),
                                                 Tuple(next.first, next.second), field,
                                                 aggregation);
    return T(std::get<0>(result), std::get<1>(result));
  }
};

/// Row fields are checked per record (a Row's arity and field kinds are known only then).
template <>
struct FieldAggregator<Row> {
  static void check(const FieldReference& field) {
    if (field.name.empty() && field.position < 0) {
      throw ValidationException("Aggregation field position " + std::to_string(field.position) +
                                " is out of range");
    }
  }
  static Row apply(const Row& accumulated, const Row& next, const FieldReference& field,
                   FieldAggregation aggregation) {
    Row result = accumulated;
    if (field.name.empty()) {
      result.setField(field.position,
                      aggregateFieldValues(accumulated.getField(field.position),
                                           next.getField(field.position), aggregation, field));
    } else {
      result.setField(field.name, aggregateFieldValues(accumulated.getField(field.name),
                                                       next.getField(field.name), aggregation,
                                                       field));
    }
    return result;
  }
};

}  // namespace eddy::datastream_detail
