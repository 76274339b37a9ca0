// Gathering rows into a new chunk and encoding key columns into key bytes.
#include "vector/chunk_operations.h"

#include <gtest/gtest.h>

namespace eddy::vector {
namespace {

LogicalTypePtr rowType() {
  return LogicalType::row({RowField{"name", LogicalType::varchar(2147483647), std::nullopt},
                           RowField{"score", LogicalType::simple(LogicalTypeRoot::INTEGER), std::nullopt},
                           RowField{"at", LogicalType::timestamp(3), std::nullopt},
                           RowField{"price", LogicalType::decimal(10, 2), std::nullopt}});
}

TEST(ChunkOperationsTest, GatherKeepsValuesNullsAndKinds) {
  Chunk chunk = rowsToChunk(
      {Row::of("a", 1, LocalDateTime::of(2021, 8, 21, 13, 0), Decimal::fromString("1.50")),
       Row::ofKind(RowKind::DELETE, "b", nullptr, nullptr, Decimal::fromString("2.00")),
       Row::of(nullptr, 3, LocalDateTime::of(2021, 8, 21, 13, 0, 1, 5000000), nullptr)},
      rowType());
  std::vector<int32_t> rows{2, 1, 2};
  Chunk gathered = gather(chunk, rows.data(), 3);
  std::vector<std::string> printed;
  for (const Row& row : chunkToRows(gathered)) printed.push_back(row.toString());
  EXPECT_EQ(printed, (std::vector<std::string>{"+I[null, 3, 2021-08-21T13:00:01.005, null]",
                                               "-D[b, null, null, 2.00]",
                                               "+I[null, 3, 2021-08-21T13:00:01.005, null]"}));
}

TEST(ChunkOperationsTest, EqualKeysGiveEqualBytesAndNullsDiffer) {
  Chunk chunk = rowsToChunk({Row::of("a", 1, nullptr, nullptr), Row::of("a", 2, nullptr, nullptr),
                             Row::of("a", 1, nullptr, nullptr), Row::of(nullptr, 1, nullptr, nullptr),
                             Row::of("", 1, nullptr, nullptr)},
                            rowType());
  auto keyOf = [&](int64_t row, std::vector<int> columns) {
    std::string bytes;
    appendKeyBytes(chunk, columns, row, bytes);
    return bytes;
  };
  EXPECT_EQ(keyOf(0, {0, 1}), keyOf(2, {0, 1}));
  EXPECT_NE(keyOf(0, {0, 1}), keyOf(1, {0, 1}));
  EXPECT_EQ(keyOf(0, {0}), keyOf(1, {0}));
  EXPECT_NE(keyOf(3, {0}), keyOf(4, {0}));  // NULL is not the empty string
  EXPECT_EQ(keyOf(3, {0}), std::string(1, '\0'));
  EXPECT_EQ(keyOf(0, {}), "");
}

}  // namespace
}  // namespace eddy::vector
