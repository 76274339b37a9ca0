// High availability for one process (Flink's HighAvailabilityServices and its
// CompletedCheckpointStore, reduced to what a single eddy process under a
// supervisor needs). With `high-availability.type` ZOOKEEPER or KUBERNETES, a checkpointed
// STREAMING job keeps its recovery metadata under `<high-availability.storageDir>/<cluster id>/`,
// so that the same command started again — by Kubernetes restarting the pod, by systemd, by
// hand — resumes from the job's latest completed checkpoint without anyone naming a path.
//
// eddy talks to neither ZooKeeper nor the Kubernetes API. There is no election: the process is
// the leader of its cluster id for its lifetime, and a second process started with the same
// cluster id while the first lives is refused by an exclusive flock(2) on
// `<cluster dir>/.lock` (ClusterLock). The kernel releases a killed process's lock, so the
// restart after a kill -9 proceeds.
//
// What is kept, per job (JobRecoveryRecord, docs/state_format.md "High-availability job
// record"): a small text file `<cluster dir>/<job name>.job` naming the job id to reuse and the
// completed checkpoints the job keeps (num-retained of them, oldest first, the latest last).
// It is replaced atomically (temporary file, fsync, rename, fsync of the directory) each time
// the checkpoint coordinator has stored a checkpoint, before the job is told to complete it
// (notifyCheckpointComplete commits the sinks' files) and before older checkpoints are
// discarded: so it never names a checkpoint that is gone, and never one older than what the
// sinks committed. A job is identified by its name (the SQL client's `insert-into_<sinks>`,
// the name given to execute()) and, for several jobs of one name running at once in one
// process, their order of start; see HighAvailabilityJob::open.
//
// Lifetime of the record: written when the job starts (with the job id, before its first
// checkpoint); kept when the job fails or the process dies; removed when the job FINISHES or is
// CANCELED (Flink cleans its HA data when a job reaches a globally terminal state; unlike Flink,
// eddy also keeps it after FAILED, so that a supervisor's restart of the process resumes).
//
// Threads: open() and jobStarting() run on the thread that starts the job; the coordinator's
// hook runs on its driving thread; jobEnded on the job supervisor's thread. A job's object
// serializes them with its own lock. The process-wide registry (locks, running job names) is
// guarded by a lock of its own.
#pragma once

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

#include "eddy/datastream/job_status.h"
#include "runtime/checkpoint_coordinator.h"
#include "runtime/completed_checkpoint.h"
#include "runtime/job_supervisor.h"

namespace eddy::runtime {

/// `high-availability.type` (older name `high-availability`), as eddy runs it.
enum class HighAvailabilityMode {
  /// Nothing is kept; a new process starts its jobs afresh (or from
  /// `execution.state-recovery.path`).
  NONE,
  /// Flink's ZooKeeper HA: in eddy, one process keeps the data in the storage directory.
  ZOOKEEPER,
  /// Flink's Kubernetes HA (also its factory class
  /// `org.apache.flink.kubernetes.highavailability.KubernetesHaServicesFactory`): in eddy, one
  /// process keeps the data in the storage directory; the cluster id is
  /// `kubernetes.cluster-id`.
  KUBERNETES,
};

/// The mode the options select. Values are case-insensitive: NONE (and Flink's older
/// `standalone`), ZOOKEEPER, KUBERNETES, or Kubernetes' factory class. Throws
/// ValidationException naming the option for any other value (another factory class: eddy
/// cannot load Flink's Java classes).
HighAvailabilityMode highAvailabilityModeOf(
    const std::map<std::string, std::string>& configuration);

/// The options of a cluster whose mode is not NONE, resolved.
struct HighAvailabilitySettings {
  HighAvailabilityMode mode = HighAvailabilityMode::NONE;
  /// `high-availability.storageDir` as a local path (a `file://` URI's path).
  std::filesystem::path storageDirectory;
  /// KUBERNETES: `kubernetes.cluster-id`, else `high-availability.cluster-id`; ZOOKEEPER:
  /// `high-availability.cluster-id`; unset, Flink's default `/default`. Without leading and
  /// trailing '/'.
  std::string clusterId;
  /// The key the cluster id came from (for messages).
  std::string clusterIdKey;
  /// `<storageDirectory>/<clusterId>`.
  std::filesystem::path clusterDirectory() const { return storageDirectory / clusterId; }
};

/// Reads the settings; nothing when the mode is NONE. Throws ValidationException naming the
/// option: an invalid type, no `high-availability.storageDir`, a storage directory on another
/// file system than the local one (`s3://`, `hdfs://`, ...), a cluster id that cannot be a
/// directory name.
std::optional<HighAvailabilitySettings> readHighAvailabilitySettings(
    const std::map<std::string, std::string>& configuration);

/// An exclusive flock(2) on `<cluster directory>/.lock` (created, with the directory), held
/// until destruction. The lock belongs to the open file description: a second ClusterLock on
/// the same file, in this process or another, is refused while this one lives; a process that
/// dies releases it. The holder writes its process id into the file, so the refusal can say who
/// holds it.
class ClusterLock {
 public:
  /// Throws ValidationException naming the cluster id and the lock file when another holder
  /// has it, ConnectorException when the directory or file cannot be made.
  ClusterLock(const std::filesystem::path& clusterDirectory, const std::string& clusterId,
              const std::string& clusterIdKey);
  ~ClusterLock();
  ClusterLock(const ClusterLock&) = delete;
  ClusterLock& operator=(const ClusterLock&) = delete;

