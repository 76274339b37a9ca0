// The nexmark connector: the exact first events of seed 0 at the default base time, event
// types in their proportions, ids and event time derived from the event number, the same
// events at every parallelism (strided blocks, event time non-decreasing per subtask), the
// value distributions of the Nexmark specification, projected flat columns equal to the nested
// ROW fields, an unthrottled unbounded source, and option and schema errors with their exact
// messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "connectors/datagen/datagen_factory.h"
#include "connectors/nexmark/nexmark_factory.h"
#include "connectors/nexmark/nexmark_source.h"
#include "connectors/tests/connector_test_support.h"
#include "eddy/detail/datastream/operators.h"

namespace eddy::connectors {
namespace {

using testing::bigintType;
using testing::collectChunks;
using testing::intType;
using testing::rowsOf;
using testing::rowType;
using testing::stringType;
using testing::tableContext;
using testing::validationMessage;

// 2015-07-15 00:00:00 UTC, the default event time of event 0.
constexpr int64_t kBaseMillis = 1'436'918'400'000;

std::unique_ptr<DynamicTableSource> nexmarkSource(std::map<std::string, std::string> options,
                                                  LogicalTypePtr type = nexmarkPhysicalRowType()) {
  options["connector"] = "nexmark";
  ConnectorContext context = tableContext(std::move(type), std::move(options));
  return FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(context);
}

// Every chunk subtask `subtask` of `parallelism` emits, in order (the reader run directly).
std::vector<vector::Chunk> readSubtask(const Source<vector::Chunk>& source, int subtask,
                                       int parallelism) {
  auto reader = source.createReader(subtask, parallelism);
  operators::BatchReaderOutput<vector::Chunk> output;
  std::vector<vector::Chunk> chunks;
  while (true) {
    InputStatus status = reader->pollNext(output);
    std::unique_ptr<runtime::TypedBatch<vector::Chunk>> batch = output.take();
    for (vector::Chunk& chunk : batch->records) chunks.push_back(std::move(chunk));
    if (status == InputStatus::END_OF_INPUT) return chunks;
  }
}

std::vector<Row> readAll(DynamicTableSource& source) {
  return rowsOf(readSubtask(*source.createSource(), 0, 1));
}

std::vector<std::string> printed(const std::vector<Row>& rows) {
  std::vector<std::string> lines;
  for (const Row& row : rows) lines.push_back(row.toString());
  return lines;
}

const Row& nested(const Row& row, int column) { return row.getFieldAs<Row>(column); }

int64_t millisOf(const Value& value) { return value.get<LocalDateTime>().getMillisecond(); }

TEST(NexmarkTest, FirstEventsOfSeedZeroAtTheDefaultBaseTime) {
  auto source = nexmarkSource({{"events.num", "50"}});
  std::vector<Row> rows = readAll(*source);
  ASSERT_EQ(rows.size(), 50u);
  // Event 0 is a person; extra pads it towards 200 bytes.
  const Row& person = nested(rows[0], 1);
  EXPECT_EQ(rows[0].getFieldAs<int32_t>(0), 0);
  EXPECT_TRUE(rows[0].getField(2).isNull());
  EXPECT_TRUE(rows[0].getField(3).isNull());
  EXPECT_EQ(person.getFieldAs<int64_t>(0), 1000);
  EXPECT_EQ(person.getFieldAs<std::string>(1), "Peter Bartels");
  EXPECT_EQ(person.getFieldAs<std::string>(2), "s y@khak.com");
  EXPECT_EQ(person.getFieldAs<std::string>(3), "4650 6903 2976 6105");
  EXPECT_EQ(person.getFieldAs<std::string>(4), "Phoenix");
  EXPECT_EQ(person.getFieldAs<std::string>(5), "AZ");
  EXPECT_EQ(person.getField(6).toString(), "2015-07-15T00:00");
  EXPECT_EQ(person.getFieldAs<std::string>(7).substr(0, 20), "gckhvqijrtznorpmxqul");
  EXPECT_EQ(person.getFieldAs<std::string>(7).size(), 152u);  // 61 bytes + 80%..120% of 139
  // Events 1..3 are auctions 1000..1002; at 10 million events/s they expire 1 ms later.
  const Row& auction = nested(rows[1], 2);
  EXPECT_EQ(rows[1].getFieldAs<int32_t>(0), 1);
  EXPECT_TRUE(rows[1].getField(1).isNull());
  EXPECT_TRUE(rows[1].getField(3).isNull());
  EXPECT_EQ(auction.getFieldAs<int64_t>(0), 1000);
  EXPECT_EQ(auction.getFieldAs<std::string>(1), "ulinqu yv rjbgvlt");
  EXPECT_EQ(auction.getFieldAs<std::string>(2), "d jehsp tspifqlgeutlyhlp");
  EXPECT_EQ(auction.getFieldAs<int64_t>(3), 351987);  // initialBid
  EXPECT_EQ(auction.getFieldAs<int64_t>(4), 352583);  // reserve
  EXPECT_EQ(auction.getField(5).toString(), "2015-07-15T00:00");
  EXPECT_EQ(auction.getField(6).toString(), "2015-07-15T00:00:00.001");
  EXPECT_EQ(auction.getFieldAs<int64_t>(7), 1004);             // seller
  EXPECT_EQ(auction.getFieldAs<int64_t>(8), 14);               // category
  EXPECT_EQ(auction.getFieldAs<std::string>(9).size(), 462u);  // 89 + 80%..120% of 411
  EXPECT_EQ(nested(rows[2], 2).getFieldAs<int64_t>(0), 1001);
  EXPECT_EQ(nested(rows[3], 2).getFieldAs<int64_t>(0), 1002);
  // Events 4..49 are bids.
  EXPECT_EQ(printed({rows[4], rows[5]}),
            (std::vector<std::string>{
                "+I[2, null, null, +I[1001, 1008, 18990270, Google, "
                "https://www.nexmark.com/tfp/ap_x/pwd/item.htm?query=1, 2015-07-15T00:00, "
                "wmubzdzalezrpfzrffaeekbhxxgpzbrwttfnwittynwbmiavjzypbxweocugf]]",
                "+I[2, null, null, +I[1000, 1002, 307, channel-5414, "
                "https://www.nexmark.com/wvq/en_/dlr/item.htm?query=1&channel_id=1688731648, "
                "2015-07-15T00:00, iwqnegylzcfrfmutvscdepjlemzihwbtrmjkvqustnulgjvoveoercmje]]"}));
  for (size_t i = 4; i < rows.size(); ++i) EXPECT_EQ(rows[i].getFieldAs<int32_t>(0), 2) << i;
}

TEST(NexmarkTest, EventTypesFollowTheProportions) {
  auto countTypes = [](std::map<std::string, std::string> options) {
    auto source = nexmarkSource(std::move(options));
    source->applyProjection({{0}});
    std::vector<int> counts(3);
    std::vector<int> firstTypes;
    for (const Row& row : readAll(*source)) {
      int type = row.getFieldAs<int32_t>(0);
      ++counts[type];
      if (firstTypes.size() < 8) firstTypes.push_back(type);
    }
    counts.insert(counts.end(), firstTypes.begin(), firstTypes.end());
    return counts;
  };
  // Counts of persons, auctions, bids, then the first 8 event types.
  EXPECT_EQ(countTypes({{"events.num", "10000"}}),
            (std::vector<int>{200, 600, 9200, 0, 1, 1, 1, 2, 2, 2, 2}));
  EXPECT_EQ(countTypes({{"events.num", "10001"},
                        {"person.proportion", "2"},
                        {"auction.proportion", "1"},
                        {"bid.proportion", "1"}}),
            (std::vector<int>{5001, 2500, 2500, 0, 0, 1, 2, 0, 0, 1, 2}));
  EXPECT_EQ(
      countTypes({{"events.num", "100"}, {"person.proportion", "0"}, {"auction.proportion", "0"}}),
      (std::vector<int>{0, 0, 100, 2, 2, 2, 2, 2, 2, 2, 2}));
}

TEST(NexmarkTest, IdsCountPersonsAndAuctionsAndReferToRecentOnes) {
  auto source = nexmarkSource({{"events.num", "100000"}});
  source->applyProjection({{1, 0}, {2, 0}, {2, 7}, {3, 0}, {3, 1}});
  int64_t nextPerson = 1000;
  int64_t nextAuction = 1000;
  for (const Row& row : readAll(*source)) {
    if (!row.getField(0).isNull()) {
      EXPECT_EQ(row.getFieldAs<int64_t>(0), nextPerson++);
    } else if (!row.getField(1).isNull()) {
      EXPECT_EQ(row.getFieldAs<int64_t>(1), nextAuction++);
      int64_t seller = row.getFieldAs<int64_t>(2);
      // The last 1000 active people, plus a lead of 10 not yet created.
      EXPECT_GE(seller, std::max<int64_t>(1000, nextPerson - 1000));
      EXPECT_LT(seller, nextPerson + 10);
    } else {
      int64_t auction = row.getFieldAs<int64_t>(3);
      int64_t bidder = row.getFieldAs<int64_t>(4);
      // The last 100 auctions in flight (or the hot one), plus a lead of 10.
      EXPECT_GE(auction, std::max<int64_t>(1000, nextAuction - 1 - 100));
      EXPECT_LT(auction, nextAuction + 10);
      EXPECT_GE(bidder, std::max<int64_t>(1000, nextPerson - 1000));
      EXPECT_LE(bidder, nextPerson + 10);
    }
  }
  EXPECT_EQ(nextPerson, 1000 + 2000);
  EXPECT_EQ(nextAuction, 1000 + 6000);
}

TEST(NexmarkTest, EventTimeAdvancesAtTheFirstEventRate) {
  // Default rate, 10 million events per second: 10000 events per millisecond.
  auto source = nexmarkSource({{"events.num", "20001"}});
  source->applyProjection({{0}, {1, 6}, {2, 5}, {3, 5}});
  std::vector<Row> rows = readAll(*source);
  auto timeOf = [&](size_t n) {
    for (int column = 1; column <= 3; ++column) {
      if (!rows[n].getField(column).isNull()) return millisOf(rows[n].getField(column));
    }
    return int64_t{-1};
  };
  EXPECT_EQ(timeOf(0), kBaseMillis);
  EXPECT_EQ(timeOf(9999), kBaseMillis);
  EXPECT_EQ(timeOf(10000), kBaseMillis + 1);
  EXPECT_EQ(timeOf(20000), kBaseMillis + 2);

  // 1000 events per second from another base time: event n is n ms after it.
  source = nexmarkSource({{"events.num", "3000"},
                          {"first-event.rate", "1000"},
                          {"next-event.rate", "1000"},
                          {"base-time", "2024-02-29 23:59:59.5"}});
  source->applyProjection({{0}, {1, 6}, {2, 5}, {3, 5}});
  rows = readAll(*source);
  int64_t base = LocalDateTime::parse("2024-02-29T23:59:59.500").getMillisecond();
  for (size_t n = 0; n < rows.size(); ++n) EXPECT_EQ(timeOf(n), base + static_cast<int64_t>(n));
  EXPECT_EQ(rows[2999].getField(3).toString(), "2024-03-01T00:00:02.499");
}

TEST(NexmarkTest, SameEventsAtEveryParallelism) {
  auto source = nexmarkSource({{"events.num", "10000"}});
  std::vector<std::string> single = printed(rowsOf(collectChunks(source->createSource(), 1)));
  ASSERT_EQ(single.size(), 10000u);
  std::sort(single.begin(), single.end());
  for (int parallelism : {2, 3, 5}) {
    std::vector<std::string> split =
        printed(rowsOf(collectChunks(source->createSource(), parallelism)));
    std::sort(split.begin(), split.end());
    EXPECT_EQ(split, single) << "parallelism " << parallelism;
  }
}

TEST(NexmarkTest, SubtasksGenerateStridedBlocksInEventTimeOrder) {
  // At 1000 events/s, an event's time in ms after the base is its number.
  auto source = nexmarkSource({{"events.num", "5000"}, {"first-event.rate", "1000"}});
  source->applyProjection({{1, 6}, {2, 5}, {3, 5}});
  std::shared_ptr<Source<vector::Chunk>> chunks = source->createSource();
  std::vector<std::vector<int64_t>> numbersBySubtask;
  for (int subtask = 0; subtask < 3; ++subtask) {
    std::vector<int64_t> numbers;
    std::vector<int64_t> chunkSizes;
    for (const vector::Chunk& chunk : readSubtask(*chunks, subtask, 3)) {
      chunkSizes.push_back(chunk.size());
      for (const Row& row : vector::chunkToRows(chunk)) {
        for (int column = 0; column < 3; ++column) {
          if (!row.getField(column).isNull()) {
            numbers.push_back(millisOf(row.getField(column)) - kBaseMillis);
          }
        }
      }
    }
    // Blocks of 1024 events: 0-1023 and 3072-4095 to subtask 0, 1024-2047 and 4096-4999 to
    // subtask 1, 2048-3071 to subtask 2.
    std::vector<int64_t> expectedSizes =
        subtask == 0
            ? std::vector<int64_t>{1024, 1024}
            : (subtask == 1 ? std::vector<int64_t>{1024, 904} : std::vector<int64_t>{1024});
    EXPECT_EQ(chunkSizes, expectedSizes) << subtask;
    EXPECT_TRUE(std::is_sorted(numbers.begin(), numbers.end())) << subtask;
    numbersBySubtask.push_back(numbers);
  }
  EXPECT_EQ(numbersBySubtask[0].front(), 0);
  EXPECT_EQ(numbersBySubtask[0].back(), 4095);
  EXPECT_EQ(numbersBySubtask[1].front(), 1024);
  EXPECT_EQ(numbersBySubtask[1].back(), 4999);
  EXPECT_EQ(numbersBySubtask[2].front(), 2048);
  EXPECT_EQ(numbersBySubtask[2].back(), 3071);
  // More subtasks than blocks: the others end at once.
  EXPECT_TRUE(readSubtask(*chunks, 7, 8).empty());
}

TEST(NexmarkTest, TheSeedDeterminesTheValues) {
  auto read = [](const std::string& seed) {
    auto source = nexmarkSource({{"events.num", "2000"}, {"seed", seed}});
    return printed(readAll(*source));
  };
  std::vector<std::string> seedZero = read("0");
  EXPECT_EQ(read("0"), seedZero);
  std::vector<std::string> seedSeven = read("7");
  ASSERT_EQ(seedSeven.size(), seedZero.size());
  int differing = 0;
  for (size_t i = 0; i < seedZero.size(); ++i) differing += seedZero[i] != seedSeven[i] ? 1 : 0;
  EXPECT_GT(differing, 1990);
  // Ids, types and times do not depend on the seed.
  auto source = nexmarkSource({{"events.num", "2000"}, {"seed", "-7"}});
  source->applyProjection({{0}, {1, 0}, {2, 0}, {3, 5}});
  auto reference = nexmarkSource({{"events.num", "2000"}});
  reference->applyProjection({{0}, {1, 0}, {2, 0}, {3, 5}});
  EXPECT_EQ(printed(readAll(*source)), printed(readAll(*reference)));
}

TEST(NexmarkTest, ProjectedColumnsEqualTheNestedFields) {
  std::map<std::string, std::string> options = {{"events.num", "3000"},
                                                {"first-event.rate", "5000"}};
  std::vector<Row> full = readAll(*nexmarkSource(options));
  auto source = nexmarkSource(options);
  std::vector<std::vector<int>> paths = {{0}};
  for (int column = 1; column <= 3; ++column) {
    int fields = nexmarkPhysicalRowType()->getChildren()[column]->getFieldCount();
    for (int field = 0; field < fields; ++field) paths.push_back({column, field});
  }
  ASSERT_EQ(paths.size(), 26u);
  LogicalTypePtr produced = source->applyProjection(paths);
  EXPECT_EQ(produced->asSummaryString(),
            "ROW<`event_type` INT, `person_id` BIGINT, `person_name` STRING, "
            "`person_emailAddress` STRING, `person_creditCard` STRING, `person_city` STRING, "
            "`person_state` STRING, `person_dateTime` TIMESTAMP(3), `person_extra` STRING, "
            "`auction_id` BIGINT, `auction_itemName` STRING, `auction_description` STRING, "
            "`auction_initialBid` BIGINT, `auction_reserve` BIGINT, `auction_dateTime` "
            "TIMESTAMP(3), `auction_expires` TIMESTAMP(3), `auction_seller` BIGINT, "
            "`auction_category` BIGINT, `auction_extra` STRING, `bid_auction` BIGINT, "
            "`bid_bidder` BIGINT, `bid_price` BIGINT, `bid_channel` STRING, `bid_url` STRING, "
            "`bid_dateTime` TIMESTAMP(3), `bid_extra` STRING>");
  std::vector<vector::Chunk> chunks = readSubtask(*source->createSource(), 0, 1);
  ASSERT_FALSE(chunks.empty());
  EXPECT_TRUE(equalTypes(chunks[0].rowType(), produced));
  // Typed flat columns, not boxed values.
  EXPECT_EQ(chunks[0].column(1).layout(), vector::PhysicalLayout::kInt64);
  EXPECT_EQ(chunks[0].column(2).layout(), vector::PhysicalLayout::kVariableWidth);
  EXPECT_EQ(chunks[0].column(7).layout(), vector::PhysicalLayout::kTimestamp);
  std::vector<Row> flat = rowsOf(chunks);
  ASSERT_EQ(flat.size(), full.size());
  for (size_t row = 0; row < full.size(); ++row) {
    EXPECT_EQ(flat[row].getField(0), full[row].getField(0)) << row;
    for (size_t path = 1; path < paths.size(); ++path) {
      const Value& whole = full[row].getField(paths[path][0]);
      const Value& projected = flat[row].getField(static_cast<int>(path));
      if (whole.isNull()) {
        EXPECT_TRUE(projected.isNull()) << row << " " << path;
      } else {
        EXPECT_EQ(projected, whole.getRow().getField(paths[path][1])) << row << " " << path;
      }
    }
  }
}

TEST(NexmarkTest, ProjectionOfWholeColumnsAndRepeatedPaths) {
  auto source = nexmarkSource({{"events.num", "60"}});
  LogicalTypePtr produced = source->applyProjection({{3}, {0}, {3, 2}, {3, 2}, {3, 2}});
  EXPECT_EQ(produced->getFieldNames(), (std::vector<std::string>{"bid", "event_type", "bid_price",
                                                                 "bid_price$1", "bid_price$2"}));
  std::vector<Row> rows = readAll(*source);
  ASSERT_EQ(rows.size(), 60u);
  EXPECT_EQ(rows[3].toString(), "+I[null, 1, null, null, null]");
  EXPECT_EQ(rows[4].getFieldAs<Row>(0).getFieldAs<int64_t>(2), 18990270);
  EXPECT_EQ(rows[4].getFieldAs<int64_t>(2), 18990270);
  EXPECT_EQ(rows[4].getFieldAs<int64_t>(4), 18990270);
  // No columns at all: the rows are still there.
  source->applyProjection({});
  std::vector<vector::Chunk> chunks = readSubtask(*source->createSource(), 0, 1);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].columnCount(), 0);
  EXPECT_EQ(chunks[0].size(), 60);
  // Paths index the physical row type, also the second time.
  EXPECT_EQ(source->applyProjection({{1, 1}})->asSummaryString(), "ROW<`person_name` STRING>");
  EXPECT_EQ(readAll(*source)[0].toString(), "+I[Peter Bartels]");
}

