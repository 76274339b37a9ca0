// JsonRowSerializer: writes a row as one compact JSON object (Flink's JSON format, Jackson's
// output): {"id":1,"name":"Alice","score":null}, members in column order. Numbers as JSON
// numbers (FLOAT/DOUBLE as Java prints them; NaN and Infinity as the strings "NaN",
// "Infinity"); DECIMAL as BigDecimal.toString (2.7E-8), or plain with
// 'json.encode.decimal-as-plain-number'; strings escaped as Jackson does (\" \\ \b \t \n \f \r,
// other control characters as \u00XX, everything else as is); BINARY as base64; DATE, TIME,
// TIMESTAMP and TIMESTAMP_LTZ as strings in the 'json.timestamp-format.standard' form; ARRAY as
// an array, ROW as an object, MAP as an object (null keys per 'json.map-null-key.mode'),
// MULTISET as an object of element to count. Null columns are null, or left out with
// 'json.encode.ignore-null-fields'.
//
// One instance per subtask; its task thread only.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "formats/format_factory.h"
#include "formats/json/json_format_factory.h"
#include "formats/text_value_codec.h"
#include "vector/vector.h"

namespace eddy::formats {


class JsonRowSerializer final : public RowSerializer {
 public:
  JsonRowSerializer(LogicalTypePtr rowType, JsonFormatOptions options);

  void serialize(const vector::Chunk& chunk, int64_t row, std::string& out) override;

 private:
  // Appends the non-null value `index` of a column of a non-nested type.
  void appendScalar(const vector::Vector& column, int64_t index, std::string& out);
  // Appends a Value of `type` (nested columns and their elements).
  void appendValue(const Value& value, const LogicalTypePtr& type, std::string& out);
  vector::Vector& scratchFor(const LogicalTypePtr& type);

  LogicalTypePtr rowType_;
  JsonFormatOptions options_;
  TextWriteOptions textOptions_;
  std::vector<std::string> memberPrefixes_;  // per column: "name": (escaped)
  std::unordered_map<const LogicalType*, vector::Vector> scratch_;
  std::string text_;  // reused buffer
};

}  // namespace eddy::formats
