// NexmarkSource: the reader that turns blocks of event numbers into chunks. A chunk is built
// in two passes: generate the block's events into a reused event array and text buffer, then
// fill each output column in one loop over the events (typed appends; ROW values only for the
// PERSON, AUCTION and BID columns).
#include "connectors/nexmark/nexmark_source.h"

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>

#include "common/check.h"
#include "eddy/row.h"
#include "eddy/types/temporal.h"

namespace eddy::connectors {

namespace {

constexpr int kEventTypeCount = 3;

// The event type whose values `column` holds; nullopt for EVENT_TYPE, which every event has.
std::optional<NexmarkEventType> eventTypeOfColumn(NexmarkColumn column) {
  if (column == NexmarkColumn::EVENT_TYPE) return std::nullopt;
  if (column == NexmarkColumn::PERSON ||
      (column >= NexmarkColumn::PERSON_ID && column <= NexmarkColumn::PERSON_EXTRA)) {
    return NexmarkEventType::PERSON;
  }
  if (column == NexmarkColumn::AUCTION ||
      (column >= NexmarkColumn::AUCTION_ID && column <= NexmarkColumn::AUCTION_EXTRA)) {
    return NexmarkEventType::AUCTION;
  }
  return NexmarkEventType::BID;
}

bool needsExtra(NexmarkColumn column) {
  switch (column) {
    case NexmarkColumn::PERSON:
    case NexmarkColumn::AUCTION:
    case NexmarkColumn::BID:
    case NexmarkColumn::PERSON_EXTRA:
    case NexmarkColumn::AUCTION_EXTRA:
    case NexmarkColumn::BID_EXTRA:
      return true;
    default:
      return false;
  }
}

// The physical layout a column's values need (checked against the spec's row type).
vector::PhysicalLayout layoutOf(NexmarkColumn column) {
  switch (column) {
    case NexmarkColumn::EVENT_TYPE:
      return vector::PhysicalLayout::kInt32;
    case NexmarkColumn::PERSON:
    case NexmarkColumn::AUCTION:
    case NexmarkColumn::BID:
      return vector::PhysicalLayout::kBoxed;
    case NexmarkColumn::PERSON_NAME:
    case NexmarkColumn::PERSON_EMAIL_ADDRESS:
    case NexmarkColumn::PERSON_CREDIT_CARD:
    case NexmarkColumn::PERSON_CITY:
    case NexmarkColumn::PERSON_STATE:
    case NexmarkColumn::PERSON_EXTRA:
    case NexmarkColumn::AUCTION_ITEM_NAME:
    case NexmarkColumn::AUCTION_DESCRIPTION:
    case NexmarkColumn::AUCTION_EXTRA:
    case NexmarkColumn::BID_CHANNEL:
    case NexmarkColumn::BID_URL:
    case NexmarkColumn::BID_EXTRA:
      return vector::PhysicalLayout::kVariableWidth;
    case NexmarkColumn::PERSON_DATE_TIME:
    case NexmarkColumn::AUCTION_DATE_TIME:
    case NexmarkColumn::AUCTION_EXPIRES:
    case NexmarkColumn::BID_DATE_TIME:
      return vector::PhysicalLayout::kTimestamp;
    default:
      return vector::PhysicalLayout::kInt64;
  }
}

// One subtask's generator of its blocks of event numbers (see the header's "Parallelism").
class NexmarkReader final : public SourceReader<vector::Chunk> {
 public:
  NexmarkReader(std::shared_ptr<const NexmarkSourceSpec> spec,
                std::shared_ptr<const NexmarkGenerator> generator, int subtaskIndex,
                int parallelism)
      : spec_(std::move(spec)),
        generator_(std::move(generator)),
        nextBlock_(subtaskIndex),
        parallelism_(parallelism) {
    if (spec_->totalEvents) {
      endEvent_ = *spec_->totalEvents;
      blockCount_ = (endEvent_ + kNexmarkEventsPerBlock - 1) / kNexmarkEventsPerBlock;
    } else {
      endEvent_ = std::numeric_limits<int64_t>::max();
      blockCount_ = endEvent_ / kNexmarkEventsPerBlock;
    }
    for (NexmarkColumn column : spec_->columns) {
      std::optional<NexmarkEventType> type = eventTypeOfColumn(column);
      if (!type) continue;
      generates_[static_cast<int>(*type)] = true;
      if (needsExtra(column)) withExtra_[static_cast<int>(*type)] = true;
    }
    events_.resize(kNexmarkEventsPerBlock);
  }

