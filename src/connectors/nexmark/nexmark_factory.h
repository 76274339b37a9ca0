// NexmarkTableFactory: the 'nexmark' connector, a source of the Nexmark benchmark's auction
// events (Flink's nexmark benchmark connector), generated as fast as the job consumes them.
// Options:
//
//   first-event.rate     10000000  events per second of event time (> 0)
//   next-event.rate      = first   accepted only equal to first-event.rate (constant rate)
//   events.num           0         total events over all subtasks; 0: unbounded
//   person.proportion    1         of every person + auction + bid consecutive events, this
//   auction.proportion   3         many are persons, then auctions, then bids (>= 0, sum > 0)
//   bid.proportion       46
//   seed                 0         seeds every random value
//   base-time            '2015-07-15 00:00:00'  event time of event 0 (UTC, millisecond
//                                  precision; Flink's nexmark uses the wall clock instead)
//
// The table's physical columns must be the nexmark schema exactly (names and order; strings
// may be any VARCHAR, times are TIMESTAMP(3)):
//
//   event_type INT,
//   person  ROW<id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING,
//               state STRING, dateTime TIMESTAMP(3), extra STRING>,
//   auction ROW<id BIGINT, itemName STRING, description STRING, initialBid BIGINT,
//               reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT,
//               category BIGINT, extra STRING>,
//   bid     ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
//               dateTime TIMESTAMP(3), extra STRING>
//
// event_type is 0 (person), 1 (auction) or 2 (bid); the two ROW columns of the other types are
// NULL. The table source supports (nested) projection push-down, see DynamicTableSource. The
// factory is stateless; see dynamic_table_factory.h for the threading contract.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "connectors/dynamic_table_factory.h"
#include "connectors/nexmark/nexmark_generator.h"

namespace eddy::connectors {

class NexmarkTableFactory final : public DynamicTableFactory {
 public:
  std::string factoryIdentifier() const override { return "nexmark"; }
  std::set<std::string> requiredOptions() const override { return {}; }
  std::set<std::string> optionalOptions() const override;
  /// Also parses every value and checks the physical columns (see parseNexmarkTableSpec).
  void validateOptions(const ConnectorContext& context) const override;
  std::unique_ptr<DynamicTableSource> createDynamicTableSource(
      const ConnectorContext& context) const override;
};

/// A nexmark table: its options, parsed, and its declared physical row type.
struct NexmarkTableSpec {
  NexmarkGeneratorConfig generator;
  /// events.num; unset: unbounded.
  std::optional<int64_t> totalEvents;
  /// The declared physical row type (it matches nexmarkPhysicalRowType()).
  LogicalTypePtr physicalRowType;
};

/// The spec of `context`'s table: every option parsed, then the physical columns checked
/// against the nexmark schema. Throws ValidationException naming the key and the value, or the
/// column at fault ("Column 'bid.price' of table 't' has type INT, but the nexmark connector
/// produces BIGINT.").
NexmarkTableSpec parseNexmarkTableSpec(const ConnectorContext& context);

/// The physical row type of a nexmark table, strings as STRING (see the file comment).
LogicalTypePtr nexmarkPhysicalRowType();

}  // namespace eddy::connectors
