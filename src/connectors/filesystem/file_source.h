// FileSource: the bounded DataStream source behind the filesystem connector (Flink's FileSource
// with a StreamFormat): it reads the records of local files with a format's RowDeserializer and
// emits chunks of the physical row type, all rows +I, up to runtime::kDefaultBatchSize rows per
// chunk and one chunk per poll.
//
// Files: 'path' itself when it is a file; for a directory, every regular file below it,
// recursively, except hidden ones (a file or directory whose name starts with '.' or '_', such as
// a sink's in-progress files and _SUCCESS markers). The list is made once, by the first reader
// created, and sorted by path. Splitting: the files are dealt to the subtasks largest first, each
// to the subtask with the fewest bytes so far (a file is never split); a subtask reads its files
// in path order, each from its first to its last record (a UTF-8 byte order mark is skipped).
//
// Partitions: in a partitioned table each file's partition key values come from its directories
// (`dt=2026-11-30/..`, see partition_path.h) and fill the key columns of its rows; files outside
// a complete partition directory are not read; with partition push-down only the given
// partitions are.
//
// Metadata: with metadata keys the chunks carry, after the columns, the file.path, file.name,
// file.size or file.modification-time of each row's file (Flink's FileSystemTableSource keys).
//
// Errors: a missing path, an unreadable file or a malformed record fails the job with a
// ConnectorException naming the file (malformed records also name the row, the column and the
// value; see formats::RowDeserializer). Rows decoded before a malformed record are emitted
// first, then the next poll fails. Records tolerated by the format's 'ignore-parse-errors' are
// counted over all subtasks (malformedRecordCount, skippedRecordCount).
//
// The FileSource is immutable after the listing and shared by the subtasks; each reader is used
// by its task thread only.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <vector>

#include "eddy/datastream/source.h"
#include "connectors/filesystem/partition_path.h"
#include "formats/format_factory.h"
#include "vector/chunk.h"

namespace eddy::connectors {

/// A file to read, its size in bytes and, in a partitioned table, its partition.
struct SourceFile {
  std::filesystem::path path;
  uintmax_t size = 0;
  PartitionSpec partition;
};

/// What a FileSource reads and what it produces.
struct FileSourceSpec {
  std::string tableName;
  /// A file, or a directory read recursively.
  std::filesystem::path path;
  /// The format of the files' records and the columns of its row type to decode (nullopt:
  /// all, through its full deserializer).
  std::shared_ptr<const formats::DecodingFormat> format;
  std::optional<std::vector<int>> projection;
  /// The row type the format decodes: its row type, or the projected columns.
  LogicalTypePtr decodedRowType;
  /// A partitioned table: its PARTITIONED BY keys (names and types, in order) and the directory
  /// value of NULL; only files under `k1=v1/k2=v2/..` directories are read (partition_path.h).
  std::vector<RowField> partitionKeys;
  std::string defaultPartitionName = kDefaultPartitionName;
  /// The partitions to read (partition push-down); nullopt: all.
  std::optional<std::vector<PartitionSpec>> partitions;
  /// The produced columns (before metadata): for each, a decoded column (>= 0) or partition
  /// key k (-1 - k); empty: the decoded columns as they are.
  std::vector<int> columns;
  /// The produced row type before metadata (decodedRowType when `columns` is empty).
  LogicalTypePtr rowType;
  /// Metadata keys (of fileMetadataTypes) whose values follow the produced columns.
  std::vector<std::string> metadataKeys;
};

/// The metadata a filesystem table can read, Flink's keys and types: file.path (the file's
/// path), file.name (its name), file.size (bytes) and file.modification-time.
std::map<std::string, LogicalTypePtr> fileMetadataTypes();

/// Reads the files of a filesystem table. See the file comment.
class FileSource final : public Source<vector::Chunk> {
 public:
  explicit FileSource(FileSourceSpec spec);

  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }
  /// Lists the files on the first call (throws ConnectorException when the path does not exist
  /// or cannot be listed).
  std::unique_ptr<SourceReader<vector::Chunk>> createReader(int subtaskIndex,
                                                            int parallelism) const override;

  /// The files read, sorted by path (lists them when not listed yet).
  const std::vector<SourceFile>& files() const;
  /// The distinct partitions of the files read, sorted (lists them when not listed yet).
  std::vector<PartitionSpec> partitions() const;
  /// The indices into files() that subtask `subtaskIndex` of `parallelism` reads, in order.
  std::vector<size_t> filesOfSubtask(int subtaskIndex, int parallelism) const;

  /// Malformed records tolerated by '<format>.ignore-parse-errors' in all readers so far:
  /// skipped records plus records whose bad fields were set to null.
  int64_t malformedRecordCount() const { return counters_->malformedRecords.load(); }
  /// The malformed records that were skipped.
  int64_t skippedRecordCount() const { return counters_->skippedRecords.load(); }

  /// Counters shared by the readers of one source.
  struct Counters {
    std::atomic<int64_t> malformedRecords{0};
    std::atomic<int64_t> skippedRecords{0};
  };

 private:
  void listFiles() const;

  FileSourceSpec spec_;
  std::shared_ptr<Counters> counters_;
  mutable std::once_flag listed_;
  mutable std::vector<SourceFile> files_;  // written once under listed_
};

}  // namespace eddy::connectors
