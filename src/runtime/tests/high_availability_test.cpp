// High availability in one process (runtime/high_availability.h): the options and their
// errors; the job record's round trip, its exact text, atomic replacement (a reader running
// beside a writer only ever sees whole records) and its errors for a foreign, corrupted,
// truncated or newer file; the cluster lock refusing a second holder in this process (a second
// open file description) and in another (fork), and released by the kernel when its holder is
// killed with SIGKILL; a job's record through its life (file name, second job of one name,
// removal at FINISHED/CANCELED, kept at FAILED, unrecorded checkpoint directories removed on
// recovery, a missing checkpoint named); the checkpoint coordinator's hook (before the job
// completes a checkpoint and before any discard; a failing hook fails the checkpoint); and
// num-retained counted across two "processes" with real checkpoint directories.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "eddy/clock.h"
#include "eddy/exceptions.h"
#include "runtime/checkpoint_coordinator.h"
#include "runtime/checkpoint_storage.h"
#include "runtime/high_availability.h"

namespace eddy::runtime {
namespace {

namespace fs = std::filesystem;
using Options = std::map<std::string, std::string>;

std::string readFile(const fs::path& path) {
  std::ifstream input(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(input), std::istreambuf_iterator<char>());
}

void writeFile(const fs::path& path, const std::string& bytes) {
  std::ofstream output(path, std::ios::binary | std::ios::trunc);
  output << bytes;
}

template <typename Function>
std::string errorOf(Function&& function) {
  try {
    function();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "no error";
}

class HighAvailabilityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("eddy-high-availability-test-" + std::to_string(device()));
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  /// HA options for a new cluster below root_ (each test its own: the process keeps the lock
  /// of every cluster it used).
  Options options(const std::string& clusterId) const {
    return {{"high-availability.type", "KUBERNETES"},
            {"high-availability.storageDir", "file://" + (root_ / "ha").string()},
            {"kubernetes.cluster-id", clusterId}};
  }

  fs::path root_;
};

JobRecoveryRecord sampleRecord() {
  JobRecoveryRecord record;
  record.jobName = "insert-into_default_catalog.default_database.results";
  record.jobId = "0123456789abcdef0123456789abcdef";
  record.checkpoints = {{12, "/data/checkpoints/0123/chk-12"},
                        {13, "/data/checkpoints/0123/chk-13"}};
  return record;
}

// ---- Options -------------------------------------------------------------------------

TEST_F(HighAvailabilityTest, TheTypeSelectsTheModeAndOnlyKnownTypesAreAccepted) {
  EXPECT_EQ(highAvailabilityModeOf({}), HighAvailabilityMode::NONE);
  EXPECT_EQ(highAvailabilityModeOf({{"high-availability.type", "none"}}),
            HighAvailabilityMode::NONE);
  EXPECT_EQ(highAvailabilityModeOf({{"high-availability.type", "standalone"}}),
            HighAvailabilityMode::NONE);
  EXPECT_EQ(highAvailabilityModeOf({{"high-availability.type", "zookeeper"}}),
            HighAvailabilityMode::ZOOKEEPER);
  EXPECT_EQ(highAvailabilityModeOf({{"high-availability.type", "Kubernetes"}}),
            HighAvailabilityMode::KUBERNETES);
  EXPECT_EQ(highAvailabilityModeOf(
                {{"high-availability",
                  "org.apache.flink.kubernetes.highavailability.KubernetesHaServicesFactory"}}),
            HighAvailabilityMode::KUBERNETES);
  // The new key wins over its older name.
  EXPECT_EQ(highAvailabilityModeOf(
                {{"high-availability.type", "NONE"}, {"high-availability", "zookeeper"}}),
            HighAvailabilityMode::NONE);
  EXPECT_EQ(errorOf([] { highAvailabilityModeOf({{"high-availability.type", "com.acme.MyHa"}}); }),
            "Could not use 'high-availability.type' = 'com.acme.MyHa': eddy runs the "
            "high-availability types NONE, ZOOKEEPER and KUBERNETES (or Kubernetes' factory class "
            "org.apache.flink.kubernetes.highavailability.KubernetesHaServicesFactory); it cannot "
            "load another factory class.");
}

TEST_F(HighAvailabilityTest, SettingsResolveTheClusterIdAsFlinkDoes) {
  EXPECT_FALSE(readHighAvailabilitySettings({{"high-availability.type", "NONE"}}));
  auto kubernetes =
      readHighAvailabilitySettings({{"high-availability.type", "kubernetes"},
                                    {"high-availability.storageDir", "file:///var/ha"},
                                    {"high-availability.cluster-id", "ignored"},
                                    {"kubernetes.cluster-id", "orders"}});
  ASSERT_TRUE(kubernetes);
  EXPECT_EQ(kubernetes->storageDirectory, fs::path("/var/ha"));
  EXPECT_EQ(kubernetes->clusterId, "orders");
  EXPECT_EQ(kubernetes->clusterIdKey, "kubernetes.cluster-id");
  EXPECT_EQ(kubernetes->clusterDirectory(), fs::path("/var/ha/orders"));
  // ZooKeeper's cluster id is high-availability.cluster-id; unset, Flink's "/default".
  auto zookeeper = readHighAvailabilitySettings({{"high-availability.type", "zookeeper"},
                                                 {"high-availability.storageDir", "/var/ha"},
                                                 {"kubernetes.cluster-id", "not-this"},
                                                 {"high-availability.cluster-id", "/team/a/"}});
  ASSERT_TRUE(zookeeper);
  EXPECT_EQ(zookeeper->clusterId, "team/a");
  auto byDefault = readHighAvailabilitySettings(
      {{"high-availability.type", "zookeeper"}, {"high-availability.storageDir", "relative/ha"}});
  ASSERT_TRUE(byDefault);
  EXPECT_EQ(byDefault->clusterDirectory(), fs::path("relative/ha/default"));
  EXPECT_EQ(byDefault->clusterIdKey, "high-availability.cluster-id");
}

TEST_F(HighAvailabilityTest, SettingsNameTheOptionThatIsMissingOrInvalid) {
  EXPECT_EQ(errorOf([] {
              readHighAvailabilitySettings({{"high-availability.type", "kubernetes"}});
            }),
            "Configuration is missing the mandatory parameter: high-availability.storageDir "
            "(high-availability.type is 'kubernetes'; eddy keeps the jobs' recovery metadata "
            "there).");
  EXPECT_EQ(errorOf([] {
              readHighAvailabilitySettings(
                  {{"high-availability.type", "kubernetes"},
                   {"high-availability.storageDir", "s3a://my-bucket/flink-ha/orders"}});
            }),
            "'high-availability.storageDir' = 's3a://my-bucket/flink-ha/orders': eddy keeps "
            "high-availability data on the local file system only (a path or a file:// URI), not "
            "on 's3a'.");
  EXPECT_EQ(errorOf([] {
              readHighAvailabilitySettings({{"high-availability.type", "kubernetes"},
                                            {"high-availability.storageDir", "/var/ha"},
                                            {"kubernetes.cluster-id", "a/../b"}});
            }),
            "'kubernetes.cluster-id' = 'a/../b': the cluster id names a directory below "
            "high-availability.storageDir; it must not be empty, contain control characters, or "
            "have an empty, '.' or '..' segment.");
}

// ---- The record ------------------------------------------------------------------------

TEST_F(HighAvailabilityTest, ARecordRoundTripsAndReadsAsDocumented) {
  JobRecoveryRecord record = sampleRecord();
  const std::string text = encodeJobRecoveryRecord(record);
  const std::string body =
      "EDDY-HA-JOB 1\n"
      "job-name insert-into_default_catalog.default_database.results\n"
      "job-id 0123456789abcdef0123456789abcdef\n"
      "checkpoint 12 /data/checkpoints/0123/chk-12\n"
      "checkpoint 13 /data/checkpoints/0123/chk-13\n";
  ASSERT_EQ(text.substr(0, body.size()), body);
  const std::string checksumLine = text.substr(body.size());
  ASSERT_EQ(checksumLine.size(), std::string("checksum \n").size() + 16);
  EXPECT_EQ(checksumLine.rfind("checksum ", 0), 0u);
  EXPECT_EQ(checksumLine.back(), '\n');

  JobRecoveryRecord decoded = decodeJobRecoveryRecord(text, "x.job");
  EXPECT_EQ(decoded.jobName, record.jobName);
  EXPECT_EQ(decoded.jobId, record.jobId);
  EXPECT_EQ(decoded.checkpoints, record.checkpoints);

  // Names and paths with line breaks, backslashes and spaces survive; no checkpoint yet.
  JobRecoveryRecord odd;
  odd.jobName = "two\nlines \\ and spaces";
  odd.jobId = record.jobId;
  decoded = decodeJobRecoveryRecord(encodeJobRecoveryRecord(odd), "x.job");
  EXPECT_EQ(decoded.jobName, odd.jobName);
  EXPECT_TRUE(decoded.checkpoints.empty());
  odd.checkpoints = {{1, "/a dir/with\\back\nslash/chk-1"}};
  EXPECT_EQ(decodeJobRecoveryRecord(encodeJobRecoveryRecord(odd), "x.job").checkpoints,
            odd.checkpoints);
}

TEST_F(HighAvailabilityTest, WritingReplacesTheRecordAtomically) {
  const fs::path file = root_ / "job.job";
  EXPECT_FALSE(readJobRecoveryRecord(file));  // none yet
  // What a process killed while writing left behind does not matter.
  writeFile(root_ / ".job.job.inprogress", "half a rec");
  JobRecoveryRecord record = sampleRecord();
  writeJobRecoveryRecord(file, record);
  EXPECT_EQ(readFile(file), encodeJobRecoveryRecord(record));
  EXPECT_FALSE(fs::exists(root_ / ".job.job.inprogress"));

  // A reader beside the writer sees one whole record or the next, never a mix or a part.
  std::atomic<bool> writing{true};
  std::thread writer([&] {
    JobRecoveryRecord next = record;
    for (int64_t id = 14; id < 214; ++id) {
      next.checkpoints = {{id, "/data/checkpoints/0123/chk-" + std::to_string(id) +
                                   std::string(static_cast<size_t>(id % 7) * 300, 'x')}};
      writeJobRecoveryRecord(file, next);
    }
    writing = false;
  });
  int reads = 0;
  int64_t lastSeen = 0;
  std::string failure;
  do {  // at least once, however fast the writer is
    try {
      std::optional<JobRecoveryRecord> seen = readJobRecoveryRecord(file);
      if (!seen) {
        failure = "the record vanished";
      } else if (seen->checkpoints.back().first < lastSeen) {
        failure = "an older record came back";
      } else {
        lastSeen = seen->checkpoints.back().first;
      }
    } catch (const std::exception& error) {
      failure = error.what();
    }
    ++reads;
  } while (writing && failure.empty());
  writer.join();
  EXPECT_EQ(failure, "");
  EXPECT_GT(reads, 0);
  ASSERT_TRUE(readJobRecoveryRecord(file));
  EXPECT_EQ(readJobRecoveryRecord(file)->checkpoints.back().first, 213);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(root_)) {
    names.push_back(entry.path().filename().string());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"job.job"}));
}