TEST(NexmarkTest, ValuesFollowTheNexmarkDistributions) {
  auto source = nexmarkSource({{"events.num", "200000"}, {"first-event.rate", "1000"}});
  std::vector<Row> rows = readAll(*source);
  ASSERT_EQ(rows.size(), 200000u);
  const std::set<std::string> firstNames = {"Peter", "Paul",  "Luke",  "John",   "Saul",  "Vicky",
                                            "Kate",  "Julie", "Sarah", "Deiter", "Walter"};
  const std::set<std::string> lastNames = {"Shultz", "Abrams", "Spencer", "White", "Bartels",
                                           "Walton", "Smith",  "Jones",   "Noris"};
  const std::set<std::string> cities = {"Phoenix",  "Los Angeles", "San Francisco", "Boise",
                                        "Portland", "Bend",        "Redmond",       "Seattle",
                                        "Kent",     "Cheyenne"};
  const std::set<std::string> states = {"AZ", "CA", "ID", "OR", "WA", "WY"};
  const std::set<std::string> hotChannels = {"Google", "Facebook", "Baidu", "Apple"};
  int64_t persons = 0, personBytes = 0, auctions = 0, auctionBytes = 0, bids = 0, bidBytes = 0;
  int64_t hotAuctions = 0, hotBidders = 0, hotSellers = 0, hotChannelBids = 0, cheapBids = 0;
  std::set<int64_t> categories;
  std::map<std::string, std::set<std::string>> urlsOfHotChannels;
  for (const Row& row : rows) {
    switch (row.getFieldAs<int32_t>(0)) {
      case 0: {
        const Row& person = nested(row, 1);
        const std::string& name = person.getFieldAs<std::string>(1);
        size_t space = name.find(' ');
        ASSERT_NE(space, std::string::npos) << name;
        EXPECT_TRUE(firstNames.count(name.substr(0, space))) << name;
        EXPECT_TRUE(lastNames.count(name.substr(space + 1))) << name;
        const std::string& email = person.getFieldAs<std::string>(2);
        EXPECT_TRUE(email.find('@') != std::string::npos && email.ends_with(".com")) << email;
        const std::string& card = person.getFieldAs<std::string>(3);
        ASSERT_EQ(card.size(), 19u);
        for (size_t i = 0; i < card.size(); ++i) {
          EXPECT_TRUE(i % 5 == 4 ? card[i] == ' ' : std::isdigit(card[i])) << card;
        }
        EXPECT_TRUE(cities.count(person.getFieldAs<std::string>(4)));
        EXPECT_TRUE(states.count(person.getFieldAs<std::string>(5)));
        ++persons;
        personBytes += 8 + name.size() + email.size() + card.size() +
                       person.getFieldAs<std::string>(4).size() +
                       person.getFieldAs<std::string>(5).size() +
                       person.getFieldAs<std::string>(7).size();
        break;
      }
      case 1: {
        const Row& auction = nested(row, 2);
        int64_t initialBid = auction.getFieldAs<int64_t>(3);
        EXPECT_GE(initialBid, 100);
        EXPECT_LE(initialBid, 100'000'000);
        EXPECT_GT(auction.getFieldAs<int64_t>(4), initialBid);  // reserve
        // 100 auctions take 1666 events, 1.666 s: auctions last 1 ms .. 2 * 1.666 s.
        int64_t length = millisOf(auction.getField(6)) - millisOf(auction.getField(5));
        EXPECT_GE(length, 1);
        EXPECT_LE(length, 2 * 1666);
        hotSellers += (auction.getFieldAs<int64_t>(7) - 1000) % 100 == 0 ? 1 : 0;
        categories.insert(auction.getFieldAs<int64_t>(8));
        ++auctions;
        auctionBytes += 8 + auction.getFieldAs<std::string>(1).size() +
                        auction.getFieldAs<std::string>(2).size() + 5 * 8 +
                        auction.getFieldAs<std::string>(9).size();
        break;
      }
      default: {
        const Row& bid = nested(row, 3);
        hotAuctions += (bid.getFieldAs<int64_t>(0) - 1000) % 100 == 0 ? 1 : 0;
        hotBidders += (bid.getFieldAs<int64_t>(1) - 1000) % 100 == 1 ? 1 : 0;
        int64_t price = bid.getFieldAs<int64_t>(2);
        EXPECT_GE(price, 100);
        EXPECT_LE(price, 100'000'000);
        cheapBids += price < 100'000 ? 1 : 0;  // the median of 10^(2..8) is 10^5
        const std::string& channel = bid.getFieldAs<std::string>(3);
        const std::string& url = bid.getFieldAs<std::string>(4);
        EXPECT_TRUE(url.starts_with("https://www.nexmark.com/")) << url;
        EXPECT_NE(url.find("/item.htm?query=1"), std::string::npos) << url;
        if (hotChannels.count(channel)) {
          ++hotChannelBids;
          urlsOfHotChannels[channel].insert(url);
        } else {
          EXPECT_TRUE(channel.starts_with("channel-")) << channel;
          EXPECT_LT(std::stoi(channel.substr(8)), 10000);
        }
        size_t extra = bid.getFieldAs<std::string>(6).size();
        EXPECT_GE(extra, 54u);  // 68 missing bytes, +-20%
        EXPECT_LT(extra, 82u);
        ++bids;
        bidBytes += 32 + extra;
        break;
      }
    }
  }
  EXPECT_EQ(persons, 4000);
  EXPECT_EQ(auctions, 12000);
  EXPECT_EQ(bids, 184000);
  // Average sizes 200, 500 and 100 bytes.
  EXPECT_NEAR(static_cast<double>(personBytes) / persons, 200, 3);
  EXPECT_NEAR(static_cast<double>(auctionBytes) / auctions, 500, 5);
  EXPECT_NEAR(static_cast<double>(bidBytes) / bids, 100, 1);
  // Hot ratios: 1 in 2 bids on a hot auction, 3 in 4 by a hot bidder, 3 in 4 auctions by a hot
  // seller (plus the few random draws that hit the hot id).
  EXPECT_NEAR(static_cast<double>(hotAuctions) / bids, 0.5, 0.015);
  EXPECT_NEAR(static_cast<double>(hotBidders) / bids, 0.75, 0.015);
  EXPECT_NEAR(static_cast<double>(hotSellers) / auctions, 0.75, 0.02);
  EXPECT_NEAR(static_cast<double>(hotChannelBids) / bids, 0.5, 0.01);
  EXPECT_NEAR(static_cast<double>(cheapBids) / bids, 0.5, 0.01);
  EXPECT_EQ(categories, (std::set<int64_t>{10, 11, 12, 13, 14}));
  // A hot channel always has the same URL.
  EXPECT_EQ(urlsOfHotChannels.size(), 4u);
  for (const auto& [channel, urls] : urlsOfHotChannels) EXPECT_EQ(urls.size(), 1u) << channel;
}

