#include "connectors/kafka/kafka_client.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <regex>
#include <set>

#include "eddy/exceptions.h"

namespace eddy::connectors {

namespace {

/// Owns a topic-partition list.
struct PartitionList {
  rd_kafka_topic_partition_list_t* list;
  explicit PartitionList(size_t size) : list(rd_kafka_topic_partition_list_new(static_cast<int>(size))) {}
  ~PartitionList() { rd_kafka_topic_partition_list_destroy(list); }
  PartitionList(const PartitionList&) = delete;
  PartitionList& operator=(const PartitionList&) = delete;
};

}  // namespace

bool isFlinkOnlyKafkaProperty(const std::string& name) {
  static const std::set<std::string> kFlinkOnly = {
      "partition.discovery.interval.ms", "client.id.prefix", "register.consumer.metrics",
      "commit.offsets.on.checkpoint"};
  return kFlinkOnly.contains(name);
}

rd_kafka_conf_t* kafkaConfiguration(const std::map<std::string, std::string>& properties,
                                    const std::map<std::string, std::string>& overrides,
                                    const std::string& what) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  std::array<char, 512> error{};
  auto set = [&](const std::string& name, const std::string& value) {
    if (isFlinkOnlyKafkaProperty(name)) return;
    if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), error.data(), error.size()) !=
        RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      throw ConnectorException(fmt::format("Cannot configure the Kafka client of {}: property '{}': {}",
                                           what, name, error.data()));
    }
  };
  for (const auto& [name, value] : properties) {
    if (!overrides.contains(name)) set(name, value);
  }
  for (const auto& [name, value] : overrides) set(name, value);
  return conf;
}

void checkKafkaProperties(const std::string& tableName,
                          const std::map<std::string, std::string>& properties) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  std::array<char, 512> error{};
  for (const auto& [name, value] : properties) {
    if (isFlinkOnlyKafkaProperty(name)) continue;
    const rd_kafka_conf_res_t result =
        rd_kafka_conf_set(conf, name.c_str(), value.c_str(), error.data(), error.size());
    if (result == RD_KAFKA_CONF_OK) continue;
    rd_kafka_conf_destroy(conf);
    if (result == RD_KAFKA_CONF_UNKNOWN) {
      throw ValidationException(fmt::format(
          "Unsupported option 'properties.{}' of table '{}': '{}' is not a Kafka client property "
          "that eddy's client (librdkafka) knows.",
          name, tableName, name));
    }
    throw ValidationException(fmt::format("Invalid value '{}' for option 'properties.{}' of table "
                                          "'{}': {}",
                                          value, name, tableName, error.data()));
  }
  rd_kafka_conf_destroy(conf);
}

KafkaClient::KafkaClient(rd_kafka_type_t type, const std::map<std::string, std::string>& properties,
                         const std::map<std::string, std::string>& overrides,
                         const std::string& what)
    : KafkaClient(type, kafkaConfiguration(properties, overrides, what), what) {}

KafkaClient::KafkaClient(rd_kafka_type_t type, rd_kafka_conf_t* conf, const std::string& what)
    : what_(what) {
  std::array<char, 512> error{};
  handle_ = rd_kafka_new(type, conf, error.data(), error.size());
  if (handle_ == nullptr) {
    rd_kafka_conf_destroy(conf);
    throw ConnectorException(
        fmt::format("Cannot create the Kafka client of {}: {}", what, error.data()));
  }
}

KafkaClient::~KafkaClient() {
  if (handle_ != nullptr) rd_kafka_destroy(handle_);
}

void KafkaClient::fail(const std::string& action, rd_kafka_resp_err_t error) const {
  throw ConnectorException(
      fmt::format("Kafka: {} failed for {}: {}", action, what_, rd_kafka_err2str(error)));
}