TEST_F(HighAvailabilityTest, AForeignCorruptedTruncatedOrNewerRecordIsRefusedByName) {
  const fs::path file = root_ / "job.job";
  const std::string name = file.string();
  writeFile(file, "checkpoint 3 /somewhere\n");
  EXPECT_EQ(errorOf([&] { readJobRecoveryRecord(file); }),
            "The file '" + name +
                "' is not an eddy high-availability job record (it does not start with "
                "'EDDY-HA-JOB').");

  std::string text = encodeJobRecoveryRecord(sampleRecord());
  std::string flipped = text;
  flipped[flipped.find("chk-13") + 4] = '7';  // chk-73
  writeFile(file, flipped);
  EXPECT_EQ(errorOf([&] { readJobRecoveryRecord(file); }),
            "The high-availability file '" + name +
                "' is corrupted or truncated: its checksum does not match.");

  writeFile(file, text.substr(0, text.find("checkpoint 13")));  // the end is missing
  EXPECT_EQ(errorOf([&] { readJobRecoveryRecord(file); }),
            "The high-availability file '" + name +
                "' is truncated or corrupted: it does not end with its checksum line.");
  writeFile(file, text.substr(0, text.size() - 5));
  EXPECT_EQ(errorOf([&] { readJobRecoveryRecord(file); }),
            "The high-availability file '" + name +
                "' is truncated or corrupted: it does not end with its checksum line.");

  // A later format, with a checksum that matches: refused by version.
  std::string newer = text.substr(0, text.rfind("checksum "));
  newer.replace(0, std::string("EDDY-HA-JOB 1").size(), "EDDY-HA-JOB 2");
  char checksum[17];
  std::snprintf(checksum, sizeof checksum, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(newer.data(), newer.size())));
  writeFile(file, newer + "checksum " + checksum + "\n");
  EXPECT_EQ(errorOf([&] { readJobRecoveryRecord(file); }),
            "The high-availability file '" + name +
                "' has format version 2, which this eddy cannot read (it reads version 1).");
}