TEST(NexmarkTest, UnboundedSourceIsNotThrottled) {
  auto source = nexmarkSource({});
  EXPECT_FALSE(source->isBounded());
  EXPECT_EQ(source->createSource()->getBoundedness(), Boundedness::CONTINUOUS_UNBOUNDED);
  EXPECT_FALSE(nexmarkSource({{"events.num", "0"}})->isBounded());
  EXPECT_TRUE(nexmarkSource({{"events.num", "1"}})->isBounded());
  source->applyProjection({{0}, {3, 2}});
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto started = std::chrono::steady_clock::now();
  std::vector<vector::Chunk> chunks =
      env->fromSource(source->createSource(), WatermarkStrategy<vector::Chunk>::noWatermarks(),
                      "nexmark")
          .executeAndCollect(200);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(chunks.size(), 200u);
  for (const vector::Chunk& chunk : chunks) EXPECT_EQ(chunk.size(), 1024);
  // 204800 events; at the default 10 million events/s of event time they span 20 ms of event
  // time, and a throttled source would take about as long in wall time.
  EXPECT_LT(seconds, 10.0);
}

struct InvalidCase {
  std::map<std::string, std::string> options;
  std::string message;
};

TEST(NexmarkTest, InvalidOptionsNameTheKeyAndTheValue) {
  std::vector<InvalidCase> cases = {
      {{{"first-event.rate", "0"}},
       "Invalid value '0' for key 'first-event.rate' of table 't': expected an integer of at "
       "least 1."},
      {{{"first-event.rate", "fast"}},
       "Could not parse value 'fast' for key 'first-event.rate' of table 't': expected an "
       "integer of at least 1."},
      {{{"next-event.rate", "5000"}},
       "Invalid value '5000' for key 'next-event.rate' of table 't': expected 10000000 (the "
       "value of 'first-event.rate'): only a constant event rate is supported."},
      {{{"events.num", "-1"}},
       "Invalid value '-1' for key 'events.num' of table 't': expected a non-negative integer."},
      {{{"person.proportion", "-1"}},
       "Invalid value '-1' for key 'person.proportion' of table 't': expected an integer "
       "between 0 and 2147483647."},
      {{{"auction.proportion", "x"}},
       "Could not parse value 'x' for key 'auction.proportion' of table 't': expected an "
       "integer between 0 and 2147483647."},
      {{{"person.proportion", "0"}, {"auction.proportion", "0"}, {"bid.proportion", "0"}},
       "Invalid value '0' for key 'bid.proportion' of table 't': expected an integer between 1 "
       "and 2147483647 when 'person.proportion' and 'auction.proportion' are 0."},
      {{{"seed", "1.5"}},
       "Could not parse value '1.5' for key 'seed' of table 't': expected an integer of at "
       "least -9223372036854775808."},
      {{{"base-time", "yesterday"}},
       "Could not parse value 'yesterday' for key 'base-time' of table 't': expected a UTC "
       "timestamp such as '2015-07-15 00:00:00' or '2015-07-15 00:00:00.123'."},
      {{{"base-time", "2015-07-15 00:00:00.0000001"}},
       "Invalid value '2015-07-15 00:00:00.0000001' for key 'base-time' of table 't': expected a "
       "timestamp with at most millisecond precision."},
      {{{"rows-per-second", "5"}},
       "Unsupported options found for 'nexmark'.\n\nUnsupported options:\n\nrows-per-second\n\n"
       "Supported options:\n\nauction.proportion\nbase-time\nbid.proportion\nconnector\n"
       "events.num\nfirst-event.rate\nnext-event.rate\nperson.proportion\nseed"},
  };
  for (const InvalidCase& invalid : cases) {
    std::map<std::string, std::string> options = invalid.options;
    options["connector"] = "nexmark";
    ConnectorContext context = tableContext(nexmarkPhysicalRowType(), options);
    EXPECT_EQ(validationMessage([&] { FactoryRegistry::builtIn().factoryFor(context); }),
              invalid.message);
  }
  // createDynamicTableSource checks the values as well.
  ConnectorContext context =
      tableContext(nexmarkPhysicalRowType(), {{"connector", "nexmark"}, {"events.num", "-1"}});
  EXPECT_EQ(validationMessage([&] { NexmarkTableFactory().createDynamicTableSource(context); }),
            "Invalid value '-1' for key 'events.num' of table 't': expected a non-negative "
            "integer.");
  // An equal next-event.rate is accepted.
  EXPECT_TRUE(nexmarkSource({{"first-event.rate", "100"}, {"next-event.rate", "100"}})
                  ->supportsProjection());
}

