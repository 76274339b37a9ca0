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
#include "formats/format_factory.h"

namespace eddy::connectors {

/// Everything a filesystem table needs, parsed and validated from its options.
struct FileSystemTableSpec {
  std::string tableName;
  /// The local path of 'path' ('file://' removed).
  std::filesystem::path path;
  /// ROW<...> of the physical columns.
  LogicalTypePtr rowType;
  /// The format's factory and the context it validated (the table's options and 'csv.').
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
  std::set<std::string> optionalOptions() const override { return {"sink.parallelism"}; }
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
  /// Flink's keys: file.path, file.name (STRING NOT NULL), file.size (BIGINT NOT NULL),
  /// file.modification-time (TIMESTAMP_LTZ(3) NOT NULL).
  std::map<std::string, LogicalTypePtr> listReadableMetadata() const override;
  void applyReadableMetadata(const std::vector<std::string>& keys) override;
  /// Lookups by key (an eddy extension: Flink's filesystem connector has none): each subtask's
  /// function reads the table's files once, at its first lookup, into memory with a hash index
  /// on the key columns; files changed later are not seen by the running job.
  bool supportsLookup() const override { return true; }
  LookupFunctionFactory createLookupFunction(const std::vector<int>& keyColumns) const override;

 private:
  FileSystemTableSpec spec_;
  std::optional<std::vector<int>> projection_;  // applyProjection's columns
  LogicalTypePtr projectedRowType_;
  std::vector<std::string> metadataKeys_;
};

/// The sink side of a filesystem table: insert-only.
class FileSystemTableSink final : public DynamicTableSink {
 public:
  explicit FileSystemTableSink(FileSystemTableSpec spec) : spec_(std::move(spec)) {}
  /// Operators writing part files; all subtasks of one job share a file name UUID.
  std::shared_ptr<const runtime::OperatorFactory> createSinkOperator() const override;
  std::optional<int> sinkParallelism() const override { return spec_.sinkParallelism; }
  bool acceptsUpdates() const override { return false; }
  bool supportsOverwrite() const override { return true; }
  /// BATCH only (Flink: "Streaming mode not support overwrite.").
  void applyOverwrite(bool overwrite) override;

 private:
  FileSystemTableSpec spec_;
  bool overwrite_ = false;
};

}  // namespace eddy::connectors
