// FileSource: the bounded DataStream source behind the filesystem connector (Flink's FileSource
// with a StreamFormat): it reads the records of local files with a format's RowDeserializer and
// emits chunks of the physical row type, all rows +I, up to runtime::kDefaultBatchSize rows per
// chunk and one chunk per poll.
//
// Files: 'path' itself when it is a file; for a directory, every regular file below it,
// recursively, except hidden ones (a file or directory whose name starts with '.' or '_', such as
// a sink's in-progress files and _SUCCESS markers). The list is made once, when the first reader
// registers with the split enumerator, and sorted by path. Splitting: the files are dealt to the
// subtasks largest first, each to the subtask with the fewest bytes so far (a file is never
// split); a subtask reads its files in path order, each from its first to its last record (a
// UTF-8 byte order mark is skipped), filling its chunks across file ends.
//
// Replayable: a connector::Source (eddy/connector/source.h) whose splits are files
// (FileSourceSplit, Flink's FileSourceSplit): the path, the partition, the file's size and
// modification time when it was listed, and the position, the byte offset of the next record
// to read (and the line it starts on, for messages). A reader reads from a byte offset by
// seeking there, so a restored split continues with its next record: no record is read twice
// or skipped, also at another parallelism (the readers' splits are even-split list state, dealt
// out to the new readers). The split enumerator lists the files when the first reader registers
// and assigns every reader its files at once, as planned above (statically rather than on split
// requests, so that a reader fills its chunks across file ends and which subtask reads which
// file does not depend on timing: fresh starts read exactly as before); its state is the splits
// not assigned yet (of readers that had not registered), dealt out round robin on a restore,
// and whether the files were listed at all. The files are not monitored for new ones
// ('source.monitor-interval' is not supported), so the state holds no discovered paths. A
// restored split that was read partly must find its file as it was listed: a file that is gone
// fails the job with "... the file no longer exists (FileNotFound)", one whose size or
// modification time differs with "... the file changed ...", both naming the file.
//
// Partitions: in a partitioned table each file's partition key values come from its directories
// (`dt=2026-11-30/..`, see partition_path.h) and fill the key columns of its rows; files outside
// a complete partition directory are not read; with partition push-down only the given
// partitions are.
//
// Metadata: with metadata keys the chunks carry, after the columns, the file.path, file.name,
// file.size or file.modification-time of each row's file (Flink's FileSystemTableSource keys),
// as listed.
//
// Errors: a missing path, an unreadable file or a malformed record fails the job with a
// ConnectorException naming the file (malformed records also name the row, the column and the
// value; see formats::RowDeserializer). Rows decoded before a malformed record are emitted
// first, then the next poll fails; the split's position stays at the malformed record, so a
// job restored from a checkpoint in between fails on it again. Records tolerated by the
// format's 'ignore-parse-errors' are counted over all subtasks (malformedRecordCount,
// skippedRecordCount), in memory: a restored job counts from zero.
//
// The FileSource is immutable after the listing and shared by the subtasks; each reader is used
// by its task thread only, the enumerator as connector::SplitEnumerator says.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "connectors/filesystem/partition_path.h"
#include "eddy/connector/source.h"
#include "formats/format_factory.h"
#include "vector/chunk.h"

