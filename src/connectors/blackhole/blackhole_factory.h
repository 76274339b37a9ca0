// BlackHoleTableFactory: the 'blackhole' connector (Flink's BlackHole SQL connector), a sink
// that swallows every row; it exists to measure the rest of a job without the cost of writing.
// No options besides 'connector'. Sink only; stateless (see dynamic_table_factory.h). Its sink
// is a DiscardingSink on the Sink V2 SPI (connectors/print/print_sink.h), as Flink's.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "connectors/dynamic_table_factory.h"

namespace eddy::connectors {

class BlackHoleTableFactory final : public DynamicTableFactory {
 public:
  std::string factoryIdentifier() const override { return "blackhole"; }
  std::set<std::string> requiredOptions() const override { return {}; }
  std::set<std::string> optionalOptions() const override { return {}; }
  std::unique_ptr<DynamicTableSink> createDynamicTableSink(
      const ConnectorContext& context) const override;
};

}  // namespace eddy::connectors
