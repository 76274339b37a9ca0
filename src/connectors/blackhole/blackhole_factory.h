// BlackHoleTableFactory: the 'blackhole' connector (Flink's BlackHole SQL connector), a sink
// that swallows every row; it exists to measure the rest of a job without the cost of writing.
// No options besides 'connector'. Sink only; stateless (see dynamic_table_factory.h).
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

/// Drops every batch it receives (one instance per subtask, on its task thread).
class BlackHoleSinkOperator final : public runtime::StreamOperator {
 public:
  void processBatch(int, runtime::BatchPtr) override {}
};

}  // namespace eddy::connectors
