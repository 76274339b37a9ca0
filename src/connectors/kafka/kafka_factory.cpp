#include "connectors/kafka/kafka_factory.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <regex>

#include "common/text.h"
#include "connectors/kafka/kafka_client.h"
#include "connectors/kafka/kafka_sink.h"
#include "connectors/kafka/kafka_source.h"
#include "connectors/table_options.h"
#include "eddy/exceptions.h"
#include "formats/format_factory.h"

namespace eddy::connectors {

namespace {

constexpr const char* kPropertiesPrefix = "properties.";
constexpr const char* kTopic = "topic";
constexpr const char* kTopicPattern = "topic-pattern";
constexpr const char* kStartupMode = "scan.startup.mode";
constexpr const char* kStartupSpecificOffsets = "scan.startup.specific-offsets";
constexpr const char* kStartupTimestamp = "scan.startup.timestamp-millis";
constexpr const char* kBoundedMode = "scan.bounded.mode";
constexpr const char* kBoundedSpecificOffsets = "scan.bounded.specific-offsets";
constexpr const char* kBoundedTimestamp = "scan.bounded.timestamp-millis";
constexpr const char* kDiscoveryInterval = "scan.topic-partition-discovery.interval";
constexpr int64_t kDefaultDiscoveryIntervalMillis = 5 * 60 * 1000;  // Flink's default
constexpr const char* kDeliveryGuarantee = "sink.delivery-guarantee";
constexpr const char* kSemantic = "sink.semantic";  // Flink's deprecated name
constexpr const char* kPartitioner = "sink.partitioner";
constexpr const char* kBufferFlushMaxRows = "sink.buffer-flush.max-rows";
constexpr const char* kBufferFlushInterval = "sink.buffer-flush.interval";

/// The value format's identifier and its option prefix: 'format' = 'json' gives "json.",
/// 'value.format' = 'json' gives "value.json." (Flink's getValueDecodingFormat).
struct ValueFormat {
  std::string identifier;
  std::string prefix;
};

std::optional<ValueFormat> valueFormatOf(const ConnectorContext& context) {
  if (auto format = context.options.find("format"); format != context.options.end()) {
    return ValueFormat{format->second, format->second + "."};
  }
  if (auto format = context.options.find("value.format"); format != context.options.end()) {
    return ValueFormat{format->second, "value." + format->second + "."};
  }
  return std::nullopt;
}

/// 'key.format' = 'json' gives "json" with the prefix "key.json.".
std::optional<ValueFormat> keyFormatOf(const ConnectorContext& context) {
  if (auto format = context.options.find("key.format"); format != context.options.end()) {
    return ValueFormat{format->second, "key." + format->second + "."};
  }
  return std::nullopt;
}

/// Which physical columns the record key and the record value hold (Flink's
/// KafkaConnectorOptionsUtil#createKeyFormatProjection and #createValueFormatProjection), and
/// the row types their formats read and write: the key's fields named without
/// 'key.fields-prefix'.
struct RecordLayout {
  std::vector<int> keyColumns;  // in 'key.fields' order; empty without 'key.format'
  std::vector<int> valueColumns;
  LogicalTypePtr keyRowType;  // null without 'key.format'
  LogicalTypePtr valueRowType;
};

RecordLayout recordLayoutOf(const ConnectorContext& context, bool upsert) {
  TableOptions options(context);
  const std::optional<std::string> keyFormat = options.getString("key.format");
  const std::optional<std::string> keyFieldsText = options.getString("key.fields");
  // upsert-kafka: the record key is the primary key (Flink's factory sets 'key.fields' to it).
  const std::vector<std::string> keyFields = upsert ? context.primaryKey
                                             : keyFieldsText
                                                 ? common::splitList(*keyFieldsText, ';')
                                                 : std::vector<std::string>{};
  if (!keyFormat && keyFieldsText) {
    throw ValidationException(
        "The option 'key.fields' can only be declared if a key format is defined using "
        "'key.format'.");
  }
  if (keyFormat && keyFields.empty()) {
    throw ValidationException(
        "A key format 'key.format' requires the declaration of one or more of key fields using "
        "'key.fields'.");
  }
  const std::string prefix = options.getString("key.fields-prefix").value_or("");
  const LogicalType& physical = *context.physicalRowType;
  const std::vector<std::string> names = physical.getFieldNames();
  RecordLayout layout;
  for (const std::string& field : keyFields) {
    const int position = physical.getFieldIndex(field);
    if (position < 0) {
      throw ValidationException(fmt::format(
          "Could not find the field '{}' in the table schema for usage in the key format. A key "
          "field must be a regular, physical column. The following columns can be selected in "
          "the 'key.fields' option:\n[{}]",
          field, fmt::join(names, ", ")));
    }
    if (!field.starts_with(prefix)) {
      throw ValidationException(fmt::format(
          "All fields in 'key.fields' must be prefixed with '{}' when option 'key.fields-prefix' "
          "is set but field '{}' is not prefixed.",
          prefix, field));
    }
    layout.keyColumns.push_back(position);
  }
  const std::string include =
      common::asciiLowerCase(options.getString("value.fields-include").value_or("ALL"));
  if (include != "all" && include != "except_key") {
    options.throwInvalid("value.fields-include", *options.getString("value.fields-include"),
                         "'ALL' or 'EXCEPT_KEY'");
  }
  if (include == "all" && !prefix.empty()) {
    throw ValidationException(
        "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. Set it "
        "to 'EXCEPT_KEY' instead to avoid field overlaps.");
  }
  std::vector<RowField> valueFields;
  for (int i = 0; i < physical.getFieldCount(); ++i) {
    const bool key =
        std::find(layout.keyColumns.begin(), layout.keyColumns.end(), i) != layout.keyColumns.end();
    if (include == "except_key" && key) continue;
    layout.valueColumns.push_back(i);
    valueFields.push_back(physical.getFields()[static_cast<size_t>(i)]);
  }
  layout.valueRowType = LogicalType::row(std::move(valueFields), false);
  if (keyFormat) {
    std::vector<RowField> keyRowFields;
    for (int column : layout.keyColumns) {
      RowField field = physical.getFields()[static_cast<size_t>(column)];
      field.name = field.name.substr(prefix.size());
      keyRowFields.push_back(std::move(field));
    }
    layout.keyRowType = LogicalType::row(std::move(keyRowFields), false);
  }
  return layout;
}

const formats::FormatFactory& factoryOf(const ValueFormat& format) {
  return formats::FormatFactoryRegistry::builtIn().factoryFor(format.identifier);
}

formats::FormatContext formatContextOf(const ConnectorContext& context, const ValueFormat& format,
                                       LogicalTypePtr rowType) {
  return formats::FormatContext{context.tableName, std::move(rowType), context.options,
                                format.prefix};
}

formats::FormatContext formatContextOf(const ConnectorContext& context, const ValueFormat& format) {
  return formatContextOf(context, format, context.physicalRowType);
}

/// The 'properties.*' options without their prefix.
std::map<std::string, std::string> clientPropertiesOf(const ConnectorContext& context) {
  std::map<std::string, std::string> properties;
  for (const auto& [key, value] : context.options) {
    if (key.starts_with(kPropertiesPrefix)) {
      properties[key.substr(std::string_view(kPropertiesPrefix).size())] = value;
    }
  }
  return properties;
}

std::vector<std::string> topicsOf(const TableOptions& options) {
  std::vector<std::string> topics;
  if (auto value = options.getString(kTopic)) {
    topics = common::splitList(*value, ';');
  }
  return topics;
}

template <typename Mode>
Mode parseMode(const TableOptions& options, const char* key, Mode fallback,
               const std::vector<std::pair<std::string, Mode>>& modes) {
  std::optional<std::string> value = options.getString(key);
  if (!value) return fallback;
  std::string allowed;
  for (size_t i = 0; i < modes.size(); ++i) {
    if (common::asciiLowerCase(*value) == modes[i].first) return modes[i].second;
    allowed += (i == 0 ? "" : i + 1 == modes.size() ? " or " : ", ") + ("'" + modes[i].first + "'");
  }
  options.throwInvalid(key, *value, allowed);
}

/// Flink's 'partition:0,offset:42;partition:1,offset:300'.
std::map<int32_t, int64_t> parseSpecificOffsets(const TableOptions& options, const char* key) {
  const std::string value = *options.getString(key);
  std::map<int32_t, int64_t> offsets;
  auto invalid = [&]() {
    throw ValidationException(fmt::format(
        "Invalid properties '{}' should follow the format 'partition:0,offset:42;partition:1,"
        "offset:300', but is '{}'.",
        key, value));
  };
  for (const std::string& pair : common::splitList(value, ';')) {
    std::vector<std::string> fields = common::splitList(pair, ',');
    if (fields.size() != 2) invalid();
    const std::string& partitionText = fields[0];
    const std::string& offsetText = fields[1];
    if (!partitionText.starts_with("partition:") || !offsetText.starts_with("offset:")) invalid();
    std::optional<int64_t> partition = parseInteger(partitionText.substr(10));
    std::optional<int64_t> offset = parseInteger(offsetText.substr(7));
    if (!partition || !offset || *partition < 0 || *partition > std::numeric_limits<int32_t>::max() ||
        *offset < 0) {
      invalid();
    }
    offsets[static_cast<int32_t>(*partition)] = *offset;
  }
  if (offsets.empty()) invalid();
  return offsets;
}

/// The value of `key`, which the 'timestamp' `what` mode ("startup", "bounded") needs.
int64_t requiredTimestamp(const TableOptions& options, const char* key, const char* what) {
  std::optional<int64_t> millis = options.getLong(key, 0, std::numeric_limits<int64_t>::max());
  if (!millis) {
    throw ValidationException(
        fmt::format("'{}' is required in 'timestamp' {} mode but missing.", key, what));
  }
  return *millis;
}

/// The offsets of `key`, which the 'specific-offsets' `what` mode needs (of one topic).
std::map<int32_t, int64_t> requiredSpecificOffsets(const TableOptions& options, const char* key,
                                                   const char* what, size_t topicCount) {
  if (!options.getString(key)) {
    throw ValidationException(
        fmt::format("'{}' is required in 'specific-offsets' {} mode but missing.", key, what));
  }
  if (topicCount != 1) {
    throw ValidationException("Currently Kafka source only supports specific offset for single topic.");
  }
  return parseSpecificOffsets(options, key);
}

/// The startup and bounded modes of a source, with the options each needs (Flink's
/// KafkaConnectorOptionsUtil#validateScanStartupMode / validateScanBoundedMode).
void parseScanOptions(const TableOptions& options, size_t topicCount, KafkaSourceSpec& spec) {
  spec.startupMode = parseMode<KafkaStartupMode>(
      options, kStartupMode, KafkaStartupMode::kGroupOffsets,
      {{"earliest-offset", KafkaStartupMode::kEarliestOffset},
       {"latest-offset", KafkaStartupMode::kLatestOffset},
       {"group-offsets", KafkaStartupMode::kGroupOffsets},
       {"timestamp", KafkaStartupMode::kTimestamp},
       {"specific-offsets", KafkaStartupMode::kSpecificOffsets}});
  spec.boundedMode = parseMode<KafkaBoundedMode>(
      options, kBoundedMode, KafkaBoundedMode::kUnbounded,
      {{"unbounded", KafkaBoundedMode::kUnbounded},
       {"latest-offset", KafkaBoundedMode::kLatestOffset},
       {"group-offsets", KafkaBoundedMode::kGroupOffsets},
       {"timestamp", KafkaBoundedMode::kTimestamp},
       {"specific-offsets", KafkaBoundedMode::kSpecificOffsets}});
  const bool startupTimestamp = spec.startupMode == KafkaStartupMode::kTimestamp;
  const bool startupSpecific = spec.startupMode == KafkaStartupMode::kSpecificOffsets;
  const bool boundedTimestamp = spec.boundedMode == KafkaBoundedMode::kTimestamp;
  const bool boundedSpecific = spec.boundedMode == KafkaBoundedMode::kSpecificOffsets;
  if (startupTimestamp) spec.startupTimestampMillis = requiredTimestamp(options, kStartupTimestamp, "startup");
  if (startupSpecific) {
    spec.startupOffsets = requiredSpecificOffsets(options, kStartupSpecificOffsets, "startup", topicCount);
  }
  if (boundedTimestamp) spec.boundedTimestampMillis = requiredTimestamp(options, kBoundedTimestamp, "bounded");
  if (boundedSpecific) {
    spec.boundedOffsets = requiredSpecificOffsets(options, kBoundedSpecificOffsets, "bounded", topicCount);
  }
}

KafkaDeliveryGuarantee parseDeliveryGuarantee(const TableOptions& options, const std::string& tableName) {
  const char* key = options.getString(kDeliveryGuarantee) ? kDeliveryGuarantee : kSemantic;
  std::optional<std::string> value = options.getString(key);
  if (!value) return KafkaDeliveryGuarantee::kAtLeastOnce;
  const std::string mode = common::asciiLowerCase(*value);
  if (mode == "at-least-once" || mode == "at_least_once") return KafkaDeliveryGuarantee::kAtLeastOnce;
  if (mode == "none") return KafkaDeliveryGuarantee::kNone;
  if (mode == "exactly-once" || mode == "exactly_once") {
    if (!options.getString("sink.transactional-id-prefix")) {
      throw ValidationException(
          "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.");
    }
    throw ValidationException(fmt::format(
        "Option '{}' = '{}' of table '{}' is not supported yet by the kafka connector "
        "(Kafka transactions are not there yet; 'at-least-once' and 'none' are).",
        key, *value, tableName));
  }
  options.throwInvalid(key, *value, "'at-least-once', 'exactly-once' or 'none'");
}

/// Everything but the format, which createDynamicTableSource/Sink make themselves.
struct ParsedKafkaTable {
  std::vector<std::string> topics;
  std::map<std::string, std::string> properties;
  KafkaSourceSpec source;  // without the format
  KafkaSinkSpec sink;      // without the format and topic
  std::optional<int> sinkParallelism;
  ValueFormat format;
  std::optional<ValueFormat> keyFormat;
  RecordLayout layout;
};

ParsedKafkaTable parseKafkaTable(const ConnectorContext& context, bool upsert) {
  TableOptions options(context);
  ParsedKafkaTable table;
  if (upsert && context.primaryKey.empty()) {
    throw ValidationException(
        "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY "
        "specifies which columns should be read from or write to the Kafka message key. The "
        "PRIMARY KEY also defines records in the 'upsert-kafka' table should update or delete "
        "on which keys.");
  }
  table.topics = topicsOf(options);
  if (options.getString(kTopic) && options.getString(kTopicPattern)) {
    throw ValidationException("Option 'topic' and 'topic-pattern' shouldn't be set together.");
  }
  std::optional<std::string> pattern = options.getString(kTopicPattern);
  if (table.topics.empty() && !pattern) {
    throw ValidationException("Either 'topic' or 'topic-pattern' must be set.");
  }
  if (pattern) {
    try {
      std::regex expression(*pattern);
    } catch (const std::regex_error&) {
      options.throwInvalid(kTopicPattern, *pattern, "a regular expression");
    }
  }
  table.properties = clientPropertiesOf(context);
  // Flink's 'none' (fail when a group has no committed offset) is librdkafka's 'error'.
  std::map<std::string, std::string> checked = table.properties;
  if (auto reset = checked.find("auto.offset.reset");
      reset != checked.end() && common::asciiLowerCase(reset->second) == "none") {
    reset->second = "error";
  }
  checkKafkaProperties(context.tableName, checked);
  for (const char* timeout : {"message.timeout.ms", "delivery.timeout.ms"}) {
    auto value = table.properties.find(timeout);
    if (value != table.properties.end() && parseInteger(value->second) == std::optional<int64_t>(0)) {
      throw ValidationException(fmt::format(
          "Invalid value '0' for option 'properties.{}' of table '{}': a record that cannot be "
          "delivered would hold a checkpoint forever; expected a positive number of milliseconds.",
          timeout, context.tableName));
    }
  }
  // Partition discovery: Flink's table factory sets the source's interval from
  // 'scan.topic-partition-discovery.interval' (5 minutes by default; 0 turns it off) over
  // whatever 'properties.partition.discovery.interval.ms' says, so that spelling, checked to be
  // a number, changes nothing (Flink's code; its documentation suggests otherwise).
  const int64_t discoveryInterval =
      options.getDurationMillis(kDiscoveryInterval).value_or(kDefaultDiscoveryIntervalMillis);
  if (auto interval = table.properties.find("partition.discovery.interval.ms");
      interval != table.properties.end() && !parseInteger(interval->second)) {
    options.throwUnparsable("properties.partition.discovery.interval.ms", interval->second,
                            "a whole number of milliseconds");
  }

  KafkaSourceSpec& source = table.source;
  source.tableName = context.tableName;
  source.topics = table.topics;
  source.topicPattern = pattern;
  source.properties = table.properties;
  source.partitionDiscoveryIntervalMillis = discoveryInterval;
  if (auto group = table.properties.find("group.id"); group != table.properties.end()) {
    source.groupId = group->second;
  }
  if (auto commit = table.properties.find("commit.offsets.on.checkpoint");
      commit != table.properties.end()) {
    const std::string value = common::asciiLowerCase(common::trimWhitespace(commit->second));
    if (value != "true" && value != "false") {
      options.throwUnparsable("properties.commit.offsets.on.checkpoint", commit->second,
                              "'true' or 'false'");
    }
    source.commitOffsetsOnCheckpoint = value == "true";
  }
  if (auto reset = table.properties.find("auto.offset.reset"); reset != table.properties.end()) {
    source.offsetResetStrategy = common::asciiLowerCase(reset->second);
  }
  source.rowType = context.physicalRowType;
  parseScanOptions(options, pattern ? 0 : table.topics.size(), source);
  if (upsert) {
    // Flink's upsert-kafka always reads from the earliest record, "to keep data integrity".
    source.startupMode = KafkaStartupMode::kEarliestOffset;
    source.upsert = true;
  }

  KafkaSinkSpec& sink = table.sink;
  sink.tableName = context.tableName;
  sink.properties = table.properties;
  sink.deliveryGuarantee = parseDeliveryGuarantee(options, context.tableName);
  if (auto partitioner = options.getString(kPartitioner)) {
    const std::string value = common::asciiLowerCase(*partitioner);
    if (value == "fixed") {
      sink.partitioner = KafkaSinkPartitioner::kFixed;
    } else if (value == "round-robin") {
      sink.partitioner = KafkaSinkPartitioner::kRoundRobin;
    } else if (value != "default") {
      throw ValidationException(
          fmt::format("Option '{}' = '{}' of table '{}' is not supported yet by the kafka "
                      "connector ('default', 'fixed' and 'round-robin' are; a partitioner class "
                      "is not).",
                      kPartitioner, *partitioner, context.tableName));
    }
  }
  if (upsert) {
    sink.upsert = true;
    // Flink's SinkBufferFlushMode: both set above zero buffer, both unset (or zero) do not.
    const int64_t maxRows =
        options.getLong(kBufferFlushMaxRows, 0, std::numeric_limits<int32_t>::max()).value_or(0);
    const int64_t interval = options.getDurationMillis(kBufferFlushInterval).value_or(0);
    sink.bufferFlushMaxRows = maxRows;
    sink.bufferFlushIntervalMillis = interval;
  }
  if (auto parallelism = options.getLong("sink.parallelism", 1, std::numeric_limits<int32_t>::max())) {
    table.sinkParallelism = static_cast<int>(*parallelism);
  }
  table.format = *valueFormatOf(context);
  table.keyFormat = keyFormatOf(context);
  table.layout = recordLayoutOf(context, upsert);
  factoryOf(table.format)
      .validate(formatContextOf(context, table.format, table.layout.valueRowType));
  if (!upsert && table.keyFormat &&
      factoryOf(*table.keyFormat)
          .createDecodingFormat(formatContextOf(context, *table.keyFormat, table.layout.keyRowType))
          ->producesChanges()) {
    // Flink's KafkaDynamicTableFactory#getKeyDecodingFormat.
    throw ValidationException(fmt::format(
        "A key format should only deal with INSERT-only records. But {} has a changelog mode of "
        "[INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE].",
        table.keyFormat->identifier));
  }
  if (upsert) {
    // Flink's UpsertKafkaDynamicTableFactory#validateFormat: both formats insert-only.
    struct Part {
      const ValueFormat* format;  // null: none
      const char* what;
      LogicalTypePtr rowType;
    };
    const ValueFormat* keyFormat = table.keyFormat ? &*table.keyFormat : nullptr;
    for (const Part& part : {Part{keyFormat, "key", table.layout.keyRowType},
                             Part{&table.format, "value", table.layout.valueRowType}}) {
      if (!part.format) continue;
      if (factoryOf(*part.format)
              .createDecodingFormat(formatContextOf(context, *part.format, part.rowType))
              ->producesChanges()) {
        throw ValidationException(fmt::format(
            "'upsert-kafka' connector doesn't support '{0}' as {1} format, because '{0}' is not "
            "in insert-only mode.",
            part.format->identifier, part.what));
      }
    }
  }

  if (table.keyFormat) {
    factoryOf(*table.keyFormat)
        .validate(formatContextOf(context, *table.keyFormat, table.layout.keyRowType));
  }
  source.keyColumns = table.layout.keyColumns;
  source.valueColumns = table.layout.valueColumns;
  sink.keyColumns = table.layout.keyColumns;
  sink.valueColumns = table.layout.valueColumns;
  return table;
}

class KafkaTableSource final : public DynamicTableSource {
 public:
  explicit KafkaTableSource(KafkaSourceSpec spec) : spec_(std::move(spec)) {}
  bool isBounded() const override { return spec_.boundedMode != KafkaBoundedMode::kUnbounded; }
  std::shared_ptr<Source<vector::Chunk>> createSource() const override {
    return std::make_shared<KafkaSource>(spec_);
  }
  std::map<std::string, LogicalTypePtr> listReadableMetadata() const override {
    return kafkaMetadataTypes();
  }
  void applyReadableMetadata(const std::vector<std::string>& keys) override {
    spec_.metadataKeys = keys;
  }
  /// Each partition emits through its own split output (see kafka_source.h).
  bool supportsWatermarkPushDown() const override { return true; }
  /// upsert-kafka: records are upserts by the key, tombstones deletes; a changelog value
  /// format (debezium-json, ..): the format's changes.
  SourceChangelogMode changelogMode() const override {
    if (spec_.upsert) return SourceChangelogMode::kUpsert;
    return spec_.format->producesChanges() ? SourceChangelogMode::kAll
                                           : SourceChangelogMode::kInsertOnly;
  }

