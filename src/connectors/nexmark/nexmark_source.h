// NexmarkSource: the DataStream source behind the nexmark connector. It emits the events of a
// NexmarkGenerator (see nexmark_generator.h) as chunks, one row per event, all +I, as fast as
// it can: event time advances at the configured rate, the source never sleeps or throttles.
//
// Columns: a source produces a list of NexmarkColumns. The table's full physical row is
// {EVENT_TYPE, PERSON, AUCTION, BID}: event_type INT and three ROW columns, of which the one
// of the event's type is set and the other two are NULL (ROW values are boxed eddy::Values,
// which is slow). A projected source names nested fields directly, e.g. {EVENT_TYPE,
// BID_PRICE, BID_DATE_TIME}, and gets flat typed columns (int64 buffers, variable-width
// strings, timestamps) that are NULL where the event is of another type; no ROW value is
// built, and the generator skips the event types and `extra` strings no column needs.
//
// Parallelism: event numbers are cut into blocks of kNexmarkEventsPerBlock (one chunk each),
// dealt round-robin: subtask i of p generates blocks i, i + p, i + 2p, ... (strided blocks, not
// one contiguous range, so an unbounded stream splits too and all subtasks advance through
// event time together). Each subtask's event time is non-decreasing, and the union over the
// subtasks is exactly events 0..N-1, the same events at every parallelism.
//
// Replayable: a connector::Source (eddy/connector/source.h) whose splits are those strided
// sequences of blocks. On a fresh start at parallelism p, subtask i gets the one split {next
// block i, stride p} (none when there is no block i), assigned at once by a
// connector::StaticSplitEnumerator. The split's position is its next block: event n is a pure
// function of (the generator's config, n) (every random draw comes from a generator seeded by
// the seed and n, see nexmark_generator.h; nothing is carried from event to event), so a
// restored split regenerates exactly the events an uninterrupted run would have emitted, in the
// same chunks. Restored at another parallelism the splits are dealt out whole (even-split
// reader state, round robin for unassigned ones): a reader may get none (it ends at once) or
// several, which it reads interleaved, always the split with the lowest next block first, so
// its event time stays non-decreasing. There is no rate pacing to restore (the source is not
// throttled). A restored split keeps the events.num of the run that made it; a table whose
// events.num differs is refused.
//
// The NexmarkSource is immutable and shared by the subtasks; each reader is used only by its
// task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "connectors/nexmark/nexmark_generator.h"
#include "eddy/connector/source.h"
#include "eddy/types/logical_type.h"
#include "vector/chunk.h"

