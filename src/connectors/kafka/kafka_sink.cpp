#include "connectors/kafka/kafka_sink.h"

#include <fmt/format.h>

#include <chrono>
#include <optional>
#include <thread>
#include <unordered_map>

#include "connectors/kafka/kafka_client.h"
#include "eddy/exceptions.h"
#include "eddy/row.h"

namespace eddy::connectors {

namespace {

class KafkaSinkWriter final : public connector::SinkWriter<vector::Chunk> {
 public:
  KafkaSinkWriter(const KafkaSinkSpec& spec, int subtask, runtime::ProcessingTimeService* timers)
      : spec_(spec), serializer_(spec.format->createSerializer()), timers_(timers) {
    if (spec.keyFormat) keySerializer_ = spec.keyFormat->createSerializer();
    changes_ = spec.format->consumesChanges();
    const std::string what =
        fmt::format("the sink of table '{}' (subtask {})", spec.tableName, subtask + 1);
    std::map<std::string, std::string> overrides;
    // Kafka's Java producer hashes keys with murmur2: so does librdkafka's murmur2_random.
    if (!spec.properties.contains("partitioner")) overrides["partitioner"] = "murmur2_random";
    rd_kafka_conf_t* conf = kafkaConfiguration(spec.properties, overrides, what);
    rd_kafka_conf_set_opaque(conf, this);
    rd_kafka_conf_set_dr_msg_cb(conf, &KafkaSinkWriter::onDelivery);
    client_ = std::make_unique<KafkaClient>(RD_KAFKA_PRODUCER, conf, what);
    if (spec.partitioner == KafkaSinkPartitioner::kFixed) {
      const std::vector<int32_t> partitions = client_->partitionsOf(spec.topic);
      partition_ = partitions[static_cast<size_t>(subtask) % partitions.size()];
    } else if (spec.partitioner == KafkaSinkPartitioner::kRoundRobin) {
      partitions_ = client_->partitionsOf(spec.topic);
      next_ = static_cast<size_t>(subtask) % partitions_.size();
    }
    for (size_t i = 0; orderedValue_ && i < spec.valueColumns.size(); ++i) {
      orderedValue_ = spec.valueColumns[i] == static_cast<int>(i);
    }
    topic_ = rd_kafka_topic_new(client_->get(), spec.topic.c_str(), nullptr);
    if (topic_ == nullptr) {
      throw ConnectorException(fmt::format("The sink of table '{}' cannot open Kafka topic '{}': {}",
                                           spec.tableName, spec.topic,
                                           rd_kafka_err2str(rd_kafka_last_error())));
    }
  }
  ~KafkaSinkWriter() override { close(); }

  void write(const vector::Chunk& chunk, const connector::SinkWriterContext&) override {
    writeBatch(std::span<const vector::Chunk>(&chunk, 1), {}, writerContext_);
  }

  void writeBatch(std::span<const vector::Chunk> chunks, std::span<const int64_t>,
                  connector::SinkWriterContext&) override {
    checkDelivered();
    for (const vector::Chunk& chunk : chunks) {
      const std::vector<RowKind>& kinds = chunk.rowKinds();
      // The key's and the value's columns as chunks of their formats' row types (the value is
      // the chunk itself when it holds every column in order).
      std::optional<vector::Chunk> keys;
      if (keySerializer_) keys = project(chunk, spec_.keyRowType, spec_.keyColumns);
      std::optional<vector::Chunk> values;
      if (!orderedValue_ || static_cast<int>(spec_.valueColumns.size()) != chunk.columnCount()) {
        values = project(chunk, spec_.valueRowType, spec_.valueColumns);
      }
      const vector::Chunk& valueRows = values ? *values : chunk;
      for (int64_t row = 0; row < chunk.size(); ++row) {
        const RowKind kind = kinds[static_cast<size_t>(row)];
        // upsert-kafka: -D (and -U) rows are tombstones of their key (Flink's
        // DynamicKafkaRecordSerializationSchema in upsert mode).
        const bool tombstone =
            spec_.upsert && (kind == RowKind::DELETE || kind == RowKind::UPDATE_BEFORE);
        if (!spec_.upsert && !changes_ && kind != RowKind::INSERT) {
          throw TableException(fmt::format("The kafka sink of table '{}' accepts only INSERT rows; got {}",
                                           spec_.tableName, chunk.rowAt(row).toString()));
        }
        record_.clear();
        if (!tombstone) serializer_->serialize(valueRows, row, record_);
        key_.clear();
        if (keys) keySerializer_->serialize(*keys, row, key_);
        if (spec_.bufferFlushMaxRows > 0) {
          buffer(tombstone);
        } else {
          produce(keys.has_value(), tombstone);
        }
      }
    }
    rd_kafka_poll(client_->get(), 0);  // delivery reports
  }

  void flush(bool endOfInput) override {
    flushBuffer();
    if (spec_.deliveryGuarantee == KafkaDeliveryGuarantee::kNone && !endOfInput) return;
    // Bounded by librdkafka's message.timeout.ms: an undeliverable record is reported failed.
    while (rd_kafka_outq_len(client_->get()) > 0) {
      rd_kafka_flush(client_->get(), kKafkaRequestTimeoutMillis);
      checkDelivered();
    }
    checkDelivered();
  }

