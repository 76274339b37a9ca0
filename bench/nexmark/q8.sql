-- Nexmark q8, monitor new users: the persons who registered and put up an auction in the same
-- 10-second period (TUMBLE windows). A join of two window aggregations on the window and the
-- person's id (eddy runs it as a regular join: insert-only, but its state is not released per
-- window).

CREATE TABLE nexmark_q8 (
  id BIGINT,
  name STRING,
  start_time TIMESTAMP(3)
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q8
SELECT P.id, P.name, P.start_time
FROM (
  SELECT id, name, window_start AS start_time, window_end AS end_time
  FROM TABLE(TUMBLE(TABLE person, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
  GROUP BY id, name, window_start, window_end
) AS P
INNER JOIN (
  SELECT seller, window_start AS start_time, window_end AS end_time
  FROM TABLE(TUMBLE(TABLE auction, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
  GROUP BY seller, window_start, window_end
) AS A
ON P.id = A.seller AND P.start_time = A.start_time AND P.end_time = A.end_time;
