// StreamExecutionEnvironment: the context in which a DataStream program is built and run, as
// Flink's. Sources create DataStreams; every DataStream method adds a Transformation to the
// environment; execute() turns all transformations added since the last execute() into a
// JobGraph and runs it on local threads (one per subtask), then clears the builder.
//
// An environment is used from one thread while a program is being built. The environment
// must outlive the DataStreams created from it; it is returned as a unique_ptr so their
// pointers to it stay valid.
#pragma once

#include <chrono>
#include <cstdint>
#include <future>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "eddy/clock.h"
#include "eddy/datastream/job_status.h"
#include "eddy/datastream/runtime_execution_mode.h"
#include "eddy/datastream/source.h"
#include "eddy/datastream/watermark_strategy.h"
#include "eddy/detail/datastream/operators.h"
#include "eddy/row.h"
#include "eddy/runtime/checkpoint_statistics.h"
#include "eddy/runtime/transformation.h"
#include "eddy/types/type_information.h"

namespace eddy {

namespace runtime {
class JobSupervisor;
}
namespace graph {
struct JobGraph;
}

template <typename T>
class DataStream;

/// Job-wide settings (Flink's ExecutionConfig).
class ExecutionConfig {
 public:
  int getParallelism() const { return parallelism_; }
  ExecutionConfig& setParallelism(int parallelism);
  int getMaxParallelism() const { return maxParallelism_; }
  ExecutionConfig& setMaxParallelism(int maxParallelism);
  int64_t getAutoWatermarkInterval() const { return autoWatermarkIntervalMillis_; }
  ExecutionConfig& setAutoWatermarkInterval(int64_t intervalMillis);

 private:
  int parallelism_ = -1;     // -1: the number of hardware threads
  int maxParallelism_ = -1;  // -1: derived from the parallelism
  int64_t autoWatermarkIntervalMillis_ = 200;
};

enum class CheckpointingMode { EXACTLY_ONCE, AT_LEAST_ONCE };

/// What remains of a job's checkpoints when it ends (Flink's ExternalizedCheckpointRetention):
/// NO_EXTERNALIZED_CHECKPOINTS (Flink's default) deletes them whenever the job ends;
/// DELETE_ON_CANCELLATION keeps them only when the job fails; RETAIN_ON_CANCELLATION also when
/// it is cancelled. A job that finishes keeps none.
enum class ExternalizedCheckpointRetention {
  DELETE_ON_CANCELLATION,
  RETAIN_ON_CANCELLATION,
  NO_EXTERNALIZED_CHECKPOINTS,
};

/// Checkpoint settings (Flink's CheckpointConfig). A STREAMING job with an interval set is
/// checkpointed by a checkpoint coordinator (src/runtime/checkpoint_coordinator.h) into
/// `<checkpoint storage>/<job id>/chk-<n>/`, or, without a checkpoint storage directory, in
/// memory only (Flink's JobManagerCheckpointStorage). BATCH jobs take no checkpoints (as Flink).
class CheckpointConfig {
 public:
  bool isCheckpointingEnabled() const { return intervalMillis_ > 0; }
  int64_t getCheckpointInterval() const { return intervalMillis_; }
  CheckpointConfig& setCheckpointInterval(int64_t intervalMillis);
  CheckpointingMode getCheckpointingMode() const { return mode_; }
  CheckpointConfig& setCheckpointingMode(CheckpointingMode mode);
  int64_t getCheckpointTimeout() const { return timeoutMillis_; }
  CheckpointConfig& setCheckpointTimeout(int64_t timeoutMillis);
  int64_t getMinPauseBetweenCheckpoints() const { return minPauseMillis_; }
  CheckpointConfig& setMinPauseBetweenCheckpoints(int64_t minPauseMillis);
  int getMaxConcurrentCheckpoints() const { return maxConcurrentCheckpoints_; }
  CheckpointConfig& setMaxConcurrentCheckpoints(int maxConcurrentCheckpoints);
  ExternalizedCheckpointRetention getExternalizedCheckpointRetention() const { return retention_; }
  CheckpointConfig& setExternalizedCheckpointRetention(ExternalizedCheckpointRetention retention);
  int getTolerableCheckpointFailureNumber() const { return tolerableFailures_; }
  CheckpointConfig& setTolerableCheckpointFailureNumber(int tolerableFailures);
  /// The directory checkpoints are written to (`state.checkpoints.dir`; a local path or a
  /// `file://` URI); empty: kept in memory.
  const std::string& getCheckpointStorage() const { return checkpointDirectory_; }
  CheckpointConfig& setCheckpointStorage(std::string checkpointDirectory);
  /// Completed checkpoints kept (`execution.checkpointing.num-retained`); older ones are deleted.
  int getNumRetainedCheckpoints() const { return numRetained_; }
  CheckpointConfig& setNumRetainedCheckpoints(int numRetained);

