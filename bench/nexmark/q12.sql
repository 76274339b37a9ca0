-- Nexmark q12, processing-time windows: how many bids each bidder makes in 10-second windows of
-- processing time (the wall clock at arrival, a PROCTIME() column). At the end of the bounded
-- input eddy emits the pending windows (Flink drops them).

CREATE TABLE nexmark_q12 (
  bidder BIGINT,
  bid_count BIGINT,
  start_time TIMESTAMP(3),
  end_time TIMESTAMP(3)
) WITH ('connector' = 'blackhole');

CREATE TEMPORARY VIEW bid_with_proctime AS
SELECT auction, bidder, price, channel, url, dateTime, extra, PROCTIME() AS p_time
FROM bid;

INSERT INTO nexmark_q12
SELECT bidder, COUNT(*) AS bid_count, window_start, window_end
FROM TABLE(TUMBLE(TABLE bid_with_proctime, DESCRIPTOR(p_time), INTERVAL '10' SECOND))
GROUP BY bidder, window_start, window_end;
