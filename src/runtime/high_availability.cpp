// High availability in one process: the options, the cluster lock, the job record's format and
// its life (see high_availability.h).
#include "runtime/high_availability.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <system_error>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "eddy/exceptions.h"
#include "runtime/checkpoint_storage.h"
#include "runtime/durable_file.h"

namespace eddy::runtime {

namespace {

namespace fs = std::filesystem;

constexpr const char* kKubernetesFactoryClass =
    "org.apache.flink.kubernetes.highavailability.KubernetesHaServicesFactory";
constexpr std::string_view kRecordMagic = "EDDY-HA-JOB";
constexpr int kRecordVersion = 1;
constexpr std::string_view kChecksumPrefix = "checksum ";
constexpr const char* kRecordSuffix = ".job";
constexpr size_t kLongestFileNameStem = 200;

std::string lowerCase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

/// The first of `keys` that `configuration` sets, with the key (Flink's fallback keys: newest
/// name first).
std::optional<std::pair<std::string, std::string>> firstSet(
    const std::map<std::string, std::string>& configuration,
    std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    if (auto it = configuration.find(key); it != configuration.end()) {
      return std::make_pair(std::string(key), it->second);
    }
  }
  return std::nullopt;
}

std::string hex16(uint64_t value) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(value));
  return digits;
}

/// `high-availability.storageDir` as a local path: a plain path, or the path of a `file:` URI.
fs::path localStorageDirectory(const std::string& key, const std::string& value) {
  std::string path = value;
  if (path.starts_with("file://")) {
    path = path.substr(7);
  } else if (path.starts_with("file:/")) {
    path = path.substr(5);
  } else if (auto scheme = path.find("://"); scheme != std::string::npos) {
    throw ValidationException("'" + key + "' = '" + value +
                              "': eddy keeps high-availability data on the local file system only "
                              "(a path or a file:// URI), not on '" +
                              path.substr(0, scheme) + "'.");
  }
  return fs::path(path);
}

/// Escapes a job name into a file name stem: letters, digits, '.', '_' and '-' stay (a leading
/// '.' does not: it would hide the file), every other byte is %XX; a very long name keeps its
/// beginning and gets a hash of the whole name.
std::string fileNameStemOf(const std::string& jobName) {
  if (jobName.empty()) return "%";
  std::string stem;
  for (size_t i = 0; i < jobName.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(jobName[i]);
    if (std::isalnum(c) || c == '_' || c == '-' || (c == '.' && i > 0)) {
      stem += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      stem += escaped;
    }
  }
  if (stem.size() > kLongestFileNameStem) {
    stem = stem.substr(0, kLongestFileNameStem - 20) + "%" +
           hex16(XXH3_64bits(jobName.data(), jobName.size()));
  }
  return stem;
}

/// A record value on one line: '\' and line breaks escaped.
std::string escapeValue(std::string_view value) {
  std::string escaped;
  for (char c : value) {
    if (c == '\\') {
      escaped += "\\\\";
    } else if (c == '\n') {
      escaped += "\\n";
    } else if (c == '\r') {
      escaped += "\\r";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

std::optional<std::string> unescapeValue(std::string_view value) {
  std::string text;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] != '\\') {
      text += value[i];
      continue;
    }
    if (++i == value.size()) return std::nullopt;
    switch (value[i]) {
      case '\\': text += '\\'; break;
      case 'n': text += '\n'; break;
      case 'r': text += '\r'; break;
      default: return std::nullopt;
    }
  }
  return text;
}

bool isJobId(std::string_view id) {
  if (id.size() != 32) return false;
  for (char c : id) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && (c < 'a' || c > 'f')) return false;
  }
  return true;
}

std::optional<int64_t> parsePositive(std::string_view digits) {
  if (digits.empty() || digits.size() > 18) return std::nullopt;
  int64_t value = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value <= 0) return std::nullopt;
  return value;
}

constexpr std::string_view kFileKind = "the high-availability file";

