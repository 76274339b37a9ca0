// Flink's tableau form: widths from content (BATCH) or from types (STREAMING), right-aligned
// values, <NULL>, timestamps with the type's fractional digits, truncation, wide characters.
#include "table/tableau_printer.h"

#include <gtest/gtest.h>

#include <sstream>

namespace eddy::table {
namespace {

std::vector<TableauColumn> nameAndScore() {
  return {{"name", LogicalType::varchar(2147483647)}, {"score", LogicalType::simple(LogicalTypeRoot::INTEGER)}};
}

TEST(TableauPrinterTest, BatchResultSizesColumnsByContent) {
  std::ostringstream out;
  TableauPrinter::printBatch(nameAndScore(), {Row::of("Bob", 10), Row::of("Alice", nullptr)}, out);
  EXPECT_EQ(out.str(),
            "+-------+--------+\n"
            "|  name |  score |\n"
            "+-------+--------+\n"
            "|   Bob |     10 |\n"
            "| Alice | <NULL> |\n"
            "+-------+--------+\n"
            "2 rows in set\n");
}

TEST(TableauPrinterTest, EmptyAndSingleRowResults) {
  std::ostringstream empty;
  TableauPrinter::printBatch(nameAndScore(), {}, empty);
  EXPECT_EQ(empty.str(), "Empty set\n");
  std::ostringstream one;
  TableauPrinter::printBatch(nameAndScore(), {Row::of("Bob", 10)}, one);
  EXPECT_EQ(one.str().substr(one.str().rfind("+\n") + 2), "1 row in set\n");
}

TEST(TableauPrinterTest, StreamingResultHasAnOpColumnAndTypeWidths) {
  std::ostringstream out;
  TableauPrinter printer(nameAndScore(), out);
  printer.begin();
  printer.printRow(Row::of("Alice", 12));
  printer.printRow(Row::ofKind(RowKind::UPDATE_BEFORE, "Alice", 12));
  printer.printRow(Row::ofKind(RowKind::UPDATE_AFTER, "Alice", 112));
  printer.end();
  EXPECT_EQ(out.str(),
            "+----+--------------------------------+-------------+\n"
            "| op |                           name |       score |\n"
            "+----+--------------------------------+-------------+\n"
            "| +I |                          Alice |          12 |\n"
            "| -U |                          Alice |          12 |\n"
            "| +U |                          Alice |         112 |\n"
            "+----+--------------------------------+-------------+\n"
            "Received a total of 3 rows\n");
}

TEST(TableauPrinterTest, FormatsTemporalValuesAsFlinkSql) {
  auto timestamp3 = LogicalType::timestamp(3);
  EXPECT_EQ(TableauPrinter::formatField(Value(LocalDateTime::of(2021, 8, 21, 13, 0)), *timestamp3),
            "2021-08-21 13:00:00.000");
  EXPECT_EQ(TableauPrinter::formatField(Value(LocalDateTime::of(2021, 8, 21, 13, 0, 5, 123456789)),
                                        *LogicalType::timestamp(0)),
            "2021-08-21 13:00:05");
  EXPECT_EQ(TableauPrinter::formatField(Value(Instant::ofEpochMilli(1000)),
                                        *LogicalType::localZonedTimestamp(6)),
            "1970-01-01 00:00:01.000000");
  EXPECT_EQ(TableauPrinter::formatField(Value(10.5), *LogicalType::simple(LogicalTypeRoot::DOUBLE)),
            "10.5");
  EXPECT_EQ(TableauPrinter::formatField(Value(true), *LogicalType::simple(LogicalTypeRoot::BOOLEAN)),
            "TRUE");
}

// Flink 1.15+ shows a field as its CAST to STRING: plain DECIMALs, intervals in SQL form,
// NULL elements of nested values as NULL, booleans upper case at any depth.
TEST(TableauPrinterTest, FormatsValuesAsTheirCastToString) {
  EXPECT_EQ(TableauPrinter::formatField(Value(Decimal::fromUnscaled(0, 14, 13)),
                                        *LogicalType::decimal(14, 13)),
            "0.0000000000000");
  EXPECT_EQ(TableauPrinter::formatField(Value(Decimal::fromString("0.0000001")),
                                        *LogicalType::decimal(8, 7)),
            "0.0000001");
  EXPECT_EQ(TableauPrinter::formatField(Value(Duration::ofSeconds(86400, 0)),
                                        *LogicalType::dayTimeInterval(DayTimeResolution::DAY)),
            "+1 00:00:00.000");
  EXPECT_EQ(TableauPrinter::formatField(Value(Duration::ofSeconds(-5430, 250000000)),
                                        *LogicalType::dayTimeInterval(DayTimeResolution::DAY)),
            "-0 01:30:29.750");
  EXPECT_EQ(TableauPrinter::formatField(Value(Period::of(1, 0, 0)),
                                        *LogicalType::yearMonthInterval(YearMonthResolution::YEAR)),
            "+1-00");
  EXPECT_EQ(TableauPrinter::formatField(Value(Period::of(0, -18, 0)),
                                        *LogicalType::yearMonthInterval(YearMonthResolution::YEAR)),
            "-1-06");
  auto booleans = LogicalType::array(LogicalType::simple(LogicalTypeRoot::BOOLEAN));
  EXPECT_EQ(TableauPrinter::formatField(Value::ofArray({Value(true), Value(), Value(false)}),
                                        *booleans),
            "[TRUE, NULL, FALSE]");
  EXPECT_EQ(TableauPrinter::formatField(Value(), *booleans), "<NULL>");
}

TEST(TableauPrinterTest, TruncatesLongValuesAndCountsWideCharactersTwice) {
  EXPECT_EQ(TableauPrinter::displayWidth("abc"), 3);
  EXPECT_EQ(TableauPrinter::displayWidth("数据"), 4);
  std::ostringstream out;
  std::string longText(40, 'x');
  TableauPrinter::printBatch({{"t", LogicalType::varchar(100)}}, {Row::of(longText)}, out);
  std::string expectedCell = "| ";
  expectedCell.append(27, 'x');
  expectedCell += "... |";
  EXPECT_NE(out.str().find(expectedCell), std::string::npos) << out.str();
  std::ostringstream wide;
  TableauPrinter::printBatch({{"t", LogicalType::varchar(100)}}, {Row::of("数据")}, wide);
  EXPECT_EQ(wide.str(),
            "+------+\n"
            "|    t |\n"
            "+------+\n"
            "| 数据 |\n"
            "+------+\n"
            "1 row in set\n");
}

}  // namespace
}  // namespace eddy::table