 private:
  int64_t intervalMillis_ = -1;
  CheckpointingMode mode_ = CheckpointingMode::EXACTLY_ONCE;
  int64_t timeoutMillis_ = 10 * 60 * 1000;
  int64_t minPauseMillis_ = 0;
  int maxConcurrentCheckpoints_ = 1;
  ExternalizedCheckpointRetention retention_ =
      ExternalizedCheckpointRetention::NO_EXTERNALIZED_CHECKPOINTS;
  int tolerableFailures_ = 0;
  std::string checkpointDirectory_;
  int numRetained_ = 1;
};

/// The outcome of a finished job.
class JobExecutionResult {
 public:
  JobExecutionResult(std::string jobName, int64_t netRuntimeMillis,
                     int64_t numLateRecordsDropped = 0, int64_t numRestarts = 0)
      : jobName_(std::move(jobName)),
        netRuntimeMillis_(netRuntimeMillis),
        numLateRecordsDropped_(numLateRecordsDropped),
        numRestarts_(numRestarts) {}
  const std::string& getJobName() const { return jobName_; }
  /// Wall-clock milliseconds from start to end.
  int64_t getNetRuntime() const { return netRuntimeMillis_; }
  /// Records the job's time-based operators dropped as late (behind their watermark), counted
  /// by its last attempt (since that attempt's restore, when the job restarted).
  int64_t getNumLateRecordsDropped() const { return numLateRecordsDropped_; }
  /// How often the job restarted after a failure (Flink's numRestarts; see
  /// `restart-strategy.type`).
  int64_t getNumRestarts() const { return numRestarts_; }

 private:
  std::string jobName_;
  int64_t netRuntimeMillis_;
  int64_t numLateRecordsDropped_;
  int64_t numRestarts_;
};

/// A handle on a job started with executeAsync(). Copies refer to the same job, through all
/// its attempts when it restarts after failures (`restart-strategy.type`). When the last
/// handle goes away the job is cancelled and its threads are joined (unlike Flink, whose
/// cluster keeps a detached job running): keep a handle while the job should run.
/// Thread-safe.
class JobClient {
 public:
  /// `defaultSavepointDirectory`: where savepoints go when a call names no directory (the
  /// job's `execution.checkpointing.savepoint-dir` / `state.savepoints.dir`); empty: none.
  explicit JobClient(std::shared_ptr<runtime::JobSupervisor> job,
                     std::string defaultSavepointDirectory = {});
  const std::string& getJobName() const;
  /// The job's id, Flink's JobID form (32 lower-case hex digits, random per job, the same for
  /// every attempt; under high availability the one of the job's previous run, if it has one):
  /// its checkpoints go to `<state.checkpoints.dir>/<job id>/chk-<n>/`.
  const std::string& getJobID() const;
  /// RUNNING, RESTARTING (a task failed; the restart strategy's delay runs before the job
  /// restarts), then FINISHED, CANCELED or FAILED.
  JobStatus getJobStatus() const;
  /// Stops the job, also while it waits to restart; waiting callers return without error.
  void cancel();
  /// Blocks until the job ends for good; throws JobExecutionException if it failed (when the
  /// restart strategy gave up: "Recovery is suppressed by <strategy>", then the last failure).
  JobExecutionResult waitForCompletion();
  /// Records the job's time-based operators dropped as late so far (see JobExecutionResult).
  int64_t getNumLateRecordsDropped() const;
  /// How often the job restarted so far (counted when a restart is decided, as Flink's
  /// numRestarts).
  int64_t getNumRestarts() const;
  /// The counters of the job's current attempt as they are now (rows read and written, the
  /// sinks' watermark; a restarted job counts again from its restore). The pointer keeps
  /// them readable after the job restarts.
  std::shared_ptr<const runtime::JobMetrics> getMetrics() const;
  /// What the job's checkpoints cost so far, over every attempt (counts, the latest completed
  /// one, durations, sizes, the longest pause a snapshot caused; see
  /// eddy/runtime/checkpoint_statistics.h). All zero without checkpointing.
  runtime::CheckpointStatistics getCheckpointStatistics() const;

