// The kafka connector against a real Kafka protocol peer: librdkafka's mock cluster, run as its
// own process (eddy_kafka_mock_cluster, on loopback ports), with Debian's kcat as the
// independent client that produces the input and reads eddy's output. A test whose cluster or
// kcat cannot be started fails; none is skipped.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <thread>

#include "connectors/kafka/kafka_client.h"
#include "connectors/kafka/kafka_factory.h"
#include "connectors/kafka/kafka_source.h"
#include "connectors/tests/connector_test_support.h"
#include "connectors/tests/kafka_test_support.h"
#include "connectors/tests/mock_kafka_cluster.h"
#include "connectors/tests/source_checkpoint_harness.h"
#include "eddy/table/table_environment.h"

namespace eddy::connectors {
namespace {

using testing::MockKafkaCluster;
using testing::TemporaryDirectory;
using namespace testing::kafka;

std::string ordersTable(const std::string& bootstrap, const std::string& extraOptions) {
  return "CREATE TABLE orders (order_id STRING, amount INT) WITH ("
         "'connector' = 'kafka', 'topic' = 'orders', 'properties.bootstrap.servers' = '" +
         bootstrap + "', 'format' = 'json'" + extraOptions + ")";
}

TEST(KafkaTest, ABoundedScanReadsEveryPartitionFromTheEarliestOffset) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"orders:3"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produce(cluster, "orders", 0, {R"({"order_id":"a","amount":1})", R"({"order_id":"b","amount":2})"});
  produce(cluster, "orders", 1, {R"({"order_id":"c","amount":3})"});
  produce(cluster, "orders", 2, {R"({"order_id":"d","amount":4})", R"({"order_id":"e","amount":5})"});
  for (bool batch : {true, false}) {
    auto tableEnv = TableEnvironment::create(batch ? EnvironmentSettings::inBatchMode()
                                                   : EnvironmentSettings::inStreamingMode());
    tableEnv->executeSql(ordersTable(cluster.bootstrap(),
                                     ", 'scan.startup.mode' = 'earliest-offset', "
                                     "'scan.bounded.mode' = 'latest-offset'"));
    EXPECT_EQ(sortedRows(tableEnv->executeSql("SELECT order_id, amount * 10 FROM orders")),
              (std::vector<std::string>{"+I[a, 10]", "+I[b, 20]", "+I[c, 30]", "+I[d, 40]",
                                        "+I[e, 50]"}))
        << (batch ? "BATCH" : "STREAMING");
  }
}

TEST(KafkaTest, StartupAndBoundedModesPickTheirOffsets) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"orders:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  std::vector<std::string> records;
  for (int i = 0; i < 6; ++i) records.push_back(R"({"order_id":"o)" + std::to_string(i) + R"(","amount":)" + std::to_string(i) + "}");
  produce(cluster, "orders", 0, records);
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  tableEnv->executeSql(ordersTable(
      cluster.bootstrap(),
      ", 'scan.startup.mode' = 'specific-offsets', 'scan.startup.specific-offsets' = "
      "'partition:0,offset:2', 'scan.bounded.mode' = 'specific-offsets', "
      "'scan.bounded.specific-offsets' = 'partition:0,offset:4'"));
  EXPECT_EQ(sortedRows(tableEnv->executeSql("SELECT * FROM orders")),
            (std::vector<std::string>{"+I[o2, 2]", "+I[o3, 3]"}));
  // latest-offset reads nothing of what is there already.
  tableEnv->executeSql("DROP TABLE orders");
  tableEnv->executeSql(ordersTable(cluster.bootstrap(),
                                   ", 'scan.startup.mode' = 'latest-offset', "
                                   "'scan.bounded.mode' = 'latest-offset'"));
  EXPECT_EQ(sortedRows(tableEnv->executeSql("SELECT * FROM orders")), std::vector<std::string>{});
}

TEST(KafkaTest, MetadataColumnsReadEachRecordsTopicPartitionOffsetTimestampAndHeaders) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"orders:2"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produce(cluster, "orders", 1, {R"({"order_id":"a","amount":1})", R"({"order_id":"b","amount":2})"});
  ASSERT_EQ(run("echo '{\"order_id\":\"c\",\"amount\":3}' | kcat -P -b " + cluster.bootstrap() +
                " -t orders -p 0 -H region=eu -H tier=gold"),
            0);
  for (bool batch : {true, false}) {
    auto tableEnv = TableEnvironment::create(batch ? EnvironmentSettings::inBatchMode()
                                                   : EnvironmentSettings::inStreamingMode());
    tableEnv->executeSql(
        "CREATE TABLE orders (order_id STRING, amount INT, "
        "`topic` STRING METADATA VIRTUAL, `partition` INT METADATA VIRTUAL, "
        "`offset` BIGINT METADATA VIRTUAL, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL, "
        "tt STRING METADATA FROM 'timestamp-type' VIRTUAL, headers MAP<STRING, BYTES> METADATA "
        "VIRTUAL) WITH ('connector' = 'kafka', 'topic' = 'orders', "
        "'properties.bootstrap.servers' = '" + cluster.bootstrap() + "', 'format' = 'json', "
        "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset')");
    EXPECT_EQ(sortedRows(tableEnv->executeSql(
                  "SELECT order_id, `topic`, `partition`, `offset`, tt, "
                  "ABS(TIMESTAMPDIFF(SECOND, ts, CURRENT_TIMESTAMP)) < 600, "
                  "CAST(headers['region'] AS STRING), CARDINALITY(headers) FROM orders")),
              (std::vector<std::string>{"+I[a, orders, 1, 0, CreateTime, true, null, 0]",
                                        "+I[b, orders, 1, 1, CreateTime, true, null, 0]",
                                        "+I[c, orders, 0, 0, CreateTime, true, eu, 2]"}))
        << (batch ? "BATCH" : "STREAMING");
  }
}

