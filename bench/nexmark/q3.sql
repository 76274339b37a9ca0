-- Nexmark q3, local item suggestion: who is selling in category 10 in Oregon, Idaho or
-- California? A regular (unwindowed) inner join of auctions with their sellers; both sides are
-- kept in state for ever, and a person's auctions may arrive before or after the person.

CREATE TABLE nexmark_q3 (
  name STRING,
  city STRING,
  state STRING,
  id BIGINT
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q3
SELECT P.name, P.city, P.state, A.id
FROM auction AS A
INNER JOIN person AS P ON A.seller = P.id
WHERE A.category = 10 AND P.state IN ('OR', 'ID', 'CA');
