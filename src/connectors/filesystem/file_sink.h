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
// INSERT OVERWRITE (BATCH): the last subtask to finish removes the directory's visible files
// that are not this job's (FileSinkSpec::Overwrite), so the old data goes only after every new
// part file is complete.
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
#include <memory>
#include <string>

#include "eddy/runtime/stream_operator.h"
#include "formats/format_factory.h"

namespace eddy::connectors {

/// What the sink operators of one job share.
struct FileSinkSpec {
  std::string tableName;
  std::filesystem::path directory;
  std::shared_ptr<const formats::EncodingFormat> format;
  /// The UUID in the names of this job's part files.
  std::string fileNameUuid;
  /// INSERT OVERWRITE (BATCH): shared by the job's subtasks. The last subtask to finish removes
  /// the directory's visible files that are not this job's, so the old data goes only once
  /// every subtask has written its part file; a job that fails keeps the old files.
  struct Overwrite {
    std::atomic<int> finishedSubtasks{0};
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

  /// The final path of this subtask's part file (set by open()).
  const std::filesystem::path& partFilePath() const { return partFilePath_; }

 private:
  void openPartFile();
  /// Closes the in-progress file and renames it to its final name.
  void commitPartFile();
  /// INSERT OVERWRITE: removes the directory's visible files that are not this job's.
  void removePreviousFiles();
  void flush();
  void discardPartFile();

  std::shared_ptr<const FileSinkSpec> spec_;
  std::unique_ptr<formats::RowSerializer> serializer_;
  std::filesystem::path partFilePath_;
  std::filesystem::path inProgressPath_;
  std::FILE* file_ = nullptr;
  std::string buffer_;  // encoded records not yet written
};

}  // namespace eddy::connectors
