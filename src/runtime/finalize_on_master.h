// FinalizeOnMaster: an operator factory that has a job-level step once the whole job succeeded
// (Flink's FinalizeOnMaster#finalizeGlobal, which the JobManager calls on the vertex of a
// FileSystemOutputFormat to commit a BATCH job's staged files). The filesystem sink's factory
// implements it: its BATCH output becomes visible only when every task finished successfully.
//
// RunningJob calls finalizeGlobal once per implementing factory of the job graph, after every
// task thread has ended (every operator closed), only when no task failed and the job was not
// cancelled, from the thread of the task that ended last, before the job reports FINISHED and
// before waitForCompletion returns. An exception fails the job with its message.
#pragma once

namespace eddy::runtime {

class FinalizeOnMaster {
 public:
  virtual ~FinalizeOnMaster() = default;
  /// `parallelism`: the parallelism of the vertex that runs the factory's operators.
  virtual void finalizeGlobal(int parallelism) const = 0;
};

}  // namespace eddy::runtime
