#include "connectors/filesystem/file_sink.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <system_error>
#include <utility>

#include "connectors/filesystem/part_file.h"
#include "connectors/filesystem/partition_path.h"
#include "eddy/exceptions.h"
#include "eddy/runtime/record_batch.h"
#include "eddy/state/operator_state_store.h"
#include "eddy/types/type_serializer.h"
#include "formats/text_value_codec.h"
#include "vector/chunk.h"

namespace eddy::connectors {

namespace fs = std::filesystem;

namespace {

// Encoded bytes buffered per part file before they are written.
constexpr size_t kWriteBufferSize = 1 << 20;
// Encoded bytes buffered over all part files of a subtask before all are written.
constexpr size_t kTotalBufferSize = 16 << 20;
// Part files kept open between writes; with more partitions each is closed after a write.
constexpr size_t kMaxOpenPartFiles = 64;

constexpr std::string_view kHiddenPartPrefix = ".part-";
constexpr std::string_view kStagingPrefix = ".staging-";
constexpr size_t kUuidLength = 36;
// The first byte of the sink's operator state (docs/state_format.md "Filesystem sink").
constexpr uint8_t kStateVersion = 1;

// The part file UUIDs of the sink jobs and restored subtasks alive in this process: their
// hidden files are never abandoned, however old.
std::mutex& liveUuidMutex() {
  static std::mutex mutex;
  return mutex;
}
std::multiset<std::string>& liveUuids() {
  static std::multiset<std::string> uuids;
  return uuids;
}
void registerLiveUuid(const std::string& uuid) {
  std::lock_guard lock(liveUuidMutex());
  liveUuids().insert(uuid);
}
void unregisterLiveUuid(const std::string& uuid) {
  std::lock_guard lock(liveUuidMutex());
  auto found = liveUuids().find(uuid);
  if (found != liveUuids().end()) liveUuids().erase(found);
}
bool isLiveUuid(const std::string& uuid) {
  std::lock_guard lock(liveUuidMutex());
  return liveUuids().contains(uuid);
}

// The UUID of an in-progress part file's name `.part-<uuid>-<subtask>-<counter>.inprogress`.
std::optional<std::string> uuidOfInProgressFile(std::string_view name) {
  if (!name.starts_with(kHiddenPartPrefix) || !name.ends_with(kInProgressSuffix) ||
      name.size() < kHiddenPartPrefix.size() + kUuidLength + kInProgressSuffix.size()) {
    return std::nullopt;
  }
  return std::string(name.substr(kHiddenPartPrefix.size(), kUuidLength));
}

// How part_file.h's errors name the sink: "table 't'".
std::string ownerOf(const std::string& tableName) { return fmt::format("table '{}'", tableName); }

// An exclusive flock on the table's directory, held while a job commits or cleans up, so that
// commits of one table (two INSERT OVERWRITEs at once) follow one another. Across processes
// and within one (each lock is its own open file description).
class TableCommitLock {
 public:
  TableCommitLock(const fs::path& directory, const std::string& tableName) {
    descriptor_ = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (descriptor_ < 0 || ::flock(descriptor_, LOCK_EX) != 0) {
      std::string message = std::strerror(errno);
      if (descriptor_ >= 0) ::close(descriptor_);
      throw ConnectorException(fmt::format("Failed to lock the directory '{}' of table '{}': {}",
                                           directory.string(), tableName, message));
    }
  }
  ~TableCommitLock() {
    ::flock(descriptor_, LOCK_UN);
    ::close(descriptor_);
  }
  TableCommitLock(const TableCommitLock&) = delete;
  TableCommitLock& operator=(const TableCommitLock&) = delete;

