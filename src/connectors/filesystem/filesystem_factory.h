// FileSystemTableFactory: the 'filesystem' connector (Flink's FileSystem SQL connector): a
// table stored as files of records in a local directory, in a format chosen by 'format' (csv,
// json; see src/formats). Options:
//
//   path              required  a file or a directory (a 'file://' URI or a local path); a
//                               source reads the file, or every visible file under the
//                               directory, recursively (names starting with '.' or '_' are
//                               hidden); a sink writes part files into the directory
//   format            required  'csv' or 'json'; the format's own options are prefixed with
//                               its name ('csv.field-delimiter')
//   sink.parallelism  unset     the sink's parallelism (the job's when unset)
//   partition.default-name  __DEFAULT_PARTITION__
//                               the directory value of a NULL or empty partition key
//
// PARTITIONED BY (k1, k2): rows are stored under `k1=v1/k2=v2/` directories and the files hold
// the other columns (partition_path.h); a source reads the keys back from the directories and
// supports partition push-down (only the partitions a query's predicates on the keys allow are
// listed and read).
//
// Flink's other filesystem options (rolling policies, partition commit, compaction, source
// monitoring, ...) are rejected by name as not supported yet (notSupportedYetOptions), as are
// those of the format. The source is bounded; the sink accepts only inserts. The factory is
// stateless; see dynamic_table_factory.h for the threading contract.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "connectors/dynamic_table_factory.h"
#include "connectors/filesystem/file_source.h"
#include "formats/format_factory.h"

namespace eddy::connectors {

/// Everything a filesystem table needs, parsed and validated from its options.
struct FileSystemTableSpec {
  std::string tableName;
  /// The local path of 'path' ('file://' removed).
  std::filesystem::path path;
  /// ROW<...> of the physical columns.
  LogicalTypePtr rowType;
  /// PARTITIONED BY: the partition key columns (indices into rowType, in key order), the other
  /// columns (the ones the files hold, in table order) and their ROW type, and the directory
  /// value of NULL ('partition.default-name'). Not partitioned: no keys, every column a data
  /// column.
  std::vector<int> partitionColumns;
  std::vector<int> dataColumns;
  LogicalTypePtr dataRowType;
  std::string defaultPartitionName;
  /// The format's factory and the context it validated (the table's options and 'csv.'; its
  /// row type is dataRowType).
  const formats::FormatFactory* formatFactory = nullptr;
  formats::FormatContext formatContext;
  std::optional<int> sinkParallelism;
  /// The job's runtime mode (INSERT OVERWRITE is BATCH only).
  bool streaming = true;
};

class FileSystemTableFactory final : public DynamicTableFactory {
 public:
  std::string factoryIdentifier() const override { return "filesystem"; }
  std::set<std::string> requiredOptions() const override { return {"path", "format"}; }
  std::set<std::string> optionalOptions() const override {
    return {"sink.parallelism", "partition.default-name"};
  }
  /// Also the options of the table's format, with its prefix ("csv.field-delimiter").
  std::set<std::string> supportedOptionKeys(const ConnectorContext& context) const override;
  /// In order: required options, the format's identifier, options that are not supported yet,
  /// unsupported keys, then the values (the connector's and the format's).
  void validateOptions(const ConnectorContext& context) const override;
  std::unique_ptr<DynamicTableSource> createDynamicTableSource(
      const ConnectorContext& context) const override;
  std::unique_ptr<DynamicTableSink> createDynamicTableSink(
      const ConnectorContext& context) const override;

  /// Flink's filesystem options that eddy does not support yet.
  static std::set<std::string> notSupportedYetOptions();
};

/// The spec of `context`'s table, all options validated (see validateOptions).
FileSystemTableSpec parseFileSystemTableSpec(const ConnectorContext& context);

/// The source side of a filesystem table: bounded.
class FileSystemTableSource final : public DynamicTableSource {
 public:
  explicit FileSystemTableSource(FileSystemTableSpec spec) : spec_(std::move(spec)) {}
  bool isBounded() const override { return true; }
  /// A FileSource (see file_source.h) reading the table's files.
  std::shared_ptr<Source<vector::Chunk>> createSource() const override;
  /// Top-level columns, when the format can decode just those (csv).
  bool supportsProjection() const override;
  LogicalTypePtr applyProjection(const std::vector<std::vector<int>>& paths) override;
  /// Partitioned tables: the partitions of the files under the table's directory.
  bool supportsPartitionPushDown() const override { return !spec_.partitionColumns.empty(); }
  std::vector<PartitionSpec> listPartitions() const override;
  void applyPartitions(const std::vector<PartitionSpec>& partitions) override;
  /// Flink's keys: file.path, file.name (STRING NOT NULL), file.size (BIGINT NOT NULL),
  /// file.modification-time (TIMESTAMP_LTZ(3) NOT NULL).
  std::map<std::string, LogicalTypePtr> listReadableMetadata() const override;
  void applyReadableMetadata(const std::vector<std::string>& keys) override;
  /// Lookups by key (an eddy extension: Flink's filesystem connector has none): each subtask's
  /// function reads the table's files once, at its first lookup, into memory with a hash index
  /// on the key columns; files changed later are not seen by the running job.
  bool supportsLookup() const override {
    return changelogMode() == SourceChangelogMode::kInsertOnly;
  }
  /// The format's changes (debezium-json, canal-json, maxwell-json: every kind), else +I.
  SourceChangelogMode changelogMode() const override;
  LookupFunctionFactory createLookupFunction(const std::vector<int>& keyColumns) const override;

 private:
  FileSystemTableSpec spec_;
  /// What a FileSource reads: for a scan (`scan`) the projection, partitions and metadata
  /// applied; else every physical column of every partition (listing, lookups).
  FileSourceSpec sourceSpec(bool scan) const;

  std::optional<std::vector<int>> projection_;  // applyProjection's columns
  LogicalTypePtr projectedRowType_;
  std::optional<std::vector<PartitionSpec>> partitions_;  // applyPartitions'
  std::vector<std::string> metadataKeys_;
};

/// The sink side of a filesystem table: insert-only but for a changelog format.
class FileSystemTableSink final : public DynamicTableSink {
 public:
  explicit FileSystemTableSink(FileSystemTableSpec spec) : spec_(std::move(spec)) {}
  /// Operators writing part files; all subtasks of one job share a file name UUID.
  std::shared_ptr<const runtime::OperatorFactory> createSinkOperator() const override;
  std::optional<int> sinkParallelism() const override { return spec_.sinkParallelism; }
  /// A changelog format writes every kind of row (the record says which); others +I only.
  bool acceptsUpdates() const override;
  bool supportsOverwrite() const override { return true; }
  /// BATCH only (Flink: "Streaming mode not support overwrite.").
  void applyOverwrite(bool overwrite) override;
  bool supportsPartitioning() const override { return !spec_.partitionColumns.empty(); }
  void applyStaticPartition(const std::map<std::string, std::string>& partition) override;

 private:
  FileSystemTableSpec spec_;
  bool overwrite_ = false;
  std::map<std::string, std::string> staticPartition_;
};

}  // namespace eddy::connectors