  InputStatus pollNext(ReaderOutput<vector::Chunk>& output) override {
    if (nextBlock_ >= blockCount_) return InputStatus::END_OF_INPUT;
    int64_t first = nextBlock_ * kNexmarkEventsPerBlock;
    int64_t count = std::min(kNexmarkEventsPerBlock, endEvent_ - first);
    output.collect(generateChunk(first, count));
    nextBlock_ += parallelism_;
    return nextBlock_ >= blockCount_ ? InputStatus::END_OF_INPUT : InputStatus::MORE_AVAILABLE;
  }

 private:
  vector::Chunk generateChunk(int64_t first, int64_t count) {
    text_.clear();
    for (int64_t i = 0; i < count; ++i) {
      NexmarkEvent& event = events_[i];
      NexmarkEventType type = generator_->eventTypeOf(first + i);
      int index = static_cast<int>(type);
      if (generates_[index]) {
        generator_->generate(first + i, withExtra_[index], event, text_);
      } else {
        event.type = type;
      }
    }
    vector::Chunk chunk(spec_->rowType);
    chunk.reserve(count);
    for (int column = 0; column < chunk.columnCount(); ++column) {
      fillColumn(spec_->columns[column], count, chunk.mutableColumn(column));
    }
    chunk.mutableRowKinds().assign(count, RowKind::INSERT);
    return chunk;
  }

  std::string_view textOf(NexmarkText text) const {
    return std::string_view(text_.data() + text.offset, text.length);
  }
  Value stringValue(NexmarkText text) const { return Value(textOf(text)); }
  static Value timestampValue(int64_t millisecond) {
    return Value(LocalDateTime::ofEpochMillis(millisecond));
  }

  // For each event: `append(event)` when it is of `type`, NULL otherwise.
  template <typename Append>
  void fillOfType(int64_t count, NexmarkEventType type, vector::Vector& column,
                  Append append) const {
    for (int64_t i = 0; i < count; ++i) {
      if (events_[i].type == type) {
        append(events_[i]);
      } else {
        column.appendNull();
      }
    }
  }
  template <typename Event>
  void fillLongs(int64_t count, NexmarkEventType type, Event NexmarkEvent::*part,
                 int64_t Event::*field, vector::Vector& column) const {
    fillOfType(count, type, column,
               [&](const NexmarkEvent& event) { column.append((event.*part).*field); });
  }
  template <typename Event>
  void fillTimestamps(int64_t count, NexmarkEventType type, Event NexmarkEvent::*part,
                      int64_t Event::*field, vector::Vector& column) const {
    fillOfType(count, type, column,
               [&](const NexmarkEvent& event) { column.appendTimestamp((event.*part).*field, 0); });
  }
  // Strings: the column's bytes are counted first and reserved once (a chunk's `extra`
  // column is ~100 KB; growing it by doubling cost more than generating it).
  template <typename Event>
  void fillStrings(int64_t count, NexmarkEventType type, Event NexmarkEvent::*part,
                   NexmarkText Event::*field, vector::Vector& column) const {
    int64_t bytes = 0;
    for (int64_t i = 0; i < count; ++i) {
      if (events_[i].type == type) bytes += (events_[i].*part.*field).length;
    }
    column.reserveBytes(bytes);
    fillOfType(count, type, column, [&](const NexmarkEvent& event) {
      column.appendString(textOf((event.*part).*field));
    });
  }

