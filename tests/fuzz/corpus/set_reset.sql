SET; SET 'table.exec.mini-batch.enabled' = 'true'; RESET; RESET 'k'