// Persisted METADATA columns are written (Flink's SupportsWritingMetadata): each record's
// headers and timestamp, in the sink's order whatever the declared one, read back by kcat and by
// the same table.
TEST(KafkaTest, MetadataColumnsWriteEachRecordsHeadersAndTimestamp) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"events:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  tableEnv->executeSql(
      "CREATE TABLE events (ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', id STRING, "
      "hdrs MAP<STRING, BYTES> METADATA FROM 'headers', `offset` BIGINT METADATA VIRTUAL) WITH "
      "('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '" +
      cluster.bootstrap() +
      "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = "
      "'latest-offset')");
  tableEnv
      ->executeSql(
          "INSERT INTO events VALUES (TO_TIMESTAMP_LTZ(1700000000123, 3), 'a', "
          "MAP['zone', CAST('eu' AS BYTES), 'tier', CAST('gold' AS BYTES)]), "
          "(CAST(NULL AS TIMESTAMP_LTZ(3)), 'b', MAP['zone', CAST(NULL AS BYTES)])")
      .await();
  TemporaryDirectory directory("eddy-kafka-test-");
  const std::filesystem::path file = directory.path() / "out";
  ASSERT_EQ(run("kcat -C -b " + cluster.bootstrap() +
                " -t events -p 0 -o beginning -e -q -f '%T|%h|%s\\n' > " + file.string()),
            0);
  std::istringstream lines(testing::readFile(file));
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_EQ(first, R"(1700000000123|zone=eu,tier=gold|{"id":"a"})");
  // No timestamp: the producer's clock (within the last 10 minutes).
  const int64_t stamped = std::stoll(second.substr(0, second.find('|')));
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  EXPECT_LT(std::abs(now - stamped), 600'000) << second;
  EXPECT_EQ(second.substr(second.find('|')), R"(|zone=NULL|{"id":"b"})");  // a header without value
  EXPECT_EQ(sortedRows(tableEnv->executeSql(
                "SELECT id, `offset`, ts = TO_TIMESTAMP_LTZ(1700000000123, 3), "
                "CAST(hdrs['zone'] AS STRING), CARDINALITY(hdrs) FROM events")),
            (std::vector<std::string>{"+I[a, 0, true, eu, 2]", "+I[b, 1, false, null, 1]"}));
  // Keys the sink does not write, and types it cannot take (Flink's messages).
  tableEnv->executeSql(
      "CREATE TABLE offsets (id STRING, o BIGINT METADATA FROM 'offset') WITH ('connector' = "
      "'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '" +
      cluster.bootstrap() + "', 'format' = 'json')");
  EXPECT_EQ(testing::validationMessage(
                [&] { tableEnv->executeSql("INSERT INTO offsets VALUES ('c', 1)").await(); }),
            "Invalid metadata key 'offset' in column 'o' of table "
            "'default_catalog.default_database.offsets'. The connector 'kafka' supports the "
            "following metadata keys for writing:\nheaders\ntimestamp");
  tableEnv->executeSql(
      "CREATE TABLE flags (id STRING, ts BOOLEAN METADATA FROM 'timestamp') WITH ('connector' = "
      "'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '" +
      cluster.bootstrap() + "', 'format' = 'json')");
  EXPECT_EQ(testing::validationMessage(
                [&] { tableEnv->executeSql("INSERT INTO flags VALUES ('c', true)").await(); }),
            "Invalid data type for metadata column 'ts' of table "
            "'default_catalog.default_database.flags'. The column cannot be declared as "
            "'BOOLEAN' because the type must be castable to metadata type 'TIMESTAMP_LTZ(3)'.");
}

// The raw format: a record's key and value are the bytes of one column each; a record without
// a value is a row with NULL (Flink's).
TEST(KafkaTest, RawKeysAndValuesAreTheRecordsBytes) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"lines:1", "shouted:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produceKeyed(cluster, "lines", 0, {{"k1", "hello, \"world\""}, {"k2", std::nullopt}});
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  for (const char* table : {"lines", "shouted"}) {
    tableEnv->executeSql(fmt::format(
        "CREATE TABLE {0} (k STRING, v STRING) WITH ('connector' = 'kafka', 'topic' = '{0}', "
        "'properties.bootstrap.servers' = '{1}', 'key.format' = 'raw', 'key.fields' = 'k', "
        "'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY', 'scan.startup.mode' = "
        "'earliest-offset', 'scan.bounded.mode' = 'latest-offset')",
        table, cluster.bootstrap()));
  }
  EXPECT_EQ(sortedRows(tableEnv->executeSql("SELECT * FROM lines")),
            (std::vector<std::string>{"+I[k1, hello, \"world\"]", "+I[k2, null]"}));
  tableEnv->executeSql("INSERT INTO shouted SELECT k, UPPER(v) FROM lines WHERE v IS NOT NULL")
      .await();
  EXPECT_EQ(consumeKeyed(cluster, "shouted"), std::vector<std::string>{"k1=HELLO, \"WORLD\""});
}

TEST(KafkaTest, ATopicPatternReadsEveryTopicWhoseNameMatches) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"orders-eu:1", "orders-us:2", "other:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produce(cluster, "orders-eu", 0, {R"({"order_id":"a","amount":1})"});
  produce(cluster, "orders-us", 1, {R"({"order_id":"b","amount":2})"});
  produce(cluster, "other", 0, {R"({"order_id":"c","amount":3})"});
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  tableEnv->executeSql(
      "CREATE TABLE orders (order_id STRING, amount INT, `topic` STRING METADATA VIRTUAL) WITH ("
      "'connector' = 'kafka', 'topic-pattern' = 'orders-.*', 'properties.bootstrap.servers' = '" +
      cluster.bootstrap() + "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset', "
      "'scan.bounded.mode' = 'latest-offset')");
  EXPECT_EQ(sortedRows(tableEnv->executeSql("SELECT order_id, `topic` FROM orders")),
            (std::vector<std::string>{"+I[a, orders-eu]", "+I[b, orders-us]"}));
}

TEST(KafkaTest, TheFixedPartitionerWritesEverySubtasksRecordsToOnePartition) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"fixed:4", "spread:4", "turns:4"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  // Without stickiness librdkafka's default partitioner puts each record without a key into a
  // random partition, so the default spreads 200 records over all four.
  tableEnv->executeSql(
      "CREATE TABLE numbers (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '200', "
      "'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '200')");
  for (const std::string& topic :
       {std::string("fixed"), std::string("spread"), std::string("turns")}) {
    tableEnv->executeSql("CREATE TABLE " + topic +
                         " (n BIGINT) WITH ('connector' = 'kafka', 'topic' = '" + topic +
                         "', 'properties.bootstrap.servers' = '" + cluster.bootstrap() +
                         "', 'format' = 'csv', 'sink.parallelism' = '1', "
                         "'properties.sticky.partitioning.linger.ms' = '0'" +
                         (topic == "fixed"   ? ", 'sink.partitioner' = 'fixed')"
                          : topic == "turns" ? ", 'sink.partitioner' = 'round-robin')"
                                             : ")"));
    tableEnv->executeSql("INSERT INTO " + topic + " SELECT n FROM numbers").await();
  }
  auto partitionsOf = [&](const std::string& topic) {
    std::set<std::string> partitions;
    std::vector<std::string> lines = consume(cluster, topic);
    EXPECT_EQ(lines.size(), 200u) << topic;
    for (const std::string& line : lines) partitions.insert(line.substr(0, line.find(':')));
    return partitions;
  };
  EXPECT_EQ(partitionsOf("fixed"), (std::set<std::string>{"0"}));  // subtask 1 of 1: partition 0
  EXPECT_EQ(partitionsOf("spread"), (std::set<std::string>{"0", "1", "2", "3"}));
  // 'round-robin': one record per partition in turn, so 50 in each.
  std::map<std::string, int> turns;
  for (const std::string& line : consume(cluster, "turns")) ++turns[line.substr(0, line.find(':'))];
  EXPECT_EQ(turns, (std::map<std::string, int>{{"0", 50}, {"1", 50}, {"2", 50}, {"3", 50}}));
}

