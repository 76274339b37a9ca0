// Changelogs in Kafka, against librdkafka's mock cluster with kcat producing the input and
// reading eddy's output: the upsert-kafka connector (a table whose records are upserts by its
// primary key, read as a normalized changelog and written as records and tombstones), and the
// kafka connector with the changelog formats debezium-json, canal-json and maxwell-json.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "connectors/kafka/kafka_factory.h"
#include "connectors/tests/connector_test_support.h"
#include "connectors/tests/kafka_test_support.h"
#include "connectors/tests/mock_kafka_cluster.h"
#include "eddy/table/table_environment.h"

namespace eddy::connectors {
namespace {

using testing::MockKafkaCluster;
using namespace testing::kafka;

/// An upsert-kafka table of users by id on `topic`, read up to the latest offset.
std::string usersTable(const std::string& name, const std::string& topic,
                       const std::string& bootstrap, const std::string& extraOptions = "") {
  return "CREATE TABLE " + name +
         " (user_id STRING, name STRING, score INT, PRIMARY KEY (user_id) NOT ENFORCED) WITH ("
         "'connector' = 'upsert-kafka', 'topic' = '" +
         topic + "', 'properties.bootstrap.servers' = '" + bootstrap +
         "', 'key.format' = 'json', 'value.format' = 'json', "
         "'scan.bounded.mode' = 'latest-offset'" +
         extraOptions + ")";
}

std::string userKey(const std::string& id) { return R"({"user_id":")" + id + R"("})"; }
std::string user(const std::string& id, const std::string& name, int score) {
  return fmt::format(R"({{"user_id":"{}","name":"{}","score":{}}})", id, name, score);
}

/// The records of the users topic: u1 inserted and updated, u2 inserted, deleted and inserted
/// again, a tombstone of u3 which was never there.
void produceUsers(const MockKafkaCluster& cluster, const std::string& topic) {
  produceKeyed(cluster, topic, 0,
               {{userKey("u1"), user("u1", "Ann", 1)},
                {userKey("u2"), user("u2", "Bob", 2)},
                {userKey("u1"), user("u1", "Ann", 5)},
                {userKey("u2"), std::nullopt},
                {userKey("u3"), std::nullopt},
                {userKey("u1"), user("u1", "Ann", 5)},
                {userKey("u2"), user("u2", "Bob", 7)}});
}

/// The rows of a query in the order they came (one subtask: the topic's order).
std::vector<std::string> changelog(TableResult result) {
  std::vector<std::string> rows;
  for (const Row& row : result.collectAll()) rows.push_back(row.toString());
  return rows;
}

/// What a compacted topic keeps of "key=value" records: each key's last value, a tombstone
/// ("key=NULL") removing the key.
std::map<std::string, std::string> compacted(const std::vector<std::string>& records) {
  std::map<std::string, std::string> table;
  for (const std::string& record : records) {
    const size_t equals = record.find('=');
    const std::string key = record.substr(0, equals);
    const std::string value = record.substr(equals + 1);
    if (value == "NULL") {
      table.erase(key);
    } else {
      table[key] = value;
    }
  }
  return table;
}

std::unique_ptr<TableEnvironment> streamingEnvironment() {
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  tableEnv->getConfig().set("parallelism.default", "1");
  return tableEnv;
}

TEST(UpsertKafkaTest, RecordsAreUpsertsByTheKeyAndTombstonesDeleteIt) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"users:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produceUsers(cluster, "users");
  auto tableEnv = streamingEnvironment();
  tableEnv->executeSql(usersTable("users", "users", cluster.bootstrap()));
  // Normalized per key (Flink's ChangelogNormalize): an update retracts the key's last row, a
  // tombstone deletes it with its last row, a repeated row and a tombstone of an unknown key
  // change nothing.
  EXPECT_EQ(changelog(tableEnv->executeSql("SELECT * FROM users")),
            (std::vector<std::string>{"+I[u1, Ann, 1]", "+I[u2, Bob, 2]", "-U[u1, Ann, 1]",
                                      "+U[u1, Ann, 5]", "-D[u2, Bob, 2]", "+I[u2, Bob, 7]"}));
  // An aggregation over the table sees the deletes (its last row, whatever its kind).
  EXPECT_EQ(
      changelog(tableEnv->executeSql("SELECT COUNT(*), SUM(score) FROM users")).back().substr(2),
      "[2, 12]");
  std::string plan;
  for (const Row& row : tableEnv->executeSql("EXPLAIN SELECT name FROM users").collectAll()) {
    plan += row.toString();
  }
  EXPECT_NE(plan.find("ChangelogNormalize(key=[user_id])"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Exchange(distribution=[hash[user_id]])"), std::string::npos) << plan;

  // A changelog cannot be read in BATCH (Flink's message).
  auto batchEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  batchEnv->executeSql(usersTable("users", "users", cluster.bootstrap()));
  try {
    batchEnv->executeSql("SELECT * FROM users").collectAll();
    FAIL() << "BATCH read an upsert table";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Querying a table in batch mode is currently only possible for INSERT-only table "
              "sources. But the source for table 'default_catalog.default_database.users' "
              "produces other changelog messages than just INSERT.");
  }
}

TEST(UpsertKafkaTest, TheSinkWritesUpsertsAsRecordsAndDeletesAsTombstones) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"users:1", "copies:1", "totals:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produceUsers(cluster, "users");
  auto tableEnv = streamingEnvironment();
  tableEnv->executeSql(usersTable("users", "users", cluster.bootstrap()));
  tableEnv->executeSql(usersTable("copies", "copies", cluster.bootstrap()));
  // Same key: the normalized changelog goes out as upserts (+U without -U) and tombstones.
  tableEnv->executeSql("INSERT INTO copies SELECT * FROM users").await();
  EXPECT_EQ(
      consumeKeyed(cluster, "copies"),
      (std::vector<std::string>{userKey("u1") + "=" + user("u1", "Ann", 1),
                                userKey("u2") + "=" + user("u2", "Bob", 2),
                                userKey("u1") + "=" + user("u1", "Ann", 5), userKey("u2") + "=NULL",
                                userKey("u2") + "=" + user("u2", "Bob", 7)}));
  // An aggregation by another key: each group's row is upserted by the group, its deletion (a
  // group left empty) a tombstone; how many changes a group goes through depends on how the
  // rows are batched, what the topic holds per key does not. EXCEPT_KEY leaves the key's column
  // out of the value.
  tableEnv->executeSql(
      "CREATE TABLE totals (name STRING, total INT, PRIMARY KEY (name) NOT ENFORCED) WITH ("
      "'connector' = 'upsert-kafka', 'topic' = 'totals', 'properties.bootstrap.servers' = '" +
      cluster.bootstrap() +
      "', 'key.format' = 'csv', 'value.format' = 'json', 'value.fields-include' = "
      "'EXCEPT_KEY')");
  tableEnv->executeSql("INSERT INTO totals SELECT name, SUM(score) FROM users GROUP BY name")
      .await();
  EXPECT_EQ(
      compacted(consumeKeyed(cluster, "totals")),
      (std::map<std::string, std::string>{{"Ann", R"({"total":5})"}, {"Bob", R"({"total":7})"}}));
}

TEST(UpsertKafkaTest, TheSinkBufferKeepsEachKeysLastRow) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"users:1", "copies:1", "live:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produceUsers(cluster, "users");
  auto tableEnv = streamingEnvironment();
  tableEnv->executeSql(usersTable("users", "users", cluster.bootstrap()));
  // Flushed at the end of input only (100 keys, an hour): one record per key, its last.
  tableEnv->executeSql(usersTable("copies", "copies", cluster.bootstrap(),
                                  ", 'sink.buffer-flush.max-rows' = '100', "
                                  "'sink.buffer-flush.interval' = '1 h'"));
  tableEnv->executeSql("INSERT INTO copies SELECT * FROM users").await();
  EXPECT_EQ(consumeKeyed(cluster, "copies"),
            (std::vector<std::string>{userKey("u1") + "=" + user("u1", "Ann", 5),
                                      userKey("u2") + "=" + user("u2", "Bob", 7)}));

