#include "connectors/filesystem/filesystem_factory.h"

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

#include "common/uuid.h"
#include "connectors/filesystem/file_sink.h"
#include "connectors/filesystem/file_source.h"
#include "connectors/filesystem/partition_path.h"
#include "connectors/table_options.h"
#include "formats/text_value_codec.h"
#include "eddy/detail/datastream/operators.h"
#include "eddy/exceptions.h"
#include "vector/chunk_operations.h"

namespace eddy::connectors {

namespace {

constexpr const char* kFormatOption = "format";

// The columns of `context`'s table that its files hold: all but the partition keys.
LogicalTypePtr dataRowTypeOf(const ConnectorContext& context) {
  std::vector<RowField> fields;
  for (const RowField& field : context.physicalRowType->getFields()) {
    if (std::find(context.partitionKeys.begin(), context.partitionKeys.end(), field.name) ==
        context.partitionKeys.end()) {
      fields.push_back(field);
    }
  }
  return LogicalType::row(std::move(fields), context.physicalRowType->isNullable());
}

formats::FormatContext formatContextOf(const ConnectorContext& context,
                                       const std::string& identifier) {
  return formats::FormatContext{context.tableName, dataRowTypeOf(context), context.options,
                                identifier + "."};
}

// The partition key columns of `context`'s table (indices into its physical row type), checked.
std::vector<int> partitionColumnsOf(const ConnectorContext& context) {
  const std::vector<RowField>& fields = context.physicalRowType->getFields();
  std::vector<int> columns;
  for (const std::string& key : context.partitionKeys) {
    auto found = std::find_if(fields.begin(), fields.end(),
                              [&](const RowField& field) { return field.name == key; });
    if (found == fields.end()) {
      throw ValidationException(fmt::format(
          "Partition column '{}' not defined in the table schema of table '{}'.", key,
          context.tableName));
    }
    if (!formats::isTextScalarType(*found->type)) {
      throw ValidationException(fmt::format(
          "The partition column '{}' of table '{}' has the type {}; the filesystem connector "
          "partitions by columns of scalar types (not ARRAY, MAP, MULTISET, ROW or RAW).",
          key, context.tableName, found->type->asSummaryString()));
    }
    columns.push_back(static_cast<int>(found - fields.begin()));
  }
  if (!columns.empty() && columns.size() == fields.size()) {
    throw ValidationException(fmt::format(
        "Table '{}' has only partition columns; the filesystem connector needs a column that "
        "is stored in its files.",
        context.tableName));
  }
  return columns;
}

// The local path of a 'path' value: 'file:///tmp/x' and '/tmp/x' are both /tmp/x.
std::filesystem::path localPathOf(const ConnectorContext& context, const std::string& path) {
  TableOptions options(context);
  if (path.empty()) options.throwInvalid("path", path, "a file or directory path");
  size_t scheme = path.find("://");
  if (scheme == std::string::npos) return std::filesystem::path(path);
  std::string name = path.substr(0, scheme);
  if (name != "file") {
    throw ValidationException(fmt::format(
        "The file system scheme '{}' of path '{}' (table '{}') is not supported yet; the "
        "filesystem connector reads and writes local paths and file:// URIs.",
        name, path, context.tableName));
  }
  std::string local = path.substr(scheme + 3);
  if (local.empty() || local.front() != '/') {
    options.throwInvalid("path", path, "a file:// URI with an absolute path (file:///tmp/t)");
  }
  return std::filesystem::path(local);
}

}  // namespace

std::set<std::string> FileSystemTableFactory::notSupportedYetOptions() {
  return {"auto-compaction",
          "compaction.file-size",
          "compaction.parallelism",
          "lookup.join.cache.ttl",
          "partition.time-extractor.class",
          "partition.time-extractor.kind",
          "partition.time-extractor.timestamp-formatter",
          "partition.time-extractor.timestamp-pattern",
          "sink.partition-commit.delay",
          "sink.partition-commit.policy.class",
          "sink.partition-commit.policy.class.parameters",
          "sink.partition-commit.policy.kind",
          "sink.partition-commit.success-file.name",
          "sink.partition-commit.trigger",
          "sink.partition-commit.watermark-time-zone",
          "sink.rolling-policy.check-interval",
          "sink.rolling-policy.file-size",
          "sink.rolling-policy.inactivity-interval",
          "sink.rolling-policy.rollover-interval",
          "sink.shuffle-by-partition.enable",
          "source.monitor-interval",
          "source.path.regex-pattern",
          "source.report-statistics",
          "streaming-source.consume-start-offset",
          "streaming-source.enable",
          "streaming-source.monitor-interval",
          "streaming-source.partition-order",
          "streaming-source.partition.include"};
}

std::set<std::string> FileSystemTableFactory::supportedOptionKeys(
    const ConnectorContext& context) const {
  std::set<std::string> keys = DynamicTableFactory::supportedOptionKeys(context);
  auto format = context.options.find(kFormatOption);
  if (format != context.options.end()) {
    const formats::FormatFactory& factory =
        formats::FormatFactoryRegistry::builtIn().factoryFor(format->second);
    std::set<std::string> formatKeys =
        factory.supportedOptionKeys(formatContextOf(context, format->second));
    keys.insert(formatKeys.begin(), formatKeys.end());
  }
  return keys;
}

void FileSystemTableFactory::validateOptions(const ConnectorContext& context) const {
  for (const std::string& required : requiredOptions()) {
    // Flink's "One or more required options are missing." (and nothing else yet).
    if (context.options.count(required) == 0) DynamicTableFactory::validateOptions(context);
  }
  const std::string& identifier = context.options.at(kFormatOption);
  const formats::FormatFactory& format =
      formats::FormatFactoryRegistry::builtIn().factoryFor(identifier);
  std::vector<std::string> notSupported;
  for (const std::string& option : notSupportedYetOptions()) {
    if (context.options.count(option) > 0) notSupported.push_back(option);
  }
  if (!notSupported.empty()) {
    throwNotSupportedYet(notSupported, context.tableName, "the filesystem connector");
  }
  partitionColumnsOf(context);
  formats::FormatContext formatContext = formatContextOf(context, identifier);
  notSupported = format.notSupportedYetKeysIn(formatContext);
  if (!notSupported.empty()) {
    throwNotSupportedYet(notSupported, context.tableName, fmt::format("the {} format", identifier));
  }
  DynamicTableFactory::validateOptions(context);  // unsupported keys
  parseFileSystemTableSpec(context);
}

FileSystemTableSpec parseFileSystemTableSpec(const ConnectorContext& context) {
  TableOptions options(context);
  FileSystemTableSpec spec;
  spec.tableName = context.tableName;
  spec.rowType = context.physicalRowType;
  spec.path = localPathOf(context, *options.getString("path"));
  std::optional<int64_t> parallelism =
      options.getLong("sink.parallelism", 1, std::numeric_limits<int32_t>::max());
  if (parallelism) spec.sinkParallelism = static_cast<int>(*parallelism);
  spec.streaming = context.streaming;
  spec.partitionColumns = partitionColumnsOf(context);
  for (int c = 0; c < spec.rowType->getFieldCount(); ++c) {
    if (std::find(spec.partitionColumns.begin(), spec.partitionColumns.end(), c) ==
        spec.partitionColumns.end()) {
      spec.dataColumns.push_back(c);
    }
  }
  spec.dataRowType = dataRowTypeOf(context);
  spec.defaultPartitionName =
      options.getString("partition.default-name").value_or(kDefaultPartitionName);
  if (spec.defaultPartitionName.empty()) {
    options.throwInvalid("partition.default-name", "", "a non-empty directory name");
  }
  const std::string& identifier = *options.getString(kFormatOption);
  spec.formatFactory = &formats::FormatFactoryRegistry::builtIn().factoryFor(identifier);
  spec.formatContext = formatContextOf(context, identifier);
  spec.formatFactory->validate(spec.formatContext);
  return spec;
}

std::unique_ptr<DynamicTableSource> FileSystemTableFactory::createDynamicTableSource(
    const ConnectorContext& context) const {
  return std::make_unique<FileSystemTableSource>(parseFileSystemTableSpec(context));
}

std::unique_ptr<DynamicTableSink> FileSystemTableFactory::createDynamicTableSink(
    const ConnectorContext& context) const {
  return std::make_unique<FileSystemTableSink>(parseFileSystemTableSpec(context));
}

namespace {
// 0, 1, .., count - 1.
std::vector<int> firstColumns(size_t count) {
  std::vector<int> columns(count);
  std::iota(columns.begin(), columns.end(), 0);
  return columns;
}
}  // namespace

FileSourceSpec FileSystemTableSource::sourceSpec(bool scan) const {
  const std::vector<int> columns =
      scan && projection_ ? *projection_ : firstColumns(spec_.rowType->getFields().size());
  FileSourceSpec source;
  source.tableName = spec_.tableName;
  source.path = spec_.path;
  source.format = spec_.formatFactory->createDecodingFormat(spec_.formatContext);
  source.rowType = scan && projection_ ? projectedRowType_ : spec_.rowType;
  source.defaultPartitionName = spec_.defaultPartitionName;
  if (scan) {
    source.partitions = partitions_;
    source.metadataKeys = metadataKeys_;
  }
  const std::vector<RowField>& physical = spec_.rowType->getFields();
  for (int key : spec_.partitionColumns) source.partitionKeys.push_back(physical[static_cast<size_t>(key)]);
  // Each column: a data column the format decodes, or a partition key.
  std::vector<int> decoded;  // indices into the data columns
  std::vector<RowField> decodedFields;
  for (int column : columns) {
    auto key = std::find(spec_.partitionColumns.begin(), spec_.partitionColumns.end(), column);
    if (key != spec_.partitionColumns.end()) {
      source.columns.push_back(-1 - static_cast<int>(key - spec_.partitionColumns.begin()));
      continue;
    }
    auto data = std::find(spec_.dataColumns.begin(), spec_.dataColumns.end(), column);
    source.columns.push_back(static_cast<int>(decoded.size()));
    decoded.push_back(static_cast<int>(data - spec_.dataColumns.begin()));
    decodedFields.push_back(physical[static_cast<size_t>(column)]);
  }
  if (decoded != firstColumns(spec_.dataColumns.size())) source.projection = decoded;
  source.decodedRowType = source.projection ? LogicalType::row(std::move(decodedFields), false)
                                            : spec_.dataRowType;
  if (source.columns == firstColumns(columns.size())) source.columns.clear();  // as decoded
  return source;
}

SourceChangelogMode FileSystemTableSource::changelogMode() const {
  return spec_.formatFactory->createDecodingFormat(spec_.formatContext)->producesChanges()
             ? SourceChangelogMode::kAll
             : SourceChangelogMode::kInsertOnly;
}

bool FileSystemTableSink::acceptsUpdates() const {
  return spec_.formatFactory->createEncodingFormat(spec_.formatContext)->consumesChanges();
}

std::shared_ptr<Source<vector::Chunk>> FileSystemTableSource::createSource() const {
  return std::make_shared<FileSource>(sourceSpec(true));
}

std::vector<PartitionSpec> FileSystemTableSource::listPartitions() const {
  return FileSource(sourceSpec(false)).partitions();
}

void FileSystemTableSource::applyPartitions(const std::vector<PartitionSpec>& partitions) {
  partitions_ = partitions;
}

namespace {

/// The rows of a filesystem table in memory, indexed by the key bytes of `keyColumns`.
class FileLookupFunction final : public LookupFunction {
 public:
  FileLookupFunction(std::shared_ptr<const FileSource> source, std::vector<int> keyColumns)
      : source_(std::move(source)),
        keyColumns_(std::move(keyColumns)),
        keyChunkColumns_(keyColumns_.size()) {
    std::iota(keyChunkColumns_.begin(), keyChunkColumns_.end(), 0);
  }

