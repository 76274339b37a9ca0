// Event time end to end through a TableEnvironment: the Table API's group windows (Tumble,
// Slide, Session) give the rows of the equivalent SQL in both runtime modes, late rows are
// counted in the TableResult, a non-UTC session zone aligns TIMESTAMP_LTZ windows to its wall
// clock, and interval joins pair rows within their bounds. The tables read CSV files written
// to a temporary directory, with a WATERMARK declaration.
#include <gtest/gtest.h>

#include <eddy/table/table_environment.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace eddy {
namespace {

std::vector<std::string> rowsOf(TableResult result) {
  std::vector<std::string> printed;
  for (const Row& row : result.collectAll()) printed.push_back(row.toString());
  return printed;
}

std::vector<std::string> sorted(std::vector<std::string> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

class EventTimeTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("eddy_event_time_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(directory_);
    env_ = TableEnvironment::create(GetParam() ? EnvironmentSettings::inStreamingMode()
                                               : EnvironmentSettings::inBatchMode());
    env_->executeSql("SET 'parallelism.default' = '1'");
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  bool streaming() const { return GetParam(); }

  /// A table `name` over `lines` of CSV with the columns `columns` and the watermark `watermark`.
  void createTable(const std::string& name, const std::string& columns,
                   const std::string& watermark, const std::vector<std::string>& lines) {
    std::filesystem::path file = directory_ / (name + ".csv");
    std::ofstream out(file);
    for (const std::string& line : lines) out << line << "\n";
    out.close();
    env_->executeSql("CREATE TABLE " + name + " (" + columns + ", WATERMARK FOR " + watermark +
                     ") WITH ('connector' = 'filesystem', 'path' = '" + file.string() +
                     "', 'format' = 'csv')");
  }

  /// The Bid rows of Flink's window pages.
  void createBids() {
    createTable("Bid", "bidtime TIMESTAMP(3), price DECIMAL(10, 2), item STRING, supplier STRING",
                "bidtime AS bidtime - INTERVAL '1' SECOND",
                {"2020-04-15 08:05:00,4.00,C,supplier1", "2020-04-15 08:07:00,2.00,A,supplier1",
                 "2020-04-15 08:09:00,5.00,D,supplier2", "2020-04-15 08:11:00,3.00,B,supplier2",
                 "2020-04-15 08:13:00,1.00,E,supplier1", "2020-04-15 08:17:00,6.00,F,supplier2"});
  }

  std::filesystem::path directory_;
  std::unique_ptr<TableEnvironment> env_;
};

TEST_P(EventTimeTest, TumbleWindowOfTheTableApiEqualsTheSqlGroupWindow) {
  createBids();
  Table api = env_->from("Bid")
                  .window(Tumble::over(lit(10).minutes()).on($("bidtime")).as("w"))
                  .groupBy($("w"), $("supplier"))
                  .select($("supplier"), $("w").start().as("window_start"),
                          $("w").end().as("window_end"), $("price").sum().as("total"),
                          $("item").count().as("bids"));
  Table sql = env_->sqlQuery(
      "SELECT supplier, window_start, window_end, SUM(price) AS total, COUNT(item) AS bids "
      "FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)) "
      "GROUP BY window_start, window_end, supplier");
  std::vector<std::string> expected = {
      "+I[supplier1, 2020-04-15T08:00, 2020-04-15T08:10, 6.00, 2]",
      "+I[supplier1, 2020-04-15T08:10, 2020-04-15T08:20, 1.00, 1]",
      "+I[supplier2, 2020-04-15T08:00, 2020-04-15T08:10, 5.00, 1]",
      "+I[supplier2, 2020-04-15T08:10, 2020-04-15T08:20, 9.00, 2]"};
  // Insert-only in both modes: no -U/+U, each window once.
  EXPECT_EQ(sorted(rowsOf(api.execute())), expected);
  EXPECT_EQ(sorted(rowsOf(sql.execute())), expected);
  EXPECT_EQ(api.getResolvedSchema().toString(), sql.getResolvedSchema().toString());
}

TEST_P(EventTimeTest, SlideAndSessionWindowsOfTheTableApi) {
  createBids();
  Table slide = env_->from("Bid")
                    .window(Slide::over(lit(10).minutes())
                                .every(lit(5).minutes())
                                .on($("bidtime"))
                                .as("w"))
                    .groupBy($("w"))
                    .select($("w").start(), $("w").end(), $("w").rowtime(),
                            $("price").sum().as("total"));
  EXPECT_EQ(
      sorted(rowsOf(slide.execute())),
      (std::vector<std::string>{
          "+I[2020-04-15T08:00, 2020-04-15T08:10, 2020-04-15T08:09:59.999, 11.00]",
          "+I[2020-04-15T08:05, 2020-04-15T08:15, 2020-04-15T08:14:59.999, 15.00]",
          "+I[2020-04-15T08:10, 2020-04-15T08:20, 2020-04-15T08:19:59.999, 10.00]",
          "+I[2020-04-15T08:15, 2020-04-15T08:25, 2020-04-15T08:24:59.999, 6.00]"}));
  Table session = env_->from("Bid")
                      .window(Session::withGap(lit(2).minutes()).on($("bidtime")).as("s"))
                      .groupBy($("supplier"), $("s"))
                      .select($("supplier"), $("s").start(), $("s").end(),
                              $("price").sum().as("total"));
  EXPECT_EQ(sorted(rowsOf(session.execute())),
            (std::vector<std::string>{"+I[supplier1, 2020-04-15T08:05, 2020-04-15T08:09, 6.00]",
                                      "+I[supplier1, 2020-04-15T08:13, 2020-04-15T08:15, 1.00]",
                                      "+I[supplier2, 2020-04-15T08:09, 2020-04-15T08:13, 8.00]",
                                      "+I[supplier2, 2020-04-15T08:17, 2020-04-15T08:19, 6.00]"}));
}

TEST_P(EventTimeTest, OverWindowsOfTheTableApiEqualTheSql) {
  createBids();
  Table lastTwo = env_->from("Bid")
                      .window(Over::partitionBy($("supplier"))
                                  .orderBy($("bidtime"))
                                  .preceding(rowInterval(1))
                                  .as("w"))
                      .select($("supplier"), $("item"), $("price").sum().over($("w")).as("last_two"));
  Table sql = env_->sqlQuery(
      "SELECT supplier, item, SUM(price) OVER (PARTITION BY supplier ORDER BY bidtime ROWS "
      "BETWEEN 1 PRECEDING AND CURRENT ROW) AS last_two FROM Bid");
  std::vector<std::string> expected = {"+I[supplier1, A, 6.00]", "+I[supplier1, C, 4.00]",
                                       "+I[supplier1, E, 3.00]", "+I[supplier2, B, 8.00]",
                                       "+I[supplier2, D, 5.00]", "+I[supplier2, F, 9.00]"};
  EXPECT_EQ(sorted(rowsOf(lastTwo.execute())), expected);
  EXPECT_EQ(sorted(rowsOf(sql.execute())), expected);
  // The default frame (UNBOUNDED_RANGE) and an interval frame, in time order.
  Table running = env_->from("Bid")
                      .window(Over::orderBy($("bidtime")).as("w"))
                      .select($("item"), $("price").sum().over($("w")).as("total"));
  EXPECT_EQ(rowsOf(running.execute()),
            (std::vector<std::string>{"+I[C, 4.00]", "+I[A, 6.00]", "+I[D, 11.00]",
                                      "+I[B, 14.00]", "+I[E, 15.00]", "+I[F, 21.00]"}));
  Table recent = env_->from("Bid")
                     .window(Over::orderBy($("bidtime")).preceding(lit(5).minutes()).as("w"))
                     .select($("item"), $("price").max().over($("w")).as("top"));
  EXPECT_EQ(rowsOf(recent.execute()),
            (std::vector<std::string>{"+I[C, 4.00]", "+I[A, 4.00]", "+I[D, 5.00]",
                                      "+I[B, 5.00]", "+I[E, 5.00]", "+I[F, 6.00]"}));
}

TEST_P(EventTimeTest, AGroupWindowNeedsItsAliasAmongTheKeys) {
  createBids();
  GroupWindowedTable windowed =
      env_->from("Bid").window(Tumble::over(lit(10).minutes()).on($("bidtime")).as("w"));
  try {
    windowed.groupBy($("supplier"));
    FAIL() << "groupBy without the window alias must fail";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "A group window expects the window alias 'w' exactly once among the groupBy keys.");
  }
  // A window on a column that is not a time attribute.
  try {
    env_->from("Bid")
        .window(Tumble::over(lit(10).minutes()).on($("price")).as("w"))
        .groupBy($("w"))
        .select($("price").sum());
    FAIL() << "a window on a non-time column must fail";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "The window function requires the timecol is a time attribute type, but is "
                 "DECIMAL(10, 2).");
  }
}

