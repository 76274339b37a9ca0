#include "eddy/datastream/execution_environment.h"

#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <iostream>
#include <mutex>
#include <thread>

#include "config/configuration_view.h"
#include "graph/job_graph.h"
#include "runtime/checkpoint_coordinator.h"
#include "runtime/checkpoint_storage.h"
#include "runtime/running_job.h"

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

JobClient::JobClient(std::shared_ptr<runtime::RunningJob> job) : job_(std::move(job)) {}

const std::string& JobClient::getJobName() const { return job_->name(); }

const std::string& JobClient::getJobID() const { return job_->jobId(); }

JobStatus JobClient::getJobStatus() const { return job_->status(); }

void JobClient::cancel() { job_->cancel(); }

int64_t JobClient::getNumLateRecordsDropped() const {
  return job_->metrics().numLateRecordsDropped.load();
}

const runtime::JobMetrics& JobClient::getMetrics() const { return job_->metrics(); }

JobExecutionResult JobClient::waitForCompletion() {
  job_->waitForCompletion();
  return JobExecutionResult(job_->name(), job_->netRuntimeMillis(),
                            job_->metrics().numLateRecordsDropped.load());
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
  // Read everything before changing anything, so that an invalid value changes nothing.
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
  if (!restorePath_.empty()) {
    // Same parallelism only for now: each operator subtask gets the snapshot of its index.
    settings.restoredCheckpoint =
        runtime::readCheckpoint(localPath("execution.state-recovery.path", restorePath_));
  }
  const int64_t firstCheckpointId =
      settings.restoredCheckpoint ? settings.restoredCheckpoint->id + 1 : 1;
  auto job = std::make_shared<runtime::RunningJob>(std::move(jobName), std::move(jobGraph),
                                                   *clock_, std::move(settings));
  // As Flink, BATCH jobs take no checkpoints.
  if (checkpointConfig_.isCheckpointingEnabled() &&
      runtimeMode_ != RuntimeExecutionMode::BATCH) {
    runtime::CheckpointCoordinatorConfiguration coordination;
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
    std::unique_ptr<runtime::CheckpointStorage> storage;
    if (checkpointConfig_.getCheckpointStorage().empty()) {
      // Flink's JobManagerCheckpointStorage: checkpoints in memory, lost with the process.
      storage = std::make_unique<runtime::JobManagerCheckpointStorage>();
    } else {
      storage = std::make_unique<runtime::FileSystemCheckpointStorage>(
          localPath("state.checkpoints.dir", checkpointConfig_.getCheckpointStorage()),
          job->jobId());
    }
    job->setCheckpointCoordinator(std::make_unique<runtime::CheckpointCoordinator>(
        coordination, *job, std::move(storage), *clock_, firstCheckpointId));
  }
  job->start();
  return JobClient(std::move(job));
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

DataStreamSink& DataStreamSink::setParallelism(int parallelism) {
  if (parallelism < 1) {
    throw ValidationException("The parallelism of an operator must be at least 1.");
  }
  transformation_->parallelism = parallelism;
  return *this;
}

}  // namespace eddy
