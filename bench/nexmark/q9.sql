-- Nexmark q9, winning bids: every auction with its winning bid, the highest bid placed while
-- the auction was open (the earliest of equal ones). A regular join of auctions and bids with a
-- residual time condition, then a Top-1 per auction (ROW_NUMBER over PARTITION BY the auction),
-- which retracts its previous winner whenever a higher bid arrives.

CREATE TABLE nexmark_q9 (
  id BIGINT,
  itemName STRING,
  description STRING,
  initialBid BIGINT,
  reserve BIGINT,
  dateTime TIMESTAMP(3),
  expires TIMESTAMP(3),
  seller BIGINT,
  category BIGINT,
  extra STRING,
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  bid_dateTime TIMESTAMP(3),
  bid_extra STRING
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q9
SELECT id, itemName, description, initialBid, reserve, dateTime, expires, seller, category,
       extra, auction, bidder, price, bid_dateTime, bid_extra
FROM (
  SELECT A.id, A.itemName, A.description, A.initialBid, A.reserve, A.dateTime, A.expires,
         A.seller, A.category, A.extra,
         B.auction, B.bidder, B.price, B.dateTime AS bid_dateTime, B.extra AS bid_extra,
         ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC, B.dateTime ASC) AS row_num
  FROM auction AS A
  INNER JOIN bid AS B ON A.id = B.auction
  WHERE B.dateTime BETWEEN A.dateTime AND A.expires
) AS ranked
WHERE row_num <= 1;
