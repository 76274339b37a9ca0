// The changelog JSON formats (debezium-json, canal-json, maxwell-json): each envelope read
// into its changelog (+I/-U/+U/-D), the rows inside decoded as JSON rows, the exact messages of
// corrupt envelopes and malformed rows, ignore-parse-errors, and every row kind written as the
// envelope Flink writes.
#include <gtest/gtest.h>

#include "eddy/row.h"
#include "formats/json/changelog_json_formats.h"
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

LogicalTypePtr products() {
  return rowType(
      {{"id", type("INT NOT NULL")}, {"name", type("STRING")}, {"weight", type("DOUBLE")}});
}

std::vector<Row> everyKind() {
  return {Row::ofKind(RowKind::INSERT, 1, std::string("scooter"), 3.14),
          Row::ofKind(RowKind::UPDATE_BEFORE, 1, std::string("scooter"), 3.14),
          Row::ofKind(RowKind::UPDATE_AFTER, 1, std::string("scooter"), 5.5),
          Row::ofKind(RowKind::DELETE, 1, std::string("scooter"), 5.5)};
}

TEST(ChangelogJsonFormatTest, DebeziumOperationsBecomeTheirChanges) {
  auto context = formatContext("debezium-json", products());
  EXPECT_EQ(
      decodeRows(
          context,
          R"({"before":null,"after":{"id":1,"name":"scooter","weight":3.14},"op":"c","source":{"db":"inventory"},"ts_ms":1589362330904})"
          "\n"
          R"({"before":{"id":1,"name":"scooter","weight":3.14},"after":{"id":1,"name":"scooter","weight":5.5},"op":"u"})"
          "\n\n"
          R"({"op":"d","before":{"id":1,"name":"scooter","weight":5.5},"after":null})"
          "\n"
          R"({"before":null,"after":{"id":2,"name":"car battery","weight":8.1},"op":"r"})"
          "\n"),
      (std::vector<std::string>{"+I[1, scooter, 3.14]", "-U[1, scooter, 3.14]",
                                "+U[1, scooter, 5.5]", "-D[1, scooter, 5.5]",
                                "+I[2, car battery, 8.1]"}));
  // With schema-include the envelope is the "payload".
  EXPECT_EQ(
      decodeRows(
          formatContext("debezium-json", products(), {{"debezium-json.schema-include", "true"}}),
          R"({"schema":{"type":"struct","fields":[]},"payload":{"before":null,"after":{"id":3,"name":null,"weight":null},"op":"c"}})"),
      std::vector<std::string>{"+I[3, null, null]"});
}

TEST(ChangelogJsonFormatTest, DebeziumErrorsNameTheRecordAndWhatIsWrong) {
  auto context = formatContext("debezium-json", products());
  EXPECT_EQ(errorMessage([&] { decode(context, R"({"before":null,"after":{"id":1},"op":"x"})"); }),
            "Failed to deserialize Debezium JSON row 1 of file 'f': Unknown \"op\" value \"x\". "
            "The Debezium JSON message is '{\"before\":null,\"after\":{\"id\":1},\"op\":\"x\"}'");
  EXPECT_EQ(errorMessage([&] {
              decode(context,
                     "{\"op\":\"c\"}\n"
                     R"({"before":null,"after":{"id":1},"op":"u"})");
            }),
            "Failed to deserialize Debezium JSON row 1 of file 'f': Corrupt Debezium JSON "
            "message '{\"op\":\"c\"}': \"after\" is missing");
  EXPECT_EQ(errorMessage([&] { decode(context, R"({"before":null,"after":{"id":1},"op":"u"})"); }),
            "Failed to deserialize Debezium JSON row 1 of file 'f': The \"before\" field of "
            "UPDATE message is null, if you are using Debezium Postgres Connector, please check "
            "the Postgres table has been set REPLICA IDENTITY to FULL level.");
  EXPECT_EQ(errorMessage([&] { decode(context, "[1, 2]"); }),
            "Failed to deserialize Debezium JSON row 1 of file 'f': Corrupt Debezium JSON "
            "message '[1, 2]': expected a JSON object but got an array: [1, 2]");
  EXPECT_EQ(errorMessage([&] {
              decode(context, R"({"before":null,"after":{"id":1,"weight":"heavy"},"op":"c"})");
            }),
            "Failed to deserialize JSON row 1 of file 'f' (the \"after\" row of its Debezium JSON "
            "message): column 'weight' (position 2) expects DOUBLE but got \"heavy\"");
  // ignore-parse-errors: the corrupt records are skipped and counted, a bad member is NULL.
  auto tolerant =
      formatContext("debezium-json", products(), {{"debezium-json.ignore-parse-errors", "true"}});
  auto decoded = decode(tolerant,
                        "{\"op\":\"x\"}\nnot json\n"
                        R"({"before":null,"after":{"id":1,"weight":"heavy"},"op":"c"})"
                        "\n"
                        R"({"before":null,"after":{"id":2,"name":"b"},"op":"c"})");
  EXPECT_EQ(decoded.rows, (std::vector<std::string>{"+I[1, null, null]", "+I[2, b, null]"}));
  EXPECT_EQ(decoded.skipped, 2);
  EXPECT_EQ(decoded.malformed, 3);
}

