#include "connectors/kafka/kafka_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <set>
#include <utility>

#include "common/check.h"
#include "common/uuid.h"
#include "connectors/kafka/kafka_client.h"
#include "eddy/exceptions.h"
#include "eddy/runtime/record_batch.h"

namespace eddy::connectors {

// ---- Serializers ------------------------------------------------------------------------------

std::string KafkaPartitionSplitSerializer::serialize(const KafkaPartitionSplit& split) const {
  connector::SerializedFieldWriter writer;
  writer.writeBytes(split.topic);
  writer.writeVarint(static_cast<uint64_t>(split.partition));
  writer.writeInt64(split.nextOffset);
  writer.writeInt64(split.stoppingOffset);
  return writer.take();
}

KafkaPartitionSplit KafkaPartitionSplitSerializer::deserialize(int version,
                                                               std::string_view serialized) const {
  const std::string what = "a KafkaSource split";
  connector::checkSerializedVersion(version, kVersion, what);
  connector::SerializedFieldReader reader(serialized, what);
  KafkaPartitionSplit split;
  split.topic = std::string(reader.readBytes());
  const uint64_t partition = reader.readVarint();
  if (partition > static_cast<uint64_t>(INT32_MAX)) reader.fail("its partition is out of range");
  split.partition = static_cast<int32_t>(partition);
  split.nextOffset = reader.readInt64();
  split.stoppingOffset = reader.readInt64();
  reader.expectEnd();
  return split;
}

std::string KafkaSourceEnumeratorStateSerializer::serialize(
    const KafkaSourceEnumeratorState& state) const {
  connector::SerializedFieldWriter writer;
  writer.writeVarint(state.listed ? 1 : 0);
  writer.writeVarint(state.unassigned.size());
  for (const KafkaPartitionSplit& split : state.unassigned) {
    writer.writeBytes(connector::writeVersionAndSerialize(splitSerializer_, split));
  }
  writer.writeVarint(state.known ? 1 : 0);
  if (state.known) {
    writer.writeVarint(state.known->size());
    for (const auto& [topic, partition] : *state.known) {
      writer.writeBytes(topic);
      writer.writeVarint(static_cast<uint64_t>(partition));
    }
  }
  return writer.take();
}

KafkaSourceEnumeratorState KafkaSourceEnumeratorStateSerializer::deserialize(
    int version, std::string_view serialized) const {
  const std::string what = "the split enumerator state of a KafkaSource";
  if (version != 1) connector::checkSerializedVersion(version, kVersion, what);
  connector::SerializedFieldReader reader(serialized, what);
  KafkaSourceEnumeratorState state;
  const uint64_t listed = reader.readVarint();
  if (listed > 1) reader.fail("its listed flag is " + std::to_string(listed));
  state.listed = listed == 1;
  const uint64_t count = reader.readVarint();
  if (count > reader.remaining()) reader.fail("it claims " + std::to_string(count) + " splits");
  for (uint64_t i = 0; i < count; ++i) {
    state.unassigned.push_back(connector::readVersionAndDeserialize(
        splitSerializer_, reader.readBytes(), "a KafkaSource split"));
  }
  if (version >= 2) {
    const uint64_t hasKnown = reader.readVarint();
    if (hasKnown > 1) reader.fail("its known-partitions flag is " + std::to_string(hasKnown));
    if (hasKnown == 1) {
      state.known.emplace();
      const uint64_t known = reader.readVarint();
      if (known > reader.remaining())
        reader.fail("it claims " + std::to_string(known) + " partitions");
      for (uint64_t i = 0; i < known; ++i) {
        std::string topic(reader.readBytes());
        const uint64_t partition = reader.readVarint();
        if (partition > static_cast<uint64_t>(INT32_MAX))
          reader.fail("a partition is out of range");
        state.known->emplace(std::move(topic), static_cast<int32_t>(partition));
      }
    }
  }
  reader.expectEnd();
  return state;
}

// ---- Split owners -----------------------------------------------------------------------------

namespace {

/// Java's String#hashCode of UTF-8 `text` (over its UTF-16 code units).
int32_t javaStringHashCode(const std::string& text) {
  uint32_t hash = 0;
  auto add = [&hash](uint32_t unit) { hash = hash * 31 + unit; };
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    uint32_t codePoint = byte;
    size_t length = 1;
    if (byte >= 0xF0) {
      codePoint = byte & 0x07U;
      length = 4;
    } else if (byte >= 0xE0) {
      codePoint = byte & 0x0FU;
      length = 3;
    } else if (byte >= 0xC0) {
      codePoint = byte & 0x1FU;
      length = 2;
    }
    for (size_t k = 1; k < length && i + k < text.size(); ++k) {
      codePoint = (codePoint << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3FU);
    }
    i += length;
    if (codePoint >= 0x10000) {  // a surrogate pair
      codePoint -= 0x10000;
      add(0xD800 + (codePoint >> 10));
      add(0xDC00 + (codePoint & 0x3FF));
    } else {
      add(codePoint);
    }
  }
  return static_cast<int32_t>(hash);
}

}  // namespace

int kafkaSplitOwner(const std::string& topic, int32_t partition, int readers) {
  const int32_t hash = static_cast<int32_t>(static_cast<uint32_t>(javaStringHashCode(topic)) * 31U);
  const int64_t start = (hash & 0x7FFFFFFF) % readers;
  return static_cast<int>((start + partition) % readers);
}

