-- not run: needs a processing-time temporal (lookup) join against a bounded side input, which
-- eddy does not have yet ("Processing-time temporal join is not supported yet").
--
-- Nexmark q13, bounded side input join: every bid joined with a value looked up in a static
-- table by `auction mod 10000`. The side input would be a file of 10000 (key, value) lines.
-- eddy's error for it:
--   SQL validation failed. From line 4, column 45: Processing-time temporal join is not
--   supported yet: it needs a lookup source

CREATE TABLE side_input (
  `key` BIGINT,
  `value` STRING
) WITH (
  'connector' = 'filesystem',
  'path' = '/tmp/nexmark_side_input.csv',
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