  void lookup(const vector::Chunk& keys, vector::Chunk& matches,
              std::vector<int32_t>& keyRows) override {
    if (!loaded_) load();
    for (int64_t row = 0; row < keys.size(); ++row) {
      keyBytes_.clear();
      vector::appendKeyBytes(keys, keyChunkColumns_, row, keyBytes_);
      auto found = index_.find(keyBytes_);
      if (found == index_.end()) continue;
      for (const auto& [chunk, tableRow] : found->second) {
        const vector::Chunk& table = chunks_[static_cast<size_t>(chunk)];
        for (int column = 0; column < matches.columnCount(); ++column) {
          matches.mutableColumn(column).appendFrom(table.column(column), tableRow);
        }
        matches.mutableRowKinds().push_back(RowKind::INSERT);
        keyRows.push_back(static_cast<int32_t>(row));
      }
    }
  }

 private:
  void load() {
    try {
      loadRows();
    } catch (...) {
      chunks_.clear();  // a later lookup starts over
      index_.clear();
      throw;
    }
    loaded_ = true;
  }

  void loadRows() {
    auto reader = source_->createReader(0, 1);
    eddy::operators::BatchReaderOutput<vector::Chunk> output;
    for (InputStatus status = InputStatus::MORE_AVAILABLE; status != InputStatus::END_OF_INPUT;) {
      status = reader->pollNext(output);
      auto batch = output.take();
      for (vector::Chunk& chunk : batch->records) chunks_.push_back(std::move(chunk));
    }
    for (size_t c = 0; c < chunks_.size(); ++c) {
      for (int64_t row = 0; row < chunks_[c].size(); ++row) {
        // A row with a NULL key column matches no key (keys are never NULL).
        bool nullKey = std::any_of(keyColumns_.begin(), keyColumns_.end(), [&](int column) {
          return chunks_[c].column(column).isNull(row);
        });
        if (nullKey) continue;
        keyBytes_.clear();
        vector::appendKeyBytes(chunks_[c], keyColumns_, row, keyBytes_);
        index_[keyBytes_].emplace_back(static_cast<int32_t>(c), static_cast<int32_t>(row));
      }
    }
  }