namespace eddy::connectors {

/// A column a nexmark source can produce: a physical column, or a field of one of the ROWs.
/// The fields of each ROW are in declaration order, so PERSON_ID + k is person's field k.
enum class NexmarkColumn : uint8_t {
  EVENT_TYPE,
  PERSON,
  AUCTION,
  BID,
  PERSON_ID,
  PERSON_NAME,
  PERSON_EMAIL_ADDRESS,
  PERSON_CREDIT_CARD,
  PERSON_CITY,
  PERSON_STATE,
  PERSON_DATE_TIME,
  PERSON_EXTRA,
  AUCTION_ID,
  AUCTION_ITEM_NAME,
  AUCTION_DESCRIPTION,
  AUCTION_INITIAL_BID,
  AUCTION_RESERVE,
  AUCTION_DATE_TIME,
  AUCTION_EXPIRES,
  AUCTION_SELLER,
  AUCTION_CATEGORY,
  AUCTION_EXTRA,
  BID_AUCTION,
  BID_BIDDER,
  BID_PRICE,
  BID_CHANNEL,
  BID_URL,
  BID_DATE_TIME,
  BID_EXTRA,
};

/// Events per block of the parallel split, and the most rows in one chunk.
inline constexpr int64_t kNexmarkEventsPerBlock = 1024;

/// What a nexmark source generates and how it lays it out.
struct NexmarkSourceSpec {
  NexmarkGeneratorConfig generator;
  /// Events over all subtasks; unset: unbounded.
  std::optional<int64_t> totalEvents;
  /// The columns of every chunk, in order, and the chunks' ROW type (one field per column,
  /// of the column's type).
  std::vector<NexmarkColumn> columns;
  LogicalTypePtr rowType;
};

/// A split of a NexmarkSource: the blocks nextBlock, nextBlock + blockStride, ... that hold
/// events below endEvent (block b holds events [b * kNexmarkEventsPerBlock, (b + 1) *
/// kNexmarkEventsPerBlock)).
struct NexmarkSplit {
  std::string id;
  int64_t nextBlock = 0;
  /// The parallelism of the fresh start that made the split.
  int64_t blockStride = 1;
  /// Exclusive: events.num, or INT64_MAX for an unbounded source.
  int64_t endEvent = 0;
  std::string splitId() const { return id; }
  friend bool operator==(const NexmarkSplit&, const NexmarkSplit&) = default;
};

/// Version 1: `id:bytes nextBlock:i64 blockStride:varint endEvent:i64`.
class NexmarkSplitSerializer final : public connector::SimpleVersionedSerializer<NexmarkSplit> {
 public:
  static constexpr int kVersion = 1;
  int getVersion() const override { return kVersion; }
  std::string serialize(const NexmarkSplit& split) const override;
  NexmarkSplit deserialize(int version, std::string_view serialized) const override;
};

/// A Source of nexmark event chunks. See the file comment.
class NexmarkSource final
    : public connector::Source<vector::Chunk, NexmarkSplit, std::vector<NexmarkSplit>> {
 public:
  /// Builds the channel table of the spec's seed (a few milliseconds).
  explicit NexmarkSource(std::shared_ptr<const NexmarkSourceSpec> spec);
  NexmarkSource(std::shared_ptr<const NexmarkSourceSpec> spec,
                std::shared_ptr<const NexmarkChannels> channels);

  Boundedness getBoundedness() const override {
    return spec_->totalEvents ? Boundedness::BOUNDED : Boundedness::CONTINUOUS_UNBOUNDED;
  }
  /// Also the legacy createReader(subtaskIndex, parallelism): a fresh start's reader.
  using connector::Source<vector::Chunk, NexmarkSplit, std::vector<NexmarkSplit>>::createReader;
  std::unique_ptr<connector::SourceReader<vector::Chunk, NexmarkSplit>> createReader(
      connector::SourceReaderContext& context) const override;
  std::unique_ptr<connector::SplitEnumerator<NexmarkSplit, std::vector<NexmarkSplit>>>
  createEnumerator(connector::SplitEnumeratorContext<NexmarkSplit>& context) const override;
  std::unique_ptr<connector::SplitEnumerator<NexmarkSplit, std::vector<NexmarkSplit>>>
  restoreEnumerator(connector::SplitEnumeratorContext<NexmarkSplit>& context,
                    std::vector<NexmarkSplit> checkpoint) const override;
  const connector::SimpleVersionedSerializer<NexmarkSplit>& getSplitSerializer() const override {
    return *splitSerializer_;
  }
  const connector::SimpleVersionedSerializer<std::vector<NexmarkSplit>>&
  getEnumeratorCheckpointSerializer() const override {
    return stateSerializer_;
  }

  /// The splits of a fresh start at `parallelism`, per subtask: subtask i's one split starts at
  /// block i (none for a subtask without blocks).
  std::vector<std::vector<NexmarkSplit>> planSplits(int parallelism) const;

  const NexmarkSourceSpec& spec() const { return *spec_; }

 private:
  std::shared_ptr<const NexmarkSourceSpec> spec_;
  std::shared_ptr<const NexmarkGenerator> generator_;
  std::shared_ptr<const NexmarkSplitSerializer> splitSerializer_ =
      std::make_shared<NexmarkSplitSerializer>();
  connector::StaticSplitEnumeratorStateSerializer<NexmarkSplit> stateSerializer_{splitSerializer_,
                                                                                 "NexmarkSource"};
};

}  // namespace eddy::connectors
