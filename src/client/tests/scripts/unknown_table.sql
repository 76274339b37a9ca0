SET 'execution.runtime-mode' = 'batch';
-- The first failing statement stops the script.
SELECT * FROM no_such_table;
SELECT 'never runs';