  /// Takes a savepoint of the running job (Flink's triggerSavepoint, a
  /// CompletableFuture<String> there): the future gives the directory it was written to,
  /// `<directory>/savepoint-<first 6 hex digits of the job id>-<12 random hex digits>/`, a
  /// full, self-contained snapshot with its `_metadata` that `execution.state-recovery.path`
  /// restores; the job goes on. `directory` (a local path or `file:` URI): else the job's
  /// savepoint directory option, else the future throws ValidationException with Flink's "No
  /// savepoint directory configured. ..."; for a BATCH job "Job <id> is not a streaming job.".
  /// It is taken through the checkpoint barriers (also without periodic checkpoints), after a
  /// checkpoint in progress, and never deleted by eddy. When it fails (declined, expired after
  /// `execution.checkpointing.timeout`, not writable, the job ended) the future throws
  /// (JobExecutionException "Failed to take a savepoint of job <id>: ...", or the storage's
  /// ConnectorException) and the job goes on. Any thread; the call returns at once.
  std::future<std::string> triggerSavepoint(std::optional<std::string> directory = std::nullopt);
  /// Takes a savepoint and ends the job on it (Flink's stopWithSavepoint): the future gives the
  /// savepoint's directory once the job has ended FINISHED (its get() waits for that). With
  /// `advanceToEndOfEventTime` (Flink's `--drain`) the sources end their input with the
  /// end-of-time watermark first, so every event-time timer and window fires and every operator
  /// finishes before the savepoint; without it the sources stop, and after the savepoint no
  /// task emits anything more or finishes (pending windows stay in the savepoint, for the job
  /// that restores it). Directory and errors as triggerSavepoint; when the savepoint fails the
  /// job goes on (a drained job's sources have ended, so it then finishes by itself).
  std::future<std::string> stopWithSavepoint(bool advanceToEndOfEventTime,
                                             std::optional<std::string> directory = std::nullopt);

 private:
  std::shared_ptr<runtime::JobSupervisor> job_;
  std::string defaultSavepointDirectory_;
};

namespace datastream_detail {
// String literals given to fromElements become std::string elements.
template <typename T>
using ElementType = std::conditional_t<std::is_convertible_v<std::decay_t<T>, const char*>,
                                       std::string, std::decay_t<T>>;
/// The TypeInformation Flink's type extraction gives a Row element (TypeExtractor.getForObject):
/// a ROW of f0, f1, ... typed by the field values, or null when a field is null or of a
/// nested kind (the stream's type then stays a Row of unknown fields).
std::shared_ptr<const TypeInformation> typeInformationOfRow(const Row& row);
}  // namespace datastream_detail

class StreamExecutionEnvironment {
 public:
  /// A local environment; its default parallelism is the number of hardware threads.
  static std::unique_ptr<StreamExecutionEnvironment> getExecutionEnvironment();

  StreamExecutionEnvironment();
  ~StreamExecutionEnvironment();
  StreamExecutionEnvironment(const StreamExecutionEnvironment&) = delete;
  StreamExecutionEnvironment& operator=(const StreamExecutionEnvironment&) = delete;