// The nexmark physical row type with one field replaced: `column` at the top level, or
// `column`.`field` inside a ROW (an empty `type` drops the field).
LogicalTypePtr schemaWith(const std::string& column, const std::string& field,
                          const std::string& name, LogicalTypePtr type) {
  std::vector<RowField> columns = nexmarkPhysicalRowType()->getFields();
  for (RowField& top : columns) {
    if (top.name != column) continue;
    if (field.empty()) {
      top.name = name;
      if (type) top.type = type;
      continue;
    }
    std::vector<RowField> fields;
    for (const RowField& nestedField : top.type->getFields()) {
      if (nestedField.name != field) {
        fields.push_back(nestedField);
      } else if (type) {
        fields.push_back(RowField{name, type, std::nullopt});
      }
    }
    top.type = LogicalType::row(std::move(fields));
  }
  return LogicalType::row(std::move(columns));
}

TEST(NexmarkTest, PhysicalColumnsMustBeTheNexmarkSchema) {
  auto messageFor = [](LogicalTypePtr type) {
    ConnectorContext context = tableContext(std::move(type), {{"connector", "nexmark"}});
    return validationMessage([&] { FactoryRegistry::builtIn().factoryFor(context); });
  };
  EXPECT_EQ(messageFor(nexmarkPhysicalRowType()), "");
  EXPECT_EQ(messageFor(schemaWith("bid", "price", "price", intType())),
            "Column 'bid.price' of table 't' has type INT, but the nexmark connector produces "
            "BIGINT.");
  EXPECT_EQ(messageFor(schemaWith("bid", "price", "prize", bigintType())),
            "Column 'bid.prize' of table 't' does not match the nexmark schema: expected "
            "'bid.price' at position 3 of 'bid'.");
  EXPECT_EQ(messageFor(schemaWith("event_type", "", "eventType", nullptr)),
            "Column 'eventType' of table 't' does not match the nexmark schema: expected "
            "'event_type' at position 1.");
  EXPECT_EQ(messageFor(schemaWith("person", "extra", "", nullptr)),
            "Table 't' lacks the column 'person.extra' (position 8 of 'person') of the nexmark "
            "schema.");
  EXPECT_EQ(messageFor(schemaWith("auction", "dateTime", "dateTime", LogicalType::timestamp(6))),
            "Column 'auction.dateTime' of table 't' has type TIMESTAMP(6), but the nexmark "
            "connector produces TIMESTAMP(3).");
  EXPECT_EQ(messageFor(schemaWith("bid", "url", "url", bigintType())),
            "Column 'bid.url' of table 't' has type BIGINT, but the nexmark connector produces "
            "STRING (or any VARCHAR(n)).");
  EXPECT_EQ(messageFor(schemaWith("bid", "", "bid", stringType())),
            "Column 'bid' of table 't' has type STRING, but the nexmark connector produces "
            "ROW<`auction` BIGINT, `bidder` BIGINT, `price` BIGINT, `channel` STRING, `url` "
            "STRING, `dateTime` TIMESTAMP(3), `extra` STRING>.");
  EXPECT_EQ(messageFor(schemaWith("person", "", "person",
                                  nexmarkPhysicalRowType()->getChildren()[1]->copy(false))),
            "Column 'person' of table 't' is NOT NULL, but the nexmark connector produces NULL "
            "in it for every event that is not a person.");
  std::vector<RowField> extended = nexmarkPhysicalRowType()->getFields();
  extended.push_back(RowField{"ts", LogicalType::timestamp(3), std::nullopt});
  EXPECT_EQ(messageFor(LogicalType::row(extended)),
            "Column 'ts' of table 't' is not in the nexmark schema, which has 4 fields: "
            "event_type, person, auction, bid.");
  EXPECT_EQ(messageFor(rowType({{"event_type", intType()}})),
            "Table 't' lacks the column 'person' (position 2) of the nexmark schema.");
  std::vector<RowField> bidFields = nexmarkPhysicalRowType()->getChildren()[3]->getFields();
  bidFields.push_back(RowField{"ip", stringType(), std::nullopt});
  std::vector<RowField> columns = nexmarkPhysicalRowType()->getFields();
  columns[3].type = LogicalType::row(bidFields);
  EXPECT_EQ(messageFor(LogicalType::row(columns)),
            "Column 'bid.ip' of table 't' is not in the nexmark schema, whose 'bid' has 7 "
            "fields: auction, bidder, price, channel, url, dateTime, extra.");
}

