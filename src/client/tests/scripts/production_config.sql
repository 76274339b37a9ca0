-- The seed's production configuration loads; each key eddy does not honour yet says so.
SET 'execution.runtime-mode' = 'batch';
SELECT 1 + 1 AS two;
