-- Nexmark q21, add channel id: every bid of a known channel with the channel's id: a fixed id
-- for the four big channels, otherwise the `channel_id` parameter of the bid's URL; bids with
-- neither are dropped. String functions and a regular expression per row.

CREATE TABLE nexmark_q21 (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  channel STRING,
  channel_id STRING
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q21
SELECT auction, bidder, price, channel,
       CASE
         WHEN LOWER(channel) = 'apple' THEN '0'
         WHEN LOWER(channel) = 'google' THEN '1'
         WHEN LOWER(channel) = 'facebook' THEN '2'
         WHEN LOWER(channel) = 'baidu' THEN '3'
         ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)
       END AS channel_id
FROM bid
WHERE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) IS NOT NULL
   OR LOWER(channel) IN ('apple', 'google', 'facebook', 'baidu');
