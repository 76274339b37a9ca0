// KafkaSource: the source of the kafka connector (Flink's KafkaSource, FLIP-27), reading the
// records of Kafka topics with librdkafka and decoding each record's value (and, with a key
// format, its key) with a format's RowDeserializer into chunks of the physical row type, all
// rows +I (for upsert-kafka, a tombstone is a -D of its key). Each partition's rows go out through
// the partition's own split output, so a watermark strategy (a table's pushed-down WATERMARK) is
// applied per partition.
//
// Topics: 'topic' (one or a ';' list) or every topic whose name matches 'topic-pattern' when
// the job starts (internal "__" topics left out). Splits are topic partitions
// (KafkaPartitionSplit, Flink's KafkaPartitionSplit): the topic,
// the partition, the offset of the next record to read and, for a bounded read, the offset to
// stop before. The split enumerator lists the partitions of the topics when the first reader
// registers, resolves every split's start offset by 'scan.startup.mode' (earliest-offset,
// latest-offset, group-offsets, timestamp, specific-offsets) and its stopping offset by
// 'scan.bounded.mode' (unbounded, latest-offset, group-offsets, timestamp, specific-offsets) to
// concrete offsets, and assigns each partition to a reader by Flink's rule
// (KafkaSourceEnumerator#getSplitOwner: the topic's hash picks the first reader, its partitions
// go round robin from there). A bounded read signals no more splits, so the readers end once
// their partitions reached their stopping offsets; an unbounded one never does. The
// enumerator's state is the splits not assigned yet and whether the partitions were listed.
// With 'scan.topic-partition-discovery.interval' the enumerator lists the partitions again
// at that interval (callAsync) and assigns those it has not seen, read from their earliest
// record (unbounded sources only).
//
// Readers: one librdkafka consumer per subtask, assigned its partitions at their offsets (no
// group membership: the group id, the table's or a random one, only names the committed
// offsets). The reader keeps each split's next offset; a checkpoint stores it, so a restored
// job continues with the first record after the checkpoint, also at another parallelism
// (even-split list state). Once a checkpoint completes, the offsets of its snapshot are
// committed to the table's group ('properties.group.id'), as Flink does: for monitoring and for
// 'group-offsets' starts, never for correctness; 'properties.commit.offsets.on.checkpoint' =
// 'false' turns that off. The reader signals availability: librdkafka's consumer queue calls
// SourceReaderContext::notifyAvailable when records arrive, so an idle source is not polled.
//
// Errors: a topic that does not exist, a broker that does not answer within
// kKafkaRequestTimeoutMillis, and a consumer error fail the job with a ConnectorException
// naming the table, the topic and the partition. A malformed record fails it naming the topic,
// the partition, the offset and the field (or is skipped and counted with the format's
// 'ignore-parse-errors'); rows decoded before it are emitted first.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "eddy/connector/source.h"
#include "formats/format_factory.h"
#include "vector/chunk.h"

