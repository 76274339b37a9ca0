// FileSinkOperator: the sink operator of the filesystem connector, exactly-once as Flink's
// FileSink (FileSystemTableSink without rolling policies): each subtask writes the rows it
// receives, one record per line in the table's format, into part files of the table's directory
// (or of its partitions' directories), named as Flink names them:
//
//   part-<uuid>-<subtaskIndex>-<counter>
//
// The UUID is made once per job (per createSinkOperator; a restored job keeps the UUID of the
// job it restores), the counter counts the subtask's part files from 0. A file becomes visible
// under that name only once it is committed, by one rename; until then it is hidden from readers
// (names starting with '.', which eddy's FileSource and Flink's skip). When it is committed
// depends on the runtime mode:
//
// STREAMING: rows go to the in-progress file `.part-<uuid>-<subtaskIndex>-<counter>.inprogress`
// next to its final name. snapshotState(n) closes every in-progress file (written, fsynced): it
// is now *pending for checkpoint n*, and the list of pending files goes into the snapshot (the
// operator state `kStateName`, docs/state_format.md "Filesystem sink"); the next row starts a new
// file with the next counter. notifyCheckpointComplete(n) renames every file pending for a
// checkpoint <= n to its final name and fsyncs its directory; an aborted checkpoint leaves its
// files pending until the next completion. A restore (initializeState with a snapshot) commits
// the snapshot's pending files (an already renamed one is fine) and deletes this subtask's
// in-progress files of the same UUID that the snapshot does not know (written after it), so the
// visible output is exactly what the restored checkpoint covers. What is written after the last
// checkpoint is committed at the final checkpoint, as Flink's: after finish() the task stays
// until a checkpoint taken after it has completed (needsFinalCheckpoint), whose snapshot closes
// the files to pending and whose completion commits them; a job killed before that restores
// from an earlier checkpoint and writes those rows again, once. Without checkpoints, finish()
// commits everything.
//
// BATCH: rows go to the job's hidden staging directory, `<path>/.staging-<uuid>/` (the
// partition directories below it), in files with their final names. Nothing is visible until
// the whole job has succeeded: then the staged files are renamed into the table in one commit
// (FileSinkOperatorFactory::finalizeGlobal, Flink's FileSystemOutputFormat#finalizeGlobal).
// INSERT OVERWRITE removes, in the same commit after the new files are in, the visible files of
// the replaced directories that are not this job's: all of an unpartitioned table, the
// partitions the job wrote rows into (Flink's dynamic overwrite), and the static partition of
// `INSERT OVERWRITE t PARTITION (..)` naming every key, even without rows. Commits of one table
// hold an exclusive flock on its directory, so two overwrites at once end with one job's output.
// Until the runtime calls finalizeGlobal when a job has succeeded (kJobCommitsBatchOutput), the
// last sink subtask to finish commits: a job killed before that leaves nothing visible.
//
// Cleanup: the first subtask of a job that is not restored removes, before it writes, the hidden
// files of eddy's naming that other jobs left behind (in-progress part files, staging
// directories) when they were last modified more than kAbandonedFileAge before this job started
// and no job of this process writes with their UUID; see docs/connectors.md.
//
// A partitioned table (PARTITIONED BY): each row goes to a part file of its partition's
// directory (`dt=2026-11-30/hm=10%3A00/part-<uuid>-<subtaskIndex>-0`, see partition_path.h),
// without its partition key columns; a subtask writes one file per partition it receives rows
// of, and commits them as above, per file. The buffers of a subtask's part files hold at most
// 16 MiB together, and with more than 64 partitions a part file is closed between writes
// (reopened to append), so many partitions need neither much memory nor many open files.
//
// The sink is insert-only: a row of any other kind fails the job with TableException "The
// filesystem sink of table 't' accepts only INSERT rows; got -U[Alice, 12]". I/O errors fail it
// with ConnectorException naming the file.
//
// The part-file steps (names, writes, fsync, the committing rename, the removal of files written
// after a restored checkpoint) are part_file.h's, shared with the DataStream FileSink
// (include/eddy/connector/file_sink.h), which runs on the Sink V2 operator instead of this one.
//
// One operator instance per subtask, called from its task thread only; the FileSinkSpec is
// shared and immutable except for its FileSinkJob, which the subtasks of one job share under its
// mutex.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "eddy/state/state.h"
#include "formats/format_factory.h"
#include "runtime/finalize_on_master.h"

