#include "connectors/print/print_factory.h"

#include <limits>

#include "connectors/print/print_sink.h"
#include "connectors/table_options.h"

namespace eddy::connectors {

namespace {

std::unique_ptr<PrintTableSink> parsePrintSink(const ConnectorContext& context) {
  TableOptions options(context);
  bool standardError = options.getBoolean("standard-error").value_or(false);
  std::optional<int64_t> parallelism =
      options.getLong("sink.parallelism", 1, std::numeric_limits<int32_t>::max());
  return std::make_unique<PrintTableSink>(
      options.getString("print-identifier").value_or(""), standardError,
      parallelism ? std::optional<int>(static_cast<int>(*parallelism)) : std::nullopt);
}

}  // namespace

void PrintTableFactory::validateOptions(const ConnectorContext& context) const {
  DynamicTableFactory::validateOptions(context);
  parsePrintSink(context);
}

std::unique_ptr<DynamicTableSink> PrintTableFactory::createDynamicTableSink(
    const ConnectorContext& context) const {
  return parsePrintSink(context);
}

std::shared_ptr<const runtime::OperatorFactory> PrintTableSink::createSinkOperator() const {
  return connector::detail::sinkWriterOperatorFactory(
      std::make_shared<const PrintSink>(printIdentifier_, standardError_));
}

}  // namespace eddy::connectors