/// Kafka's Java producer's hash of a record key (org.apache.kafka.common.utils.Utils#murmur2,
/// MurmurHash2 with seed 0x9747b28c), written here from the algorithm.
int32_t javaMurmur2(const std::string& key) {
  const auto* data = reinterpret_cast<const uint8_t*>(key.data());
  const uint32_t length = static_cast<uint32_t>(key.size());
  const uint32_t m = 0x5bd1e995;
  uint32_t h = 0x9747b28c ^ length;
  for (uint32_t i = 0; i + 4 <= length; i += 4) {
    uint32_t k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) |
                 (static_cast<uint32_t>(data[i + 3]) << 24);
    k *= m;
    k ^= k >> 24;
    k *= m;
    h *= m;
    h ^= k;
  }
  const uint32_t tail = length & ~3U;
  switch (length % 4) {
    case 3:
      h ^= static_cast<uint32_t>(data[tail + 2]) << 16;
      [[fallthrough]];
    case 2:
      h ^= static_cast<uint32_t>(data[tail + 1]) << 8;
      [[fallthrough]];
    case 1:
      h ^= data[tail];
      h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return static_cast<int32_t>(h);
}

// 'key.format' / 'key.fields' / 'value.fields-include' = 'EXCEPT_KEY': the sink writes the key
// columns as the record key (placed by the key's murmur2 hash, where Kafka's Java producer puts
// it) and the others as the value; a source with the same options reads them back into the
// declared columns; a record without a key gives no row (Flink's DynamicKafkaDeserializationSchema
// emits one row per key row).
TEST(KafkaTest, KeyFieldsAreTheRecordKey) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"users:3"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  const std::string options =
      "'connector' = 'kafka', 'topic' = 'users', "
      "'properties.bootstrap.servers' = '" +
      cluster.bootstrap() +
      "', 'key.format' = 'json', 'key.fields' = 'user_id', "
      "'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY'";
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  tableEnv->executeSql(
      "CREATE TABLE users_out (user_id STRING, region STRING, total BIGINT) WITH (" + options +
      ")");
  tableEnv
      ->executeSql(
          "INSERT INTO users_out VALUES ('u1', 'eu', 5), ('u2', 'us', 7), ('u3', 'eu', 1), "
          "('u4', 'ap', 2), ('u5', 'us', 3)")
      .await();
  TemporaryDirectory directory("eddy-kafka-test-");
  const std::filesystem::path file = directory.path() / "out";
  ASSERT_EQ(run("kcat -C -b " + cluster.bootstrap() +
                " -t users -o beginning -e -q -f "
                "'%p|%k|%s\\n' > " +
                file.string()),
            0);
  std::vector<std::string> records;
  std::istringstream in(testing::readFile(file));
  for (std::string line; std::getline(in, line);) records.push_back(line);
  std::sort(records.begin(), records.end(), [](const std::string& a, const std::string& b) {
    return a.substr(a.find('|')) < b.substr(b.find('|'));
  });
  std::vector<std::string> expected;
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"u1", R"({"region":"eu","total":5})"},
      {"u2", R"({"region":"us","total":7})"},
      {"u3", R"({"region":"eu","total":1})"},
      {"u4", R"({"region":"ap","total":2})"},
      {"u5", R"({"region":"us","total":3})"}};
  for (const auto& [user, value] : rows) {
    const std::string key = R"({"user_id":")" + user + R"("})";
    const int partition = (javaMurmur2(key) & 0x7fffffff) % 3;
    expected.push_back(std::to_string(partition) + "|" + key + "|" + value);
  }
  EXPECT_EQ(records, expected);

  produce(cluster, "users", 0, {R"({"region":"xx","total":9})"});  // no key: no row
  tableEnv->executeSql(
      "CREATE TABLE users_in (region STRING, user_id STRING, total BIGINT) WITH (" + options +
      ", 'scan.startup.mode' = 'earliest-offset', "
      "'scan.bounded.mode' = 'latest-offset')");
  EXPECT_EQ(sortedRows(tableEnv->executeSql("SELECT * FROM users_in")),
            (std::vector<std::string>{"+I[ap, u4, 2]", "+I[eu, u1, 5]", "+I[eu, u3, 1]",
                                      "+I[us, u2, 7]", "+I[us, u5, 3]"}));

  // A key the key format cannot read fails the job naming it as the record key.
  ASSERT_EQ(run("echo 'not json|{\"region\":\"zz\",\"total\":1}' | kcat -P -b " +
                cluster.bootstrap() + " -t users -p 1 -K '|'"),
            0);
  try {
    tableEnv->executeSql("SELECT * FROM users_in").collectAll();
    ADD_FAILURE() << "a malformed key was read";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("Failed to deserialize JSON row "), std::string::npos)
        << error.what();
    EXPECT_NE(
        std::string(error.what()).find(" of Kafka topic 'users' partition 1 (the record key): "),
        std::string::npos)
        << error.what();
  }
}

TEST(KafkaTest, TheSinkWritesJsonRecordsThatKcatReads) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"totals:2"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  tableEnv->executeSql(
      "CREATE TABLE totals (user_id STRING, total BIGINT) WITH ('connector' = 'kafka', "
      "'topic' = 'totals', 'properties.bootstrap.servers' = '" + cluster.bootstrap() +
      "', 'format' = 'json', 'sink.partitioner' = 'fixed', 'sink.parallelism' = '1')");
  tableEnv->executeSql(
      "INSERT INTO totals SELECT user_id, SUM(amount) FROM (VALUES ('u1', 5), ('u2', 7), "
      "('u1', 10)) AS t(user_id, amount) GROUP BY user_id")
      .await();
  // 'fixed': subtask 1 of 1 writes partition 0, the records at offsets 0 and 1.
  std::vector<std::string> lines = consume(cluster, "totals");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].substr(0, 4), "0:0 ");
  EXPECT_EQ(lines[1].substr(0, 4), "0:1 ");
  std::vector<std::string> values = {lines[0].substr(4), lines[1].substr(4)};
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, (std::vector<std::string>{R"({"user_id":"u1","total":15})",
                                              R"({"user_id":"u2","total":7})"}));
}

