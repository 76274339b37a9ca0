// KafkaSink: the sink of the kafka connector (Flink's KafkaSink with its KafkaWriter), on
// eddy's Sink V2 SPI over the table runtime's chunks. Each +I row becomes one Kafka record of
// the table's topic: the row's value columns encoded by the value format as its value, the
// partition chosen by 'sink.partitioner' ('default': by the key, see below, and spread over the
// partitions without one; 'fixed': subtask i writes partition i % partitions, as Flink's
// FlinkFixedPartitioner; 'round-robin', below).
//
// With 'key.format' each record also gets a key: the 'key.fields' columns encoded by the key
// format; 'value.fields-include' = 'EXCEPT_KEY' leaves them out of the value. The 'default'
// partitioner then hashes the key as Kafka's Java producer does (librdkafka's murmur2_random,
// unless 'properties.partitioner' says otherwise), so a keyed record lands where a Java client
// would put it; records without a key still spread over the partitions. 'round-robin' sends
// the subtask's records to the partitions in turn (Flink's: "a Flink partition is distributed
// to Kafka partitions sticky round-robin"; records go one per partition in turn here).
//
// upsert-kafka: the table's rows are changes by its primary key (the record key): +I and +U
// rows are records with the row as value, -D rows tombstones (the key, no value), as Flink's
// upsert sink (a -U, which the planner does not send, would be a tombstone too). With
// 'sink.buffer-flush.max-rows' and '.interval' only each key's last record is kept until the
// buffer holds max-rows keys, the interval passed since the first record after the last flush
// (a processing-time timer), a checkpoint or the end of input (Flink's ReducingUpsertWriter);
// the buffer goes out in the order its keys came first.
//
// Delivery ('sink.delivery-guarantee'): 'at-least-once' (Flink's default) flushes before every
// checkpoint barrier and at the end of input, and fails the checkpoint (so the job) when a
// record could not be delivered: every row of a completed checkpoint is in Kafka, and rows
// after it may be written again after a restore. 'none' flushes only at the end of input.
// 'exactly-once' (Kafka transactions) is not there yet; the factory refuses it by name.
//
// Metadata columns: 'headers' and 'timestamp' (kafkaWritableMetadata), declared as persisted
// METADATA columns, become each record's headers and timestamp.
//
// Errors: a record librdkafka reports as not delivered fails the job with a ConnectorException
// naming the table, the topic and librdkafka's error, at the next flush or write (Flink's
// KafkaWriter#checkAsyncException). For 'kafka', a row that is not +I fails it too (the planner
// lets no updating query into that sink).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eddy/connector/sink.h"
#include "formats/format_factory.h"
#include "vector/chunk.h"

namespace eddy::connectors {

enum class KafkaDeliveryGuarantee { kNone, kAtLeastOnce };
enum class KafkaSinkPartitioner { kDefault, kFixed, kRoundRobin };

/// What a KafkaSink writes.
struct KafkaSinkSpec {
  std::string tableName;
  std::string topic;
  /// librdkafka properties ('properties.*' without the prefix), bootstrap.servers included.
  std::map<std::string, std::string> properties;
  KafkaDeliveryGuarantee deliveryGuarantee = KafkaDeliveryGuarantee::kAtLeastOnce;
  KafkaSinkPartitioner partitioner = KafkaSinkPartitioner::kDefault;
  /// The value format and the row type it encodes (`valueColumns` of the physical row type).
  std::shared_ptr<const formats::EncodingFormat> format;
  LogicalTypePtr valueRowType;
  /// 'key.format' and the row type it encodes (`keyColumns`); null without a key format.
  std::shared_ptr<const formats::EncodingFormat> keyFormat;
  LogicalTypePtr keyRowType;
  /// The physical columns of the record key ('key.fields') and of the record value.
  std::vector<int> keyColumns;
  std::vector<int> valueColumns;
  /// upsert-kafka: +I/+U rows are records, -D (and -U) rows tombstones of their key.
  bool upsert = false;
  /// upsert-kafka's 'sink.buffer-flush.max-rows' and '.interval' (both 0: no buffering).
  int64_t bufferFlushMaxRows = 0;
  int64_t bufferFlushIntervalMillis = 0;
  /// The metadata written (keys of kafkaWritableMetadata), whose columns follow the physical
  /// ones: each record's "headers" and "timestamp".
  std::vector<std::string> metadataKeys;
};

/// The metadata a Kafka sink can write, Flink's keys, types and order: headers
/// (MAP<STRING, BYTES>: a record header per entry, a NULL value a header without one) and
/// timestamp (TIMESTAMP_LTZ(3): the record's timestamp; NULL lets the producer set it).
std::vector<std::pair<std::string, LogicalTypePtr>> kafkaWritableMetadata();

/// Writes rows to a Kafka topic. See the file comment. Immutable.
class KafkaSink final : public connector::Sink<vector::Chunk> {
 public:
  explicit KafkaSink(KafkaSinkSpec spec) : spec_(std::move(spec)) {}
  std::unique_ptr<connector::SinkWriter<vector::Chunk>> createWriter(
      connector::WriterInitContext& context) const override;

 private:
  KafkaSinkSpec spec_;
};

}  // namespace eddy::connectors
