// LogicalType: the SQL type of a value in the Table API and SQL, with Flink's names, parameters
// and printed forms (org.apache.flink.table.types.logical.*). A logical type says what a value
// means (DECIMAL(12, 2), TIMESTAMP(3) *ROWTIME*), not how it is stored; the physical layout is
// chosen by the columnar vectors (src/vector) and the value classes (eddy/types/value.h).
//
// One class covers every type root (instead of Flink's class per root): the root selects which
// parameters are meaningful. Types are immutable and shared as LogicalTypePtr, so any thread
// may read them. Construct them with the static factories below (which validate parameters and
// throw ValidationException), with DataTypes (eddy/types/data_types.h), or with
// parseLogicalType().
//
// Printing: asSummaryString() prints as Flink's LogicalType.asSummaryString() (what
// printSchema and error messages show); asSerializableString() differs only where the summary
// elides information (a RAW type's serializer snapshot and field descriptions are printed as
// '...' in the summary). parseLogicalType(asSerializableString(t)) == t for every type, and
// parseLogicalType(asSummaryString(t)) == t for every type without RAW snapshot or description.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eddy {

/// The root of a logical type, with Flink's LogicalTypeRoot names.
enum class LogicalTypeRoot : int8_t {
  CHAR,
  VARCHAR,
  BOOLEAN,
  BINARY,
  VARBINARY,
  DECIMAL,
  TINYINT,
  SMALLINT,
  INTEGER,
  BIGINT,
  FLOAT,
  DOUBLE,
  DATE,
  TIME_WITHOUT_TIME_ZONE,
  TIMESTAMP_WITHOUT_TIME_ZONE,
  TIMESTAMP_WITH_LOCAL_TIME_ZONE,
  INTERVAL_YEAR_MONTH,
  INTERVAL_DAY_TIME,
  ARRAY,
  MULTISET,
  MAP,
  ROW,
  STRUCTURED_TYPE,
  RAW,
  /// Flink's LogicalTypeRoot.NULL; named NULL_TYPE because NULL is a C macro in C++.
  NULL_TYPE,
};

/// The time attribute a timestamp carries (Flink's TimestampKind). Printed after the type as
/// `*ROWTIME*` or `*PROCTIME*`; REGULAR prints nothing.
enum class TimestampKind : int8_t { REGULAR, ROWTIME, PROCTIME };

/// The resolution of a year-month interval (Flink's YearMonthResolution).
enum class YearMonthResolution : int8_t { YEAR, YEAR_TO_MONTH, MONTH };

/// The resolution of a day-time interval (Flink's DayTimeResolution).
enum class DayTimeResolution : int8_t {
  DAY,
  DAY_TO_HOUR,
  DAY_TO_MINUTE,
  DAY_TO_SECOND,
  HOUR,
  HOUR_TO_MINUTE,
  HOUR_TO_SECOND,
  MINUTE,
  MINUTE_TO_SECOND,
  SECOND,
};

class LogicalType;
/// Logical types are immutable and shared.
using LogicalTypePtr = std::shared_ptr<const LogicalType>;

/// A field of a ROW type or an attribute of a STRUCTURED type.
struct RowField {
  std::string name;
  LogicalTypePtr type;
  std::optional<std::string> description;

  bool operator==(const RowField& other) const;
};

/// A logical type. See the file comment.
class LogicalType {
 public:
  // Limits, as in Flink.
  static constexpr int kMaxDecimalPrecision = 38;
  static constexpr int kDefaultDecimalPrecision = 10;
  static constexpr int kMaxLength = 2147483647;  // VARCHAR(kMaxLength) is STRING
  static constexpr int kMaxTimePrecision = 9;
  static constexpr int kDefaultTimestampPrecision = 6;
  static constexpr int kDefaultDayPrecision = 2;
  static constexpr int kDefaultYearPrecision = 2;
  static constexpr int kDefaultFractionalPrecision = 6;

  // --- Factories. Each validates its parameters and throws ValidationException. ---

  /// A type without parameters: BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE,
  /// DATE or NULL_TYPE.
  static LogicalTypePtr simple(LogicalTypeRoot root, bool nullable = true);
  static LogicalTypePtr decimal(int precision, int scale, bool nullable = true);
  static LogicalTypePtr charType(int length, bool nullable = true);
  static LogicalTypePtr varchar(int length, bool nullable = true);
  static LogicalTypePtr binary(int length, bool nullable = true);
  static LogicalTypePtr varbinary(int length, bool nullable = true);
  static LogicalTypePtr time(int precision, bool nullable = true);
  static LogicalTypePtr timestamp(int precision, TimestampKind kind = TimestampKind::REGULAR,
                                  bool nullable = true);
  /// TIMESTAMP_LTZ(p), i.e. TIMESTAMP(p) WITH LOCAL TIME ZONE.
  static LogicalTypePtr localZonedTimestamp(int precision,
                                            TimestampKind kind = TimestampKind::REGULAR,
                                            bool nullable = true);
  static LogicalTypePtr yearMonthInterval(YearMonthResolution resolution,
                                          int yearPrecision = kDefaultYearPrecision,
                                          bool nullable = true);
  static LogicalTypePtr dayTimeInterval(DayTimeResolution resolution,
                                        int dayPrecision = kDefaultDayPrecision,
                                        int fractionalPrecision = kDefaultFractionalPrecision,
                                        bool nullable = true);
  static LogicalTypePtr array(LogicalTypePtr elementType, bool nullable = true);
  static LogicalTypePtr multiset(LogicalTypePtr elementType, bool nullable = true);
  static LogicalTypePtr map(LogicalTypePtr keyType, LogicalTypePtr valueType, bool nullable = true);
  /// ROW<...>. Field names must be unique and non-empty.
  static LogicalTypePtr row(std::vector<RowField> fields, bool nullable = true);
  /// A structured type identified by its class name, printed `*ClassName<...>*`.
  static LogicalTypePtr structured(std::string className, std::vector<RowField> attributes,
                                   bool nullable = true);
  /// RAW('className', 'serializerSnapshot'): an opaque value eddy cannot look into.
  static LogicalTypePtr raw(std::string className, std::string serializerSnapshot,
                            bool nullable = true);
  static LogicalTypePtr nullType() { return simple(LogicalTypeRoot::NULL_TYPE); }

