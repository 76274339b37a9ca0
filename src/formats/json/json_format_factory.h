// JsonFormatFactory: the 'json' format (Flink's JSON format): one JSON object per line, a
// member per physical column (matched by exact name, in any order; unknown members are
// ignored). Options (Flink's names and defaults, prefixed 'json.'):
//
//   fail-on-missing-field            false  a missing member fails the record (else null)
//   ignore-parse-errors              false  malformed members become null and records that
//                                           are not JSON objects are skipped (and counted)
//                                           instead of failing the job
//   timestamp-format.standard        SQL    'SQL': 2020-12-30 12:13:14.123, 'ISO-8601':
//                                           2020-12-30T12:13:14.123 (TIMESTAMP_LTZ with a Z)
//   map-null-key.mode                FAIL   writing a MAP with a null key: FAIL, DROP the
//                                           entry, or LITERAL (write map-null-key.literal)
//   map-null-key.literal             null   the key written for null in LITERAL mode
//   encode.decimal-as-plain-number   false  DECIMAL as 0.000000027 instead of 2.7E-8
//   encode.ignore-null-fields        false  leave null columns out of written objects
//   decode.json-parser.enabled       true   accepted; eddy has one parser (simdjson)
//
// Column types: every scalar type of text_value_codec.h, and ARRAY, MAP and MULTISET (string
// keys) and ROW of supported types, nested freely. RAW, structured and NULL columns, and maps
// with non-string keys, are rejected naming the column. The factory is stateless; see
// format_factory.h for the threading contract.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "formats/format_factory.h"

namespace eddy::formats {

/// What 'json.map-null-key.mode' asks for.
enum class MapNullKeyMode { kFail, kDrop, kLiteral };

/// The parsed options of one json table.
struct JsonFormatOptions {
  bool failOnMissingField = false;
  bool ignoreParseErrors = false;
  /// 'json.timestamp-format.standard' = 'ISO-8601'.
  bool isoTimestamps = false;
  MapNullKeyMode mapNullKeyMode = MapNullKeyMode::kFail;
  std::string mapNullKeyLiteral = "null";
  bool encodeDecimalAsPlainNumber = false;
  bool encodeIgnoreNullFields = false;
};

/// Parses and checks the json options and column types of `context`'s table. Throws
/// ValidationException naming the key or the column.
JsonFormatOptions parseJsonFormatOptions(const FormatContext& context);

class JsonFormatFactory final : public FormatFactory {
 public:
  std::string factoryIdentifier() const override { return "json"; }
  std::set<std::string> optionalOptions() const override;
  void validate(const FormatContext& context) const override;
  std::shared_ptr<const DecodingFormat> createDecodingFormat(
      const FormatContext& context) const override;
  std::shared_ptr<const EncodingFormat> createEncodingFormat(
      const FormatContext& context) const override;
};

}  // namespace eddy::formats