  Row personRow(const NexmarkPerson& person) const {
    Row row(8);
    row.setField(0, Value(person.id));
    row.setField(1, stringValue(person.name));
    row.setField(2, stringValue(person.emailAddress));
    row.setField(3, stringValue(person.creditCard));
    row.setField(4, stringValue(person.city));
    row.setField(5, stringValue(person.state));
    row.setField(6, timestampValue(person.dateTime));
    row.setField(7, stringValue(person.extra));
    return row;
  }
  Row auctionRow(const NexmarkAuction& auction) const {
    Row row(10);
    row.setField(0, Value(auction.id));
    row.setField(1, stringValue(auction.itemName));
    row.setField(2, stringValue(auction.description));
    row.setField(3, Value(auction.initialBid));
    row.setField(4, Value(auction.reserve));
    row.setField(5, timestampValue(auction.dateTime));
    row.setField(6, timestampValue(auction.expires));
    row.setField(7, Value(auction.seller));
    row.setField(8, Value(auction.category));
    row.setField(9, stringValue(auction.extra));
    return row;
  }
  Row bidRow(const NexmarkBid& bid) const {
    Row row(7);
    row.setField(0, Value(bid.auction));
    row.setField(1, Value(bid.bidder));
    row.setField(2, Value(bid.price));
    row.setField(3, Value(bid.channel));
    row.setField(4, Value(bid.url));
    row.setField(5, timestampValue(bid.dateTime));
    row.setField(6, stringValue(bid.extra));
    return row;
  }

  void fillColumn(NexmarkColumn which, int64_t count, vector::Vector& column) const {
    using Type = NexmarkEventType;
    using P = NexmarkPerson;
    using A = NexmarkAuction;
    using B = NexmarkBid;
    constexpr auto person = &NexmarkEvent::person;
    constexpr auto auction = &NexmarkEvent::auction;
    constexpr auto bid = &NexmarkEvent::bid;
    switch (which) {
      case NexmarkColumn::EVENT_TYPE:
        for (int64_t i = 0; i < count; ++i) column.append(static_cast<int32_t>(events_[i].type));
        return;
      case NexmarkColumn::PERSON:
        return fillOfType(count, Type::PERSON, column, [&](const NexmarkEvent& event) {
          column.appendBoxed(Value(personRow(event.person)));
        });
      case NexmarkColumn::AUCTION:
        return fillOfType(count, Type::AUCTION, column, [&](const NexmarkEvent& event) {
          column.appendBoxed(Value(auctionRow(event.auction)));
        });
      case NexmarkColumn::BID:
        return fillOfType(count, Type::BID, column, [&](const NexmarkEvent& event) {
          column.appendBoxed(Value(bidRow(event.bid)));
        });
      case NexmarkColumn::PERSON_ID:
        return fillLongs(count, Type::PERSON, person, &P::id, column);
      case NexmarkColumn::PERSON_NAME:
        return fillStrings(count, Type::PERSON, person, &P::name, column);
      case NexmarkColumn::PERSON_EMAIL_ADDRESS:
        return fillStrings(count, Type::PERSON, person, &P::emailAddress, column);
      case NexmarkColumn::PERSON_CREDIT_CARD:
        return fillStrings(count, Type::PERSON, person, &P::creditCard, column);
      case NexmarkColumn::PERSON_CITY:
        return fillStrings(count, Type::PERSON, person, &P::city, column);
      case NexmarkColumn::PERSON_STATE:
        return fillStrings(count, Type::PERSON, person, &P::state, column);
      case NexmarkColumn::PERSON_DATE_TIME:
        return fillTimestamps(count, Type::PERSON, person, &P::dateTime, column);
      case NexmarkColumn::PERSON_EXTRA:
        return fillStrings(count, Type::PERSON, person, &P::extra, column);
      case NexmarkColumn::AUCTION_ID:
        return fillLongs(count, Type::AUCTION, auction, &A::id, column);
      case NexmarkColumn::AUCTION_ITEM_NAME:
        return fillStrings(count, Type::AUCTION, auction, &A::itemName, column);
      case NexmarkColumn::AUCTION_DESCRIPTION:
        return fillStrings(count, Type::AUCTION, auction, &A::description, column);
      case NexmarkColumn::AUCTION_INITIAL_BID:
        return fillLongs(count, Type::AUCTION, auction, &A::initialBid, column);
      case NexmarkColumn::AUCTION_RESERVE:
        return fillLongs(count, Type::AUCTION, auction, &A::reserve, column);
      case NexmarkColumn::AUCTION_DATE_TIME:
        return fillTimestamps(count, Type::AUCTION, auction, &A::dateTime, column);
      case NexmarkColumn::AUCTION_EXPIRES:
        return fillTimestamps(count, Type::AUCTION, auction, &A::expires, column);
      case NexmarkColumn::AUCTION_SELLER:
        return fillLongs(count, Type::AUCTION, auction, &A::seller, column);
      case NexmarkColumn::AUCTION_CATEGORY:
        return fillLongs(count, Type::AUCTION, auction, &A::category, column);
      case NexmarkColumn::AUCTION_EXTRA:
        return fillStrings(count, Type::AUCTION, auction, &A::extra, column);
      case NexmarkColumn::BID_AUCTION:
        return fillLongs(count, Type::BID, bid, &B::auction, column);
      case NexmarkColumn::BID_BIDDER:
        return fillLongs(count, Type::BID, bid, &B::bidder, column);
      case NexmarkColumn::BID_PRICE:
        return fillLongs(count, Type::BID, bid, &B::price, column);
      case NexmarkColumn::BID_CHANNEL:
        column.reserveBytes(count * 16);
        return fillOfType(count, Type::BID, column, [&](const NexmarkEvent& event) {
          column.appendString(event.bid.channel);
        });
      case NexmarkColumn::BID_URL:
        column.reserveBytes(count * 90);
        return fillOfType(count, Type::BID, column,
                          [&](const NexmarkEvent& event) { column.appendString(event.bid.url); });
      case NexmarkColumn::BID_DATE_TIME:
        return fillTimestamps(count, Type::BID, bid, &B::dateTime, column);
      case NexmarkColumn::BID_EXTRA:
        return fillStrings(count, Type::BID, bid, &B::extra, column);
    }
  }

