-- Changelog mode is refused for a script's query as well (any case of the value).
SET 'sql-client.execution.result-mode' = 'CHANGELOG';
SELECT 1 AS x;
