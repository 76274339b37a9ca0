CREATE TEMPORARY TABLE IF NOT EXISTS cat.db.orders (
  id BIGINT NOT NULL COMMENT 'key',
  price DECIMAL(10, 2),
  tags ARRAY<STRING>, attrs MAP<STRING, INT>, nested ROW<a INT, b TIMESTAMP(3)>,
  cost AS price * 2,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
  rowtime TIMESTAMP(3),
  WATERMARK FOR rowtime AS rowtime - INTERVAL '5' SECOND,
  CONSTRAINT pk PRIMARY KEY (id) NOT ENFORCED
) COMMENT 'orders' PARTITIONED BY (id) WITH ('connector' = 'datagen', 'rows-per-second' = '10')
LIKE base (EXCLUDING ALL INCLUDING OPTIONS)