// ---- The enumerator ---------------------------------------------------------------------------

namespace {

using SplitEnumeratorContext = connector::SplitEnumeratorContext<KafkaPartitionSplit>;
using TopicPartition = KafkaSourceEnumeratorState::TopicPartition;

/// What every consumer of a KafkaSource sets over the table's properties: no automatic commits
/// (offsets are committed on checkpoint completion), a group id (the table's, else a random
/// one: librdkafka assigns partitions only with one), and, unless the table says otherwise,
/// read_uncommitted as Flink's Java client (librdkafka reads committed records only by
/// default, so a bounded read would wait at an open transaction).
std::map<std::string, std::string> consumerOverrides(const KafkaSourceSpec& spec) {
  std::map<std::string, std::string> overrides = {{"enable.auto.commit", "false"}};
  overrides["group.id"] = spec.groupId.value_or("eddy-" + common::randomUuid());
  if (!spec.properties.contains("isolation.level")) overrides["isolation.level"] = "read_uncommitted";
  if (spec.offsetResetStrategy == "none") overrides["auto.offset.reset"] = "error";
  return overrides;
}

class KafkaSourceEnumerator final
    : public connector::SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumeratorState> {
 public:
  KafkaSourceEnumerator(const KafkaSourceSpec& spec, SplitEnumeratorContext& context,
                        KafkaSourceEnumeratorState state)
      : spec_(spec), context_(context), listed_(state.listed), known_(std::move(state.known)) {
    for (KafkaPartitionSplit& split : state.unassigned) plan(std::move(split));
  }

  // Partition discovery (Flink's KafkaSourceEnumerator with a discovery interval): unbounded
  // sources only, as Flink's KafkaSourceBuilder turns it off for bounded ones.
  void start() override {
    if (spec_.boundedMode != KafkaBoundedMode::kUnbounded ||
        spec_.partitionDiscoveryIntervalMillis <= 0) {
      return;
    }
    const std::chrono::milliseconds interval(spec_.partitionDiscoveryIntervalMillis);
    // The listing gets its own copy of the spec: a listing still waiting for the brokers when
    // the job ends is not waited for, and may outlive the enumerator.
    context_.callAsync<std::vector<TopicPartition>>(
        [spec = std::make_shared<const KafkaSourceSpec>(spec_)] { return listPartitions(*spec); },
        [this](std::vector<TopicPartition> partitions, std::exception_ptr error) {
          addDiscovered(std::move(partitions), error);
        },
        interval, interval);
  }

  void addReader(int subtask) override {
    // A listing that failed fails every reader's registration at once, not after another
    // round of broker timeouts.
    if (listingError_) std::rethrow_exception(listingError_);
    if (!listed_) {
      try {
        listSplits();
      } catch (...) {
        listingError_ = std::current_exception();
        throw;
      }
      listed_ = true;
    }
    auto pending = pending_.find(subtask);
    if (pending != pending_.end()) {
      std::map<int, std::vector<KafkaPartitionSplit>> assignment;
      assignment.emplace(subtask, std::move(pending->second));
      pending_.erase(pending);
      context_.assignSplits(std::move(assignment));
    }
    // Flink's enumerator signals no more splits in BOUNDED mode only: an unbounded reader waits
    // for records (and, one day, for discovered partitions).
    if (spec_.boundedMode != KafkaBoundedMode::kUnbounded) context_.signalNoMoreSplits(subtask);
  }
  void handleSplitRequest(int /*subtask*/) override {}
  void addSplitsBack(std::vector<KafkaPartitionSplit> splits, int /*subtask*/) override {
    for (KafkaPartitionSplit& split : splits) plan(std::move(split));
  }
  KafkaSourceEnumeratorState snapshotState(int64_t /*checkpointId*/) override {
    KafkaSourceEnumeratorState state;
    state.listed = listed_;
    state.known = known_;
    for (const auto& [subtask, splits] : pending_) {
      state.unassigned.insert(state.unassigned.end(), splits.begin(), splits.end());
    }
    return state;
  }

 private:
  void plan(KafkaPartitionSplit split) {
    const int owner = kafkaSplitOwner(split.topic, split.partition,
                                      std::max(1, context_.currentParallelism()));
    pending_[owner].push_back(std::move(split));
  }

  /// The partitions of `spec`'s topics now (a discovery, on the job's thread).
  static std::vector<TopicPartition> listPartitions(const KafkaSourceSpec& spec) {
    const std::string what = fmt::format("the source of table '{}'", spec.tableName);
    KafkaClient client(RD_KAFKA_CONSUMER, spec.properties, consumerOverrides(spec), what);
    std::vector<TopicPartition> partitions;
    for (const std::string& topic :
         spec.topicPattern ? client.topicsMatching(*spec.topicPattern) : spec.topics) {
      for (int32_t partition : client.partitionsOf(topic))
        partitions.emplace_back(topic, partition);
    }
    return partitions;
  }

  /// A discovery's result: the partitions not seen before become splits read from their
  /// earliest offset (Flink's default for partitions discovered after the start), assigned to
  /// their owners at once when those registered. A discovery that failed is logged away: the
  /// next one tries again, as Flink's enumerator does.
  void addDiscovered(std::vector<TopicPartition> partitions, std::exception_ptr error) {
    if (error || !listed_) return;  // before the first listing, that listing finds them
    if (!known_) {
      // A state written before eddy kept the known partitions: what is there now counts as
      // known (a partition created while such a job was down is not read).
      known_.emplace(partitions.begin(), partitions.end());
      return;
    }
    bool added = false;
    for (TopicPartition& partition : partitions) {
      if (!known_->insert(partition).second) continue;
      KafkaPartitionSplit split;
      split.topic = partition.first;
      split.partition = partition.second;
      split.nextOffset = KafkaPartitionSplit::kEarliestOffset;
      plan(std::move(split));
      added = true;
    }
    if (!added) return;
    std::map<int, std::vector<KafkaPartitionSplit>> assignment;
    for (int reader : context_.registeredReaders()) {
      auto pending = pending_.find(reader);
      if (pending == pending_.end()) continue;
      assignment.emplace(reader, std::move(pending->second));
      pending_.erase(pending);
    }
    if (!assignment.empty()) context_.assignSplits(std::move(assignment));
  }

  /// Every partition of every topic, with concrete start and stopping offsets.
  void listSplits() {
    const std::string what = fmt::format("the source of table '{}'", spec_.tableName);
    KafkaClient client(RD_KAFKA_CONSUMER, spec_.properties, consumerOverrides(spec_), what);
    const std::vector<std::string> topics =
        spec_.topicPattern ? client.topicsMatching(*spec_.topicPattern) : spec_.topics;
    known_.emplace();
    for (const std::string& topic : topics) {
      const std::vector<int32_t> partitions = client.partitionsOf(topic);
      for (int32_t partition : partitions) known_->emplace(topic, partition);
      std::map<int32_t, std::pair<int64_t, int64_t>> watermarks;
      for (int32_t partition : partitions) {
        watermarks[partition] = client.watermarkOffsets(topic, partition);
      }
      std::map<int32_t, std::optional<int64_t>> committed;
      if (spec_.groupId && (spec_.startupMode == KafkaStartupMode::kGroupOffsets ||
                            spec_.startupMode == KafkaStartupMode::kSpecificOffsets ||
                            spec_.boundedMode == KafkaBoundedMode::kGroupOffsets ||
                            spec_.boundedMode == KafkaBoundedMode::kSpecificOffsets)) {
        committed = client.committedOffsets(topic, partitions);
      }
      std::map<int32_t, std::optional<int64_t>> startTimes;
      if (spec_.startupMode == KafkaStartupMode::kTimestamp) {
        startTimes = client.offsetsForTimestamp(topic, partitions, spec_.startupTimestampMillis);
      }
      std::map<int32_t, std::optional<int64_t>> stopTimes;
      if (spec_.boundedMode == KafkaBoundedMode::kTimestamp) {
        stopTimes = client.offsetsForTimestamp(topic, partitions, spec_.boundedTimestampMillis);
      }
      for (int32_t partition : partitions) {
        const auto [low, high] = watermarks[partition];
        KafkaPartitionSplit split;
        split.topic = topic;
        split.partition = partition;
        split.nextOffset = startOffset(topic, partition, low, high, committed[partition],
                                       startTimes[partition]);
        split.stoppingOffset =
            stoppingOffset(topic, partition, low, high, committed[partition], stopTimes[partition]);
        if (split.stoppingOffset != KafkaPartitionSplit::kNoStoppingOffset &&
            split.nextOffset > split.stoppingOffset) {
          split.nextOffset = split.stoppingOffset;
        }
        plan(std::move(split));
      }
    }
  }

  int64_t startOffset(const std::string& topic, int32_t partition, int64_t low, int64_t high,
                      std::optional<int64_t> committed, std::optional<int64_t> byTime) const {
    switch (spec_.startupMode) {
      case KafkaStartupMode::kEarliestOffset:
        return low;
      case KafkaStartupMode::kLatestOffset:
        return high;
      case KafkaStartupMode::kTimestamp:
        return byTime.value_or(high);
      case KafkaStartupMode::kSpecificOffsets: {
        auto given = spec_.startupOffsets.find(partition);
        if (given != spec_.startupOffsets.end()) return given->second;
        return committed.value_or(low);  // Flink's SpecifiedOffsetsInitializer: else EARLIEST
      }
      case KafkaStartupMode::kGroupOffsets:
        if (committed) return *committed;
        if (spec_.offsetResetStrategy == "earliest" || spec_.offsetResetStrategy == "smallest" ||
            spec_.offsetResetStrategy == "beginning") {
          return low;
        }
        if (spec_.offsetResetStrategy == "latest" || spec_.offsetResetStrategy == "largest" ||
            spec_.offsetResetStrategy == "end") {
          return high;
        }
        // Flink's OffsetResetStrategy.NONE (its default for committed offsets).
        throw ConnectorException(fmt::format(
            "The source of table '{}' starts from the committed offsets of group '{}', but "
            "partition {}-{} has none; set 'properties.auto.offset.reset' to 'earliest' or "
            "'latest' to start there instead (Flink: Undefined offset with no reset policy for "
            "partitions: [{}-{}])",
            spec_.tableName, spec_.groupId.value_or(""), topic, partition, topic, partition));
    }
    return low;
  }

  int64_t stoppingOffset(const std::string& topic, int32_t partition, int64_t low, int64_t high,
                         std::optional<int64_t> committed, std::optional<int64_t> byTime) const {
    switch (spec_.boundedMode) {
      case KafkaBoundedMode::kUnbounded:
        return KafkaPartitionSplit::kNoStoppingOffset;
      case KafkaBoundedMode::kLatestOffset:
        return high;
      case KafkaBoundedMode::kTimestamp:
        return byTime.value_or(high);
      case KafkaBoundedMode::kSpecificOffsets: {
        // Flink's SpecifiedOffsetsInitializer: a partition not listed stops at its committed
        // offset, else at the earliest (so it is not read).
        auto given = spec_.boundedOffsets.find(partition);
        if (given != spec_.boundedOffsets.end()) return given->second;
        return committed.value_or(low);
      }
      case KafkaBoundedMode::kGroupOffsets:
        if (committed) return *committed;
        throw ConnectorException(fmt::format(
            "The source of table '{}' stops at the committed offsets of group '{}', but "
            "partition {}-{} has none",
            spec_.tableName, spec_.groupId.value_or(""), topic, partition));
    }
    return KafkaPartitionSplit::kNoStoppingOffset;
  }

  const KafkaSourceSpec& spec_;
  SplitEnumeratorContext& context_;
  bool listed_;
  // Every partition listed or discovered (nullopt: restored from a state without them).
  std::optional<std::set<TopicPartition>> known_;
  std::exception_ptr listingError_;
  std::map<int, std::vector<KafkaPartitionSplit>> pending_;  // by owner subtask
};

// ---- The reader -------------------------------------------------------------------------------

/// Consumer errors librdkafka retries by itself (a broker away for a while).
bool isTransient(rd_kafka_resp_err_t error) {
  return error == RD_KAFKA_RESP_ERR__TRANSPORT || error == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN ||
         error == RD_KAFKA_RESP_ERR__TIMED_OUT || error == RD_KAFKA_RESP_ERR__RESOLVE ||
         error == RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION ||
         error == RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE;
}

class KafkaSourceReader final : public connector::SourceReader<vector::Chunk, KafkaPartitionSplit> {
 public:
  KafkaSourceReader(const KafkaSourceSpec& spec, connector::SourceReaderContext& context)
      : spec_(spec),
        context_(context),
        deserializer_(spec.format->createDeserializer()),
        chunk_(spec.valueRowType) {
    if (spec.keyFormat) {
      keyDeserializer_ = spec.keyFormat->createDeserializer();
      keyChunk_.emplace(spec.keyRowType);
    }
    // Where each physical column comes from: the value's column, else the key's.
    direct_ = !spec.keyFormat &&
              static_cast<int>(spec.valueColumns.size()) == spec.rowType->getFieldCount();
    for (int c = 0; c < spec.rowType->getFieldCount(); ++c) {
      auto value = std::find(spec.valueColumns.begin(), spec.valueColumns.end(), c);
      if (value != spec.valueColumns.end()) {
        columnSources_.push_back({false, static_cast<int>(value - spec.valueColumns.begin())});
        continue;
      }
      auto key = std::find(spec.keyColumns.begin(), spec.keyColumns.end(), c);
      EDDY_CHECK(key != spec.keyColumns.end());
      columnSources_.push_back({true, static_cast<int>(key - spec.keyColumns.begin())});
    }
    if (!spec.metadataKeys.empty()) {
      std::vector<RowField> fields = spec.rowType->getFields();
      const auto types = kafkaMetadataTypes();
      for (const std::string& key : spec.metadataKeys) fields.push_back(RowField{key, types.at(key), {}});
      outputRowType_ = LogicalType::row(std::move(fields), false);
      wantsHeaders_ = std::find(spec.metadataKeys.begin(), spec.metadataKeys.end(), "headers") !=
                      spec.metadataKeys.end();
    }
    const std::string what =
        fmt::format("the source of table '{}' (subtask {})", spec.tableName,
                    context.getIndexOfSubtask() + 1);
    std::map<std::string, std::string> overrides = consumerOverrides(spec);
    overrides["enable.auto.offset.store"] = "false";
    overrides["enable.partition.eof"] = "true";
    // An offset out of range (records removed by retention while the job was down, a specific
    // offset past the end) goes where Flink's KafkaSourceBuilder sends it: the earliest record
    // for earliest-offset and specific-offsets starts, the latest for latest-offset, the
    // table's 'properties.auto.offset.reset' for group-offsets (unset: the job fails).
    switch (spec.startupMode) {
      case KafkaStartupMode::kEarliestOffset:
      case KafkaStartupMode::kSpecificOffsets:
        overrides["auto.offset.reset"] = "earliest";
        break;
      case KafkaStartupMode::kLatestOffset:
      case KafkaStartupMode::kTimestamp:
        overrides["auto.offset.reset"] = "latest";
        break;
      case KafkaStartupMode::kGroupOffsets:
        overrides["auto.offset.reset"] =
            spec.offsetResetStrategy.empty() || spec.offsetResetStrategy == "none"
                ? "error"
                : spec.offsetResetStrategy;
        break;
    }
    client_ = std::make_unique<KafkaClient>(RD_KAFKA_CONSUMER, spec.properties, overrides, what);
    rd_kafka_poll_set_consumer(client_->get());
    queue_ = rd_kafka_queue_get_consumer(client_->get());
    rd_kafka_queue_cb_event_enable(queue_, &KafkaSourceReader::onRecords, &context_);
  }
  ~KafkaSourceReader() override { close(); }