  // --- Accessors. ---

  LogicalTypeRoot getTypeRoot() const { return root_; }
  bool isNullable() const { return nullable_; }
  /// The same type with the given nullability (NULL_TYPE is always nullable).
  LogicalTypePtr copy(bool nullable) const;
  /// The same timestamp type with another time attribute; only for TIMESTAMP/TIMESTAMP_LTZ.
  LogicalTypePtr copyWithTimestampKind(TimestampKind kind) const;

  /// Flink's summary string, e.g. `DECIMAL(12, 2) NOT NULL`, `ROW<`a` INT>`.
  std::string asSummaryString() const;
  /// Like the summary, but with RAW snapshots and field descriptions in full.
  std::string asSerializableString() const;
  std::string toString() const { return asSummaryString(); }

  /// Element type of ARRAY/MULTISET, key and value of MAP, field types of ROW/STRUCTURED.
  const std::vector<LogicalTypePtr>& getChildren() const { return children_; }
  /// Fields of ROW, attributes of STRUCTURED; empty otherwise.
  const std::vector<RowField>& getFields() const { return fields_; }
  std::vector<std::string> getFieldNames() const;
  int getFieldCount() const { return static_cast<int>(fields_.size()); }
  /// The position of the field called `name`, or -1.
  int getFieldIndex(std::string_view name) const;

  /// DECIMAL precision, TIME/TIMESTAMP precision, or an interval's fractional precision.
  int getPrecision() const { return precision_; }
  /// DECIMAL scale.
  int getScale() const { return scale_; }
  /// CHAR/VARCHAR/BINARY/VARBINARY length.
  int getLength() const { return precision_; }
  /// Year precision of YEAR intervals, day precision of DAY intervals.
  int getLeadingPrecision() const { return scale_; }
  /// Fractional-second precision of day-time intervals ending in SECOND.
  int getFractionalPrecision() const { return precision_; }
  TimestampKind getTimestampKind() const { return timestampKind_; }
  YearMonthResolution getYearMonthResolution() const;
  DayTimeResolution getDayTimeResolution() const;
  const LogicalTypePtr& getElementType() const;  // ARRAY, MULTISET
  const LogicalTypePtr& getKeyType() const;      // MAP
  const LogicalTypePtr& getValueType() const;    // MAP
  /// STRUCTURED class name or RAW class name.
  const std::string& getClassName() const { return className_; }
  /// RAW serializer snapshot.
  const std::string& getSerializerSnapshot() const { return serializerSnapshot_; }

  /// True for CHAR, VARCHAR; isBinaryString for BINARY, VARBINARY.
  bool isCharacterString() const;
  bool isBinaryString() const;

  /// Structural equality, nullability and time attribute included.
  bool operator==(const LogicalType& other) const;
  bool operator!=(const LogicalType& other) const { return !(*this == other); }

  // Constructed only by the factories above (make_shared needs a public constructor).
  class ConstructionKey {
    explicit ConstructionKey() = default;
    friend class LogicalType;
  };
  LogicalType(ConstructionKey, LogicalTypeRoot root, bool nullable);

 private:
  void print(std::string& out, bool serializable) const;

  LogicalTypeRoot root_;
  bool nullable_;
  TimestampKind timestampKind_ = TimestampKind::REGULAR;
  int8_t resolution_ = 0;  // YearMonthResolution or DayTimeResolution
  int precision_ = 0;      // see the accessors
  int scale_ = 0;          // see the accessors
  std::vector<LogicalTypePtr> children_;
  std::vector<RowField> fields_;
  std::string className_;
  std::string serializerSnapshot_;
};

/// Deep equality of two (non-null) type pointers.
bool equalTypes(const LogicalTypePtr& left, const LogicalTypePtr& right);

/// Parses a type string as Flink's LogicalTypeParser does (generously: `INTEGER`, `DEC`,
/// `NUMERIC`, `CHARACTER VARYING`, `TIMESTAMP(3) WITH LOCAL TIME ZONE`, `ROW(a INT)`, ...;
/// keywords are case-insensitive). Throws ValidationException naming the 1-based column:
/// `Could not parse type 'ARRAY<FOO>' at column 7: unknown type 'FOO'`.
LogicalTypePtr parseLogicalType(std::string_view text);

/// Escapes an identifier for printing: `name` with backticks doubled inside.
std::string escapeIdentifier(std::string_view name);

}  // namespace eddy
