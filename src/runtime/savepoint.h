// Savepoints: snapshots a user asks for (JobClient::triggerSavepoint and stopWithSavepoint, the
// SQL client's `STOP JOB '<id>' WITH SAVEPOINT [WITH DRAIN]`), as Flink's.
//
// A savepoint is taken as a checkpoint is: the job's CheckpointCoordinator triggers it through
// the same barriers (SnapshotType::SAVEPOINT in the CheckpointOptions, always ALIGNED, so it is a
// consistent cut also in AT_LEAST_ONCE jobs), once no checkpoint is pending; every STREAMING job
// has a coordinator, also without periodic checkpoints (interval 0), so that it can take one.
// Where it differs from a checkpoint:
//  - it goes to `<directory>/savepoint-<first 6 hex digits of the job id>-<12 random hex
//    digits>/` (Flink's AbstractFsCheckpointStorageAccess naming), as a full, self-contained copy
//    in the checkpoint format (writeCheckpointDirectory: `_metadata` last and atomically), and
//    belongs to the user: neither num-retained nor the retention policy ever deletes it;
//  - as Flink's since 1.15 (FLINK-25191), the tasks get no notifyCheckpointComplete for it, so
//    no sink commits on it (the next checkpoint commits what it holds), and it is no recovery
//    point for a restart, which goes back to the latest checkpoint — except the savepoint of a
//    stop-with-savepoint, whose completion is notified (the job ends on it);
//  - its failure (declined, expired, not writable, the job ended) fails only the request, and is
//    not counted against `execution.checkpointing.tolerable-failed-checkpoints`;
//  - a stop-with-savepoint (SavepointStopMode) ends the job after it completed.
// It is restored as a checkpoint is (`execution.state-recovery.path`, readCheckpoint).
//
// Threads and ownership: a SavepointRequest is created by the requesting thread and shared with
// the coordinator, whose driving thread settles it; the requester waits on its future. A request
// nobody settled (the job ended, the coordinator went away) fails when its last holder drops it,
// so a future never waits for ever.
#pragma once

#include <cstdint>
#include <filesystem>
#include <future>
#include <mutex>
#include <string>

#include "runtime/completed_checkpoint.h"

namespace eddy::runtime {

class JobSupervisor;

/// What the job does once its savepoint completed (Flink's SavepointType: a savepoint, or a
/// synchronous one of stop-with-savepoint).
enum class SavepointStopMode {
  /// The job goes on (triggerSavepoint).
  NONE,
  /// Flink's SUSPEND (`flink stop` without `--drain`): after its snapshot a task emits nothing,
  /// fires no timer and reads no input; once the savepoint completed it ends without finish(),
  /// so no window fires and no end-of-input watermark is emitted (a job restored from the
  /// savepoint fires them). If the savepoint fails, the tasks go on.
  SUSPEND,
  /// Flink's TERMINATE (`--drain`): the sources end their input at the trigger with the
  /// end-of-time watermark, so every event-time timer and window fires and every operator
  /// finishes; each source takes its snapshot after that, and the job ends FINISHED.
  DRAIN,
};

/// Flink's message (SchedulerBase) when neither the call nor the configuration names a
/// directory.
inline constexpr const char* kNoSavepointDirectory =
    "No savepoint directory configured. You can either specify a directory while cancelling via "
    "-s :targetDirectory or configure a cluster-wide default via key "
    "'execution.checkpointing.savepoint-dir'.";

/// Flink's message for a job without a checkpoint coordinator (a BATCH job).
std::string notAStreamingJobMessage(const std::string& jobId);

/// One savepoint asked for, settled once by the coordinator with the savepoint's directory or a
/// failure. Thread-safe.
class SavepointRequest {
 public:
  /// `targetDirectory`: where the savepoint's own directory is created (absolute). `jobId`
  /// names it.
  SavepointRequest(std::filesystem::path targetDirectory, std::string jobId,
                   SavepointStopMode mode);
  /// Fails the future when nobody settled it: "... the job ended before the savepoint completed".
  ~SavepointRequest();
  SavepointRequest(const SavepointRequest&) = delete;
  SavepointRequest& operator=(const SavepointRequest&) = delete;

  /// Once, by the requester.
  std::future<std::string> future() { return promise_.get_future(); }
  const std::filesystem::path& targetDirectory() const { return targetDirectory_; }
  const std::string& jobId() const { return jobId_; }
  SavepointStopMode mode() const { return mode_; }

  /// The savepoint is complete at `path`. Only the first settlement counts.
  void complete(const std::string& path);
  /// The savepoint failed: the future throws JobExecutionException("Failed to take a savepoint
  /// of job <id>: <reason>"), or `error` as it is when given.
  void fail(const std::string& reason);
  void fail(std::exception_ptr error);

 private:
  bool settle();

  const std::filesystem::path targetDirectory_;
  const std::string jobId_;
  const SavepointStopMode mode_;
  std::mutex mutex_;
  bool settled_ = false;
  std::promise<std::string> promise_;
};

/// The failure reasons of the coordinator, in Flink's words (CheckpointFailureReason).
inline constexpr const char* kSavepointDeclined = "Checkpoint was declined.";
inline constexpr const char* kSavepointExpired = "Checkpoint expired before completing.";
inline constexpr const char* kSavepointTasksNotRunning =
    "Not all required tasks are currently running.";
inline constexpr const char* kSavepointJobEnded =
    "The job ended before the savepoint completed.";

/// `directory` (a savepoint directory option's value or the caller's argument: a local path or
/// a `file:` / `file://` URI) as an absolute local path. Throws ValidationException for another
/// scheme, naming `what`.
std::filesystem::path savepointDirectoryPath(const std::string& directory,
                                             const std::string& what);

/// Writes `checkpoint` (a completed savepoint) into a new directory
/// `<request.targetDirectory()>/savepoint-<6 hex of the job id>-<12 random hex>/` and returns its
/// path. Throws ConnectorException naming the directory when it cannot (nothing of it is left).
std::string writeSavepoint(const CompletedCheckpoint& checkpoint, const SavepointRequest& request);

/// Asks `job`'s current attempt for a savepoint into `directory` (empty: none configured):
/// the future gives its path, or throws — ValidationException for a BATCH job ("Job <id> is
/// not a streaming job.") or a missing directory (kNoSavepointDirectory), JobExecutionException
/// when the savepoint failed. Any thread.
std::future<std::string> requestSavepoint(JobSupervisor& job, const std::string& directory,
                                          SavepointStopMode mode);

}  // namespace eddy::runtime
