// LogicalType: factories with Flink's parameter validation, printing as Flink's
// asSummaryString(), and structural equality. The parser is in logical_type_parser.cpp.
#include "eddy/types/logical_type.h"

#include <fmt/format.h>

#include <set>

#include "eddy/exceptions.h"

namespace eddy {
namespace {

void checkRange(int value, int minimum, int maximum, std::string_view what) {
  if (value < minimum || value > maximum) {
    throw ValidationException(
        fmt::format("{} must be between {} and {} (both inclusive), but was {}.", what, minimum,
                    maximum, value));
  }
}

constexpr int kMaxYearPrecision = 4;
constexpr int kMaxDayPrecision = 6;

void checkFields(const std::vector<RowField>& fields) {
  std::set<std::string_view> seen;
  std::vector<std::string_view> duplicates;
  for (const RowField& field : fields) {
    if (field.name.find_first_not_of(" \t\r\n") == std::string::npos) {
      throw ValidationException("Field names must contain at least one non-whitespace character.");
    }
    if (field.type == nullptr) {
      throw ValidationException(fmt::format("Field '{}' has no type.", field.name));
    }
    if (!seen.insert(field.name).second) duplicates.push_back(field.name);
  }
  if (!duplicates.empty()) {
    throw ValidationException(fmt::format("Field names must be unique. Found duplicates: [{}]",
                                          fmt::join(duplicates, ", ")));
  }
}

void appendQuoted(std::string_view text, std::string& out) {
  out.push_back('\'');
  for (char c : text) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  out.push_back('\'');
}

}  // namespace

bool RowField::operator==(const RowField& other) const {
  return name == other.name && description == other.description && equalTypes(type, other.type);
}

bool equalTypes(const LogicalTypePtr& left, const LogicalTypePtr& right) {
  if (left == right) return true;
  if (left == nullptr || right == nullptr) return false;
  return *left == *right;
}

std::string escapeIdentifier(std::string_view name) {
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out.push_back('`');
    out.push_back(c);
  }
  out.push_back('`');
  return out;
}

LogicalType::LogicalType(ConstructionKey, LogicalTypeRoot root, bool nullable)
    : root_(root), nullable_(nullable) {}

LogicalTypePtr LogicalType::simple(LogicalTypeRoot root, bool nullable) {
  switch (root) {
    case LogicalTypeRoot::BOOLEAN:
    case LogicalTypeRoot::TINYINT:
    case LogicalTypeRoot::SMALLINT:
    case LogicalTypeRoot::INTEGER:
    case LogicalTypeRoot::BIGINT:
    case LogicalTypeRoot::FLOAT:
    case LogicalTypeRoot::DOUBLE:
    case LogicalTypeRoot::DATE:
      return std::make_shared<const LogicalType>(ConstructionKey{}, root, nullable);
    case LogicalTypeRoot::NULL_TYPE:
      return std::make_shared<const LogicalType>(ConstructionKey{}, root, true);
    default:
      throw InternalError("LogicalType::simple called for a type root that has parameters");
  }
}

LogicalTypePtr LogicalType::decimal(int precision, int scale, bool nullable) {
  checkRange(precision, 1, kMaxDecimalPrecision, "DECIMAL precision");
  checkRange(scale, 0, precision, "DECIMAL scale");
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::DECIMAL, nullable);
  type->precision_ = precision;
  type->scale_ = scale;
  return type;
}

LogicalTypePtr LogicalType::charType(int length, bool nullable) {
  checkRange(length, 1, kMaxLength, "CHAR length");
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::CHAR, nullable);
  type->precision_ = length;
  return type;
}

LogicalTypePtr LogicalType::varchar(int length, bool nullable) {
  checkRange(length, 1, kMaxLength, "VARCHAR length");
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::VARCHAR, nullable);
  type->precision_ = length;
  return type;
}

LogicalTypePtr LogicalType::binary(int length, bool nullable) {
  checkRange(length, 1, kMaxLength, "BINARY length");
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::BINARY, nullable);
  type->precision_ = length;
  return type;
}

LogicalTypePtr LogicalType::varbinary(int length, bool nullable) {
  checkRange(length, 1, kMaxLength, "VARBINARY length");
  auto type =
      std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::VARBINARY, nullable);
  type->precision_ = length;
  return type;
}

LogicalTypePtr LogicalType::time(int precision, bool nullable) {
  checkRange(precision, 0, kMaxTimePrecision, "TIME precision");
  auto type = std::make_shared<LogicalType>(ConstructionKey{},
                                            LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE, nullable);
  type->precision_ = precision;
  return type;
}