TEST(ChangelogJsonFormatTest, DebeziumWritesInsertsAndDeletes) {
  auto context = formatContext("debezium-json", products());
  EXPECT_EQ(encode(context, everyKind()),
            R"({"before":null,"after":{"id":1,"name":"scooter","weight":3.14},"op":"c"})"
            "\n"
            R"({"before":{"id":1,"name":"scooter","weight":3.14},"after":null,"op":"d"})"
            "\n"
            R"({"before":null,"after":{"id":1,"name":"scooter","weight":5.5},"op":"c"})"
            "\n"
            R"({"before":{"id":1,"name":"scooter","weight":5.5},"after":null,"op":"d"})"
            "\n");
  EXPECT_EQ(errorMessage([&] {
              FormatFactoryRegistry::builtIn()
                  .factoryFor("debezium-json")
                  .createEncodingFormat(formatContext("debezium-json", products(),
                                                      {{"debezium-json.schema-include", "true"}}));
            }),
            "Debezium JSON serialization doesn't support 'debezium-json.schema-include' option "
            "been set to true.");
}

TEST(ChangelogJsonFormatTest, CanalRecordsHoldRowsOfOneChange) {
  auto context = formatContext("canal-json", products());
  EXPECT_EQ(
      decodeRows(
          context,
          R"({"data":[{"id":1,"name":"scooter","weight":3.14},{"id":2,"name":"car battery","weight":8.1}],"database":"inventory","table":"products","type":"INSERT","isDdl":false})"
          "\n"
          // "old" holds the changed columns' old values; a NULL there takes "data"'s.
          R"({"data":[{"id":1,"name":"scooter","weight":5.5},{"id":2,"name":"battery","weight":8.1}],"old":[{"weight":3.14},{"name":"car battery","weight":null}],"type":"UPDATE"})"
          "\n"
          R"j({"data":null,"type":"CREATE","isDdl":true,"sql":"CREATE TABLE t (id INT)"})j"
          "\n"
          R"({"data":[{"id":2,"name":"battery","weight":8.1}],"type":"DELETE"})"
          "\n"),
      (std::vector<std::string>{"+I[1, scooter, 3.14]", "+I[2, car battery, 8.1]",
                                "-U[1, scooter, 3.14]", "+U[1, scooter, 5.5]",
                                "-U[2, car battery, 8.1]", "+U[2, battery, 8.1]",
                                "-D[2, battery, 8.1]"}));
  // database.include / table.include keep the records of the matching tables only.
  EXPECT_EQ(
      decodeRows(formatContext("canal-json", products(),
                               {{"canal-json.database.include", "inv.*"},
                                {"canal-json.table.include", "products"}}),
                 R"({"data":[{"id":1}],"database":"inventory","table":"products","type":"INSERT"})"
                 "\n"
                 R"({"data":[{"id":2}],"database":"inventory","table":"orders","type":"INSERT"})"
                 "\n"
                 R"({"data":[{"id":3}],"database":"sales","table":"products","type":"INSERT"})"
                 "\n"),
      std::vector<std::string>{"+I[1, null, null]"});
  EXPECT_EQ(
      errorMessage([&] { decode(context, R"({"data":[{"id":1}],"type":"TRUNCATE"})"); }),
      "Failed to deserialize Canal JSON row 1 of file 'f': Unknown \"type\" value "
      "\"TRUNCATE\". The Canal JSON message is '{\"data\":[{\"id\":1}],\"type\":\"TRUNCATE\"}'");
  EXPECT_EQ(errorMessage([&] { decode(context, R"({"data":[{"id":1}],"type":"UPDATE"})"); }),
            "Failed to deserialize Canal JSON row 1 of file 'f': Corrupt Canal JSON message "
            "'{\"data\":[{\"id\":1}],\"type\":\"UPDATE\"}': \"old\" is missing");
  EXPECT_EQ(encode(context, everyKind()),
            R"({"data":[{"id":1,"name":"scooter","weight":3.14}],"type":"INSERT"})"
            "\n"
            R"({"data":[{"id":1,"name":"scooter","weight":3.14}],"type":"DELETE"})"
            "\n"
            R"({"data":[{"id":1,"name":"scooter","weight":5.5}],"type":"INSERT"})"
            "\n"
            R"({"data":[{"id":1,"name":"scooter","weight":5.5}],"type":"DELETE"})"
            "\n");
  EXPECT_EQ(errorMessage([&] {
              FormatFactoryRegistry::builtIn()
                  .factoryFor("canal-json")
                  .validate(formatContext("canal-json", products(),
                                          {{"canal-json.table.include", "orders("}}));
            }),
            "Invalid value 'orders(' for key 'canal-json.table.include' of table 't': expected a "
            "regular expression.");
}

