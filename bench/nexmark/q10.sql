-- Nexmark q10, log to file system: every bid written to csv files partitioned by its day and
-- minute (`dt=2015-07-15/hm=00%3A01/part-..`: the ':' is escaped in the directory name, as
-- Flink's filesystem sink does). The driver points the table at a temporary directory
-- (${NEXMARK_OUTPUT_DIR}) and removes it after each run.

CREATE TABLE nexmark_q10 (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  dateTime TIMESTAMP(3),
  extra STRING,
  dt STRING,
  hm STRING
) PARTITIONED BY (dt, hm) WITH (
  'connector' = 'filesystem',
  'path' = '${NEXMARK_OUTPUT_DIR}/nexmark_q10',
  'format' = 'csv'
);

INSERT INTO nexmark_q10
SELECT auction, bidder, price, dateTime, extra,
       DATE_FORMAT(dateTime, 'yyyy-MM-dd'), DATE_FORMAT(dateTime, 'HH:mm')
FROM bid;
