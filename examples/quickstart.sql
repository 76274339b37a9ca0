-- eddy quickstart: revenue and order count per product in 5-minute event-time windows over
-- generated orders.
-- Run with: bash scripts/run-main.sh   (or: build/src/client/eddy sql -f examples/quickstart.sql)
--
-- The datagen connector generates 12 orders, one per minute of event time (order_time is
-- computed from the order id, and so are the product, the price and the quantity: the output
-- is the same on every run); the watermark trails the latest order time by 5 seconds. The
-- TUMBLE window aggregation emits each window once, when the watermark passes its end, so the
-- result is insert-only (+I), unlike a plain GROUP BY's changelog of -U/+U updates.

CREATE TABLE order_events (
  order_id   BIGINT,
  product_id AS CAST(order_id % 3 + 1 AS INT),
  price      AS CAST(order_id * 7.25 AS DECIMAL(10, 2)),
  quantity   AS CAST(order_id % 4 + 1 AS INT),
  order_time AS TIMESTAMPADD(MINUTE, CAST(order_id AS INT), TIMESTAMP '2026-01-01 00:00:00'),
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '12',
  'fields.order_id.kind' = 'sequence',
  'fields.order_id.start' = '1',
  'fields.order_id.end' = '12'
);

SET 'parallelism.default' = '1';

SELECT window_start,
       window_end,
       product_id,
       COUNT(*) AS orders,
       SUM(price * quantity) AS revenue
FROM TABLE(TUMBLE(TABLE order_events, DESCRIPTOR(order_time), INTERVAL '5' MINUTES))
GROUP BY window_start, window_end, product_id;
