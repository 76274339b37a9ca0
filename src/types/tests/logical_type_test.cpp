// Logical types: parse/print round trips for every type, Flink's aliases and defaults, the
// DataTypes factories, and the exact messages of invalid type strings.
#include "eddy/types/logical_type.h"

#include <gtest/gtest.h>

#include "eddy/exceptions.h"
#include "eddy/types/data_types.h"

namespace eddy {
namespace {

std::string parseError(std::string_view text) {
  try {
    parseLogicalType(text);
  } catch (const ValidationException& error) {
    return error.what();
  }
  return "<no error>";
}

class CanonicalTypeStringTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CanonicalTypeStringTest, PrintsBackIdenticallyAndRoundTrips) {
  LogicalTypePtr type = parseLogicalType(GetParam());
  EXPECT_EQ(type->asSummaryString(), GetParam());
  EXPECT_EQ(*parseLogicalType(type->asSummaryString()), *type);
  EXPECT_EQ(*parseLogicalType(type->asSerializableString()), *type);
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, CanonicalTypeStringTest,
    ::testing::Values("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE",
                      "DECIMAL(12, 2)", "DECIMAL(38, 18)", "DECIMAL(1, 0)", "CHAR(5)",
                      "VARCHAR(20)", "STRING", "BINARY(3)", "VARBINARY(10)", "BYTES", "DATE",
                      "TIME(0)", "TIME(3)", "TIMESTAMP(3)", "TIMESTAMP(9)", "TIMESTAMP(0)",
                      "TIMESTAMP_LTZ(3)", "INTERVAL YEAR(2) TO MONTH", "INTERVAL YEAR(4)",
                      "INTERVAL MONTH", "INTERVAL DAY(2) TO SECOND(3)", "INTERVAL DAY(2)",
                      "INTERVAL DAY(3) TO HOUR", "INTERVAL DAY(2) TO MINUTE", "INTERVAL HOUR",
                      "INTERVAL HOUR TO MINUTE", "INTERVAL HOUR TO SECOND(6)", "INTERVAL MINUTE",
                      "INTERVAL MINUTE TO SECOND(2)", "INTERVAL SECOND(3)", "ARRAY<INT>",
                      "MULTISET<STRING>", "MAP<STRING, ARRAY<INT>>", "ROW<`a` INT, `b` STRING>",
                      "ROW<>", "RAW('User', '...')", "NULL", "*User<`name` STRING,`score` INT>*",
                      "*com.example.User<`id` BIGINT>* NOT NULL", "INT NOT NULL",
                      "TIMESTAMP(3) *ROWTIME*", "TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*",
                      "TIMESTAMP_LTZ(3) *ROWTIME*",
                      "ROW<`a` INT NOT NULL, `b` MAP<STRING, DECIMAL(10, 0)>> NOT NULL",
                      "ARRAY<ROW<`x` DOUBLE, `y` ARRAY<TIMESTAMP(3)>>>", "ROW<`we``ird` INT>",
                      "MAP<INT NOT NULL, MULTISET<BYTES NOT NULL>>"));

TEST(LogicalTypeParserTest, AcceptsFlinkAliasesAndDefaults) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"INTEGER", "INT"},
      {"int", "INT"},
      {"dec", "DECIMAL(10, 0)"},
      {"DECIMAL", "DECIMAL(10, 0)"},
      {"NUMERIC(5)", "DECIMAL(5, 0)"},
      {"Decimal(12,2)", "DECIMAL(12, 2)"},
      {"TIMESTAMP", "TIMESTAMP(6)"},
      {"TIMESTAMP WITHOUT TIME ZONE", "TIMESTAMP(6)"},
      {"TIMESTAMP(3) WITHOUT TIME ZONE", "TIMESTAMP(3)"},
      {"TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)"},
      {"TIMESTAMP_LTZ", "TIMESTAMP_LTZ(6)"},
      {"TIME", "TIME(0)"},
      {"TIME(3) WITHOUT TIME ZONE", "TIME(3)"},
      {"CHAR", "CHAR(1)"},
      {"VARCHAR", "VARCHAR(1)"},
      {"CHARACTER VARYING(10)", "VARCHAR(10)"},
      {"CHARACTER(3)", "CHAR(3)"},
      {"BINARY VARYING(4)", "VARBINARY(4)"},
      {"VARCHAR(2147483647)", "STRING"},
      {"VARBINARY(2147483647)", "BYTES"},
      {"DOUBLE PRECISION", "DOUBLE"},
      {"REAL", "FLOAT"},
      {"INT ARRAY", "ARRAY<INT>"},
      {"STRING NOT NULL MULTISET", "MULTISET<STRING NOT NULL>"},
      {"INT NULL", "INT"},
      {"INTERVAL DAY TO SECOND", "INTERVAL DAY(2) TO SECOND(6)"},
      {"INTERVAL YEAR TO MONTH", "INTERVAL YEAR(2) TO MONTH"},
      {"interval second", "INTERVAL SECOND(6)"},
      {"ROW<a INT, b STRING>", "ROW<`a` INT, `b` STRING>"},
      {"ROW(a INT, b STRING)", "ROW<`a` INT, `b` STRING>"},
      {"row<A int not null>", "ROW<`A` INT NOT NULL>"},
      {"  map < int , string >  ", "MAP<INT, STRING>"},
      {"ROW<`ts` TIMESTAMP(3) NOT NULL *ROWTIME*>", "ROW<`ts` TIMESTAMP(3) NOT NULL *ROWTIME*>"},
      {"ROW<a INT 'the a'>", "ROW<`a` INT '...'>"},
  };
  for (const auto& [input, expected] : cases) {
    EXPECT_EQ(parseLogicalType(input)->asSummaryString(), expected) << input;
  }
}

