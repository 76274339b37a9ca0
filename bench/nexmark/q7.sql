-- Nexmark q7, highest bid: every 10 seconds (a TUMBLE window), the bid or bids with the
-- window's highest price. The window's maximum price is joined back with the bids of that
-- window: an interval join on the window's rowtime (`window_time`, the window end minus 1 ms),
-- so its state is released as the watermark passes.

CREATE TABLE nexmark_q7 (
  auction BIGINT,
  price BIGINT,
  bidder BIGINT,
  dateTime TIMESTAMP(3),
  extra STRING
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q7
SELECT B.auction, B.price, B.bidder, B.dateTime, B.extra
FROM bid AS B
INNER JOIN (
  SELECT MAX(price) AS max_price, window_time
  FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end, window_time
) AS W
ON B.price = W.max_price
WHERE B.dateTime BETWEEN W.window_time - INTERVAL '10' SECOND AND W.window_time;