  void addSplits(std::vector<KafkaPartitionSplit> splits) override {
    std::vector<const KafkaPartitionSplit*> added;
    for (KafkaPartitionSplit& split : splits) {
      if (split.finished()) continue;
      auto [it, inserted] =
          splits_.insert_or_assign(std::make_pair(split.topic, split.partition), std::move(split));
      (void)inserted;
      added.push_back(&it->second);
      newSplitIds_.push_back(it->second.splitId());
    }
    if (added.empty()) return;
    rd_kafka_topic_partition_list_t* list =
        rd_kafka_topic_partition_list_new(static_cast<int>(added.size()));
    for (const KafkaPartitionSplit* split : added) {
      rd_kafka_topic_partition_list_add(list, split->topic.c_str(), split->partition)->offset =
          split->nextOffset;
    }
    rd_kafka_error_t* error = rd_kafka_incremental_assign(client_->get(), list);
    rd_kafka_topic_partition_list_destroy(list);
    throwIf(error, "assigning its partitions");
  }

  void notifyNoMoreSplits() override { noMoreSplits_ = true; }

  InputStatus pollNext(ReaderOutput<vector::Chunk>& output) override {
    if (pendingError_) std::rethrow_exception(std::exchange(pendingError_, nullptr));
    output_ = &output;
    // Each partition emits through its own split output (Flink's KafkaSourceReader), created
    // when the partition is assigned: a partition that has no records yet holds the watermark
    // back (unless idleness says otherwise), and a finished one is released.
    for (const std::string& id : newSplitIds_) output.createOutputForSplit(id);
    newSplitIds_.clear();
    for (const std::string& id : finishedSplitIds_) output.releaseOutputForSplit(id);
    finishedSplitIds_.clear();
    // Without splits there is nothing to read until an assignment (mail, which wakes the task).
    if (splits_.empty()) return noMoreSplits_ ? InputStatus::END_OF_INPUT : InputStatus::NOTHING_AVAILABLE;
    resetChunks();
    emitted_ = 0;
    bool drained = false;
    while (!drained && !pendingError_ && !splits_.empty() &&
           emitted_ + chunk_.size() < static_cast<int64_t>(runtime::kDefaultBatchSize)) {
      const size_t wanted =
          runtime::kDefaultBatchSize - static_cast<size_t>(emitted_ + chunk_.size());
      const ssize_t count = rd_kafka_consume_batch_queue(queue_, 0, messages_.data(),
                                                         std::min(wanted, messages_.size()));
      if (count < 0) {
        throw ConnectorException(fmt::format("The source of table '{}' cannot read from Kafka: {}",
                                             spec_.tableName,
                                             rd_kafka_err2str(rd_kafka_last_error())));
      }
      drained = count == 0;
      for (ssize_t i = 0; i < count; ++i) {
        if (!pendingError_) {
          try {
            handle(*messages_[static_cast<size_t>(i)]);
          } catch (...) {
            if (chunk_.size() == 0 && emitted_ == 0) {
              destroyMessages(i, count);
              throw;
            }
            pendingError_ = std::current_exception();  // emit the rows before it first
          }
        }
        rd_kafka_message_destroy(messages_[static_cast<size_t>(i)]);
      }
    }
    emitChunk();
    for (const std::string& id : finishedSplitIds_) output.releaseOutputForSplit(id);
    finishedSplitIds_.clear();
    output_ = nullptr;
    const bool emitted = emitted_ > 0;
    if (pendingError_) return InputStatus::MORE_AVAILABLE;
    if (splits_.empty() && noMoreSplits_) return InputStatus::END_OF_INPUT;
    if (emitted || !drained) return InputStatus::MORE_AVAILABLE;
    // The queue was read empty: librdkafka calls onRecords when it holds something again (on
    // the empty → non-empty transition), and that wake-up is mail, so none is lost.
    return InputStatus::NOTHING_AVAILABLE;
  }

