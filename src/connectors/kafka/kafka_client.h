// The kafka connector's use of librdkafka (Debian's librdkafka-dev): client handles built from a
// table's `properties.*` options, and the few broker queries its source enumerator and sink
// need (partitions of a topic, offsets by mode). Everything that talks to a broker is bounded by
// kKafkaRequestTimeoutMillis and fails with a ConnectorException naming the topic, the
// partition where there is one, and librdkafka's error; nothing here waits forever.
//
// Properties: a table's `properties.<name>` options are librdkafka configuration properties
// (https://github.com/confluentinc/librdkafka/blob/master/CONFIGURATION.md), passed through as
// Flink passes them to the Java client. Those librdkafka does not know are rejected by name at
// planning time (checkKafkaProperties), with the options of Flink's source that are not client
// properties (partition.discovery.interval.ms, client.id.prefix, register.consumer.metrics,
// commit.offsets.on.checkpoint) taken out first.
//
// Threading: a KafkaClient is used by one thread at a time (librdkafka's own threads run
// behind it). Free functions are pure or go through the client they are given.
#pragma once

#include <librdkafka/rdkafka.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace eddy::connectors {

/// How long one broker request (metadata, offsets, a flush step) may take.
inline constexpr int kKafkaRequestTimeoutMillis = 10'000;

/// The options of Flink's Kafka source that live under `properties.` but are not client
/// properties (not passed to librdkafka).
bool isFlinkOnlyKafkaProperty(const std::string& name);

/// Throws ValidationException naming `properties.<name>` of table `tableName` for a property
/// librdkafka does not know or whose value it refuses. `properties`: name (without the prefix)
/// → value. No broker is contacted.
void checkKafkaProperties(const std::string& tableName,
                          const std::map<std::string, std::string>& properties);

/// An rd_kafka_t (a consumer or a producer), destroyed with it.
class KafkaClient {
 public:
  /// A client of `type` with `properties`, then `overrides` (which win). `what` names the
  /// client in errors ("the source of table 'orders'"). Throws ConnectorException when
  /// librdkafka refuses the configuration.
  KafkaClient(rd_kafka_type_t type, const std::map<std::string, std::string>& properties,
              const std::map<std::string, std::string>& overrides, const std::string& what);
  /// The same with a configuration the caller prepared (callbacks set); takes `conf`.
  KafkaClient(rd_kafka_type_t type, rd_kafka_conf_t* conf, const std::string& what);
  ~KafkaClient();
  KafkaClient(const KafkaClient&) = delete;
  KafkaClient& operator=(const KafkaClient&) = delete;

  rd_kafka_t* get() const { return handle_; }

  /// The partition ids of `topic`, ascending. Throws ConnectorException when the topic does not
  /// exist or the brokers do not answer in time.
  std::vector<int32_t> partitionsOf(const std::string& topic) const;
  /// The topics whose whole name matches the regular expression `pattern` (ECMAScript, as
  /// Java's Pattern#matches for the usual patterns), sorted; internal topics ("__...") left
  /// out.
  std::vector<std::string> topicsMatching(const std::string& pattern) const;
  /// The low and high watermark offsets of a partition (earliest and next offset).
  std::pair<int64_t, int64_t> watermarkOffsets(const std::string& topic, int32_t partition) const;
  /// The committed offset of each partition of `topic` in the client's group (nullopt: none).
  std::map<int32_t, std::optional<int64_t>> committedOffsets(
      const std::string& topic, const std::vector<int32_t>& partitions) const;
  /// For each partition, the offset of its first record with a timestamp at or after
  /// `timestampMillis` (nullopt: none yet).
  std::map<int32_t, std::optional<int64_t>> offsetsForTimestamp(
      const std::string& topic, const std::vector<int32_t>& partitions,
      int64_t timestampMillis) const;

 private:
  [[noreturn]] void fail(const std::string& action, rd_kafka_resp_err_t error) const;

  rd_kafka_t* handle_ = nullptr;
  std::string what_;
};

/// A new rd_kafka_conf_t with `properties`, then `overrides`; throws ConnectorException naming
/// `what` and the property librdkafka refuses.
rd_kafka_conf_t* kafkaConfiguration(const std::map<std::string, std::string>& properties,
                                    const std::map<std::string, std::string>& overrides,
                                    const std::string& what);

}  // namespace eddy::connectors
