#include "connectors/blackhole/blackhole_factory.h"

#include "connectors/print/print_sink.h"

namespace eddy::connectors {

namespace {

class BlackHoleTableSink final : public DynamicTableSink {
 public:
  std::shared_ptr<const runtime::OperatorFactory> createSinkOperator() const override {
    return connector::detail::sinkWriterOperatorFactory(std::make_shared<const DiscardingSink>());
  }
  /// Flink's blackhole takes the requested changelog without UPDATE_BEFORE.
  bool consumesUpdateBefore() const override { return false; }
};

}  // namespace

std::unique_ptr<DynamicTableSink> BlackHoleTableFactory::createDynamicTableSink(
    const ConnectorContext&) const {
  return std::make_unique<BlackHoleTableSink>();
}

}  // namespace eddy::connectors
