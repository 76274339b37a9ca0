-- The exported Nexmark tables (bench/duckdb/sql/export.sql) as filesystem CSV sources, in
-- BATCH mode: the init script (`eddy sql -i`) of every eddy query of bench/duckdb/compare.mjs.
-- The environment variable NEXMARK_CSV_DIR is the export's directory; no watermark (nothing
-- here needs event time).

SET 'execution.runtime-mode' = 'batch';

CREATE TABLE person (
  id BIGINT,
  name STRING,
  emailAddress STRING,
  creditCard STRING,
  city STRING,
  state STRING,
  dateTime TIMESTAMP(3),
  extra STRING
) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_CSV_DIR}/person', 'format' = 'csv');

CREATE TABLE auction (
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

CREATE TABLE bid (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  channel STRING,
  url STRING,
  dateTime TIMESTAMP(3),
  extra STRING
) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_CSV_DIR}/bid', 'format' = 'csv');