  StreamExecutionEnvironment& setParallelism(int parallelism);
  int getParallelism() const;
  StreamExecutionEnvironment& setMaxParallelism(int maxParallelism);
  int getMaxParallelism() const { return config_.getMaxParallelism(); }
  StreamExecutionEnvironment& setRuntimeMode(RuntimeExecutionMode mode);
  RuntimeExecutionMode getRuntimeMode() const { return runtimeMode_; }
  ExecutionConfig& getConfig() { return config_; }
  CheckpointConfig& getCheckpointConfig() { return checkpointConfig_; }
  StreamExecutionEnvironment& enableCheckpointing(
      int64_t intervalMillis, CheckpointingMode mode = CheckpointingMode::EXACTLY_ONCE);
  /// Applies Flink options (Flink's StreamExecutionEnvironment#configure): the checkpointing
  /// options (`execution.checkpointing.*`, `state.checkpoints.dir`, `state.savepoints.dir`,
  /// `state.checkpoints.num-retained`) into getCheckpointConfig(), and the restore path
  /// (`execution.state-recovery.path`, older name `execution.savepoint.path`: a `chk-<n>` or
  /// savepoint directory the next jobs start from). The restart strategy
  /// (`restart-strategy.type`, older name `restart-strategy`, and its `restart-strategy.*`
  /// options) is read from the merged options when a job starts: unset, a STREAMING job with
  /// checkpointing gets exponential-delay with Flink's defaults, any other job none; BATCH
  /// jobs are not restarted. High availability (`high-availability.type`, older name
  /// `high-availability`; `high-availability.storageDir`, `high-availability.cluster-id`,
  /// `kubernetes.cluster-id`) is read when a job starts, too: a checkpointed STREAMING job then
  /// records its latest completed checkpoint under the storage directory and, when the same
  /// program starts it again (the same job name), resumes from it, before any restore path
  /// (docs/configuration.md "High availability"). Keys not given keep their settings; other
  /// keys are kept (getConfiguration) but not read. Throws ValidationException for an invalid
  /// value.
  StreamExecutionEnvironment& configure(const std::map<std::string, std::string>& configuration);
  /// The options configure() was given, merged.
  const std::map<std::string, std::string>& getConfiguration() const { return configuration_; }
  /// The checkpoint or savepoint the next jobs start from; empty: a fresh start.
  const std::string& getRestorePath() const { return restorePath_; }
  StreamExecutionEnvironment& disableOperatorChaining();
  bool isChainingEnabled() const { return chainingEnabled_; }
  /// The clock processing time is read from (tests pass a ManualClock). Must outlive jobs.
  StreamExecutionEnvironment& setClock(const Clock& clock);

  /// A stream of the given elements, in order (a non-parallel source).
  template <typename First, typename... Rest>
  DataStream<datastream_detail::ElementType<First>> fromElements(First&& first, Rest&&... rest);
  /// A stream of the vector's elements, in order (a non-parallel source).
  template <typename T>
  DataStream<T> fromCollection(std::vector<T> elements);
  /// The numbers from..to inclusive (a parallel source).
  DataStream<int64_t> fromSequence(int64_t from, int64_t to);
  /// A stream read from `source`, with timestamps and watermarks by `watermarkStrategy`.
  template <typename SourceType>
  DataStream<typename SourceType::OutputType> fromSource(
      std::shared_ptr<SourceType> source,
      const WatermarkStrategy<typename SourceType::OutputType>& watermarkStrategy,
      std::string sourceName);

  /// Runs every transformation added since the last execute() and waits for the end.
  /// Throws JobExecutionException when the job fails and ValidationException when the
  /// program cannot run.
  JobExecutionResult execute(std::string jobName = "Flink Streaming Job");
  /// Starts the job and returns at once.
  JobClient executeAsync(std::string jobName = "Flink Streaming Job");

  /// The program as it would run now, as Flink's JSON execution plan: one node per operator
  /// with its id, name (`type`), description (`contents`: setDescription's text, else the
  /// name), parallelism, uid (the user's, else the one derived from the plan:
  /// src/graph/operator_uid.h) and predecessors (with the ship strategy FORWARD, REBALANCE,
  /// HASH, ...). Runs nothing; throws ValidationException as execute() would.
  std::string getExecutionPlan() const;

