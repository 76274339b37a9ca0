-- COUNT_CHAR is a user-defined scalar function: the driver registers a C++ function with
-- TableEnvironment::createTemporarySystemFunction (eddy/table/functions.h).
--
-- Nexmark q14, calculation: bids of a middle price range, converted to euros, labelled by the
-- part of the day they were placed in, with the number of 'c' characters in their `extra`.
-- eddy's error for it:
--   SQL validation failed. From line 8, column 25: No match found for function signature
--   COUNT_CHAR(<VARCHAR(2147483647)>, <CHAR(1)>)

CREATE TABLE nexmark_q14 (
  auction BIGINT,
  bidder BIGINT,
  price DECIMAL(23, 3),
  bidTimeType STRING,
  dateTime TIMESTAMP(3),
  extra STRING,
  c_counts BIGINT
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q14
SELECT auction, bidder, 0.908 * price AS price,
       CASE
         WHEN HOUR(dateTime) >= 8 AND HOUR(dateTime) <= 18 THEN 'dayTime'
         WHEN HOUR(dateTime) <= 6 OR HOUR(dateTime) >= 20 THEN 'nightTime'
         ELSE 'otherTime'
       END AS bidTimeType,
       dateTime, extra, COUNT_CHAR(extra, 'c') AS c_counts
FROM bid
WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000;
