// TypeInformation: the type of a DataStream's records, as Flink's TypeInformation and its
// `Types` constants. It decides how a stream becomes a table (fromDataStream derives columns
// from it: an atomic type gives one column `f0`, a ROW gives its named fields, a TUPLE gives
// f0, f1, ...) and toDataType() maps it to the Table API type as Flink's
// TypeInfoDataTypeConverter does (LONG → BIGINT, BIG_DEC → DECIMAL(38, 18),
// LOCAL_DATE_TIME → TIMESTAMP(9), INSTANT → TIMESTAMP_LTZ(9), GENERIC → RAW).
//
// TypeInfoOf<T> gives the default TypeInformation of a C++ record type: what Flink's type
// extraction gives for the corresponding Java class; a type eddy cannot look into becomes
// GENERIC with its demangled C++ name (so a struct User prints RAW('User', '...') as a column).
// TypeInformation is an immutable value; share it freely between threads.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "eddy/row.h"
#include "eddy/types/data_types.h"
#include "eddy/types/decimal.h"
#include "eddy/types/temporal.h"

namespace eddy {

/// The type of DataStream records (Flink's TypeInformation). Build it with Types.
class TypeInformation {
 public:
  enum class Kind : int8_t {
    STRING,
    BOOLEAN,
    BYTE,
    SHORT,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    BIG_DEC,
    LOCAL_DATE,
    LOCAL_TIME,
    LOCAL_DATE_TIME,
    INSTANT,
    ROW,      ///< named fields (or unknown fields: a Row whose schema is not declared)
    TUPLE,    ///< fields f0, f1, ...
    GENERIC,  ///< an opaque class; maps to RAW
    LIST,     ///< one element type
    MAP,      ///< key and value types
  };

  /// An atomic type (STRING ... INSTANT); prefer the Types constants.
  static constexpr TypeInformation basic(Kind kind) { return TypeInformation(kind); }

  Kind getKind() const { return kind_; }
  /// Field count for ROW/TUPLE (0 for a ROW with unknown fields), 1 for other types.
  int getArity() const;
  /// Field names of ROW/TUPLE; empty otherwise.
  const std::vector<std::string>& getFieldNames() const { return fieldNames_; }
  /// Field types of ROW/TUPLE, element of LIST, key and value of MAP.
  const std::vector<TypeInformation>& getFieldTypes() const { return children_; }
  /// False for a ROW whose fields are not declared (TypeInfoOf<Row>).
  bool hasKnownFields() const { return knownFields_; }
  /// The class name of GENERIC.
  const std::string& getClassName() const { return className_; }
  bool isTupleType() const { return kind_ == Kind::TUPLE; }
  bool isBasicType() const { return kind_ <= Kind::INSTANT; }

  /// As Flink: `String`, `Integer`, `Row(name: String, score: Integer)`,
  /// `Java Tuple2<String, Integer>`, `GenericType<User>`, `List<Long>`, `Map<String, Long>`.
  std::string toString() const;
  /// The Table API type (see the file comment).
  DataType toDataType() const;

  bool operator==(const TypeInformation& other) const;
  bool operator!=(const TypeInformation& other) const { return !(*this == other); }

 private:
  friend struct Types;
  constexpr explicit TypeInformation(Kind kind) : kind_(kind) {}

  Kind kind_;
  bool knownFields_ = true;
  std::vector<std::string> fieldNames_;
  std::vector<TypeInformation> children_;
  std::string className_;
};

/// Flink's Types: constants for atomic types and factories for composite ones.
struct Types {
  static inline const TypeInformation STRING =
      TypeInformation::basic(TypeInformation::Kind::STRING);
  static inline const TypeInformation BOOLEAN =
      TypeInformation::basic(TypeInformation::Kind::BOOLEAN);
  static inline const TypeInformation BYTE = TypeInformation::basic(TypeInformation::Kind::BYTE);
  static inline const TypeInformation SHORT = TypeInformation::basic(TypeInformation::Kind::SHORT);
  static inline const TypeInformation INT = TypeInformation::basic(TypeInformation::Kind::INT);
  static inline const TypeInformation LONG = TypeInformation::basic(TypeInformation::Kind::LONG);
  static inline const TypeInformation FLOAT = TypeInformation::basic(TypeInformation::Kind::FLOAT);
  static inline const TypeInformation DOUBLE =
      TypeInformation::basic(TypeInformation::Kind::DOUBLE);
  static inline const TypeInformation BIG_DEC =
      TypeInformation::basic(TypeInformation::Kind::BIG_DEC);
  static inline const TypeInformation LOCAL_DATE =
      TypeInformation::basic(TypeInformation::Kind::LOCAL_DATE);
  static inline const TypeInformation LOCAL_TIME =
      TypeInformation::basic(TypeInformation::Kind::LOCAL_TIME);
  static inline const TypeInformation LOCAL_DATE_TIME =
      TypeInformation::basic(TypeInformation::Kind::LOCAL_DATE_TIME);
  static inline const TypeInformation INSTANT =
      TypeInformation::basic(TypeInformation::Kind::INSTANT);

