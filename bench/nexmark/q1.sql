-- Nexmark q1, currency conversion: every bid with its price converted from dollars to euros
-- (a fixed rate of 0.908). A projection with exact DECIMAL arithmetic.

CREATE TABLE nexmark_q1 (
  auction BIGINT,
  bidder BIGINT,
  price DECIMAL(23, 3),
  dateTime TIMESTAMP(3),
  extra STRING
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q1
SELECT auction, bidder, 0.908 * price AS price, dateTime, extra
FROM bid;