TEST(KafkaTest, AStreamingJobCopiesOneTopicIntoAnother) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"orders:2", "copies:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produce(cluster, "orders", 0, {R"({"order_id":"a","amount":1})"});
  produce(cluster, "orders", 1, {R"({"order_id":"b","amount":2})"});
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  tableEnv->executeSql(ordersTable(cluster.bootstrap(),
                                   ", 'scan.startup.mode' = 'earliest-offset', "
                                   "'scan.bounded.mode' = 'latest-offset'"));
  tableEnv->executeSql(
      "CREATE TABLE copies (order_id STRING, amount INT) WITH ('connector' = 'kafka', "
      "'topic' = 'copies', 'properties.bootstrap.servers' = '" + cluster.bootstrap() +
      "', 'value.format' = 'csv')");
  tableEnv->executeSql("INSERT INTO copies SELECT order_id, amount + 100 FROM orders").await();
  std::vector<std::string> values;
  for (const std::string& line : consume(cluster, "copies")) values.push_back(line.substr(line.find(' ') + 1));
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, (std::vector<std::string>{"a,101", "b,102"}));
}

TEST(KafkaTest, AMalformedRecordFailsTheJobNamingTopicPartitionAndOffset) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"orders:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produce(cluster, "orders", 0, {R"({"order_id":"a","amount":1})", R"({"order_id":"b","amount":"x"})"});
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  tableEnv->executeSql(ordersTable(cluster.bootstrap(),
                                   ", 'scan.startup.mode' = 'earliest-offset', "
                                   "'scan.bounded.mode' = 'latest-offset'"));
  try {
    tableEnv->executeSql("SELECT * FROM orders").collectAll();
    FAIL() << "the malformed record was not reported";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find(
                  "Failed to deserialize JSON row 1 of Kafka topic 'orders' partition 0: "
                  "column 'amount'"),
              std::string::npos)
        << error.what();
  }
  // With json.ignore-parse-errors the record is skipped and the others are read.
  tableEnv->executeSql("DROP TABLE orders");
  tableEnv->executeSql(ordersTable(cluster.bootstrap(),
                                   ", 'scan.startup.mode' = 'earliest-offset', "
                                   "'scan.bounded.mode' = 'latest-offset', "
                                   "'json.ignore-parse-errors' = 'true'"));
  EXPECT_EQ(sortedRows(tableEnv->executeSql("SELECT order_id FROM orders")),
            (std::vector<std::string>{"+I[a]", "+I[b]"}));
}

TEST(KafkaTest, ABrokerThatIsNotThereFailsTheJobInsteadOfHanging) {
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  tableEnv->executeSql(ordersTable("127.0.0.1:1", ", 'scan.startup.mode' = 'earliest-offset', "
                                                  "'scan.bounded.mode' = 'latest-offset'"));
  const auto started = std::chrono::steady_clock::now();
  try {
    tableEnv->executeSql("SELECT * FROM orders").collectAll();
    FAIL() << "reading from no broker succeeded";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("Kafka: reading the metadata of topic 'orders' failed "
                                             "for the source of table 'default_catalog."
                                             "default_database.orders'"),
              std::string::npos)
        << error.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));
}

// A broker that goes away while a job reads and writes: the job keeps running (librdkafka
// reconnects, as Flink's Kafka clients retry), and once the broker is back every record is
// copied, none twice.
TEST(KafkaTest, ABrokerThatGoesAwayWhileAJobRunsLosesNoRecord) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"orders:2", "copies:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produce(cluster, "orders", 0, {R"({"order_id":"a","amount":1})"});
  produce(cluster, "orders", 1, {R"({"order_id":"b","amount":2})"});
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  tableEnv->executeSql(
      ordersTable(cluster.bootstrap(), ", 'scan.startup.mode' = 'earliest-offset'"));
  tableEnv->executeSql(
      "CREATE TABLE copies (order_id STRING, amount INT) WITH ('connector' = 'kafka', "
      "'topic' = 'copies', 'properties.bootstrap.servers' = '" +
      cluster.bootstrap() + "', 'format' = 'csv')");
  TableResult job =
      tableEnv->executeSql("INSERT INTO copies SELECT order_id, amount + 100 FROM orders");
  EXPECT_EQ(awaitRecords(cluster, "copies", 2), (std::vector<std::string>{"a,101", "b,102"}));
  cluster.setBrokersDown(true);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  cluster.setBrokersDown(false);
  produce(cluster, "orders", 0, {R"({"order_id":"c","amount":3})"});
  produce(cluster, "orders", 1, {R"({"order_id":"d","amount":4})"});
  awaitRecords(cluster, "copies", 4);
  job.cancel();
  job.await();
  EXPECT_EQ(awaitRecords(cluster, "copies", 4),  // all of the topic, after the job
            (std::vector<std::string>{"a,101", "b,102", "c,103", "d,104"}));
}

/// Seed 000's two Kafka tables, as the seed writes them but for the bootstrap address.
std::string seedTables(const std::string& bootstrap) {
  std::string ddl = R"(
    CREATE TABLE order_events (
        order_id    STRING,
        user_id     STRING,
        product_id  STRING,
        quantity    INT,
        amount      DECIMAL(12, 2),
        event_time  TIMESTAMP(3),
        WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND
    ) WITH (
        'connector'                       = 'kafka',
        'topic'                           = 'order-events',
        'properties.bootstrap.servers'    = 'kafka-broker:9092',
        'properties.group.id'             = 'flink-order-pipeline',
        'scan.startup.mode'               = 'latest-offset',
        'format'                          = 'json',
        'json.fail-on-missing-field'      = 'false',
        'json.ignore-parse-errors'        = 'true',
        'json.timestamp-format.standard'  = 'ISO-8601'
    );
    CREATE TABLE shipment_events (
        shipment_id  STRING,
        order_id     STRING,
        carrier      STRING,
        tracking_no  STRING,
        event_time   TIMESTAMP(3),
        WATERMARK FOR event_time AS event_time - INTERVAL '10' SECOND
    ) WITH (
        'connector'                     = 'kafka',
        'topic'                         = 'shipment-events',
        'properties.bootstrap.servers'  = 'kafka-broker:9092',
        'properties.group.id'           = 'flink-shipment-join',
        'scan.startup.mode'             = 'latest-offset',
        'format'                        = 'json'
    );)";
  for (size_t at = ddl.find("kafka-broker:9092"); at != std::string::npos;
       at = ddl.find("kafka-broker:9092", at)) {
    ddl.replace(at, std::string("kafka-broker:9092").size(), bootstrap);
  }
  return ddl;
}

