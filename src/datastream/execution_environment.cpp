#include "eddy/datastream/execution_environment.h"

#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <iostream>
#include <mutex>
#include <thread>

#include "config/configuration_view.h"
#include "config/option_registry.h"
#include "config/option_value.h"
#include "graph/job_graph.h"
#include "runtime/checkpoint_coordinator.h"
#include "runtime/checkpoint_storage.h"
#include "runtime/high_availability.h"
#include "runtime/job_supervisor.h"
#include "runtime/restart_strategy.h"
#include "runtime/running_job.h"
#include "runtime/savepoint.h"

namespace eddy {

namespace {

void requirePositive(int64_t value, const char* what) {
  if (value <= 0) {
    throw ValidationException(std::string(what) + " must be positive, got " +
                              std::to_string(value));
  }
}

/// A checkpoint directory or restore path as a local path: a plain path or a `file://` URI.
/// eddy has no other file systems yet.
std::string localPath(const std::string& key, const std::string& value) {
  constexpr std::string_view kFileScheme = "file://";
  if (value.starts_with(kFileScheme)) return value.substr(kFileScheme.size());
  if (auto scheme = value.find("://"); scheme != std::string::npos) {
    throw ValidationException("'" + key + "' = '" + value + "': eddy reads and writes " +
                              "checkpoints on the local file system only, not '" +
                              value.substr(0, scheme) + "'.");
  }
  return value;
}

/// The first of `keys` that `configuration` sets (Flink's fallback keys: newest name first).
const std::string* firstSet(const std::map<std::string, std::string>& configuration,
                            std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    if (auto it = configuration.find(key); it != configuration.end()) return &it->second;
  }
  return nullptr;
}

/// A Double option (ConfigurationView reads none): nothing when unset; the SET error when the
/// value does not parse.
std::optional<double> doubleOption(const std::map<std::string, std::string>& configuration,
                                   const std::string& key) {
  auto it = configuration.find(key);
  if (it == configuration.end()) return std::nullopt;
  std::optional<double> value = config::parseDouble(it->second);
  if (!value) {
    throw ValidationException(config::OptionRegistry::invalidValueMessage(
        *config::OptionRegistry::instance().find(key), key, it->second));
  }
  return value;
}

/// The restart strategy the options set, as Flink's RestartBackoffTimeStrategyFactoryLoader:
/// `restart-strategy.type` (older name `restart-strategy`) with its `restart-strategy.<type>.*`
/// options; unset, exponential-delay with Flink's defaults (its options not read) when the job
/// checkpoints, else none. Throws ValidationException for a value that does not parse (every
/// restart option is parsed, so configure() rejects a bad one at once).
runtime::RestartStrategyConfiguration restartStrategyOf(
    const std::map<std::string, std::string>& configuration, bool checkpointing) {
  using runtime::RestartStrategyType;
  config::ConfigurationView view(configuration);
  runtime::RestartStrategyConfiguration strategy;
  const auto integer = [&](const char* key, int64_t& field) {
    if (std::optional<int64_t> value = view.getInteger(key)) field = *value;
  };
  const auto millis = [&](const char* key, int64_t& field) {
    if (std::optional<std::chrono::milliseconds> value = view.getDuration(key)) {
      field = value->count();
    }
  };
  const auto real = [&](const char* key, double& field) {
    if (std::optional<double> value = doubleOption(configuration, key)) field = *value;
  };
  integer("restart-strategy.fixed-delay.attempts", strategy.fixedDelayAttempts);
  millis("restart-strategy.fixed-delay.delay", strategy.fixedDelayMillis);
  integer("restart-strategy.failure-rate.max-failures-per-interval",
          strategy.failureRateMaxFailuresPerInterval);
  millis("restart-strategy.failure-rate.failure-rate-interval", strategy.failureRateIntervalMillis);
  millis("restart-strategy.failure-rate.delay", strategy.failureRateDelayMillis);
  millis("restart-strategy.exponential-delay.initial-backoff",
         strategy.exponentialInitialBackoffMillis);
  millis("restart-strategy.exponential-delay.max-backoff", strategy.exponentialMaxBackoffMillis);
  real("restart-strategy.exponential-delay.backoff-multiplier",
       strategy.exponentialBackoffMultiplier);
  millis("restart-strategy.exponential-delay.reset-backoff-threshold",
         strategy.exponentialResetBackoffThresholdMillis);
  real("restart-strategy.exponential-delay.jitter-factor", strategy.exponentialJitterFactor);
  integer("restart-strategy.exponential-delay.attempts-before-reset-backoff",
          strategy.exponentialAttemptsBeforeResetBackoff);
  std::optional<std::string> type = view.getEnum("restart-strategy.type");
  if (!type) type = view.getEnum("restart-strategy");
  if (!type) {
    runtime::RestartStrategyConfiguration defaults;
    defaults.type = checkpointing ? RestartStrategyType::EXPONENTIAL_DELAY
                                  : RestartStrategyType::NONE;
    return defaults;
  }
  if (*type == "fixed-delay" || *type == "fixeddelay") {
    strategy.type = RestartStrategyType::FIXED_DELAY;
  } else if (*type == "failure-rate" || *type == "failurerate") {
    strategy.type = RestartStrategyType::FAILURE_RATE;
  } else if (*type == "exponential-delay" || *type == "exponentialdelay") {
    strategy.type = RestartStrategyType::EXPONENTIAL_DELAY;
  } else {
    strategy.type = RestartStrategyType::NONE;  // none, off, disable
  }
  return strategy;
}

runtime::CheckpointRetention retentionOf(ExternalizedCheckpointRetention retention) {
  switch (retention) {
    case ExternalizedCheckpointRetention::DELETE_ON_CANCELLATION:
      return runtime::CheckpointRetention::DELETE_ON_CANCELLATION;
    case ExternalizedCheckpointRetention::RETAIN_ON_CANCELLATION:
      return runtime::CheckpointRetention::RETAIN_ON_CANCELLATION;
    case ExternalizedCheckpointRetention::NO_EXTERNALIZED_CHECKPOINTS:
      break;
  }
  return runtime::CheckpointRetention::NO_EXTERNALIZED_CHECKPOINTS;
}

}  // namespace

