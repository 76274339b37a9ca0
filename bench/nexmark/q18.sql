-- Nexmark q18, find last bid: each bidder's latest bid on each auction. A deduplication
-- keeping the last row per (bidder, auction) by event time (ROW_NUMBER ... ORDER BY dateTime
-- DESC = 1), which retracts the previous last bid whenever a newer one arrives.

CREATE TABLE nexmark_q18 (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  channel STRING,
  url STRING,
  dateTime TIMESTAMP(3),
  extra STRING
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q18
SELECT auction, bidder, price, channel, url, dateTime, extra
FROM (
  SELECT auction, bidder, price, channel, url, dateTime, extra,
         ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY dateTime DESC) AS row_num
  FROM bid
) AS ranked
WHERE row_num <= 1;
