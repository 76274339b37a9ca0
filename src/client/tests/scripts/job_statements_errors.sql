-- Flink's job statements in a script: SHOW JOBS before any job, an INSERT the client waits for
-- (table.dml-sync unset), then STOP JOB of an id that is no job id, which stops the script.
SET 'parallelism.default' = '1';
SHOW JOBS;
CREATE TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO sink VALUES (1);
STOP JOB 'insert-into_sink';
SELECT 'never runs';
