// The json format: members matched by name (any order, unknown ignored, missing null or an
// error), escaped strings and unicode, nested ROW / ARRAY / MAP / MULTISET, every type written
// and read back in both timestamp standards, the exact messages of malformed records,
// ignore-parse-errors (nulls and counts), and the option and column-type validation messages.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "formats/json/json_format_factory.h"
#include "formats/json/json_row_serializer.h"
#include "formats/tests/format_test_support.h"

namespace eddy::formats {
namespace {

using testing::decode;
using testing::decodeRows;
using testing::encode;
using testing::errorMessage;
using testing::formatContext;
using testing::rowType;
using testing::type;

LogicalTypePtr scores() {
  return rowType({{"id", type("INT")}, {"name", type("STRING")}, {"score", type("DOUBLE")}});
}

FormatContext json(LogicalTypePtr rows, std::map<std::string, std::string> options = {}) {
  return formatContext("json", std::move(rows), std::move(options));
}

TEST(JsonFormatTest, MatchesMembersByName) {
  EXPECT_EQ(
      decodeRows(json(scores()),
                 "{\"id\":1,\"name\":\"Alice\",\"score\":1.5}\n"
                 "  {\"score\": 2, \"extra\": {\"a\": [1, 2]}, \"id\": 2}  \r\n"
                 "\n"
                 "{\"id\":\"3\",\"name\":null,\"score\":\"NaN\",\"id\":4}"),
      (std::vector<std::string>{"+I[1, Alice, 1.5]", "+I[2, null, 2.0]", "+I[3, null, NaN]"}));
}

TEST(JsonFormatTest, StringsEscapesAndUnicode) {
  auto context = json(rowType({{"s", type("STRING")}}));
  auto decoded = decode(context,
                        "{\"s\":\"tab\\there \\\"quoted\\\" back\\\\slash \\u00e9 \\ud83d\\ude00 "
                        "\xc3\xa9\"}\n"
                        "{\"s\":12.50}\n{\"s\":true}\n{\"s\":{\"a\": [1, 2]}}\n");
  ASSERT_EQ(decoded.values.size(), 4u);
  EXPECT_EQ(decoded.values[0].getField(0),
            Value("tab\there \"quoted\" back\\slash \xc3\xa9 \xf0\x9f\x98\x80 \xc3\xa9"));
  EXPECT_EQ(decoded.values[1].getField(0), Value("12.50"));  // the number's text
  EXPECT_EQ(decoded.values[2].getField(0), Value("true"));
  EXPECT_EQ(decoded.values[3].getField(0), Value("{\"a\": [1, 2]}"));
  // Written back escaped as Jackson escapes.
  EXPECT_EQ(encode(context, {Row::of("q\"b\\n\n\x01/\xc3\xa9")}),
            "{\"s\":\"q\\\"b\\\\n\\n\\u0001/\xc3\xa9\"}\n");
}

TEST(JsonFormatTest, MissingMembers) {
  EXPECT_EQ(decodeRows(json(scores()), "{\"id\":1}\n"),
            (std::vector<std::string>{"+I[1, null, null]"}));
  EXPECT_EQ(errorMessage([] {
              decode(json(scores(), {{"json.fail-on-missing-field", "true"}}), "{\"id\":1}\n");
            }),
            "Failed to deserialize JSON row 1 of file 'f': could not find field with name 'name' "
            "(column position 1)");
  EXPECT_EQ(errorMessage([] {
              decode(json(rowType({{"id", type("INT NOT NULL")}})), "{}\n");
            }),
            "Failed to deserialize JSON row 1 of file 'f': column 'id' (position 0) expects INT "
            "NOT NULL but the field is missing");
}

TEST(JsonFormatTest, MalformedRecordsNameRowColumnAndValue) {
  auto context = json(scores());
  EXPECT_EQ(errorMessage([&] { decode(context, "{\"id\":1}\n{\"id\":\"abc\"}\n"); }),
            "Failed to deserialize JSON row 2 of file 'f': column 'id' (position 0) expects INT "
            "but got \"abc\"");
  EXPECT_EQ(errorMessage([&] { decode(context, "{\"id\":1.5}\n"); }),
            "Failed to deserialize JSON row 1 of file 'f': column 'id' (position 0) expects INT "
            "but got 1.5");
  EXPECT_EQ(errorMessage([&] { decode(context, "{\"id\":[1]}\n"); }),
            "Failed to deserialize JSON row 1 of file 'f': column 'id' (position 0) expects INT "
            "but got [1]");
  EXPECT_EQ(errorMessage([&] { decode(context, "[1, 2]\n"); }),
            "Failed to deserialize JSON row 1 of file 'f': expected a JSON object but got an "
            "array: [1, 2]");
  EXPECT_EQ(errorMessage([&] { decode(context, "{\"id\":1,}\n"); }),
            "Failed to deserialize JSON row 1 of file 'f': invalid JSON (The JSON document has an "
            "improper structure: missing or superfluous commas, braces, missing keys, etc.): "
            "{\"id\":1,}");
  EXPECT_EQ(errorMessage([&] { decode(context, "{\"id\":1}{\"id\":2}\n"); }),
            "Failed to deserialize JSON row 1 of file 'f': invalid JSON (text after the object): "
            "{\"id\":1}{\"id\":2}");
  EXPECT_EQ(errorMessage([&] {
              decode(json(rowType({{"d", type("DECIMAL(3, 1)")}})), "{\"d\":1234}\n");
            }),
            "Failed to deserialize JSON row 1 of file 'f': column 'd' (position 0) expects "
            "DECIMAL(3, 1) but got 1234 (out of range)");
  EXPECT_EQ(errorMessage([&] {
              decode(json(rowType({{"id", type("INT NOT NULL")}})), "{\"id\":null}\n");
            }),
            "Failed to deserialize JSON row 1 of file 'f': column 'id' (position 0) expects INT "
            "NOT NULL but got null");
}

TEST(JsonFormatTest, IgnoreParseErrorsNullsBadMembersAndSkipsBadRecords) {
  auto context = json(rowType({{"id", type("INT NOT NULL")}, {"v", type("INT")}}),
                      {{"json.ignore-parse-errors", "true"}});
  auto decoded = decode(context,
                        "{\"id\":1,\"v\":\"x\"}\n"  // bad v: null
                        "{\"id\":\"x\",\"v\":2}\n"  // bad NOT NULL id: skipped
                        "not json\n"                // skipped
                        "[1]\n"                     // skipped
                        "{\"id\":5,\"v\":5}\n");
  EXPECT_EQ(decoded.rows, (std::vector<std::string>{"+I[1, null]", "+I[5, 5]"}));
  EXPECT_EQ(decoded.malformed, 4);
  EXPECT_EQ(decoded.skipped, 3);
}

TEST(JsonFormatTest, NestedTypes) {
  auto context = json(rowType({{"r", type("ROW<a INT, b ARRAY<STRING>>")},
                               {"m", type("MAP<STRING, DOUBLE>")},
                               {"ms", type("MULTISET<STRING>")},
                               {"aa", type("ARRAY<ARRAY<INT>>")}}));
  std::string text =
      "{\"r\":{\"b\":[\"x\",null],\"a\":1,\"z\":0},\"m\":{\"k\":1.5,\"n\":null},"
      "\"ms\":{\"a\":2},\"aa\":[[1,2],[],null]}\n";
  auto decoded = decode(context, text);
  EXPECT_EQ(decoded.rows,
            (std::vector<std::string>{"+I[+I[1, [x, null]], {k=1.5, n=null}, {a=2}, [[1, 2], [], "
                                      "null]]"}));
  EXPECT_EQ(encode(context, decoded.values),
            "{\"r\":{\"a\":1,\"b\":[\"x\",null]},\"m\":{\"k\":1.5,\"n\":null},\"ms\":{\"a\":2},"
            "\"aa\":[[1,2],[],null]}\n");
  EXPECT_EQ(errorMessage([&] { decode(context, "{\"r\":{\"a\":\"x\"}}\n"); }),
            "Failed to deserialize JSON row 1 of file 'f': column 'r' (position 0) expects "
            "ROW<`a` INT, `b` ARRAY<STRING>> but got {\"a\":\"x\"}");
}

LogicalTypePtr allTypes() {
  return rowType({{"b", type("BOOLEAN")},
                  {"ti", type("TINYINT")},
                  {"i", type("INT")},
                  {"bi", type("BIGINT")},
                  {"f", type("FLOAT")},
                  {"d", type("DOUBLE")},
                  {"dec", type("DECIMAL(38, 18)")},
                  {"s", type("STRING")},
                  {"bin", type("BYTES")},
                  {"dt", type("DATE")},
                  {"tm", type("TIME(3)")},
                  {"ts", type("TIMESTAMP(3)")},
                  {"ltz", type("TIMESTAMP_LTZ(3)")}});
}

std::vector<Row> allTypeRows() {
  return {Row::of(true, int8_t{-1}, 70000, int64_t{10000000000}, 1.5f, 1e10,
                  Decimal::fromString("12345678901234567890.123456789012345678", 38, 18), "é",
                  Bytes{'a', 'b', 'c'}, LocalDate::of(2020, 12, 30),
                  LocalTime::of(12, 13, 14, 123000000),
                  LocalDateTime::of(2020, 12, 30, 12, 13, 14, 123000000),
                  Instant::ofEpochMilli(1609330394123)),
          Row::of(false, int8_t{0}, 0, int64_t{0}, std::numeric_limits<float>::infinity(),
                  std::nan(""), Decimal::fromString("0.000000027", 38, 18), "", Bytes{},
                  LocalDate::of(1969, 1, 1), LocalTime::of(0, 0),
                  LocalDateTime::of(2020, 12, 30, 12, 13), Instant::ofEpochMilli(0)),
          Row(13)};
}

TEST(JsonFormatTest, WritesEveryTypeAsFlinkAndReadsItBack) {
  auto context = json(allTypes());
  std::string text = encode(context, allTypeRows());
  EXPECT_EQ(
      text,
      "{\"b\":true,\"ti\":-1,\"i\":70000,\"bi\":10000000000,\"f\":1.5,\"d\":1.0E10,"
      "\"dec\":12345678901234567890.123456789012345678,\"s\":\"é\",\"bin\":\"YWJj\","
      "\"dt\":\"2020-12-30\",\"tm\":\"12:13:14.123\",\"ts\":\"2020-12-30 12:13:14.123\","
      "\"ltz\":\"2020-12-30 12:13:14.123Z\"}\n"
      "{\"b\":false,\"ti\":0,\"i\":0,\"bi\":0,\"f\":\"Infinity\",\"d\":\"NaN\","
      "\"dec\":2.7000000000E-8,\"s\":\"\",\"bin\":\"\",\"dt\":\"1969-01-01\",\"tm\":\"00:00:00\","
      "\"ts\":\"2020-12-30 12:13:00\",\"ltz\":\"1970-01-01 00:00:00Z\"}\n"
      "{\"b\":null,\"ti\":null,\"i\":null,\"bi\":null,\"f\":null,\"d\":null,\"dec\":null,"
      "\"s\":null,\"bin\":null,\"dt\":null,\"tm\":null,\"ts\":null,\"ltz\":null}\n");
  auto decoded = decode(context, text);
  std::vector<Row> expected = allTypeRows();
  ASSERT_EQ(decoded.values.size(), 3u);
  EXPECT_EQ(decoded.values[0], expected[0]);
  EXPECT_EQ(decoded.values[1], expected[1]);
  EXPECT_EQ(decoded.values[2], expected[2]);
}

TEST(JsonFormatTest, TimestampStandardsAndEncodingOptions) {
  auto iso = json(rowType({{"ts", type("TIMESTAMP(3)")}, {"ltz", type("TIMESTAMP_LTZ(3)")}}),
                  {{"json.timestamp-format.standard", "ISO-8601"}});
  std::vector<Row> rows = {Row::of(LocalDateTime::of(2020, 12, 30, 12, 13, 14, 123000000),
                                   Instant::ofEpochMilli(1609330394000))};
  std::string text = encode(iso, rows);
  EXPECT_EQ(text, "{\"ts\":\"2020-12-30T12:13:14.123\",\"ltz\":\"2020-12-30T12:13:14Z\"}\n");
  EXPECT_EQ(decode(iso, text).values, rows);

  auto plain = json(rowType({{"d", type("DECIMAL(10, 9)")}, {"s", type("STRING")}}),
                    {{"json.encode.decimal-as-plain-number", "true"},
                     {"json.encode.ignore-null-fields", "true"}});
  EXPECT_EQ(encode(plain, {Row::of(Decimal::fromString("0.000000027", 10, 9), nullptr)}),
            "{\"d\":0.000000027}\n");

  auto maps = [](std::string mode) {
    auto context = json(rowType({{"m", type("MAP<STRING, INT>")}}),
                        {{"json.map-null-key.mode", mode}, {"json.map-null-key.literal", "NUL"}});
    return encode(context, {Row::of(ValueMap{{Value(), 1}, {Value("k"), 2}})});
  };
  EXPECT_EQ(maps("drop"), "{\"m\":{\"k\":2}}\n");
  EXPECT_EQ(maps("LITERAL"), "{\"m\":{\"NUL\":1,\"k\":2}}\n");
  EXPECT_EQ(errorMessage([&] { maps("FAIL"); }),
            "JSON format doesn't support to serialize map data with null keys. You can drop null "
            "key entries or encode null in literals by specifying map-null-key.mode option.");
}

TEST(JsonFormatTest, ValidatesOptionsAndColumnTypes) {
  auto validate = [](std::map<std::string, std::string> options, LogicalTypePtr rows = nullptr) {
    return errorMessage(
        [&] { JsonFormatFactory().validate(json(rows ? rows : scores(), std::move(options))); });
  };
  EXPECT_EQ(
      validate({{"json.fail-on-missing-field", "true"}, {"json.ignore-parse-errors", "true"}}),
      "fail-on-missing-field and ignore-parse-errors shouldn't both be true.");
  EXPECT_EQ(validate({{"json.timestamp-format.standard", "iso"}}),
            "Unsupported value 'iso' for timestamp-format.standard. Supported values are [SQL, "
            "ISO-8601].");
  EXPECT_EQ(validate({{"json.map-null-key.mode", "skip"}}),
            "Unsupported value 'skip' for option map-null-key.mode. Supported values are "
            "[LITERAL, FAIL, DROP].");
  EXPECT_EQ(validate({{"json.ignore-parse-errors", "1"}}),
            "Could not parse value '1' for key 'json.ignore-parse-errors' of table 't': expected "
            "'true' or 'false'.");
  EXPECT_EQ(validate({}, rowType({{"m", type("MAP<INT, STRING>")}})),
            "JSON format doesn't support non-string as key type of map. The type is: MAP<INT, "
            "STRING> (column 'm' of table 't').");
  EXPECT_EQ(validate({}, rowType({{"r", type("RAW('java.lang.Object', 'AA==')")}})),
            "The json format does not support the type RAW('java.lang.Object', '...') of column "
            "'r' (table 't').");
  EXPECT_EQ(
      validate({{"json.timestamp-format.standard", "SQL"}, {"json.map-null-key.mode", "drop"}}),
      "");
}

}  // namespace
}  // namespace eddy::formats