namespace eddy::connectors {

/// Where a Kafka source starts (Flink's 'scan.startup.mode').
enum class KafkaStartupMode { kEarliestOffset, kLatestOffset, kGroupOffsets, kTimestamp, kSpecificOffsets };
/// Where a Kafka source stops (Flink's 'scan.bounded.mode').
enum class KafkaBoundedMode { kUnbounded, kLatestOffset, kGroupOffsets, kTimestamp, kSpecificOffsets };

/// What a KafkaSource reads.
struct KafkaSourceSpec {
  std::string tableName;
  /// 'topic', or empty with 'topic-pattern': the topics matching it when the job starts.
  std::vector<std::string> topics;
  std::optional<std::string> topicPattern;
  /// librdkafka properties ('properties.*' without the prefix), bootstrap.servers included.
  std::map<std::string, std::string> properties;
  /// 'scan.topic-partition-discovery.interval' (0: no discovery; unbounded sources only).
  int64_t partitionDiscoveryIntervalMillis = 0;
  /// 'properties.group.id' when set.
  std::optional<std::string> groupId;
  bool commitOffsetsOnCheckpoint = true;
  KafkaStartupMode startupMode = KafkaStartupMode::kGroupOffsets;
  /// specific-offsets: partition → offset (the single topic's); timestamp: milliseconds.
  std::map<int32_t, int64_t> startupOffsets;
  int64_t startupTimestampMillis = 0;
  KafkaBoundedMode boundedMode = KafkaBoundedMode::kUnbounded;
  std::map<int32_t, int64_t> boundedOffsets;
  int64_t boundedTimestampMillis = 0;
  /// 'properties.auto.offset.reset' for a group-offsets start without a committed offset:
  /// "earliest", "latest", or empty (Flink's default: fail).
  std::string offsetResetStrategy;
  /// The value format and the row type it decodes (`valueColumns` of the physical row type).
  std::shared_ptr<const formats::DecodingFormat> format;
  LogicalTypePtr valueRowType;
  /// 'key.format' and the row type it decodes (`keyColumns`); null without a key format.
  std::shared_ptr<const formats::DecodingFormat> keyFormat;
  LogicalTypePtr keyRowType;
  /// The physical columns of the record key ('key.fields') and of the record value (all, or
  /// all but the key's with 'value.fields-include' = 'EXCEPT_KEY'). A column in both is read
  /// from the value, as Flink's DynamicKafkaDeserializationSchema does.
  std::vector<int> keyColumns;
  std::vector<int> valueColumns;
  /// The physical row type.
  LogicalTypePtr rowType;
  /// Metadata keys (of kafkaMetadataTypes) whose values follow the physical columns.
  std::vector<std::string> metadataKeys;
  /// upsert-kafka: a record without a value (a tombstone) is a -D row of its key (the key's
  /// columns from the record key, the others NULL) instead of no row.
  bool upsert = false;
};

/// The metadata a Kafka table can read, Flink's keys and types: topic, partition, offset,
/// timestamp (the record's, TIMESTAMP_LTZ(3)), timestamp-type ("NoTimestampType", "CreateTime"
/// or "LogAppendTime") and headers (MAP<STRING, BYTES>). Flink's leader-epoch is not offered:
/// librdkafka 2.0 does not give it.
std::map<std::string, LogicalTypePtr> kafkaMetadataTypes();

/// A partition to read: records from `nextOffset` until `stoppingOffset` (exclusive;
/// kNoStoppingOffset: unbounded).
struct KafkaPartitionSplit {
  static constexpr int64_t kNoStoppingOffset = INT64_MIN;
  /// A `nextOffset` not resolved yet: the partition's earliest record (a partition found by
  /// discovery; librdkafka's and Flink's EARLIEST_OFFSET marker).
  static constexpr int64_t kEarliestOffset = -2;
  std::string topic;
  int32_t partition = 0;
  int64_t nextOffset = 0;
  int64_t stoppingOffset = kNoStoppingOffset;
  /// Flink's TopicPartition#toString: "orders-2".
  std::string splitId() const { return topic + "-" + std::to_string(partition); }
  bool finished() const { return stoppingOffset != kNoStoppingOffset && nextOffset >= stoppingOffset; }
  friend bool operator==(const KafkaPartitionSplit&, const KafkaPartitionSplit&) = default;
};

/// Version 1: `topic:bytes partition:varint nextOffset:i64 stoppingOffset:i64`.
class KafkaPartitionSplitSerializer final
    : public connector::SimpleVersionedSerializer<KafkaPartitionSplit> {
 public:
  static constexpr int kVersion = 1;
  int getVersion() const override { return kVersion; }
  std::string serialize(const KafkaPartitionSplit& split) const override;
  KafkaPartitionSplit deserialize(int version, std::string_view serialized) const override;
};

/// The state of a KafkaSource's enumerator: whether it listed the partitions, the splits it
/// has not assigned yet, and every partition it listed or discovered (nullopt in a version-1
/// state, written before partition discovery).
struct KafkaSourceEnumeratorState {
  using TopicPartition = std::pair<std::string, int32_t>;
  bool listed = false;
  std::vector<KafkaPartitionSplit> unassigned;
  std::optional<std::set<TopicPartition>> known;
  friend bool operator==(const KafkaSourceEnumeratorState&,
                         const KafkaSourceEnumeratorState&) = default;
};

/// Version 2: `listed:varint (0 or 1) count:varint split:bytes{count} hasKnown:varint (0 or 1)
/// [knownCount:varint (topic:bytes partition:varint){knownCount}]`, each split in its
/// serializer's versioned bytes. Version 1 (read too) ends after the splits.
class KafkaSourceEnumeratorStateSerializer final
    : public connector::SimpleVersionedSerializer<KafkaSourceEnumeratorState> {
 public:
  static constexpr int kVersion = 2;
  int getVersion() const override { return kVersion; }
  std::string serialize(const KafkaSourceEnumeratorState& state) const override;
  KafkaSourceEnumeratorState deserialize(int version, std::string_view serialized) const override;

 private:
  KafkaPartitionSplitSerializer splitSerializer_;
};

/// The reader index of `partition` of `topic` among `readers` (Flink's
/// KafkaSourceEnumerator#getSplitOwner, with Java's String#hashCode of the topic).
int kafkaSplitOwner(const std::string& topic, int32_t partition, int readers);

/// Reads Kafka topics. See the file comment.
class KafkaSource final
    : public connector::Source<vector::Chunk, KafkaPartitionSplit, KafkaSourceEnumeratorState> {
 public:
  explicit KafkaSource(KafkaSourceSpec spec);
  Boundedness getBoundedness() const override;
  using connector::Source<vector::Chunk, KafkaPartitionSplit, KafkaSourceEnumeratorState>::createReader;
  std::unique_ptr<connector::SourceReader<vector::Chunk, KafkaPartitionSplit>> createReader(
      connector::SourceReaderContext& context) const override;
  std::unique_ptr<connector::SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumeratorState>>
  createEnumerator(connector::SplitEnumeratorContext<KafkaPartitionSplit>& context) const override;
  std::unique_ptr<connector::SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumeratorState>>
  restoreEnumerator(connector::SplitEnumeratorContext<KafkaPartitionSplit>& context,
                    KafkaSourceEnumeratorState checkpoint) const override;
  const connector::SimpleVersionedSerializer<KafkaPartitionSplit>& getSplitSerializer()
      const override {
    return splitSerializer_;
  }
  const connector::SimpleVersionedSerializer<KafkaSourceEnumeratorState>&
  getEnumeratorCheckpointSerializer() const override {
    return stateSerializer_;
  }

  const KafkaSourceSpec& spec() const { return spec_; }

 private:
  KafkaSourceSpec spec_;
  KafkaPartitionSplitSerializer splitSerializer_;
  KafkaSourceEnumeratorStateSerializer stateSerializer_;
};

}  // namespace eddy::connectors
