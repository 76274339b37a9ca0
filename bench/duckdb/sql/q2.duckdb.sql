SELECT auction, price FROM bid WHERE auction % 123 = 0
