// Gathering rows into a new chunk and encoding key columns into key bytes.
#include "vector/chunk_operations.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

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

/// The rows of `chunk` in the order of their sort key bytes over `columns` (ties by position),
/// printed (a 0 byte as <0>).
std::vector<std::string> sortedBySortKeyBytes(const Chunk& chunk, const std::vector<SortColumn>& columns) {
  std::vector<std::pair<std::string, int64_t>> keyed;
  for (int64_t row = 0; row < chunk.size(); ++row) {
    std::string bytes;
    appendSortKeyBytes(chunk, columns, row, bytes);
    keyed.emplace_back(std::move(bytes), row);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::string> printed;
  for (const auto& [bytes, row] : keyed) {
    std::string text;
    for (char c : chunk.rowAt(row).toString()) text += c == 0 ? std::string("<0>") : std::string(1, c);
    printed.push_back(text);
  }
  return printed;
}

TEST(ChunkOperationsTest, SortKeyBytesOrderNumbersStringsAndNullsAsOrderBy) {
  LogicalTypePtr type = LogicalType::row(
      {RowField{"n", LogicalType::simple(LogicalTypeRoot::BIGINT), std::nullopt},
       RowField{"d", LogicalType::simple(LogicalTypeRoot::DOUBLE), std::nullopt},
       RowField{"s", LogicalType::varchar(2147483647), std::nullopt}});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Chunk chunk = rowsToChunk({Row::of(int64_t{5}, 0.0, "b"), Row::of(int64_t{-7}, -0.0, "a"),
                             Row::of(nullptr, nan, std::string("a\0", 2)),
                             Row::of(int64_t{INT64_MIN}, -inf, ""),
                             Row::of(int64_t{INT64_MAX}, inf, "ab"),
                             Row::of(int64_t{0}, -2.5, nullptr)},
                            type);
  // BIGINT ascending, NULLs first; descending, NULLs last.
  EXPECT_EQ(sortedBySortKeyBytes(chunk, {SortColumn{0, true, true}}),
            (std::vector<std::string>{"+I[null, NaN, a<0>]", "+I[-9223372036854775808, -Infinity, ]",
                                      "+I[-7, -0.0, a]", "+I[0, -2.5, null]", "+I[5, 0.0, b]",
                                      "+I[9223372036854775807, Infinity, ab]"}));
  EXPECT_EQ(sortedBySortKeyBytes(chunk, {SortColumn{0, false, false}}),
            (std::vector<std::string>{"+I[9223372036854775807, Infinity, ab]", "+I[5, 0.0, b]",
                                      "+I[0, -2.5, null]", "+I[-7, -0.0, a]",
                                      "+I[-9223372036854775808, -Infinity, ]",
                                      "+I[null, NaN, a<0>]"}));
  // DOUBLE as Java's Double.compare: -Infinity < -2.5 < -0.0 < 0.0 < Infinity < NaN.
  EXPECT_EQ(sortedBySortKeyBytes(chunk, {SortColumn{1, true, true}}),
            (std::vector<std::string>{"+I[-9223372036854775808, -Infinity, ]", "+I[0, -2.5, null]",
                                      "+I[-7, -0.0, a]", "+I[5, 0.0, b]",
                                      "+I[9223372036854775807, Infinity, ab]",
                                      "+I[null, NaN, a<0>]"}));
  // Strings by their bytes; a string before its extensions, also one with a 0 byte.
  EXPECT_EQ(sortedBySortKeyBytes(chunk, {SortColumn{2, true, false}}),
            (std::vector<std::string>{"+I[-9223372036854775808, -Infinity, ]", "+I[-7, -0.0, a]",
                                      "+I[null, NaN, a<0>]", "+I[9223372036854775807, Infinity, ab]",
                                      "+I[5, 0.0, b]", "+I[0, -2.5, null]"}));
  EXPECT_EQ(sortedBySortKeyBytes(chunk, {SortColumn{2, false, true}}),
            (std::vector<std::string>{"+I[0, -2.5, null]", "+I[5, 0.0, b]",
                                      "+I[9223372036854775807, Infinity, ab]", "+I[null, NaN, a<0>]",
                                      "+I[-7, -0.0, a]", "+I[-9223372036854775808, -Infinity, ]"}));
}

TEST(ChunkOperationsTest, SortKeyBytesWithoutNullsHaveNoMarker) {
  LogicalTypePtr type = LogicalType::row(
      {RowField{"n", LogicalType::simple(LogicalTypeRoot::BIGINT), std::nullopt}});
  Chunk chunk = rowsToChunk({Row::of(int64_t{300}), Row::of(int64_t{-1}), Row::of(int64_t{2})}, type);
  std::vector<std::string> keys;
  for (int64_t row = 0; row < 3; ++row) {
    std::string bytes;
    appendSortKeyBytes(chunk, {SortColumn{0, true, true, /*withoutNulls=*/true}}, row, bytes);
    EXPECT_EQ(bytes.size(), 8u);  // the value alone: one 8-byte prefix holds the whole key
    keys.push_back(bytes);
  }
  EXPECT_LT(keys[1], keys[2]);
  EXPECT_LT(keys[2], keys[0]);
}

TEST(ChunkOperationsTest, SortKeyBytesOfSeveralColumnsCompareColumnByColumn) {
  Chunk chunk = rowsToChunk({Row::of("a", 2, LocalDateTime::of(2021, 8, 21, 13, 0, 0, 1), nullptr),
                             Row::of("a", 2, LocalDateTime::of(2021, 8, 21, 13, 0), Decimal::fromString("-1.50")),
                             Row::of("a", 1, nullptr, Decimal::fromString("2.00")),
                             Row::of("", 3, nullptr, Decimal::fromString("-3.00"))},
                            rowType());
  EXPECT_EQ(sortedBySortKeyBytes(chunk, {SortColumn{0, true, true}, SortColumn{1, false, true},
                                         SortColumn{2, true, true}}),
            (std::vector<std::string>{"+I[, 3, null, -3.00]", "+I[a, 2, 2021-08-21T13:00, -1.50]",
                                      "+I[a, 2, 2021-08-21T13:00:00.000000001, null]",
                                      "+I[a, 1, null, 2.00]"}));
  EXPECT_EQ(sortedBySortKeyBytes(chunk, {SortColumn{3, true, false}}),
            (std::vector<std::string>{"+I[, 3, null, -3.00]", "+I[a, 2, 2021-08-21T13:00, -1.50]",
                                      "+I[a, 1, null, 2.00]",
                                      "+I[a, 2, 2021-08-21T13:00:00.000000001, null]"}));
}

}  // namespace
}  // namespace eddy::vector
