-- q17, auction statistics report: per auction and day, the bids (in total and per price
-- range) and the minimum, maximum, average and sum of their prices.

CREATE TABLE q17_out (
  auction BIGINT, `day` STRING,
  total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT, rank3_bids BIGINT,
  min_price BIGINT, max_price BIGINT, avg_price BIGINT, sum_price BIGINT
) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_OUT_DIR}', 'format' = 'csv');

INSERT INTO q17_out
SELECT
  auction,
  DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS `day`,
  COUNT(*) AS total_bids,
  COUNT(*) FILTER (WHERE price < 10000) AS rank1_bids,
  COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,
  COUNT(*) FILTER (WHERE price >= 1000000) AS rank3_bids,
  MIN(price) AS min_price,
  MAX(price) AS max_price,
  AVG(price) AS avg_price,
  SUM(price) AS sum_price
FROM bid
GROUP BY auction, DATE_FORMAT(dateTime, 'yyyy-MM-dd');
