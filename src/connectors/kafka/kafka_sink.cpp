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

/// What a record carries besides its key and value (the sink's metadata columns).
struct RecordMetadata {
  int64_t timestamp = 0;  // 0: none, the producer's clock
  std::vector<std::pair<std::string, std::optional<Bytes>>> headers;
};

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
        if (!spec_.metadataKeys.empty()) readMetadata(chunk, row);
        if (spec_.bufferFlushMaxRows > 0) {
          buffer(tombstone);
        } else {
          produce(keys ? &key_ : nullptr, tombstone ? nullptr : &record_, metadata_);
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
    *alive_ = false;  // a pending flush timer does nothing now
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

  /// Reads the metadata columns of `row` (after the physical ones) into metadata_.
  void readMetadata(const vector::Chunk& chunk, int64_t row) {
    metadata_.timestamp = 0;
    metadata_.headers.clear();
    const int first = chunk.columnCount() - static_cast<int>(spec_.metadataKeys.size());
    for (size_t k = 0; k < spec_.metadataKeys.size(); ++k) {
      const vector::Vector& column = chunk.column(first + static_cast<int>(k));
      if (column.isNull(row)) continue;
      const Value value = column.valueAt(row);
      if (spec_.metadataKeys[k] == "timestamp") {
        metadata_.timestamp = value.get<Instant>().toEpochMilli();
        continue;
      }
      for (const auto& [name, bytes] : value.get<ValueMap>()) {  // headers
        if (name.isNull()) continue;                             // a header needs a name
        metadata_.headers.emplace_back(
            name.get<std::string>(),
            bytes.isNull() ? std::nullopt : std::optional<Bytes>(bytes.get<Bytes>()));
      }
    }
  }

  /// Keeps the record in key_ and record_ as its key's last one (Flink's ReducingUpsertWriter),
  /// sending the buffer once it holds 'sink.buffer-flush.max-rows' keys or the interval has
  /// passed since the first record after the last flush (a processing-time timer).
  void buffer(bool tombstone) {
    if (buffered_.empty() && timers_ != nullptr)
      firstBufferedAt_ = timers_->currentProcessingTime();
    auto [entry, added] = bufferedIndex_.try_emplace(key_, buffered_.size());
    if (added) {
      buffered_.push_back(BufferedRecord{key_, record_, tombstone, metadata_});
    } else {
      BufferedRecord& last = buffered_[entry->second];
      last.value.swap(record_);
      last.tombstone = tombstone;
      last.metadata = metadata_;
    }
    if (static_cast<int64_t>(buffered_.size()) >= spec_.bufferFlushMaxRows) {
      flushBuffer();
    } else if (!flushScheduled_ && timers_ != nullptr) {
      scheduleFlush(firstBufferedAt_ + spec_.bufferFlushIntervalMillis);
    }
  }

  /// Flushes the buffer at `time`, or later when it was emptied and filled again since.
  void scheduleFlush(int64_t time) {
    flushScheduled_ = true;
    timers_->registerTimer(time, [this, alive = alive_](int64_t now) {
      if (!*alive) return;  // the writer closed
      flushScheduled_ = false;
      if (buffered_.empty()) return;
      const int64_t due = firstBufferedAt_ + spec_.bufferFlushIntervalMillis;
      if (now < due) {
        scheduleFlush(due);
      } else {
        flushBuffer();
      }
    });
  }

  /// Sends the buffered records, in the order their keys came first. A record that cannot be
  /// sent stays buffered with those after it.
  void flushBuffer() {
    size_t sent = 0;
    try {
      for (; sent < buffered_.size(); ++sent) {
        const BufferedRecord& entry = buffered_[sent];
        produce(&entry.key, entry.tombstone ? nullptr : &entry.value, entry.metadata);
      }
    } catch (...) {
      buffered_.erase(buffered_.begin(), buffered_.begin() + static_cast<std::ptrdiff_t>(sent));
      bufferedIndex_.clear();
      for (size_t i = 0; i < buffered_.size(); ++i) bufferedIndex_.emplace(buffered_[i].key, i);
      throw;
    }
    buffered_.clear();
    bufferedIndex_.clear();
  }

  /// Sends one record: `key` (null: none), `value` (null: a tombstone) and `metadata`.
  void produce(const std::string* key, const std::string* value, const RecordMetadata& metadata) {
    int32_t partition = partition_;
    if (!partitions_.empty()) {
      partition = partitions_[next_];
      next_ = (next_ + 1) % partitions_.size();
    }
    while (true) {
      rd_kafka_resp_err_t error = RD_KAFKA_RESP_ERR_NO_ERROR;
      if (spec_.metadataKeys.empty()) {
        const int result = rd_kafka_produce(
            topic_, partition, RD_KAFKA_MSG_F_COPY,
            value != nullptr ? const_cast<char*>(value->data()) : nullptr,
            value != nullptr ? value->size() : 0, key != nullptr ? key->data() : nullptr,
            key != nullptr ? key->size() : 0, nullptr);
        if (result == 0) return;
        error = rd_kafka_last_error();
      } else {
        // The headers are the producer's once it takes the record, else still ours.
        rd_kafka_headers_t* headers = nullptr;
        if (!metadata.headers.empty()) {
          headers = rd_kafka_headers_new(metadata.headers.size());
          for (const auto& [name, bytes] : metadata.headers) {
            rd_kafka_header_add(headers, name.data(), static_cast<ssize_t>(name.size()),
                                bytes ? bytes->data() : nullptr,
                                bytes ? static_cast<ssize_t>(bytes->size()) : 0);
          }
        }
        error = rd_kafka_producev(
            client_->get(), RD_KAFKA_V_RKT(topic_), RD_KAFKA_V_PARTITION(partition),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
            // (Each argument parenthesized: the macros cast them.)
            RD_KAFKA_V_VALUE((value != nullptr ? const_cast<char*>(value->data()) : nullptr),
                             (value != nullptr ? value->size() : 0)),
            RD_KAFKA_V_KEY((key != nullptr ? key->data() : nullptr),
                           (key != nullptr ? key->size() : 0)),
            RD_KAFKA_V_TIMESTAMP(metadata.timestamp), RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_END);
        if (error == RD_KAFKA_RESP_ERR_NO_ERROR) return;
        if (headers != nullptr) rd_kafka_headers_destroy(headers);
      }
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
    RecordMetadata metadata;
  };

  const KafkaSinkSpec& spec_;
  std::unique_ptr<formats::RowSerializer> serializer_;
  runtime::ProcessingTimeService* timers_;  // null outside a job: flushes by count only
  std::vector<BufferedRecord> buffered_;
  std::unordered_map<std::string, size_t> bufferedIndex_;  // key bytes -> index in buffered_
  bool flushScheduled_ = false;
  int64_t firstBufferedAt_ = 0;  // when the first record entered the empty buffer
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // false once closed
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
  RecordMetadata metadata_;  // the record's, for produce()
  connector::SinkWriterContext writerContext_;
};

}  // namespace

std::vector<std::pair<std::string, LogicalTypePtr>> kafkaWritableMetadata() {
  return {{"headers", LogicalType::map(LogicalType::varchar(LogicalType::kMaxLength),
                                       LogicalType::varbinary(LogicalType::kMaxLength))},
          {"timestamp", LogicalType::localZonedTimestamp(3)}};
}

std::unique_ptr<connector::SinkWriter<vector::Chunk>> KafkaSink::createWriter(
    connector::WriterInitContext& context) const {
  return std::make_unique<KafkaSinkWriter>(spec_, context.getSubtaskId(),
                                           context.getProcessingTimeService());
}

}  // namespace eddy::connectors
