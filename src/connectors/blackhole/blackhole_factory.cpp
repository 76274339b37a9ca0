#include "connectors/blackhole/blackhole_factory.h"

namespace eddy::connectors {

namespace {

class BlackHoleTableSink final : public DynamicTableSink {
 public:
  std::shared_ptr<const runtime::OperatorFactory> createSinkOperator() const override {
    return std::make_shared<runtime::LambdaOperatorFactory>(
        []() -> std::unique_ptr<runtime::StreamOperator> {
          return std::make_unique<BlackHoleSinkOperator>();
        });
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