TEST(LogicalTypeParserTest, DescriptionsAndRawSnapshotsSurviveTheSerializableString) {
  LogicalTypePtr row = parseLogicalType("ROW<a INT 'it''s a', b STRING>");
  EXPECT_EQ(row->asSummaryString(), "ROW<`a` INT '...', `b` STRING>");
  EXPECT_EQ(row->asSerializableString(), "ROW<`a` INT 'it''s a', `b` STRING>");
  EXPECT_EQ(*row->getFields()[0].description, "it's a");
  EXPECT_EQ(*parseLogicalType(row->asSerializableString()), *row);

  LogicalTypePtr raw = parseLogicalType("RAW('com.example.User', 'AAEC''x')");
  EXPECT_EQ(raw->asSummaryString(), "RAW('com.example.User', '...')");
  EXPECT_EQ(raw->asSerializableString(), "RAW('com.example.User', 'AAEC''x')");
  EXPECT_EQ(raw->getClassName(), "com.example.User");
  EXPECT_EQ(raw->getSerializerSnapshot(), "AAEC'x");
  EXPECT_EQ(*parseLogicalType(raw->asSerializableString()), *raw);
}

TEST(LogicalTypeParserTest, InvalidStringsNameTheColumn) {
  EXPECT_EQ(parseError("ARRAY<FOO>"),
            "Could not parse type 'ARRAY<FOO>' at column 7: unknown type 'FOO'");
  EXPECT_EQ(parseError("INT FOO"),
            "Could not parse type 'INT FOO' at column 5: unexpected token 'FOO'");
  EXPECT_EQ(
      parseError("MAP<INT STRING>"),
      "Could not parse type 'MAP<INT STRING>' at column 9: unexpected 'STRING', expected ','");
  EXPECT_EQ(parseError("ARRAY<INT"),
            "Could not parse type 'ARRAY<INT' at column 10: unexpected end of input, expected '>'");
  EXPECT_EQ(parseError(""),
            "Could not parse type '' at column 1: unexpected end of input, expected a type");
  EXPECT_EQ(parseError("ROW<a INT b STRING>"),
            "Could not parse type 'ROW<a INT b STRING>' at column 11: unexpected 'b', expected ',' "
            "or '>'");
  EXPECT_EQ(parseError("RAW('User)"),
            "Could not parse type 'RAW('User)' at column 5: unterminated string literal");
  EXPECT_EQ(parseError("INT; DROP"),
            "Could not parse type 'INT; DROP' at column 4: unexpected character ';'");
  EXPECT_EQ(parseError("TIMESTAMP(3) WITH TIME ZONE"),
            "Could not parse type 'TIMESTAMP(3) WITH TIME ZONE' at column 14: TIMESTAMP WITH TIME "
            "ZONE is not supported, use TIMESTAMP WITH LOCAL TIME ZONE (TIMESTAMP_LTZ)");
  EXPECT_EQ(parseError("INT *ROWTIME*"),
            "Could not parse type 'INT *ROWTIME*' at column 5: a time attribute needs TIMESTAMP or "
            "TIMESTAMP_LTZ, not INT");
  EXPECT_EQ(parseError("ROW<a INT, a STRING>"),
            "Could not parse type 'ROW<a INT, a STRING>' at column 4: Field names must be unique. "
            "Found duplicates: [a]");
  EXPECT_EQ(parseError("INTERVAL WEEK"),
            "Could not parse type 'INTERVAL WEEK' at column 10: unexpected 'WEEK', expected an "
            "interval unit (YEAR, MONTH, DAY, HOUR, MINUTE or SECOND)");
}

