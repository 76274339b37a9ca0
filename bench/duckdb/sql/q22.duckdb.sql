-- Flink's SPLIT_INDEX counts from 0, DuckDB's split_part from 1.
SELECT auction, bidder, price, channel,
       split_part(url, '/', 4) AS dir1,
       split_part(url, '/', 5) AS dir2,
       split_part(url, '/', 6) AS dir3
FROM bid
