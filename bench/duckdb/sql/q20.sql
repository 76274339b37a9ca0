-- q20, expand bid with auction (extra, not in the default list): every bid on an auction of
-- category 10 with the auction's fields (a join of the two big tables).

CREATE TABLE q20_out (
  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  bid_dateTime TIMESTAMP(3), bid_extra STRING, itemName STRING, description STRING,
  initialBid BIGINT, reserve BIGINT, auction_dateTime TIMESTAMP(3), expires TIMESTAMP(3),
  seller BIGINT, category BIGINT, auction_extra STRING
) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_OUT_DIR}', 'format' = 'csv');

INSERT INTO q20_out
SELECT B.auction, B.bidder, B.price, B.channel, B.url, B.dateTime AS bid_dateTime,
       B.extra AS bid_extra, A.itemName, A.description, A.initialBid, A.reserve,
       A.dateTime AS auction_dateTime, A.expires, A.seller, A.category,
       A.extra AS auction_extra
FROM bid AS B
INNER JOIN auction AS A ON B.auction = A.id
WHERE A.category = 10;
