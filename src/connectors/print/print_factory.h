// PrintTableFactory: the 'print' connector (Flink's Print SQL connector), a sink that writes
// every row to standard output (or standard error) for debugging. Options:
//
//   print-identifier   unset   a prefix naming the sink in each line
//   standard-error     false   print to stderr instead of stdout
//   sink.parallelism   unset   the sink's parallelism (the job's when unset)
//
// Sink only; stateless (see dynamic_table_factory.h for the threading contract).
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "connectors/dynamic_table_factory.h"

namespace eddy::connectors {

class PrintTableFactory final : public DynamicTableFactory {
 public:
  std::string factoryIdentifier() const override { return "print"; }
  std::set<std::string> requiredOptions() const override { return {}; }
  std::set<std::string> optionalOptions() const override {
    return {"print-identifier", "standard-error", "sink.parallelism"};
  }
  /// Also parses 'standard-error' and 'sink.parallelism'.
  void validateOptions(const ConnectorContext& context) const override;
  std::unique_ptr<DynamicTableSink> createDynamicTableSink(
      const ConnectorContext& context) const override;
};

/// The sink of one print table.
class PrintTableSink final : public DynamicTableSink {
 public:
  PrintTableSink(std::string printIdentifier, bool standardError,
                 std::optional<int> sinkParallelism)
      : printIdentifier_(std::move(printIdentifier)),
        standardError_(standardError),
        sinkParallelism_(sinkParallelism) {}

  std::shared_ptr<const runtime::OperatorFactory> createSinkOperator() const override;
  std::optional<int> sinkParallelism() const override { return sinkParallelism_; }

  const std::string& printIdentifier() const { return printIdentifier_; }
  bool standardError() const { return standardError_; }

 private:
  std::string printIdentifier_;
  bool standardError_;
  std::optional<int> sinkParallelism_;
};

}  // namespace eddy::connectors
