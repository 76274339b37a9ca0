-- RESET brings back the tableau mode, in which a script's query runs. The query takes about
-- 1.5 s, longer than the progress line waits, but stderr is no terminal here: nothing reaches
-- it, and stdout holds only the result.
SET 'sql-client.execution.result-mode' = 'table';
RESET 'sql-client.execution.result-mode';
SET 'execution.runtime-mode' = 'streaming';
SET 'parallelism.default' = '1';
CREATE TABLE ticks (id BIGINT) WITH (
  'connector' = 'datagen', 'number-of-rows' = '6', 'rows-per-second' = '4',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '6');
SELECT id FROM ticks;
