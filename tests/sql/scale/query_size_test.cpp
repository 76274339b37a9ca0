// Queries whose size, not their data, is large: a 12,000-value IN list, long UNION ALL chains,
// deep view chains. They must bind, plan and run without exhausting the stack or the memory
// (planning near-linear in the query's size, no expression depth that grows with a list).
// A crash, an out-of-memory or a wrong row is the failure; nothing here asserts a time.
#include <gtest/gtest.h>

#include <string>

#include "eddy/table/table_environment.h"

namespace eddy {
namespace {

std::string valuesUpTo(int count, int scale = 1) {
  std::string list;
  for (int i = 1; i <= count; ++i) {
    if (i > 1) list += ", ";
    list += std::to_string(i * scale);
  }
  return list;
}

int64_t countOf(TableEnvironment& environment, const std::string& query) {
  TableResult result = environment.executeSql(query);
  std::optional<Row> row = result.next();
  EXPECT_TRUE(row.has_value()) << query.substr(0, 200);
  return row ? row->getField(0).get<int64_t>() : -1;
}

// `x IN (..)` with 12,000 values (was a SIGSEGV: a left-deep OR of 12,000 terms), NOT IN,
// strings, and a list holding NULL (three-valued: no match gives NULL, which WHERE drops).
TEST(QuerySizeTest, InListOfTwelveThousandValues) {
  auto environment = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  environment->executeSql(
      "CREATE TEMPORARY VIEW numbers AS SELECT * FROM (VALUES (1), (2), (3), (7), (24000), "
      "(24001), (CAST(NULL AS INT))) AS t(x)");
  const std::string evens = valuesUpTo(12000, 2);
  EXPECT_EQ(countOf(*environment, "SELECT COUNT(*) FROM numbers WHERE x IN (" + evens + ")"), 2);
  EXPECT_EQ(countOf(*environment, "SELECT COUNT(*) FROM numbers WHERE x NOT IN (" + evens + ")"),
            4);
  EXPECT_EQ(countOf(*environment,
                    "SELECT COUNT(*) FROM numbers WHERE x NOT IN (" + evens + ", NULL)"),
            0);
  std::string words;
  for (int i = 0; i < 12000; ++i) words += (i > 0 ? ", 'w" : "'w") + std::to_string(i) + "'";
  EXPECT_EQ(countOf(*environment,
                    "SELECT COUNT(*) FROM (VALUES ('w7'), ('w12000'), ('x')) AS t(s) WHERE s IN (" +
                        words + ")"),
            1);
  // A list that is no set lookup (DECIMAL constants) is a balanced OR: no deep recursion.
  std::string decimals;
  for (int i = 1; i <= 12000; ++i) decimals += (i > 1 ? ", " : "") + std::to_string(i) + ".5";
  EXPECT_EQ(countOf(*environment,
                    "SELECT COUNT(*) FROM (VALUES (7.5), (0.5)) AS t(d) WHERE d IN (" + decimals +
                        ")"),
            1);
}

// UNION ALL of 2,000 branches: planned in memory linear in the query (sub-plan reuse keyed
// subtrees by their EXPLAIN text, quadratic in size: 1,000 branches took 1.1 GB, 2,000 failed
// with std::bad_alloc). STREAMING and BATCH; reuse shares the equal branches.
TEST(QuerySizeTest, UnionAllOfTwoThousandBranches) {
  std::string branches;
  for (int i = 0; i < 2000; ++i) {
    branches += (i > 0 ? " UNION ALL SELECT " : "SELECT ") + std::to_string(i % 7) + " AS x";
  }
  for (const auto& settings : {EnvironmentSettings::inBatchMode(), EnvironmentSettings::inStreamingMode()}) {
    auto environment = TableEnvironment::create(settings);
    TableResult result = environment->executeSql("SELECT COUNT(*), SUM(x) FROM (" + branches + ")");
    std::vector<Row> rows = result.collectAll();
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows.back().getField(0).get<int64_t>(), 2000);
    EXPECT_EQ(rows.back().getField(1).get<int32_t>(), 5995);  // 285 cycles of 0..6 (21 each), then 0..4
  }
}

// A chain of 2,000 views, each reading the one before (creating the chain bound every view
// below again: quadratic), then a change below it that its reader must see.
TEST(QuerySizeTest, ChainOfTwoThousandViews) {
  auto environment = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  environment->executeSql("CREATE TEMPORARY VIEW v0 AS SELECT 1 AS x");
  for (int i = 1; i <= 2000; ++i) {
    environment->executeSql("CREATE TEMPORARY VIEW v" + std::to_string(i) + " AS SELECT x + 1 AS x FROM v" +
                            std::to_string(i - 1));
  }
  EXPECT_EQ(countOf(*environment, "SELECT CAST(x AS BIGINT) FROM v2000"), 2001);
  // Replacing the bottom view is seen through the whole chain (no stale bound plan).
  environment->executeSql("DROP TEMPORARY VIEW v0");
  environment->executeSql("CREATE TEMPORARY VIEW v0 AS SELECT CAST(10 AS INT) AS x");
  EXPECT_EQ(countOf(*environment, "SELECT CAST(x AS BIGINT) FROM v2000"), 2010);
}

}  // namespace
}  // namespace eddy
