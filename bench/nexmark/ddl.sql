-- The Nexmark source and its three views, run by the driver (nexmark.cpp) before every query.
--
-- `datagen` is the nexmark connector's nested table (docs/connectors.md, "nexmark"): one row
-- per event, `event_type` 0 (person), 1 (auction) or 2 (bid), the other two ROW columns NULL.
-- `dateTime` is the event's time whatever its type, and the rowtime attribute, with a
-- 4-second bounded-out-of-orderness watermark. The views `person`, `auction` and `bid` are
-- the flat tables the queries read; the optimizer pushes the fields a query reads into the
-- source, so a query pays only for the columns it uses.
--
-- ${NEXMARK_EVENTS_NUM} (total events) and ${NEXMARK_FIRST_EVENT_RATE} (events per second of
-- event time, so the run spans events / rate seconds of event time) are replaced by the
-- driver; `eddy sql` replaces them from environment variables of those names, so
--   NEXMARK_EVENTS_NUM=1000000 NEXMARK_FIRST_EVENT_RATE=10000000 \
--     eddy sql -i bench/nexmark/ddl.sql -f bench/nexmark/q1.sql
-- runs one query by hand.

CREATE TABLE datagen (
  event_type INT,
  person ROW<
    id BIGINT,
    name STRING,
    emailAddress STRING,
    creditCard STRING,
    city STRING,
    state STRING,
    dateTime TIMESTAMP(3),
    extra STRING>,
  auction ROW<
    id BIGINT,
    itemName STRING,
    description STRING,
    initialBid BIGINT,
    reserve BIGINT,
    dateTime TIMESTAMP(3),
    expires TIMESTAMP(3),
    seller BIGINT,
    category BIGINT,
    extra STRING>,
  bid ROW<
    auction BIGINT,
    bidder BIGINT,
    price BIGINT,
    channel STRING,
    url STRING,
    dateTime TIMESTAMP(3),
    extra STRING>,
  dateTime AS CASE
    WHEN event_type = 0 THEN person.dateTime
    WHEN event_type = 1 THEN auction.dateTime
    ELSE bid.dateTime
  END,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH (
  'connector' = 'nexmark',
  'first-event.rate' = '${NEXMARK_FIRST_EVENT_RATE}',
  'events.num' = '${NEXMARK_EVENTS_NUM}'
);

CREATE VIEW person AS
SELECT person.id, person.name, person.emailAddress, person.creditCard, person.city,
       person.state, dateTime, person.extra
FROM datagen
WHERE event_type = 0;

CREATE VIEW auction AS
SELECT auction.id, auction.itemName, auction.description, auction.initialBid,
       auction.reserve, dateTime, auction.expires, auction.seller, auction.category,
       auction.extra
FROM datagen
WHERE event_type = 1;

CREATE VIEW bid AS
SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url, dateTime, bid.extra
FROM datagen
WHERE event_type = 2;
