-- q4, average price for a category, in batch: the winning bid of each auction (its highest bid
-- placed while it was open), then the average winning price per category. AVG of a BIGINT is
-- a BIGINT (Flink: the sum divided by the count, truncated).

CREATE TABLE q4_out (category BIGINT, avg_final_price BIGINT)
WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_OUT_DIR}', 'format' = 'csv');

INSERT INTO q4_out
SELECT category, AVG(final_price)
FROM (
  SELECT A.id, A.category, MAX(B.price) AS final_price
  FROM auction AS A
  INNER JOIN bid AS B ON A.id = B.auction
  WHERE B.dateTime BETWEEN A.dateTime AND A.expires
  GROUP BY A.id, A.category
) AS winning_bids
GROUP BY category;
