-- not run: needs an OVER window of the last 10 rows over the updating result of a join and an
-- aggregation (ORDER BY a non-time column), which neither Flink nor eddy supports.
--
-- Nexmark q6, average selling price by seller: per seller, the average of the final prices of
-- its last 10 closed auctions. The statement below is what it would be; Flink's benchmark lists
-- q6 as not supported too. eddy's error for it:
--   SQL validation failed. From line 3, column 60: OVER windows' ordering in stream mode must
--   be defined on a time attribute.

CREATE TABLE nexmark_q6 (
  seller BIGINT,
  avg_price BIGINT
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q6
SELECT seller,
       AVG(final_price) OVER (PARTITION BY seller ORDER BY close_time
                              ROWS BETWEEN 10 PRECEDING AND CURRENT ROW)
FROM (
  SELECT A.id, A.seller, MAX(B.price) AS final_price, MAX(B.dateTime) AS close_time
  FROM auction AS A
  INNER JOIN bid AS B ON A.id = B.auction
  WHERE B.dateTime BETWEEN A.dateTime AND A.expires
  GROUP BY A.id, A.seller
) AS winning_bids;
