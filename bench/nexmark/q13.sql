-- Nexmark q13, bounded side input join: every bid joined with a value looked up in a static
-- table by `auction mod 10000`. The side input is a CSV file of 10 000 (key, value) lines that
-- the driver writes (${NEXMARK_SIDE_INPUT}); the filesystem connector answers the lookups
-- (each subtask reads the file once and indexes it by key).

CREATE TABLE side_input (
  `key` BIGINT,
  `value` STRING
) WITH (
  'connector' = 'filesystem',
  'path' = '${NEXMARK_SIDE_INPUT}',
  'format' = 'csv'
);

CREATE TABLE nexmark_q13 (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  dateTime TIMESTAMP(3),
  `value` STRING
) WITH ('connector' = 'blackhole');

CREATE TEMPORARY VIEW bid_with_proctime AS
SELECT auction, bidder, price, dateTime, PROCTIME() AS p_time
FROM bid;

INSERT INTO nexmark_q13
SELECT B.auction, B.bidder, B.price, B.dateTime, S.`value`
FROM bid_with_proctime AS B
INNER JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S
ON MOD(B.auction, 10000) = S.`key`;