TEST(LogicalTypeParserTest, OutOfRangeParametersNameTheBound) {
  EXPECT_EQ(parseError("DECIMAL(39, 0)"),
            "Could not parse type 'DECIMAL(39, 0)' at column 9: DECIMAL precision must be between "
            "1 and 38 (both inclusive), but was 39.");
  EXPECT_EQ(parseError("DECIMAL(5, 6)"),
            "Could not parse type 'DECIMAL(5, 6)' at column 12: DECIMAL scale must be between 0 "
            "and 5 (both inclusive), but was 6.");
  EXPECT_EQ(parseError("TIMESTAMP(10)"),
            "Could not parse type 'TIMESTAMP(10)' at column 11: TIMESTAMP precision must be "
            "between 0 and 9 (both inclusive), but was 10.");
  EXPECT_EQ(parseError("ARRAY<TIMESTAMP_LTZ(12)>"),
            "Could not parse type 'ARRAY<TIMESTAMP_LTZ(12)>' at column 21: TIMESTAMP_LTZ "
            "precision must be between 0 and 9 (both inclusive), but was 12.");
  EXPECT_EQ(parseError("TIME(10)"),
            "Could not parse type 'TIME(10)' at column 6: TIME precision must be between 0 and 9 "
            "(both inclusive), but was 10.");
  EXPECT_EQ(parseError("VARCHAR(0)"),
            "Could not parse type 'VARCHAR(0)' at column 9: VARCHAR length must be between 1 and "
            "2147483647 (both inclusive), but was 0.");
  EXPECT_EQ(parseError("INTERVAL YEAR(5) TO MONTH"),
            "Could not parse type 'INTERVAL YEAR(5) TO MONTH' at column 15: Year precision of "
            "year-month intervals must be between 1 and 4 (both inclusive), but was 5.");
  EXPECT_EQ(parseError("INTERVAL DAY(7)"),
            "Could not parse type 'INTERVAL DAY(7)' at column 14: Day precision of day-time "
            "intervals must be between 1 and 6 (both inclusive), but was 7.");
  EXPECT_EQ(parseError("INTERVAL SECOND(10)"),
            "Could not parse type 'INTERVAL SECOND(10)' at column 17: Fractional precision of "
            "day-time intervals must be between 0 and 9 (both inclusive), but was 10.");
  EXPECT_EQ(parseError("VARCHAR(99999999999)"),
            "Could not parse type 'VARCHAR(99999999999)' at column 9: integer 99999999999 is too "
            "large");
}

