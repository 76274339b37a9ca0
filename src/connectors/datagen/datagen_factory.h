// DataGenTableFactory: the 'datagen' connector (Flink's DataGen SQL connector), a source of
// generated rows for tests, demos and benchmarks. Options (DataGen's names and defaults):
//
//   rows-per-second         10000   rows per second over all subtasks (> 0)
//   number-of-rows          unset   total rows; unset: unbounded (unless a field is a sequence)
//   fields.#.kind           random  'random' or 'sequence'
//   fields.#.min / .max     type's  random numbers: inclusive bounds
//   fields.#.max-past       0       random TIMESTAMP / TIMESTAMP_LTZ: now minus up to this
//   fields.#.length         100     random CHAR/VARCHAR/BINARY/VARBINARY length
//   fields.#.start / .end   -       sequence bounds (both required); the source ends after
//                                   the shortest sequence (or number-of-rows, if smaller)
//   fields.#.null-rate      0       probability of null, 0..1
//
// Which field options a table supports depends on the field's type and kind, as in Flink, so
// "Supported options" in errors lists the concrete keys (fields.id.min, ...). The factory is
// stateless; see dynamic_table_factory.h for the threading contract.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "connectors/datagen/datagen_source.h"
#include "connectors/dynamic_table_factory.h"

namespace eddy::connectors {

class DataGenTableFactory final : public DynamicTableFactory {
 public:
  std::string factoryIdentifier() const override { return "datagen"; }
  std::set<std::string> requiredOptions() const override { return {}; }
  std::set<std::string> optionalOptions() const override;
  std::set<std::string> supportedOptionKeys(const ConnectorContext& context) const override;
  /// Also parses every value (see parseDataGenSpec).
  void validateOptions(const ConnectorContext& context) const override;
  std::unique_ptr<DynamicTableSource> createDynamicTableSource(
      const ConnectorContext& context) const override;
};

/// The spec of `context`'s table: every option parsed and checked against the field types.
/// Throws ValidationException naming the key, the value and what is allowed.
DataGenSpec parseDataGenSpec(const ConnectorContext& context);

}  // namespace eddy::connectors
