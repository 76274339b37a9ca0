#include "config/option_registry.h"

#include <algorithm>
#include <cctype>

#include "common/session_time_zone.h"
#include "config/option_value.h"
#include "eddy/exceptions.h"

namespace eddy::config {

const char* optionTypeName(OptionType type) {
  switch (type) {
    case OptionType::kInteger:
      return "Integer";
    case OptionType::kBoolean:
      return "Boolean";
    case OptionType::kDouble:
      return "Double";
    case OptionType::kDuration:
      return "Duration";
    case OptionType::kMemorySize:
      return "MemorySize";
    case OptionType::kEnum:
      return "Enum";
    case OptionType::kString:
      return "String";
  }
  return "String";
}

namespace {

// Why an option has no effect yet, shared by the options of one family.
constexpr const char* kNoUnalignedCheckpoints =
    "checkpoints are aligned; unaligned checkpoints are not there yet";
constexpr const char* kNoIncrementalCheckpoints =
    "checkpoints are full; incremental checkpoints come with the RocksDB backend";
constexpr const char* kHeapStateOnly =
    "state is kept in memory; the RocksDB backend is not there yet";
constexpr const char* kNoMetricsReporters = "metrics reporters are not there yet";
constexpr const char* kPlannerIgnores = "the planner does not read it yet";
constexpr const char* kNotReadYet = "eddy does not read it yet";

ConfigOption makeOption(std::string key, OptionType type, std::string defaultValue,
                        std::string notHonouredReason, std::string description) {
  return ConfigOption{std::move(key),
                      type,
                      {},
                      std::nullopt,
                      std::move(defaultValue),
                      std::move(notHonouredReason),
                      {},
                      "",
                      std::move(description)};
}

ConfigOption makeEnum(std::string key, std::vector<std::string> values, std::string defaultValue,
                      std::string notHonouredReason, std::string description) {
  ConfigOption option = makeOption(std::move(key), OptionType::kEnum, std::move(defaultValue),
                                   std::move(notHonouredReason), std::move(description));
  option.enumValues = std::move(values);
  return option;
}

ConfigOption makeInteger(std::string key, int64_t minimum, std::string defaultValue,
                         std::string notHonouredReason, std::string description) {
  ConfigOption option = makeOption(std::move(key), OptionType::kInteger, std::move(defaultValue),
                                   std::move(notHonouredReason), std::move(description));
  option.minimum = minimum;
  return option;
}

std::vector<ConfigOption> knownOptions() {
  using T = OptionType;
  std::vector<ConfigOption> options;
  // ---- Execution ----
  options.push_back(makeInteger("parallelism.default", 1, "the number of cores", "",
                                "Parallelism of the operators of a job."));
  options.push_back(
      makeOption("pipeline.name", T::kString, "", kNotReadYet, "The name of the job."));
  options.push_back(makeOption("pipeline.auto-watermark-interval", T::kDuration, "200 ms", "",
                               "How far event time advances before a watermark is emitted."));
  options.push_back(makeInteger("pipeline.max-parallelism", 1, "", kNotReadYet,
                                "The number of key groups keyed state is split into."));
  ConfigOption runtimeMode =
      makeEnum("execution.runtime-mode", {"STREAMING", "BATCH", "AUTOMATIC"}, "STREAMING", "",
               "Run jobs as streaming (incremental, changelog results) or batch jobs.");
  runtimeMode.notHonouredValues = {"AUTOMATIC"};
  runtimeMode.notHonouredValueReason = "eddy runs the job in STREAMING mode";
  options.push_back(runtimeMode);
  // ---- Checkpointing ----
  options.push_back(makeOption("execution.checkpointing.interval", T::kDuration, "", "",
                               "Interval between checkpoints; unset: no checkpoints."));
  options.push_back(makeEnum("execution.checkpointing.mode", {"EXACTLY_ONCE", "AT_LEAST_ONCE"},
                             "EXACTLY_ONCE", "", "The checkpointing guarantee."));
  options.push_back(makeOption("execution.checkpointing.timeout", T::kDuration, "10 min", "",
                               "A checkpoint not complete by then is discarded."));
  options.push_back(makeOption("execution.checkpointing.min-pause", T::kDuration, "0 ms", "",
                               "The least time between two checkpoints."));
  options.push_back(makeInteger("execution.checkpointing.max-concurrent-checkpoints", 1, "1", "",
                                "Checkpoints that may be in progress at once."));
  options.push_back(
      makeEnum("execution.checkpointing.externalized-checkpoint-retention",
               {"DELETE_ON_CANCELLATION", "RETAIN_ON_CANCELLATION", "NO_EXTERNALIZED_CHECKPOINTS"},
               "NO_EXTERNALIZED_CHECKPOINTS", "",
               "Whether checkpoints are kept when the job is cancelled."));
  options.push_back(makeInteger("execution.checkpointing.tolerable-failed-checkpoints", 0, "0", "",
                                "Failed checkpoints tolerated before the job fails."));
  options.push_back(makeInteger("execution.checkpointing.num-retained", 1, "1", "",
                                "Completed checkpoints kept (Flink 2 name of "
                                "state.checkpoints.num-retained)."));
  options.push_back(makeOption("execution.checkpointing.unaligned.enabled", T::kBoolean, "false",
                               kNoUnalignedCheckpoints, "Unaligned checkpoints."));
  options.push_back(
      makeOption("execution.checkpointing.dir", T::kString, "", "",
                 "Where checkpoints are written (Flink 2 name of state.checkpoints.dir)."));
  options.push_back(
      makeOption("execution.checkpointing.savepoint-dir", T::kString, "", "",
                 "Where savepoints are written when none is named (JobClient::triggerSavepoint, "
                 "STOP JOB .. WITH SAVEPOINT); Flink 2 name of state.savepoints.dir."));
  options.push_back(
      makeOption("execution.checkpointing.incremental", T::kBoolean, "false",
                 kNoIncrementalCheckpoints,
                 "Incremental checkpoints (Flink 2 name of state.backend.incremental)."));
  options.push_back(makeOption("execution.state-recovery.path", T::kString, "", "",
                               "The checkpoint or savepoint directory a job starts from."));
  options.push_back(makeOption("execution.savepoint.path", T::kString, "", "",
                               "Older name of execution.state-recovery.path."));
  options.push_back(makeOption("execution.state-recovery.ignore-unclaimed-state", T::kBoolean,
                               "false", "",
                               "Start even when the restored state has operators the job lacks."));
  options.push_back(makeOption("execution.savepoint.ignore-unclaimed-state", T::kBoolean, "false",
                               "", "Older name of execution.state-recovery.ignore-unclaimed-state."));
  // ---- Restart strategies (Flink's RestartStrategyOptions; read when a job starts) ----
  const std::vector<std::string> restartStrategies = {
      "none",        "off",          "disable",           "fixed-delay",     "fixeddelay",
      "failure-rate", "failurerate", "exponential-delay", "exponentialdelay"};
  options.push_back(makeEnum("restart-strategy.type", restartStrategies,
                             "exponential-delay with checkpointing, else none", "",
                             "What a STREAMING job does when a task fails: restart from its "
                             "latest checkpoint (fixed-delay, failure-rate, exponential-delay) "
                             "or fail (none, off, disable)."));
  options.push_back(makeEnum("restart-strategy", restartStrategies, "", "",
                             "Older name of restart-strategy.type."));
  options.push_back(makeInteger("restart-strategy.fixed-delay.attempts", 0, "1", "",
                                "Restarts before the job fails."));
  options.push_back(makeOption("restart-strategy.fixed-delay.delay", T::kDuration, "1 s", "",
                               "Delay before each restart."));
  options.push_back(makeInteger("restart-strategy.failure-rate.max-failures-per-interval", 1, "1",
                                "", "Restarts allowed within the interval before the job fails."));
  options.push_back(makeOption("restart-strategy.failure-rate.failure-rate-interval", T::kDuration,
                               "1 min", "", "The interval failures are counted in."));
  options.push_back(makeOption("restart-strategy.failure-rate.delay", T::kDuration, "1 s", "",
                               "Delay before each restart."));
  options.push_back(makeOption("restart-strategy.exponential-delay.initial-backoff", T::kDuration,
                               "1 s", "", "Delay before the first restart."));
  options.push_back(makeOption("restart-strategy.exponential-delay.max-backoff", T::kDuration,
                               "1 min", "", "The longest delay."));
  options.push_back(makeOption("restart-strategy.exponential-delay.backoff-multiplier",
                               T::kDouble, "1.5", "",
                               "Each delay is the one before times this (greater than 1)."));
  options.push_back(makeOption("restart-strategy.exponential-delay.reset-backoff-threshold",
                               T::kDuration, "1 h", "",
                               "A failure this long after the last restart starts again from the "
                               "initial backoff."));
  options.push_back(makeOption("restart-strategy.exponential-delay.jitter-factor", T::kDouble,
                               "0.1", "",
                               "Share (0 to 1) of each delay added or taken at random."));
  options.push_back(makeInteger("restart-strategy.exponential-delay.attempts-before-reset-backoff",
                                1, "infinite", "",
                                "Restarts before the job fails, counted from the last reset."));
  // ---- State ----
  ConfigOption backend = makeEnum("state.backend.type", {"hashmap", "rocksdb"}, "hashmap", "",
                                  "The state backend: in memory (hashmap) or RocksDB.");
  backend.notHonouredValues = {"rocksdb"};
  backend.notHonouredValueReason = "state is kept in memory; the RocksDB backend is not there yet";
  options.push_back(backend);
  options.push_back(makeOption("state.backend.incremental", T::kBoolean, "false",
                               kNoIncrementalCheckpoints,
                               "Incremental checkpoints (only changed RocksDB files)."));
  options.push_back(makeOption("state.checkpoints.dir", T::kString, "", "",
                               "Where checkpoints are written; unset: kept in memory only."));
  options.push_back(makeOption("state.savepoints.dir", T::kString, "", "",
                               "Where savepoints are written when none is named."));
  options.push_back(makeInteger("state.checkpoints.num-retained", 1, "1", "",
                                "Completed checkpoints kept."));
  options.push_back(makeOption("state.backend.rocksdb.memory.managed", T::kBoolean, "true",
                               kHeapStateOnly, "RocksDB uses the task's managed memory."));
  options.push_back(makeOption("state.backend.rocksdb.memory.fixed-per-slot", T::kMemorySize, "",
                               kHeapStateOnly, "A fixed RocksDB memory budget per slot."));
  options.push_back(makeOption("state.backend.rocksdb.memory.fixed-per-tm", T::kMemorySize, "",
                               kHeapStateOnly, "A fixed RocksDB memory budget per process."));
  options.push_back(makeOption("state.backend.rocksdb.memory.write-buffer-ratio", T::kDouble, "0.5",
                               kHeapStateOnly, "Share of RocksDB memory for write buffers."));
  options.push_back(makeOption("state.backend.rocksdb.memory.high-prio-pool-ratio", T::kDouble,
                               "0.1", kHeapStateOnly,
                               "Share of the block cache for indexes and filters."));
  options.push_back(makeOption("state.backend.rocksdb.block.cache-size", T::kMemorySize, "8 mb",
                               kHeapStateOnly, "RocksDB block cache size."));
  options.push_back(makeOption("state.backend.rocksdb.block.blocksize", T::kMemorySize, "4 kb",
                               kHeapStateOnly, "RocksDB data block size."));
  options.push_back(makeOption("state.backend.rocksdb.writebuffer.size", T::kMemorySize, "64 mb",
                               kHeapStateOnly, "RocksDB memtable size."));
  options.push_back(makeInteger("state.backend.rocksdb.writebuffer.count", 1, "2", kHeapStateOnly,
                                "RocksDB memtables per column family."));
  options.push_back(makeInteger("state.backend.rocksdb.thread.num", 1, "2", kHeapStateOnly,
                                "RocksDB background flush and compaction threads."));
  options.push_back(makeEnum("state.backend.rocksdb.compaction.style",
                             {"LEVEL", "UNIVERSAL", "FIFO", "NONE"}, "LEVEL", kHeapStateOnly,
                             "RocksDB compaction style."));
  options.push_back(makeEnum("state.backend.rocksdb.predefined-options",
                             {"DEFAULT", "SPINNING_DISK_OPTIMIZED",
                              "SPINNING_DISK_OPTIMIZED_HIGH_MEM", "FLASH_SSD_OPTIMIZED"},
                             "DEFAULT", kHeapStateOnly, "A predefined RocksDB tuning profile."));
  options.push_back(makeOption("state.backend.rocksdb.localdir", T::kString, "", kHeapStateOnly,
                               "Local directory of the RocksDB files."));
  options.push_back(makeEnum("state.backend.rocksdb.timer-service.factory", {"HEAP", "ROCKSDB"},
                             "ROCKSDB", kHeapStateOnly, "Where timers are kept."));
  // ---- Table runtime ----
  options.push_back(makeInteger("table.exec.resource.default-parallelism", -1, "-1", "",
                                "Parallelism of SQL operators; -1: parallelism.default."));
  options.push_back(makeOption("table.exec.mini-batch.enabled", T::kBoolean, "false", "",
                               "Buffer input rows to update state once per batch."));
  options.push_back(makeOption("table.exec.mini-batch.allow-latency", T::kDuration, "0 ms", "",
                               "The longest a mini-batch buffers rows."));
  options.push_back(makeInteger("table.exec.mini-batch.size", -1, "-1", "",
                                "The most rows a mini-batch buffers."));
  options.push_back(makeOption("table.exec.state.ttl", T::kDuration, "0 ms", "",
                               "Idle state of SQL operators expires after this time; 0: never."));
  options.push_back(makeOption("table.exec.source.idle-timeout", T::kDuration, "0 ms", "",
                               "A source without input for this long is marked idle."));
  options.push_back(makeOption("table.exec.source.cdc-events-duplicate", T::kBoolean, "false",
                               kPlannerIgnores, "The CDC source may produce duplicate events."));
  options.push_back(makeEnum("table.exec.sink.not-null-enforcer", {"ERROR", "DROP"}, "ERROR", "",
                             "What a sink does with NULL in a NOT NULL column: fail the job "
                             "(ERROR) or drop the row (DROP)."));
  options.push_back(makeEnum("table.exec.sink.type-length-enforcer", {"IGNORE", "TRIM_PAD"},
                             "IGNORE", "",
                             "Whether a sink trims string values to their column's length and "
                             "pads CHAR/BINARY ones (TRIM_PAD) or writes them as they are "
                             "(IGNORE)."));
  options.push_back(makeEnum("table.exec.sink.upsert-materialize", {"NONE", "AUTO", "FORCE"},
                             "AUTO", "", "Materialize changes before an upsert sink."));
  options.push_back(makeEnum("table.exec.sink.keyed-shuffle", {"NONE", "AUTO", "FORCE"}, "AUTO",
                             kPlannerIgnores, "Shuffle by the sink's primary key."));
  options.push_back(makeInteger("table.exec.async-lookup.buffer-capacity", 1, "100",
                                kPlannerIgnores, "Lookups in flight per async lookup join."));
  options.push_back(makeOption("table.exec.async-lookup.timeout", T::kDuration, "3 min",
                               kPlannerIgnores, "Timeout of an async lookup."));
  options.push_back(makeInteger("table.exec.window-agg.buffer-size-limit", 1, "100000",
                                kPlannerIgnores, "Rows a window aggregate buffers."));
  options.push_back(makeOption("table.exec.disabled-operators", T::kString, "", "",
                               "Operators the batch planner must not use (HashJoin or "
                               "ShuffleHashJoin: joins sort and merge)."));
  options.push_back(makeEnum("table.exec.legacy-cast-behaviour", {"ENABLED", "DISABLED"},
                             "DISABLED", kPlannerIgnores, "Flink's pre-1.15 CAST behaviour."));
  options.push_back(makeOption("table.exec.simplify-operator-name-enabled", T::kBoolean, "true",
                               kPlannerIgnores, "Short operator names."));
  options.push_back(makeInteger("table.exec.sort.default-limit", -1, "-1", kPlannerIgnores,
                                "Limit of an ORDER BY without LIMIT in batch mode."));
  options.push_back(makeOption("table.exec.spill-compression.enabled", T::kBoolean, "true",
                               kPlannerIgnores, "Compress spilled data."));
  options.push_back(makeOption("table.exec.spill-compression.block-size", T::kMemorySize, "64 kb",
                               kPlannerIgnores, "Block size of spilled data."));
  // ---- Table planner ----
  options.push_back(makeOption("table.optimizer.reuse-sub-plan-enabled", T::kBoolean, "true", "",
                               "Run an identical sub-plan once and share its output."));
  options.push_back(makeOption("table.optimizer.disabled-passes", T::kString, "", "",
                               "eddy's: logical optimizer passes not to run (comma-separated "
                               "names; EXPLAIN then shows the plan without them)."));
  options.push_back(makeOption("table.optimizer.reuse-source-enabled", T::kBoolean, "true",
                               kPlannerIgnores, "Read an identical source once."));
  options.push_back(makeEnum("table.optimizer.agg-phase-strategy",
                             {"AUTO", "ONE_PHASE", "TWO_PHASE"}, "AUTO", "",
                             "One-phase or local-global (two-phase) aggregation; two-phase needs "
                             "mini-batch in STREAMING mode."));
  options.push_back(makeOption("table.optimizer.distinct-agg.split.enabled", T::kBoolean, "false",
                               "", "Split distinct aggregations to spread hot keys."));
  options.push_back(makeInteger("table.optimizer.distinct-agg.split.bucket-num", 1, "1024", "",
                                "Buckets of a split distinct aggregation."));
  options.push_back(makeOption("table.optimizer.join-reorder-enabled", T::kBoolean, "false",
                               kPlannerIgnores, "Reorder joins by cost."));
  options.push_back(makeOption("table.optimizer.multiple-input-enabled", T::kBoolean, "true",
                               kPlannerIgnores, "Fuse operators into multiple-input operators."));
  options.push_back(makeOption("table.optimizer.source.predicate-pushdown-enabled", T::kBoolean,
                               "true", kPlannerIgnores, "Push filters into sources."));
  options.push_back(makeEnum("table.optimizer.non-deterministic-update.strategy",
                             {"TRY_RESOLVE", "IGNORE"}, "IGNORE", kPlannerIgnores,
                             "Resolve non-deterministic updates in a changelog."));
  // Validated as a zone id (common/session_time_zone.h); `default` is UTC in eddy.
  options.push_back(makeOption("table.local-time-zone", T::kString, "default", "",
                               "The session time zone of TIMESTAMP_LTZ values, e.g. "
                               "'Europe/Berlin', 'UTC' or 'GMT+08:00'; 'default' is UTC."));
  // Read by the SQL client (client/sql_script_runner.h); TableEnvironment::executeSql returns
  // at once either way, and TableResult::await() waits.
  options.push_back(makeOption("table.dml-sync", T::kBoolean, "false", "",
                               "Whether the SQL client waits for an INSERT's job to finish "
                               "(true) or submits it and goes on (false: SHOW JOBS, STOP JOB). "
                               "Unset, eddy's client waits: its jobs run in its own process."));
  // ---- SQL client ----
  // eddy's client defaults to tableau where Flink's defaults to table (client/query_result_view.h).
  options.push_back(makeEnum("sql-client.execution.result-mode", {"TABLE", "CHANGELOG", "TABLEAU"},
                             "TABLEAU", "", "How the SQL client shows query results."));
  options.push_back(makeInteger("sql-client.execution.max-table-result.rows", 1, "1000000", "",
                                "Rows the table result mode keeps."));
  options.push_back(makeInteger("sql-client.display.max-column-width", 4, "30", "",
                                "Widest column the client prints; longer values are cut."));
  options.push_back(makeOption("sql-client.verbose", T::kBoolean, "false", kNotReadYet,
                               "Print the full error (with causes)."));
  // ---- Metrics, cluster ----
  options.push_back(
      makeOption("metrics.reporter.", T::kString, "", kNoMetricsReporters,
                 "A property of a metrics reporter, e.g. metrics.reporter.prom.port."));
  // ---- High availability (runtime/high_availability.h: one process is its own leader) ----
  options.push_back(makeOption("high-availability.type", T::kString, "NONE", "",
                               "NONE, ZOOKEEPER or KUBERNETES (or Kubernetes' factory class): "
                               "with either of the last two, a checkpointed streaming job "
                               "started again resumes from its latest checkpoint."));
  options.push_back(makeOption("high-availability", T::kString, "", "",
                               "Older name of high-availability.type."));
  options.push_back(makeOption("high-availability.storageDir", T::kString, "", "",
                               "Where the jobs' recovery metadata is kept (a local path or a "
                               "file:// URI)."));
  options.push_back(makeOption("high-availability.cluster-id", T::kString, "/default", "",
                               "The cluster's directory below the storage directory; one process "
                               "runs a cluster id at a time."));
  options.push_back(makeOption("kubernetes.cluster-id", T::kString, "", "",
                               "The cluster id under high-availability.type KUBERNETES."));
  return options;
}

std::string lowerCase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

/// What a value of `option` must look like, for the error message.
std::string expectation(const ConfigOption& option) {
  switch (option.type) {
    case OptionType::kInteger:
      return option.minimum ? "an integer of at least " + std::to_string(*option.minimum)
                            : std::string("an integer");
    case OptionType::kBoolean:
      return "'true' or 'false'";
    case OptionType::kDouble:
      return "a number such as '0.5'";
    case OptionType::kDuration:
      return "a non-negative duration such as '500 ms', '5 s', '1 min', '2 h' or '1 d' (no unit: "
             "milliseconds)";
    case OptionType::kMemorySize:
      return "a memory size such as '64 kb', '512 mb' or '1 gb' (no unit: bytes)";
    case OptionType::kEnum: {
      std::string values;
      for (const std::string& value : option.enumValues) {
        values += (values.empty() ? "" : ", ") + value;
      }
      return "one of " + values + " (case-insensitive)";
    }
    case OptionType::kString:
      break;
  }
  return "a string";
}

bool isValid(const ConfigOption& option, const std::string& value) {
  switch (option.type) {
    case OptionType::kInteger: {
      std::optional<int64_t> parsed = parseInteger(value);
      return parsed && (!option.minimum || *parsed >= *option.minimum);
    }
    case OptionType::kBoolean:
      return parseBoolean(value).has_value();
    case OptionType::kDouble:
      return parseDouble(value).has_value();
    case OptionType::kDuration:
      return parseDuration(value).has_value();
    case OptionType::kMemorySize:
      return parseMemorySize(value).has_value();
    case OptionType::kEnum:
      return canonicalEnumValue(option, value).has_value();
    case OptionType::kString:
      return true;
  }
  return true;
}

}  // namespace

const OptionRegistry& OptionRegistry::instance() {
  static const OptionRegistry registry;
  return registry;
}

OptionRegistry::OptionRegistry() : options_(knownOptions()) {}

const ConfigOption* OptionRegistry::find(std::string_view key) const {
  for (const ConfigOption& option : options_) {
    if (option.isPrefix() ? key.size() > option.key.size() && key.starts_with(option.key)
                          : key == option.key) {
      return &option;
    }
  }
  return nullptr;
}

std::optional<std::string> OptionRegistry::nearestKey(std::string_view key) const {
  const ConfigOption* nearest = nullptr;
  size_t nearestDistance = 0;
  for (const ConfigOption& option : options_) {
    size_t distance = editDistance(key, option.key);
    if (nearest == nullptr || distance < nearestDistance) {
      nearest = &option;
      nearestDistance = distance;
    }
  }
  // Close enough to be a misspelling: a third of the key's characters at most.
  if (nearest == nullptr || nearestDistance > std::max<size_t>(2, key.size() / 3)) {
    return std::nullopt;
  }
  return nearest->isPrefix() ? nearest->key + "<name>.<property>" : nearest->key;
}

std::string OptionRegistry::invalidValueMessage(const ConfigOption& option, const std::string& key,
                                                const std::string& value) {
  return "Could not parse value '" + displayValue(key, value) + "' for key '" + key +
         "': expected " + expectation(option) + ".";
}

std::vector<std::string> OptionRegistry::validate(const std::string& key,
                                                  const std::string& value) const {
  const ConfigOption* option = find(key);
  if (option == nullptr) {
    std::optional<std::string> nearest = nearestKey(key);
    return {"Unknown option '" + key + "'" +
            (nearest ? "; did you mean '" + *nearest + "'?" : std::string(".")) +
            " eddy accepts it but does not use it."};
  }
  if (!isValid(*option, value)) {
    throw ValidationException(invalidValueMessage(*option, key, value));
  }
  if (option->key == "table.local-time-zone" && !common::SessionTimeZone::parse(value)) {
    throw ValidationException(common::SessionTimeZone::invalidMessage(value));
  }
  if (!option->isHonoured()) {
    return {"Option '" + key + "' is known but not honoured by eddy yet (" +
            option->notHonouredReason + "); it has no effect."};
  }
  std::optional<std::string> canonical =
      option->type == OptionType::kEnum ? canonicalEnumValue(*option, value) : std::nullopt;
  if (canonical && std::find(option->notHonouredValues.begin(), option->notHonouredValues.end(),
                             *canonical) != option->notHonouredValues.end()) {
    return {"Option '" + key + "' = '" + value + "' is not honoured by eddy yet (" +
            option->notHonouredValueReason + ")."};
  }
  return {};
}

bool isSensitiveKey(std::string_view key) {
  std::string lower = lowerCase(key);
  for (const char* word : {"password", "secret", "fs.azure.account.key", "apikey", "api-key",
                           "auth-params", "service-key", "token", "basic-auth", "jaas.config"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string displayValue(std::string_view key, const std::string& value) {
  return isSensitiveKey(key) ? "******" : value;
}

std::optional<std::string> canonicalEnumValue(const ConfigOption& option, std::string_view value) {
  std::string lower = lowerCase(value);
  for (const std::string& candidate : option.enumValues) {
    if (lowerCase(candidate) == lower) return candidate;
  }
  return std::nullopt;
}

}  // namespace eddy::config