  std::vector<KafkaPartitionSplit> snapshotState(int64_t checkpointId) override {
    std::vector<KafkaPartitionSplit> splits;
    for (const auto& [key, split] : splits_) splits.push_back(split);
    if (spec_.groupId && spec_.commitOffsetsOnCheckpoint) {
      std::map<std::pair<std::string, int32_t>, int64_t> offsets;
      for (const auto& [key, split] : splits_) {
        if (split.nextOffset >= 0) offsets[key] = split.nextOffset;  // not the earliest marker
      }
      offsetsToCommit_[checkpointId] = std::move(offsets);
    }
    return splits;
  }

  void notifyCheckpointComplete(int64_t checkpointId) override {
    auto it = offsetsToCommit_.find(checkpointId);
    if (it == offsetsToCommit_.end()) return;
    if (!it->second.empty()) {
      rd_kafka_topic_partition_list_t* list =
          rd_kafka_topic_partition_list_new(static_cast<int>(it->second.size()));
      for (const auto& [key, offset] : it->second) {
        rd_kafka_topic_partition_list_add(list, key.first.c_str(), key.second)->offset = offset;
      }
      // Asynchronous, as Flink's commitAsync: a failed commit only leaves the group behind.
      rd_kafka_commit(client_->get(), list, 1);
      rd_kafka_topic_partition_list_destroy(list);
    }
    offsetsToCommit_.erase(offsetsToCommit_.begin(), std::next(it));
  }

