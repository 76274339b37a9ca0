-- The interval join of the Table API guide (seed 000, "Stream Joins — Interval Joins"): orders
-- correlated with their shipments within 2 hours, over generated streams instead of Kafka
-- topics.
-- Run with: build/src/client/eddy sql -f examples/interval_join.sql
--
-- 8 orders, one every 10 minutes of event time from 2026-01-01 00:10; order n ships
-- 35 * n minutes after it was placed, so orders 1-3 ship within the 2 hours and join, and 4-8
-- ship too late and do not (every field is computed from the order number: the output is the
-- same on every run). The join keeps each order only until the watermark of the shipments has
-- passed its time + 2 hours, then releases it.

CREATE TABLE order_events (
    seq          BIGINT,
    order_id     AS CONCAT('order-', CAST(seq AS STRING)),
    user_id      AS CONCAT('user-', CAST(seq % 3 AS STRING)),
    amount       AS CAST(seq * 19.99 AS DECIMAL(12, 2)),
    event_time   AS TIMESTAMPADD(MINUTE, CAST(seq * 10 AS INT), TIMESTAMP '2026-01-01 00:00:00'),
    WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND
) WITH (
    'connector'             = 'datagen',
    'number-of-rows'        = '8',
    'fields.seq.kind'       = 'sequence',
    'fields.seq.start'      = '1',
    'fields.seq.end'        = '8'
);

CREATE TABLE shipment_events (
    seq          BIGINT,
    shipment_id  AS CONCAT('shipment-', CAST(seq AS STRING)),
    order_id     AS CONCAT('order-', CAST(seq AS STRING)),
    carrier      AS CASE WHEN seq % 2 = 0 THEN 'DHL' ELSE 'UPS' END,
    tracking_no  AS CONCAT('TRK', CAST(1000 + seq AS STRING)),
    event_time   AS TIMESTAMPADD(MINUTE, CAST(seq * 10 + seq * 35 AS INT),
                                 TIMESTAMP '2026-01-01 00:00:00'),
    WATERMARK FOR event_time AS event_time - INTERVAL '10' SECOND
) WITH (
    'connector'             = 'datagen',
    'number-of-rows'        = '8',
    'fields.seq.kind'       = 'sequence',
    'fields.seq.start'      = '1',
    'fields.seq.end'        = '8'
);

SET 'parallelism.default' = '1';

SELECT
    o.order_id,
    o.user_id,
    o.amount,
    s.shipment_id,
    s.carrier,
    s.tracking_no,
    o.event_time  AS order_time,
    s.event_time  AS ship_time,
    TIMESTAMPDIFF(MINUTE, o.event_time, s.event_time) AS fulfillment_minutes
FROM order_events  AS o
JOIN shipment_events AS s
  ON  o.order_id    = s.order_id
  AND s.event_time BETWEEN o.event_time
                       AND o.event_time + INTERVAL '2' HOURS;
