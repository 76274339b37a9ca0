// The SQL of the seed examples (/work/shared/seeds 000 and 001) as one script: every statement
// parses, round-trips, and the interesting parts land in the tree where the binder expects.
#include <gtest/gtest.h>

#include "sql/parser/tests/round_trip.h"

namespace eddy::sql {
namespace {

// Seed 000: Kafka source with watermark, partitioned filesystem sink, INSERT with DATE_FORMAT,
// TUMBLE/HOP/CUMULATE window TVFs, interval join with TIMESTAMPDIFF, lookup join, catalogs.
constexpr const char* kSeed000 = R"sql(
-- Kafka source table with event-time watermarks.
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

CREATE TABLE orders_parquet_sink (
    order_id    STRING,
    user_id     STRING,
    product_id  STRING,
    amount      DECIMAL(12, 2),
    event_hour  STRING   -- derived partition column
) PARTITIONED BY (event_hour)
WITH (
    'connector'                               = 'filesystem',
    'path'                                    = 's3a://my-bucket/data/orders/',
    'format'                                  = 'parquet',
    'parquet.compression'                     = 'SNAPPY',
    'sink.rolling-policy.rollover-interval'   = '10 min',
    'sink.rolling-policy.check-interval'      = '1 min',
    'sink.partition-commit.trigger'           = 'partition-time',
    'sink.partition-commit.delay'             = '1 h',
    'sink.partition-commit.policy.kind'       = 'success-file',
    'sink.partition-commit.watermark-time-zone' = 'UTC'
);

INSERT INTO orders_parquet_sink
SELECT
    order_id,
    user_id,
    product_id,
    amount,
    DATE_FORMAT(event_time, 'yyyy-MM-dd-HH') AS event_hour
FROM order_events;

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
GROUP BY product_id, window_start, window_end;

SELECT
    user_id,
    window_start,
    window_end,
    COUNT(DISTINCT product_id)  AS unique_products_bought,
    SUM(amount)                 AS rolling_10m_spend
FROM TABLE(
    HOP(TABLE order_events, DESCRIPTOR(event_time),
        INTERVAL '1' MINUTE,    -- slide step
        INTERVAL '10' MINUTES)  -- window size
)
GROUP BY user_id, window_start, window_end;

SELECT
    product_id,
    window_start,
    window_end,
    SUM(amount)    AS cumulative_revenue,
    COUNT(*)       AS cumulative_orders
FROM TABLE(
    CUMULATE(
        TABLE order_events,
        DESCRIPTOR(event_time),
        INTERVAL '1' HOUR,    -- step: emit every hour
        INTERVAL '1' DAY      -- max size: reset at midnight
    )
)
GROUP BY product_id, window_start, window_end;

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
);

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
                       AND o.event_time + INTERVAL '2' HOURS;

CREATE TABLE product_catalog (
    product_id    STRING,
    product_name  STRING,
    category      STRING,
    unit_price    DECIMAL(12, 2),
    updated_at    TIMESTAMP(3),
    PRIMARY KEY (product_id) NOT ENFORCED
) WITH (
    'connector'               = 'jdbc',
    'url'                     = 'jdbc:postgresql://postgres:5432/catalog',
    'table-name'              = 'products',
    'username'                = 'flink_reader',
    'password'                = '${POSTGRES_PASSWORD}',
    'lookup.cache.max-rows'   = '10000',
    'lookup.cache.ttl'        = '10 min',
    'lookup.max-retries'      = '3'
);

SELECT
    o.order_id,
    o.user_id,
    o.product_id,
    o.quantity,
    o.amount,
    p.product_name,
    p.category,
    p.unit_price,
    o.amount / o.quantity AS actual_unit_price,
    o.event_time
FROM order_events AS o
LEFT JOIN product_catalog FOR SYSTEM_TIME AS OF o.event_time AS p
  ON o.product_id = p.product_id;

SELECT product_id, window_start, window_end, SUM(amount) AS revenue
FROM TABLE(TUMBLE(TABLE order_events_raw, DESCRIPTOR(event_time), INTERVAL '5' MINUTES))
GROUP BY product_id, window_start, window_end;

CREATE CATALOG iceberg_prod WITH (
    'type'                = 'iceberg',
    'catalog-type'        = 'rest',
    'uri'                 = 'http://iceberg-rest-catalog:8181',
    'warehouse'           = 's3a://my-lakehouse/warehouse',
    'io-impl'             = 'org.apache.iceberg.aws.s3.S3FileIO',
    's3.endpoint'         = 'http://minio:9000',
    's3.path-style-access' = 'true',
    'client.region'       = 'us-east-1'
);

USE CATALOG iceberg_prod;
USE analytics;

CREATE TABLE IF NOT EXISTS daily_order_summary (
    event_date     DATE,
    product_id     STRING,
    total_orders   BIGINT,
    total_revenue  DECIMAL(18, 2),
    avg_order      DECIMAL(12, 2),
    PRIMARY KEY (event_date, product_id) NOT ENFORCED
) WITH (
    'format-version'  = '2',
    'write.format.default' = 'parquet',
    'write.parquet.compression-codec' = 'snappy'
);

INSERT INTO daily_order_summary
SELECT
    CAST(window_start AS DATE)  AS event_date,
    product_id,
    COUNT(*)                    AS total_orders,
    SUM(amount)                 AS total_revenue,
    AVG(amount)                 AS avg_order
FROM TABLE(
    TUMBLE(TABLE order_events, DESCRIPTOR(event_time), INTERVAL '1' DAY)
)
GROUP BY product_id, window_start, window_end;

CREATE CATALOG hive_catalog WITH (
    'type'              = 'hive',
    'default-database'  = 'data_warehouse',
    'hive-conf-dir'     = '/opt/flink/conf/hive',
    'hadoop-conf-dir'   = '/etc/hadoop/conf'
);
USE CATALOG hive_catalog;
SHOW DATABASES;
SHOW TABLES IN data_warehouse;
)sql";