/// Waits until group `group` has committed an offset of partition 0 of `topic` (a source that
/// starts at the latest offset has listed its partitions once its first checkpoint did that).
bool waitForCommittedOffset(const std::string& bootstrap, const std::string& group,
                            const std::string& topic) {
  KafkaClient client(RD_KAFKA_CONSUMER, {{"bootstrap.servers", bootstrap}}, {{"group.id", group}},
                     "the test's client");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (client.committedOffsets(topic, {0}).at(0)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// ACCEPTANCE C2's Kafka part: seed 000's order and shipment tables read live from Kafka
// ('latest-offset'), its TUMBLE aggregation and its interval join written to Kafka topics, and
// the JSON read back with kcat.
TEST(KafkaTest, SeedZerosWindowAggregationAndIntervalJoinRunFromKafkaToKafka) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"order-events:1", "shipment-events:1", "revenue:1", "fulfillment:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  tableEnv->getConfig().set("parallelism.default", "1");
  tableEnv->getConfig().set("execution.checkpointing.interval", "200 ms");
  const std::string ddl = seedTables(cluster.bootstrap());
  const size_t split = ddl.find(";");
  tableEnv->executeSql(ddl.substr(0, split));
  tableEnv->executeSql(ddl.substr(split + 1, ddl.rfind(';') - split - 1));
  const std::string sink = "', 'properties.bootstrap.servers' = '" + cluster.bootstrap() +
                           "', 'format' = 'json')";
  tableEnv->executeSql(
      "CREATE TABLE revenue (product_id STRING, window_start TIMESTAMP(3), window_end "
      "TIMESTAMP(3), order_count BIGINT, total_revenue DECIMAL(38, 2), avg_order_value "
      "DECIMAL(38, 6), max_order DECIMAL(12, 2)) WITH ('connector' = 'kafka', 'topic' = 'revenue" +
      sink);
  tableEnv->executeSql(
      "CREATE TABLE fulfillment (order_id STRING, user_id STRING, amount DECIMAL(12, 2), "
      "shipment_id STRING, carrier STRING, tracking_no STRING, order_time TIMESTAMP(3), "
      "ship_time TIMESTAMP(3), fulfillment_minutes INT) WITH ('connector' = 'kafka', 'topic' = "
      "'fulfillment" + sink);
  StatementSet statements = tableEnv->createStatementSet();
  statements.addInsertSql(R"(
    INSERT INTO revenue
    SELECT
        product_id,
        window_start,
        window_end,
        COUNT(*)           AS order_count,
        SUM(amount)        AS total_revenue,
        AVG(amount)        AS avg_order_value,
        MAX(amount)        AS max_order
    FROM TABLE(
        TUMBLE(TABLE order_events, DESCRIPTOR(event_time), INTERVAL '5' MINUTES)
    )
    GROUP BY product_id, window_start, window_end)");
  statements.addInsertSql(R"(
    INSERT INTO fulfillment
    SELECT
        o.order_id,
        o.user_id,
        o.amount,
        s.shipment_id,
        s.carrier,
        s.tracking_no,
        o.event_time  AS order_time,
        s.event_time  AS ship_time,
        TIMESTAMPDIFF(MINUTE, o.event_time, s.event_time) AS fulfillment_minutes
    FROM order_events  AS o
    JOIN shipment_events AS s
      ON  o.order_id    = s.order_id
      AND s.event_time BETWEEN o.event_time
                           AND o.event_time + INTERVAL '2' HOURS)");
  TableResult job = statements.execute();
  ASSERT_TRUE(waitForCommittedOffset(cluster.bootstrap(), "flink-order-pipeline", "order-events"))
      << "the job's order source did not start";
  ASSERT_TRUE(waitForCommittedOffset(cluster.bootstrap(), "flink-shipment-join", "shipment-events"))
      << "the job's shipment source did not start";
  produce(cluster, "order-events", 0,
          {R"({"order_id":"o1","user_id":"u1","product_id":"p1","quantity":1,"amount":10.00,"event_time":"2026-01-01T00:01:00"})",
           R"({"order_id":"o2","user_id":"u2","product_id":"p1","quantity":2,"amount":20.50,"event_time":"2026-01-01T00:02:00"})",
           R"({"order_id":"o3","user_id":"u1","product_id":"p2","quantity":1,"amount":5.25,"event_time":"2026-01-01T00:03:30"})",
           R"(not json: skipped, as 'json.ignore-parse-errors' says)",
           R"({"order_id":"o4","user_id":"u3","product_id":"p1","amount":7,"event_time":"2026-01-01T00:06:00"})",
           R"({"order_id":"o9","user_id":"u9","product_id":"p9","quantity":1,"amount":1.00,"event_time":"2026-01-01T03:00:00"})"});
  produce(cluster, "shipment-events", 0,
          {R"({"shipment_id":"s1","order_id":"o1","carrier":"DHL","tracking_no":"T1","event_time":"2026-01-01 00:30:00"})",
           R"({"shipment_id":"s2","order_id":"o2","carrier":"UPS","tracking_no":"T2","event_time":"2026-01-01 02:02:01"})",
           R"({"shipment_id":"s3","order_id":"o3","carrier":"DHL","tracking_no":"T3","event_time":"2026-01-01 00:04:00"})",
           R"({"shipment_id":"s9","order_id":"o8","carrier":"DHL","tracking_no":"T9","event_time":"2026-01-01 03:00:00"})"});
  std::vector<std::string> revenue = awaitRecords(cluster, "revenue", 3);
  std::vector<std::string> fulfillment = awaitRecords(cluster, "fulfillment", 2);
  job.cancel();  // the sources are unbounded: the job runs until cancelled
  job.await();
  EXPECT_EQ(revenue,
            (std::vector<std::string>{
                R"({"product_id":"p1","window_start":"2026-01-01 00:00:00","window_end":"2026-01-01 00:05:00","order_count":2,"total_revenue":30.50,"avg_order_value":15.250000,"max_order":20.50})",
                R"({"product_id":"p1","window_start":"2026-01-01 00:05:00","window_end":"2026-01-01 00:10:00","order_count":1,"total_revenue":7.00,"avg_order_value":7.000000,"max_order":7.00})",
                R"({"product_id":"p2","window_start":"2026-01-01 00:00:00","window_end":"2026-01-01 00:05:00","order_count":1,"total_revenue":5.25,"avg_order_value":5.250000,"max_order":5.25})"}));
  EXPECT_EQ(fulfillment,
            (std::vector<std::string>{
                R"({"order_id":"o1","user_id":"u1","amount":10.00,"shipment_id":"s1","carrier":"DHL","tracking_no":"T1","order_time":"2026-01-01 00:01:00","ship_time":"2026-01-01 00:30:00","fulfillment_minutes":29})",
                R"({"order_id":"o3","user_id":"u1","amount":5.25,"shipment_id":"s3","carrier":"DHL","tracking_no":"T3","order_time":"2026-01-01 00:03:30","ship_time":"2026-01-01 00:04:00","fulfillment_minutes":0})"}));
}

/// Waits until group `group` has committed offset `offset` (or more) of `partition` of `topic`:
/// a checkpoint completed after the job read the partition up to there.
bool waitForCommittedOffsetAtLeast(const std::string& bootstrap, const std::string& group,
                                   const std::string& topic, int32_t partition, int64_t offset) {
  KafkaClient client(RD_KAFKA_CONSUMER, {{"bootstrap.servers", bootstrap}}, {{"group.id", group}},
                     "the test's client");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    const std::optional<int64_t> committed =
        client.committedOffsets(topic, {partition}).at(partition);
    if (committed && *committed >= offset) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

/// A table of clicks in topic `topic` with an event-time watermark, read from the earliest
/// offset on, and a job counting them per 5-second tumbling window into topic `counts`.
TableResult countClicksPerWindow(TableEnvironment& tableEnv, const std::string& bootstrap,
                                 const std::string& topic) {
  tableEnv.executeSql(
      "CREATE TABLE clicks (user_name STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ("
      "'connector' = 'kafka', 'topic' = '" +
      topic + "', 'properties.bootstrap.servers' = '" + bootstrap +
      "', 'properties.group.id' = 'clicks-job', 'scan.startup.mode' = "
      "'earliest-offset', 'format' = 'json')");
  tableEnv.executeSql(
      "CREATE TABLE counts (window_start TIMESTAMP(3), clicks BIGINT) WITH ('connector' = "
      "'kafka', 'topic' = 'counts', 'properties.bootstrap.servers' = '" +
      bootstrap + "', 'format' = 'json')");
  return tableEnv.executeSql(
      "INSERT INTO counts SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE clicks, "
      "DESCRIPTOR(ts), INTERVAL '5' SECONDS)) GROUP BY window_start, window_end");
}

std::string click(const std::string& user, int second) {
  return fmt::format(R"({{"user_name":"{}","ts":"2026-01-01 00:00:{:02}"}})", user, second);
}

// Flink's per-partition watermarks (the table's watermark pushed into the Kafka source): the
// source's watermark is the lowest of its partitions', so partition 1, behind partition 0,
// holds the windows open until its own rows are in. With one watermark for the subtask, window
// [0 s, 5 s) would close once partition 0 reached 9 s, and partition 1's row at 2 s would be
// late and dropped.
TEST(KafkaTest, EachPartitionHasItsOwnWatermarkSoAPartitionBehindMakesNoRowLate) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"clicks:2", "counts:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produce(cluster, "clicks", 0, {click("a", 1), click("b", 3), click("c", 6), click("d", 9)});
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  tableEnv->getConfig().set("parallelism.default", "1");
  tableEnv->getConfig().set("execution.checkpointing.interval", "200 ms");
  TableResult job = countClicksPerWindow(*tableEnv, cluster.bootstrap(), "clicks");
  // A checkpoint after partition 0's four rows: had a window fired, the sink would have
  // written it before the checkpoint completed.
  ASSERT_TRUE(waitForCommittedOffsetAtLeast(cluster.bootstrap(), "clicks-job", "clicks", 0, 4))
      << "the job did not read partition 0";
  EXPECT_EQ(consume(cluster, "counts"), std::vector<std::string>{})
      << "partition 1 has no rows yet, so its watermark holds every window open";
  produce(cluster, "clicks", 1, {click("e", 2), click("f", 12)});
  produce(cluster, "clicks", 0, {click("g", 12)});
  std::vector<std::string> counts = awaitRecords(cluster, "counts", 2);
  job.cancel();
  job.await();
  EXPECT_EQ(counts,
            (std::vector<std::string>{R"({"window_start":"2026-01-01 00:00:00","clicks":3})",
                                      R"({"window_start":"2026-01-01 00:00:05","clicks":2})"}));
}

// 'table.exec.source.idle-timeout': a partition without records for that long no longer holds
// the watermark back (without it, the empty partition 1 would keep every window open). As in
// Flink, a watermark goes out once a partition that is not idle has records: partition 0 gets
// a row at 6 s again and again until the window [0 s, 5 s) has fired. (A watermark per subtask
// would fire it too: the test above shows the watermark is per partition, this one that an
// idle partition is left out of it.)
TEST(KafkaTest, AnIdlePartitionStopsHoldingTheWatermarkBackAfterTheIdleTimeout) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"clicks:2", "counts:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produce(cluster, "clicks", 0, {click("a", 1)});
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  tableEnv->getConfig().set("parallelism.default", "1");
  tableEnv->getConfig().set("table.exec.source.idle-timeout", "300 ms");
  TableResult job = countClicksPerWindow(*tableEnv, cluster.bootstrap(), "clicks");
  std::vector<std::string> counts;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (counts.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    produce(cluster, "clicks", 0, {click("b", 6)});
    counts = awaitRecords(cluster, "counts", 0);
  }
  job.cancel();
  job.await();
  EXPECT_EQ(counts,
            (std::vector<std::string>{R"({"window_start":"2026-01-01 00:00:00","clicks":1})"}));
}