TEST_P(EventTimeTest, LateRowsAreDroppedAndCountedInStreamingOnly) {
  // The 08:09 row comes after 08:11 moved the watermark to 08:10:59: [08:00, 08:10) has fired.
  createTable("Late", "ts TIMESTAMP(3), v INT", "ts AS ts - INTERVAL '1' SECOND",
              {"2020-04-15 08:05:00,1", "2020-04-15 08:11:00,2", "2020-04-15 08:09:00,4"});
  TableResult result = env_->executeSql(
      "SELECT window_start, SUM(v) FROM TABLE(TUMBLE(TABLE Late, DESCRIPTOR(ts), "
      "INTERVAL '10' MINUTES)) GROUP BY window_start, window_end");
  std::vector<std::string> rows = rowsOf(std::move(result));
  if (streaming()) {
    EXPECT_EQ(rows, (std::vector<std::string>{"+I[2020-04-15T08:00, 1]",
                                              "+I[2020-04-15T08:10, 2]"}));
  } else {
    EXPECT_EQ(rows, (std::vector<std::string>{"+I[2020-04-15T08:00, 5]",
                                              "+I[2020-04-15T08:10, 2]"}));
  }
  TableResult counted = env_->executeSql(
      "SELECT window_start, SUM(v) FROM TABLE(TUMBLE(TABLE Late, DESCRIPTOR(ts), "
      "INTERVAL '10' MINUTES)) GROUP BY window_start, window_end");
  counted.await();
  EXPECT_EQ(counted.getNumLateRecordsDropped(), streaming() ? 1 : 0);
}