// Seed 001: the SQL strings of the DataStream API integration guide.
constexpr const char* kSeed001 = R"sql(
SELECT UPPER(f0) FROM InputTable;
SELECT name, SUM(score) FROM InputTable GROUP BY name;
SELECT U.name, O.amount FROM UserTable U, OrderTable O WHERE U.uid = O.uid AND O.ts BETWEEN U.ts AND U.ts + INTERVAL '5' MINUTES;
INSERT INTO OutputTable SELECT * FROM InputTable;
INSERT INTO OutputTable2 SELECT * FROM InputTable;
SELECT * FROM InputTable;
)sql";

TEST(SeedTest, Seed000ParsesAndRoundTrips) {
  std::vector<StatementPtr> statements = parseScript(kSeed000);
  ASSERT_EQ(statements.size(), 20u);
  for (const StatementPtr& statement : statements) {
    SCOPED_TRACE(statement->sourceText);
    std::string printed = unparse(*statement);
    EXPECT_EQ(unparse(*parseStatement(statement->sourceText)), printed);
    EXPECT_EQ(unparse(*parseStatement(printed)), printed);
  }
  EXPECT_EQ(unparse(*statements[0]),
            "CREATE TABLE `order_events` (`order_id` STRING, `user_id` STRING, `product_id` "
            "STRING, `quantity` INT, `amount` DECIMAL(12, 2), `event_time` TIMESTAMP(3), "
            "WATERMARK FOR `event_time` AS `event_time` - INTERVAL '5' SECOND) WITH "
            "('connector' = 'kafka', 'topic' = 'order-events', 'properties.bootstrap.servers' = "
            "'kafka-broker:9092', 'properties.group.id' = 'flink-order-pipeline', "
            "'scan.startup.mode' = 'latest-offset', 'format' = 'json', "
            "'json.fail-on-missing-field' = 'false', 'json.ignore-parse-errors' = 'true', "
            "'json.timestamp-format.standard' = 'ISO-8601')");
  EXPECT_EQ(unparse(*statements[4]),
            "SELECT `user_id`, `window_start`, `window_end`, COUNT(DISTINCT `product_id`) AS "
            "`unique_products_bought`, SUM(`amount`) AS `rolling_10m_spend` FROM "
            "TABLE(HOP(TABLE `order_events`, DESCRIPTOR(`event_time`), INTERVAL '1' MINUTE, "
            "INTERVAL '10' MINUTE)) GROUP BY `user_id`, `window_start`, `window_end`");
  EXPECT_EQ(unparse(*statements[7]),
            "SELECT `o`.`order_id`, `o`.`user_id`, `o`.`amount`, `s`.`shipment_id`, "
            "`s`.`carrier`, `s`.`tracking_no`, `o`.`event_time` AS `order_time`, "
            "`s`.`event_time` AS `ship_time`, TIMESTAMPDIFF(MINUTE, `o`.`event_time`, "
            "`s`.`event_time`) AS `fulfillment_minutes` FROM `order_events` AS `o` JOIN "
            "`shipment_events` AS `s` ON `o`.`order_id` = `s`.`order_id` AND `s`.`event_time` "
            "BETWEEN `o`.`event_time` AND `o`.`event_time` + INTERVAL '2' HOUR");
  EXPECT_EQ(unparse(*statements[9]),
            "SELECT `o`.`order_id`, `o`.`user_id`, `o`.`product_id`, `o`.`quantity`, "
            "`o`.`amount`, `p`.`product_name`, `p`.`category`, `p`.`unit_price`, `o`.`amount` / "
            "`o`.`quantity` AS `actual_unit_price`, `o`.`event_time` FROM `order_events` AS `o` "
            "LEFT JOIN `product_catalog` FOR SYSTEM_TIME AS OF `o`.`event_time` AS `p` ON "
            "`o`.`product_id` = `p`.`product_id`");

  // The sink's partition column and the INSERT's DATE_FORMAT.
  const auto& sink = statements[1]->as<CreateTableStatement>();
  EXPECT_EQ(sink.partitionKeys, (std::vector<std::string>{"event_hour"}));
  EXPECT_EQ(sink.options.size(), 10u);
  const auto& insert = statements[2]->as<InsertStatement>();
  EXPECT_EQ(insert.tableName, (QualifiedName{"orders_parquet_sink"}));
  EXPECT_EQ(unparse(*insert.query->as<SelectQuery>().items[4].expression),
            "DATE_FORMAT(`event_time`, 'yyyy-MM-dd-HH')");

  // The lookup join's time attribute and the dimension table's primary key.
  const auto& catalogTable = statements[8]->as<CreateTableStatement>();
  ASSERT_TRUE(catalogTable.primaryKey.has_value());
  EXPECT_EQ(catalogTable.primaryKey->columns, (std::vector<std::string>{"product_id"}));
  EXPECT_EQ(statements[11]->kind, StatementKind::kCreateCatalog);
  EXPECT_EQ(statements[12]->as<UseCatalogStatement>().catalogName, "iceberg_prod");
  EXPECT_EQ(statements[13]->as<UseDatabaseStatement>().databaseName, (QualifiedName{"analytics"}));
  EXPECT_TRUE(statements[14]->as<CreateTableStatement>().ifNotExists);
  EXPECT_EQ(unparse(*statements[19]), "SHOW TABLES FROM `data_warehouse`");
  // Positions are relative to the whole script.
  EXPECT_EQ(statements[0]->position, (SourcePosition{3, 1}));
}

TEST(SeedTest, Seed001ParsesAndRoundTrips) {
  std::vector<StatementPtr> statements = parseScript(kSeed001);
  ASSERT_EQ(statements.size(), 6u);
  for (const StatementPtr& statement : statements) {
    std::string printed = unparse(*statement);
    EXPECT_EQ(unparse(*parseStatement(printed)), printed);
  }
  EXPECT_EQ(unparse(*statements[0]), "SELECT UPPER(`f0`) FROM `InputTable`");
  EXPECT_EQ(unparse(*statements[1]),
            "SELECT `name`, SUM(`score`) FROM `InputTable` GROUP BY `name`");
  EXPECT_EQ(statements[3]->kind, StatementKind::kInsert);
}

}  // namespace
}  // namespace eddy::sql