LogicalTypePtr LogicalType::timestamp(int precision, TimestampKind kind, bool nullable) {
  checkRange(precision, 0, kMaxTimePrecision, "TIMESTAMP precision");
  auto type = std::make_shared<LogicalType>(ConstructionKey{},
                                            LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE, nullable);
  type->precision_ = precision;
  type->timestampKind_ = kind;
  return type;
}

LogicalTypePtr LogicalType::localZonedTimestamp(int precision, TimestampKind kind, bool nullable) {
  checkRange(precision, 0, kMaxTimePrecision, "TIMESTAMP_LTZ precision");
  auto type = std::make_shared<LogicalType>(
      ConstructionKey{}, LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE, nullable);
  type->precision_ = precision;
  type->timestampKind_ = kind;
  return type;
}

LogicalTypePtr LogicalType::yearMonthInterval(YearMonthResolution resolution, int yearPrecision,
                                              bool nullable) {
  checkRange(yearPrecision, 1, kMaxYearPrecision, "Year precision of year-month intervals");
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::INTERVAL_YEAR_MONTH,
                                            nullable);
  type->resolution_ = static_cast<int8_t>(resolution);
  type->scale_ = yearPrecision;
  return type;
}

LogicalTypePtr LogicalType::dayTimeInterval(DayTimeResolution resolution, int dayPrecision,
                                            int fractionalPrecision, bool nullable) {
  checkRange(dayPrecision, 1, kMaxDayPrecision, "Day precision of day-time intervals");
  checkRange(fractionalPrecision, 0, kMaxTimePrecision,
             "Fractional precision of day-time intervals");
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::INTERVAL_DAY_TIME,
                                            nullable);
  type->resolution_ = static_cast<int8_t>(resolution);
  type->scale_ = dayPrecision;
  type->precision_ = fractionalPrecision;
  return type;
}

LogicalTypePtr LogicalType::array(LogicalTypePtr elementType, bool nullable) {
  if (elementType == nullptr) throw ValidationException("ARRAY needs an element type.");
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::ARRAY, nullable);
  type->children_.push_back(std::move(elementType));
  return type;
}

LogicalTypePtr LogicalType::multiset(LogicalTypePtr elementType, bool nullable) {
  if (elementType == nullptr) throw ValidationException("MULTISET needs an element type.");
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::MULTISET, nullable);
  type->children_.push_back(std::move(elementType));
  return type;
}

LogicalTypePtr LogicalType::map(LogicalTypePtr keyType, LogicalTypePtr valueType, bool nullable) {
  if (keyType == nullptr || valueType == nullptr) {
    throw ValidationException("MAP needs a key type and a value type.");
  }
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::MAP, nullable);
  type->children_.push_back(std::move(keyType));
  type->children_.push_back(std::move(valueType));
  return type;
}

LogicalTypePtr LogicalType::row(std::vector<RowField> fields, bool nullable) {
  checkFields(fields);
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::ROW, nullable);
  for (const RowField& field : fields) type->children_.push_back(field.type);
  type->fields_ = std::move(fields);
  return type;
}

LogicalTypePtr LogicalType::structured(std::string className, std::vector<RowField> attributes,
                                       bool nullable) {
  if (className.empty()) throw ValidationException("A structured type needs a class name.");
  checkFields(attributes);
  auto type =
      std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::STRUCTURED_TYPE, nullable);
  for (const RowField& field : attributes) type->children_.push_back(field.type);
  type->fields_ = std::move(attributes);
  type->className_ = std::move(className);
  return type;
}

LogicalTypePtr LogicalType::raw(std::string className, std::string serializerSnapshot,
                                bool nullable) {
  if (className.empty()) throw ValidationException("A RAW type needs a class name.");
  auto type = std::make_shared<LogicalType>(ConstructionKey{}, LogicalTypeRoot::RAW, nullable);
  type->className_ = std::move(className);
  type->serializerSnapshot_ = std::move(serializerSnapshot);
  return type;
}

LogicalTypePtr LogicalType::copy(bool nullable) const {
  auto type = std::make_shared<LogicalType>(*this);
  type->nullable_ = root_ == LogicalTypeRoot::NULL_TYPE ? true : nullable;
  return type;
}