// EXPLAIN shows the watermark in the Kafka scan, as Flink's plan does, and no WatermarkAssigner.
TEST(KafkaTest, TheWatermarkOfAKafkaTableIsPushedIntoItsScan) {
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  tableEnv->executeSql(
      "CREATE TABLE clicks (user_name STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - "
      "INTERVAL '1' SECOND) WITH ('connector' = 'kafka', 'topic' = 'clicks', "
      "'properties.bootstrap.servers' = 'localhost:9', 'scan.startup.mode' = 'latest-offset', "
      "'format' = 'json')");
  std::string plan;
  for (const Row& row : tableEnv->executeSql("EXPLAIN SELECT user_name FROM clicks").collectAll()) {
    plan += row.getField(0).get<std::string>();
  }
  const std::string physical = plan.substr(plan.find("== Physical Plan =="));
  EXPECT_NE(physical.find("TableSourceScan(table=[[default_catalog, default_database, clicks, "
                          "watermark=[-(ts, PT1S)], watermarkEmitStrategy=[on-periodic]]], "
                          "fields=[user_name, ts])"),
            std::string::npos)
      << physical;
  EXPECT_EQ(physical.find("WatermarkAssigner"), std::string::npos) << physical;
}

/// Waits until `topic` exists with `partitions` partitions (at most 30 s).
bool waitForTopic(const std::string& bootstrap, const std::string& topic, size_t partitions) {
  KafkaClient client(RD_KAFKA_CONSUMER, {{"bootstrap.servers", bootstrap}}, {},
                     "the test's client");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      if (client.partitionsOf(topic).size() == partitions) return true;
    } catch (const ConnectorException&) {
      // not there yet
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// 'scan.topic-partition-discovery.interval': a topic matching the table's 'topic-pattern' that
// is created while the job runs is read from its earliest record (Flink's default for
// partitions discovered after the start), each partition by its owner subtask.
TEST(KafkaTest, PartitionDiscoveryReadsATopicCreatedWhileTheJobRuns) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"events-a:1", "copied:1"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  produce(cluster, "events-a", 0, {R"({"name":"a1"})"});
  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  tableEnv->getConfig().set("parallelism.default", "2");
  tableEnv->executeSql(
      "CREATE TABLE events (name STRING) WITH ('connector' = 'kafka', 'topic-pattern' = "
      "'events-.*', 'properties.bootstrap.servers' = '" +
      cluster.bootstrap() +
      "', 'scan.startup.mode' = 'earliest-offset', 'scan.topic-partition-discovery.interval' = "
      "'200 ms', 'format' = 'json')");
  tableEnv->executeSql(
      "CREATE TABLE copied (name STRING) WITH ('connector' = 'kafka', 'topic' = 'copied', "
      "'properties.bootstrap.servers' = '" +
      cluster.bootstrap() + "', 'format' = 'csv')");
  TableResult job = tableEnv->executeSql("INSERT INTO copied SELECT name FROM events");
  EXPECT_EQ(awaitRecords(cluster, "copied", 1), std::vector<std::string>{"a1"});
  cluster.createTopic("events-b", 3);
  ASSERT_TRUE(waitForTopic(cluster.bootstrap(), "events-b", 3)) << "the mock cluster made no topic";
  produce(cluster, "events-b", 0, {R"({"name":"b1"})"});
  produce(cluster, "events-b", 2, {R"({"name":"b2"})", R"({"name":"b3"})"});
  produce(cluster, "events-a", 0, {R"({"name":"a2"})"});
  std::vector<std::string> copied = awaitRecords(cluster, "copied", 5);
  job.cancel();
  job.await();
  EXPECT_EQ(copied, (std::vector<std::string>{"a1", "a2", "b1", "b2", "b3"}));
}