// ---- The cluster lock -------------------------------------------------------------------

TEST_F(HighAvailabilityTest, ASecondHolderOfTheClusterLockIsRefusedUntilTheFirstReleasesIt) {
  const fs::path cluster = root_ / "ha" / "orders";
  auto first = std::make_unique<ClusterLock>(cluster, "orders", "kubernetes.cluster-id");
  EXPECT_EQ(first->lockFile(), cluster / ".lock");
  EXPECT_EQ(readFile(cluster / ".lock"), std::to_string(::getpid()) + "\n");
  // A second open file description of the same file, in this very process: refused.
  EXPECT_EQ(errorOf([&] { ClusterLock second(cluster, "orders", "kubernetes.cluster-id"); }),
            "Another eddy process (process " + std::to_string(::getpid()) +
                ") is the leader of high-availability cluster 'orders': it holds the lock '" +
                (cluster / ".lock").string() +
                "'. One process runs a cluster id at a time; stop that process, or give this one "
                "another cluster id (kubernetes.cluster-id).");
  first.reset();
  EXPECT_NO_THROW(ClusterLock again(cluster, "orders", "kubernetes.cluster-id"));
}

// In the children only async-signal-safe calls: open, flock, write, pause, _exit.
pid_t forkLocker(const fs::path& lockFile, int reportPipe, bool holdUntilKilled) {
  const std::string path = lockFile.string();
  pid_t child = ::fork();
  if (child != 0) return child;
  int descriptor = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
  if (descriptor < 0) ::_exit(2);
  if (::flock(descriptor, LOCK_EX | LOCK_NB) != 0) ::_exit(errno == EWOULDBLOCK ? 3 : 4);
  if (holdUntilKilled) {
    char locked = 'L';
    if (::write(reportPipe, &locked, 1) != 1) ::_exit(5);
    while (true) ::pause();
  }
  ::_exit(0);
}

