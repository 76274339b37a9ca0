-- The SQL job of the kill -9 test (tests/fault_tolerance/kill9.sh, docs/testing.md).
--
-- A datagen sequence 0 .. ${KILL9_SEQ_END}, paced at ${KILL9_ROWS_PER_SECOND} rows per second,
-- with event time computed from the sequence number (10 ms of event time per row, so every
-- result is the same on every run), feeds two event-time operators whose rows go into one
-- partitioned filesystem table:
--   - kind=window: a TUMBLE window aggregation (1 s windows, 100 rows each) per key k;
--   - kind=join: an interval join of the rows with seq % 3 = 0 and those with seq % 5 = 0 of
--     the same key whose times are at most 250 ms (25 rows) apart.
-- The harness runs this same file in STREAMING mode (checkpointed, killed, restored) and in
-- BATCH mode (the reference) and compares the committed lines. The runtime mode, the
-- parallelism, checkpointing and the restore path come from -D options, so the query text is
-- the same in every run (operators are matched to their state by ids derived from it).
--
-- Variables (set by the harness): KILL9_SEQ_END, KILL9_ROWS_PER_SECOND, KILL9_OUT (the sink's
-- directory).

-- An INSERT waits for its job to end (Flink's client default is false; the harness needs the
-- process to live as long as the job).
SET 'table.dml-sync' = 'true';

CREATE TABLE events (
  seq BIGINT NOT NULL,
  k   AS CAST(seq % 7 AS INT),
  ts  AS TIMESTAMPADD(MILLISECOND, CAST(seq * 10 AS INT), TIMESTAMP '2026-01-01 00:00:00'),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '${KILL9_ROWS_PER_SECOND}',
  'fields.seq.kind' = 'sequence',
  'fields.seq.start' = '0',
  'fields.seq.end' = '${KILL9_SEQ_END}'
);

-- One line per result row: the partition directories kind=<kind>/bucket=<n> hold the lines
-- k,lo,hi,n,total,t_lo,t_hi.
CREATE TABLE results (
  kind   STRING,
  bucket BIGINT,
  k      INT,
  lo     BIGINT,
  hi     BIGINT,
  n      BIGINT,
  total  BIGINT,
  t_lo   STRING,
  t_hi   STRING
) PARTITIONED BY (kind, bucket) WITH (
  'connector' = 'filesystem',
  'path' = '${KILL9_OUT}',
  'format' = 'csv'
);

INSERT INTO results
-- window: lo/hi the first and last sequence number of the window, n its row count, total
-- their sum.
SELECT 'window', MIN(seq) / 1000, k, MIN(seq), MAX(seq), COUNT(*), SUM(seq),
       CAST(window_start AS STRING), CAST(window_end AS STRING)
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' SECOND))
GROUP BY window_start, window_end, k
UNION ALL
-- join: lo/hi the two sequence numbers, n their distance, total their sum.
SELECT 'join', a.seq / 1000, a.k, a.seq, b.seq, b.seq - a.seq, a.seq + b.seq,
       CAST(a.ts AS STRING), CAST(b.ts AS STRING)
FROM events AS a, events AS b
WHERE a.k = b.k AND a.seq % 3 = 0 AND b.seq % 5 = 0
  AND b.ts BETWEEN a.ts - INTERVAL '0.25' SECOND AND a.ts + INTERVAL '0.25' SECOND;