[[noreturn]] void throwWriteError(const fs::path& path, const std::string& what) {
  runtime::throwWriteError(path, what, kFileKind);
}
void fsyncDirectory(const fs::path& directory) { runtime::fsyncDirectory(directory, kFileKind); }
void writeDurably(const fs::path& path, std::string_view bytes) {
  runtime::writeDurably(path, bytes, kFileKind);
}

std::string absoluteLocation(const std::string& location) {
  std::error_code error;
  fs::path absolute = fs::absolute(location, error);
  return (error ? fs::path(location) : absolute).lexically_normal().string();
}

// What this process holds: the lock of every cluster one of its jobs used (kept until the
// process exits), and the names of the jobs running under HA (by cluster), with their ordinals.
struct ProcessRegistry {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<ClusterLock>> locks;  // canonical cluster directory
  std::map<std::string, std::set<int>> runningNames;          // HighAvailabilityJob::nameKey_
};

ProcessRegistry& processRegistry() {
  static ProcessRegistry registry;
  return registry;
}

}  // namespace

// ---- Options -------------------------------------------------------------------------

HighAvailabilityMode highAvailabilityModeOf(
    const std::map<std::string, std::string>& configuration) {
  auto type = firstSet(configuration, {"high-availability.type", "high-availability"});
  if (!type) return HighAvailabilityMode::NONE;
  const std::string value = lowerCase(type->second);
  if (value == "none" || value == "standalone") return HighAvailabilityMode::NONE;
  if (value == "zookeeper") return HighAvailabilityMode::ZOOKEEPER;
  if (value == "kubernetes" || value == lowerCase(kKubernetesFactoryClass)) {
    return HighAvailabilityMode::KUBERNETES;
  }
  throw ValidationException("Could not use '" + type->first + "' = '" + type->second +
                            "': eddy runs the high-availability types NONE, ZOOKEEPER and "
                            "KUBERNETES (or Kubernetes' factory class " +
                            kKubernetesFactoryClass +
                            "); it cannot load another factory class.");
}

std::optional<HighAvailabilitySettings> readHighAvailabilitySettings(
    const std::map<std::string, std::string>& configuration) {
  HighAvailabilitySettings settings;
  settings.mode = highAvailabilityModeOf(configuration);
  if (settings.mode == HighAvailabilityMode::NONE) return std::nullopt;
  const std::string type = firstSet(configuration, {"high-availability.type",
                                                    "high-availability"})->second;
  auto storage = firstSet(configuration, {"high-availability.storageDir"});
  const bool blank = !storage || storage->second.find_first_not_of(" \t") == std::string::npos;
  if (!blank) settings.storageDirectory = localStorageDirectory(storage->first, storage->second);
  if (blank || settings.storageDirectory.empty()) {
    throw ValidationException(
        "Configuration is missing the mandatory parameter: high-availability.storageDir "
        "(high-availability.type is '" +
        type + "'; eddy keeps the jobs' recovery metadata there).");
  }
  std::optional<std::pair<std::string, std::string>> id;
  if (settings.mode == HighAvailabilityMode::KUBERNETES) {
    id = firstSet(configuration, {"kubernetes.cluster-id", "high-availability.cluster-id"});
  } else {
    id = firstSet(configuration, {"high-availability.cluster-id"});
  }
  if (!id) {
    id = std::make_pair(std::string("high-availability.cluster-id"), std::string("/default"));
  }
  std::string clusterId = id->second;
  while (!clusterId.empty() && clusterId.front() == '/') clusterId.erase(0, 1);
  while (!clusterId.empty() && clusterId.back() == '/') clusterId.pop_back();
  bool valid = !clusterId.empty();
  for (size_t start = 0; valid && start <= clusterId.size();) {
    size_t end = clusterId.find('/', start);
    if (end == std::string::npos) end = clusterId.size();
    std::string_view segment = std::string_view(clusterId).substr(start, end - start);
    valid = !segment.empty() && segment != "." && segment != "..";
    start = end + 1;
  }
  for (char c : clusterId) valid = valid && !std::iscntrl(static_cast<unsigned char>(c));
  if (!valid) {
    throw ValidationException("'" + id->first + "' = '" + id->second +
                              "': the cluster id names a directory below "
                              "high-availability.storageDir; it must not be empty, contain "
                              "control characters, or have an empty, '.' or '..' segment.");
  }
  settings.clusterId = std::move(clusterId);
  settings.clusterIdKey = id->first;
  return settings;
}

