// CsvRowSerializer: writes rows as CSV records the way Flink's csv format (Jackson's
// CsvGenerator) does: the columns in order, separated by the field delimiter; numbers and
// booleans as they are; text (strings, base64 bytes, dates, times, timestamps, arrays, rows) in
// quotes when it is empty, starts with '#', or holds a character below '-' (space, quote,
// comma, line breaks, ...), the delimiter, the quote or the escape character; quotes doubled
// inside. Null is the null literal, or nothing. ARRAY and ROW values are their elements joined
// by the array element delimiter. DECIMAL is written with trailing zeros stripped (as Jackson's
// node factory does), in scientific notation where BigDecimal.toString uses it unless
// 'csv.write-bigdecimal-in-scientific-notation' is false.
//
// Differences from Flink, for lossless round trips: an empty string is written as "" (Flink
// writes nothing, which reads back as null), and a string equal to the null literal is quoted.
// Without quoting ('csv.disable-quote-character'), the escape character (when set) escapes
// delimiters, escape characters and line breaks (\n, \r); with neither, text is written as it is.
//
// One instance per subtask; its task thread only.
#pragma once

#include <string>
#include <vector>

#include "formats/csv/csv_format_factory.h"
#include "formats/format_factory.h"
#include "formats/text_value_codec.h"
#include "vector/vector.h"

namespace eddy::formats {

class CsvRowSerializer final : public RowSerializer {
 public:
  CsvRowSerializer(LogicalTypePtr rowType, CsvFormatOptions options);

  void serialize(const vector::Chunk& chunk, int64_t row, std::string& out) override;

 private:
  // Appends `text` as a field, quoted or escaped as needed; `isText` false for numbers and
  // booleans, which are only quoted when they contain a delimiter or quote.
  void appendField(std::string_view text, bool isText, std::string& out) const;
  // Appends the elements of an ARRAY / ROW value joined by the array element delimiter.
  void appendNested(int column, const Value& value, std::string& out);

  LogicalTypePtr rowType_;
  CsvFormatOptions options_;
  TextWriteOptions textOptions_;
  std::vector<bool> isText_;  // per column
  // Per column: vectors of the element types of ARRAY / ROW columns (scratch space that turns
  // element Values into text).
  std::vector<std::vector<vector::Vector>> elementScratch_;
  std::string text_;  // reused buffer of one field's text
};

}  // namespace eddy::formats