  bool signalsAvailability() const override { return true; }

  void close() override {
    if (queue_ != nullptr) {
      rd_kafka_queue_cb_event_enable(queue_, nullptr, nullptr);
      rd_kafka_queue_destroy(queue_);
      queue_ = nullptr;
    }
    if (client_) {
      rd_kafka_consumer_close(client_->get());
      client_.reset();
    }
  }

 private:
  static void onRecords(rd_kafka_t* /*client*/, void* context) {
    static_cast<connector::SourceReaderContext*>(context)->notifyAvailable();
  }

  void destroyMessages(ssize_t from, ssize_t to) {
    for (ssize_t i = from; i < to; ++i) rd_kafka_message_destroy(messages_[static_cast<size_t>(i)]);
  }

  void throwIf(rd_kafka_error_t* error, const char* action) {
    if (error == nullptr) return;
    std::string text = rd_kafka_error_string(error);
    rd_kafka_error_destroy(error);
    throw ConnectorException(
        fmt::format("The source of table '{}' failed {}: {}", spec_.tableName, action, text));
  }

  void finish(std::map<std::pair<std::string, int32_t>, KafkaPartitionSplit>::iterator split) {
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(list, split->first.first.c_str(), split->first.second);
    rd_kafka_error_t* error = rd_kafka_incremental_unassign(client_->get(), list);
    rd_kafka_topic_partition_list_destroy(list);
    emitChunk();  // the split's last rows go out before its output is released
    finishedSplitIds_.push_back(split->second.splitId());
    splits_.erase(split);
    lastSplit_ = splits_.end();
    throwIf(error, "releasing a partition it finished");
  }

