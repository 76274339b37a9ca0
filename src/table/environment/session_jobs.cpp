// The jobs of a TableEnvironment session (session_jobs.h).
#include "table/environment/session_jobs.h"

#include <cctype>
#include <utility>

#include "eddy/clock.h"

namespace eddy::table {

namespace {

std::string lowerCase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

const char* jobStatusName(JobStatus status) {
  switch (status) {
    case JobStatus::RUNNING:
      return "RUNNING";
    case JobStatus::FINISHED:
      return "FINISHED";
    case JobStatus::FAILED:
      return "FAILED";
    case JobStatus::CANCELED:
      return "CANCELED";
    case JobStatus::RESTARTING:
      return "RESTARTING";
  }
  return "RUNNING";
}

SessionJobs::Handle::~Handle() {
  JobStatus status = client_.getJobStatus();
  // Dropping the last JobClient (client_, right after this) cancels a job still running.
  if (status == JobStatus::RUNNING || status == JobStatus::RESTARTING) status = JobStatus::CANCELED;
  std::lock_guard lock(record_->mutex);
  record_->lastStatus = status;
}

std::shared_ptr<SessionJobs::Handle> SessionJobs::add(JobClient client) {
  auto record = std::make_shared<Record>();
  record->id = lowerCase(client.getJobID());
  record->name = client.getJobName();
  record->startTimeMillis = SystemClock::instance().currentTimeMillis();
  auto handle = std::make_shared<Handle>(std::move(client), record);
  record->handle = handle;  // nobody else sees the record yet
  std::lock_guard lock(mutex_);
  records_.push_back(std::move(record));
  return handle;
}

std::vector<SessionJobs::Job> SessionJobs::list() const {
  std::vector<std::shared_ptr<Record>> records;
  {
    std::lock_guard lock(mutex_);
    records = records_;
  }
  std::vector<Job> jobs;
  jobs.reserve(records.size());
  for (const auto& record : records) {
    std::shared_ptr<Handle> handle;
    JobStatus status;
    {
      std::lock_guard lock(record->mutex);
      handle = record->handle.lock();
      status = record->lastStatus;
    }
    // The handle may be the last one: released outside the record's lock (its destructor
    // takes it).
    if (handle) status = handle->client().getJobStatus();
    jobs.push_back(Job{record->id, record->name, status, record->startTimeMillis});
  }
  return jobs;
}

std::shared_ptr<SessionJobs::Record> SessionJobs::recordOf(const std::string& id) const {
  const std::string wanted = lowerCase(id);
  std::lock_guard lock(mutex_);
  for (const auto& record : records_) {
    if (record->id == wanted) return record;
  }
  return nullptr;
}

bool SessionJobs::contains(const std::string& id) const { return recordOf(id) != nullptr; }

std::shared_ptr<SessionJobs::Handle> SessionJobs::find(const std::string& id) const {
  std::shared_ptr<Record> record = recordOf(id);
  if (!record) return nullptr;
  std::lock_guard lock(record->mutex);
  return record->handle.lock();
}

JobStatus SessionJobs::lastStatus(const std::string& id) const {
  std::shared_ptr<Record> record = recordOf(id);
  if (!record) return JobStatus::RUNNING;
  std::lock_guard lock(record->mutex);
  return record->lastStatus;
}

}  // namespace eddy::table