  const std::filesystem::path& lockFile() const { return lockFile_; }

 private:
  std::filesystem::path lockFile_;
  int descriptor_ = -1;
};

/// The name of the lock file in a cluster directory.
inline constexpr const char* kClusterLockFileName = ".lock";

/// What HA keeps of one job (the `.job` file; format in docs/state_format.md).
struct JobRecoveryRecord {
  /// The job's name, as given (informative: the file name identifies the job).
  std::string jobName;
  /// The job id a new process reuses, so that its checkpoints stay in
  /// `<state.checkpoints.dir>/<job id>/` and num-retained counts over processes.
  std::string jobId;
  /// The completed checkpoints the job keeps, (id, directory), oldest first; the last is the
  /// latest completed one, which a new process restores. Empty: none completed yet.
  std::vector<std::pair<int64_t, std::string>> checkpoints;
};

/// The record's bytes (text lines, ending with a checksum line).
std::string encodeJobRecoveryRecord(const JobRecoveryRecord& record);
/// Parses what encodeJobRecoveryRecord wrote. Throws ValidationException naming `file` when the
/// bytes are truncated, corrupted (checksum mismatch), of another format version or malformed.
JobRecoveryRecord decodeJobRecoveryRecord(std::string_view bytes, const std::string& file);
/// Replaces `file` with the record atomically: a temporary file next to it, fsynced, renamed
/// over it, then the directory fsynced. Throws ConnectorException naming the file.
void writeJobRecoveryRecord(const std::filesystem::path& file, const JobRecoveryRecord& record);
/// The record in `file`; nothing when the file does not exist. Throws ValidationException
/// naming the file when it cannot be read or decoded.
std::optional<JobRecoveryRecord> readJobRecoveryRecord(const std::filesystem::path& file);

/// One job's high availability, from its start to its end (see the file comment).
class HighAvailabilityJob : public std::enable_shared_from_this<HighAvailabilityJob> {
  struct ConstructionKey {};