// ---- ExecutionConfig -------------------------------------------------------------------

ExecutionConfig& ExecutionConfig::setParallelism(int parallelism) {
  if (parallelism < 1) {
    throw ValidationException("The parallelism must be at least one, got " +
                              std::to_string(parallelism));
  }
  parallelism_ = parallelism;
  return *this;
}

ExecutionConfig& ExecutionConfig::setMaxParallelism(int maxParallelism) {
  if (maxParallelism < 1 || maxParallelism > 32768) {
    throw ValidationException("The maximum parallelism must be between 1 and 32768, got " +
                              std::to_string(maxParallelism));
  }
  maxParallelism_ = maxParallelism;
  return *this;
}

ExecutionConfig& ExecutionConfig::setAutoWatermarkInterval(int64_t intervalMillis) {
  if (intervalMillis < 0) {
    throw ValidationException("The auto watermark interval must not be negative, got " +
                              std::to_string(intervalMillis));
  }
  autoWatermarkIntervalMillis_ = intervalMillis;
  return *this;
}

// ---- CheckpointConfig ------------------------------------------------------------------

CheckpointConfig& CheckpointConfig::setCheckpointInterval(int64_t intervalMillis) {
  if (intervalMillis < 10) {
    throw ValidationException("Checkpoint interval must be larger than or equal to 10 ms, got " +
                              std::to_string(intervalMillis));
  }
  intervalMillis_ = intervalMillis;
  return *this;
}

CheckpointConfig& CheckpointConfig::setCheckpointingMode(CheckpointingMode mode) {
  mode_ = mode;
  return *this;
}