LogicalTypePtr LogicalType::copyWithTimestampKind(TimestampKind kind) const {
  if (root_ != LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE &&
      root_ != LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
    throw ValidationException(
        fmt::format("A time attribute can only be set on TIMESTAMP or TIMESTAMP_LTZ, not on {}.",
                    asSummaryString()));
  }
  auto type = std::make_shared<LogicalType>(*this);
  type->timestampKind_ = kind;
  return type;
}

std::vector<std::string> LogicalType::getFieldNames() const {
  std::vector<std::string> names;
  names.reserve(fields_.size());
  for (const RowField& field : fields_) names.push_back(field.name);
  return names;
}

int LogicalType::getFieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

YearMonthResolution LogicalType::getYearMonthResolution() const {
  if (root_ != LogicalTypeRoot::INTERVAL_YEAR_MONTH) {
    throw InternalError("getYearMonthResolution on " + asSummaryString());
  }
  return static_cast<YearMonthResolution>(resolution_);
}

DayTimeResolution LogicalType::getDayTimeResolution() const {
  if (root_ != LogicalTypeRoot::INTERVAL_DAY_TIME) {
    throw InternalError("getDayTimeResolution on " + asSummaryString());
  }
  return static_cast<DayTimeResolution>(resolution_);
}

const LogicalTypePtr& LogicalType::getElementType() const {
  if (root_ != LogicalTypeRoot::ARRAY && root_ != LogicalTypeRoot::MULTISET) {
    throw InternalError("getElementType on " + asSummaryString());
  }
  return children_[0];
}

const LogicalTypePtr& LogicalType::getKeyType() const {
  if (root_ != LogicalTypeRoot::MAP) throw InternalError("getKeyType on " + asSummaryString());
  return children_[0];
}

const LogicalTypePtr& LogicalType::getValueType() const {
  if (root_ != LogicalTypeRoot::MAP) throw InternalError("getValueType on " + asSummaryString());
  return children_[1];
}

bool LogicalType::isCharacterString() const {
  return root_ == LogicalTypeRoot::CHAR || root_ == LogicalTypeRoot::VARCHAR;
}

bool LogicalType::isBinaryString() const {
  return root_ == LogicalTypeRoot::BINARY || root_ == LogicalTypeRoot::VARBINARY;
}

bool LogicalType::operator==(const LogicalType& other) const {
  if (root_ != other.root_ || nullable_ != other.nullable_ ||
      timestampKind_ != other.timestampKind_ || resolution_ != other.resolution_ ||
      precision_ != other.precision_ || scale_ != other.scale_ || className_ != other.className_ ||
      serializerSnapshot_ != other.serializerSnapshot_ ||
      children_.size() != other.children_.size() || !(fields_ == other.fields_)) {
    return false;
  }
  for (size_t i = 0; i < children_.size(); ++i) {
    if (!equalTypes(children_[i], other.children_[i])) return false;
  }
  return true;
}

std::string LogicalType::asSummaryString() const {
  std::string out;
  print(out, /*serializable=*/false);
  return out;
}

std::string LogicalType::asSerializableString() const {
  std::string out;
  print(out, /*serializable=*/true);
  return out;
}