// ---- ClusterLock -----------------------------------------------------------------------

ClusterLock::ClusterLock(const fs::path& clusterDirectory, const std::string& clusterId,
                         const std::string& clusterIdKey)
    : lockFile_(clusterDirectory / kClusterLockFileName) {
  std::error_code error;
  fs::create_directories(clusterDirectory, error);
  if (error) {
    throw ConnectorException("Cannot create the high-availability directory '" +
                             clusterDirectory.string() + "' of cluster '" + clusterId +
                             "': " + error.message());
  }
  descriptor_ = ::open(lockFile_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (descriptor_ < 0) {
    throw ConnectorException("Cannot open the high-availability lock '" + lockFile_.string() +
                             "' of cluster '" + clusterId + "': " + std::strerror(errno));
  }
  int result;
  do {
    result = ::flock(descriptor_, LOCK_EX | LOCK_NB);
  } while (result != 0 && errno == EINTR);
  if (result != 0) {
    const int lockError = errno;
    std::string holder;
    if (lockError == EWOULDBLOCK) {
      char buffer[32] = {};
      ssize_t length = ::pread(descriptor_, buffer, sizeof buffer - 1, 0);
      for (ssize_t i = 0; i < length && std::isdigit(static_cast<unsigned char>(buffer[i])); ++i) {
        holder += buffer[i];
      }
    }
    ::close(descriptor_);
    descriptor_ = -1;
    if (lockError != EWOULDBLOCK) {
      throw ConnectorException("Cannot lock the high-availability lock '" + lockFile_.string() +
                               "' of cluster '" + clusterId + "': " + std::strerror(lockError));
    }
    throw ValidationException(
        "Another eddy process" + (holder.empty() ? std::string() : " (process " + holder + ")") +
        " is the leader of high-availability cluster '" + clusterId + "': it holds the lock '" +
        lockFile_.string() +
        "'. One process runs a cluster id at a time; stop that process, or give this one "
        "another cluster id (" +
        clusterIdKey + ").");
  }
  // Who holds it, for the message of the next process that tries.
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(descriptor_, 0) == 0) {
    [[maybe_unused]] ssize_t written = ::pwrite(descriptor_, pid.data(), pid.size(), 0);
  }
}

ClusterLock::~ClusterLock() {
  if (descriptor_ < 0) return;
  ::flock(descriptor_, LOCK_UN);
  ::close(descriptor_);
}

// ---- The job record --------------------------------------------------------------------

std::string encodeJobRecoveryRecord(const JobRecoveryRecord& record) {
  std::string text = std::string(kRecordMagic) + " " + std::to_string(kRecordVersion) + "\n";
  text += "job-name " + escapeValue(record.jobName) + "\n";
  text += "job-id " + record.jobId + "\n";
  for (const auto& [id, location] : record.checkpoints) {
    text += "checkpoint " + std::to_string(id) + " " + escapeValue(location) + "\n";
  }
  const uint64_t checksum = XXH3_64bits(text.data(), text.size());
  return text + std::string(kChecksumPrefix) + hex16(checksum) + "\n";
}

