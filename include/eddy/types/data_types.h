// DataType and DataTypes: the Table API's way to declare column types, as Flink's
// org.apache.flink.table.api.DataTypes. A DataType wraps an immutable LogicalType (eddy has no
// JVM conversion classes, so a DataType is just its logical type plus the builder methods);
// DataTypes holds Flink's factory functions, so `DataTypes::DECIMAL(12, 2).notNull()` reads
// as in Java. All functions are thread-safe; invalid parameters throw ValidationException.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/types/logical_type.h"

namespace eddy {

/// A column or value type of the Table API (Flink's DataType).
class DataType {
 public:
  /// Wraps a logical type; `type` must not be null.
  explicit DataType(LogicalTypePtr type);

  const LogicalTypePtr& getLogicalType() const { return type_; }
  /// The same type, not nullable: `INT NOT NULL`.
  DataType notNull() const { return DataType(type_->copy(false)); }
  /// The same type, nullable.
  DataType nullable() const { return DataType(type_->copy(true)); }
  /// Child data types (element, key/value, fields).
  std::vector<DataType> getChildren() const;
  /// The summary string of the logical type, e.g. `DECIMAL(12, 2) NOT NULL`.
  std::string toString() const { return type_->asSummaryString(); }

  bool operator==(const DataType& other) const { return *type_ == *other.type_; }
  bool operator!=(const DataType& other) const { return !(*this == other); }

 private:
  LogicalTypePtr type_;
};

/// Flink's DataTypes factory functions. Names follow Flink exactly (hence upper case).
struct DataTypes {
  /// A field of a ROW or an attribute of a STRUCTURED type; built with FIELD().
  struct Field {
    std::string name;
    DataType type;
    std::optional<std::string> description;
  };

  /// A unit of an interval with its precision; built with YEAR(), MONTH(), DAY(), ...
  struct Resolution {
    enum class Unit { YEAR, MONTH, DAY, HOUR, MINUTE, SECOND };
    Unit unit;
    int precision;  // year or day precision, or fractional precision for SECOND; -1 if none
  };

  static DataType BOOLEAN();
  static DataType TINYINT();
  static DataType SMALLINT();
  static DataType INT();
  static DataType BIGINT();
  static DataType FLOAT();
  static DataType DOUBLE();
  static DataType DECIMAL(int precision, int scale);
  static DataType CHAR(int length);
  static DataType VARCHAR(int length);
  /// VARCHAR(2147483647), printed STRING.
  static DataType STRING();
  static DataType BINARY(int length);
  static DataType VARBINARY(int length);
  /// VARBINARY(2147483647), printed BYTES.
  static DataType BYTES();
  static DataType DATE();
  static DataType TIME(int precision = 0);
  static DataType TIMESTAMP(int precision = 6);
  static DataType TIMESTAMP_LTZ(int precision = 6);
  static DataType TIMESTAMP_WITH_LOCAL_TIME_ZONE(int precision = 6) {
    return TIMESTAMP_LTZ(precision);
  }
  /// INTERVAL with one unit: INTERVAL(DAY()), INTERVAL(SECOND(3)), INTERVAL(MONTH()).
  static DataType INTERVAL(Resolution resolution);
  /// INTERVAL from..to: INTERVAL(DAY(2), SECOND(3)), INTERVAL(YEAR(), MONTH()).
  static DataType INTERVAL(Resolution upper, Resolution lower);
  static Resolution YEAR(int precision = LogicalType::kDefaultYearPrecision) {
    return {Resolution::Unit::YEAR, precision};
  }
  static Resolution MONTH() { return {Resolution::Unit::MONTH, -1}; }
  static Resolution DAY(int precision = LogicalType::kDefaultDayPrecision) {
    return {Resolution::Unit::DAY, precision};
  }
  static Resolution HOUR() { return {Resolution::Unit::HOUR, -1}; }
  static Resolution MINUTE() { return {Resolution::Unit::MINUTE, -1}; }
  static Resolution SECOND(int precision = LogicalType::kDefaultFractionalPrecision) {
    return {Resolution::Unit::SECOND, precision};
  }
  static DataType ARRAY(const DataType& elementType);
  static DataType MULTISET(const DataType& elementType);
  static DataType MAP(const DataType& keyType, const DataType& valueType);
  static DataType ROW(const std::vector<Field>& fields = {});
  static Field FIELD(std::string name, DataType type);
  static Field FIELD(std::string name, DataType type, std::string description);
  /// A structured type of a named class: printed `*User<`name` STRING,`score` INT>*`.
  static DataType STRUCTURED(std::string className, const std::vector<Field>& attributes);
  static DataType RAW(std::string className, std::string serializerSnapshot);
  /// Flink's DataTypes.NULL(); renamed because NULL is a C macro in C++.
  static DataType NULL_TYPE();
  /// Parses a type string (see parseLogicalType).
  static DataType of(std::string_view typeString);
  /// The structured type of a struct registered with EDDY_STRUCT (Flink's
  /// DataTypes.of(User.class)); defined in eddy/table/struct_type.h.
  template <typename T>
  static DataType of();
};

}  // namespace eddy