  /// Emits the rows decoded since the last call through the output of their partition.
  void emitChunk() {
    if (chunk_.size() == 0) return;
    emitted_ += chunk_.size();
    vector::Chunk rows = physicalRows();
    if (outputRowType_) rows = withMetadata(rows);
    output_->createOutputForSplit(chunkSplitId_).collect(std::move(rows));
    resetChunks();
  }

  void resetChunks() {
    chunk_ = vector::Chunk(spec_.valueRowType);
    if (keyChunk_) keyChunk_.emplace(spec_.keyRowType);
    rowMetadata_.clear();
  }

  /// The rows decoded since the last emit, of the physical row type: the value's columns, and
  /// the key's where the value has none.
  vector::Chunk physicalRows() {
    if (direct_) return std::move(chunk_);
    vector::Chunk rows(spec_.rowType);
    for (int c = 0; c < rows.columnCount(); ++c) {
      const ColumnSource& from = columnSources_[static_cast<size_t>(c)];
      rows.mutableColumn(c) = std::move(from.key ? keyChunk_->mutableColumn(from.index)
                                                 : chunk_.mutableColumn(from.index));
    }
    rows.mutableRowKinds() = std::move(chunk_.mutableRowKinds());
    return rows;
  }

  /// Decodes the record key of `message` (whose value gave the last row) into the key chunk;
  /// false when it gives no key row: the record has no key, or one the key format skips as
  /// malformed ('<format>.ignore-parse-errors'). Flink's DynamicKafkaDeserializationSchema
  /// emits one row per key row, so such a record gives no row.
  bool appendKey(const rd_kafka_message_t& message) {
    if (message.key == nullptr) return false;
    return keyDeserializer_->deserialize(
        std::string_view(static_cast<const char*>(message.key), message.key_len),
        formats::RecordLocation{keyLocation_, message.offset, /*wholeMessage=*/true}, *keyChunk_);
  }

  /// Appends the -D row of the key just appended to the key chunk to the value chunk: its
  /// key's columns (where the value has them too), NULL in the others.
  void appendTombstone() {
    const int64_t keyRow = keyChunk_->size() - 1;
    for (size_t v = 0; v < spec_.valueColumns.size(); ++v) {
      vector::Vector& column = chunk_.mutableColumn(static_cast<int>(v));
      auto key = std::find(spec_.keyColumns.begin(), spec_.keyColumns.end(), spec_.valueColumns[v]);
      if (key == spec_.keyColumns.end()) {
        column.appendNull();
      } else {
        column.appendFrom(keyChunk_->column(static_cast<int>(key - spec_.keyColumns.begin())),
                          keyRow);
      }
    }
    chunk_.mutableRowKinds().push_back(RowKind::DELETE);
  }

  /// Cuts the value chunk back to its first `size` rows (the rows of a record whose key gave
  /// no row or could not be decoded).
  void dropValueRows(int64_t size) {
    for (int c = 0; c < chunk_.columnCount(); ++c) chunk_.mutableColumn(c).resize(size);
    chunk_.mutableRowKinds().resize(static_cast<size_t>(size));
  }