JobRecoveryRecord decodeJobRecoveryRecord(std::string_view bytes, const std::string& file) {
  const auto corrupted = [&](const std::string& what) {
    return ValidationException("The high-availability file '" + file + "' is corrupted: " +
                               what + ".");
  };
  if (!bytes.starts_with(kRecordMagic)) {
    throw ValidationException("The file '" + file +
                              "' is not an eddy high-availability job record (it does not start "
                              "with '" +
                              std::string(kRecordMagic) + "').");
  }
  // The last line is the checksum of everything before it.
  const size_t lastLine = bytes.size() < 2 ? std::string_view::npos
                                           : bytes.rfind('\n', bytes.size() - 2);
  if (!bytes.ends_with('\n') || lastLine == std::string_view::npos ||
      !bytes.substr(lastLine + 1).starts_with(kChecksumPrefix)) {
    throw ValidationException("The high-availability file '" + file +
                              "' is truncated or corrupted: it does not end with its checksum "
                              "line.");
  }
  const std::string_view body = bytes.substr(0, lastLine + 1);
  const std::string_view stored =
      bytes.substr(lastLine + 1 + kChecksumPrefix.size(),
                   bytes.size() - 1 - (lastLine + 1 + kChecksumPrefix.size()));
  if (stored != hex16(XXH3_64bits(body.data(), body.size()))) {
    throw ValidationException("The high-availability file '" + file +
                              "' is corrupted or truncated: its checksum does not match.");
  }
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < body.size();) {
    size_t end = body.find('\n', start);
    lines.push_back(body.substr(start, end - start));
    start = end + 1;
  }
  const std::string_view header = lines[0];
  const std::string versionText(header.substr(std::min(header.size(), kRecordMagic.size() + 1)));
  if (header.size() <= kRecordMagic.size() || header[kRecordMagic.size()] != ' ' ||
      !parsePositive(versionText)) {
    throw corrupted("its first line is '" + std::string(header) + "'");
  }
  if (*parsePositive(versionText) != kRecordVersion) {
    throw ValidationException("The high-availability file '" + file + "' has format version " +
                              versionText + ", which this eddy cannot read (it reads version " +
                              std::to_string(kRecordVersion) + ").");
  }
  JobRecoveryRecord record;
  bool hasName = false, hasId = false;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const size_t space = line.find(' ');
    const std::string_view key = line.substr(0, space);
    const std::string_view value =
        space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
    const std::string where = "line " + std::to_string(i + 1) + " ('" + std::string(line) + "')";
    if (key == "job-name" && !hasName && i == 1) {
      std::optional<std::string> name = unescapeValue(value);
      if (!name) throw corrupted(where + " has an invalid escape");
      record.jobName = std::move(*name);
      hasName = true;
    } else if (key == "job-id" && hasName && !hasId) {
      if (!isJobId(value)) throw corrupted(where + " is not a job id of 32 hex digits");
      record.jobId = std::string(value);
      hasId = true;
    } else if (key == "checkpoint" && hasId) {
      const size_t separator = value.find(' ');
      std::optional<int64_t> id = parsePositive(value.substr(0, separator));
      std::optional<std::string> location =
          separator == std::string_view::npos ? std::nullopt
                                              : unescapeValue(value.substr(separator + 1));
      if (!id || !location || location->empty()) {
        throw corrupted(where + " is not 'checkpoint <id> <directory>'");
      }
      if (!record.checkpoints.empty() && record.checkpoints.back().first >= *id) {
        throw corrupted(where + " does not follow an older checkpoint");
      }
      record.checkpoints.emplace_back(*id, std::move(*location));
    } else {
      throw corrupted(where + " is not expected there");
    }
  }
  if (!hasId) throw corrupted("it names no job id");
  return record;
}

void writeJobRecoveryRecord(const fs::path& file, const JobRecoveryRecord& record) {
  const fs::path temporary =
      file.parent_path() / ("." + file.filename().string() + ".inprogress");
  writeDurably(temporary, encodeJobRecoveryRecord(record));
  std::error_code error;
  fs::rename(temporary, file, error);
  if (error) throwWriteError(file, error.message());
  fsyncDirectory(file.parent_path().empty() ? fs::path(".") : file.parent_path());
}

