-- Nexmark q4, average price for a category: the winning bid of an auction is its highest bid
-- placed while the auction was open; the query keeps, per category, the average winning price.
-- A regular join (the time condition compares with `expires`, not a time attribute, so it is
-- a residual condition and the state is never released), a MAX per auction that updates as
-- bids arrive, and an AVG per category over that updating input (retractions).

CREATE TABLE nexmark_q4 (
  category BIGINT,
  avg_final_price BIGINT
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q4
SELECT category, AVG(final_price)
FROM (
  SELECT A.id, A.category, MAX(B.price) AS final_price
  FROM auction AS A
  INNER JOIN bid AS B ON A.id = B.auction
  WHERE B.dateTime BETWEEN A.dateTime AND A.expires
  GROUP BY A.id, A.category
) AS winning_bids
GROUP BY category;