/// A source of topic `orders` read from the earliest to the latest offset.
std::shared_ptr<Source<vector::Chunk>> boundedOrdersSource(const std::string& bootstrap) {
  ConnectorContext context = testing::tableContext(
      testing::rowType({{"order_id", testing::stringType()}, {"amount", testing::intType()}}),
      {{"connector", "kafka"},
       {"topic", "orders"},
       {"properties.bootstrap.servers", bootstrap},
       {"format", "json"},
       {"scan.startup.mode", "earliest-offset"},
       {"scan.bounded.mode", "latest-offset"}});
  return KafkaTableFactory().createDynamicTableSource(context)->createSource();
}

TEST(KafkaTest, ARestoredSourceContinuesAfterTheCheckpointedOffsets) {
  MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, {"orders:3"});
  ASSERT_FALSE(cluster.bootstrap().empty()) << "the mock Kafka cluster did not start";
  std::vector<std::string> expected;
  for (int partition = 0; partition < 3; ++partition) {
    std::vector<std::string> records;
    for (int i = 0; i < 3000; ++i) {
      const std::string id = std::to_string(partition) + "-" + std::to_string(i);
      records.push_back(R"({"order_id":")" + id + R"(","amount":)" + std::to_string(i) + "}");
      expected.push_back("+I[" + id + ", " + std::to_string(i) + "]");
    }
    produce(cluster, "orders", partition, records);
  }
  std::sort(expected.begin(), expected.end());
  for (auto [before, after] : {std::pair{2, 2}, std::pair{2, 3}, std::pair{3, 1}}) {
    testing::CheckpointedRuns runs = testing::runCheckpointedAndRestored(
        [&] { return boundedOrdersSource(cluster.bootstrap()); }, before, after, 1024);
    ASSERT_TRUE(runs.checkpoint) << "no checkpoint completed mid-stream";
    EXPECT_EQ(runs.uninterrupted, expected);
    // The restored run read only what came after the checkpoint: with the checkpointed rows,
    // every record once.
    EXPECT_EQ(runs.restoredFinal, expected) << before << " -> " << after;
    EXPECT_GT(runs.checkpointed, 0u);
    EXPECT_EQ(runs.restoredReceived.size() + runs.checkpointed, expected.size());
  }
}

TEST(KafkaTest, SplitAndEnumeratorStateBytesRoundTrip) {
  KafkaPartitionSplitSerializer splits;
  KafkaPartitionSplit split{"orders", 7, 42, KafkaPartitionSplit::kNoStoppingOffset};
  EXPECT_EQ(splits.deserialize(1, splits.serialize(split)), split);
  EXPECT_EQ(split.splitId(), "orders-7");
  KafkaSourceEnumeratorStateSerializer states;
  KafkaSourceEnumeratorState state{true, {split, KafkaPartitionSplit{"b", 0, 3, 9}}, std::nullopt};
  EXPECT_EQ(states.deserialize(2, states.serialize(state)), state);
  state.known.emplace(
      std::set<KafkaSourceEnumeratorState::TopicPartition>{{"orders", 7}, {"b", 0}, {"b", 1}});
  EXPECT_EQ(states.deserialize(2, states.serialize(state)), state);
  // Version 1 (before partition discovery) ends after the splits: known partitions unknown.
  KafkaSourceEnumeratorState version1{true, {split}, std::nullopt};
  std::string version1Bytes = states.serialize(version1);
  version1Bytes.pop_back();  // its "no known partitions" flag
  EXPECT_EQ(states.deserialize(1, version1Bytes), version1);
  std::string bytes = splits.serialize(split);
  bytes.pop_back();
  try {
    splits.deserialize(1, bytes);
    FAIL() << "a truncated split was read";
  } catch (const InternalError& error) {
    EXPECT_NE(std::string(error.what()).find("Cannot read a KafkaSource split"), std::string::npos);
  }
  // Flink's KafkaSourceEnumerator#getSplitOwner: ("orders".hashCode() * 31 & 0x7FFFFFFF) % 3
  // is 0 ("orders".hashCode() = -1008770331), and partitions go round robin from there.
  EXPECT_EQ(kafkaSplitOwner("orders", 0, 3), 0);
  EXPECT_EQ(kafkaSplitOwner("orders", 1, 3), 1);
  EXPECT_EQ(kafkaSplitOwner("orders", 5, 3), 2);
}

std::string kafkaValidationMessage(std::map<std::string, std::string> options, bool source = true) {
  options.emplace("connector", "kafka");
  ConnectorContext context = testing::tableContext(
      testing::rowType({{"order_id", testing::stringType()}}), std::move(options));
  return validationMessageOf(KafkaTableFactory(), context, source);
}