CheckpointConfig& CheckpointConfig::setCheckpointTimeout(int64_t timeoutMillis) {
  requirePositive(timeoutMillis, "Checkpoint timeout");
  timeoutMillis_ = timeoutMillis;
  return *this;
}

CheckpointConfig& CheckpointConfig::setMinPauseBetweenCheckpoints(int64_t minPauseMillis) {
  if (minPauseMillis < 0) {
    throw ValidationException("Pause value must not be negative, got " +
                              std::to_string(minPauseMillis));
  }
  minPauseMillis_ = minPauseMillis;
  return *this;
}

CheckpointConfig& CheckpointConfig::setMaxConcurrentCheckpoints(int maxConcurrentCheckpoints) {
  requirePositive(maxConcurrentCheckpoints, "The maximum number of concurrent checkpoints");
  maxConcurrentCheckpoints_ = maxConcurrentCheckpoints;
  return *this;
}

CheckpointConfig& CheckpointConfig::setExternalizedCheckpointRetention(
    ExternalizedCheckpointRetention retention) {
  retention_ = retention;
  return *this;
}

CheckpointConfig& CheckpointConfig::setTolerableCheckpointFailureNumber(int tolerableFailures) {
  if (tolerableFailures < 0) {
    throw ValidationException(
        "The tolerable failure checkpoint number must be non-negative, got " +
        std::to_string(tolerableFailures));
  }
  tolerableFailures_ = tolerableFailures;
  return *this;
}

CheckpointConfig& CheckpointConfig::setCheckpointStorage(std::string checkpointDirectory) {
  checkpointDirectory_ = std::move(checkpointDirectory);
  return *this;
}

CheckpointConfig& CheckpointConfig::setNumRetainedCheckpoints(int numRetained) {
  requirePositive(numRetained, "The number of retained checkpoints");
  numRetained_ = numRetained;
  return *this;
}

// ---- JobClient -------------------------------------------------------------------------

JobClient::JobClient(std::shared_ptr<runtime::JobSupervisor> job,
                     std::string defaultSavepointDirectory)
    : job_(std::move(job)), defaultSavepointDirectory_(std::move(defaultSavepointDirectory)) {}

const std::string& JobClient::getJobName() const { return job_->name(); }

const std::string& JobClient::getJobID() const { return job_->jobId(); }

JobStatus JobClient::getJobStatus() const { return job_->status(); }

void JobClient::cancel() { job_->cancel(); }

int64_t JobClient::getNumLateRecordsDropped() const {
  return getMetrics()->numLateRecordsDropped.load();
}

int64_t JobClient::getNumRestarts() const { return job_->numRestarts(); }

std::shared_ptr<const runtime::JobMetrics> JobClient::getMetrics() const {
  // Shares ownership of the attempt, so that the counters outlive its replacement.
  std::shared_ptr<runtime::RunningJob> attempt = job_->currentAttempt();
  const runtime::JobMetrics* metrics = &attempt->metrics();
  return std::shared_ptr<const runtime::JobMetrics>(std::move(attempt), metrics);
}

runtime::CheckpointStatistics JobClient::getCheckpointStatistics() const {
  return job_->checkpointStatistics();
}

std::future<std::string> JobClient::triggerSavepoint(std::optional<std::string> directory) {
  return runtime::requestSavepoint(*job_, directory.value_or(defaultSavepointDirectory_),
                                   runtime::SavepointStopMode::NONE);
}

std::future<std::string> JobClient::stopWithSavepoint(bool advanceToEndOfEventTime,
                                                      std::optional<std::string> directory) {
  std::future<std::string> savepoint = runtime::requestSavepoint(
      *job_, directory.value_or(defaultSavepointDirectory_),
      advanceToEndOfEventTime ? runtime::SavepointStopMode::DRAIN
                              : runtime::SavepointStopMode::SUSPEND);
  // As Flink's: the path once the job has ended on the savepoint (run by get(), on its thread).
  return std::async(std::launch::deferred,
                    [job = job_, savepoint = std::move(savepoint)]() mutable {
                      std::string path = savepoint.get();
                      job->waitForCompletion();
                      return path;
                    });
}

