-- A script shows query results in the tableau form only: in table mode a query fails, as in
-- Flink's non-interactive mode, and the script stops there.
SET 'sql-client.execution.result-mode' = 'table';
CREATE TEMPORARY VIEW one AS SELECT 1 AS x;
SELECT x FROM one;
SELECT 'not reached' AS y;
