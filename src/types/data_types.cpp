// DataType and the DataTypes factory functions; each delegates to a LogicalType factory, which
// validates the parameters.
#include "eddy/types/data_types.h"

#include <fmt/format.h>

#include "eddy/exceptions.h"

namespace eddy {
namespace {

std::vector<RowField> toRowFields(const std::vector<DataTypes::Field>& fields) {
  std::vector<RowField> rowFields;
  rowFields.reserve(fields.size());
  for (const DataTypes::Field& field : fields) {
    rowFields.push_back({field.name, field.type.getLogicalType(), field.description});
  }
  return rowFields;
}

std::string_view unitName(DataTypes::Resolution::Unit unit) {
  using Unit = DataTypes::Resolution::Unit;
  switch (unit) {
    case Unit::YEAR:
      return "YEAR";
    case Unit::MONTH:
      return "MONTH";
    case Unit::DAY:
      return "DAY";
    case Unit::HOUR:
      return "HOUR";
    case Unit::MINUTE:
      return "MINUTE";
    case Unit::SECOND:
      return "SECOND";
  }
  return "?";
}

}  // namespace

DataType::DataType(LogicalTypePtr type) : type_(std::move(type)) {
  if (type_ == nullptr) throw InternalError("DataType needs a logical type");
}

std::vector<DataType> DataType::getChildren() const {
  std::vector<DataType> children;
  for (const LogicalTypePtr& child : type_->getChildren()) children.emplace_back(child);
  return children;
}

DataType DataTypes::BOOLEAN() { return DataType(LogicalType::simple(LogicalTypeRoot::BOOLEAN)); }
DataType DataTypes::TINYINT() { return DataType(LogicalType::simple(LogicalTypeRoot::TINYINT)); }
DataType DataTypes::SMALLINT() { return DataType(LogicalType::simple(LogicalTypeRoot::SMALLINT)); }
DataType DataTypes::INT() { return DataType(LogicalType::simple(LogicalTypeRoot::INTEGER)); }
DataType DataTypes::BIGINT() { return DataType(LogicalType::simple(LogicalTypeRoot::BIGINT)); }
DataType DataTypes::FLOAT() { return DataType(LogicalType::simple(LogicalTypeRoot::FLOAT)); }
DataType DataTypes::DOUBLE() { return DataType(LogicalType::simple(LogicalTypeRoot::DOUBLE)); }
DataType DataTypes::DECIMAL(int precision, int scale) {
  return DataType(LogicalType::decimal(precision, scale));
}
DataType DataTypes::CHAR(int length) { return DataType(LogicalType::charType(length)); }
DataType DataTypes::VARCHAR(int length) { return DataType(LogicalType::varchar(length)); }
DataType DataTypes::STRING() { return DataType(LogicalType::varchar(LogicalType::kMaxLength)); }
DataType DataTypes::BINARY(int length) { return DataType(LogicalType::binary(length)); }
DataType DataTypes::VARBINARY(int length) { return DataType(LogicalType::varbinary(length)); }
DataType DataTypes::BYTES() { return DataType(LogicalType::varbinary(LogicalType::kMaxLength)); }
DataType DataTypes::DATE() { return DataType(LogicalType::simple(LogicalTypeRoot::DATE)); }
DataType DataTypes::TIME(int precision) { return DataType(LogicalType::time(precision)); }
DataType DataTypes::TIMESTAMP(int precision) { return DataType(LogicalType::timestamp(precision)); }
DataType DataTypes::TIMESTAMP_LTZ(int precision) {
  return DataType(LogicalType::localZonedTimestamp(precision));
}

DataType DataTypes::INTERVAL(Resolution resolution) {
  using Unit = Resolution::Unit;
  switch (resolution.unit) {
    case Unit::YEAR:
      return DataType(
          LogicalType::yearMonthInterval(YearMonthResolution::YEAR, resolution.precision));
    case Unit::MONTH:
      return DataType(LogicalType::yearMonthInterval(YearMonthResolution::MONTH));
    case Unit::DAY:
      return DataType(LogicalType::dayTimeInterval(DayTimeResolution::DAY, resolution.precision));
    case Unit::HOUR:
      return DataType(LogicalType::dayTimeInterval(DayTimeResolution::HOUR));
    case Unit::MINUTE:
      return DataType(LogicalType::dayTimeInterval(DayTimeResolution::MINUTE));
    case Unit::SECOND:
      return DataType(LogicalType::dayTimeInterval(
          DayTimeResolution::SECOND, LogicalType::kDefaultDayPrecision, resolution.precision));
  }
  throw InternalError("unknown interval unit");
}

DataType DataTypes::INTERVAL(Resolution upper, Resolution lower) {
  using Unit = Resolution::Unit;
  constexpr int kDay = LogicalType::kDefaultDayPrecision;
  if (upper.unit == Unit::YEAR && lower.unit == Unit::MONTH) {
    return DataType(
        LogicalType::yearMonthInterval(YearMonthResolution::YEAR_TO_MONTH, upper.precision));
  }
  if (upper.unit == Unit::DAY && lower.unit == Unit::HOUR) {
    return DataType(LogicalType::dayTimeInterval(DayTimeResolution::DAY_TO_HOUR, upper.precision));
  }
  if (upper.unit == Unit::DAY && lower.unit == Unit::MINUTE) {
    return DataType(
        LogicalType::dayTimeInterval(DayTimeResolution::DAY_TO_MINUTE, upper.precision));
  }
  if (upper.unit == Unit::DAY && lower.unit == Unit::SECOND) {
    return DataType(LogicalType::dayTimeInterval(DayTimeResolution::DAY_TO_SECOND, upper.precision,
                                                 lower.precision));
  }
  if (upper.unit == Unit::HOUR && lower.unit == Unit::MINUTE) {
    return DataType(LogicalType::dayTimeInterval(DayTimeResolution::HOUR_TO_MINUTE));
  }
  if (upper.unit == Unit::HOUR && lower.unit == Unit::SECOND) {
    return DataType(
        LogicalType::dayTimeInterval(DayTimeResolution::HOUR_TO_SECOND, kDay, lower.precision));
  }
  if (upper.unit == Unit::MINUTE && lower.unit == Unit::SECOND) {
    return DataType(
        LogicalType::dayTimeInterval(DayTimeResolution::MINUTE_TO_SECOND, kDay, lower.precision));
  }
  throw ValidationException(fmt::format(
      "Unsupported interval definition '{} TO {}'. Supported are YEAR TO MONTH, DAY TO HOUR, "
      "DAY TO MINUTE, DAY TO SECOND, HOUR TO MINUTE, HOUR TO SECOND and MINUTE TO SECOND.",
      unitName(upper.unit), unitName(lower.unit)));
}

DataType DataTypes::ARRAY(const DataType& elementType) {
  return DataType(LogicalType::array(elementType.getLogicalType()));
}
DataType DataTypes::MULTISET(const DataType& elementType) {
  return DataType(LogicalType::multiset(elementType.getLogicalType()));
}
DataType DataTypes::MAP(const DataType& keyType, const DataType& valueType) {
  return DataType(LogicalType::map(keyType.getLogicalType(), valueType.getLogicalType()));
}
DataType DataTypes::ROW(const std::vector<Field>& fields) {
  return DataType(LogicalType::row(toRowFields(fields)));
}
DataTypes::Field DataTypes::FIELD(std::string name, DataType type) {
  return Field{std::move(name), std::move(type), std::nullopt};
}
DataTypes::Field DataTypes::FIELD(std::string name, DataType type, std::string description) {
  return Field{std::move(name), std::move(type), std::move(description)};
}
DataType DataTypes::STRUCTURED(std::string className, const std::vector<Field>& attributes) {
  return DataType(LogicalType::structured(std::move(className), toRowFields(attributes)));
}
DataType DataTypes::RAW(std::string className, std::string serializerSnapshot) {
  return DataType(LogicalType::raw(std::move(className), std::move(serializerSnapshot)));
}
DataType DataTypes::NULL_TYPE() { return DataType(LogicalType::nullType()); }
DataType DataTypes::of(std::string_view typeString) {
  return DataType(parseLogicalType(typeString));
}

}  // namespace eddy
