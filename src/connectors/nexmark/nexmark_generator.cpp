// NexmarkGenerator: the value distributions of the Nexmark event model (see the header) and
// the counter-based random generator that makes event n depend on (seed, n) only.
#include "connectors/nexmark/nexmark_generator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "common/check.h"

namespace eddy::connectors {

namespace {

constexpr uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;
// Separate the random streams of events, hot channels and channels (arbitrary odd constants).
constexpr uint64_t kSeedSalt = 0x6A09E667F3BCC909ULL;
constexpr uint64_t kHotChannelDomain = 0xBB67AE8584CAA73BULL;
constexpr uint64_t kChannelDomain = 0x3C6EF372FE94F82BULL;

constexpr int64_t kMinStringLength = 3;
// The longest nextString (an auction's description) draws fewer characters than this.
constexpr int64_t kMaxStringLength = 100;

constexpr std::array<std::string_view, 11> kFirstNames = {
    "Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"};
constexpr std::array<std::string_view, 9> kLastNames = {
    "Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"};
constexpr std::array<std::string_view, 6> kUsStates = {"AZ", "CA", "ID", "OR", "WA", "WY"};
constexpr std::array<std::string_view, 10> kUsCities = {
    "Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland",
    "Bend",    "Redmond",     "Seattle",       "Kent",  "Cheyenne"};
constexpr std::array<std::string_view, NexmarkChannels::kHotChannelCount> kHotChannels = {
    "Google", "Facebook", "Baidu", "Apple"};

// The splitmix64 output function: a bijective mix of 64 bits.
constexpr uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A counter-based generator: stream `stream` of key `key` is splitmix64 started from a state
// that mixes both, so any event's draws are reachable in O(1) without generating the events
// before it. Two draws cost a few nanoseconds; uniform integers use the 128-bit multiply
// (bias below bound / 2^64).
class Random {
 public:
  Random(uint64_t key, uint64_t stream) : state_(mix64(key ^ mix64(stream + kGoldenGamma))) {}

