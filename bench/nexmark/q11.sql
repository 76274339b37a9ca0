-- Nexmark q11, user sessions: how many bids each bidder makes in each of their active periods,
-- a session ending after 10 seconds without a bid (a SESSION window per bidder).

CREATE TABLE nexmark_q11 (
  bidder BIGINT,
  bid_count BIGINT,
  start_time TIMESTAMP(3),
  end_time TIMESTAMP(3)
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q11
SELECT bidder, COUNT(*) AS bid_count, window_start AS start_time, window_end AS end_time
FROM TABLE(SESSION(TABLE bid PARTITION BY bidder, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
GROUP BY bidder, window_start, window_end;
