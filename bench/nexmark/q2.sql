-- Nexmark q2, selection: the bids on a set of auctions, here those whose id is a multiple of
-- 123. A filter that keeps few rows.

CREATE TABLE nexmark_q2 (
  auction BIGINT,
  price BIGINT
) WITH ('connector' = 'blackhole');

INSERT INTO nexmark_q2
SELECT auction, price
FROM bid
WHERE MOD(auction, 123) = 0;
