CREATE TABLE t2 WITH ('connector' = 'blackhole') AS SELECT * FROM t
