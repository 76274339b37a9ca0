-- DuckDB's AVG is a DOUBLE; Flink's AVG(BIGINT) is the BIGINT sum divided by the count.
SELECT category, CAST(SUM(final_price) // COUNT(final_price) AS BIGINT) AS avg_final_price
FROM (
  SELECT A.id, A.category, MAX(B.price) AS final_price
  FROM auction AS A
  INNER JOIN bid AS B ON A.id = B.auction
  WHERE B.dateTime BETWEEN A.dateTime AND A.expires
  GROUP BY A.id, A.category
) AS winning_bids
GROUP BY category
