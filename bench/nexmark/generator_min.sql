-- The generator alone, at its cheapest: every event's type and nothing else (the source then
-- draws no field values). With generator_bid.sql, the floor under every query's cost.

CREATE TABLE generator_min_sink (event_type INT) WITH ('connector' = 'blackhole');

INSERT INTO generator_min_sink
SELECT event_type FROM datagen;