TEST_P(EventTimeTest, LocalTimeZoneWindowsAlignToTheWallClock) {
  // TIMESTAMP_LTZ rowtime in Asia/Shanghai (UTC+8): a one-day window starts at local midnight,
  // 16:00 UTC of the day before.
  env_->executeSql("SET 'table.local-time-zone' = 'Asia/Shanghai'");
  createTable("Events", "ts TIMESTAMP_LTZ(3), v INT", "ts AS ts - INTERVAL '1' SECOND",
              {"2020-04-14 15:59:59Z,1", "2020-04-14 16:00:00Z,2", "2020-04-15 10:00:00Z,4"});
  EXPECT_EQ(rowsOf(env_->executeSql(
                "SELECT window_start, window_end, window_time, SUM(v) FROM TABLE(TUMBLE(TABLE "
                "Events, DESCRIPTOR(ts), INTERVAL '1' DAY)) GROUP BY window_start, window_end, "
                "window_time")),
            (std::vector<std::string>{
                "+I[2020-04-14T00:00, 2020-04-15T00:00, 2020-04-14T15:59:59.999Z, 1]",
                "+I[2020-04-15T00:00, 2020-04-16T00:00, 2020-04-15T15:59:59.999Z, 6]"}));
}

TEST_P(EventTimeTest, IntervalJoinPairsRowsWithinTheBoundsInclusive) {
  createTable("Orders", "id INT, ts TIMESTAMP(3)", "ts AS ts - INTERVAL '1' SECOND",
              {"1,2020-04-15 08:00:00", "2,2020-04-15 08:00:00", "3,2020-04-15 09:00:00"});
  createTable("Shipments", "order_id INT, ts TIMESTAMP(3)", "ts AS ts - INTERVAL '1' SECOND",
              {"1,2020-04-15 10:00:00", "2,2020-04-15 10:00:00.001", "3,2020-04-15 08:59:59",
               "3,2020-04-15 09:30:00"});
  // Within two hours after the order, both ends inclusive: order 1 at exactly +2 h joins,
  // order 2 at +2 h 1 ms does not; order 3's shipment before the order does not.
  const std::string query =
      "SELECT o.id, TIMESTAMPDIFF(MINUTE, o.ts, s.ts) AS minutes FROM Orders o JOIN Shipments s "
      "ON o.id = s.order_id AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '2' HOUR";
  EXPECT_EQ(sorted(rowsOf(env_->executeSql(query))),
            (std::vector<std::string>{"+I[1, 120]", "+I[3, 30]"}));
  std::string plan = env_->sqlQuery(query).explain();
  EXPECT_NE(plan.find("interval=[rowtime, $1 to $3 within [0, 7200000] ms]"), std::string::npos)
      << plan;
  const std::string left =
      "SELECT o.id, s.order_id FROM Orders o LEFT JOIN Shipments s "
      "ON o.id = s.order_id AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '2' HOUR";
  EXPECT_EQ(sorted(rowsOf(env_->executeSql(left))),
            (std::vector<std::string>{"+I[1, 1]", "+I[2, null]", "+I[3, 3]"}));
}

INSTANTIATE_TEST_SUITE_P(BothModes, EventTimeTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Streaming" : "Batch";
                         });

}  // namespace
}  // namespace eddy
