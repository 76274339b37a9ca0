// Savepoint requests, their directories and how a job is asked for one (savepoint.h).
#include "runtime/savepoint.h"

#include <fmt/format.h>

#include <random>
#include <string_view>
#include <system_error>
#include <utility>

#include "eddy/exceptions.h"
#include "runtime/checkpoint_coordinator.h"
#include "runtime/checkpoint_storage.h"
#include "runtime/job_supervisor.h"
#include "runtime/running_job.h"

namespace eddy::runtime {

namespace fs = std::filesystem;

namespace {

// Flink's FileUtils.getRandomFilename: 12 random hex digits after the prefix.
std::string randomSavepointName(const std::string& jobId) {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  return fmt::format("savepoint-{}-{:012x}", jobId.substr(0, 6),
                     random() & 0xffff'ffff'ffffULL);
}

std::future<std::string> failedFuture(std::exception_ptr error) {
  std::promise<std::string> promise;
  promise.set_exception(std::move(error));
  return promise.get_future();
}

}  // namespace

std::string notAStreamingJobMessage(const std::string& jobId) {
  return "Job " + jobId + " is not a streaming job.";
}

// ---- SavepointRequest ------------------------------------------------------------------

SavepointRequest::SavepointRequest(fs::path targetDirectory, std::string jobId,
                                   SavepointStopMode mode)
    : targetDirectory_(std::move(targetDirectory)), jobId_(std::move(jobId)), mode_(mode) {}

SavepointRequest::~SavepointRequest() { fail(kSavepointJobEnded); }

bool SavepointRequest::settle() {
  std::lock_guard lock(mutex_);
  return !std::exchange(settled_, true);
}

void SavepointRequest::complete(const std::string& path) {
  if (settle()) promise_.set_value(path);
}

void SavepointRequest::fail(const std::string& reason) {
  if (!settle()) return;
  promise_.set_exception(std::make_exception_ptr(
      JobExecutionException("Failed to take a savepoint of job " + jobId_ + ": " + reason)));
}

void SavepointRequest::fail(std::exception_ptr error) {
  if (settle()) promise_.set_exception(std::move(error));
}

// ---- directories ---------------------------------------------------------------------------

fs::path savepointDirectoryPath(const std::string& directory, const std::string& what) {
  std::string_view path = directory;
  // Flink writes `file:/tmp/savepoints` (its Path) as well as `file:///tmp/savepoints`.
  if (path.starts_with("file://")) {
    path.remove_prefix(7);
  } else if (path.starts_with("file:")) {
    path.remove_prefix(5);
  } else if (auto scheme = path.find("://"); scheme != std::string_view::npos) {
    throw ValidationException("'" + what + "' = '" + directory +
                              "': eddy writes savepoints on the local file system only, not '" +
                              std::string(path.substr(0, scheme)) + "'.");
  }
  std::error_code error;
  fs::path absolute = fs::absolute(fs::path(path), error);
  return error ? fs::path(path) : absolute.lexically_normal();
}

std::string writeSavepoint(const CompletedCheckpoint& checkpoint, const SavepointRequest& request) {
  const fs::path& base = request.targetDirectory();
  std::error_code error;
  fs::create_directories(base, error);
  // A fresh directory of our own: a name another savepoint took is tried again (Flink tries ten
  // random names too).
  fs::path directory;
  for (int attempt = 0; attempt < 10 && directory.empty(); ++attempt) {
    fs::path candidate = base / randomSavepointName(request.jobId());
    if (fs::create_directory(candidate, error) && !error) directory = std::move(candidate);
  }
  if (directory.empty()) {
    throw ConnectorException("Failed to create savepoint directory at " + base.string() +
                                 (error ? ": " + error.message() : std::string()),
                             /*retriable=*/true);
  }
  try {
    writeCheckpointDirectory(checkpoint, directory);
  } catch (...) {
    fs::remove_all(directory, error);  // leave nothing of a failed savepoint
    throw;
  }
  return directory.string();
}

// ---- asking a job ------------------------------------------------------------------------

std::future<std::string> requestSavepoint(JobSupervisor& job, const std::string& directory,
                                          SavepointStopMode mode) {
  // Held while the request is queued: the coordinator belongs to the attempt.
  std::shared_ptr<RunningJob> attempt = job.currentAttempt();
  CheckpointCoordinator* coordinator = attempt->checkpointCoordinator();
  // Flink's order of checks (SchedulerBase#checkSavepointActionPreconditions).
  if (coordinator == nullptr) {
    return failedFuture(
        std::make_exception_ptr(ValidationException(notAStreamingJobMessage(job.jobId()))));
  }
  if (directory.empty()) {
    return failedFuture(std::make_exception_ptr(ValidationException(kNoSavepointDirectory)));
  }
  fs::path target;
  try {
    target = savepointDirectoryPath(directory, "execution.checkpointing.savepoint-dir");
  } catch (...) {
    return failedFuture(std::current_exception());
  }
  auto request = std::make_shared<SavepointRequest>(std::move(target), job.jobId(), mode);
  std::future<std::string> future = request->future();
  coordinator->triggerSavepoint(std::move(request));
  return future;
}

}  // namespace eddy::runtime
