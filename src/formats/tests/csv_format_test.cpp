// The csv format: RFC 4180 parsing (quotes, doubled quotes, delimiters and line breaks inside
// quotes, escapes, comments, trailing delimiters), nulls and empty strings, every type written
// and read back, the exact messages of malformed records, ignore-parse-errors (nulls and counts),
// and the option and column-type validation messages.
#include <gtest/gtest.h>

#include "formats/csv/csv_format_factory.h"
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
  return rowType({{"id", type("INT")}, {"name", type("STRING")}, {"score", type("INT")}});
}

FormatContext csv(LogicalTypePtr rows, std::map<std::string, std::string> options = {}) {
  return formatContext("csv", std::move(rows), std::move(options));
}

TEST(CsvFormatTest, ReadsRecords) {
  EXPECT_EQ(decodeRows(csv(scores()), "1,Alice,12\n2,Bob,10\r\n3,Carol,7"),
            (std::vector<std::string>{"+I[1, Alice, 12]", "+I[2, Bob, 10]", "+I[3, Carol, 7]"}));
  // Blank lines give no row; a trailing delimiter is ignored; numbers may have blanks.
  EXPECT_EQ(decodeRows(csv(scores()), "\n1,Alice,12,\n\n 2 ,Bob, 10 \n"),
            (std::vector<std::string>{"+I[1, Alice, 12]", "+I[2, Bob, 10]"}));
}

TEST(CsvFormatTest, QuotedFieldsHoldDelimitersQuotesAndLineBreaks) {
  auto context = csv(scores());
  EXPECT_EQ(decodeRows(context,
                       "1,\"a,b\",1\n2,\"say \"\"hi\"\"\",2\n3,\"two\nlines\",3\n"
                       "4,\"\",4\n5,a\"b,5\n"),
            (std::vector<std::string>{"+I[1, a,b, 1]", "+I[2, say \"hi\", 2]",
                                      "+I[3, two\nlines, 3]", "+I[4, , 4]", "+I[5, a\"b, 5]"}));
  // Line numbers count the lines of quoted fields: the bad record starts on line 3.
  EXPECT_EQ(errorMessage([&] { decode(context, "1,\"x\ny\",1\n2,b,x\n"); }),
            "Failed to deserialize CSV row 3 of file 'f': column 'score' (position 2) expects INT "
            "but got 'x'");
}

TEST(CsvFormatTest, NullsAndEmptyStrings) {
  auto context = csv(scores());
  // An empty unquoted field is null, a quoted empty field the empty string.
  auto decoded = decode(context, ",,\n1,\"\",\n");
  EXPECT_EQ(decoded.rows, (std::vector<std::string>{"+I[null, null, null]", "+I[1, , null]"}));
  EXPECT_EQ(decoded.values[1].getField(1), Value(""));
  // With a null literal, only the unquoted literal is null; an empty field is an empty string.
  auto withLiteral = csv(scores(), {{"csv.null-literal", "n/a"}});
  decoded = decode(withLiteral, "n/a,n/a,n/a\n1,\"n/a\",2\n2,,3\n");
  EXPECT_EQ(decoded.rows,
            (std::vector<std::string>{"+I[null, null, null]", "+I[1, n/a, 2]", "+I[2, , 3]"}));
  EXPECT_EQ(decoded.values[2].getField(1), Value(""));
}

TEST(CsvFormatTest, OneColumnTablesKeepTheirNullRows) {
  auto context = csv(rowType({{"v", type("INT")}}));
  std::string text = encode(context, {Row::of(1), Row::of(nullptr), Row::of(3)});
  EXPECT_EQ(text, "1\n\n3\n");
  EXPECT_EQ(decodeRows(context, text), (std::vector<std::string>{"+I[1]", "+I[null]", "+I[3]"}));
}

TEST(CsvFormatTest, DelimiterQuoteEscapeAndComments) {
  EXPECT_EQ(decodeRows(csv(scores(), {{"csv.field-delimiter", "|"}}), "1|a,b|2\n"),
            (std::vector<std::string>{"+I[1, a,b, 2]"}));
  EXPECT_EQ(decodeRows(csv(scores(), {{"csv.field-delimiter", "\\t"}}), "1\ta b\t2\n"),
            (std::vector<std::string>{"+I[1, a b, 2]"}));
  EXPECT_EQ(decodeRows(csv(scores(), {{"csv.quote-character", "'"}}), "1,'x,''y''',2\n"),
            (std::vector<std::string>{"+I[1, x,'y', 2]"}));
  EXPECT_EQ(decodeRows(csv(scores(), {{"csv.disable-quote-character", "true"}}), "1,\"x\",2\n"),
            (std::vector<std::string>{"+I[1, \"x\", 2]"}));
  EXPECT_EQ(
      decodeRows(csv(scores(), {{"csv.escape-character", "\\"}}), "1,a\\,b\\nc,2\n2,\"q\\\"\",3\n"),
      (std::vector<std::string>{"+I[1, a,b\nc, 2]", "+I[2, q\", 3]"}));
  EXPECT_EQ(decodeRows(csv(scores(), {{"csv.allow-comments", "true"}}),
                       "# a comment, \"with a quote\n1,a,2\n#another\n"),
            (std::vector<std::string>{"+I[1, a, 2]"}));
}