TEST(LogicalTypeTest, AccessorsExposeParameters) {
  LogicalTypePtr decimal = parseLogicalType("DECIMAL(12, 2) NOT NULL");
  EXPECT_EQ(decimal->getTypeRoot(), LogicalTypeRoot::DECIMAL);
  EXPECT_EQ(decimal->getPrecision(), 12);
  EXPECT_EQ(decimal->getScale(), 2);
  EXPECT_FALSE(decimal->isNullable());
  EXPECT_EQ(decimal->copy(true)->asSummaryString(), "DECIMAL(12, 2)");

  EXPECT_EQ(parseLogicalType("VARCHAR(20)")->getLength(), 20);
  EXPECT_EQ(parseLogicalType("TIMESTAMP_LTZ(3) *PROCTIME*")->getTimestampKind(),
            TimestampKind::PROCTIME);

  LogicalTypePtr map = parseLogicalType("MAP<STRING, ARRAY<INT>>");
  EXPECT_EQ(map->getKeyType()->asSummaryString(), "STRING");
  EXPECT_EQ(map->getValueType()->getElementType()->asSummaryString(), "INT");
  EXPECT_EQ(map->getChildren().size(), 2u);

  LogicalTypePtr row = parseLogicalType("ROW<name STRING, score INT>");
  EXPECT_EQ(row->getFieldNames(), (std::vector<std::string>{"name", "score"}));
  EXPECT_EQ(row->getFieldIndex("score"), 1);
  EXPECT_EQ(row->getFieldIndex("missing"), -1);
  EXPECT_EQ(row->getChildren()[1]->getTypeRoot(), LogicalTypeRoot::INTEGER);

  LogicalTypePtr interval = parseLogicalType("INTERVAL DAY(3) TO SECOND(4)");
  EXPECT_EQ(interval->getDayTimeResolution(), DayTimeResolution::DAY_TO_SECOND);
  EXPECT_EQ(interval->getLeadingPrecision(), 3);
  EXPECT_EQ(interval->getFractionalPrecision(), 4);
}

TEST(LogicalTypeTest, EqualityIncludesNullabilityTimeAttributeAndNames) {
  EXPECT_EQ(*parseLogicalType("INT"), *parseLogicalType("INTEGER"));
  EXPECT_NE(*parseLogicalType("INT"), *parseLogicalType("INT NOT NULL"));
  EXPECT_NE(*parseLogicalType("TIMESTAMP(3)"), *parseLogicalType("TIMESTAMP(3) *ROWTIME*"));
  EXPECT_NE(*parseLogicalType("TIMESTAMP(3)"), *parseLogicalType("TIMESTAMP_LTZ(3)"));
  EXPECT_NE(*parseLogicalType("ROW<a INT>"), *parseLogicalType("ROW<b INT>"));
  EXPECT_NE(*parseLogicalType("DECIMAL(10, 2)"), *parseLogicalType("DECIMAL(10, 3)"));
  EXPECT_NE(*parseLogicalType("INTERVAL DAY(2)"), *parseLogicalType("INTERVAL HOUR"));
  EXPECT_EQ(*parseLogicalType("NULL NOT NULL"), *parseLogicalType("NULL"));
}

