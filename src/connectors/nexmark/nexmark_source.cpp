// NexmarkSource: the reader that turns blocks of event numbers into chunks, and the split
// serializer. A chunk is built in two passes: generate the block's events into a reused event
// array and text buffer, then fill each output column in one loop over the events (typed
// appends; ROW values only for the PERSON, AUCTION and BID columns).
#include "connectors/nexmark/nexmark_source.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "common/check.h"
#include "eddy/exceptions.h"
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

// A parallelism, which is at most the largest max parallelism: a block stride beyond it is
// corrupted.
constexpr uint64_t kMaxBlockStride = 32768;

// The blocks [0, blockCountOf(endEvent)) hold the events [0, endEvent).
int64_t blockCountOf(int64_t endEvent) {
  return endEvent / kNexmarkEventsPerBlock + (endEvent % kNexmarkEventsPerBlock != 0 ? 1 : 0);
}

// One subtask's generator of the blocks of its splits (see the header's "Parallelism" and
// "Replayable"): one chunk per poll, of the split whose next block comes first.
class NexmarkReader final : public connector::SourceReader<vector::Chunk, NexmarkSplit> {
 public:
  NexmarkReader(std::shared_ptr<const NexmarkSourceSpec> spec,
                std::shared_ptr<const NexmarkGenerator> generator)
      : spec_(std::move(spec)), generator_(std::move(generator)) {
    endEvent_ = spec_->totalEvents ? *spec_->totalEvents : std::numeric_limits<int64_t>::max();
    blockCount_ = blockCountOf(endEvent_);
    for (NexmarkColumn column : spec_->columns) {
      std::optional<NexmarkEventType> type = eventTypeOfColumn(column);
      if (!type) continue;
      generates_[static_cast<int>(*type)] = true;
      if (needsExtra(column)) withExtra_[static_cast<int>(*type)] = true;
    }
    events_.resize(kNexmarkEventsPerBlock);
  }

  InputStatus pollNext(ReaderOutput<vector::Chunk>& output) override {
    if (splits_.empty()) {
      return noMoreSplits_ ? InputStatus::END_OF_INPUT : InputStatus::NOTHING_AVAILABLE;
    }
    // A reader has one split, or a few after a restore at a lower parallelism.
    size_t current = 0;
    for (size_t i = 1; i < splits_.size(); ++i) {
      if (splits_[i].nextBlock < splits_[current].nextBlock) current = i;
    }
    NexmarkSplit& split = splits_[current];
    int64_t first = split.nextBlock * kNexmarkEventsPerBlock;
    int64_t count = std::min(kNexmarkEventsPerBlock, endEvent_ - first);
    output.collect(generateChunk(first, count));
    split.nextBlock += split.blockStride;
    if (split.nextBlock >= blockCount_) {
      splits_.erase(splits_.begin() + static_cast<std::ptrdiff_t>(current));
    }
    return splits_.empty() && noMoreSplits_ ? InputStatus::END_OF_INPUT
                                            : InputStatus::MORE_AVAILABLE;
  }

  void addSplits(std::vector<NexmarkSplit> splits) override {
    for (NexmarkSplit& split : splits) {
      if (split.endEvent != endEvent_) {
        throw ValidationException("Cannot restore a nexmark source: its split '" + split.id +
                                  "' ends at event " + describeEnd(split.endEvent) +
                                  ", but the table's 'events.num' gives " + describeEnd(endEvent_) +
                                  " (a restored job needs the same 'events.num')");
      }
      if (split.nextBlock < blockCount_) splits_.push_back(std::move(split));
    }
  }
  void notifyNoMoreSplits() override { noMoreSplits_ = true; }
  std::vector<NexmarkSplit> snapshotState(int64_t /*checkpointId*/) override { return splits_; }
  // It has nothing only while it waits for its splits, which arrive as mail.
  bool signalsAvailability() const override { return true; }

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

  static std::string describeEnd(int64_t endEvent) {
    return endEvent == std::numeric_limits<int64_t>::max() ? "none (unbounded)"
                                                           : std::to_string(endEvent);
  }

  std::shared_ptr<const NexmarkSourceSpec> spec_;
  std::shared_ptr<const NexmarkGenerator> generator_;
  std::vector<NexmarkSplit> splits_;  // not finished, in the order they came
  bool noMoreSplits_ = false;
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

std::string NexmarkSplitSerializer::serialize(const NexmarkSplit& split) const {
  connector::SerializedFieldWriter writer;
  writer.writeBytes(split.id);
  writer.writeInt64(split.nextBlock);
  writer.writeVarint(static_cast<uint64_t>(split.blockStride));
  writer.writeInt64(split.endEvent);
  return writer.take();
}

NexmarkSplit NexmarkSplitSerializer::deserialize(int version, std::string_view serialized) const {
  const std::string what = "a NexmarkSource split";
  connector::checkSerializedVersion(version, kVersion, what);
  connector::SerializedFieldReader reader(serialized, what);
  NexmarkSplit split;
  split.id = std::string(reader.readBytes());
  split.nextBlock = reader.readInt64();
  const uint64_t stride = reader.readVarint();
  split.endEvent = reader.readInt64();
  reader.expectEnd();
  if (stride == 0 || stride > kMaxBlockStride) {
    reader.fail("its block stride " + std::to_string(stride) + " is out of range");
  }
  split.blockStride = static_cast<int64_t>(stride);
  if (split.nextBlock < 0 || split.endEvent < 0) {
    reader.fail("its next block " + std::to_string(split.nextBlock) + " or its end event " +
                std::to_string(split.endEvent) + " is negative");
  }
  return split;
}

std::vector<std::vector<NexmarkSplit>> NexmarkSource::planSplits(int parallelism) const {
  const int readers = std::max(1, parallelism);
  const int64_t endEvent =
      spec_->totalEvents ? *spec_->totalEvents : std::numeric_limits<int64_t>::max();
  const int64_t blocks = blockCountOf(endEvent);
  std::vector<std::vector<NexmarkSplit>> plan(static_cast<size_t>(readers));
  for (int subtask = 0; subtask < readers && subtask < blocks; ++subtask) {
    plan[static_cast<size_t>(subtask)].push_back(
        NexmarkSplit{std::to_string(subtask), subtask, readers, endEvent});
  }
  return plan;
}

std::unique_ptr<connector::SourceReader<vector::Chunk, NexmarkSplit>> NexmarkSource::createReader(
    connector::SourceReaderContext& /*context*/) const {
  return std::make_unique<NexmarkReader>(spec_, generator_);
}

std::unique_ptr<connector::SplitEnumerator<NexmarkSplit, std::vector<NexmarkSplit>>>
NexmarkSource::createEnumerator(connector::SplitEnumeratorContext<NexmarkSplit>& context) const {
  return std::make_unique<connector::StaticSplitEnumerator<NexmarkSplit>>(
      context, planSplits(context.currentParallelism()));
}

std::unique_ptr<connector::SplitEnumerator<NexmarkSplit, std::vector<NexmarkSplit>>>
NexmarkSource::restoreEnumerator(connector::SplitEnumeratorContext<NexmarkSplit>& context,
                                 std::vector<NexmarkSplit> checkpoint) const {
  return connector::StaticSplitEnumerator<NexmarkSplit>::restore(context, std::move(checkpoint));
}

}  // namespace eddy::connectors