  uint64_t nextBits() {
    state_ += kGoldenGamma;
    return mix64(state_);
  }
  /// Uniform in [0, bound), bound >= 1.
  int64_t nextInt(int64_t bound) {
    return static_cast<int64_t>(
        (static_cast<unsigned __int128>(nextBits()) * static_cast<uint64_t>(bound)) >> 64);
  }
  /// Uniform in [0, 1), 53 bits.
  double nextDouble() { return static_cast<double>(nextBits() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// Takes the next base-`base` digit of `bits` read as a binary fraction (floor(bits * base /
// 2^64)) and keeps the remaining fraction: k digits use about k * log2(base) of the 64 bits.
inline int takeDigit(uint64_t& bits, uint32_t base) {
  unsigned __int128 product = static_cast<unsigned __int128>(bits) * base;
  bits = static_cast<uint64_t>(product);
  return static_cast<int>(product >> 64);
}

NexmarkText appendTo(std::string& text, std::string_view value) {
  NexmarkText result{static_cast<uint32_t>(text.size()), static_cast<uint32_t>(value.size())};
  text.append(value);
  return result;
}

NexmarkText textSince(const std::string& text, size_t start) {
  return NexmarkText{static_cast<uint32_t>(start), static_cast<uint32_t>(text.size() - start)};
}

// `count` letters 'a'..'z' (8 per 64 random bits).
void fillLetters(Random& random, char* out, int64_t count) {
  while (count > 0) {
    uint64_t bits = random.nextBits();
    int64_t letters = std::min<int64_t>(count, 8);
    for (int64_t i = 0; i < letters; ++i) out[i] = static_cast<char>('a' + takeDigit(bits, 26));
    out += letters;
    count -= letters;
  }
}

// Nexmark's nextString: 3..maxLength-1 characters, each `special` with probability 1/13 and a
// letter otherwise, then trimmed of spaces at both ends (so a space-padded string is shorter).
// Appends it to `text`.
void appendRandomString(Random& random, int64_t maxLength, char special, std::string& text) {
  char buffer[kMaxStringLength];
  int64_t length = kMinStringLength + random.nextInt(maxLength - kMinStringLength);
  EDDY_CHECK_LE(length, kMaxStringLength);
  // One base-338 digit per character (338 = 13 * 26): below 26 the special character (1/13),
  // otherwise a letter; five digits per 64 bits.
  for (int64_t i = 0; i < length; i += 5) {
    uint64_t bits = random.nextBits();
    for (int64_t j = i; j < std::min(length, i + 5); ++j) {
      int digit = takeDigit(bits, 338);
      buffer[j] = digit < 26 ? special : static_cast<char>('a' + (digit - 26) % 26);
    }
  }
  int64_t begin = 0;
  int64_t end = length;
  while (begin < end && buffer[begin] == ' ') ++begin;
  while (end > begin && buffer[end - 1] == ' ') --end;
  text.append(buffer + begin, static_cast<size_t>(end - begin));
}

NexmarkText nextString(Random& random, int64_t maxLength, std::string& text) {
  size_t start = text.size();
  appendRandomString(random, maxLength, ' ', text);
  return textSince(text, start);
}

// Nexmark's nextExtra: pads an event of `currentSize` bytes towards `averageSize` with
// 80%..120% of the missing bytes (nothing when the event is already larger).
NexmarkText nextExtra(Random& random, int64_t currentSize, int64_t averageSize, std::string& text) {
  size_t start = text.size();
  if (currentSize > averageSize) return textSince(text, start);
  int64_t missing = averageSize - currentSize;
  auto delta = static_cast<int64_t>(std::floor(static_cast<double>(missing) * 0.2 + 0.5));
  int64_t length = missing - delta + (delta == 0 ? 0 : random.nextInt(2 * delta));
  text.resize(start + static_cast<size_t>(length));
  fillLetters(random, text.data() + start, length);
  return textSince(text, start);
}

// Nexmark's price: 100 * 10^(6u), rounded half up: cents from 1.00 to 1000000.00, log-uniform.
// (exp(6u ln 10) rather than pow(10, 6u): a quarter of a projected bid's cost with pow.)
int64_t nextPrice(Random& random) {
  constexpr double kSixLn10 = 13.815510557964274;  // 6 * ln(10)
  return static_cast<int64_t>(std::floor(std::exp(random.nextDouble() * kSixLn10) * 100.0 + 0.5));
}

// https://www.nexmark.com/<a>/<b>/<c>/item.htm?query=1, each part a nextString of 5 with '_'.
void appendBaseUrl(Random& random, std::string& text) {
  text.append("https://www.nexmark.com/");
  for (int part = 0; part < 3; ++part) {
    appendRandomString(random, 5, '_', text);
    text.push_back('/');
  }
  text.append("item.htm?query=1");
}

uint32_t reverseBits(uint32_t value) {
  uint32_t reversed = 0;
  for (int bit = 0; bit < 32; ++bit) {
    reversed = (reversed << 1) | (value & 1);
    value >>= 1;
  }
  return reversed;
}

void appendDigits(std::string& text, int value, int width) {
  char digits[8];
  for (int i = width - 1; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  text.append(digits, static_cast<size_t>(width));
}

int64_t nextPersonIndex(const NexmarkGenerator& generator, int64_t eventNumber, Random& random) {
  int64_t people = generator.lastPersonIndex(eventNumber) + 1;
  int64_t active = std::min(people, NexmarkGenerator::kActivePeople);
  return people - active + random.nextInt(active + NexmarkGenerator::kPersonIdLead);
}

int64_t nextAuctionIndex(const NexmarkGenerator& generator, int64_t eventNumber, Random& random) {
  int64_t last = generator.lastAuctionIndex(eventNumber);
  int64_t first = std::max<int64_t>(last - NexmarkGenerator::kInFlightAuctions, 0);
  return first + random.nextInt(last - first + 1 + NexmarkGenerator::kAuctionIdLead);
}

int64_t hotIndex(int64_t index) {
  return index / NexmarkGenerator::kHotIdGranularity * NexmarkGenerator::kHotIdGranularity;
}

}  // namespace

NexmarkChannels::NexmarkChannels(int64_t seed) {
  uint64_t key = mix64(static_cast<uint64_t>(seed) + kSeedSalt);
  text_.reserve((kHotChannelCount + kChannelCount) * 90);
  offsets_.reserve(2 * (kHotChannelCount + kChannelCount) + 1);
  offsets_.push_back(0);
  auto endEntry = [&] { offsets_.push_back(static_cast<uint32_t>(text_.size())); };
  for (int index = 0; index < kHotChannelCount; ++index) {
    Random random(key ^ kHotChannelDomain, static_cast<uint64_t>(index));
    text_.append(kHotChannels[index]);
    endEntry();
    appendBaseUrl(random, text_);
    endEntry();
  }
  for (int index = 0; index < kChannelCount; ++index) {
    Random random(key ^ kChannelDomain, static_cast<uint64_t>(index));
    text_.append("channel-");
    text_.append(std::to_string(index));
    endEntry();
    appendBaseUrl(random, text_);
    if (random.nextInt(10) > 0) {
      auto reversed = static_cast<int32_t>(reverseBits(static_cast<uint32_t>(index)));
      text_.append("&channel_id=");
      text_.append(std::to_string(std::abs(static_cast<int64_t>(reversed))));
    }
    endEntry();
  }
}

NexmarkGenerator::NexmarkGenerator(NexmarkGeneratorConfig config,
                                   std::shared_ptr<const NexmarkChannels> channels)
    : config_(config),
      totalProportion_(config.totalProportion()),
      seedKey_(mix64(static_cast<uint64_t>(config.seed) + kSeedSalt)),
      channels_(std::move(channels)) {
  EDDY_CHECK_GT(config_.firstEventRate, 0);
  EDDY_CHECK_GT(totalProportion_, 0);
  EDDY_CHECK(channels_ != nullptr);
}

int64_t NexmarkGenerator::lastPersonIndex(int64_t eventNumber) const {
  int64_t epoch = eventNumber / totalProportion_;
  int64_t offset = std::min(eventNumber % totalProportion_, config_.personProportion - 1);
  return epoch * config_.personProportion + offset;
}

int64_t NexmarkGenerator::lastAuctionIndex(int64_t eventNumber) const {
  int64_t epoch = eventNumber / totalProportion_;
  int64_t offset = eventNumber % totalProportion_;
  if (offset < config_.personProportion) {
    // Before this epoch's auctions: the previous epoch's last one.
    --epoch;
    offset = config_.auctionProportion - 1;
  } else if (offset >= config_.personProportion + config_.auctionProportion) {
    offset = config_.auctionProportion - 1;  // a bid: this epoch's last auction
  } else {
    offset -= config_.personProportion;
  }
  return epoch * config_.auctionProportion + offset;
}

void NexmarkGenerator::generate(int64_t eventNumber, bool withExtra, NexmarkEvent& event,
                                std::string& text) const {
  EDDY_CHECK_GE(eventNumber, 0);
  Random random(seedKey_, static_cast<uint64_t>(eventNumber));
  int64_t timestamp = timestampOf(eventNumber);
  event.type = eventTypeOf(eventNumber);
  switch (event.type) {
    case NexmarkEventType::PERSON: {
      NexmarkPerson& person = event.person;
      person.id = lastPersonIndex(eventNumber) + kFirstPersonId;
      size_t start = text.size();
      text.append(kFirstNames[random.nextInt(kFirstNames.size())]);
      text.push_back(' ');
      text.append(kLastNames[random.nextInt(kLastNames.size())]);
      person.name = textSince(text, start);
      start = text.size();
      appendRandomString(random, 7, ' ', text);
      text.push_back('@');
      appendRandomString(random, 5, ' ', text);
      text.append(".com");
      person.emailAddress = textSince(text, start);
      start = text.size();
      for (int group = 0; group < 4; ++group) {
        if (group > 0) text.push_back(' ');
        appendDigits(text, static_cast<int>(random.nextInt(10000)), 4);
      }
      person.creditCard = textSince(text, start);
      person.city = appendTo(text, kUsCities[random.nextInt(kUsCities.size())]);
      person.state = appendTo(text, kUsStates[random.nextInt(kUsStates.size())]);
      person.dateTime = timestamp;
      int64_t size = 8 + person.name.length + person.emailAddress.length +
                     person.creditCard.length + person.city.length + person.state.length;
      person.extra = withExtra ? nextExtra(random, size, kAveragePersonBytes, text)
                               : NexmarkText{static_cast<uint32_t>(text.size()), 0};
      break;
    }
    case NexmarkEventType::AUCTION: {
      NexmarkAuction& auction = event.auction;
      auction.id = lastAuctionIndex(eventNumber) + kFirstAuctionId;
      int64_t seller = random.nextInt(kHotSellerRatio) > 0
                           ? hotIndex(lastPersonIndex(eventNumber))
                           : nextPersonIndex(*this, eventNumber, random);
      auction.seller = seller + kFirstPersonId;
      auction.category = kFirstCategoryId + random.nextInt(kCategoryCount);
      auction.initialBid = nextPrice(random);
      // Auctions last up to twice the event time that kInFlightAuctions auctions take.
      int64_t eventsPerInFlightAuctions =
          kInFlightAuctions * totalProportion_ / config_.auctionProportion;
      int64_t horizon = timestampOf(eventNumber + eventsPerInFlightAuctions) - timestamp;
      auction.dateTime = timestamp;
      auction.expires = timestamp + 1 + random.nextInt(std::max<int64_t>(horizon * 2, 1));
      auction.itemName = nextString(random, 20, text);
      auction.description = nextString(random, 100, text);
      auction.reserve = auction.initialBid + nextPrice(random);
      int64_t size = 8 + auction.itemName.length + auction.description.length + 8 + 8 + 8 + 8 + 8;
      auction.extra = withExtra ? nextExtra(random, size, kAverageAuctionBytes, text)
                                : NexmarkText{static_cast<uint32_t>(text.size()), 0};
      break;
    }
    case NexmarkEventType::BID: {
      NexmarkBid& bid = event.bid;
      int64_t auction = random.nextInt(kHotAuctionRatio) > 0
                            ? hotIndex(lastAuctionIndex(eventNumber))
                            : nextAuctionIndex(*this, eventNumber, random);
      bid.auction = auction + kFirstAuctionId;
      int64_t bidder = random.nextInt(kHotBidderRatio) > 0
                           ? hotIndex(lastPersonIndex(eventNumber)) + 1
                           : nextPersonIndex(*this, eventNumber, random);
      bid.bidder = bidder + kFirstPersonId;
      bid.price = nextPrice(random);
      if (random.nextInt(kHotChannelRatio) > 0) {
        int index = static_cast<int>(random.nextInt(NexmarkChannels::kHotChannelCount));
        bid.channel = channels_->hotChannel(index);
        bid.url = channels_->hotUrl(index);
      } else {
        int index = static_cast<int>(random.nextInt(NexmarkChannels::kChannelCount));
        bid.channel = channels_->channel(index);
        bid.url = channels_->url(index);
      }
      bid.dateTime = timestamp;
      bid.extra = withExtra ? nextExtra(random, 8 + 8 + 8 + 8, kAverageBidBytes, text)
                            : NexmarkText{static_cast<uint32_t>(text.size()), 0};
      break;
    }
  }
}

}  // namespace eddy::connectors