 private:
  KafkaSourceSpec spec_;
};

class KafkaTableSink final : public DynamicTableSink {
 public:
  KafkaTableSink(KafkaSinkSpec spec, std::optional<int> parallelism)
      : spec_(std::move(spec)), parallelism_(parallelism) {}
  std::shared_ptr<const runtime::OperatorFactory> createSinkOperator() const override {
    return connector::detail::sinkWriterOperatorFactory(std::make_shared<const KafkaSink>(spec_));
  }
  std::optional<int> sinkParallelism() const override { return parallelism_; }
  /// upsert-kafka takes +I/+U/-D by the primary key (Flink's ChangelogMode.upsert()); kafka
  /// with a changelog value format every kind, else +I only (the format's changelog mode).
  bool acceptsUpdates() const override { return spec_.upsert || spec_.format->consumesChanges(); }
  bool consumesUpdateBefore() const override { return !spec_.upsert; }
  std::vector<std::pair<std::string, LogicalTypePtr>> listWritableMetadata() const override {
    return kafkaWritableMetadata();
  }
  void applyWritableMetadata(const std::vector<std::string>& keys) override {
    spec_.metadataKeys = keys;
  }

 private:
  KafkaSinkSpec spec_;
  std::optional<int> parallelism_;
};

}  // namespace

std::set<std::string> KafkaTableFactory::requiredOptions() const {
  if (upsert_) return {"properties.bootstrap.servers", "key.format", "value.format"};
  return {"properties.bootstrap.servers"};
}

std::set<std::string> KafkaTableFactory::optionalOptions() const {
  if (upsert_) {
    // Flink's UpsertKafkaDynamicTableFactory (properties.* are passed through).
    return {kTopic,
            kTopicPattern,
            "key.fields-prefix",
            "value.fields-include",
            kBoundedMode,
            kBoundedSpecificOffsets,
            kBoundedTimestamp,
            kBufferFlushMaxRows,
            kBufferFlushInterval,
            kDeliveryGuarantee,
            "sink.transactional-id-prefix",
            "sink.parallelism"};
  }
  return {kTopic,
          kTopicPattern,
          "properties.group.id",
          "format",
          "value.format",
          "key.format",
          "key.fields",
          "key.fields-prefix",
          "value.fields-include",
          kStartupMode,
          kStartupSpecificOffsets,
          kStartupTimestamp,
          kBoundedMode,
          kBoundedSpecificOffsets,
          kBoundedTimestamp,
          kDiscoveryInterval,
          kPartitioner,
          kDeliveryGuarantee,
          kSemantic,
          "sink.transactional-id-prefix",
          "sink.parallelism"};
}

std::set<std::string> KafkaTableFactory::supportedOptionKeys(const ConnectorContext& context) const {
  std::set<std::string> keys = DynamicTableFactory::supportedOptionKeys(context);
  for (const auto& [key, value] : context.options) {
    if (key.starts_with(kPropertiesPrefix)) keys.insert(key);
  }
  for (const std::optional<ValueFormat>& format : {valueFormatOf(context), keyFormatOf(context)}) {
    if (!format) continue;
    const formats::FormatFactory& factory =
        formats::FormatFactoryRegistry::builtIn().factoryFor(format->identifier);
    std::set<std::string> formatKeys = factory.supportedOptionKeys(formatContextOf(context, *format));
    keys.insert(formatKeys.begin(), formatKeys.end());
  }
  return keys;
}

void KafkaTableFactory::validateOptions(const ConnectorContext& context) const {
  for (const std::string& required : requiredOptions()) {
    if (!context.options.contains(required)) DynamicTableFactory::validateOptions(context);
  }
  std::optional<ValueFormat> format = valueFormatOf(context);
  if (!format) {
    throw ValidationException(fmt::format(
        "Could not find required format 'value.format' of table '{}': set 'format' (or "
        "'value.format').",
        context.tableName));
  }
  formats::FormatFactoryRegistry::builtIn().factoryFor(format->identifier);
  if (std::optional<ValueFormat> keyFormat = keyFormatOf(context)) {
    formats::FormatFactoryRegistry::builtIn().factoryFor(keyFormat->identifier);
  }
  if (!context.partitionKeys.empty()) {
    throw ValidationException(fmt::format(
        "Table '{}' is PARTITIONED BY, but the kafka connector writes no partitioned tables.",
        context.tableName));
  }
  DynamicTableFactory::validateOptions(context);  // unsupported keys
  parseKafkaTable(context, upsert_);
}

std::unique_ptr<DynamicTableSource> KafkaTableFactory::createDynamicTableSource(
    const ConnectorContext& context) const {
  ParsedKafkaTable table = parseKafkaTable(context, upsert_);
  const bool committed = table.source.startupMode == KafkaStartupMode::kGroupOffsets ||
                         table.source.boundedMode == KafkaBoundedMode::kGroupOffsets;
  if (committed && !table.source.groupId) {
    // Flink's KafkaSourceBuilder#sanityCheck.
    throw ValidationException(fmt::format(
        "Property group.id is required when using committed offset for offsets initializer "
        "(table '{}': set 'properties.group.id', or a 'scan.startup.mode' other than "
        "'group-offsets')",
        context.tableName));
  }
  const RecordLayout& layout = table.layout;
  table.source.format =
      factoryOf(table.format)
          .createDecodingFormat(formatContextOf(context, table.format, layout.valueRowType));
  table.source.valueRowType = layout.valueRowType;
  if (table.keyFormat) {
    table.source.keyFormat =
        factoryOf(*table.keyFormat)
            .createDecodingFormat(formatContextOf(context, *table.keyFormat, layout.keyRowType));
    table.source.keyRowType = layout.keyRowType;
  }
  return std::make_unique<KafkaTableSource>(std::move(table.source));
}

std::unique_ptr<DynamicTableSink> KafkaTableFactory::createDynamicTableSink(
    const ConnectorContext& context) const {
  ParsedKafkaTable table = parseKafkaTable(context, upsert_);
  if (auto pattern = context.options.find(kTopicPattern); pattern != context.options.end()) {
    throw ValidationException(fmt::format(
        "Flink Kafka sink currently only supports single topic, but got 'topic-pattern': {}.",
        pattern->second));
  }
  if (table.topics.size() != 1) {
    throw ValidationException(fmt::format(
        "Flink Kafka sink currently only supports single topic, but got 'topic': [{}].",
        fmt::join(table.topics, ", ")));
  }
  table.sink.topic = table.topics.front();
  if ((table.sink.bufferFlushMaxRows > 0) != (table.sink.bufferFlushIntervalMillis > 0)) {
    // Flink's SinkBufferFlushMode (checked for sinks only).
    throw ValidationException(fmt::format(
        "'{}' and '{}' must be set to be greater than zero together to enable sink buffer "
        "flushing.",
        kBufferFlushMaxRows, kBufferFlushInterval));
  }
  const RecordLayout& layout = table.layout;
  table.sink.format =
      factoryOf(table.format)
          .createEncodingFormat(formatContextOf(context, table.format, layout.valueRowType));
  table.sink.valueRowType = layout.valueRowType;
  if (table.keyFormat) {
    table.sink.keyFormat =
        factoryOf(*table.keyFormat)
            .createEncodingFormat(formatContextOf(context, *table.keyFormat, layout.keyRowType));
    table.sink.keyRowType = layout.keyRowType;
  }
  return std::make_unique<KafkaTableSink>(std::move(table.sink), table.sinkParallelism);
}

}  // namespace eddy::connectors
