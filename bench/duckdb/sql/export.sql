-- Export step of bench/duckdb/compare.mjs: the bounded Nexmark events, generated once by the
-- built-in nexmark connector in BATCH mode, written as flat CSV tables (one directory per
-- table, one part file per subtask) that both eddy and DuckDB then read.
--
-- The environment variables NEXMARK_EVENTS_NUM (total events), NEXMARK_FIRST_EVENT_RATE
-- (events per second of event time) and NEXMARK_CSV_DIR (an absolute directory; it must not
-- hold an earlier export, as every INSERT adds part files) fill in the placeholders below
-- (`eddy sql` replaces ${NAME} outside comments):
--   NEXMARK_EVENTS_NUM=2000000 NEXMARK_FIRST_EVENT_RATE=10000000 NEXMARK_CSV_DIR=/tmp/nx \
--     eddy sql -i bench/nexmark/ddl.sql -f bench/duckdb/sql/export.sql
--
-- Timestamps are TIMESTAMP(3) columns, which the csv format writes as
-- `yyyy-MM-dd HH:mm:ss[.fff]` (docs/connectors.md, "Formats"): DuckDB reads that as TIMESTAMP.

SET 'execution.runtime-mode' = 'batch';

-- The nexmark table and its person, auction and bid views come from bench/nexmark/ddl.sql,
-- run first as the init script (`-i`).

CREATE TABLE person_csv (
  id BIGINT,
  name STRING,
  emailAddress STRING,
  creditCard STRING,
  city STRING,
  state STRING,
  dateTime TIMESTAMP(3),
  extra STRING
) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_CSV_DIR}/person', 'format' = 'csv');

CREATE TABLE auction_csv (
  id BIGINT,
  itemName STRING,
  description STRING,
  initialBid BIGINT,
  reserve BIGINT,
  dateTime TIMESTAMP(3),
  expires TIMESTAMP(3),
  seller BIGINT,
  category BIGINT,
  extra STRING
) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_CSV_DIR}/auction', 'format' = 'csv');

CREATE TABLE bid_csv (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  channel STRING,
  url STRING,
  dateTime TIMESTAMP(3),
  extra STRING
) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_CSV_DIR}/bid', 'format' = 'csv');

-- One job: the events are generated once and split into the three sinks. `CAST` drops the
-- rowtime attribute of `dateTime` (a plain TIMESTAMP(3) in the files).
EXECUTE STATEMENT SET
BEGIN
  INSERT INTO person_csv
  SELECT id, name, emailAddress, creditCard, city, state, CAST(dateTime AS TIMESTAMP(3)), extra
  FROM person;
  INSERT INTO auction_csv
  SELECT id, itemName, description, initialBid, reserve, CAST(dateTime AS TIMESTAMP(3)),
         expires, seller, category, extra
  FROM auction;
  INSERT INTO bid_csv
  SELECT auction, bidder, price, channel, url, CAST(dateTime AS TIMESTAMP(3)), extra
  FROM bid;
END;
