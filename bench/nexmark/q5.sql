-- Nexmark q5, hot items: which auctions have seen the most bids in the last period? Every 2
-- seconds, over the last 10 seconds (a HOP window), the auctions whose bid count is the
-- window's largest. Written, as in Flink's benchmark, as a join of the per-auction counts with
-- the per-window maximum of those counts: a window aggregation, a regular aggregation over
-- its output (updating), and a regular join of the two on the window.

CREATE TABLE nexmark_q5 (
  auction BIGINT,
  num BIGINT
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q5
SELECT auction_bids.auction, auction_bids.num
FROM (
  SELECT auction, COUNT(*) AS num, window_start AS start_time, window_end AS end_time
  FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
  GROUP BY auction, window_start, window_end
) AS auction_bids
INNER JOIN (
  SELECT MAX(count_bids.num) AS max_num, count_bids.start_time, count_bids.end_time
  FROM (
    SELECT COUNT(*) AS num, window_start AS start_time, window_end AS end_time
    FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
    GROUP BY auction, window_start, window_end
  ) AS count_bids
  GROUP BY count_bids.start_time, count_bids.end_time
) AS max_bids
ON auction_bids.start_time = max_bids.start_time
  AND auction_bids.end_time = max_bids.end_time
  AND auction_bids.num >= max_bids.max_num;