  /// Adds a transformation (used by DataStream; the environment owns it).
  runtime::Transformation* addTransformation(std::unique_ptr<runtime::Transformation> t);
  int defaultParallelism() const;

 private:
  /// The job graph of the transformations execute() would run now.
  graph::JobGraph buildJobGraph() const;

  template <typename T>
  DataStream<T> addSource(std::shared_ptr<const Source<T>> source,
                          const WatermarkStrategy<T>& strategy, std::string name, bool parallel);

  ExecutionConfig config_;
  CheckpointConfig checkpointConfig_;
  std::map<std::string, std::string> configuration_;
  std::string restorePath_;
  bool ignoreUnclaimedState_ = false;  // execution.state-recovery.ignore-unclaimed-state
  std::string savepointDirectory_;  // the jobs' default for JobClient::triggerSavepoint
  RuntimeExecutionMode runtimeMode_ = RuntimeExecutionMode::STREAMING;
  bool chainingEnabled_ = true;
  const Clock* clock_;
  int nextTransformationId_ = 1;
  std::vector<std::unique_ptr<runtime::Transformation>> transformations_;
  // Transformations of jobs already executed: kept so that old DataStream handles stay valid.
  std::vector<std::unique_ptr<runtime::Transformation>> executed_;
};

}  // namespace eddy

#include "eddy/datastream/data_stream.h"

namespace eddy {

template <typename T>
DataStream<T> StreamExecutionEnvironment::addSource(std::shared_ptr<const Source<T>> source,
                                                    const WatermarkStrategy<T>& strategy,
                                                    std::string name, bool parallel) {
  auto transformation = std::make_unique<runtime::Transformation>();
  transformation->kind = runtime::Transformation::Kind::SOURCE;
  transformation->name = "Source: " + name;
  transformation->bounded = source->getBoundedness() == Boundedness::BOUNDED;
  transformation->parallelSource = parallel;
  transformation->outputType = std::make_shared<runtime::TypedRecordOps<T>>();
  transformation->operatorFactory = std::make_shared<runtime::LambdaOperatorFactory>(
      [source, strategy]() -> std::unique_ptr<runtime::StreamOperator> {
        return std::make_unique<operators::SourceReaderOperator<T>>(source, strategy);
      });
  return DataStream<T>(this, addTransformation(std::move(transformation)));
}

template <typename First, typename... Rest>
DataStream<datastream_detail::ElementType<First>> StreamExecutionEnvironment::fromElements(
    First&& first, Rest&&... rest) {
  using T = datastream_detail::ElementType<First>;
  std::vector<T> elements;
  elements.reserve(1 + sizeof...(Rest));
  elements.emplace_back(std::forward<First>(first));
  (elements.emplace_back(std::forward<Rest>(rest)), ...);
  return fromCollection(std::move(elements));
}

template <typename T>
DataStream<T> StreamExecutionEnvironment::fromCollection(std::vector<T> elements) {
  std::shared_ptr<const TypeInformation> type;
  if constexpr (std::is_same_v<T, Row>) {
    if (!elements.empty()) type = datastream_detail::typeInformationOfRow(elements.front());
  }
  DataStream<T> stream =
      addSource<T>(std::make_shared<CollectionSource<T>>(std::move(elements)),
                   WatermarkStrategy<T>::noWatermarks(), "Collection Source", false);
  if (type) stream.getTransformation().outputTypeInformation = std::move(type);
  return stream;
}

template <typename SourceType>
DataStream<typename SourceType::OutputType> StreamExecutionEnvironment::fromSource(
    std::shared_ptr<SourceType> source,
    const WatermarkStrategy<typename SourceType::OutputType>& watermarkStrategy,
    std::string sourceName) {
  using T = typename SourceType::OutputType;
  return addSource<T>(std::shared_ptr<const Source<T>>(std::move(source)), watermarkStrategy,
                      std::move(sourceName), true);
}

}  // namespace eddy
