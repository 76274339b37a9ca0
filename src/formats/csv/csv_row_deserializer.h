// CsvRowDeserializer: reads CSV records (RFC 4180 with the csv format's options) into rows.
//
// A record is a line; a line break inside a quoted field belongs to the field, so a record may
// span lines. Fields are split at the field delimiter outside quotes; a quote character opens
// a quoted field only at the start of a field, and a doubled quote inside stands for one; the
// escape character (when set) takes the next character literally (\n \r \t \0 as control
// characters). A trailing delimiter after the last column is ignored (Jackson's
// allow-trailing-comma). Blank lines, and with 'csv.allow-comments' lines starting with '#',
// give no row; in a table of one column a blank line is a row with an empty field.
//
// Nulls: an unquoted field equal to 'csv.null-literal' is null. An empty unquoted field is
// null, except that it is the empty string for CHAR/VARCHAR columns when a null literal is
// set; a quoted empty field is the empty string (or an empty ARRAY). ARRAY and ROW fields are
// split at the array element delimiter, each element read like a field.
//
// Malformed records (a value that does not parse, a wrong number of fields, an unterminated
// quote, text after a closing quote, null in a NOT NULL column) throw ConnectorException
// naming the row, source, column and value. With 'csv.ignore-parse-errors' a bad value becomes
// null (as in Flink), missing fields are null and extra fields dropped, and records that still
// cannot give a row (bad quoting, null in a NOT NULL column) are skipped; both are counted.
//
// One instance per subtask; its task thread only.
#pragma once

#include <optional>

#include <string>
#include <vector>

#include "formats/csv/csv_format_factory.h"
#include "formats/format_factory.h"
#include "vector/vector.h"

namespace eddy::formats {

class CsvRowDeserializer final : public RowDeserializer {
 public:
  CsvRowDeserializer(LogicalTypePtr rowType, CsvFormatOptions options);
  /// Appends only the columns `projection` of `rowType` (see
  /// DecodingFormat::createProjectedDeserializer).
  CsvRowDeserializer(LogicalTypePtr rowType, CsvFormatOptions options,
                     std::vector<int> projection);

  size_t recordLength(std::string_view bytes, bool endOfInput) const override;
  bool deserialize(std::string_view record, const RecordLocation& location,
                   vector::Chunk& rows) override;

 private:
  struct Field {
    size_t begin;  // into fieldText_
    size_t end;
    bool quoted;
  };
  // Why a value could not be read (empty: it could).
  struct ValueError {
    std::string what;
    bool nullInNotNull = false;
  };

  // Splits `record` into fields_; returns a description of the quoting error, or "".
  std::string splitFields(std::string_view record);
  // Appends the value of `field` to column `column`; on error the column is unchanged.
  ValueError appendField(int column, const Field& field);
  ValueError appendNested(int column, std::string_view text);
  std::string describeColumn(int column) const;
  [[noreturn]] void fail(const RecordLocation& location, const std::string& what) const;

  LogicalTypePtr rowType_;
  CsvFormatOptions options_;
  std::optional<std::vector<int>> projection_;  // the columns appended (unset: all)
  std::vector<Field> fields_;
  std::string fieldText_;  // unescaped text of all fields of the current record
  // By column of rowType_: the column of the chunk being appended to that it is decoded into.
  std::vector<vector::Vector*> currentColumns_;
  // Per column: vectors of the element types of ARRAY / ROW columns (scratch space that
  // turns element text into Values).
  std::vector<std::vector<vector::Vector>> elementScratch_;
};

}  // namespace eddy::formats