namespace eddy::connectors {

/// A file to read, its size in bytes and, in a partitioned table, its partition, and when it
/// was last modified, in nanoseconds since the Unix epoch (0 when that could not be read).
struct SourceFile {
  std::filesystem::path path;
  uintmax_t size = 0;
  PartitionSpec partition;
  int64_t modificationTimeNanos = 0;
};

/// A split of a FileSource (Flink's FileSourceSplit): one file, read from the record at byte
/// `offset` on.
struct FileSourceSplit {
  /// The file's index in the listing of the run that made the split.
  std::string id;
  std::string path;
  /// The byte offset of the next record to read, and the line it starts on (1-based).
  int64_t offset = 0;
  int64_t line = 1;
  /// The file as listed: its size in bytes and modification time (SourceFile's).
  int64_t fileSize = 0;
  int64_t modificationTimeNanos = 0;
  PartitionSpec partition;
  std::string splitId() const { return id; }
  friend bool operator==(const FileSourceSplit&, const FileSourceSplit&) = default;
};

/// Version 1: `id:bytes path:bytes offset:i64 line:i64 fileSize:i64 modificationTimeNanos:i64
/// partitionCount:varint value{partitionCount}`, each `value` `0:varint` (NULL) or `1:varint
/// text:bytes`.
class FileSourceSplitSerializer final
    : public connector::SimpleVersionedSerializer<FileSourceSplit> {
 public:
  static constexpr int kVersion = 1;
  int getVersion() const override { return kVersion; }
  std::string serialize(const FileSourceSplit& split) const override;
  FileSourceSplit deserialize(int version, std::string_view serialized) const override;
};

/// The state of a FileSource's split enumerator (Flink's PendingSplitsCheckpoint, without the
/// paths of continuous discovery).
struct FileSourceEnumeratorState {
  /// Whether the files were listed; until then nothing was assigned, and a restored enumerator
  /// lists them itself.
  bool listed = false;
  /// The splits not assigned yet.
  std::vector<FileSourceSplit> unassigned;
  friend bool operator==(const FileSourceEnumeratorState&,
                         const FileSourceEnumeratorState&) = default;
};

/// Version 1: `listed:varint (0 or 1) count:varint split:bytes{count}`, each split in its
/// serializer's versioned bytes (connector::writeVersionAndSerialize); no split unless listed.
class FileSourceEnumeratorStateSerializer final
    : public connector::SimpleVersionedSerializer<FileSourceEnumeratorState> {
 public:
  static constexpr int kVersion = 1;
  explicit FileSourceEnumeratorStateSerializer(
      std::shared_ptr<const FileSourceSplitSerializer> splitSerializer)
      : splitSerializer_(std::move(splitSerializer)) {}
  int getVersion() const override { return kVersion; }
  std::string serialize(const FileSourceEnumeratorState& state) const override;
  FileSourceEnumeratorState deserialize(int version, std::string_view serialized) const override;

 private:
  std::shared_ptr<const FileSourceSplitSerializer> splitSerializer_;
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
class FileSource final
    : public connector::Source<vector::Chunk, FileSourceSplit, FileSourceEnumeratorState> {
 public:
  explicit FileSource(FileSourceSpec spec);

  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }
  /// Also the legacy createReader(subtaskIndex, parallelism): a fresh start's reader of that
  /// subtask's files (it lists the files on the first call, and throws ConnectorException when
  /// the path does not exist or cannot be listed).
  using connector::Source<vector::Chunk, FileSourceSplit, FileSourceEnumeratorState>::createReader;
  std::unique_ptr<connector::SourceReader<vector::Chunk, FileSourceSplit>> createReader(
      connector::SourceReaderContext& context) const override;
  /// Lists the files when the first reader registers (throws ConnectorException then when the
  /// path does not exist or cannot be listed).
  std::unique_ptr<connector::SplitEnumerator<FileSourceSplit, FileSourceEnumeratorState>>
  createEnumerator(connector::SplitEnumeratorContext<FileSourceSplit>& context) const override;
  std::unique_ptr<connector::SplitEnumerator<FileSourceSplit, FileSourceEnumeratorState>>
  restoreEnumerator(connector::SplitEnumeratorContext<FileSourceSplit>& context,
                    FileSourceEnumeratorState checkpoint) const override;
  const connector::SimpleVersionedSerializer<FileSourceSplit>& getSplitSerializer() const override {
    return *splitSerializer_;
  }
  const connector::SimpleVersionedSerializer<FileSourceEnumeratorState>&
  getEnumeratorCheckpointSerializer() const override {
    return stateSerializer_;
  }

  /// The files read, sorted by path (lists them when not listed yet).
  const std::vector<SourceFile>& files() const;
  /// The distinct partitions of the files read, sorted (lists them when not listed yet).
  std::vector<PartitionSpec> partitions() const;
  /// The indices into files() that subtask `subtaskIndex` of `parallelism` reads, in order.
  std::vector<size_t> filesOfSubtask(int subtaskIndex, int parallelism) const;
  /// The splits of a fresh start at `parallelism`, per subtask: filesOfSubtask's files, each
  /// from its start.
  std::vector<std::vector<FileSourceSplit>> planSplits(int parallelism) const;

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
  /// filesOfSubtask for every subtask of `parallelism`.
  std::vector<std::vector<size_t>> assignFiles(int parallelism) const;

  FileSourceSpec spec_;
  std::shared_ptr<Counters> counters_;
  mutable std::once_flag listed_;
  mutable std::vector<SourceFile> files_;  // written once under listed_
  std::shared_ptr<const FileSourceSplitSerializer> splitSerializer_ =
      std::make_shared<FileSourceSplitSerializer>();
  FileSourceEnumeratorStateSerializer stateSerializer_{splitSerializer_};
};

}  // namespace eddy::connectors
