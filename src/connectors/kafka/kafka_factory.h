// KafkaTableFactory: the 'kafka' and 'upsert-kafka' connectors (Flink's Kafka SQL connectors,
// KafkaDynamicTableFactory and UpsertKafkaDynamicTableFactory), on librdkafka: a table is a
// Kafka topic whose record values (and, with a key format, keys) are rows in a format (csv,
// json, or for the values of 'kafka' a changelog format: debezium-json, canal-json,
// maxwell-json). docs/connectors.md "kafka" and "upsert-kafka" list every option with what it
// does in eddy; the options, defaults and messages are Flink's.
//
// 'kafka': an append-only table. 'properties.bootstrap.servers' and 'format' (or
// 'value.format') are required; 'topic' (a ';' list) or 'topic-pattern', 'properties.*'
// (librdkafka's, unknown ones rejected by name), 'key.format' with 'key.fields',
// 'key.fields-prefix', 'value.fields-include', the scan.startup.* and scan.bounded.* modes,
// 'scan.topic-partition-discovery.interval', 'sink.partitioner' (default, fixed, round-robin),
// 'sink.delivery-guarantee' (at-least-once, none), 'sink.parallelism'. The value format may be
// a changelog format (the table is then a changelog); the key format may not.
//
// 'upsert-kafka': a table with a PRIMARY KEY whose records are upserts by it: the key is the
// primary key's columns in 'key.format', the value the row in 'value.format' (both required),
// a record without a value (a tombstone) deletes its key. A source reads every record from the
// earliest (Flink's), as +I rows and tombstones as -D (the planner normalizes them per key); a
// sink writes +I/+U rows as records and -D rows as tombstones, with
// 'sink.buffer-flush.max-rows' / '.interval' keeping only each key's last row in between.
//
// A sink writes the persisted METADATA columns 'headers' and 'timestamp' into its records.
// Not supported yet, refused by name: 'sink.partitioner' = a class, 'sink.delivery-guarantee'
// = 'exactly-once'. See kafka_source.h and kafka_sink.h for the runtime.
// Stateless; see dynamic_table_factory.h for the threading contract.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "connectors/dynamic_table_factory.h"

namespace eddy::connectors {

class KafkaTableFactory final : public DynamicTableFactory {
 public:
  /// `upsert`: the 'upsert-kafka' connector.
  explicit KafkaTableFactory(bool upsert = false) : upsert_(upsert) {}
  std::string factoryIdentifier() const override { return upsert_ ? "upsert-kafka" : "kafka"; }
  std::set<std::string> requiredOptions() const override;
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

 private:
  bool upsert_;
};

}  // namespace eddy::connectors
