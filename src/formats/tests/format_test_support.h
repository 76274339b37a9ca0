// Helpers shared by the format tests: building a format's context from options, decoding a text
// into rows the way the filesystem source does (records split by the deserializer), and
// encoding rows into a text of one record per line.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "eddy/exceptions.h"
#include "eddy/row.h"
#include "formats/format_factory.h"
#include "vector/chunk.h"

namespace eddy::formats::testing {

inline LogicalTypePtr rowType(std::vector<std::pair<std::string, LogicalTypePtr>> fields) {
  std::vector<RowField> rowFields;
  for (auto& [name, type] : fields) rowFields.push_back(RowField{name, type, std::nullopt});
  return LogicalType::row(std::move(rowFields));
}

inline LogicalTypePtr type(std::string_view text) { return parseLogicalType(text); }

inline FormatContext formatContext(const std::string& format, LogicalTypePtr physicalRowType,
                                   std::map<std::string, std::string> options = {}) {
  return FormatContext{"t", std::move(physicalRowType), std::move(options), format + "."};
}

/// The rows decoded from `text` and what the deserializer counted.
struct Decoded {
  std::vector<std::string> rows;  // Row::toString of each row
  std::vector<Row> values;
  int64_t malformed = 0;
  int64_t skipped = 0;
};

/// Decodes `text` (the content of a file called 'f') with `format`'s deserializer.
inline Decoded decode(const FormatContext& context, std::string_view text) {
  const FormatFactory& factory = FormatFactoryRegistry::builtIn().factoryFor(
      context.optionPrefix.substr(0, context.optionPrefix.size() - 1));
  std::unique_ptr<RowDeserializer> deserializer =
      factory.createDecodingFormat(context)->createDeserializer();
  vector::Chunk chunk(context.physicalRowType);
  int64_t line = 1;
  while (!text.empty()) {
    size_t length = deserializer->recordLength(text, true);
    EXPECT_GT(length, 0u);
    if (length == 0) break;
    std::string_view record = text.substr(0, length);
    deserializer->deserialize(record, RecordLocation{"file 'f'", line, false}, chunk);
    for (char c : record) line += c == '\n' ? 1 : 0;
    text.remove_prefix(length);
  }
  Decoded decoded;
  decoded.values = vector::chunkToRows(chunk);
  for (const Row& row : decoded.values) decoded.rows.push_back(row.toString());
  decoded.malformed = deserializer->malformedRecordCount();
  decoded.skipped = deserializer->skippedRecordCount();
  return decoded;
}

/// The rows of `text` as Row::toString lines.
inline std::vector<std::string> decodeRows(const FormatContext& context, std::string_view text) {
  return decode(context, text).rows;
}

/// The message of the exception `action` throws ("" when none).
template <typename Action>
std::string errorMessage(Action action) {
  try {
    action();
  } catch (const EddyException& error) {
    return error.what();
  }
  return "";
}

/// `rows` encoded with `format`'s serializer, each record followed by '\n'.
inline std::string encode(const FormatContext& context, const std::vector<Row>& rows) {
  const FormatFactory& factory = FormatFactoryRegistry::builtIn().factoryFor(
      context.optionPrefix.substr(0, context.optionPrefix.size() - 1));
  std::unique_ptr<RowSerializer> serializer =
      factory.createEncodingFormat(context)->createSerializer();
  vector::Chunk chunk = vector::rowsToChunk(rows, context.physicalRowType);
  std::string out;
  for (int64_t row = 0; row < chunk.size(); ++row) {
    serializer->serialize(chunk, row, out);
    out.push_back('\n');
  }
  return out;
}

}  // namespace eddy::formats::testing
