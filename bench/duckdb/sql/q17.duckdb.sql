-- DuckDB's AVG is a DOUBLE; Flink's AVG(BIGINT) is the BIGINT sum divided by the count.
SELECT
  auction,
  strftime(dateTime, '%Y-%m-%d') AS "day",
  COUNT(*) AS total_bids,
  COUNT(*) FILTER (WHERE price < 10000) AS rank1_bids,
  COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,
  COUNT(*) FILTER (WHERE price >= 1000000) AS rank3_bids,
  MIN(price) AS min_price,
  MAX(price) AS max_price,
  CAST(SUM(price) // COUNT(price) AS BIGINT) AS avg_price,
  SUM(price) AS sum_price
FROM bid
GROUP BY auction, strftime(dateTime, '%Y-%m-%d')