namespace eddy::connectors {

/// Whether the runtime calls FileSinkOperatorFactory::finalizeGlobal once a job has succeeded.
/// Until it does, the last BATCH sink subtask to finish commits the job's staged files.
inline constexpr bool kJobCommitsBatchOutput = true;

/// Hidden files of eddy's naming left by another job are removed when they were last modified
/// this long before the job that finds them started (see the file comment).
inline constexpr std::chrono::hours kAbandonedFileAge{1};

/// What the sink subtasks of one job share while it runs (mutable, under `mutex`).
struct FileSinkJob {
  /// `uuid`: the job's part file UUID, registered as live in this process while this lives.
  FileSinkJob(std::string uuid, std::filesystem::path stagingDirectory);
  /// Removes the staging directory of a BATCH job that never committed (it failed).
  ~FileSinkJob();
  FileSinkJob(const FileSinkJob&) = delete;
  FileSinkJob& operator=(const FileSinkJob&) = delete;

  const std::string uuid;
  /// BATCH: `<path>/.staging-<uuid>`, where the subtasks write.
  const std::filesystem::path stagingDirectory;
  /// When the job was planned; hidden files modified long before are abandoned.
  const std::filesystem::file_time_type startTime;

  std::mutex mutex;
  std::once_flag cleanup;
  /// BATCH: the staged files (staging path, final path) and the table's relative directories
  /// they go to, the subtasks that finished, whether the commit ran.
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> stagedFiles;
  std::set<std::filesystem::path> writtenDirectories;
  int finishedSubtasks = 0;
  bool committed = false;
};

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
  /// INSERT OVERWRITE (BATCH): the commit replaces the previous files.
  bool overwrite = false;
  /// Shared by the job's subtasks; never null.
  std::shared_ptr<FileSinkJob> job;
};

/// The sink's definition: makes a FileSinkOperator per subtask, and commits a BATCH job's
/// output once the job has succeeded.
class FileSinkOperatorFactory final : public runtime::OperatorFactory,
                                      public runtime::FinalizeOnMaster {
 public:
  explicit FileSinkOperatorFactory(std::shared_ptr<const FileSinkSpec> spec)
      : spec_(std::move(spec)) {}
  std::unique_ptr<runtime::StreamOperator> createOperator() const override;
  /// BATCH: every task of the job finished successfully; renames the staged files into the
  /// table (and, for INSERT OVERWRITE, removes the previous ones) in one commit. Called once,
  /// from any thread, after every subtask's close(); idempotent. Nothing to do in STREAMING.
  void finalizeGlobal(int parallelism) const override;
  const FileSinkSpec& spec() const { return *spec_; }

 private:
  std::shared_ptr<const FileSinkSpec> spec_;
};

class FileSinkOperator final : public runtime::StreamOperator {
 public:
  /// The name of the sink's union list state (one element per subtask that wrote it).
  static constexpr std::string_view kStateName = "filesystem-sink";

  explicit FileSinkOperator(std::shared_ptr<const FileSinkSpec> spec) : spec_(std::move(spec)) {}
  /// Closes open files; removes nothing (a crash runs no close()).
  ~FileSinkOperator() override;

  /// A restore: commits the pending files of the old subtasks it takes over and deletes their
  /// in-progress files written after the snapshot; the subtask continues with the snapshot's
  /// UUID. At another parallelism, new subtask i takes over every old subtask s with
  /// s % parallelism == i (its state is union list state, so every new subtask sees all).
  void initializeState(runtime::StateInitializationContext& context) override;
  /// Creates the directory (and its parents) when missing; the job's first subtask removes
  /// abandoned files of other jobs (not after a restore).
  void open(runtime::OperatorContext& context) override;
  void processBatch(int inputIndex, runtime::BatchPtr batch) override;
  /// STREAMING: closes the in-progress files, now pending for this checkpoint, and writes the
  /// pending files into the snapshot.
  void snapshotState(runtime::StateSnapshotContext& context) override;
  /// STREAMING: commits the files pending for checkpoints <= checkpointId.
  void notifyCheckpointComplete(int64_t checkpointId) override;
  /// The files stay pending until a later checkpoint completes.
  void notifyCheckpointAborted(int64_t checkpointId) override;
  /// STREAMING with checkpoints: what was written after the last checkpoint is committed by
  /// the final checkpoint (finish() leaves it in progress).
  bool needsFinalCheckpoint() const override { return !batch() && context().checkpointingEnabled; }
  /// STREAMING: without checkpoints, commits everything written; with them, flushes (the
  /// final checkpoint commits). BATCH: closes the staged files; the job commits them
  /// (FileSinkOperatorFactory::finalizeGlobal).
  void finish() override;
  /// Removes the files that no checkpoint and no commit will need: in-progress files not yet
  /// pending, staged files of an unfinished BATCH subtask.
  void close() override;