int exitStatusOf(pid_t child) {
  int status = 0;
  if (::waitpid(child, &status, 0) != child) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST_F(HighAvailabilityTest, AnotherProcessIsRefusedAndAKilledHoldersLockIsReleased) {
  const fs::path cluster = root_ / "ha" / "orders";
  int pipeEnds[2];
  ASSERT_EQ(::pipe(pipeEnds), 0);
  {
    ClusterLock held(cluster, "orders", "kubernetes.cluster-id");
    EXPECT_EQ(exitStatusOf(forkLocker(held.lockFile(), pipeEnds[1], false)), 3);  // refused
  }
  EXPECT_EQ(exitStatusOf(forkLocker(cluster / ".lock", pipeEnds[1], false)), 0);  // free again

  // A child takes the lock and is killed with SIGKILL while it holds it: no cleanup runs in it,
  // and the kernel releases the lock with its last descriptor.
  pid_t holder = forkLocker(cluster / ".lock", pipeEnds[1], true);
  char locked = 0;
  ASSERT_EQ(::read(pipeEnds[0], &locked, 1), 1);
  EXPECT_EQ(locked, 'L');
  EXPECT_NE(errorOf([&] { ClusterLock refused(cluster, "orders", "kubernetes.cluster-id"); }),
            "no error");
  ASSERT_EQ(::kill(holder, SIGKILL), 0);
  EXPECT_EQ(exitStatusOf(holder), 128 + SIGKILL);
  EXPECT_NO_THROW(ClusterLock after(cluster, "orders", "kubernetes.cluster-id"));
  ::close(pipeEnds[0]);
  ::close(pipeEnds[1]);
}

// ---- A job's record through its life ------------------------------------------------------

TEST_F(HighAvailabilityTest, AJobsRecordIsWrittenAtItsStartKeptAtFailureAndRemovedAtItsEnd) {
  const Options ha = options("life");
  const fs::path cluster = root_ / "ha" / "life";
  auto job = HighAvailabilityJob::open(ha, "my job/1");
  ASSERT_TRUE(job);
  EXPECT_EQ(job->recordFile(), cluster / "my%20job%2F1.job");
  EXPECT_FALSE(job->recovered());
  EXPECT_EQ(job->readLatestCheckpoint(), nullptr);
  EXPECT_EQ(job->defaultCheckpointsDirectory(), cluster / "checkpoints");
  EXPECT_EQ(readFile(cluster / ".lock"), std::to_string(::getpid()) + "\n");

  // A second job of the same name while the first runs is the second.
  auto second = HighAvailabilityJob::open(ha, "my job/1");
  EXPECT_EQ(second->recordFile(), cluster / "my%20job%2F1~2.job");

  JobCheckpointing checkpointing;
  job->configure(checkpointing);
  EXPECT_EQ(checkpointing.configuration.retention, CheckpointRetention::DELETE_ON_CANCELLATION);
  job->jobStarting("00000000000000000000000000000001", root_ / "checkpoints");
  std::optional<JobRecoveryRecord> written = readJobRecoveryRecord(job->recordFile());
  ASSERT_TRUE(written);
  EXPECT_EQ(written->jobName, "my job/1");
  EXPECT_EQ(written->jobId, "00000000000000000000000000000001");
  EXPECT_TRUE(written->checkpoints.empty());
  checkpointing.retainedCheckpointsHook({{4, (root_ / "checkpoints/x/../1/chk-4").string()}});
  EXPECT_EQ(readJobRecoveryRecord(job->recordFile())->checkpoints,
            (CheckpointCoordinator::RetainedCheckpoints{
                {4, (root_ / "checkpoints/1/chk-4").string()}}));

  // FAILED keeps it; the next job of the name is the first again and finds it.
  checkpointing.jobEnded(JobStatus::FAILED);
  EXPECT_TRUE(fs::exists(job->recordFile()));
  auto again = HighAvailabilityJob::open(ha, "my job/1");
  EXPECT_EQ(again->recordFile(), job->recordFile());
  ASSERT_TRUE(again->recovered());
  EXPECT_EQ(again->recoveredJobId(), "00000000000000000000000000000001");
  EXPECT_EQ(again->latestCheckpointLocation(), (root_ / "checkpoints/1/chk-4").string());
  // FINISHED (and CANCELED) removes it.
  again->jobEnded(JobStatus::FINISHED);
  EXPECT_FALSE(fs::exists(job->recordFile()));
  second->jobStarting("00000000000000000000000000000002", root_ / "checkpoints");
  second->jobEnded(JobStatus::CANCELED);
  EXPECT_FALSE(fs::exists(second->recordFile()));
}

TEST_F(HighAvailabilityTest, ARecoveredJobNamesAMissingCheckpointAndDropsUnrecordedOnes) {
  const Options ha = options("recovered");
  const fs::path checkpoints = root_ / "checkpoints";
  const std::string jobId = "abcdefabcdefabcdefabcdefabcdef01";
  FileSystemCheckpointStorage storage(checkpoints, jobId);
  CompletedCheckpoint checkpoint;
  for (int64_t id : {5, 6, 7}) {
    checkpoint.id = id;
    storage.store(checkpoint);
  }
  fs::create_directories(checkpoints / jobId / "chk-8");  // incomplete: no _metadata
  fs::create_directories(checkpoints / jobId / "shared");  // not a checkpoint: stays
  {
    auto first = HighAvailabilityJob::open(ha, "job");
    first->jobStarting(jobId, checkpoints);
    first->recordCheckpoints({{6, storage.checkpointDirectory(6).string()}});
    first->jobEnded(JobStatus::FAILED);
  }

  auto job = HighAvailabilityJob::open(ha, "job");
  std::shared_ptr<const CompletedCheckpoint> latest = job->readLatestCheckpoint();
  ASSERT_TRUE(latest);
  EXPECT_EQ(latest->id, 6);
  JobCheckpointing checkpointing;
  job->configure(checkpointing);
  EXPECT_EQ(checkpointing.recoveredCheckpoints,
            (CheckpointCoordinator::RetainedCheckpoints{
                {6, storage.checkpointDirectory(6).string()}}));
  job->jobStarting(jobId, checkpoints);
  EXPECT_FALSE(fs::exists(storage.checkpointDirectory(5)));  // recorded as gone
  EXPECT_TRUE(fs::exists(storage.checkpointDirectory(6) / "_metadata"));
  EXPECT_FALSE(fs::exists(storage.checkpointDirectory(7)));  // stored, never recorded
  EXPECT_FALSE(fs::exists(storage.checkpointDirectory(8)));
  EXPECT_TRUE(fs::exists(checkpoints / jobId / "shared"));
  job->jobEnded(JobStatus::FAILED);

  // The recorded checkpoint is gone: the next start says which and where, and never starts
  // the job afresh.
  fs::remove_all(storage.checkpointDirectory(6));
  auto broken = HighAvailabilityJob::open(ha, "job");
  const std::string record = broken->recordFile().string();
  EXPECT_EQ(errorOf([&] { broken->readLatestCheckpoint(); }),
            "Cannot resume job 'job' from its latest completed checkpoint chk-6, recorded in '" +
                record + "' (high-availability cluster 'recovered'): Cannot find checkpoint or "
                "savepoint file/directory '" + storage.checkpointDirectory(6).string() +
                "'. Remove '" + record + "' to start the job without it.");
  broken->jobEnded(JobStatus::FAILED);

  // A corrupted record is refused by name when the job opens.
  std::string bytes = readFile(record);
  bytes[bytes.find("chk-6") + 4] = '9';
  writeFile(record, bytes);
  EXPECT_EQ(errorOf([&] { HighAvailabilityJob::open(ha, "job"); }),
            "The high-availability file '" + record +
                "' is corrupted or truncated: its checksum does not match.");
}

// ---- The coordinator's hook ----------------------------------------------------------------

/// Everything the job, the storage and the hook saw, in order.
struct EventLog {
  std::vector<std::string> events;
  bool failHook = false;
  bool jobEnded = false;
};

class LoggingJob : public CheckpointTarget {
 public:
  explicit LoggingJob(EventLog& log) : log_(log) {}
  bool triggerCheckpoint(int64_t, CheckpointOptions) override { return !log_.jobEnded; }
  bool completeCheckpoint(int64_t id) override {
    log_.events.push_back("complete " + std::to_string(id));
    return !log_.jobEnded;
  }
  void abortCheckpoint(int64_t id) override {
    log_.events.push_back("abort " + std::to_string(id));
  }
  void failJob(const std::string& message) override { log_.events.push_back("fail " + message); }

 private:
  EventLog& log_;
};

class LoggingStorage : public CheckpointStorage {
 public:
  explicit LoggingStorage(EventLog& log) : log_(log) {}
  std::string store(const CompletedCheckpoint& checkpoint) override {
    return "chk-" + std::to_string(checkpoint.id);
  }
  void discard(int64_t id) override { log_.events.push_back("discard " + std::to_string(id)); }

 private:
  EventLog& log_;
};

CheckpointCoordinator::RetainedCheckpointsHook loggingHook(EventLog& log) {
  return [&log](const CheckpointCoordinator::RetainedCheckpoints& retained) {
    std::string kept = "kept";
    for (const auto& [id, location] : retained) kept += " " + location;
    log.events.push_back(kept);
    if (log.failHook) throw std::runtime_error("disk full");
  };
}

std::shared_ptr<const CompletedCheckpoint> acknowledgedCheckpoint(int64_t id) {
  auto checkpoint = std::make_shared<CompletedCheckpoint>();
  checkpoint->id = id;
  return checkpoint;
}

TEST_F(HighAvailabilityTest, TheHookHearsOfEveryCheckpointBeforeTheJobAndBeforeDiscards) {
  EventLog log;
  LoggingJob job(log);
  ManualClock clock(0);
  CheckpointCoordinatorConfiguration configuration;
  configuration.intervalMillis = 100;
  configuration.numRetained = 2;
  configuration.tolerableFailedCheckpoints = 1;  // the failing hook below fails one
  CheckpointCoordinator coordinator(configuration, job, std::make_unique<LoggingStorage>(log),
                                    clock, 10);
  coordinator.setRetainedCheckpointsHook(loggingHook(log));
  for (int64_t id = 10; id <= 12; ++id) {
    clock.set((id - 9) * 100);
    coordinator.runDueWork();  // triggers id
    coordinator.checkpointAcknowledged(acknowledgedCheckpoint(id));
    coordinator.runDueWork();
  }
  EXPECT_EQ(log.events, (std::vector<std::string>{"kept chk-10", "complete 10",
                                                  "kept chk-10 chk-11", "complete 11",
                                                  "kept chk-11 chk-12", "complete 12",
                                                  "discard 10"}));
  // A hook that fails fails that checkpoint: it is discarded and aborted, the record is put
  // back, and what was kept stays kept.
  log.events.clear();
  log.failHook = true;
  clock.set(400);
  coordinator.runDueWork();
  coordinator.checkpointAcknowledged(acknowledgedCheckpoint(13));
  coordinator.runDueWork();
  EXPECT_EQ(log.events, (std::vector<std::string>{"kept chk-12 chk-13", "kept chk-11 chk-12",
                                                  "discard 13", "abort 13"}));
  EXPECT_EQ(coordinator.retainedCheckpointIds(), (std::vector<int64_t>{11, 12}));
  // At the end, the hook hears that nothing is kept before anything is discarded.
  log.events.clear();
  log.failHook = false;
  coordinator.shutdown(JobStatus::FINISHED);
  EXPECT_EQ(log.events, (std::vector<std::string>{"kept", "discard 11", "discard 12"}));
}

TEST_F(HighAvailabilityTest, NumRetainedCountsOverTwoProcessesOfTheJob) {
  const Options ha = options("retained");
  const fs::path checkpoints = root_ / "checkpoints";
  EventLog log;
  LoggingJob target(log);
  ManualClock clock(0);
  CheckpointCoordinatorConfiguration configuration;
  configuration.intervalMillis = 100;
  configuration.numRetained = 2;
  const std::string jobId = "0000000000000000000000000000000a";

  // The first process completes chk-1 and chk-2, then dies (its coordinator just stops).
  {
    auto ha1 = HighAvailabilityJob::open(ha, "retained job");
    JobCheckpointing checkpointing;
    checkpointing.configuration = configuration;
    ha1->configure(checkpointing);
    ha1->jobStarting(jobId, checkpoints);
    CheckpointCoordinator coordinator(
        checkpointing.configuration, target,
        std::make_unique<FileSystemCheckpointStorage>(checkpoints, jobId), clock, 1);
    coordinator.setRetainedCheckpointsHook(checkpointing.retainedCheckpointsHook);
    for (int64_t id = 1; id <= 2; ++id) {
      clock.set(id * 100);
      coordinator.runDueWork();
      coordinator.checkpointAcknowledged(acknowledgedCheckpoint(id));
      coordinator.runDueWork();
    }
  }  // no shutdown(): what a kill leaves
  // The second process adopts both and completes chk-3: chk-1 goes, as num-retained says.
  auto ha2 = HighAvailabilityJob::open(ha, "retained job");
  std::shared_ptr<const CompletedCheckpoint> latest = ha2->readLatestCheckpoint();
  ASSERT_TRUE(latest);
  EXPECT_EQ(latest->id, 2);
  JobCheckpointing checkpointing;
  checkpointing.configuration = configuration;
  ha2->configure(checkpointing);
  ha2->jobStarting(ha2->recoveredJobId(), checkpoints);
  CheckpointCoordinator coordinator(
      checkpointing.configuration, target,
      std::make_unique<FileSystemCheckpointStorage>(checkpoints, jobId), clock, latest->id + 1);
  coordinator.adoptRetainedCheckpoints(checkpointing.recoveredCheckpoints, latest);
  coordinator.setRetainedCheckpointsHook(checkpointing.retainedCheckpointsHook);
  EXPECT_EQ(coordinator.retainedCheckpointIds(), (std::vector<int64_t>{1, 2}));
  clock.set(300);
  coordinator.runDueWork();
  coordinator.checkpointAcknowledged(acknowledgedCheckpoint(3));
  coordinator.runDueWork();
  EXPECT_EQ(coordinator.retainedCheckpointIds(), (std::vector<int64_t>{2, 3}));
  EXPECT_FALSE(fs::exists(checkpoints / jobId / "chk-1"));
  EXPECT_TRUE(fs::exists(checkpoints / jobId / "chk-2" / "_metadata"));
  EXPECT_TRUE(fs::exists(checkpoints / jobId / "chk-3" / "_metadata"));
  std::optional<JobRecoveryRecord> record = readJobRecoveryRecord(ha2->recordFile());
  ASSERT_TRUE(record);
  EXPECT_EQ(record->jobId, jobId);
  EXPECT_EQ(record->checkpoints,
            (CheckpointCoordinator::RetainedCheckpoints{
                {2, fs::absolute(checkpoints / jobId / "chk-2").lexically_normal().string()},
                {3, fs::absolute(checkpoints / jobId / "chk-3").lexically_normal().string()}}));
  // The job finishes: the record names nothing before the checkpoints go, and is gone after.
  coordinator.shutdown(JobStatus::FINISHED);
  EXPECT_EQ(readJobRecoveryRecord(ha2->recordFile())->checkpoints.size(), 0u);
  EXPECT_FALSE(fs::exists(checkpoints / jobId));
  checkpointing.jobEnded(JobStatus::FINISHED);
  EXPECT_FALSE(fs::exists(ha2->recordFile()));
}

}  // namespace
}  // namespace eddy::runtime