TEST(CsvFormatTest, MalformedRecordsNameRowColumnAndValue) {
  auto context = csv(scores());
  EXPECT_EQ(errorMessage([&] { decode(context, "1,a,1\n2,b,2\n3,c,abc\n"); }),
            "Failed to deserialize CSV row 3 of file 'f': column 'score' (position 2) expects INT "
            "but got 'abc'");
  EXPECT_EQ(errorMessage([&] { decode(context, "1,a\n"); }),
            "Failed to deserialize CSV row 1 of file 'f': expected 3 fields but found 2");
  EXPECT_EQ(errorMessage([&] { decode(context, "1,a,2,3,4\n"); }),
            "Failed to deserialize CSV row 1 of file 'f': expected 3 fields but found 5");
  EXPECT_EQ(errorMessage([&] { decode(context, "1,\"a,2\n"); }),
            "Failed to deserialize CSV row 1 of file 'f': column 'name' (position 1) has an "
            "unterminated quoted value");
  EXPECT_EQ(errorMessage([&] { decode(context, "1,\"a\"b,2\n"); }),
            "Failed to deserialize CSV row 1 of file 'f': column 'name' (position 1) has text "
            "after its closing quote: 'b,2'");
  EXPECT_EQ(errorMessage([&] { decode(context, "99999999999,a,2\n"); }),
            "Failed to deserialize CSV row 1 of file 'f': column 'id' (position 0) expects INT "
            "but got '99999999999'");
  auto strict = csv(rowType({{"id", type("INT NOT NULL")}, {"amount", type("DECIMAL(5, 2)")}}));
  EXPECT_EQ(errorMessage([&] { decode(strict, ",1.5\n"); }),
            "Failed to deserialize CSV row 1 of file 'f': column 'id' (position 0) expects INT "
            "NOT NULL but got null");
  EXPECT_EQ(errorMessage([&] { decode(strict, "1,12345.6\n"); }),
            "Failed to deserialize CSV row 1 of file 'f': column 'amount' (position 1) expects "
            "DECIMAL(5, 2) but got '12345.6' (out of range)");
}

TEST(CsvFormatTest, IgnoreParseErrorsNullsBadFieldsAndSkipsBadRecords) {
  auto context =
      csv(rowType({{"id", type("INT NOT NULL")}, {"name", type("STRING")}, {"score", type("INT")}}),
          {{"csv.ignore-parse-errors", "true"}});
  auto decoded = decode(context,
                        "1,a,x\n"        // bad score: null
                        "2,b\n"          // missing field: null
                        "3,c,3,extra\n"  // extra field: dropped
                        "x,d,4\n"        // bad NOT NULL id: skipped
                        "5,\"e,5\n");    // unterminated quote: skipped
  EXPECT_EQ(decoded.rows,
            (std::vector<std::string>{"+I[1, a, null]", "+I[2, b, null]", "+I[3, c, 3]"}));
  EXPECT_EQ(decoded.malformed, 5);
  EXPECT_EQ(decoded.skipped, 2);
}

LogicalTypePtr allTypes() {
  return rowType({{"b", type("BOOLEAN")},
                  {"ti", type("TINYINT")},
                  {"si", type("SMALLINT")},
                  {"i", type("INT")},
                  {"bi", type("BIGINT")},
                  {"f", type("FLOAT")},
                  {"d", type("DOUBLE")},
                  {"dec", type("DECIMAL(10, 2)")},
                  {"s", type("STRING")},
                  {"c", type("CHAR(3)")},
                  {"bin", type("BYTES")},
                  {"dt", type("DATE")},
                  {"tm", type("TIME(3)")},
                  {"ts", type("TIMESTAMP(3)")},
                  {"ltz", type("TIMESTAMP_LTZ(3)")},
                  {"arr", type("ARRAY<INT>")},
                  {"r", type("ROW<x INT, y STRING>")}});
}

std::vector<Row> allTypeRows() {
  return {
      Row::of(true, int8_t{-1}, int16_t{300}, 70000, int64_t{10000000000}, 1.5f, 1e10,
              Decimal::fromString("12.50", 10, 2), "Hello, World", "abc", Bytes{'a', 'b', 'c'},
              LocalDate::of(2020, 12, 30), LocalTime::of(12, 13, 14, 123000000),
              LocalDateTime::of(2020, 12, 30, 12, 13, 14, 123000000),
              Instant::ofEpochMilli(1609330394123), ValueArray{1, Value(), 3}, Row::of(7, "x")),
      Row::of(false, int8_t{0}, int16_t{0}, 0, int64_t{0}, -0.25f, 0.1,
              Decimal::fromString("-0.05", 10, 2), "", "xyz", Bytes{}, LocalDate::of(1969, 1, 1),
              LocalTime::of(0, 0), LocalDateTime::of(1969, 12, 31, 23, 59, 59),
              Instant::ofEpochMilli(0), ValueArray{}, Row::of(nullptr, "")),
      Row(17)};
}