  void handle(const rd_kafka_message_t& message) {
    const char* topic = message.rkt != nullptr ? rd_kafka_topic_name(message.rkt) : "";
    // Records come in runs of one partition: the split (and its location text) of the previous
    // record is looked up again only when the partition changes, and the rows of the run
    // before go out through their partition's output then.
    if (message.rkt != lastTopic_ || message.partition != lastPartition_ ||
        lastSplit_ == splits_.end()) {
      emitChunk();
      lastSplit_ = splits_.find(std::make_pair(std::string(topic), message.partition));
      if (lastSplit_ != splits_.end()) chunkSplitId_ = lastSplit_->second.splitId();
      lastTopic_ = message.rkt;
      lastPartition_ = message.partition;
      location_ = fmt::format("Kafka topic '{}' partition {}", topic, message.partition);
      if (keyDeserializer_) keyLocation_ = location_ + " (the record key)";
    }
    auto split = lastSplit_;
    if (message.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      if (message.err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        // Caught up: a bounded split whose stopping offset lies behind control records (of
        // transactions) ends here.
        if (split != splits_.end() && split->second.stoppingOffset != KafkaPartitionSplit::kNoStoppingOffset &&
            message.offset >= split->second.stoppingOffset) {
          finish(split);
        }
        return;
      }
      if (isTransient(message.err)) return;
      throw ConnectorException(fmt::format(
          "The source of table '{}' failed reading Kafka topic '{}' partition {}: {}",
          spec_.tableName, topic, message.partition, rd_kafka_message_errstr(&message)));
    }
    if (split == splits_.end()) return;  // a partition released a moment ago
    KafkaPartitionSplit& state = split->second;
    if (message.offset < state.nextOffset) return;  // fetched before a re-assignment
    if (state.stoppingOffset != KafkaPartitionSplit::kNoStoppingOffset &&
        message.offset >= state.stoppingOffset) {
      finish(split);
      return;
    }
    if (message.payload == nullptr && spec_.upsert) {
      // A record without a value (a tombstone): for upsert-kafka the delete of its key.
      if (appendKey(message)) {
        appendTombstone();
        if (outputRowType_) rowMetadata_.push_back(metadataOf(message, topic));
      }
    } else {
      // The row number of a Kafka record is its offset. A changelog format may give several
      // rows (an update's -U and +U), each with the record's key and metadata; a record
      // without a value gives what the format makes of none (Flink's
      // DynamicKafkaDeserializationSchema: no row, raw's NULL row).
      const int64_t before = chunk_.size();
      const formats::RecordLocation location{location_, message.offset, /*wholeMessage=*/true};
      bool appended =
          message.payload == nullptr
              ? deserializer_->deserializeNull(location, chunk_)
              : deserializer_->deserialize(
                    std::string_view(static_cast<const char*>(message.payload), message.len),
                    location, chunk_);
      if (appended && keyDeserializer_) {
        bool keyed = false;
        try {
          keyed = appendKey(message);
        } catch (...) {
          dropValueRows(before);
          throw;
        }
        if (!keyed) {
          dropValueRows(before);
          appended = false;
        }
        const int64_t keyRow = keyChunk_->size() - 1;
        for (int64_t row = before + 1; appended && row < chunk_.size(); ++row) {
          for (int c = 0; c < keyChunk_->columnCount(); ++c) {
            vector::Vector& column = keyChunk_->mutableColumn(c);
            column.appendValue(column.valueAt(keyRow));  // a copy first: the column grows
          }
          keyChunk_->mutableRowKinds().push_back(RowKind::INSERT);
        }
      }
      if (appended && outputRowType_) {
        rowMetadata_.push_back(metadataOf(message, topic));
        for (int64_t row = before + 1; row < chunk_.size(); ++row) {
          rowMetadata_.push_back(rowMetadata_.back());
        }
      }
    }
    state.nextOffset = message.offset + 1;
    if (state.finished()) finish(split);
  }

  /// What the metadata columns of one row hold.
  struct RowMetadata {
    const std::string* topic;  // in topicNames_
    int32_t partition;
    int64_t offset;
    int64_t timestamp;
    rd_kafka_timestamp_type_t timestampType;
    ValueMap headers;
  };

