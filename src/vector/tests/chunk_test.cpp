// Chunk: rows ↔ chunk round trips (nulls, strings, decimals, timestamps, kinds) and the
// message of a row that does not fit the row type.
#include "vector/chunk.h"

#include <gtest/gtest.h>

#include "eddy/exceptions.h"

namespace eddy::vector {
namespace {

LogicalTypePtr ordersType() {
  return parseLogicalType(
      "ROW<userId STRING, amount DECIMAL(12, 2), ts TIMESTAMP(6), cnt BIGINT, ok BOOLEAN, "
      "tags ARRAY<STRING>>");
}

std::vector<Row> ordersRows() {
  return {
      Row::of("u_1001", Decimal::fromString("10.00"), LocalDateTime::of(2024, 1, 1, 10, 0),
              int64_t{1}, true, Value::ofArray({"a"})),
      Row::ofKind(RowKind::UPDATE_BEFORE, "u_1001", Decimal::fromString("10.00"),
                  LocalDateTime::of(2024, 1, 1, 10, 0), int64_t{1}, true, nullptr),
      Row::ofKind(RowKind::UPDATE_AFTER, nullptr, Decimal::fromString("30.50"),
                  LocalDateTime::of(2024, 1, 1, 10, 1, 0, 123'456'000), int64_t{2}, nullptr,
                  Value::ofArray({})),
      Row::ofKind(RowKind::DELETE, "", nullptr, nullptr, nullptr, false, Value::ofArray({"b"})),
  };
}

TEST(ChunkTest, RowsRoundTripThroughColumns) {
  std::vector<Row> rows = ordersRows();
  Chunk chunk = rowsToChunk(rows, ordersType());
  EXPECT_EQ(chunk.size(), 4);
  EXPECT_EQ(chunk.columnCount(), 6);
  EXPECT_EQ(chunk.rowKinds(), (std::vector<RowKind>{RowKind::INSERT, RowKind::UPDATE_BEFORE,
                                                    RowKind::UPDATE_AFTER, RowKind::DELETE}));
  EXPECT_EQ(chunk.column(0).stringAt(0), "u_1001");
  EXPECT_TRUE(chunk.column(0).isNull(2));
  EXPECT_EQ(chunk.column(1).data<__int128>()[2], 3050);
  EXPECT_TRUE(chunk.column(1).isNull(3));
  EXPECT_EQ(chunk.column(2).nanosOfMillisecond()[2], 456'000);

  std::vector<Row> back = chunkToRows(chunk);
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(back[i], rows[i]) << i;
  EXPECT_EQ(back[0].toString(), "+I[u_1001, 10.00, 2024-01-01T10:00, 1, true, [a]]");
  EXPECT_EQ(back[1].toString(), "-U[u_1001, 10.00, 2024-01-01T10:00, 1, true, null]");
  EXPECT_EQ(back[2].toString(), "+U[null, 30.50, 2024-01-01T10:01:00.123456, 2, null, []]");
  EXPECT_EQ(back[3].toString(), "-D[, null, null, null, false, [b]]");
  EXPECT_EQ(back[2].getFieldAs<int64_t>("cnt"), 2);
  EXPECT_EQ(*back[0].getFieldNames(true),
            (std::vector<std::string>{"userId", "amount", "ts", "cnt", "ok", "tags"}));
}

TEST(ChunkTest, DecimalsAreRescaledToTheColumnType) {
  Chunk chunk = rowsToChunk({Row::of(Decimal::fromString("10.5"))},
                            parseLogicalType("ROW<price DECIMAL(12, 2)>"));
  Row row = chunk.rowAt(0);
  EXPECT_EQ(row.toString(), "+I[10.50]");
  EXPECT_EQ(row.getFieldAs<Decimal>(0).precision(), 12);
}

TEST(ChunkTest, NameBasedRowsAreMatchedByName) {
  Row named = Row::withNames(RowKind::UPDATE_AFTER);
  named.setField("score", 12);
  named.setField("name", "Alice");
  Chunk chunk = rowsToChunk({named}, parseLogicalType("ROW<name STRING, score INT, extra INT>"));
  EXPECT_EQ(chunk.rowAt(0).toString(), "+U[Alice, 12, null]");
}

TEST(ChunkTest, AFieldOfTheWrongTypeNamesTheRowAndTheColumn) {
  LogicalTypePtr type = parseLogicalType("ROW<name STRING, score INT>");
  Chunk chunk(type);
  chunk.appendRow(Row::of("Alice", 12));
  chunk.appendRow(Row::of("Bob", 10));
  try {
    chunk.appendRow(Row::of("John", "abc"));
    FAIL() << "expected an exception";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Cannot convert the row at index 2 to ROW<`name` STRING, `score` INT>: field "
                 "'score' (position 1) expects INT but got STRING value 'abc'.");
  }
  // The failed row left nothing behind.
  EXPECT_EQ(chunk.size(), 2);
  EXPECT_EQ(chunk.column(0).size(), 2);
  chunk.appendRow(Row::of("Carol", 7));
  EXPECT_EQ(chunkToRows(chunk)[2].toString(), "+I[Carol, 7]");

  try {
    rowsToChunk({Row::of("a", 1), Row::of("b", 2, 3)}, type);
    FAIL() << "expected an exception";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Cannot convert the row at index 1 to ROW<`name` STRING, `score` INT>: it has 3 "
                 "fields but the row type has 2.");
  }
  EXPECT_THROW(Chunk(parseLogicalType("INT")), ValidationException);
}

}  // namespace
}  // namespace eddy::vector
