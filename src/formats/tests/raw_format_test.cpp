// The raw format: a record is the bytes of the single column — text in its charset, bytes as
// they are, numbers in their endianness — in files one per line and in messages whole; the
// size message of a number and the column and option messages are Flink's.
#include <gtest/gtest.h>

#include "eddy/row.h"
#include "formats/raw/raw_format_factory.h"
#include "formats/tests/format_test_support.h"

namespace eddy::formats {
namespace {

using testing::decodeRows;
using testing::encode;
using testing::errorMessage;
using testing::formatContext;
using testing::rowType;
using testing::type;

FormatContext raw(std::string columnType, std::map<std::string, std::string> options = {}) {
  return formatContext("raw", rowType({{"v", type(columnType)}}), std::move(options));
}

/// The rows one whole message (a Kafka record's value) gives; nullopt: a message without value.
std::vector<std::string> decodeMessage(const FormatContext& context,
                                       std::optional<std::string> message) {
  auto deserializer = RawFormatFactory().createDecodingFormat(context)->createDeserializer();
  vector::Chunk rows(context.physicalRowType);
  const RecordLocation location{"Kafka topic 't' partition 0", 7, /*wholeMessage=*/true};
  if (message) {
    deserializer->deserialize(*message, location, rows);
  } else {
    deserializer->deserializeNull(location, rows);
  }
  std::vector<std::string> printed;
  for (const Row& row : vector::chunkToRows(rows)) printed.push_back(row.toString());
  return printed;
}

TEST(RawFormatTest, TextIsALinesOrAMessagesBytes) {
  EXPECT_EQ(decodeRows(raw("STRING"), "first line\nsecond, with \"quotes\"\r\n\n"),
            (std::vector<std::string>{"+I[first line]", "+I[second, with \"quotes\"]", "+I[]"}));
  // A message is taken whole, its line terminator included; no value is NULL (Flink's).
  EXPECT_EQ(decodeMessage(raw("STRING"), std::string("a\nb\n")),
            std::vector<std::string>{"+I[a\nb\n]"});
  EXPECT_EQ(decodeMessage(raw("STRING"), std::nullopt), std::vector<std::string>{"+I[null]"});
  EXPECT_EQ(encode(raw("STRING"), {Row::of(std::string("héllo")), Row::of(Value())}), "héllo\n\n");
  // ISO-8859-1: é is one byte; a character it has not is written '?', as Java does.
  auto latin = raw("STRING", {{"raw.charset", "ISO-8859-1"}});
  EXPECT_EQ(decodeMessage(latin, std::string("caf\xe9")), std::vector<std::string>{"+I[café]"});
  EXPECT_EQ(encode(latin, {Row::of(std::string("café €"))}), "caf\xe9 ?\n");
  EXPECT_EQ(decodeMessage(raw("BYTES"), std::string("\x01\n\xff", 3)).size(), 1u);
}

TEST(RawFormatTest, NumbersAreTheirBytesInTheEndianness) {
  EXPECT_EQ(encode(raw("INT"), {Row::of(int32_t{10})}), std::string("\0\0\0\x0a\n", 5));
  EXPECT_EQ(encode(raw("INT", {{"raw.endianness", "little-endian"}}), {Row::of(int32_t{10})}),
            std::string("\x0a\0\0\0\n", 5));
  // A message ending in byte 0x0A keeps it.
  EXPECT_EQ(decodeMessage(raw("INT"), std::string("\0\0\0\x0a", 4)),
            std::vector<std::string>{"+I[10]"});
  EXPECT_EQ(decodeMessage(raw("BIGINT", {{"raw.endianness", "LITTLE-ENDIAN"}}),
                          std::string("\x01\x02\0\0\0\0\0\0", 8)),
            std::vector<std::string>{"+I[513]"});
  EXPECT_EQ(decodeMessage(raw("DOUBLE"), std::string("\x3f\xf8\0\0\0\0\0\0", 8)),
            std::vector<std::string>{"+I[1.5]"});
  EXPECT_EQ(decodeMessage(raw("BOOLEAN"), std::string("\x02", 1)),
            std::vector<std::string>{"+I[true]"});
  EXPECT_EQ(decodeMessage(raw("SMALLINT"), std::string("\xff\xfe", 2)),
            std::vector<std::string>{"+I[-2]"});
  EXPECT_EQ(errorMessage([] { decodeMessage(raw("INT"), std::string("abc")); }),
            "Failed to deserialize raw row 7 of Kafka topic 't' partition 0: Size of data received "
            "for deserializing INT type is not 4.");
}

TEST(RawFormatTest, ColumnAndOptionMessagesAreFlinks) {
  auto validate = [](const FormatContext& context) {
    return errorMessage([&] { RawFormatFactory().validate(context); });
  };
  EXPECT_EQ(validate(formatContext("raw", rowType({{"a", type("INT")}, {"b", type("STRING")}}))),
            "The 'raw' format only supports single physical column. However the defined schema "
            "contains multiple physical columns: [`a` INT, `b` STRING]");
  EXPECT_EQ(validate(raw("DATE")), "The 'raw' format doesn't supports 'DATE' as column type.");
  EXPECT_EQ(validate(raw("INT", {{"raw.endianness", "middle"}})),
            "Unsupported endianness name: middle. Valid values of 'raw.endianness' option are "
            "'big-endian' and 'little-endian'.");
  EXPECT_EQ(validate(raw("STRING", {{"raw.charset", "UTF-16"}})),
            "Unsupported 'raw.charset' name: UTF-16. (eddy reads and writes UTF-8 and "
            "ISO-8859-1.)");
}

}  // namespace
}  // namespace eddy::formats