  /// A ROW with fields f0, f1, ... of the given types.
  static TypeInformation ROW(std::vector<TypeInformation> types);
  /// A ROW with named fields. Throws ValidationException if the counts differ or names repeat.
  static TypeInformation ROW_NAMED(std::vector<std::string> names,
                                   std::vector<TypeInformation> types);
  /// A ROW whose fields are not declared (what TypeInfoOf<Row> gives).
  static TypeInformation ROW_UNKNOWN();
  /// A TUPLE (Flink's Tuple1..Tuple25) of the given field types.
  static TypeInformation TUPLE(std::vector<TypeInformation> types);
  /// An opaque type; printed GenericType<className>, mapped to RAW('className', ...).
  static TypeInformation GENERIC(std::string className);
  static TypeInformation LIST(TypeInformation elementType);
  static TypeInformation MAP(TypeInformation keyType, TypeInformation valueType);
};

namespace types {
/// The readable C++ name of a type (abi::__cxa_demangle), e.g. "User", "ns::Order".
std::string demangledTypeName(const std::type_info& type);
}  // namespace types

/// The default TypeInformation of a C++ record type; specialize it for your own types.
template <typename T, typename Enable = void>
struct TypeInfoOf {
  static TypeInformation get() { return Types::GENERIC(types::demangledTypeName(typeid(T))); }
};

template <>
struct TypeInfoOf<std::string> {
  static TypeInformation get() { return Types::STRING; }
};
template <>
struct TypeInfoOf<bool> {
  static TypeInformation get() { return Types::BOOLEAN; }
};
template <typename T>
struct TypeInfoOf<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static TypeInformation get() {
    if constexpr (sizeof(T) == 1)
      return Types::BYTE;
    else if constexpr (sizeof(T) == 2)
      return Types::SHORT;
    else if constexpr (sizeof(T) == 4)
      return Types::INT;
    else
      return Types::LONG;
  }
};
template <>
struct TypeInfoOf<float> {
  static TypeInformation get() { return Types::FLOAT; }
};
template <>
struct TypeInfoOf<double> {
  static TypeInformation get() { return Types::DOUBLE; }
};
template <>
struct TypeInfoOf<Decimal> {
  static TypeInformation get() { return Types::BIG_DEC; }
};
template <>
struct TypeInfoOf<LocalDate> {
  static TypeInformation get() { return Types::LOCAL_DATE; }
};
template <>
struct TypeInfoOf<LocalTime> {
  static TypeInformation get() { return Types::LOCAL_TIME; }
};
template <>
struct TypeInfoOf<LocalDateTime> {
  static TypeInformation get() { return Types::LOCAL_DATE_TIME; }
};
template <>
struct TypeInfoOf<Instant> {
  static TypeInformation get() { return Types::INSTANT; }
};
template <>
struct TypeInfoOf<Row> {
  static TypeInformation get() { return Types::ROW_UNKNOWN(); }
};
template <typename A, typename B>
struct TypeInfoOf<std::pair<A, B>> {
  static TypeInformation get() {
    return Types::TUPLE({TypeInfoOf<A>::get(), TypeInfoOf<B>::get()});
  }
};
template <typename... Fields>
struct TypeInfoOf<std::tuple<Fields...>> {
  static TypeInformation get() { return Types::TUPLE({TypeInfoOf<Fields>::get()...}); }
};
template <typename T>
struct TypeInfoOf<std::vector<T>> {
  static TypeInformation get() { return Types::LIST(TypeInfoOf<T>::get()); }
};
template <typename K, typename V>
struct TypeInfoOf<std::map<K, V>> {
  static TypeInformation get() { return Types::MAP(TypeInfoOf<K>::get(), TypeInfoOf<V>::get()); }
};

}  // namespace eddy
