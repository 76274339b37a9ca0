-- eddy quickstart: revenue and order count per product over generated orders.
-- Run with: bash scripts/run-main.sh   (or: build/src/client/eddy sql -f examples/quickstart.sql)
--
-- The datagen connector generates 12 orders; the GROUP BY runs as a streaming query, so the
-- result is a changelog: +I when a product is first seen, then -U/+U as its totals change.

CREATE TABLE order_events (
  order_id   BIGINT,
  product_id INT,
  price      DECIMAL(10, 2),
  quantity   INT
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

SELECT product_id,
       COUNT(*) AS orders,
       SUM(price * quantity) AS revenue
FROM order_events
GROUP BY product_id;
