// SessionJobs: the jobs a TableEnvironment session started with INSERT statements (also
// statement sets, CREATE TABLE .. AS SELECT, StatementSet::execute and Table::executeInsert),
// for Flink's job statements SHOW JOBS and STOP JOB (operations/job_statements.cpp). Flink lists
// the jobs of its cluster; eddy runs every job in its own process, so a session's jobs are the
// ones it started.
//
// A job belongs to the result of the statement that started it: the TableResult holds the
// job's JobClient through a Handle, and dropping the result cancels the job, as it always did
// (the SQL client keeps the results of the INSERTs it runs detached, `table.dml-sync` = false).
// The session keeps a small record of every job with a weak reference to its handle, so that
// SHOW JOBS lists a job for the session's whole life — with its live status while its result
// lives, and the status it had when its result went (CANCELED when it was still running) — and
// STOP JOB reaches the job while its result lives.
//
// Threads: the environment's thread adds, lists and finds; a handle's destructor may run on any
// thread (where the result is dropped), also after the session is gone. Each record has a mutex
// of its own, shared with its handle; another guards the list of records.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "eddy/datastream/execution_environment.h"
#include "eddy/datastream/job_status.h"

namespace eddy::table {

/// Flink's name of a job status ("RUNNING", "FINISHED", ...).
const char* jobStatusName(JobStatus status);

class SessionJobs {
 public:
  /// What SHOW JOBS shows of a job.
  struct Job {
    std::string id;
    std::string name;
    JobStatus status = JobStatus::RUNNING;
    int64_t startTimeMillis = 0;  // epoch milliseconds
  };

 private:
  struct Record;

 public:
  /// A job's client as its statement's result holds it. Its destruction records the job's
  /// status in the session and then, with the last JobClient, cancels a job still running.
  class Handle {
   public:
    Handle(JobClient client, std::shared_ptr<Record> record)
        : client_(std::move(client)), record_(std::move(record)) {}
    ~Handle();
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    JobClient& client() { return client_; }
    const JobClient& client() const { return client_; }

   private:
    JobClient client_;
    std::shared_ptr<Record> record_;
  };

  /// Registers the job `client` runs, started now; the result keeps the returned handle.
  std::shared_ptr<Handle> add(JobClient client);
  /// Every job of the session, in the order they started.
  std::vector<Job> list() const;
  /// Whether the session started job `id` (32 hex digits, any case).
  bool contains(const std::string& id) const;
  /// The handle of job `id` while its result lives; null otherwise.
  std::shared_ptr<Handle> find(const std::string& id) const;
  /// The status job `id` had when its result went away (see the file comment).
  JobStatus lastStatus(const std::string& id) const;

 private:
  struct Record {
    std::string id;  // lower case
    std::string name;
    int64_t startTimeMillis = 0;
    std::mutex mutex;  // guards handle and lastStatus
    std::weak_ptr<Handle> handle;
    JobStatus lastStatus = JobStatus::RUNNING;  // once the handle is gone
  };

  std::shared_ptr<Record> recordOf(const std::string& id) const;

  mutable std::mutex mutex_;  // guards records_
  std::vector<std::shared_ptr<Record>> records_;
};

}  // namespace eddy::table
