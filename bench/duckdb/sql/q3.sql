-- q3, local item suggestion: sellers in OR, ID or CA of auctions in category 10 (a join).

CREATE TABLE q3_out (name STRING, city STRING, state STRING, id BIGINT)
WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_OUT_DIR}', 'format' = 'csv');

INSERT INTO q3_out
SELECT P.name, P.city, P.state, A.id
FROM auction AS A
INNER JOIN person AS P ON A.seller = P.id
WHERE A.category = 10 AND P.state IN ('OR', 'ID', 'CA');
