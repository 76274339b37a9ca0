SET 'execution.runtime-mode' = 'batch';
SET 'pipeline.name' = '${JOB_NAME}';
SELECT '${EDDY_TEST_UNSET_VARIABLE}' AS missing;
