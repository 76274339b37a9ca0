-- sql-client.display.max-column-width: values wider than the limit are cut with "...", in a
-- batch result (widths from the content) and in a streaming one (string columns as wide as the
-- limit); a limit below 4 is refused, naming the key.
SET 'parallelism.default' = '1';
SET 'sql-client.display.max-column-width' = '8';
SET 'execution.runtime-mode' = 'batch';
SELECT name, city FROM (VALUES ('Alexandra', 'Rio de Janeiro'), ('Bo', 'Oslo')) AS t(name, city);
SET 'execution.runtime-mode' = 'streaming';
SELECT name, city FROM (VALUES ('Alexandra', 'Rio de Janeiro'), ('Bo', 'Oslo')) AS t(name, city);
SET 'sql-client.display.max-column-width' = '3';
