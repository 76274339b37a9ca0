-- Nexmark q22, get URL directories: every bid with the first three directories of its URL
-- (`https://www.nexmark.com/<dir1>/<dir2>/<dir3>/item.htm?...`). String splitting per row.

CREATE TABLE nexmark_q22 (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  channel STRING,
  dir1 STRING,
  dir2 STRING,
  dir3 STRING
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q22
SELECT auction, bidder, price, channel,
       SPLIT_INDEX(url, '/', 3) AS dir1,
       SPLIT_INDEX(url, '/', 4) AS dir2,
       SPLIT_INDEX(url, '/', 5) AS dir3
FROM bid;
