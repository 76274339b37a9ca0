-- not run: needs the filesystem sink with PARTITIONED BY, which eddy rejects (docs/features.md:
-- "PARTITIONED BY (rejected)").
--
-- Nexmark q10, log to file system: every bid written to files partitioned by its day and
-- minute. The statement below is what it would be once partitioned file sinks work; the
-- driver does not run it. eddy's error for it:
--   PARTITIONED BY is not supported yet by the filesystem connector (table
--   'default_catalog.default_database.nexmark_q10')

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
  'path' = '/tmp/nexmark_q10',
  'format' = 'csv'
);

INSERT INTO nexmark_q10
SELECT auction, bidder, price, dateTime, extra,
       DATE_FORMAT(dateTime, 'yyyy-MM-dd'), DATE_FORMAT(dateTime, 'HH:mm')
FROM bid;