  /// The final paths of the part files this subtask committed, sorted.
  std::vector<std::filesystem::path> partFilePaths() const;

 private:
  /// One part file being written: into the table's directory or a partition's.
  struct PartFile {
    std::filesystem::path relativeDirectory;  // to the table's directory
    int64_t counter = 0;
    std::filesystem::path finalPath;
    std::filesystem::path writePath;  // in-progress (STREAMING) or staged (BATCH)
    std::FILE* file = nullptr;
    std::string buffer;    // encoded records not yet written
    bool created = false;  // the file exists (it may be closed between writes)
  };
  /// A closed in-progress file that the next completed checkpoint (>= checkpointId) commits.
  struct PendingFile {
    int64_t checkpointId = 0;
    std::filesystem::path relativeDirectory;
    int64_t counter = 0;
    int subtask = 0;  // the subtask whose name it has (another one's, taken over on a restore)
  };
  /// What one subtask's snapshot holds (one element of the union list state).
  struct SubtaskState {
    std::string uuid;
    int subtask = 0;
    int64_t nextCounter = 0;
    std::vector<PendingFile> pending;
  };

  bool batch() const;
  /// The part file of the directory `relative` (to the table's), made on first use.
  PartFile& partFile(const std::filesystem::path& relative);
  std::string partFileName(int subtask, int64_t counter) const;
  std::filesystem::path finalPathOf(const std::filesystem::path& relative, int subtask,
                                    int64_t counter) const;
  std::filesystem::path inProgressPathOf(const std::filesystem::path& relative, int subtask,
                                         int64_t counter) const;
  void writeRows(const vector::Chunk& chunk);
  void writePartitionedRows(const vector::Chunk& chunk);
  void flush(PartFile& part);
  void closeFile(PartFile& part);
  /// Writes what is buffered, closes and fsyncs every part file and forgets them; STREAMING:
  /// they become pending for `checkpointId`.
  void closePartFiles(int64_t checkpointId);
  /// Renames the pending files of checkpoints <= checkpointId (all when restoring: a file
  /// already renamed is fine), then fsyncs their directories.
  void commitPending(int64_t checkpointId, bool restoring);
  /// Restore: deletes the in-progress files of `uuid_` written by `subtasks` that are not
  /// pending in the snapshot (written after it).
  void removeFilesAfterSnapshot(const std::set<int>& subtasks);
  std::string serializeState() const;
  SubtaskState decodeState(std::string_view bytes) const;

  std::shared_ptr<const FileSinkSpec> spec_;
  std::unique_ptr<formats::RowSerializer> serializer_;
  bool changes_ = false;  // the format writes rows of every kind (debezium-json, ..)
  int subtaskIndex_ = 0;
  bool restored_ = false;
  bool finished_ = false;
  std::string uuid_;  // the spec's, or the restored snapshot's
  ListState<std::string>* state_ = nullptr;  // STREAMING: the union list state kStateName
  int64_t nextCounter_ = 0;
  std::map<std::filesystem::path, PartFile> parts_;  // by relative directory
  std::vector<PendingFile> pending_;                 // in checkpoint order
  std::vector<std::filesystem::path> committed_;     // final paths
  size_t bufferedBytes_ = 0;                         // in all parts' buffers
  // Partitioned writes: the data columns of the current chunk, a row's directory.
  std::string directoryText_;
  std::string valueText_;
  std::vector<std::string> keyPrefixes_;  // `k=` of each partition key, escaped
  std::string previousDirectory_;         // of previousPart_
  PartFile* previousPart_ = nullptr;
};

/// BATCH: renames `spec`'s staged files into the table and, for an overwrite, removes the
/// previous files, under the table's commit lock (once; later calls do nothing).
void commitStagedFiles(const FileSinkSpec& spec);

}  // namespace eddy::connectors