TEST(NexmarkTest, AnyVarcharLengthAndNotNullFieldsAreAccepted) {
  // eddy reads a bare VARCHAR as VARCHAR(1); the values are not cut to the declared length.
  std::vector<RowField> bidFields = nexmarkPhysicalRowType()->getChildren()[3]->getFields();
  bidFields[2].type = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
  bidFields[3].type = LogicalType::varchar(1);
  std::vector<RowField> columns = nexmarkPhysicalRowType()->getFields();
  columns[0].type = LogicalType::simple(LogicalTypeRoot::INTEGER, false);
  columns[3].type = LogicalType::row(bidFields);
  auto source = nexmarkSource({{"events.num", "5"}}, LogicalType::row(columns));
  std::vector<Row> rows = readAll(*source);
  EXPECT_EQ(nested(rows[4], 3).getFieldAs<std::string>(3), "Google");
  // A projected nested field is nullable even when declared NOT NULL (other events are NULL).
  EXPECT_EQ(source->applyProjection({{0}, {3, 2}, {3, 3}})->asSummaryString(),
            "ROW<`event_type` INT NOT NULL, `bid_price` BIGINT, `bid_channel` VARCHAR(1)>");
  EXPECT_EQ(printed(readAll(*source)),
            (std::vector<std::string>{"+I[0, null, null]", "+I[1, null, null]", "+I[1, null, null]",
                                      "+I[1, null, null]", "+I[2, 18990270, Google]"}));
}