std::vector<int32_t> KafkaClient::partitionsOf(const std::string& topic) const {
  rd_kafka_topic_t* handle = rd_kafka_topic_new(handle_, topic.c_str(), nullptr);
  const struct rd_kafka_metadata* metadata = nullptr;
  const rd_kafka_resp_err_t error =
      rd_kafka_metadata(handle_, 0, handle, &metadata, kKafkaRequestTimeoutMillis);
  rd_kafka_topic_destroy(handle);
  if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
    fail(fmt::format("reading the metadata of topic '{}'", topic), error);
  }
  std::vector<int32_t> partitions;
  rd_kafka_resp_err_t topicError = RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART;
  for (int t = 0; t < metadata->topic_cnt; ++t) {
    const rd_kafka_metadata_topic_t& entry = metadata->topics[t];
    if (topic != entry.topic) continue;
    topicError = entry.err;
    for (int p = 0; p < entry.partition_cnt; ++p) partitions.push_back(entry.partitions[p].id);
  }
  rd_kafka_metadata_destroy(metadata);
  if (topicError != RD_KAFKA_RESP_ERR_NO_ERROR || partitions.empty()) {
    throw ConnectorException(fmt::format("Kafka topic '{}' of {} does not exist or has no partitions: {}",
                                         topic, what_, rd_kafka_err2str(topicError)));
  }
  std::sort(partitions.begin(), partitions.end());
  return partitions;
}

std::vector<std::string> KafkaClient::topicsMatching(const std::string& pattern) const {
  const std::regex expression(pattern);
  const struct rd_kafka_metadata* metadata = nullptr;
  const rd_kafka_resp_err_t error =
      rd_kafka_metadata(handle_, 1, nullptr, &metadata, kKafkaRequestTimeoutMillis);
  if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
    fail(fmt::format("listing the topics that match '{}'", pattern), error);
  }
  std::vector<std::string> topics;
  for (int t = 0; t < metadata->topic_cnt; ++t) {
    const std::string name = metadata->topics[t].topic;
    if (!name.starts_with("__") && std::regex_match(name, expression)) topics.push_back(name);
  }
  rd_kafka_metadata_destroy(metadata);
  std::sort(topics.begin(), topics.end());
  return topics;
}

std::pair<int64_t, int64_t> KafkaClient::watermarkOffsets(const std::string& topic,
                                                          int32_t partition) const {
  int64_t low = 0;
  int64_t high = 0;
  const rd_kafka_resp_err_t error = rd_kafka_query_watermark_offsets(
      handle_, topic.c_str(), partition, &low, &high, kKafkaRequestTimeoutMillis);
  if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
    fail(fmt::format("reading the offsets of topic '{}' partition {}", topic, partition), error);
  }
  return {low, high};
}

std::map<int32_t, std::optional<int64_t>> KafkaClient::committedOffsets(
    const std::string& topic, const std::vector<int32_t>& partitions) const {
  PartitionList list(partitions.size());
  for (int32_t partition : partitions) rd_kafka_topic_partition_list_add(list.list, topic.c_str(), partition);
  const rd_kafka_resp_err_t error =
      rd_kafka_committed(handle_, list.list, kKafkaRequestTimeoutMillis);
  if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
    fail(fmt::format("reading the committed offsets of topic '{}'", topic), error);
  }
  std::map<int32_t, std::optional<int64_t>> offsets;
  for (int i = 0; i < list.list->cnt; ++i) {
    const rd_kafka_topic_partition_t& entry = list.list->elems[i];
    if (entry.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      fail(fmt::format("reading the committed offset of topic '{}' partition {}", topic,
                       entry.partition),
           entry.err);
    }
    offsets[entry.partition] =
        entry.offset >= 0 ? std::optional<int64_t>(entry.offset) : std::nullopt;
  }
  return offsets;
}

std::map<int32_t, std::optional<int64_t>> KafkaClient::offsetsForTimestamp(
    const std::string& topic, const std::vector<int32_t>& partitions,
    int64_t timestampMillis) const {
  PartitionList list(partitions.size());
  for (int32_t partition : partitions) {
    rd_kafka_topic_partition_list_add(list.list, topic.c_str(), partition)->offset = timestampMillis;
  }
  const rd_kafka_resp_err_t error =
      rd_kafka_offsets_for_times(handle_, list.list, kKafkaRequestTimeoutMillis);
  if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
    fail(fmt::format("looking up the offsets of topic '{}' at timestamp {}", topic,
                     timestampMillis),
         error);
  }
  std::map<int32_t, std::optional<int64_t>> offsets;
  for (int i = 0; i < list.list->cnt; ++i) {
    const rd_kafka_topic_partition_t& entry = list.list->elems[i];
    if (entry.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      fail(fmt::format("looking up the offset of topic '{}' partition {} at timestamp {}", topic,
                       entry.partition, timestampMillis),
           entry.err);
    }
    offsets[entry.partition] = entry.offset >= 0 ? std::optional<int64_t>(entry.offset) : std::nullopt;
  }
  return offsets;
}

}  // namespace eddy::connectors