void LogicalType::print(std::string& out, bool serializable) const {
  auto printFields = [&](std::string_view separator) {
    for (size_t i = 0; i < fields_.size(); ++i) {
      if (i > 0) out.append(separator);
      out.append(escapeIdentifier(fields_[i].name));
      out.push_back(' ');
      fields_[i].type->print(out, serializable);
      if (fields_[i].description) {
        out.push_back(' ');
        appendQuoted(serializable ? std::string_view(*fields_[i].description) : "...", out);
      }
    }
  };
  switch (root_) {
    case LogicalTypeRoot::CHAR:
      out.append(fmt::format("CHAR({})", precision_));
      break;
    case LogicalTypeRoot::VARCHAR:
      out.append(precision_ == kMaxLength ? "STRING" : fmt::format("VARCHAR({})", precision_));
      break;
    case LogicalTypeRoot::BOOLEAN:
      out.append("BOOLEAN");
      break;
    case LogicalTypeRoot::BINARY:
      out.append(fmt::format("BINARY({})", precision_));
      break;
    case LogicalTypeRoot::VARBINARY:
      out.append(precision_ == kMaxLength ? "BYTES" : fmt::format("VARBINARY({})", precision_));
      break;
    case LogicalTypeRoot::DECIMAL:
      out.append(fmt::format("DECIMAL({}, {})", precision_, scale_));
      break;
    case LogicalTypeRoot::TINYINT:
      out.append("TINYINT");
      break;
    case LogicalTypeRoot::SMALLINT:
      out.append("SMALLINT");
      break;
    case LogicalTypeRoot::INTEGER:
      out.append("INT");
      break;
    case LogicalTypeRoot::BIGINT:
      out.append("BIGINT");
      break;
    case LogicalTypeRoot::FLOAT:
      out.append("FLOAT");
      break;
    case LogicalTypeRoot::DOUBLE:
      out.append("DOUBLE");
      break;
    case LogicalTypeRoot::DATE:
      out.append("DATE");
      break;
    case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
      out.append(fmt::format("TIME({})", precision_));
      break;
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
      out.append(fmt::format("TIMESTAMP({})", precision_));
      break;
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      out.append(fmt::format("TIMESTAMP_LTZ({})", precision_));
      break;
    case LogicalTypeRoot::INTERVAL_YEAR_MONTH:
      switch (static_cast<YearMonthResolution>(resolution_)) {
        case YearMonthResolution::YEAR:
          out.append(fmt::format("INTERVAL YEAR({})", scale_));
          break;
        case YearMonthResolution::YEAR_TO_MONTH:
          out.append(fmt::format("INTERVAL YEAR({}) TO MONTH", scale_));
          break;
        case YearMonthResolution::MONTH:
          out.append("INTERVAL MONTH");
          break;
      }
      break;
    case LogicalTypeRoot::INTERVAL_DAY_TIME:
      switch (static_cast<DayTimeResolution>(resolution_)) {
        case DayTimeResolution::DAY:
          out.append(fmt::format("INTERVAL DAY({})", scale_));
          break;
        case DayTimeResolution::DAY_TO_HOUR:
          out.append(fmt::format("INTERVAL DAY({}) TO HOUR", scale_));
          break;
        case DayTimeResolution::DAY_TO_MINUTE:
          out.append(fmt::format("INTERVAL DAY({}) TO MINUTE", scale_));
          break;
        case DayTimeResolution::DAY_TO_SECOND:
          out.append(fmt::format("INTERVAL DAY({}) TO SECOND({})", scale_, precision_));
          break;
        case DayTimeResolution::HOUR:
          out.append("INTERVAL HOUR");
          break;
        case DayTimeResolution::HOUR_TO_MINUTE:
          out.append("INTERVAL HOUR TO MINUTE");
          break;
        case DayTimeResolution::HOUR_TO_SECOND:
          out.append(fmt::format("INTERVAL HOUR TO SECOND({})", precision_));
          break;
        case DayTimeResolution::MINUTE:
          out.append("INTERVAL MINUTE");
          break;
        case DayTimeResolution::MINUTE_TO_SECOND:
          out.append(fmt::format("INTERVAL MINUTE TO SECOND({})", precision_));
          break;
        case DayTimeResolution::SECOND:
          out.append(fmt::format("INTERVAL SECOND({})", precision_));
          break;
      }
      break;
    case LogicalTypeRoot::ARRAY:
    case LogicalTypeRoot::MULTISET:
      out.append(root_ == LogicalTypeRoot::ARRAY ? "ARRAY<" : "MULTISET<");
      children_[0]->print(out, serializable);
      out.push_back('>');
      break;
    case LogicalTypeRoot::MAP:
      out.append("MAP<");
      children_[0]->print(out, serializable);
      out.append(", ");
      children_[1]->print(out, serializable);
      out.push_back('>');
      break;
    case LogicalTypeRoot::ROW:
      out.append("ROW<");
      printFields(", ");
      out.push_back('>');
      break;
    case LogicalTypeRoot::STRUCTURED_TYPE:
      // As the Flink documentation prints it: *User<`name` STRING,`score` INT>*.
      out.push_back('*');
      out.append(className_);
      out.push_back('<');
      printFields(",");
      out.append(">*");
      break;
    case LogicalTypeRoot::RAW:
      out.append("RAW(");
      appendQuoted(className_, out);
      out.append(", ");
      appendQuoted(serializable ? std::string_view(serializerSnapshot_) : "...", out);
      out.push_back(')');
      break;
    case LogicalTypeRoot::NULL_TYPE:
      out.append("NULL");
      break;
  }
  if (!nullable_) out.append(" NOT NULL");
  if (timestampKind_ == TimestampKind::ROWTIME) out.append(" *ROWTIME*");
  if (timestampKind_ == TimestampKind::PROCTIME) out.append(" *PROCTIME*");
}

}  // namespace eddy
