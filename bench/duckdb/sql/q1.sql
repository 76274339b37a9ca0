-- q1, currency conversion: every bid with its price in euros (0.908 * price, exact DECIMAL).

CREATE TABLE q1_out (
  auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), dateTime TIMESTAMP(3), extra STRING
) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_OUT_DIR}', 'format' = 'csv',
        'csv.write-bigdecimal-in-scientific-notation' = 'false');

INSERT INTO q1_out
SELECT auction, bidder, 0.908 * price AS price, dateTime, extra FROM bid;
