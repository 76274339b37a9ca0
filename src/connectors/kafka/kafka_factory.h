// KafkaTableFactory: the 'kafka' connector (Flink's Kafka SQL connector,
// KafkaDynamicTableFactory), on librdkafka: a table is a Kafka topic whose record values are
// rows in a format ('format' or 'value.format': csv, json). Options, with Flink's names,
// defaults and messages (docs/connectors.md "kafka" lists what each does in eddy):
//
//   properties.bootstrap.servers  required  the brokers
//   topic                                   the topic; a source may read several ('a;b')
//   properties.group.id                     the consumer group whose offsets a source commits
//                                           on checkpoints and starts from (group-offsets)
//   properties.*                            librdkafka properties, passed through; unknown
//                                           ones are rejected by name
//   format / value.format         required  the value format; its options are prefixed with
//                                           'json.' / 'value.json.'
//   scan.startup.mode             group-offsets  earliest-offset, latest-offset, group-offsets,
//                                           timestamp, specific-offsets
//   scan.startup.specific-offsets / scan.startup.timestamp-millis
//   scan.bounded.mode             unbounded     unbounded, latest-offset, group-offsets,
//                                           timestamp, specific-offsets (not unbounded: the
//                                           source ends, so the table can be read in BATCH)
//   scan.bounded.specific-offsets / scan.bounded.timestamp-millis
//   scan.topic-partition-discovery.interval  only 0 / disabled (no discovery yet)
//   sink.partitioner              default   default, fixed
//   sink.delivery-guarantee       at-least-once  at-least-once, none
//   sink.transactional-id-prefix            accepted (exactly-once is not there yet)
//   sink.parallelism
//
//   topic-pattern                           a source reads the topics matching it
//
// Not supported yet, refused by name: key formats ('key.format', 'key.fields',
// 'key.fields-prefix', 'value.fields-include' other than ALL), 'sink.partitioner' =
// 'round-robin' or a class, 'sink.delivery-guarantee' = 'exactly-once', metadata columns.
// See kafka_source.h and kafka_sink.h for the runtime. Stateless; see dynamic_table_factory.h
// for the threading contract.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "connectors/dynamic_table_factory.h"

namespace eddy::connectors {

class KafkaTableFactory final : public DynamicTableFactory {
 public:
  std::string factoryIdentifier() const override { return "kafka"; }
  std::set<std::string> requiredOptions() const override { return {"properties.bootstrap.servers"}; }
  std::set<std::string> optionalOptions() const override;
  /// Also every 'properties.*' option given, and the value format's options with its prefix.
  std::set<std::string> supportedOptionKeys(const ConnectorContext& context) const override;
  /// In order: required options, the value format, options not supported yet, unsupported
  /// keys, then the values (the connector's, the format's, the client properties').
  void validateOptions(const ConnectorContext& context) const override;
  std::unique_ptr<DynamicTableSource> createDynamicTableSource(
      const ConnectorContext& context) const override;
  std::unique_ptr<DynamicTableSink> createDynamicTableSink(
      const ConnectorContext& context) const override;
};

}  // namespace eddy::connectors
