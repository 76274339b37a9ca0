// JobStatus: where a job is in its life, as Flink's JobStatus (the states a local job can be
// in). JobClient::getJobStatus() reports it; runtime::RunningJob, which runs the job, keeps it.
#pragma once

namespace eddy {

enum class JobStatus { RUNNING, FINISHED, FAILED, CANCELED };

}  // namespace eddy
