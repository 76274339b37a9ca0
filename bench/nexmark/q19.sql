-- Nexmark q19, auction top-10 price: the 10 highest bids of every auction, with their rank.
-- A Top-N per auction with the rank number selected (updates move rows between ranks).

CREATE TABLE nexmark_q19 (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  channel STRING,
  url STRING,
  dateTime TIMESTAMP(3),
  extra STRING,
  rank_number BIGINT
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q19
SELECT auction, bidder, price, channel, url, dateTime, extra, rank_number
FROM (
  SELECT auction, bidder, price, channel, url, dateTime, extra,
         ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number
  FROM bid
) AS ranked
WHERE rank_number <= 10;
