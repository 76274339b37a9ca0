// EDDY_STRUCT: registers the fields of a C++ struct so that the Table API sees them, as
// Flink's type extraction sees the public fields of a POJO. After
//
//   struct User { std::string name; int32_t score; eddy::Instant event_time; };
//   EDDY_STRUCT(User, name, score, event_time)
//
// (at namespace scope, outside any namespace, with the type's qualified name)
// StreamTableEnvironment::fromDataStream(DataStream<User>) derives the columns `name` STRING,
// `score` INT, `event_time` TIMESTAMP_LTZ(9) in declaration order, and
// DataTypes::of<User>() is the structured type *User<`name` STRING,`score` INT,...>*.
// Field types map as TypeInfoOf does: std::string → STRING, int32_t → INT, int64_t → BIGINT,
// double → DOUBLE, eddy::Instant → TIMESTAMP_LTZ(9), eddy::LocalDateTime → TIMESTAMP(9),
// eddy::Decimal → DECIMAL(38, 18). A struct not registered is a RAW type (one column `f0`).
// Up to 16 fields.
#pragma once

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "eddy/row.h"
#include "eddy/types/data_types.h"
#include "eddy/types/type_information.h"

namespace eddy {

/// Specialized by EDDY_STRUCT; the primary template marks a type as not registered.
template <typename T>
struct StructFields {
  static constexpr bool registered = false;
};

namespace table_detail {

template <typename T, typename = void>
struct IsRegisteredStruct : std::false_type {};
template <typename T>
struct IsRegisteredStruct<T, std::enable_if_t<StructFields<T>::registered>> : std::true_type {};

template <typename T>
struct IsTuple : std::false_type {};
template <typename... Fields>
struct IsTuple<std::tuple<Fields...>> : std::true_type {};

/// One registered field: its name and member pointer.
template <typename S, typename M>
struct StructField {
  const char* name;
  M S::*member;
  using Type = M;
};
template <typename S, typename M>
constexpr StructField<S, M> structField(const char* name, M S::*member) {
  return StructField<S, M>{name, member};
}

/// The TypeInformation of a registered struct: a ROW of its fields by name.
template <typename T>
TypeInformation structTypeInformation() {
  std::vector<std::string> names;
  std::vector<TypeInformation> types;
  std::apply(
      [&](const auto&... fields) {
        (names.emplace_back(fields.name), ...);
        (types.push_back(TypeInfoOf<typename std::decay_t<decltype(fields)>::Type>::get()), ...);
      },
      StructFields<T>::fields());
  return Types::ROW_NAMED(std::move(names), std::move(types));
}

/// DataTypes::of<T>(): the structured type of a registered struct.
template <typename T>
DataType structDataType() {
  std::vector<DataTypes::Field> attributes;
  std::apply(
      [&](const auto&... fields) {
        (attributes.push_back(DataTypes::FIELD(
             fields.name,
             TypeInfoOf<typename std::decay_t<decltype(fields)>::Type>::get().toDataType())),
         ...);
      },
      StructFields<T>::fields());
  return DataTypes::STRUCTURED(StructFields<T>::className(), attributes);
}

template <typename T>
Row structToRow(const T& record) {
  return std::apply([&](const auto&... fields) { return Row::of(Value(record.*(fields.member))...); },
                    StructFields<T>::fields());
}

/// A registered struct from a Row with its field names (toDataStream<T>): each member from
/// the field of its name; a null field leaves the member default-initialized.
template <typename T>
T structFromRow(const Row& row) {
  T record{};
  std::apply(
      [&](const auto&... fields) {
        auto assign = [&](const auto& field) {
          using M = typename std::decay_t<decltype(field)>::Type;
          const Value& value = row.getField(std::string_view(field.name));
          if (!value.isNull()) record.*(field.member) = row.template getFieldAs<M>(std::string_view(field.name));
        };
        (assign(fields), ...);
      },
      StructFields<T>::fields());
  return record;
}

/// The field names of a registered struct.
template <typename T>
std::vector<std::string> structFieldNames() {
  std::vector<std::string> names;
  std::apply([&](const auto&... fields) { (names.emplace_back(fields.name), ...); },
             StructFields<T>::fields());
  return names;
}

}  // namespace table_detail

template <typename T>
DataType DataTypes::of() {
  static_assert(table_detail::IsRegisteredStruct<T>::value,
                "register the struct's fields with EDDY_STRUCT(Type, field, ...)");
  return table_detail::structDataType<T>();
}

}  // namespace eddy

// --- The macro (a fixed-arity FOR_EACH over the field names). ---
#define EDDY_STRUCT_FIELD_(Type, field) ::eddy::table_detail::structField(#field, &Type::field)
#define EDDY_STRUCT_EACH_1_(T, a) EDDY_STRUCT_FIELD_(T, a)
#define EDDY_STRUCT_EACH_2_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_1_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_3_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_2_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_4_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_3_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_5_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_4_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_6_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_5_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_7_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_6_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_8_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_7_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_9_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_8_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_10_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_9_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_11_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_10_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_12_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_11_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_13_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_12_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_14_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_13_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_15_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_14_(T, __VA_ARGS__)
#define EDDY_STRUCT_EACH_16_(T, a, ...) EDDY_STRUCT_FIELD_(T, a), EDDY_STRUCT_EACH_15_(T, __VA_ARGS__)
#define EDDY_STRUCT_PICK_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, \
                          NAME, ...)                                                         \
  NAME
#define EDDY_STRUCT_FIELDS_(T, ...)                                                            \
  EDDY_STRUCT_PICK_(__VA_ARGS__, EDDY_STRUCT_EACH_16_, EDDY_STRUCT_EACH_15_,                   \
                    EDDY_STRUCT_EACH_14_, EDDY_STRUCT_EACH_13_, EDDY_STRUCT_EACH_12_,          \
                    EDDY_STRUCT_EACH_11_, EDDY_STRUCT_EACH_10_, EDDY_STRUCT_EACH_9_,           \
                    EDDY_STRUCT_EACH_8_, EDDY_STRUCT_EACH_7_, EDDY_STRUCT_EACH_6_,             \
                    EDDY_STRUCT_EACH_5_, EDDY_STRUCT_EACH_4_, EDDY_STRUCT_EACH_3_,             \
                    EDDY_STRUCT_EACH_2_, EDDY_STRUCT_EACH_1_)                                  \
  (T, __VA_ARGS__)

/// Registers the fields of struct `Type` (see the file comment).
#define EDDY_STRUCT(Type, ...)                                                      \
  template <>                                                                       \
  struct eddy::StructFields<Type> {                                                 \
    static constexpr bool registered = true;                                        \
    static std::string className() { return #Type; }                                \
    static auto fields() { return std::make_tuple(EDDY_STRUCT_FIELDS_(Type, __VA_ARGS__)); } \
    static ::eddy::Row toRow(const Type& record) {                                  \
      return ::eddy::table_detail::structToRow(record);                             \
    }                                                                               \
  };                                                                                \
  template <>                                                                       \
  struct eddy::TypeInfoOf<Type> {                                                   \
    static ::eddy::TypeInformation get() {                                          \
      return ::eddy::table_detail::structTypeInformation<Type>();                   \
    }                                                                               \
  };
