// Flink's job statements (1.17+, its SQL gateway's OperationExecutor callShowJobsOperation and
// callStopJobOperation): SHOW JOBS lists the jobs the session started (SessionJobs, with Flink's
// columns `job id`, `job name`, `status`, `start time`), and STOP JOB '<id>' cancels one, or with
// WITH SAVEPOINT [WITH DRAIN] stops it with a savepoint (JobClient::stopWithSavepoint, into the
// session's savepoint directory option, else the job's) and returns the savepoint's path in
// one row of `savepoint path`, as Flink's client prints it.
#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eddy/exceptions.h"
#include "eddy/types/temporal.h"
#include "table/environment/operations/statement_operations.h"
#include "table/environment/session_jobs.h"

namespace eddy::table::operations {

namespace {

// Flink's JobID.fromHexString accepts 32 hex digits.
bool isJobId(const std::string& id) {
  return id.size() == 32 && std::all_of(id.begin(), id.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0;
         });
}

/// The session's savepoint directory option (Flink's SAVEPOINT_DIRECTORY and its older key), if
/// set: it wins over the one the job started with.
std::optional<std::string> sessionSavepointDirectory(
    const std::map<std::string, std::string>& configuration) {
  for (const char* key : {"execution.checkpointing.savepoint-dir", "state.savepoints.dir"}) {
    if (auto found = configuration.find(key); found != configuration.end()) return found->second;
  }
  return std::nullopt;
}

}  // namespace

TableResult showJobs(OperationContext& context) {
  std::vector<Row> rows;
  for (const SessionJobs::Job& job : context.sessionJobs().list()) {
    rows.push_back(Row::of(job.id, job.name, std::string(jobStatusName(job.status)),
                           Instant::ofEpochMilli(job.startTimeMillis)));
  }
  return TableResult::ofRows(
      ResolvedSchema({ResolvedSchema::Column{"job id", DataTypes::STRING(), std::nullopt},
                      ResolvedSchema::Column{"job name", DataTypes::STRING(), std::nullopt},
                      ResolvedSchema::Column{"status", DataTypes::STRING(), std::nullopt},
                      ResolvedSchema::Column{"start time", DataTypes::TIMESTAMP_LTZ(3),
                                             std::nullopt}}),
      std::move(rows));
}

TableResult stopJob(OperationContext& context, const sql::StopJobStatement& stop) {
  if (!isJobId(stop.jobId)) {
    throw ValidationException("Cannot parse JobID from \"" + stop.jobId + "\".");
  }
  SessionJobs& jobs = context.sessionJobs();
  // Flink's FlinkJobNotFoundException.
  if (!jobs.contains(stop.jobId)) {
    throw ValidationException("Could not find Flink job (" + stop.jobId + ")");
  }
  std::shared_ptr<SessionJobs::Handle> job = jobs.find(stop.jobId);
  // Without its result (the handle) the job was cancelled with it, or had ended before.
  JobStatus status = JobStatus::CANCELED;
  if (job) {
    status = job->client().getJobStatus();
  } else if (JobStatus last = jobs.lastStatus(stop.jobId);
             last == JobStatus::FINISHED || last == JobStatus::FAILED) {
    status = last;
  }
  if (status != JobStatus::RUNNING && status != JobStatus::RESTARTING) {
    // Flink's FlinkJobTerminatedWithoutCancellationException.
    throw ValidationException("Flink job (" + stop.jobId + ") was not canceled, but instead " +
                              jobStatusName(status) + ".");
  }
  if (!stop.withSavepoint) {
    job->client().cancel();
    job->client().waitForCompletion();  // returns without an error once cancelled
    return TableResult::ok();
  }
  // Blocks until the job has ended on its savepoint (Flink's gateway waits too).
  std::string path =
      job->client()
          .stopWithSavepoint(stop.withDrain, sessionSavepointDirectory(context.configuration()))
          .get();
  return TableResult::ofRows(
      ResolvedSchema({ResolvedSchema::Column{"savepoint path", DataTypes::STRING(), std::nullopt}}),
      {Row::of(std::move(path))});
}

}  // namespace eddy::table::operations
