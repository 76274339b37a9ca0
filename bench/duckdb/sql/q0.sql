-- q0, pass through (extra, not in the default list): every bid as it is. Measures reading and
-- writing the CSV alone.

CREATE TABLE q0_out (
  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  dateTime TIMESTAMP(3), extra STRING
) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_OUT_DIR}', 'format' = 'csv');

INSERT INTO q0_out
SELECT auction, bidder, price, channel, url, dateTime, extra FROM bid;