JobExecutionResult JobClient::waitForCompletion() {
  job_->waitForCompletion();
  return JobExecutionResult(job_->name(), job_->netRuntimeMillis(),
                            getMetrics()->numLateRecordsDropped.load(), job_->numRestarts());
}

// ---- StreamExecutionEnvironment ---------------------------------------------------------

std::unique_ptr<StreamExecutionEnvironment> StreamExecutionEnvironment::getExecutionEnvironment() {
  return std::make_unique<StreamExecutionEnvironment>();
}

StreamExecutionEnvironment::StreamExecutionEnvironment() : clock_(&SystemClock::instance()) {}

StreamExecutionEnvironment::~StreamExecutionEnvironment() = default;

StreamExecutionEnvironment& StreamExecutionEnvironment::setParallelism(int parallelism) {
  config_.setParallelism(parallelism);
  return *this;
}

int StreamExecutionEnvironment::getParallelism() const { return defaultParallelism(); }

int StreamExecutionEnvironment::defaultParallelism() const {
  if (config_.getParallelism() > 0) return config_.getParallelism();
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

StreamExecutionEnvironment& StreamExecutionEnvironment::setMaxParallelism(int maxParallelism) {
  config_.setMaxParallelism(maxParallelism);
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::setRuntimeMode(RuntimeExecutionMode mode) {
  runtimeMode_ = mode;
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::enableCheckpointing(
    int64_t intervalMillis, CheckpointingMode mode) {
  checkpointConfig_.setCheckpointInterval(intervalMillis);
  checkpointConfig_.setCheckpointingMode(mode);
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::configure(
    const std::map<std::string, std::string>& configuration) {
  config::ConfigurationView view(configuration);
  // Read everything before changing anything, so that an invalid value changes nothing. The
  // restart strategy is read from the merged options when a job starts; here its values are
  // only checked.
  restartStrategyOf(configuration, false);
  runtime::highAvailabilityModeOf(configuration);  // the rest of HA is read when a job starts
  auto interval = view.getDuration("execution.checkpointing.interval");
  auto mode = view.getEnum("execution.checkpointing.mode");
  auto timeout = view.getDuration("execution.checkpointing.timeout");
  auto minPause = view.getDuration("execution.checkpointing.min-pause");
  auto maxConcurrent = view.getInteger("execution.checkpointing.max-concurrent-checkpoints");
  auto tolerable = view.getInteger("execution.checkpointing.tolerable-failed-checkpoints");
  auto retention = view.getEnum("execution.checkpointing.externalized-checkpoint-retention");
  std::optional<int64_t> numRetained = view.getInteger("execution.checkpointing.num-retained");
  if (!numRetained) numRetained = view.getInteger("state.checkpoints.num-retained");
  CheckpointConfig checkpoints = checkpointConfig_;
  if (interval && interval->count() > 0) checkpoints.setCheckpointInterval(interval->count());
  if (mode) {
    checkpoints.setCheckpointingMode(*mode == "AT_LEAST_ONCE" ? CheckpointingMode::AT_LEAST_ONCE
                                                              : CheckpointingMode::EXACTLY_ONCE);
  }
  if (timeout) checkpoints.setCheckpointTimeout(timeout->count());
  if (minPause) checkpoints.setMinPauseBetweenCheckpoints(minPause->count());
  if (maxConcurrent) checkpoints.setMaxConcurrentCheckpoints(static_cast<int>(*maxConcurrent));
  if (tolerable) checkpoints.setTolerableCheckpointFailureNumber(static_cast<int>(*tolerable));
  if (retention) {
    checkpoints.setExternalizedCheckpointRetention(
        *retention == "RETAIN_ON_CANCELLATION"   ? ExternalizedCheckpointRetention::RETAIN_ON_CANCELLATION
        : *retention == "DELETE_ON_CANCELLATION" ? ExternalizedCheckpointRetention::DELETE_ON_CANCELLATION
                                                 : ExternalizedCheckpointRetention::NO_EXTERNALIZED_CHECKPOINTS);
  }
  if (numRetained) checkpoints.setNumRetainedCheckpoints(static_cast<int>(*numRetained));
  if (const std::string* directory =
          firstSet(configuration, {"execution.checkpointing.dir", "state.checkpoints.dir"})) {
    checkpoints.setCheckpointStorage(*directory);
  }
  checkpointConfig_ = checkpoints;
  if (const std::string* directory = firstSet(
          configuration, {"execution.checkpointing.savepoint-dir", "state.savepoints.dir"})) {
    savepointDirectory_ = *directory;
  }
  if (const std::string* path = firstSet(
          configuration, {"execution.state-recovery.path", "execution.savepoint.path"})) {
    restorePath_ = *path;
  }
  for (const char* key : {"execution.savepoint.ignore-unclaimed-state",
                          "execution.state-recovery.ignore-unclaimed-state"}) {
    if (std::optional<bool> ignore = view.getBoolean(key)) ignoreUnclaimedState_ = *ignore;
  }
  for (const auto& [key, value] : configuration) configuration_[key] = value;
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::disableOperatorChaining() {
  chainingEnabled_ = false;
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::setClock(const Clock& clock) {
  clock_ = &clock;
  return *this;
}

DataStream<int64_t> StreamExecutionEnvironment::fromSequence(int64_t from, int64_t to) {
  if (from > to) {
    throw ValidationException("Start of sequence must not be greater than the end");
  }
  return addSource<int64_t>(std::make_shared<NumberSequenceSource>(from, to),
                            WatermarkStrategy<int64_t>::noWatermarks(), "Sequence Source", true);
}

runtime::Transformation* StreamExecutionEnvironment::addTransformation(
    std::unique_ptr<runtime::Transformation> transformation) {
  transformation->id = nextTransformationId_++;
  transformations_.push_back(std::move(transformation));
  return transformations_.back().get();
}

namespace datastream_detail {

std::shared_ptr<const TypeInformation> typeInformationOfRow(const Row& row) {
  if (row.isNameBased()) return nullptr;
  std::vector<TypeInformation> types;
  for (int i = 0; i < row.getArity(); ++i) {
    switch (row.getField(i).kind()) {
      case ValueKind::BOOLEAN: types.push_back(Types::BOOLEAN); break;
      case ValueKind::TINYINT: types.push_back(Types::BYTE); break;
      case ValueKind::SMALLINT: types.push_back(Types::SHORT); break;
      case ValueKind::INT: types.push_back(Types::INT); break;
      case ValueKind::BIGINT: types.push_back(Types::LONG); break;
      case ValueKind::FLOAT: types.push_back(Types::FLOAT); break;
      case ValueKind::DOUBLE: types.push_back(Types::DOUBLE); break;
      case ValueKind::DECIMAL: types.push_back(Types::BIG_DEC); break;
      case ValueKind::STRING: types.push_back(Types::STRING); break;
      case ValueKind::DATE: types.push_back(Types::LOCAL_DATE); break;
      case ValueKind::TIME: types.push_back(Types::LOCAL_TIME); break;
      case ValueKind::TIMESTAMP: types.push_back(Types::LOCAL_DATE_TIME); break;
      case ValueKind::TIMESTAMP_LTZ: types.push_back(Types::INSTANT); break;
      default: return nullptr;  // null, binary, intervals, nested values: not extracted
    }
  }
  const Row::FieldNames& names = row.getPositionNames();
  if (names) return std::make_shared<TypeInformation>(Types::ROW_NAMED(*names, std::move(types)));
  return std::make_shared<TypeInformation>(Types::ROW(std::move(types)));
}

}  // namespace datastream_detail

graph::JobGraph StreamExecutionEnvironment::buildJobGraph() const {
  // The transformations added since the last execute(), and, as in Flink, those of earlier
  // jobs they read from (a DataStream defined before an execute() can be used after it):
  // every input before its consumers.
  std::vector<const runtime::Transformation*> transformations;
  std::set<const runtime::Transformation*> added;
  std::function<void(const runtime::Transformation*)> add = [&](const runtime::Transformation* t) {
    if (!added.insert(t).second) return;
    for (const runtime::Transformation* input : t->inputs) add(input);
    transformations.push_back(t);
  };
  for (const auto& transformation : transformations_) add(transformation.get());
  bool allBounded = true;
  for (const runtime::Transformation* transformation : transformations) {
    if (transformation->kind == runtime::Transformation::Kind::SOURCE && !transformation->bounded) {
      allBounded = false;  // buildJobGraph rejects an unbounded source in BATCH
    }
  }
  graph::JobGraphSettings settings;
  settings.defaultParallelism = defaultParallelism();
  settings.maxParallelism = config_.getMaxParallelism();
  settings.chainingEnabled = chainingEnabled_;
  settings.executionMode = runtimeMode_ == RuntimeExecutionMode::AUTOMATIC
                               ? (allBounded ? RuntimeExecutionMode::BATCH
                                             : RuntimeExecutionMode::STREAMING)
                               : runtimeMode_;
  return graph::buildJobGraph(transformations, settings);
}

namespace {

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string StreamExecutionEnvironment::getExecutionPlan() const {
  graph::JobGraph jobGraph = buildJobGraph();
  // One node per operator (Flink's JSON plan): id, name, parallelism, and where its input
  // comes from — the operator before it in its chain (FORWARD) or the network edges of its
  // vertex (their partitioning).
  std::map<std::pair<int, int>, int> operatorIds;
  for (size_t v = 0; v < jobGraph.vertices.size(); ++v) {
    for (size_t o = 0; o < jobGraph.vertices[v].operators.size(); ++o) {
      operatorIds[{static_cast<int>(v), static_cast<int>(o)}] =
          jobGraph.vertices[v].operators[o].transformation->id;
    }
  }
  std::string json = "{\"nodes\":[";
  bool firstNode = true;
  for (size_t v = 0; v < jobGraph.vertices.size(); ++v) {
    const graph::JobVertex& vertex = jobGraph.vertices[v];
    for (size_t o = 0; o < vertex.operators.size(); ++o) {
      const runtime::Transformation& transformation = *vertex.operators[o].transformation;
      std::vector<std::pair<int, std::string>> predecessors;
      for (size_t p = 0; p < vertex.operators.size(); ++p) {
        for (int successor : vertex.operators[p].chainedSuccessors) {
          if (successor == static_cast<int>(o)) {
            predecessors.emplace_back(operatorIds[{static_cast<int>(v), static_cast<int>(p)}], "FORWARD");
          }
        }
      }
      if (o == 0) {
        for (int edgeIndex : vertex.inputEdges) {
          const graph::JobEdge& edge = jobGraph.edges[edgeIndex];
          predecessors.emplace_back(operatorIds[{edge.sourceVertex, edge.sourceOperator}],
                                    graph::shipStrategyName(edge.partitionKind));
        }
      }
      json += firstNode ? "" : ",";
      firstNode = false;
      json += "{\"id\":" + std::to_string(transformation.id) +
              ",\"type\":" + jsonString(transformation.name) + ",\"pact\":\"" +
              (vertex.isSource && o == 0 ? "Data Source" : "Operator") +
              "\",\"contents\":" +
              jsonString(transformation.description.empty() ? transformation.name
                                                            : transformation.description) +
              ",\"parallelism\":" + std::to_string(vertex.parallelism) +
              ",\"uid\":" + jsonString(vertex.operators[o].uid);
      if (!predecessors.empty()) {
        json += ",\"predecessors\":[";
        for (size_t i = 0; i < predecessors.size(); ++i) {
          json += (i ? "," : "") + std::string("{\"id\":") + std::to_string(predecessors[i].first) +
                  ",\"ship_strategy\":\"" + predecessors[i].second + "\",\"side\":\"second\"}";
        }
        json += "]";
      }
      json += "}";
    }
  }
  return json + "]}";
}

JobClient StreamExecutionEnvironment::executeAsync(std::string jobName) {
  graph::JobGraph jobGraph = buildJobGraph();

  // execute() clears the builder; handles on old streams stay valid but belong to no job.
  for (auto& transformation : transformations_) executed_.push_back(std::move(transformation));
  transformations_.clear();

  runtime::TaskSettings settings;
  // As Flink, BATCH jobs take no checkpoints.
  const bool checkpointing =
      checkpointConfig_.isCheckpointingEnabled() && runtimeMode_ != RuntimeExecutionMode::BATCH;
  settings.checkpointingEnabled = checkpointing;
  // High availability (runtime/high_availability.h): a checkpointed STREAMING job records its
  // latest completed checkpoint under high-availability.storageDir and, started again,
  // resumes from it. That checkpoint wins over execution.state-recovery.path, which is then
  // not read (Flink restores a recovered job's latest checkpoint, and its savepoint only when
  // there is none).
  // A job that collects its rows into this process (executeAndCollect, the SQL client's
  // SELECT) is not resumed: its reader dies with the process, and a new one would miss the
  // rows before the checkpoint.
  bool collectsIntoThisProcess = false;
  for (const graph::JobVertex& vertex : jobGraph.vertices) {
    for (const graph::ChainedOperator& chained : vertex.operators) {
      collectsIntoThisProcess |= chained.transformation->name == "Sink: Data stream collect sink";
    }
  }
  std::shared_ptr<runtime::HighAvailabilityJob> highAvailability;
  if (checkpointing && jobGraph.executionMode != RuntimeExecutionMode::BATCH &&
      !collectsIntoThisProcess) {
    highAvailability = runtime::HighAvailabilityJob::open(configuration_, jobName);
  }
  if (highAvailability) {
    settings.restoredCheckpoint = highAvailability->readLatestCheckpoint();
    if (settings.restoredCheckpoint) {
      runtime::checkRestoredStateIsClaimed(*settings.restoredCheckpoint, jobGraph,
                                           highAvailability->latestCheckpointLocation(),
                                           ignoreUnclaimedState_);
    }
  }
  if (!settings.restoredCheckpoint && !restorePath_.empty()) {
    // Each operator subtask gets its share of the snapshots (key groups, list state).
    const std::string path = localPath("execution.state-recovery.path", restorePath_);
    settings.restoredCheckpoint = runtime::readCheckpoint(path);
    runtime::checkRestoredStateIsClaimed(*settings.restoredCheckpoint, jobGraph, path,
                                         ignoreUnclaimedState_);
  }
  std::optional<runtime::JobCheckpointing> checkpointSetup;
  std::string checkpointsDirectory;  // of the file system checkpoint storage
  if (checkpointing) {
    runtime::JobCheckpointing setup;
    runtime::CheckpointCoordinatorConfiguration& coordination = setup.configuration;
    coordination.intervalMillis = checkpointConfig_.getCheckpointInterval();
    coordination.timeoutMillis = checkpointConfig_.getCheckpointTimeout();
    coordination.minPauseMillis = checkpointConfig_.getMinPauseBetweenCheckpoints();
    coordination.maxConcurrentCheckpoints = checkpointConfig_.getMaxConcurrentCheckpoints();
    coordination.tolerableFailedCheckpoints =
        checkpointConfig_.getTolerableCheckpointFailureNumber();
    coordination.numRetained = checkpointConfig_.getNumRetainedCheckpoints();
    coordination.alignment = checkpointConfig_.getCheckpointingMode() == CheckpointingMode::EXACTLY_ONCE
                                 ? runtime::CheckpointOptions::AlignmentType::ALIGNED
                                 : runtime::CheckpointOptions::AlignmentType::AT_LEAST_ONCE;
    coordination.retention = retentionOf(checkpointConfig_.getExternalizedCheckpointRetention());
    if (checkpointConfig_.getCheckpointStorage().empty() && !highAvailability) {
      // Flink's JobManagerCheckpointStorage: checkpoints in memory, lost with the process.
      setup.createStorage = [](const std::string&) -> std::unique_ptr<runtime::CheckpointStorage> {
        return std::make_unique<runtime::JobManagerCheckpointStorage>();
      };
    } else {
      // Under high availability without a directory: <storageDir>/<cluster id>/checkpoints.
      std::string directory =
          checkpointConfig_.getCheckpointStorage().empty()
              ? highAvailability->defaultCheckpointsDirectory().string()
              : localPath("state.checkpoints.dir", checkpointConfig_.getCheckpointStorage());
      checkpointsDirectory = directory;
      setup.createStorage = [directory = std::move(directory)](const std::string& jobId)
          -> std::unique_ptr<runtime::CheckpointStorage> {
        return std::make_unique<runtime::FileSystemCheckpointStorage>(directory, jobId);
      };
    }
    if (highAvailability) highAvailability->configure(setup);
    checkpointSetup = std::move(setup);
  } else if (jobGraph.executionMode != RuntimeExecutionMode::BATCH) {
    // No periodic checkpoints, but a coordinator all the same for the savepoints a user asks
    // for (runtime/savepoint.h): interval 0 triggers nothing by itself, and nothing but
    // savepoints, which go to their own directory, is ever stored.
    runtime::JobCheckpointing setup;
    setup.configuration.intervalMillis = 0;
    setup.configuration.timeoutMillis = checkpointConfig_.getCheckpointTimeout();
    setup.createStorage = [](const std::string&) -> std::unique_ptr<runtime::CheckpointStorage> {
      return std::make_unique<runtime::JobManagerCheckpointStorage>();
    };
    checkpointSetup = std::move(setup);
  }
  // BATCH jobs are not restarted: their sinks stage their output per job, so a second attempt
  // would stage it twice (Flink restarts their failed regions from blocking results).
  const runtime::RestartStrategyConfiguration restartStrategy =
      jobGraph.executionMode == RuntimeExecutionMode::BATCH
          ? runtime::RestartStrategyConfiguration{}
          : restartStrategyOf(configuration_, checkpointing);
  auto job = std::make_shared<runtime::JobSupervisor>(
      std::move(jobName), std::move(jobGraph), *clock_, std::move(settings),
      std::move(checkpointSetup), restartStrategy,
      highAvailability ? highAvailability->recoveredJobId() : std::string());
  if (highAvailability) highAvailability->jobStarting(job->jobId(), checkpointsDirectory);
  job->start();
  return JobClient(std::move(job), savepointDirectory_);
}

JobExecutionResult StreamExecutionEnvironment::execute(std::string jobName) {
  return executeAsync(std::move(jobName)).waitForCompletion();
}

// ---- sinks ---------------------------------------------------------------------------

void writeToStdout(std::string_view text) {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void writeToStderr(std::string_view text) {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

std::string printSinkPrefix(std::string_view sinkIdentifier, int subtaskIndex, int parallelism) {
  std::string subtask = parallelism > 1 ? std::to_string(subtaskIndex + 1) : std::string();
  if (!sinkIdentifier.empty()) {
    return std::string(sinkIdentifier) + (subtask.empty() ? "" : ":" + subtask) + "> ";
  }
  return subtask.empty() ? std::string() : subtask + "> ";
}

DataStreamSink& DataStreamSink::setParallelism(int parallelism) {
  if (parallelism < 1) {
    throw ValidationException("The parallelism of an operator must be at least 1.");
  }
  transformation_->parallelism = parallelism;
  return *this;
}

}  // namespace eddy