TEST(ChangelogJsonFormatTest, MaxwellRecordsHoldOneChange) {
  auto context = formatContext("maxwell-json", products());
  EXPECT_EQ(
      decodeRows(
          context,
          R"({"database":"test","table":"product","type":"insert","ts":1596684883,"xid":7125,"data":{"id":1,"name":"scooter","weight":3.14}})"
          "\n"
          // "old" holds the changed columns (an explicit null included), the others are
          // "data"'s.
          R"({"type":"update","data":{"id":1,"name":"scooter","weight":5.5},"old":{"weight":3.14,"name":null}})"
          "\n"
          R"({"type":"delete","data":{"id":1,"name":"scooter","weight":5.5}})"
          "\n"),
      (std::vector<std::string>{"+I[1, scooter, 3.14]", "-U[1, null, 3.14]", "+U[1, scooter, 5.5]",
                                "-D[1, scooter, 5.5]"}));
  EXPECT_EQ(errorMessage([&] { decode(context, R"({"type":"bootstrap-start","data":{}})"); }),
            "Failed to deserialize Maxwell JSON row 1 of file 'f': Unknown \"type\" value "
            "\"bootstrap-start\". The Maxwell JSON message is "
            "'{\"type\":\"bootstrap-start\",\"data\":{}}'");
  EXPECT_EQ(encode(context, everyKind()),
            R"({"data":{"id":1,"name":"scooter","weight":3.14},"type":"insert"})"
            "\n"
            R"({"data":{"id":1,"name":"scooter","weight":3.14},"type":"delete"})"
            "\n"
            R"({"data":{"id":1,"name":"scooter","weight":5.5},"type":"insert"})"
            "\n"
            R"({"data":{"id":1,"name":"scooter","weight":5.5},"type":"delete"})"
            "\n");
}

}  // namespace
}  // namespace eddy::formats