  RowMetadata metadataOf(const rd_kafka_message_t& message, std::string_view topic) {
    auto name = topicNames_.find(topic);
    if (name == topicNames_.end()) name = topicNames_.emplace(topic).first;
    RowMetadata metadata{&*name, message.partition, message.offset, 0, RD_KAFKA_TIMESTAMP_NOT_AVAILABLE, {}};
    metadata.timestamp = rd_kafka_message_timestamp(&message, &metadata.timestampType);
    if (wantsHeaders_) {
      rd_kafka_headers_t* headers = nullptr;
      if (rd_kafka_message_headers(&message, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR) {
        const char* name = nullptr;
        const void* value = nullptr;
        size_t size = 0;
        for (size_t i = 0; rd_kafka_header_get_all(headers, i, &name, &value, &size) ==
                           RD_KAFKA_RESP_ERR_NO_ERROR;
             ++i) {
          const auto* bytes = static_cast<const uint8_t*>(value);
          metadata.headers.emplace_back(
              Value(std::string(name)),
              value == nullptr ? Value() : Value::ofBytes(Bytes(bytes, bytes + size)));
        }
      }
    }
    return metadata;
  }

  static Value metadataValue(const RowMetadata& row, const std::string& key) {
    if (key == "topic") return Value(*row.topic);
    if (key == "partition") return Value(row.partition);
    if (key == "offset") return Value(row.offset);
    if (key == "timestamp") return Value(Instant::ofEpochMilli(row.timestamp));
    if (key == "timestamp-type") {
      switch (row.timestampType) {
        case RD_KAFKA_TIMESTAMP_CREATE_TIME:
          return Value(std::string("CreateTime"));
        case RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME:
          return Value(std::string("LogAppendTime"));
        default:
          return Value(std::string("NoTimestampType"));
      }
    }
    return Value::ofMap(row.headers);  // headers
  }

  /// `chunk`'s columns followed by the metadata columns of its rows.
  vector::Chunk withMetadata(vector::Chunk& chunk) {
    vector::Chunk result(outputRowType_);
    const int physical = chunk.columnCount();
    for (int c = 0; c < physical; ++c) result.mutableColumn(c) = std::move(chunk.mutableColumn(c));
    result.mutableRowKinds() = std::move(chunk.mutableRowKinds());
    for (size_t k = 0; k < spec_.metadataKeys.size(); ++k) {
      vector::Vector& column = result.mutableColumn(physical + static_cast<int>(k));
      column.reserve(static_cast<int64_t>(rowMetadata_.size()));
      for (const RowMetadata& row : rowMetadata_) {
        column.appendValue(metadataValue(row, spec_.metadataKeys[k]));
      }
    }
    return result;
  }

  /// Where a physical column comes from: column `index` of the key or of the value.
  struct ColumnSource {
    bool key;
    int index;
  };

  const KafkaSourceSpec& spec_;
  connector::SourceReaderContext& context_;
  std::unique_ptr<formats::RowDeserializer> deserializer_;
  std::unique_ptr<formats::RowDeserializer> keyDeserializer_;  // null without a key format
  std::vector<ColumnSource> columnSources_;                    // per physical column
  bool direct_ = true;  // the value holds every physical column in order: no assembly
  std::string keyLocation_;
  LogicalTypePtr outputRowType_;  // with metadata columns; null without
  bool wantsHeaders_ = false;
  std::vector<RowMetadata> rowMetadata_;  // of the chunk being built
  // Within pollNext: the output, the rows of the current partition run and their split, and
  // how many rows went out already.
  ReaderOutput<vector::Chunk>* output_ = nullptr;
  vector::Chunk chunk_;                    // the values' rows (of the value row type)
  std::optional<vector::Chunk> keyChunk_;  // the keys' rows, with a key format
  std::string chunkSplitId_;
  int64_t emitted_ = 0;
  // Splits assigned or finished whose output is still to be created or released.
  std::vector<std::string> newSplitIds_;
  std::vector<std::string> finishedSplitIds_;
  std::set<std::string, std::less<>> topicNames_;  // the topics seen (stable addresses)
  std::unique_ptr<KafkaClient> client_;
  rd_kafka_queue_t* queue_ = nullptr;
  std::map<std::pair<std::string, int32_t>, KafkaPartitionSplit> splits_;
  // The split of the last record handled (splits_.end(): none), its topic handle and partition.
  std::map<std::pair<std::string, int32_t>, KafkaPartitionSplit>::iterator lastSplit_ = splits_.end();
  const rd_kafka_topic_t* lastTopic_ = nullptr;
  int32_t lastPartition_ = -1;
  bool noMoreSplits_ = false;
  std::exception_ptr pendingError_;
  std::array<rd_kafka_message_t*, runtime::kDefaultBatchSize> messages_{};
  std::string location_;
  std::map<int64_t, std::map<std::pair<std::string, int32_t>, int64_t>> offsetsToCommit_;
};

}  // namespace

// ---- The source -------------------------------------------------------------------------------

std::map<std::string, LogicalTypePtr> kafkaMetadataTypes() {
  return {{"topic", LogicalType::varchar(LogicalType::kMaxLength, false)},
          {"partition", LogicalType::simple(LogicalTypeRoot::INTEGER, false)},
          {"offset", LogicalType::simple(LogicalTypeRoot::BIGINT, false)},
          {"timestamp", LogicalType::localZonedTimestamp(3, TimestampKind::REGULAR, false)},
          {"timestamp-type", LogicalType::varchar(LogicalType::kMaxLength, false)},
          {"headers", LogicalType::map(LogicalType::varchar(LogicalType::kMaxLength),
                                       LogicalType::varbinary(LogicalType::kMaxLength), false)}};
}

KafkaSource::KafkaSource(KafkaSourceSpec spec) : spec_(std::move(spec)) {}

Boundedness KafkaSource::getBoundedness() const {
  return spec_.boundedMode == KafkaBoundedMode::kUnbounded ? Boundedness::CONTINUOUS_UNBOUNDED
                                                          : Boundedness::BOUNDED;
}

std::unique_ptr<connector::SourceReader<vector::Chunk, KafkaPartitionSplit>>
KafkaSource::createReader(connector::SourceReaderContext& context) const {
  return std::make_unique<KafkaSourceReader>(spec_, context);
}

std::unique_ptr<connector::SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumeratorState>>
KafkaSource::createEnumerator(connector::SplitEnumeratorContext<KafkaPartitionSplit>& context) const {
  return std::make_unique<KafkaSourceEnumerator>(spec_, context, KafkaSourceEnumeratorState{});
}

std::unique_ptr<connector::SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumeratorState>>
KafkaSource::restoreEnumerator(connector::SplitEnumeratorContext<KafkaPartitionSplit>& context,
                               KafkaSourceEnumeratorState checkpoint) const {
  return std::make_unique<KafkaSourceEnumerator>(spec_, context, std::move(checkpoint));
}

}  // namespace eddy::connectors
