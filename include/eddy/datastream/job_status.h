// JobStatus: where a job is in its life, as Flink's JobStatus (the states a local job can be
// in). JobClient::getJobStatus() reports it; runtime::RunningJob, which runs the job, keeps it.
#pragma once

namespace eddy {

/// RESTARTING: a task failed and the job waits out its restart strategy's delay before it
/// restarts from its latest completed checkpoint (see `restart-strategy.type`).
enum class JobStatus { RUNNING, FINISHED, FAILED, CANCELED, RESTARTING };

}  // namespace eddy