  // A job that keeps running: the buffer goes out once the interval passed (a processing-time
  // timer), not only at a checkpoint or the end.
  tableEnv->executeSql(
      "CREATE TABLE users_live (user_id STRING, name STRING, score INT, PRIMARY KEY (user_id) NOT "
      "ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'users', "
      "'properties.bootstrap.servers' = '" +
      cluster.bootstrap() + "', 'key.format' = 'json', 'value.format' = 'json')");
  tableEnv->executeSql(usersTable("live", "live", cluster.bootstrap(),
                                  ", 'sink.buffer-flush.max-rows' = '100', "
                                  "'sink.buffer-flush.interval' = '200 ms'"));
  TableResult job = tableEnv->executeSql("INSERT INTO live SELECT * FROM users_live");
  const std::map<std::string, std::string> expected = {{userKey("u1"), user("u1", "Ann", 5)},
                                                       {userKey("u2"), user("u2", "Bob", 7)}};
  std::map<std::string, std::string> live;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (live != expected && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    live = compacted(consumeKeyed(cluster, "live"));
  }
  job.cancel();
  job.await();
  EXPECT_EQ(live, expected);
}

// Flink's versioned table from Kafka: an upsert-kafka table with a watermark is the versioned
// side of an event-time temporal join; each order joins the rate valid at its time.
TEST(UpsertKafkaTest, AnUpsertTableIsAVersionedTableForTemporalJoins) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"rates:1", "orders:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  auto rate = [](const std::string& currency, int value, const std::string& time) {
    return std::pair<std::string, std::optional<std::string>>{
        R"({"currency":")" + currency + R"("})",
        fmt::format(R"({{"currency":"{}","rate":{},"currency_time":"2024-01-01 {}"}})", currency,
                    value, time)};
  };
  produceKeyed(cluster, "rates", 0,
               {rate("US Dollar", 102, "09:00:00"), rate("Euro", 114, "10:00:00"),
                rate("Euro", 116, "10:45:00")});
  produceKeyed(cluster, "orders", 0,
               {{"o1", R"({"amount":2,"currency":"Euro","order_time":"2024-01-01 10:15:00"})"},
                {"o2", R"({"amount":1,"currency":"US Dollar","order_time":"2024-01-01 10:30:00"})"},
                {"o3", R"({"amount":3,"currency":"Euro","order_time":"2024-01-01 10:52:00"})"}});
  auto tableEnv = streamingEnvironment();
  tableEnv->executeSql(
      "CREATE TABLE currency_rates (currency STRING, rate INT, currency_time TIMESTAMP(3), "
      "WATERMARK FOR currency_time AS currency_time, PRIMARY KEY (currency) NOT ENFORCED) WITH ("
      "'connector' = 'upsert-kafka', 'topic' = 'rates', 'properties.bootstrap.servers' = '" +
      cluster.bootstrap() +
      "', 'key.format' = 'json', 'value.format' = 'json', 'scan.bounded.mode' = 'latest-offset')");
  tableEnv->executeSql(
      "CREATE TABLE orders (amount INT, currency STRING, order_time TIMESTAMP(3), WATERMARK FOR "
      "order_time AS order_time) WITH ('connector' = 'kafka', 'topic' = 'orders', "
      "'properties.bootstrap.servers' = '" +
      cluster.bootstrap() +
      "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = "
      "'latest-offset')");
  std::vector<std::string> rows = changelog(tableEnv->executeSql(
      "SELECT o.order_time, o.currency, o.amount * r.rate FROM orders AS o JOIN currency_rates "
      "FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency"));
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{"+I[2024-01-01T10:15, Euro, 228]",
                                            "+I[2024-01-01T10:30, US Dollar, 102]",
                                            "+I[2024-01-01T10:52, Euro, 348]"}));
}