 public:
  /// For a checkpointed STREAMING job named `jobName` that is about to start with
  /// `configuration`: null when `high-availability.type` is NONE. Otherwise takes this
  /// process's lock of the cluster (held until the process exits; every later job of the
  /// cluster in this process shares it) and reads the job's record, if there is one.
  ///
  /// The job's record file is `<cluster dir>/<name>.job` (the name with characters other than
  /// letters, digits, '.', '_' and '-' written as %XX; a long name shortened with a hash). When
  /// a job of the same name already runs under HA in this process, the new one is the second
  /// (`<name>~2.job`), and so on: the lowest number no running job of that name has, so a
  /// program that starts the same jobs in the same order finds each one's record again.
  ///
  /// Throws ValidationException: invalid options (readHighAvailabilitySettings), the lock held
  /// by another process, a record that cannot be read (naming its file).
  static std::shared_ptr<HighAvailabilityJob> open(
      const std::map<std::string, std::string>& configuration, const std::string& jobName);
  /// Use open().
  HighAvailabilityJob(ConstructionKey, HighAvailabilitySettings settings, std::string jobName,
                      std::string nameKey, int ordinal, std::filesystem::path recordFile);
  /// Frees the job's name for the next job of that name (if jobEnded did not).
  ~HighAvailabilityJob();
  HighAvailabilityJob(const HighAvailabilityJob&) = delete;
  HighAvailabilityJob& operator=(const HighAvailabilityJob&) = delete;

  const HighAvailabilitySettings& settings() const { return settings_; }
  const std::filesystem::path& recordFile() const { return recordFile_; }
  /// The record found at open(); nothing for a job HA has not seen before.
  const std::optional<JobRecoveryRecord>& recovered() const { return recovered_; }
  /// The job id to reuse: the recovered record's; empty for a new job (the job draws one).
  std::string recoveredJobId() const { return recovered_ ? recovered_->jobId : std::string(); }
  /// Where the latest checkpoint of the recovered record is; empty when there is none.
  std::string latestCheckpointLocation() const;
  /// The latest completed checkpoint of the recovered record, read from its directory; null
  /// when there is none (a new job, or one that completed no checkpoint: it starts as it
  /// would without HA). Throws ValidationException naming the record file and the checkpoint
  /// file that is missing, truncated or corrupted: a job with a record never starts from
  /// scratch silently.
  std::shared_ptr<const CompletedCheckpoint> readLatestCheckpoint() const;
  /// Where checkpoints go when `state.checkpoints.dir` is not set: `<cluster dir>/checkpoints`
  /// (Flink's HA keeps completed checkpoints in its storage directory too).
  std::filesystem::path defaultCheckpointsDirectory() const;

  /// Sets up the job's checkpointing for HA: the recovered checkpoints to adopt (num-retained
  /// counts over processes), the coordinator hook that records every change, the job-end hook,
  /// and the retention: NO_EXTERNALIZED_CHECKPOINTS keeps the checkpoints when the job fails
  /// (as DELETE_ON_CANCELLATION), since the record that names them stays.
  void configure(JobCheckpointing& checkpointing);
  /// The job is about to start with id `jobId`, its checkpoints under
  /// `<checkpointsDirectory>/<jobId>/`: removes the `chk-<n>` directories there that the
  /// recovered record does not list (a killed process's checkpoint that it did not record, or
  /// did not finish discarding), then writes the record. Throws ConnectorException when the
  /// record cannot be written.
  void jobStarting(const std::string& jobId, const std::filesystem::path& checkpointsDirectory);
  /// The coordinator's hook (CheckpointCoordinator::setRetainedCheckpointsHook): records
  /// `retained` as the job's checkpoints. Throws ConnectorException when it cannot.
  void recordCheckpoints(const CheckpointCoordinator::RetainedCheckpoints& retained);
  /// The job ended for good with `status`: FINISHED and CANCELED remove the record; FAILED keeps
  /// it. Frees the job's name. Never throws.
  void jobEnded(JobStatus status);

 private:
  void releaseName() noexcept;

  const HighAvailabilitySettings settings_;
  const std::string jobName_;
  const std::string nameKey_;  // the process registry's key of the name in its cluster
  const int ordinal_;  // 1 for the first running job of the name, 2 for the second, ...
  const std::filesystem::path recordFile_;
  std::optional<JobRecoveryRecord> recovered_;

  std::mutex mutex_;
  JobRecoveryRecord current_;  // what the record file says now
  bool nameReleased_ = false;  // guarded by the process registry's lock, not mutex_
};

}  // namespace eddy::runtime
