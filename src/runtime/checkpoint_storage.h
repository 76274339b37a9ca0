// Checkpoint storage: where a CompletedCheckpoint goes once every task acknowledged it, and
// how a checkpoint or savepoint directory is read back for a restore (Flink's
// CheckpointStorage: FileSystemCheckpointStorage and JobManagerCheckpointStorage).
//
// On disk, Flink's layout: `<state.checkpoints.dir>/<job-id>/chk-<n>/` holds one state file
// per operator subtask that has state and, written last and atomically (a temporary name,
// fsync, rename, fsync of the directory), the `_metadata` file that lists them with their
// sizes and checksums. A directory without `_metadata` is incomplete and never read. The byte
// formats are in docs/state_format.md; every file ends with an XXH3-64 checksum of what
// precedes it, so a truncated or corrupted file is reported by name, never restored from.
//
// Threads: a storage object is used by its checkpoint coordinator's thread only (store,
// discard); readCheckpoint is a free function, any thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "graph/job_graph.h"
#include "runtime/completed_checkpoint.h"

namespace eddy::state {
class FrozenKeyedState;
}

namespace eddy::runtime {

/// The version of the metadata and state file formats this eddy writes and reads.
inline constexpr uint32_t kCheckpointFormatVersion = 1;
/// The name of the file that makes a checkpoint directory complete.
inline constexpr const char* kCheckpointMetadataFileName = "_metadata";

class CheckpointStorage {
 public:
  virtual ~CheckpointStorage() = default;
  /// Makes `checkpoint` durable and returns where it is (the `chk-<n>` directory; empty when
  /// it is kept in memory only). Throws (any exception) when it cannot: the checkpoint then
  /// fails and nothing of it is left behind.
  virtual std::string store(const CompletedCheckpoint& checkpoint) = 0;
  /// Where the tasks write the state files of checkpoint `id` themselves, straight from their
  /// frozen state (writeTaskStateFile), before they acknowledge it; empty: they hand over bytes
  /// and store() writes everything. Any thread.
  virtual std::filesystem::path stateDirectory(int64_t /*id*/) const { return {}; }
  /// Called when checkpoint `id` is triggered, before any task writes into stateDirectory(id):
  /// prepares an empty directory there. Never throws: where it cannot, the tasks' writes fail
  /// and they decline the checkpoint, which then fails as any other.
  virtual void initializeLocation(int64_t /*id*/) noexcept {}
  /// Deletes what store() wrote for checkpoint `id` (an older one beyond num-retained, or
  /// every retained one when the job ends and the retention policy says so). Never throws.
  virtual void discard(int64_t id) = 0;
  /// Called once when the job ended and nothing more is stored: removes what is left empty.
  virtual void close() {}
};

/// Flink's JobManagerCheckpointStorage, for a job that checkpoints without
/// `state.checkpoints.dir`: checkpoints live in the job's memory only (the RunningJob keeps the
/// latest outcomes), so they survive no process exit and cannot be restored from a path.
class JobManagerCheckpointStorage final : public CheckpointStorage {
 public:
  std::string store(const CompletedCheckpoint&) override { return {}; }
  void discard(int64_t) override {}
};

/// Flink's FileSystemCheckpointStorage on a local directory: checkpoint n of the job goes to
/// `<checkpointsDirectory>/<jobId>/chk-<n>/`.
class FileSystemCheckpointStorage final : public CheckpointStorage {
 public:
  FileSystemCheckpointStorage(std::filesystem::path checkpointsDirectory, std::string jobId);

  std::string store(const CompletedCheckpoint& checkpoint) override;
  /// `checkpointDirectory(id)`: the tasks write their state files into `chk-<n>/`.
  std::filesystem::path stateDirectory(int64_t id) const override;
  void initializeLocation(int64_t id) noexcept override;
  void discard(int64_t id) override;
  /// Removes the directories of checkpoints that never completed, and the job's directory
  /// when no checkpoint is left in it.
  void close() override;

  std::filesystem::path jobDirectory() const { return jobDirectory_; }
  std::filesystem::path checkpointDirectory(int64_t id) const;

 private:
  std::filesystem::path jobDirectory_;
};

/// Writes `checkpoint` into `directory` (created; an existing one is replaced unless its
/// tasks wrote their state files into it): the state files the tasks did not write first, each
/// fsynced, then `_metadata` atomically. A state file a task wrote elsewhere is copied in.
/// Throws ConnectorException naming the file that could not be written.
void writeCheckpointDirectory(const CompletedCheckpoint& checkpoint,
                              const std::filesystem::path& directory);

/// Writes the state file of one operator subtask at `path` (docs/state_format.md, "State
/// files"): `operatorState`, then the sections of `keyedState` streamed into the file as they
/// are written, through buffers of one key group, never the whole state in memory; fsynced.
/// Called by a task's asynchronous snapshot writer. Throws ConnectorException naming the file.
OperatorSnapshot::StateFile writeTaskStateFile(
    const std::filesystem::path& path, const std::map<std::string, std::string>& operatorState,
    state::FrozenKeyedState& keyedState);

/// `checkpoint` with the state of every snapshot that is in a state file of its tasks
/// (OperatorSnapshot::stateFile) read into memory, as a restore wants it; `checkpoint` itself
/// when none is. Throws ValidationException naming the file when one is missing, truncated or
/// not the one the task wrote.
std::shared_ptr<const CompletedCheckpoint> withStateInMemory(
    std::shared_ptr<const CompletedCheckpoint> checkpoint);

/// Reads a checkpoint or savepoint back: `path` is its directory or the `_metadata` file in it.
/// Throws ValidationException naming the path or the file when the path does not exist, has
/// no `_metadata`, or a file is truncated, corrupted (checksum mismatch) or of an unknown
/// format version.
std::shared_ptr<const CompletedCheckpoint> readCheckpoint(const std::filesystem::path& path);

/// Before a job starts from `checkpoint` (read from `path`): every operator with state in it
/// must be an operator of `graph` (by uid), else ValidationException with Flink's message
/// naming the operator, unless `allowNonRestoredState`
/// (`execution.state-recovery.ignore-unclaimed-state`), which drops that state.
void checkRestoredStateIsClaimed(const CompletedCheckpoint& checkpoint,
                                 const graph::JobGraph& graph, const std::string& path,
                                 bool allowNonRestoredState);

}  // namespace eddy::runtime
