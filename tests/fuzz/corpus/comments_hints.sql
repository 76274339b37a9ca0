/* comment */ SELECT /*+ OPTIONS('k' = 'v') */ a -- line comment
FROM t /*+ OPTIONS('scan.startup.mode' = 'earliest-offset') */
WHERE a <> 1 AND b != 2 OR NOT c
