-- q22, URL directories (extra, not in the default list): every bid with the first three
-- directories of its URL (string splitting per row).

CREATE TABLE q22_out (
  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING,
  dir1 STRING, dir2 STRING, dir3 STRING
) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_OUT_DIR}', 'format' = 'csv');

INSERT INTO q22_out
SELECT auction, bidder, price, channel,
       SPLIT_INDEX(url, '/', 3) AS dir1,
       SPLIT_INDEX(url, '/', 4) AS dir2,
       SPLIT_INDEX(url, '/', 5) AS dir3
FROM bid;