  std::shared_ptr<const NexmarkSourceSpec> spec_;
  std::shared_ptr<const NexmarkGenerator> generator_;
  int64_t nextBlock_;  // the next block this subtask generates
  int64_t parallelism_;
  int64_t endEvent_;    // exclusive
  int64_t blockCount_;  // blocks [0, blockCount_) hold events [0, endEvent_)
  bool generates_[kEventTypeCount] = {false, false, false};  // by NexmarkEventType
  bool withExtra_[kEventTypeCount] = {false, false, false};
  std::vector<NexmarkEvent> events_;  // the current block's events
  std::string text_;                  // their strings (NexmarkText offsets point here)
};

}  // namespace

NexmarkSource::NexmarkSource(std::shared_ptr<const NexmarkSourceSpec> spec)
    : NexmarkSource(spec, std::make_shared<const NexmarkChannels>(spec->generator.seed)) {}

NexmarkSource::NexmarkSource(std::shared_ptr<const NexmarkSourceSpec> spec,
                             std::shared_ptr<const NexmarkChannels> channels)
    : spec_(std::move(spec)),
      generator_(std::make_shared<const NexmarkGenerator>(spec_->generator, std::move(channels))) {
  EDDY_CHECK(spec_->rowType != nullptr);
  EDDY_CHECK_EQ(spec_->rowType->getFieldCount(), static_cast<int>(spec_->columns.size()));
  for (size_t index = 0; index < spec_->columns.size(); ++index) {
    EDDY_CHECK_EQ(static_cast<int>(vector::physicalLayoutOf(*spec_->rowType->getChildren()[index])),
                  static_cast<int>(layoutOf(spec_->columns[index])));
  }
  if (spec_->totalEvents) EDDY_CHECK_GE(*spec_->totalEvents, 0);
}

std::unique_ptr<SourceReader<vector::Chunk>> NexmarkSource::createReader(int subtaskIndex,
                                                                         int parallelism) const {
  return std::make_unique<NexmarkReader>(spec_, generator_, subtaskIndex, parallelism);
}

}  // namespace eddy::connectors
