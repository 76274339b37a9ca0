-- eddy quickstart: revenue and order count per product in 5-minute event-time windows over
-- generated orders.
-- Run with: bash scripts/run-main.sh   (or: build/src/client/eddy sql -f examples/quickstart.sql)
--
-- The datagen connector generates 12 orders, one per minute of event time (order_time is
-- computed from the order id); the watermark trails the latest order time by 5 seconds. The
-- TUMBLE window aggregation emits each window once, when the watermark passes its end, so the
-- result is insert-only (+I), unlike a plain GROUP BY's changelog of -U/+U updates.

CREATE TABLE order_events (
  order_id   BIGINT,
  product_id INT,
  price      DECIMAL(10, 2),
  quantity   INT,
  order_time AS TIMESTAMPADD(MINUTE, CAST(order_id AS INT), TIMESTAMP '2026-01-01 00:00:00'),
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '12',
  'fields.order_id.kind' = 'sequence',
  'fields.order_id.start' = '1',
  'fields.order_id.end' = '12',
  'fields.product_id.min' = '1',
  'fields.product_id.max' = '3',
  'fields.price.min' = '1',
  'fields.price.max' = '100',
  'fields.quantity.min' = '1',
  'fields.quantity.max' = '5'
);

SET 'parallelism.default' = '1';

SELECT window_start,
       window_end,
       product_id,
       COUNT(*) AS orders,
       SUM(price * quantity) AS revenue
FROM TABLE(TUMBLE(TABLE order_events, DESCRIPTOR(order_time), INTERVAL '5' MINUTES))
GROUP BY window_start, window_end, product_id;