TEST(KafkaChangelogFormatTest, DebeziumRecordsAreReadAsTheirChangelog) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER,
                           {"products:1", "totals-canal-json:1", "totals-maxwell-json:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  // Debezium's records of a products table, a tombstone after the delete (as Debezium writes).
  produceKeyed(
      cluster, "products", 0,
      {{"1", R"({"before":null,"after":{"id":1,"name":"scooter","weight":3.5},"op":"c"})"},
       {"2", R"({"before":null,"after":{"id":2,"name":"battery","weight":8.0},"op":"r"})"},
       {"1",
        R"({"before":{"id":1,"name":"scooter","weight":3.5},"after":{"id":1,"name":"scooter","weight":5.0},"op":"u"})"},
       {"2", R"({"before":{"id":2,"name":"battery","weight":8.0},"after":null,"op":"d"})"},
       {"2", std::nullopt}});
  auto tableEnv = streamingEnvironment();
  tableEnv->executeSql(
      "CREATE TABLE products (id INT, name STRING, weight DOUBLE, `offset` BIGINT METADATA "
      "VIRTUAL) WITH ('connector' = 'kafka', 'topic' = 'products', "
      "'properties.bootstrap.servers' = '" +
      cluster.bootstrap() +
      "', 'format' = 'debezium-json', 'scan.startup.mode' = 'earliest-offset', "
      "'scan.bounded.mode' = 'latest-offset')");
  // Each row carries its record's metadata (an update's two rows the same offset).
  EXPECT_EQ(changelog(tableEnv->executeSql("SELECT * FROM products")),
            (std::vector<std::string>{"+I[1, scooter, 3.5, 0]", "+I[2, battery, 8.0, 1]",
                                      "-U[1, scooter, 3.5, 2]", "+U[1, scooter, 5.0, 2]",
                                      "-D[2, battery, 8.0, 3]"}));
  // Written as canal-json and maxwell-json: the changes an aggregation makes (how many depends
  // on how its input is batched), a retraction as a delete, the last one the final total.
  for (const char* format : {"canal-json", "maxwell-json"}) {
    const std::string topic = std::string("totals-") + format;
    tableEnv->executeSql("DROP TABLE IF EXISTS totals");
    tableEnv->executeSql(
        "CREATE TABLE totals (products BIGINT, weight DOUBLE) WITH ('connector' = 'kafka', "
        "'topic' = '" +
        topic + "', 'properties.bootstrap.servers' = '" + cluster.bootstrap() + "', 'format' = '" +
        format + "')");
    tableEnv->executeSql("INSERT INTO totals SELECT COUNT(*), SUM(weight) FROM products").await();
    std::vector<std::string> records = consumeKeyed(cluster, topic);
    ASSERT_FALSE(records.empty()) << format;
    EXPECT_EQ(records.back(), std::string(format) == "canal-json"
                                  ? R"(NULL={"data":[{"products":1,"weight":5.0}],"type":"INSERT"})"
                                  : R"(NULL={"data":{"products":1,"weight":5.0},"type":"insert"})");
    for (const std::string& record : records) {
      EXPECT_TRUE(record.find(R"("type":"INSERT")") != std::string::npos ||
                  record.find(R"("type":"DELETE")") != std::string::npos ||
                  record.find(R"("type":"insert")") != std::string::npos ||
                  record.find(R"("type":"delete")") != std::string::npos)
          << record;
    }
  }
  // Both formats in BATCH: a changelog source is refused.
  auto batchEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  batchEnv->executeSql(
      "CREATE TABLE products (id INT, name STRING, weight DOUBLE) WITH ('connector' = 'kafka', "
      "'topic' = 'products', 'properties.bootstrap.servers' = '" +
      cluster.bootstrap() +
      "', 'format' = 'debezium-json', 'scan.startup.mode' = 'earliest-offset', "
      "'scan.bounded.mode' = 'latest-offset')");
  EXPECT_EQ(testing::validationMessage(
                [&] { batchEnv->executeSql("SELECT * FROM products").collectAll(); }),
            "Querying a table in batch mode is currently only possible for INSERT-only table "
            "sources. But the source for table 'default_catalog.default_database.products' "
            "produces other changelog messages than just INSERT.");
}