TEST(CsvFormatTest, WritesEveryTypeAsFlinkAndReadsItBack) {
  auto context = csv(allTypes());
  std::string text = encode(context, allTypeRows());
  EXPECT_EQ(text,
            "true,-1,300,70000,10000000000,1.5,1.0E10,12.5,\"Hello, World\",abc,YWJj,2020-12-30,"
            "12:13:14.123,\"2020-12-30 12:13:14.123\",\"2020-12-30 12:13:14.123Z\",1;;3,7;x\n"
            "false,0,0,0,0,-0.25,0.1,-0.05,\"\",xyz,\"\",1969-01-01,00:00:00,\"1969-12-31 "
            "23:59:59\",\"1970-01-01 00:00:00Z\",\"\",;\n"
            ",,,,,,,,,,,,,,,,\n");
  auto decoded = decode(context, text);
  ASSERT_EQ(decoded.values.size(), 3u);
  std::vector<Row> expected = allTypeRows();
  EXPECT_EQ(decoded.values[0], expected[0]);
  EXPECT_EQ(decoded.rows[1],
            "+I[false, 0, 0, 0, 0, -0.25, 0.1, -0.05, , xyz, [], 1969-01-01, 00:00, "
            "1969-12-31T23:59:59, 1970-01-01T00:00:00Z, [], +I[null, null]]");
  EXPECT_EQ(decoded.values[2], expected[2]);
}

TEST(CsvFormatTest, WritingQuotesWhatNeedsQuotes) {
  auto context =
      csv(rowType({{"s", type("STRING")}, {"i", type("INT")}}), {{"csv.null-literal", "NULL"}});
  EXPECT_EQ(
      encode(context, {Row::of("plain", 1), Row::of("with space", 2), Row::of("say \"hi\"", 3),
                       Row::of("#hash", 4), Row::of("two\nlines", 5), Row::of("NULL", 6),
                       Row::of(nullptr, nullptr), Row::of("-dash.ok", -7)}),
      "plain,1\n\"with space\",2\n\"say \"\"hi\"\"\",3\n\"#hash\",4\n\"two\nlines\",5\n"
      "\"NULL\",6\nNULL,NULL\n-dash.ok,-7\n");
  auto semicolons = csv(rowType({{"s", type("STRING")}, {"d", type("DECIMAL(10, 0)")}}),
                        {{"csv.field-delimiter", ";"},
                         {"csv.array-element-delimiter", "|"},
                         {"csv.write-bigdecimal-in-scientific-notation", "false"}});
  EXPECT_EQ(encode(semicolons, {Row::of("a;b", Decimal::fromString("100000", 10, 0))}),
            "\"a;b\";100000\n");
  auto scientific = csv(rowType({{"d", type("DECIMAL(10, 0)")}}));
  EXPECT_EQ(encode(scientific, {Row::of(Decimal::fromString("100000", 10, 0))}), "1E+5\n");
  auto noQuotes = csv(rowType({{"s", type("STRING")}, {"i", type("INT")}}),
                      {{"csv.disable-quote-character", "true"}, {"csv.escape-character", "\\"}});
  std::string text = encode(noQuotes, {Row::of("a,b\nc\\d", 1)});
  EXPECT_EQ(text, "a\\,b\\nc\\\\d,1\n");
  EXPECT_EQ(decodeRows(noQuotes, text), (std::vector<std::string>{"+I[a,b\nc\\d, 1]"}));
}

TEST(CsvFormatTest, ValidatesOptionsAndColumnTypes) {
  auto validate = [](std::map<std::string, std::string> options, LogicalTypePtr rows = nullptr) {
    return errorMessage(
        [&] { CsvFormatFactory().validate(csv(rows ? rows : scores(), std::move(options))); });
  };
  EXPECT_EQ(validate({{"csv.field-delimiter", "ab"}}),
            "Invalid value 'ab' for key 'csv.field-delimiter' of table 't': expected a single "
            "ASCII character.");
  EXPECT_EQ(validate({{"csv.quote-character", "'"}, {"csv.disable-quote-character", "true"}}),
            "Format cannot define a quote character and disabled quote character at the same "
            "time.");
  EXPECT_EQ(validate({{"csv.allow-comments", "yes"}}),
            "Could not parse value 'yes' for key 'csv.allow-comments' of table 't': expected "
            "'true' or 'false'.");
  EXPECT_EQ(validate({{"csv.field-delimiter", "\""}}),
            "The options 'csv.field-delimiter' and 'csv.quote-character' of table 't' must not be "
            "the same character, but both are '\"'.");
  EXPECT_EQ(validate({}, rowType({{"m", type("MAP<STRING, INT>")}})),
            "The csv format does not support the type MAP<STRING, INT> of column 'm' (table "
            "'t').");
  EXPECT_EQ(validate({}, rowType({{"a", type("ARRAY<ARRAY<INT>>")}})),
            "The csv format does not support the type ARRAY<ARRAY<INT>> of column 'a' (table "
            "'t').");
  EXPECT_EQ(validate({{"csv.field-delimiter", "\\t"}, {"csv.null-literal", ""}}), "");
}

}  // namespace
}  // namespace eddy::formats
