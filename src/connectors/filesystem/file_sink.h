// FileSinkOperator: the sink operator of the filesystem connector (Flink's FileSystemTableSink
// without partitions and rolling): each subtask writes the rows it receives, one record per line
// in the table's format, into one part file of the table's directory, named as Flink names them:
//
//   part-<uuid>-<subtaskIndex>-<counter>      (counter 0: one file per subtask and job)
//
// The UUID is made once per job (per createSinkOperator), so the files of one INSERT share it and
// a later INSERT adds new files next to them. While the job runs the rows go to the hidden file
// `.part-<uuid>-<subtaskIndex>-<counter>.inprogress` (which readers skip); finish() renames it
// to its final name, so a file becomes visible only complete. A subtask that receives no rows
// writes no file. A job that fails or is cancelled removes its in-progress file in close().
//
// A partitioned table (PARTITIONED BY): each row goes to the part file of its partition's
// directory (`dt=2026-11-30/hm=10%3A00/part-<uuid>-<subtaskIndex>-0`, see partition_path.h),
// without its partition key columns; a subtask writes one file per partition it receives rows
// of. The buffers of a subtask's part files hold at most 16 MiB together, and with more than 64
// partitions a part file is closed between writes (reopened to append), so many partitions
// need neither much memory nor many open files.
//
// INSERT OVERWRITE (BATCH): the last subtask to finish removes the directory's visible files
// that are not this job's (FileSinkSpec::Overwrite), so the old data goes only after every new
// part file is complete. In a partitioned table only the partitions the job wrote are replaced
// (Flink's dynamic overwrite), and the static partition of `INSERT OVERWRITE t PARTITION (..)`
// naming every key, even when the query has no rows for it.
//
// The sink is insert-only: a row of any other kind fails the job with TableException "The
// filesystem sink of table 't' accepts only INSERT rows; got -U[Alice, 12]". I/O errors fail it
// with ConnectorException naming the file.
//
// One operator instance per subtask, called from its task thread only; the FileSinkSpec is
// shared and immutable.
#pragma once

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "eddy/runtime/stream_operator.h"
#include "formats/format_factory.h"

namespace eddy::connectors {

/// What the sink operators of one job share.
struct FileSinkSpec {
  std::string tableName;
  std::filesystem::path directory;
  /// Encodes the data columns (all columns of an unpartitioned table).
  std::shared_ptr<const formats::EncodingFormat> format;
  /// PARTITIONED BY: the key columns of the sink's rows (in key order) with their names, the
  /// other (data) columns and their ROW type, the directory value of NULL. Empty: unpartitioned.
  std::vector<int> partitionColumns;
  std::vector<std::string> partitionKeyNames;
  std::vector<int> dataColumns;
  LogicalTypePtr dataRowType;
  std::string defaultPartitionName;
  /// The directory (relative) of a static partition naming every key, which INSERT OVERWRITE
  /// replaces even without rows.
  std::optional<std::filesystem::path> staticPartition;
  /// The UUID in the names of this job's part files.
  std::string fileNameUuid;
  /// INSERT OVERWRITE (BATCH): shared by the job's subtasks. The last subtask to finish removes
  /// the directory's visible files that are not this job's, so the old data goes only once
  /// every subtask has written its part file; a job that fails keeps the old files.
  struct Overwrite {
    std::atomic<int> finishedSubtasks{0};
    std::mutex mutex;
    /// The directories the subtasks wrote part files into (under mutex).
    std::set<std::filesystem::path> writtenDirectories;
  };
  std::shared_ptr<Overwrite> overwrite;  // null: INSERT INTO adds files
};

class FileSinkOperator final : public runtime::StreamOperator {
 public:
  explicit FileSinkOperator(std::shared_ptr<const FileSinkSpec> spec) : spec_(std::move(spec)) {}
  ~FileSinkOperator() override;

  /// Creates the directory (and its parents) when missing.
  void open(runtime::OperatorContext& context) override;
  void processBatch(int inputIndex, runtime::BatchPtr batch) override;
  /// Writes what is buffered and renames the in-progress file to its final name; with
  /// INSERT OVERWRITE the last subtask then removes the table's previous files.
  void finish() override;
  /// Removes the in-progress file of an unfinished job.
  void close() override;

  /// The final paths of this subtask's part files, sorted (after finish()).
  std::vector<std::filesystem::path> partFilePaths() const;

 private:
  /// One part file being written: into the table's directory or a partition's.
  struct PartFile {
    std::filesystem::path directory;
    std::filesystem::path finalPath;
    std::filesystem::path inProgressPath;
    std::FILE* file = nullptr;
    std::string buffer;  // encoded records not yet written
    bool created = false;    // the in-progress file exists (it may be closed between writes)
    bool committed = false;
  };

  /// The part file of the directory `relative` (to the table's), made on first use.
  PartFile& partFile(const std::filesystem::path& relative);
  void writeRows(const vector::Chunk& chunk);
  void writePartitionedRows(const vector::Chunk& chunk);
  void flush(PartFile& part);
  void closeFile(PartFile& part);
  /// Closes the in-progress file and renames it to its final name.
  void commit(PartFile& part);
  /// INSERT OVERWRITE: removes the visible files of `directory` that are not this job's.
  void removePreviousFiles(const std::filesystem::path& directory);
  void discardPartFiles();

  std::shared_ptr<const FileSinkSpec> spec_;
  std::unique_ptr<formats::RowSerializer> serializer_;
  std::string partName_;  // part-<uuid>-<subtask>-0
  std::map<std::filesystem::path, PartFile> parts_;  // by relative directory
  size_t bufferedBytes_ = 0;                        // in all parts' buffers
  // Partitioned writes: the data columns of the current chunk, a row's directory.
  std::string directoryText_;
  std::string valueText_;
  std::vector<std::string> keyPrefixes_;  // `k=` of each partition key, escaped
  std::string previousDirectory_;         // of previousPart_
  PartFile* previousPart_ = nullptr;
};

}  // namespace eddy::connectors