std::string upsertValidationMessage(std::map<std::string, std::string> options,
                                    std::vector<std::string> primaryKey, bool source = true) {
  options.emplace("connector", "upsert-kafka");
  ConnectorContext context = testing::tableContext(
      testing::rowType({{"user_id", testing::stringType()}, {"name", testing::stringType()}}),
      std::move(options));
  context.primaryKey = std::move(primaryKey);
  return validationMessageOf(KafkaTableFactory(/*upsert=*/true), context, source);
}

TEST(UpsertKafkaTest, OptionsAreValidatedWithFlinksMessages) {
  const std::map<std::string, std::string> base = {
      {"topic", "users"},
      {"properties.bootstrap.servers", "localhost:9092"},
      {"key.format", "json"},
      {"value.format", "json"}};
  auto with = [&](const std::map<std::string, std::string>& changes) {
    return withChanges(base, changes);
  };
  EXPECT_EQ(upsertValidationMessage(base, {"user_id"}), "");
  EXPECT_EQ(upsertValidationMessage(base, {"user_id"}, /*source=*/false), "");
  EXPECT_EQ(upsertValidationMessage(base, {}),
            "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY "
            "specifies which columns should be read from or write to the Kafka message key. The "
            "PRIMARY KEY also defines records in the 'upsert-kafka' table should update or delete "
            "on which keys.");
  EXPECT_EQ(upsertValidationMessage(with({{"key.format", ""}}), {"user_id"}),
            "One or more required options are missing.\n\nMissing required options "
            "are:\n\nkey.format");
  EXPECT_EQ(
      upsertValidationMessage(with({{"sink.buffer-flush.max-rows", "100"}}), {"user_id"}, false),
      "'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' must be set to be "
      "greater than zero together to enable sink buffer flushing.");
  EXPECT_EQ(upsertValidationMessage(with({{"sink.buffer-flush.max-rows", "100"},
                                          {"sink.buffer-flush.interval", "1 s"}}),
                                    {"user_id"}, false),
            "");
  // 'kafka' options that upsert-kafka does not have.
  for (const char* key : {"key.fields", "scan.startup.mode", "format", "sink.partitioner"}) {
    EXPECT_EQ(upsertValidationMessage(with({{key, "json"}}), {"user_id"})
                  .rfind("Unsupported options found for 'upsert-kafka'.\n\nUnsupported "
                         "options:\n\n" +
                             std::string(key) + "\n",
                         0),
              0u)
        << key;
  }
  EXPECT_EQ(upsertValidationMessage(with({{"value.format", "debezium-json"}}), {"user_id"}),
            "'upsert-kafka' connector doesn't support 'debezium-json' as value format, because "
            "'debezium-json' is not in insert-only mode.");
  EXPECT_EQ(
      upsertValidationMessage(
          with({{"key.fields-prefix", "k_"}, {"value.fields-include", "EXCEPT_KEY"}}), {"user_id"}),
      "All fields in 'key.fields' must be prefixed with 'k_' when option 'key.fields-prefix' "
      "is set but field 'user_id' is not prefixed.");
}

}  // namespace
}  // namespace eddy::connectors
