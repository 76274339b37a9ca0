-- Window aggregations of the Table API guide (seed 000, "Window Aggregations — TUMBLE, HOP, and
-- CUMULATE") over generated orders instead of a Kafka topic.
-- Run with: build/src/client/eddy sql -f examples/windows.sql
--
-- 12 orders, one per minute of event time from 2026-01-01 00:01; every field is computed from
-- the order number, so the output is the same on every run. The watermark trails the latest
-- order by 5 seconds; each window is emitted once, when the watermark passes its end (the end
-- of the input passes them all), so every result is insert-only.

CREATE TABLE order_events (
  seq         BIGINT,
  order_id    AS CONCAT('order-', CAST(seq AS STRING)),
  user_id     AS CONCAT('user-', CAST(seq % 2 AS STRING)),
  product_id  AS CONCAT('product-', CAST(seq % 3 AS STRING)),
  quantity    AS CAST(seq % 4 + 1 AS INT),
  amount      AS CAST(seq * 12.5 AS DECIMAL(12, 2)),
  event_time  AS TIMESTAMPADD(MINUTE, CAST(seq AS INT), TIMESTAMP '2026-01-01 00:00:00'),
  WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '12',
  'fields.seq.kind' = 'sequence',
  'fields.seq.start' = '1',
  'fields.seq.end' = '12'
);

SET 'parallelism.default' = '1';

-- TUMBLE window: fixed-size non-overlapping windows; one row per product and window.
SELECT
    product_id,
    window_start,
    window_end,
    COUNT(*)           AS order_count,
    SUM(amount)        AS total_revenue,
    AVG(amount)        AS avg_order_value,
    MAX(amount)        AS max_order
FROM TABLE(
    TUMBLE(TABLE order_events, DESCRIPTOR(event_time), INTERVAL '5' MINUTES)
)
GROUP BY product_id, window_start, window_end;

-- HOP (sliding) window: 10-minute windows every minute; each order is in 10 windows.
SELECT
    user_id,
    window_start,
    window_end,
    COUNT(DISTINCT product_id)  AS unique_products_bought,
    SUM(amount)                 AS rolling_10m_spend
FROM TABLE(
    HOP(TABLE order_events, DESCRIPTOR(event_time),
        INTERVAL '1' MINUTE,
        INTERVAL '10' MINUTES)
)
GROUP BY user_id, window_start, window_end;

-- CUMULATE window: windows growing by a step (here 5 minutes) up to a maximum size (1 hour);
-- the seed's hourly steps over a day emit the same totals for these 12 minutes of orders.
SELECT
    product_id,
    window_start,
    window_end,
    SUM(amount)    AS cumulative_revenue,
    COUNT(*)       AS cumulative_orders
FROM TABLE(
    CUMULATE(
        TABLE order_events,
        DESCRIPTOR(event_time),
        INTERVAL '5' MINUTES,
        INTERVAL '1' HOUR
    )
)
GROUP BY product_id, window_start, window_end;