TEST(DataTypesTest, FactoriesPrintAsFlink) {
  EXPECT_EQ(DataTypes::DECIMAL(12, 2).notNull().toString(), "DECIMAL(12, 2) NOT NULL");
  EXPECT_EQ(DataTypes::STRING().toString(), "STRING");
  EXPECT_EQ(DataTypes::BYTES().toString(), "BYTES");
  EXPECT_EQ(DataTypes::TIMESTAMP().toString(), "TIMESTAMP(6)");
  EXPECT_EQ(DataTypes::TIMESTAMP(3).toString(), "TIMESTAMP(3)");
  EXPECT_EQ(DataTypes::TIMESTAMP_LTZ(3).notNull().toString(), "TIMESTAMP_LTZ(3) NOT NULL");
  EXPECT_EQ(DataTypes::TIME().toString(), "TIME(0)");
  EXPECT_EQ(DataTypes::INTERVAL(DataTypes::DAY(), DataTypes::SECOND(3)).toString(),
            "INTERVAL DAY(2) TO SECOND(3)");
  EXPECT_EQ(DataTypes::INTERVAL(DataTypes::YEAR(), DataTypes::MONTH()).toString(),
            "INTERVAL YEAR(2) TO MONTH");
  EXPECT_EQ(DataTypes::INTERVAL(DataTypes::MONTH()).toString(), "INTERVAL MONTH");
  EXPECT_EQ(DataTypes::INTERVAL(DataTypes::SECOND(3)).toString(), "INTERVAL SECOND(3)");
  EXPECT_EQ(DataTypes::INTERVAL(DataTypes::HOUR(), DataTypes::MINUTE()).toString(),
            "INTERVAL HOUR TO MINUTE");
  EXPECT_EQ(DataTypes::ARRAY(DataTypes::INT().notNull()).toString(), "ARRAY<INT NOT NULL>");
  EXPECT_EQ(DataTypes::MAP(DataTypes::STRING(), DataTypes::BIGINT()).toString(),
            "MAP<STRING, BIGINT>");
  EXPECT_EQ(DataTypes::MULTISET(DataTypes::DOUBLE()).toString(), "MULTISET<DOUBLE>");
  EXPECT_EQ(DataTypes::ROW({DataTypes::FIELD("a", DataTypes::INT()),
                            DataTypes::FIELD("b", DataTypes::STRING())})
                .toString(),
            "ROW<`a` INT, `b` STRING>");
  EXPECT_EQ(DataTypes::STRUCTURED("User", {DataTypes::FIELD("name", DataTypes::STRING()),
                                           DataTypes::FIELD("score", DataTypes::INT())})
                .toString(),
            "*User<`name` STRING,`score` INT>*");
  EXPECT_EQ(DataTypes::RAW("User", "AAE=").toString(), "RAW('User', '...')");
  EXPECT_EQ(DataTypes::NULL_TYPE().toString(), "NULL");
  EXPECT_EQ(DataTypes::NULL_TYPE().notNull().toString(), "NULL");
  EXPECT_EQ(DataTypes::of("int not null"), DataTypes::INT().notNull());
  EXPECT_EQ(DataTypes::ROW().toString(), "ROW<>");
  EXPECT_EQ(DataTypes::MAP(DataTypes::STRING(), DataTypes::INT()).getChildren()[1],
            DataTypes::INT());
}

TEST(DataTypesTest, InvalidParametersThrow) {
  try {
    DataTypes::DECIMAL(39, 0);
    FAIL() << "expected an exception";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "DECIMAL precision must be between 1 and 38 (both inclusive), but was 39.");
  }
  EXPECT_THROW(DataTypes::TIMESTAMP(10), ValidationException);
  EXPECT_THROW(DataTypes::CHAR(0), ValidationException);
  try {
    DataTypes::INTERVAL(DataTypes::MONTH(), DataTypes::DAY());
    FAIL() << "expected an exception";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()).rfind("Unsupported interval definition 'MONTH TO DAY'.", 0),
              0u)
        << error.what();
  }
  EXPECT_THROW(DataTypes::ROW({DataTypes::FIELD("a", DataTypes::INT()),
                               DataTypes::FIELD("a", DataTypes::INT())}),
               ValidationException);
  EXPECT_THROW(DataTypes::ROW({DataTypes::FIELD(" ", DataTypes::INT())}), ValidationException);
}

}  // namespace
}  // namespace eddy
