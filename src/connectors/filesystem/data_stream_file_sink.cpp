// The library's part of the DataStream FileSink (include/eddy/connector/file_sink.h): the
// bytes-level bucket of a writer and the committer, on the part file steps of part_file.h that
// the SQL filesystem sink shares.
#include <fmt/format.h>

#include <set>
#include <system_error>
#include <utility>

#include "common/uuid.h"
#include "connectors/filesystem/part_file.h"
#include "eddy/connector/file_sink.h"

namespace eddy {

namespace fs = std::filesystem;
using connectors::fsyncPath;
using connectors::inProgressFileName;
using connectors::openPartFile;
using connectors::partFileName;

FileWriterBucket::FileWriterBucket(fs::path basePath, OutputFileConfig config, int subtaskIndex,
                                   std::string owner)
    : directory_(std::move(basePath)),
      config_(std::move(config)),
      subtaskIndex_(subtaskIndex),
      owner_(std::move(owner)),
      uuid_(common::randomUuid()) {
  std::error_code error;
  fs::create_directories(directory_, error);
  std::error_code ignored;
  if (fs::exists(directory_, ignored) && !fs::is_directory(directory_, ignored)) {
    throw ConnectorException(
        fmt::format("The path '{}' of {} is not a directory; the FileSink writes part files into a "
                    "directory.",
                    directory_.string(), owner_));
  }
  if (error) {
    throw ConnectorException(fmt::format("Failed to create the directory '{}' of {}: {}",
                                         directory_.string(), owner_, error.message()));
  }
  buffer_.reserve(kWriteBufferSize);
}

FileWriterBucket::~FileWriterBucket() {
  if (file_ != nullptr) std::fclose(std::exchange(file_, nullptr));
}

void FileWriterBucket::restore(const std::vector<FileWriterBucketState>& states) {
  std::vector<connectors::InProgressPartFiles> later;
  bool continued = false;
  for (const FileWriterBucketState& state : states) {
    later.push_back(connectors::InProgressPartFiles{
        fmt::format("{}-{}-{}-", state.partPrefix, state.uuid, state.subtask), state.partSuffix,
        state.nextCounter});
    // The names of this subtask's index go on; another index's are no writer's any more (the
    // subtask that has that index now has a state of its own, or a new UUID).
    if (!continued && state.subtask == subtaskIndex_ &&
        state.partPrefix == config_.getPartPrefix() &&
        state.partSuffix == config_.getPartSuffix()) {
      uuid_ = state.uuid;
      nextCounter_ = state.nextCounter;
      continued = true;
    }
  }
  connectors::removeInProgressPartFiles(directory_, later, /*recursive=*/false, owner_);
}

int64_t FileWriterBucket::nextFreeCounter() {
  // A restored writer continues an older UUID: a counter whose part file a later run that was
  // not restored committed is skipped, never overwritten.
  std::error_code ignored;
  while (fs::exists(directory_ / partFileName(config_.getPartPrefix(), uuid_, subtaskIndex_,
                                              nextCounter_, config_.getPartSuffix()),
                    ignored)) {
    ++nextCounter_;
  }
  return nextCounter_++;
}

void FileWriterBucket::writeBuffer() {
  if (buffer_.empty()) return;
  if (file_ == nullptr) {
    const int64_t counter = nextFreeCounter();
    partFileName_ = partFileName(config_.getPartPrefix(), uuid_, subtaskIndex_, counter,
                                 config_.getPartSuffix());
    inProgressFileName_ = inProgressFileName(partFileName_);
    inProgressPath_ = directory_ / inProgressFileName_;
    file_ = openPartFile(inProgressPath_, /*append=*/false, owner_);
  }
  connectors::writeToPartFile(file_, buffer_, inProgressPath_, owner_);
  buffer_.clear();
}

void FileWriterBucket::flush() {
  writeBuffer();
  if (file_ != nullptr) connectors::flushPartFile(file_, inProgressPath_, owner_);
}

std::optional<FileSinkCommittable> FileWriterBucket::closePartFile() {
  writeBuffer();
  if (file_ == nullptr) return std::nullopt;  // nothing written since the last one
  connectors::closePartFile(std::exchange(file_, nullptr), inProgressPath_, owner_);
  fsyncPath(inProgressPath_, owner_);
  return FileSinkCommittable{"", std::exchange(inProgressFileName_, {}),
                             std::exchange(partFileName_, {})};
}

FileWriterBucketState FileWriterBucket::snapshotState() const {
  return FileWriterBucketState{
      "", uuid_, subtaskIndex_, nextCounter_, config_.getPartPrefix(), config_.getPartSuffix()};
}

void FileWriterBucket::discardInProgressFile() {
  buffer_.clear();
  if (file_ == nullptr) return;
  std::fclose(std::exchange(file_, nullptr));
  std::error_code ignored;
  fs::remove(inProgressPath_, ignored);
}

void FileCommitter::commit(std::vector<connector::CommitRequest<FileSinkCommittable>>& requests) {
  std::set<fs::path> directories;
  for (connector::CommitRequest<FileSinkCommittable>& request : requests) {
    const FileSinkCommittable& committable = request.getCommittable();
    const fs::path directory = basePath_ / committable.bucketId;
    if (connectors::commitPartFile(directory / committable.inProgressFile,
                                   directory / committable.partFile,
                                   owner_) == connectors::PartFileCommit::kAlreadyCommitted) {
      request.signalAlreadyCommitted();
      continue;
    }
    directories.insert(directory);
  }
  for (const fs::path& directory : directories) fsyncPath(directory, owner_);
}

}  // namespace eddy
