// The session time zone (`table.local-time-zone`) in TableResult: print() shows TIMESTAMP_LTZ
// values as wall-clock times of the zone (Flink's tableau), while collect() returns the
// instants themselves, whatever the zone; INSERT casts a TIMESTAMP into a TIMESTAMP_LTZ sink
// column in the zone.
#include <eddy/exceptions.h>
#include <eddy/table/table_environment.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <sstream>

namespace eddy {
namespace {

constexpr const char* kSummerInstant = "SELECT TO_TIMESTAMP_LTZ(1629550800000, 3) AS ts";

std::unique_ptr<TableEnvironment> environment(bool streaming) {
  auto env = TableEnvironment::create(streaming ? EnvironmentSettings::inStreamingMode()
                                                : EnvironmentSettings::inBatchMode());
  env->executeSql("SET 'parallelism.default' = '1'");
  return env;
}

TEST(TimeZoneTest, BatchPrintShowsTimestampLtzInTheSessionZone) {
  auto env = environment(false);
  std::ostringstream utc;
  env->executeSql(kSummerInstant).print(utc);
  EXPECT_EQ(utc.str(),
            "+-------------------------+\n"
            "|                      ts |\n"
            "+-------------------------+\n"
            "| 2021-08-21 13:00:00.000 |\n"
            "+-------------------------+\n"
            "1 row in set\n");

  env->executeSql("SET 'table.local-time-zone' = 'Europe/Berlin'");
  std::ostringstream berlin;
  env->executeSql(kSummerInstant).print(berlin);
  EXPECT_EQ(berlin.str(),
            "+-------------------------+\n"
            "|                      ts |\n"
            "+-------------------------+\n"
            "| 2021-08-21 15:00:00.000 |\n"
            "+-------------------------+\n"
            "1 row in set\n");
}

TEST(TimeZoneTest, StreamingPrintShowsTimestampLtzInTheSessionZone) {
  auto env = environment(true);
  env->executeSql("SET 'table.local-time-zone' = 'Europe/Berlin'");
  std::ostringstream out;
  // Winter: CET, one hour ahead of UTC.
  env->executeSql("SELECT TO_TIMESTAMP_LTZ(1609459200000, 3) AS ts").print(out);
  EXPECT_EQ(out.str(),
            "+----+-------------------------+\n"
            "| op |                      ts |\n"
            "+----+-------------------------+\n"
            "| +I | 2021-01-01 01:00:00.000 |\n"
            "+----+-------------------------+\n"
            "Received a total of 1 row\n");
}

TEST(TimeZoneTest, CollectReturnsTheInstantWhateverTheZone) {
  auto env = environment(false);
  env->executeSql("SET 'table.local-time-zone' = 'Asia/Shanghai'");
  std::vector<Row> rows = env->executeSql(kSummerInstant).collectAll();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].getField(0), Value(Instant::ofEpochMilli(1629550800000)));
}

TEST(TimeZoneTest, AnInvalidZoneFailsSetAndKeepsTheZoneBefore) {
  auto env = environment(false);
  env->executeSql("SET 'table.local-time-zone' = 'Asia/Shanghai'");
  try {
    env->executeSql("SET 'table.local-time-zone' = 'Mars/Olympus'");
    FAIL() << "SET of an unknown zone succeeded";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()).substr(0, 59),
              "Invalid time zone 'Mars/Olympus' for key 'table.local-time-");
  }
  std::ostringstream out;
  env->executeSql(kSummerInstant).print(out);
  EXPECT_NE(out.str().find("| 2021-08-21 21:00:00.000 |"), std::string::npos) << out.str();
}

TEST(TimeZoneTest, InsertCastsTimestampToTheSinksTimestampLtzInTheSessionZone) {
  namespace fs = std::filesystem;
  std::random_device random;
  fs::path directory =
      fs::temp_directory_path() /
      ("eddy-time-zone-test-" + std::to_string(random()) + std::to_string(random()));
  fs::create_directories(directory);
  {
    auto env = environment(false);
    env->executeSql(
        "CREATE TABLE instants (ts TIMESTAMP_LTZ(3)) WITH ('connector' = "
        "'filesystem', 'path' = '" +
        directory.string() + "', 'format' = 'csv')");
    env->executeSql("SET 'table.local-time-zone' = 'Europe/Berlin'");
    env->executeSql("INSERT INTO instants SELECT TIMESTAMP '2021-08-21 15:00:00'").await();
    env->executeSql("SET 'table.local-time-zone' = 'UTC'");
    std::vector<Row> rows = env->executeSql("SELECT CAST(ts AS STRING) FROM instants").collectAll();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].toString(), "+I[2021-08-21 13:00:00.000]");
  }
  std::error_code ignored;
  fs::remove_all(directory, ignored);
}

}  // namespace
}  // namespace eddy