  std::shared_ptr<const FileSource> source_;
  std::vector<int> keyColumns_;       // in the table's rows
  std::vector<int> keyChunkColumns_;  // in the key chunks: 0, 1, ...
  bool loaded_ = false;
  std::vector<vector::Chunk> chunks_;
  absl::flat_hash_map<std::string, std::vector<std::pair<int32_t, int32_t>>> index_;
  std::string keyBytes_;
};

}  // namespace

LookupFunctionFactory FileSystemTableSource::createLookupFunction(
    const std::vector<int>& keyColumns) const {
  // Every physical column and partition, whatever a scan of this source was given.
  auto source = std::make_shared<const FileSource>(sourceSpec(false));
  return [source, keyColumns]() -> std::unique_ptr<LookupFunction> {
    return std::make_unique<FileLookupFunction>(source, keyColumns);
  };
}

std::map<std::string, LogicalTypePtr> FileSystemTableSource::listReadableMetadata() const {
  return fileMetadataTypes();
}

void FileSystemTableSource::applyReadableMetadata(const std::vector<std::string>& keys) {
  const auto readable = fileMetadataTypes();
  for (const std::string& key : keys) {
    if (!readable.count(key)) throw InternalError("unknown filesystem metadata key " + key);
  }
  metadataKeys_ = keys;
}

bool FileSystemTableSource::supportsProjection() const {
  return spec_.formatFactory->createDecodingFormat(spec_.formatContext)->supportsProjection();
}

LogicalTypePtr FileSystemTableSource::applyProjection(const std::vector<std::vector<int>>& paths) {
  if (!supportsProjection()) {
    throw InternalError("This table source does not support projection push-down.");
  }
  const std::vector<RowField>& physical = spec_.rowType->getFields();
  std::vector<int> columns;
  std::vector<RowField> fields;
  std::map<std::string, int> repeats;
  for (const std::vector<int>& path : paths) {
    if (path.size() != 1 || path[0] < 0 || path[0] >= static_cast<int>(physical.size())) {
      throw InternalError(fmt::format("Invalid projection path [{}] for a filesystem table of {}.",
                                      fmt::join(path, ", "), spec_.rowType->asSummaryString()));
    }
    const RowField& column = physical[static_cast<size_t>(path[0])];
    const int seen = repeats[column.name]++;
    fields.push_back(RowField{seen == 0 ? column.name : column.name + "$" + std::to_string(seen),
                              column.type, column.description});
    columns.push_back(path[0]);
  }
  projection_ = std::move(columns);
  projectedRowType_ = LogicalType::row(std::move(fields));
  return projectedRowType_;
}

void FileSystemTableSink::applyOverwrite(bool overwrite) {
  if (overwrite && spec_.streaming) {
    throw ValidationException("Streaming mode not support overwrite.");
  }
  overwrite_ = overwrite;
}

void FileSystemTableSink::applyStaticPartition(
    const std::map<std::string, std::string>& partition) {
  staticPartition_ = partition;
}

std::shared_ptr<const runtime::OperatorFactory> FileSystemTableSink::createSinkOperator() const {
  auto sinkSpec = std::make_shared<FileSinkSpec>();
  sinkSpec->tableName = spec_.tableName;
  sinkSpec->directory = spec_.path;
  sinkSpec->format = spec_.formatFactory->createEncodingFormat(spec_.formatContext);
  sinkSpec->fileNameUuid = common::randomUuid();
  sinkSpec->overwrite = overwrite_;
  sinkSpec->job = std::make_shared<FileSinkJob>(
      sinkSpec->fileNameUuid, spec_.path / (".staging-" + sinkSpec->fileNameUuid));
  sinkSpec->partitionColumns = spec_.partitionColumns;
  sinkSpec->dataColumns = spec_.dataColumns;
  sinkSpec->dataRowType = spec_.dataRowType;
  sinkSpec->defaultPartitionName = spec_.defaultPartitionName;
  PartitionSpec staticSpec;
  for (int key : spec_.partitionColumns) {
    const std::string& name = spec_.rowType->getFields()[static_cast<size_t>(key)].name;
    sinkSpec->partitionKeyNames.push_back(name);
    auto value = staticPartition_.find(name);
    if (value != staticPartition_.end()) staticSpec.emplace_back(value->second);
  }
  if (!spec_.partitionColumns.empty() && staticSpec.size() == spec_.partitionColumns.size()) {
    sinkSpec->staticPartition = partitionDirectory(sinkSpec->partitionKeyNames, staticSpec,
                                                   spec_.defaultPartitionName);
  }
  return std::make_shared<FileSinkOperatorFactory>(std::move(sinkSpec));
}

}  // namespace eddy::connectors
