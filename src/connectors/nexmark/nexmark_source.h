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
// The NexmarkSource is immutable and shared by the subtasks; each reader is used only by its
// task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "connectors/nexmark/nexmark_generator.h"
#include "eddy/datastream/source.h"
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

/// A Source of nexmark event chunks. See the file comment.
class NexmarkSource final : public Source<vector::Chunk> {
 public:
  /// Builds the channel table of the spec's seed (a few milliseconds).
  explicit NexmarkSource(std::shared_ptr<const NexmarkSourceSpec> spec);
  NexmarkSource(std::shared_ptr<const NexmarkSourceSpec> spec,
                std::shared_ptr<const NexmarkChannels> channels);

  Boundedness getBoundedness() const override {
    return spec_->totalEvents ? Boundedness::BOUNDED : Boundedness::CONTINUOUS_UNBOUNDED;
  }
  std::unique_ptr<SourceReader<vector::Chunk>> createReader(int subtaskIndex,
                                                            int parallelism) const override;

  const NexmarkSourceSpec& spec() const { return *spec_; }

 private:
  std::shared_ptr<const NexmarkSourceSpec> spec_;
  std::shared_ptr<const NexmarkGenerator> generator_;
};

}  // namespace eddy::connectors