 private:
  int descriptor_ = -1;
};

// Whether a file last modified at `modified` was abandoned by a job that is gone.
bool isAbandoned(fs::file_time_type modified, const FileSinkJob& job) {
  return modified < job.startTime - kAbandonedFileAge;
}

// Removes the hidden files of eddy's naming that other jobs left behind: in-progress part files
// and staging directories (see the file comment of file_sink.h).
void removeAbandonedFiles(const FileSinkSpec& spec) {
  TableCommitLock lock(spec.directory, spec.tableName);
  std::error_code error;
  std::vector<fs::path> abandoned;
  fs::recursive_directory_iterator entries(spec.directory, error);
  for (; !error && entries != fs::recursive_directory_iterator(); entries.increment(error)) {
    const fs::directory_entry& entry = *entries;
    const std::string name = entry.path().filename().string();
    std::error_code ignored;
    if (entry.is_directory(ignored)) {
      if (name.starts_with(kStagingPrefix)) {
        const std::string uuid = name.substr(kStagingPrefix.size());
        if (uuid != spec.fileNameUuid && !isLiveUuid(uuid) &&
            isAbandoned(entry.last_write_time(ignored), *spec.job)) {
          abandoned.push_back(entry.path());
        }
        entries.disable_recursion_pending();
      } else if (name.starts_with('.') ||
                 (name.starts_with('_') && name.find('=') == std::string::npos)) {
        entries.disable_recursion_pending();  // hidden, and not eddy's
      }
      continue;
    }
    std::optional<std::string> uuid = uuidOfInProgressFile(name);
    if (uuid && *uuid != spec.fileNameUuid && !isLiveUuid(*uuid) &&
        isAbandoned(entry.last_write_time(ignored), *spec.job)) {
      abandoned.push_back(entry.path());
    }
  }
  // A table being cleaned is not worth failing a job for: what cannot be removed stays.
  for (const fs::path& path : abandoned) {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
}

// INSERT OVERWRITE: removes the visible files of `directory` that are not of `uuid`'s job.
void removePreviousFiles(const fs::path& directory, const FileSinkSpec& spec) {
  const std::string ownPrefix = "part-" + spec.fileNameUuid + "-";
  std::error_code error;
  std::vector<fs::path> previous;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    std::error_code ignored;
    if (!entry.is_regular_file(ignored) || name.starts_with('.') || name.starts_with(ownPrefix)) {
      continue;
    }
    previous.push_back(entry.path());
  }
  for (const auto& path : previous) {
    if (!fs::remove(path, error) || error) {
      throw ConnectorException(fmt::format(
          "Failed to remove the file '{}' of table '{}' for INSERT OVERWRITE: {}", path.string(),
          spec.tableName, error ? error.message() : "not found"));
    }
  }
}

}  // namespace

// ---- The job ----------------------------------------------------------------------------

FileSinkJob::FileSinkJob(std::string uuid, fs::path stagingDirectory)
    : uuid(std::move(uuid)),
      stagingDirectory(std::move(stagingDirectory)),
      startTime(fs::file_time_type::clock::now()) {
  registerLiveUuid(this->uuid);
}

FileSinkJob::~FileSinkJob() {
  // A BATCH job that failed: nothing of its staging directory will be committed.
  std::error_code ignored;
  if (!committed) fs::remove_all(stagingDirectory, ignored);
  unregisterLiveUuid(uuid);
}

std::unique_ptr<runtime::StreamOperator> FileSinkOperatorFactory::createOperator() const {
  return std::make_unique<FileSinkOperator>(spec_);
}

void FileSinkOperatorFactory::finalizeGlobal(int /*parallelism*/) const {
  commitStagedFiles(*spec_);
}

void commitStagedFiles(const FileSinkSpec& spec) {
  FileSinkJob& job = *spec.job;
  std::lock_guard jobLock(job.mutex);
  if (job.committed) return;
  std::error_code error;
  fs::create_directories(spec.directory, error);
  TableCommitLock lock(spec.directory, spec.tableName);
  std::sort(job.stagedFiles.begin(), job.stagedFiles.end());
  std::set<fs::path> directories;
  for (const auto& [staged, final] : job.stagedFiles) {
    // The file's directory and, for partitions created now, the entries of its parents up to
    // the table's directory must be durable.
    for (fs::path directory = final.parent_path(); directories.insert(directory).second;
         directory = directory.parent_path()) {
      if (directory == spec.directory || !directory.has_relative_path()) break;
    }
    fs::create_directories(final.parent_path(), error);
    renameFile(staged, final, ownerOf(spec.tableName));
  }
  if (spec.overwrite) {
    // The new files are in; the old ones of the replaced directories go.
    if (spec.partitionColumns.empty()) {
      removePreviousFiles(spec.directory, spec);
      directories.insert(spec.directory);
    } else {
      std::set<fs::path> replaced = job.writtenDirectories;
      if (spec.staticPartition) replaced.insert(*spec.staticPartition);
      for (const fs::path& relative : replaced) {
        if (!fs::exists(spec.directory / relative)) continue;
        removePreviousFiles(spec.directory / relative, spec);
        directories.insert(spec.directory / relative);
      }
    }
  }
  for (const fs::path& directory : directories) fsyncPath(directory, ownerOf(spec.tableName));
  job.committed = true;
  fs::remove_all(job.stagingDirectory, error);
}

// ---- The operator -------------------------------------------------------------------------

FileSinkOperator::~FileSinkOperator() {
  for (auto& [relative, part] : parts_) {
    if (part.file != nullptr) std::fclose(std::exchange(part.file, nullptr));
  }
  if (restored_ && !uuid_.empty() && uuid_ != spec_->fileNameUuid) unregisterLiveUuid(uuid_);
}

bool FileSinkOperator::batch() const {
  return context().executionMode == RuntimeExecutionMode::BATCH;
}

void FileSinkOperator::initializeState(runtime::StateInitializationContext& context) {
  uuid_ = spec_->fileNameUuid;
  if (context.operatorContext == nullptr) return;  // a harness without state
  runtime::OperatorContext& operatorContext = *context.operatorContext;
  subtaskIndex_ = operatorContext.subtaskIndex;
  if (operatorContext.executionMode == RuntimeExecutionMode::BATCH) return;
  state_ = operatorContext.operatorStateStore().getUnionListState(
      ListStateDescriptor<std::string>(std::string(kStateName)));
  if (!context.isRestored()) return;
  restored_ = true;
  // Every old subtask's state (union); this subtask takes over those with s % parallelism ==
  // its index (itself at the same parallelism), so each old file is committed or deleted once.
  std::set<int> takenOver;
  bool first = true;
  for (const std::string& element : state_->get()) {
    SubtaskState old = decodeState(element);
    if (!first && old.uuid != uuid_) {
      throw ConnectorException(fmt::format(
          "The restored state of the filesystem sink of table '{}' mixes part files of two jobs "
          "('{}' and '{}').",
          spec_->tableName, uuid_, old.uuid));
    }
    uuid_ = old.uuid;
    first = false;
    if (old.subtask == subtaskIndex_) nextCounter_ = old.nextCounter;
    if (old.subtask % operatorContext.parallelism != subtaskIndex_) continue;
    takenOver.insert(old.subtask);
    for (PendingFile& file : old.pending) pending_.push_back(std::move(file));
  }
  if (first) return;  // no state: the sink is new to the job
  if (uuid_ != spec_->fileNameUuid) registerLiveUuid(uuid_);
  // Everything pending in the snapshot belongs to checkpoints up to the restored one.
  commitPending(std::numeric_limits<int64_t>::max(), /*restoring=*/true);
  removeFilesAfterSnapshot(takenOver);
}

void FileSinkOperator::open(runtime::OperatorContext& context) {
  StreamOperator::open(context);
  subtaskIndex_ = context.subtaskIndex;
  if (uuid_.empty()) uuid_ = spec_->fileNameUuid;  // initializeState was not called
  serializer_ = spec_->format->createSerializer();
  changes_ = spec_->format->consumesChanges();
  std::error_code error;
  fs::create_directories(spec_->directory, error);
  if (fs::exists(spec_->directory) && !fs::is_directory(spec_->directory)) {
    throw ConnectorException(fmt::format(
        "The path '{}' of table '{}' is not a directory; the filesystem sink writes part files "
        "into a directory.",
        spec_->directory.string(), spec_->tableName));
  }
  if (error) {
    throw ConnectorException(fmt::format("Failed to create the directory '{}' of table '{}': {}",
                                         spec_->directory.string(), spec_->tableName,
                                         error.message()));
  }
  // A restored job's files of the job it restores are its own; it leaves others' alone.
  if (!restored_) std::call_once(spec_->job->cleanup, [&] { removeAbandonedFiles(*spec_); });
  for (const std::string& name : spec_->partitionKeyNames) {
    keyPrefixes_.push_back(escapePartitionValue(name) + "=");
  }
}

std::string FileSinkOperator::partFileName(int subtask, int64_t counter) const {
  return connectors::partFileName("part", uuid_, subtask, counter);
}

fs::path FileSinkOperator::finalPathOf(const fs::path& relative, int subtask,
                                       int64_t counter) const {
  return spec_->directory / relative / partFileName(subtask, counter);
}

fs::path FileSinkOperator::inProgressPathOf(const fs::path& relative, int subtask,
                                            int64_t counter) const {
  return spec_->directory / relative / inProgressFileName(partFileName(subtask, counter));
}

FileSinkOperator::PartFile& FileSinkOperator::partFile(const fs::path& relative) {
  auto [entry, added] = parts_.try_emplace(relative);
  PartFile& part = entry->second;
  if (added) {
    // A restored subtask writes with the UUID of the job it restores: counters whose files
    // exist (committed by a later run that was not restored) are skipped, never overwritten.
    std::error_code ignored;
    while (fs::exists(finalPathOf(relative, subtaskIndex_, nextCounter_), ignored) ||
           fs::exists(inProgressPathOf(relative, subtaskIndex_, nextCounter_), ignored)) {
      ++nextCounter_;
    }
    part.relativeDirectory = relative;
    part.counter = nextCounter_++;
    part.finalPath = finalPathOf(relative, subtaskIndex_, part.counter);
    part.writePath = batch() ? spec_->job->stagingDirectory / relative / partFileName(subtaskIndex_, part.counter)
                             : inProgressPathOf(relative, subtaskIndex_, part.counter);
  }
  return part;
}

void FileSinkOperator::processBatch(int, runtime::BatchPtr batch) {
  for (const vector::Chunk& chunk : runtime::typedBatch<vector::Chunk>(*batch).records) {
    const std::vector<RowKind>& kinds = chunk.rowKinds();
    for (int64_t row = 0; !changes_ && row < chunk.size(); ++row) {
      if (kinds[row] != RowKind::INSERT) {
        throw TableException(
            fmt::format("The filesystem sink of table '{}' accepts only INSERT rows; got {}",
                        spec_->tableName, chunk.rowAt(row).toString()));
      }
    }
    if (spec_->partitionColumns.empty()) {
      writeRows(chunk);
    } else {
      writePartitionedRows(chunk);
    }
  }
}

void FileSinkOperator::writeRows(const vector::Chunk& chunk) {
  PartFile& part = previousPart_ ? *previousPart_ : *(previousPart_ = &partFile({}));
  const size_t before = part.buffer.size();
  for (int64_t row = 0; row < chunk.size(); ++row) {
    serializer_->serialize(chunk, row, part.buffer);
    part.buffer.push_back('\n');
  }
  bufferedBytes_ += part.buffer.size() - before;
  if (part.buffer.size() >= kWriteBufferSize) flush(part);
}

void FileSinkOperator::writePartitionedRows(const vector::Chunk& chunk) {
  vector::Chunk data(spec_->dataRowType);
  for (size_t c = 0; c < spec_->dataColumns.size(); ++c) {
    data.mutableColumn(static_cast<int>(c)) = chunk.column(spec_->dataColumns[c]);
  }
  data.mutableRowKinds() = chunk.rowKinds();
  const formats::TextWriteOptions text;
  for (int64_t row = 0; row < chunk.size(); ++row) {
    // The row's directory: `k1=v1/k2=v2`, NULL and blank values as the default partition name.
    directoryText_.clear();
    for (size_t k = 0; k < spec_->partitionColumns.size(); ++k) {
      const vector::Vector& key = chunk.column(spec_->partitionColumns[k]);
      if (k > 0) directoryText_.push_back('/');
      directoryText_ += keyPrefixes_[k];
      std::optional<std::string_view> value;
      if (!key.isNull(row)) {
        valueText_.clear();
        formats::appendValueText(key, row, text, valueText_);
        value = valueText_;
      }
      appendEscapedPartitionValue(partitionValueOrDefault(value, spec_->defaultPartitionName),
                                  directoryText_);
    }
    if (!previousPart_ || directoryText_ != previousDirectory_) {
      previousPart_ = &partFile(fs::path(directoryText_));
      previousDirectory_ = directoryText_;
    }
    const size_t before = previousPart_->buffer.size();
    serializer_->serialize(data, row, previousPart_->buffer);
    previousPart_->buffer.push_back('\n');
    bufferedBytes_ += previousPart_->buffer.size() - before;
    if (previousPart_->buffer.size() >= kWriteBufferSize) flush(*previousPart_);
  }
  // Many partitions: the buffers together stay within kTotalBufferSize.
  if (bufferedBytes_ >= kTotalBufferSize) {
    for (auto& [relative, part] : parts_) flush(part);
  }
}

void FileSinkOperator::flush(PartFile& part) {
  if (part.buffer.empty()) return;
  if (part.file == nullptr) {
    // A file closed to keep few open is reopened to append.
    part.file = openPartFile(part.writePath, /*append=*/part.created, ownerOf(spec_->tableName));
    part.created = true;
  }
  writeToPartFile(part.file, part.buffer, part.writePath, ownerOf(spec_->tableName));
  bufferedBytes_ -= std::min(bufferedBytes_, part.buffer.size());
  part.buffer.clear();
  // Many partitions: their files are closed between writes, so few are open at once.
  if (parts_.size() > kMaxOpenPartFiles) closeFile(part);
}

void FileSinkOperator::closeFile(PartFile& part) {
  closePartFile(std::exchange(part.file, nullptr), part.writePath, ownerOf(spec_->tableName));
}

void FileSinkOperator::closePartFiles(int64_t checkpointId) {
  for (auto& [relative, part] : parts_) {
    flush(part);
    if (!part.created) continue;  // no rows, no file
    if (part.file != nullptr) closeFile(part);
    fsyncPath(part.writePath, ownerOf(spec_->tableName));
    if (batch()) {
      std::lock_guard lock(spec_->job->mutex);
      spec_->job->stagedFiles.emplace_back(part.writePath, part.finalPath);
      spec_->job->writtenDirectories.insert(relative);
    } else {
      pending_.push_back(PendingFile{checkpointId, relative, part.counter, subtaskIndex_});
    }
  }
  parts_.clear();
  previousPart_ = nullptr;
  previousDirectory_.clear();
  bufferedBytes_ = 0;
}

void FileSinkOperator::snapshotState(runtime::StateSnapshotContext& context) {
  if (batch()) return;  // BATCH jobs take no checkpoints; its files wait for the job's end
  closePartFiles(context.checkpointId);
  state_->update({serializeState()});  // the task writes it into the snapshot
}

void FileSinkOperator::notifyCheckpointComplete(int64_t checkpointId) {
  commitPending(checkpointId, /*restoring=*/false);
}

void FileSinkOperator::notifyCheckpointAborted(int64_t /*checkpointId*/) {
  // Its files stay pending: the next checkpoint's snapshot lists them again, and its completion
  // commits them (Flink's FileSink does the same).
}

void FileSinkOperator::commitPending(int64_t checkpointId, bool restoring) {
  std::set<fs::path> directories;
  std::vector<PendingFile> remaining;
  for (const PendingFile& file : pending_) {
    if (file.checkpointId > checkpointId) {
      remaining.push_back(file);
      continue;
    }
    const fs::path inProgress = inProgressPathOf(file.relativeDirectory, file.subtask, file.counter);
    const fs::path final = finalPathOf(file.relativeDirectory, file.subtask, file.counter);
    committed_.push_back(final);
    if (restoring) {
      // Committed before the failure when the notification ran (the checkpoint was not the
      // last): then there is nothing to rename.
      if (commitPartFile(inProgress, final, ownerOf(spec_->tableName)) ==
          PartFileCommit::kAlreadyCommitted) {
        continue;
      }
    } else {
      renameFile(inProgress, final, ownerOf(spec_->tableName));
    }
    directories.insert(final.parent_path());
  }
  pending_ = std::move(remaining);
  for (const fs::path& directory : directories) fsyncPath(directory, ownerOf(spec_->tableName));
}

void FileSinkOperator::removeFilesAfterSnapshot(const std::set<int>& subtasks) {
  // `.part-<uuid>-<subtask>-` files that the snapshot does not know were written after it (its
  // pending files are committed by now).
  std::vector<InProgressPartFiles> series;
  for (int subtask : subtasks) {
    series.push_back(InProgressPartFiles{fmt::format("part-{}-{}-", uuid_, subtask), "", 0});
  }
  removeInProgressPartFiles(spec_->directory, series, /*recursive=*/true,
                            ownerOf(spec_->tableName));
}

void FileSinkOperator::finish() {
  finished_ = true;
  if (!batch()) {
    if (context().checkpointingEnabled) {
      // As Flink's FileSink: the final checkpoint (the task waits for it, see
      // needsFinalCheckpoint) closes these files to pending and its completion commits them.
      for (auto& [relative, part] : parts_) {
        flush(part);
        // Written through to the file (not yet fsynced: the final checkpoint's snapshot does).
        if (part.file != nullptr) {
          flushPartFile(part.file, part.writePath, ownerOf(spec_->tableName));
        }
      }
      return;
    }
    // Without checkpoints, everything at the end.
    closePartFiles(std::numeric_limits<int64_t>::max());
    commitPending(std::numeric_limits<int64_t>::max(), /*restoring=*/false);
    return;
  }
  closePartFiles(0);
  if (kJobCommitsBatchOutput) return;  // FileSinkOperatorFactory::finalizeGlobal commits
  bool last = false;
  {
    std::lock_guard lock(spec_->job->mutex);
    last = ++spec_->job->finishedSubtasks == context().parallelism;
  }
  if (last) commitStagedFiles(*spec_);
}

std::vector<fs::path> FileSinkOperator::partFilePaths() const {
  std::vector<fs::path> paths = committed_;
  std::sort(paths.begin(), paths.end());
  return paths;
}

void FileSinkOperator::close() {
  // A failed or cancelled subtask: its unfinished files go. Pending files stay for the restore
  // of their checkpoint; a finished BATCH subtask's staged files wait for the job's commit.
  for (auto& [relative, part] : parts_) {
    if (part.file != nullptr) std::fclose(std::exchange(part.file, nullptr));
    part.buffer.clear();
    if (!part.created) continue;
    std::error_code ignored;
    fs::remove(part.writePath, ignored);
  }
  parts_.clear();
  previousPart_ = nullptr;
}

// ---- State ----------------------------------------------------------------------------

std::string FileSinkOperator::serializeState() const {
  std::string out;
  out.push_back(static_cast<char>(kStateVersion));
  serialization::writeVarint(uuid_.size(), out);
  out.append(uuid_);
  serialization::writeVarint(static_cast<uint64_t>(subtaskIndex_), out);
  serialization::writeVarint(static_cast<uint64_t>(nextCounter_), out);
  serialization::writeVarint(pending_.size(), out);
  for (const PendingFile& file : pending_) {
    serialization::writeVarint(static_cast<uint64_t>(file.checkpointId), out);
    const std::string directory = file.relativeDirectory.generic_string();
    serialization::writeVarint(directory.size(), out);
    out.append(directory);
    serialization::writeVarint(static_cast<uint64_t>(file.counter), out);
    serialization::writeVarint(static_cast<uint64_t>(file.subtask), out);
  }
  return out;
}

FileSinkOperator::SubtaskState FileSinkOperator::decodeState(std::string_view in) const {
  auto corrupt = [&](const char* what) {
    return InternalError(fmt::format("corrupt filesystem sink state of table '{}': {}",
                                     spec_->tableName, what));
  };
  auto readBytes = [&]() {
    uint64_t size = serialization::readVarint(in);
    if (in.size() < size) throw corrupt("truncated byte string");
    std::string bytes(in.substr(0, size));
    in.remove_prefix(size);
    return bytes;
  };
  if (in.empty()) throw corrupt("empty");
  if (static_cast<uint8_t>(in.front()) != kStateVersion) {
    throw InternalError(fmt::format("unknown filesystem sink state version {} of table '{}'",
                                    static_cast<int>(static_cast<uint8_t>(in.front())),
                                    spec_->tableName));
  }
  in.remove_prefix(1);
  SubtaskState state;
  state.uuid = readBytes();
  state.subtask = static_cast<int>(serialization::readVarint(in));
  state.nextCounter = static_cast<int64_t>(serialization::readVarint(in));
  const uint64_t count = serialization::readVarint(in);
  for (uint64_t i = 0; i < count; ++i) {
    PendingFile file;
    file.checkpointId = static_cast<int64_t>(serialization::readVarint(in));
    file.relativeDirectory = fs::path(readBytes());
    file.counter = static_cast<int64_t>(serialization::readVarint(in));
    file.subtask = static_cast<int>(serialization::readVarint(in));
    state.pending.push_back(std::move(file));
  }
  if (!in.empty()) throw corrupt("trailing bytes");
  return state;
}

}  // namespace eddy::connectors