TEST(KafkaTest, OptionsAreValidatedWithFlinksMessages) {
  const std::map<std::string, std::string> base = {
      {"topic", "orders"}, {"properties.bootstrap.servers", "localhost:9092"}, {"format", "json"},
      {"properties.group.id", "g"}};
  auto with = [&](const std::map<std::string, std::string>& changes) {
    return withChanges(base, changes);
  };
  EXPECT_EQ(kafkaValidationMessage(base), "");
  EXPECT_EQ(kafkaValidationMessage(with({{"properties.bootstrap.servers", ""}})),
            "One or more required options are missing.\n\nMissing required options "
            "are:\n\nproperties.bootstrap.servers");
  EXPECT_EQ(kafkaValidationMessage(with({{"topic", ""}})),
            "Either 'topic' or 'topic-pattern' must be set.");
  EXPECT_EQ(kafkaValidationMessage(with({{"scan.startup.mode", "specific-offsets"}})),
            "'scan.startup.specific-offsets' is required in 'specific-offsets' startup mode but "
            "missing.");
  EXPECT_EQ(kafkaValidationMessage(with({{"scan.startup.mode", "timestamp"}})),
            "'scan.startup.timestamp-millis' is required in 'timestamp' startup mode but missing.");
  EXPECT_EQ(kafkaValidationMessage(with({{"scan.bounded.mode", "specific-offsets"},
                                         {"scan.bounded.specific-offsets", "partition:0;offset:3"}})),
            "Invalid properties 'scan.bounded.specific-offsets' should follow the format "
            "'partition:0,offset:42;partition:1,offset:300', but is 'partition:0;offset:3'.");
  EXPECT_EQ(kafkaValidationMessage(with({{"scan.startup.mode", "first"}})),
            "Invalid value 'first' for key 'scan.startup.mode' of table 't': expected "
            "'earliest-offset', 'latest-offset', 'group-offsets', 'timestamp' or "
            "'specific-offsets'.");
  EXPECT_EQ(kafkaValidationMessage(with({{"properties.group.id", ""}})),
            "Property group.id is required when using committed offset for offsets initializer "
            "(table 't': set 'properties.group.id', or a 'scan.startup.mode' other than "
            "'group-offsets')");
  EXPECT_EQ(kafkaValidationMessage(with({{"properties.group.id", ""}}), /*source=*/false), "");
  EXPECT_EQ(kafkaValidationMessage(with({{"properties.max.poll.records", "10"}})),
            "Unsupported option 'properties.max.poll.records' of table 't': 'max.poll.records' "
            "is not a Kafka client property that eddy's client (librdkafka) knows.");
  EXPECT_EQ(kafkaValidationMessage(with({{"properties.fetch.wait.max.ms", "soon"}})).rfind(
                "Invalid value 'soon' for option 'properties.fetch.wait.max.ms' of table 't': ", 0),
            0u);
  EXPECT_EQ(kafkaValidationMessage(with({{"sink.delivery-guarantee", "exactly-once"}}), false),
            "sink.transactional-id-prefix must be specified when using "
            "DeliveryGuarantee.EXACTLY_ONCE.");
  EXPECT_EQ(kafkaValidationMessage(with({{"key.format", "json"},
                                         {"key.fields", "order_id"},
                                         {"key.json.ignore-parse-errors", "true"}})),
            "");
  EXPECT_EQ(kafkaValidationMessage(with({{"key.fields", "order_id"}})),
            "The option 'key.fields' can only be declared if a key format is defined using "
            "'key.format'.");
  EXPECT_EQ(kafkaValidationMessage(with({{"key.format", "json"}})),
            "A key format 'key.format' requires the declaration of one or more of key fields "
            "using 'key.fields'.");
  EXPECT_EQ(kafkaValidationMessage(with({{"key.format", "json"}, {"key.fields", "id"}})),
            "Could not find the field 'id' in the table schema for usage in the key format. A key "
            "field must be a regular, physical column. The following columns can be selected in "
            "the 'key.fields' option:\n[order_id]");
  EXPECT_EQ(
      kafkaValidationMessage(with(
          {{"key.format", "json"}, {"key.fields", "order_id"}, {"key.fields-prefix", "order_"}})),
      "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. Set "
      "it to 'EXCEPT_KEY' instead to avoid field overlaps.");
  EXPECT_EQ(kafkaValidationMessage(with({{"key.format", "json"},
                                         {"key.fields", "order_id"},
                                         {"key.fields-prefix", "k_"},
                                         {"value.fields-include", "EXCEPT_KEY"}})),
            "All fields in 'key.fields' must be prefixed with 'k_' when option 'key.fields-prefix' "
            "is set but field 'order_id' is not prefixed.");
  EXPECT_EQ(
      kafkaValidationMessage(with({{"key.format", "debezium-json"}, {"key.fields", "order_id"}})),
      "A key format should only deal with INSERT-only records. But debezium-json has a "
      "changelog mode of [INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE].");
  EXPECT_EQ(kafkaValidationMessage(with({{"value.fields-include", "SOME"}})),
            "Invalid value 'SOME' for key 'value.fields-include' of table 't': expected 'ALL' or "
            "'EXCEPT_KEY'.");
  EXPECT_EQ(
      kafkaValidationMessage(with({{"sink.partitioner", "com.example.MyPartitioner"}}), false),
      "Option 'sink.partitioner' = 'com.example.MyPartitioner' of table 't' is not supported "
      "yet by the kafka connector ('default', 'fixed' and 'round-robin' are; a partitioner "
      "class is not).");
  EXPECT_EQ(kafkaValidationMessage(with({{"topic", ""}, {"topic-pattern", "orders-.*"}}), false),
            "Flink Kafka sink currently only supports single topic, but got 'topic-pattern': "
            "orders-.*.");
  EXPECT_EQ(kafkaValidationMessage(with({{"topic-pattern", "orders-.*"}})),
            "Option 'topic' and 'topic-pattern' shouldn't be set together.");
  EXPECT_EQ(kafkaValidationMessage(with({{"topic", ""}, {"topic-pattern", "orders-("}})),
            "Invalid value 'orders-(' for key 'topic-pattern' of table 't': expected a regular "
            "expression.");
  EXPECT_EQ(kafkaValidationMessage(with({{"topic", ""}, {"topic-pattern", "orders-.*"},
                                         {"scan.startup.mode", "specific-offsets"},
                                         {"scan.startup.specific-offsets", "partition:0,offset:1"}})),
            "Currently Kafka source only supports specific offset for single topic.");
  EXPECT_EQ(kafkaValidationMessage(with({{"topic", "a;b"}}), false),
            "Flink Kafka sink currently only supports single topic, but got 'topic': [a, b].");
  EXPECT_EQ(kafkaValidationMessage(with({{"scan.topic-partition-discovery.interval", "5 min"},
                                         {"properties.partition.discovery.interval.ms", "60000"}})),
            "");
  EXPECT_EQ(kafkaValidationMessage(with({{"properties.partition.discovery.interval.ms", "soon"}})),
            "Could not parse value 'soon' for key 'properties.partition.discovery.interval.ms' of "
            "table 't': expected a whole number of milliseconds.");
  EXPECT_EQ(kafkaValidationMessage(with({{"json.fail-on-missing-field", "false"},
                                         {"json.ignore-parse-errors", "true"},
                                         {"json.timestamp-format.standard", "ISO-8601"},
                                         {"scan.startup.mode", "latest-offset"}})),
            "");
}

}  // namespace
}  // namespace eddy::connectors