TEST(NexmarkTest, ProjectionPushDownIsAnOptInAbility) {
  auto source = nexmarkSource({});
  EXPECT_TRUE(source->supportsProjection());
  EXPECT_TRUE(source->supportsNestedProjection());
  auto internalMessage = [](auto action) -> std::string {
    try {
      action();
    } catch (const InternalError& error) {
      return error.what();
    }
    return "";
  };
  EXPECT_NE(internalMessage([&] {
              source->applyProjection({{4}});
            }).find("Invalid projection path [4] for a nexmark table"),
            std::string::npos);
  EXPECT_NE(internalMessage([&] {
              source->applyProjection({{3, 7}});
            }).find("Invalid projection path [3, 7]"),
            std::string::npos);
  EXPECT_NE(internalMessage([&] {
              source->applyProjection({{0, 0}});
            }).find("Invalid projection path [0, 0]"),
            std::string::npos);
  // Sources that do not opt in (datagen) keep the default.
  ConnectorContext context = tableContext(rowType({{"id", intType()}}), {{"connector", "datagen"}});
  auto dataGen = DataGenTableFactory().createDynamicTableSource(context);
  EXPECT_FALSE(dataGen->supportsProjection());
  EXPECT_FALSE(dataGen->supportsNestedProjection());
  EXPECT_NE(internalMessage([&] {
              dataGen->applyProjection({{0}});
            }).find("does not support projection push-down"),
            std::string::npos);
}

}  // namespace
}  // namespace eddy::connectors
