SELECT auction, bidder, price, channel, url, dateTime, extra FROM bid
