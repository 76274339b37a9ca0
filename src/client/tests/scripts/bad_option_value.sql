SET 'execution.runtime-mode' = 'batch';
  SET 'execution.checkpointing.interval' = '10 parsecs';
SELECT 'never runs';