  void close() override {
    if (topic_ != nullptr) {
      rd_kafka_topic_destroy(topic_);
      topic_ = nullptr;
    }
    client_.reset();
  }

 private:
  static void onDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
    auto* writer = static_cast<KafkaSinkWriter*>(opaque);
    if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR && writer->deliveryError_.empty()) {
      writer->deliveryError_ = rd_kafka_err2str(message->err);
    }
  }

  void checkDelivered() {
    if (deliveryError_.empty()) return;
    throw ConnectorException(fmt::format("The sink of table '{}' failed to send data to Kafka topic '{}': {}",
                                         spec_.tableName, spec_.topic, deliveryError_));
  }

  /// The columns `columns` of `chunk` as a chunk of `rowType` (copies of the columns).
  static vector::Chunk project(const vector::Chunk& chunk, const LogicalTypePtr& rowType,
                               const std::vector<int>& columns) {
    vector::Chunk projected(rowType);
    for (size_t i = 0; i < columns.size(); ++i) {
      projected.mutableColumn(static_cast<int>(i)) = chunk.column(columns[i]);
    }
    projected.mutableRowKinds() = chunk.rowKinds();
    return projected;
  }

  /// Keeps the record in key_ and record_ as its key's last one (Flink's ReducingUpsertWriter),
  /// sending the buffer once it holds 'sink.buffer-flush.max-rows' keys; the first record
  /// after a flush schedules the next one 'sink.buffer-flush.interval' later.
  void buffer(bool tombstone) {
    auto [entry, added] = bufferedIndex_.try_emplace(key_, buffered_.size());
    if (added) {
      buffered_.push_back(BufferedRecord{key_, record_, tombstone});
    } else {
      BufferedRecord& last = buffered_[entry->second];
      last.value.swap(record_);
      last.tombstone = tombstone;
    }
    if (static_cast<int64_t>(buffered_.size()) >= spec_.bufferFlushMaxRows) {
      flushBuffer();
    } else if (!flushScheduled_ && timers_ != nullptr) {
      flushScheduled_ = true;
      timers_->registerTimer(timers_->currentProcessingTime() + spec_.bufferFlushIntervalMillis,
                             [this](int64_t) {
                               flushScheduled_ = false;
                               flushBuffer();
                             });
    }
  }

  /// Sends the buffered records, in the order their keys came first.
  void flushBuffer() {
    for (BufferedRecord& entry : buffered_) {
      key_.swap(entry.key);
      record_.swap(entry.value);
      produce(true, entry.tombstone);
    }
    buffered_.clear();
    bufferedIndex_.clear();
  }

  void produce(bool keyed, bool tombstone = false) {
    int32_t partition = partition_;
    if (!partitions_.empty()) {
      partition = partitions_[next_];
      next_ = (next_ + 1) % partitions_.size();
    }
    while (true) {
      const int result =
          rd_kafka_produce(topic_, partition, RD_KAFKA_MSG_F_COPY,
                           tombstone ? nullptr : record_.data(), tombstone ? 0 : record_.size(),
                           keyed ? key_.data() : nullptr, keyed ? key_.size() : 0, nullptr);
      if (result == 0) return;
      const rd_kafka_resp_err_t error = rd_kafka_last_error();
      if (error != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        throw ConnectorException(fmt::format("The sink of table '{}' cannot send to Kafka topic '{}': {}",
                                             spec_.tableName, spec_.topic, rd_kafka_err2str(error)));
      }
      // The producer's queue is full: wait for deliveries (backpressure), then try again.
      rd_kafka_poll(client_->get(), 100);
      checkDelivered();
    }
  }

  /// A key's last record in the upsert buffer.
  struct BufferedRecord {
    std::string key;
    std::string value;
    bool tombstone;
  };

  const KafkaSinkSpec& spec_;
  std::unique_ptr<formats::RowSerializer> serializer_;
  runtime::ProcessingTimeService* timers_;  // null outside a job: flushes by count only
  std::vector<BufferedRecord> buffered_;
  std::unordered_map<std::string, size_t> bufferedIndex_;  // key bytes -> index in buffered_
  bool flushScheduled_ = false;
  std::unique_ptr<formats::RowSerializer> keySerializer_;  // null without a key format
  bool orderedValue_ = true;  // the value columns are the first ones, in order
  bool changes_ = false;      // the value format writes rows of every kind (debezium-json, ..)
  std::vector<int32_t> partitions_;                        // 'round-robin': the topic's partitions
  size_t next_ = 0;  // 'round-robin': the index of the next one
  std::string key_;  // reused
  std::unique_ptr<KafkaClient> client_;
  rd_kafka_topic_t* topic_ = nullptr;
  int32_t partition_ = RD_KAFKA_PARTITION_UA;
  std::string record_;  // reused
  std::string deliveryError_;
  connector::SinkWriterContext writerContext_;
};

}  // namespace

std::unique_ptr<connector::SinkWriter<vector::Chunk>> KafkaSink::createWriter(
    connector::WriterInitContext& context) const {
  return std::make_unique<KafkaSinkWriter>(spec_, context.getSubtaskId(),
                                           context.getProcessingTimeService());
}

}  // namespace eddy::connectors