std::optional<JobRecoveryRecord> readJobRecoveryRecord(const fs::path& file) {
  std::error_code error;
  if (!fs::exists(file, error)) {
    if (error) {
      throw ValidationException("Cannot read the high-availability file '" + file.string() +
                                "': " + error.message());
    }
    return std::nullopt;
  }
  std::ifstream input(file, std::ios::binary);
  if (!input) {
    throw ValidationException("Cannot read the high-availability file '" + file.string() + "'.");
  }
  const std::string bytes((std::istreambuf_iterator<char>(input)),
                          std::istreambuf_iterator<char>());
  return decodeJobRecoveryRecord(bytes, file.string());
}

// ---- HighAvailabilityJob ---------------------------------------------------------------

HighAvailabilityJob::HighAvailabilityJob(ConstructionKey, HighAvailabilitySettings settings,
                                         std::string jobName, std::string nameKey, int ordinal,
                                         fs::path recordFile)
    : settings_(std::move(settings)),
      jobName_(std::move(jobName)),
      nameKey_(std::move(nameKey)),
      ordinal_(ordinal),
      recordFile_(std::move(recordFile)) {}

HighAvailabilityJob::~HighAvailabilityJob() { releaseName(); }

std::shared_ptr<HighAvailabilityJob> HighAvailabilityJob::open(
    const std::map<std::string, std::string>& configuration, const std::string& jobName) {
  std::optional<HighAvailabilitySettings> settings = readHighAvailabilitySettings(configuration);
  if (!settings) return nullptr;
  const fs::path clusterDirectory = settings->clusterDirectory();
  std::error_code error;
  fs::create_directories(clusterDirectory, error);
  fs::path canonical = error ? fs::path() : fs::canonical(clusterDirectory, error);
  if (error) {
    throw ConnectorException("Cannot create the high-availability directory '" +
                             clusterDirectory.string() + "' of cluster '" + settings->clusterId +
                             "': " + error.message());
  }
  const std::string stem = fileNameStemOf(jobName);
  const std::string nameKey = canonical.string() + "/" + stem;
  int ordinal = 1;
  {
    ProcessRegistry& registry = processRegistry();
    std::lock_guard lock(registry.mutex);
    std::unique_ptr<ClusterLock>& held = registry.locks[canonical.string()];
    if (!held) {
      held = std::make_unique<ClusterLock>(clusterDirectory, settings->clusterId,
                                           settings->clusterIdKey);
    }
    std::set<int>& running = registry.runningNames[nameKey];
    while (running.contains(ordinal)) ++ordinal;
    running.insert(ordinal);
  }
  fs::path recordFile =
      clusterDirectory /
      (stem + (ordinal > 1 ? "~" + std::to_string(ordinal) : std::string()) + kRecordSuffix);
  // From here on the destructor frees the ordinal, also when reading the record throws.
  auto job = std::make_shared<HighAvailabilityJob>(ConstructionKey{}, std::move(*settings),
                                                   jobName, nameKey, ordinal,
                                                   std::move(recordFile));
  job->recovered_ = readJobRecoveryRecord(job->recordFile_);
  if (job->recovered_) job->current_ = *job->recovered_;
  job->current_.jobName = jobName;
  return job;
}

std::string HighAvailabilityJob::latestCheckpointLocation() const {
  if (!recovered_ || recovered_->checkpoints.empty()) return {};
  return recovered_->checkpoints.back().second;
}

std::shared_ptr<const CompletedCheckpoint> HighAvailabilityJob::readLatestCheckpoint() const {
  if (!recovered_ || recovered_->checkpoints.empty()) return nullptr;
  const auto& [id, location] = recovered_->checkpoints.back();
  const std::string context = "Cannot resume job '" + jobName_ +
                              "' from its latest completed checkpoint chk-" + std::to_string(id) +
                              ", recorded in '" + recordFile_.string() +
                              "' (high-availability cluster '" + settings_.clusterId + "'): ";
  const std::string remedy =
      " Remove '" + recordFile_.string() + "' to start the job without it.";
  std::shared_ptr<const CompletedCheckpoint> checkpoint;
  try {
    checkpoint = readCheckpoint(location);
  } catch (const ValidationException& error) {
    throw ValidationException(context + error.what() + remedy);
  }
  if (checkpoint->id != id) {
    throw ValidationException(context + "'" + location + "' holds checkpoint " +
                              std::to_string(checkpoint->id) + "." + remedy);
  }
  return checkpoint;
}

