-- q2, selection: the bids on auctions whose id is a multiple of 123.

CREATE TABLE q2_out (auction BIGINT, price BIGINT)
WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_OUT_DIR}', 'format' = 'csv');

INSERT INTO q2_out
SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0;
