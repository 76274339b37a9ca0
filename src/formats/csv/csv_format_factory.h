// CsvFormatFactory: the 'csv' format (Flink's CSV format), RFC 4180 records of the table's
// physical columns in order, one record per line (quoted fields may hold line breaks).
// Options (Flink's names and defaults, prefixed 'csv.'):
//
//   field-delimiter          ,       one character; Java escapes allowed ('\t')
//   quote-character          "       encloses fields holding delimiters, quotes, line breaks
//   disable-quote-character  false   no quoting at all (then quote-character must be unset)
//   allow-comments           false   skip lines starting with '#'
//   ignore-parse-errors      false   malformed fields become null, malformed records are
//                                    skipped (and counted) instead of failing the job
//   array-element-delimiter  ;       separates the elements of ARRAY and ROW columns
//   escape-character         unset   escapes the next character (\n \r \t \0 are control
//                                    characters), in and out of quotes
//   null-literal             unset   the unquoted text that stands for null
//   write-bigdecimal-in-scientific-notation  true   DECIMAL as 1E+5 (true) or 100000 (false)
//
// Flink options not supported yet (rejected by name): see notSupportedYetOptions(). Column
// types: every scalar type of text_value_codec.h, ARRAY of a scalar type and ROW of scalar
// types (elements joined by the array element delimiter); MAP, MULTISET, nested ARRAY/ROW in
// ARRAY/ROW, RAW, structured and NULL columns are rejected naming the column. The factory is
// stateless; see format_factory.h for the threading contract.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "formats/format_factory.h"

namespace eddy::formats {

/// The parsed options of one csv table.
struct CsvFormatOptions {
  char fieldDelimiter = ',';
  /// nullopt when quoting is disabled.
  std::optional<char> quoteCharacter = '"';
  bool allowComments = false;
  bool ignoreParseErrors = false;
  char arrayElementDelimiter = ';';
  std::optional<char> escapeCharacter;
  std::optional<std::string> nullLiteral;
  bool writeBigDecimalInScientificNotation = true;
};

/// Parses and checks the csv options and column types of `context`'s table. Throws
/// ValidationException naming the key or the column.
CsvFormatOptions parseCsvFormatOptions(const FormatContext& context);

class CsvFormatFactory final : public FormatFactory {
 public:
  std::string factoryIdentifier() const override { return "csv"; }
  std::set<std::string> optionalOptions() const override;
  std::set<std::string> notSupportedYetOptions() const override;
  void validate(const FormatContext& context) const override;
  std::shared_ptr<const DecodingFormat> createDecodingFormat(
      const FormatContext& context) const override;
  std::shared_ptr<const EncodingFormat> createEncodingFormat(
      const FormatContext& context) const override;
};

}  // namespace eddy::formats