fs::path HighAvailabilityJob::defaultCheckpointsDirectory() const {
  return settings_.clusterDirectory() / "checkpoints";
}

void HighAvailabilityJob::configure(JobCheckpointing& checkpointing) {
  if (recovered_) checkpointing.recoveredCheckpoints = recovered_->checkpoints;
  std::shared_ptr<HighAvailabilityJob> self = shared_from_this();
  checkpointing.retainedCheckpointsHook =
      [self](const CheckpointCoordinator::RetainedCheckpoints& retained) {
        self->recordCheckpoints(retained);
      };
  checkpointing.jobEnded = [self](JobStatus status) { self->jobEnded(status); };
  // The record of a failed job stays, so must the checkpoints it names.
  CheckpointRetention& retention = checkpointing.configuration.retention;
  if (retention == CheckpointRetention::NO_EXTERNALIZED_CHECKPOINTS) {
    retention = CheckpointRetention::DELETE_ON_CANCELLATION;
  }
}

void HighAvailabilityJob::jobStarting(const std::string& jobId,
                                      const fs::path& checkpointsDirectory) {
  std::lock_guard lock(mutex_);
  current_.jobId = jobId;
  if (recovered_) {
    // What a killed process stored but did not record, or recorded as gone but did not
    // delete yet: never restored, so nothing of it may stay (its id is used again).
    std::set<std::string> listed;
    for (const auto& [id, location] : recovered_->checkpoints) {
      listed.insert(absoluteLocation(location));
    }
    std::error_code error;
    std::vector<fs::path> unlisted;
    for (fs::directory_iterator entries(checkpointsDirectory / jobId, error), end;
         !error && entries != end; entries.increment(error)) {
      const std::string name = entries->path().filename().string();
      if (!name.starts_with("chk-") || !parsePositive(std::string_view(name).substr(4))) continue;
      if (!listed.contains(absoluteLocation(entries->path().string()))) {
        unlisted.push_back(entries->path());
      }
    }
    for (const fs::path& path : unlisted) {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  }
  writeJobRecoveryRecord(recordFile_, current_);
}

void HighAvailabilityJob::recordCheckpoints(
    const CheckpointCoordinator::RetainedCheckpoints& retained) {
  std::lock_guard lock(mutex_);
  JobRecoveryRecord next = current_;
  next.checkpoints.clear();
  for (const auto& [id, location] : retained) {
    if (location.empty()) {
      throw InternalError("high availability: checkpoint " + std::to_string(id) +
                          " is kept in memory only");
    }
    next.checkpoints.emplace_back(id, absoluteLocation(location));
  }
  writeJobRecoveryRecord(recordFile_, next);
  current_ = std::move(next);
}

void HighAvailabilityJob::jobEnded(JobStatus status) {
  if (status == JobStatus::FINISHED || status == JobStatus::CANCELED) {
    std::lock_guard lock(mutex_);
    std::error_code error;
    if (fs::remove(recordFile_, error)) {
      try {
        fsyncDirectory(recordFile_.parent_path());
      } catch (const std::exception&) {
        // The removal stands. A crash before it is durable leaves the record as the end of
        // the job left it: without checkpoints (the coordinator recorded none before
        // discarding them), so the next start runs the job afresh, as after the removal.
      }
    }
  }
  releaseName();
}

void HighAvailabilityJob::releaseName() noexcept {
  ProcessRegistry& registry = processRegistry();
  std::lock_guard lock(registry.mutex);
  if (nameReleased_) return;
  nameReleased_ = true;
  auto running = registry.runningNames.find(nameKey_);
  if (running == registry.runningNames.end()) return;
  running->second.erase(ordinal_);
  if (running->second.empty()) registry.runningNames.erase(running);
}

}  // namespace eddy::runtime
