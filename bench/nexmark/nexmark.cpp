// The Nexmark driver: runs the Nexmark queries (q0.sql ... q22.sql beside this file) over the
// nexmark connector's generated events into blackhole sinks, through the public Table API in
// STREAMING mode, and prints one line per query and parallelism: wall-clock seconds, events/s,
// the process's CPU seconds, events per CPU-second (the "per core" figure Nexmark results are
// compared by, the generator included) and peak resident memory. It is a plain driver that
// prints, not a Google Benchmark: each run is long (seconds to minutes) and run once.
//
// Every job is one .sql file: ddl.sql (the `datagen` table and the person/auction/bid views,
// with ${NEXMARK_EVENTS_NUM} and ${NEXMARK_FIRST_EVENT_RATE} replaced by --events and --rate;
// ${NEXMARK_SIDE_INPUT} by the path of q13's side-input file, which the driver writes;
// ${NEXMARK_OUTPUT_DIR} by a temporary directory for q10's files, emptied after each run),
// then the query file's statements; the last statement is the INSERT that is timed, the ones
// before it (the sink table, views) are not. A query file whose first line is
// `-- not run: <reason>` is skipped with that reason. Two generator-only jobs run first,
// generator_min.sql (the event type alone) and generator_bid.sql (every bid field), so that a
// query's figures can be compared with what producing its input costs.
//
// Each job runs in a child process (fork, then the job, then exit) by default, so that the
// peak memory is that job's own (the child's ru_maxrss), a crash or a CHECK failure in one
// query is reported and the driver goes on with the next, and --timeout can stop a job. The
// parent starts no threads and creates no eddy object before forking. --in-process runs the
// jobs in the driver's own process instead (for perf or a debugger); the peak memory is then
// the whole process's peak so far, which only grows from job to job.
//
// Usage: nexmark [--queries q0,q1,..|all] [--events N] [--rate R] [--parallelism 1,2]
//                [--timeout S] [--no-generator] [--in-process] [--markdown] [--count-rows]
//                [--sql-dir DIR] [--set KEY=VALUE ...] [--checkpoint-interval 0,1000]
//                [--repeat N]
//   --queries      the queries to run, by file name without .sql (q0 ... q22, q5_window_topn,
//                  generator_min, generator_bid) or all (default: q0 ... q22)
//   --events N     events.num, the events of each run (default 10,000,000)
//   --rate R       first-event.rate, events per second of event time (default 10,000,000), so
//                  a run spans N / R seconds of event time
//   --parallelism  parallelism.default of each run, a list (default 1,2)
//   --timeout S    stop a job after S seconds of wall-clock time (default 0: never)
//   --no-generator skip the two generator-only jobs
//   --in-process   run the jobs in this process rather than one child process each
//   --markdown     also print the results as a Markdown table at the end
//   --count-rows   instead of timing the INSERT, run its SELECT and print how many rows of
//                  each kind (+I, -U, +U, -D) it produces: a check that a query does what it
//                  should, for small --events
//   --sql-dir DIR  where ddl.sql and the query files are (default: this source directory)
//   --set KEY=VALUE  a configuration option for every job (`SET 'KEY' = 'VALUE'` before the
//                  DDL), repeatable: e.g. --set table.exec.mini-batch.enabled=true
//   --checkpoint-interval  execution.checkpointing.interval of each run in milliseconds, a
//                  list (default 0: no checkpoints); a run with checkpoints writes them to a
//                  temporary state.checkpoints.dir (removed after the run) and reports how many
//                  completed, their end-to-end duration (mean and max), their size (mean) and
//                  the longest pause a snapshot caused in one task (its sync duration), and the
//                  --markdown table the throughput relative to the run without checkpoints
//   --repeat N     run each query, parallelism and interval N times, the intervals alternating
//                  (none, 1 s, none, 1 s, ...), so that a noisy machine affects both alike
// The exit status is 1 when a runnable query failed, 2 for bad arguments or an unreadable
// file, else 0.
#include <eddy/eddy.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#ifndef EDDY_NEXMARK_SQL_DIR
#define EDDY_NEXMARK_SQL_DIR "bench/nexmark"
#endif

namespace {

constexpr int64_t kDefaultEvents = 10'000'000;
constexpr int64_t kDefaultRate = 10'000'000;
constexpr int kLastQuery = 22;
const char* const kGeneratorJobs[] = {"generator_min", "generator_bid"};
constexpr const char* kNotRunMarker = "-- not run:";

struct Options {
  std::vector<std::string> queries;
  int64_t events = kDefaultEvents;
  int64_t rate = kDefaultRate;
  std::vector<int> parallelisms = {1, 2};
  int timeoutSeconds = 0;
  bool generator = true;
  bool inProcess = false;
  bool markdown = false;
  bool countRows = false;
  std::string sqlDirectory = EDDY_NEXMARK_SQL_DIR;
  std::vector<std::pair<std::string, std::string>> settings;  // --set
  std::vector<int64_t> checkpointIntervals = {0};             // ms; 0: none
  int repeat = 1;
};

// ---------------------------------------------------------------------------------------------
// SQL files

std::optional<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Cuts a script into statements at the semicolons outside string literals, quoted identifiers
// and comments; comments are dropped, empty statements skipped.
std::vector<std::string> splitStatements(const std::string& script) {
  std::vector<std::string> statements;
  std::string current;
  auto flush = [&] {
    size_t first = current.find_first_not_of(" \t\r\n");
    if (first != std::string::npos) {
      size_t last = current.find_last_not_of(" \t\r\n");
      statements.push_back(current.substr(first, last - first + 1));
    }
    current.clear();
  };
  size_t i = 0;
  while (i < script.size()) {
    char c = script[i];
    if (c == '-' && i + 1 < script.size() && script[i + 1] == '-') {
      while (i < script.size() && script[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < script.size() && script[i + 1] == '*') {
      size_t end = script.find("*/", i + 2);
      i = end == std::string::npos ? script.size() : end + 2;
      current += ' ';
    } else if (c == '\'' || c == '`' || c == '"') {
      // A quoted run; a doubled quote inside it stands for the quote itself and is copied
      // as two quotes, which the loop handles by closing and reopening.
      size_t end = script.find(c, i + 1);
      if (end == std::string::npos) end = script.size() - 1;
      current.append(script, i, end - i + 1);
      i = end + 1;
    } else if (c == ';') {
      flush();
      ++i;
    } else {
      current += c;
      ++i;
    }
  }
  flush();
  return statements;
}

// Replaces the driver's ${...} placeholders; any other ${ is an error (a typo would otherwise
// reach the connector as an option value).
// q13's side input: 10 000 lines `key,value` (keys 0..9999, value `side-<key>`), written to the
// temporary directory once per run of the driver; its path.
std::string sideInputPath() {
  static const std::string path = [] {
    std::string file = (std::filesystem::temp_directory_path() /
                        ("eddy-nexmark-side-input-" + std::to_string(getpid()) + ".csv"))
                           .string();
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    for (int key = 0; key < 10000; ++key) out << key << ",side-" << key << "\n";
    if (!out) throw std::runtime_error("cannot write " + file);
    return file;
  }();
  return path;
}

// The directory of q10's files: under the temporary directory, removed after each run.
std::string outputDirectory() {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("eddy-nexmark-output-" + std::to_string(getpid())))
          .string();
  return path;
}

// state.checkpoints.dir of the runs with checkpoints, removed after each run.
std::string checkpointDirectory() {
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("eddy-nexmark-checkpoints-" + std::to_string(getpid())))
                                      .string();
  return path;
}

std::string substitutePlaceholders(std::string text, const Options& options) {
  const std::pair<std::string, std::string> values[] = {
      {"${NEXMARK_EVENTS_NUM}", std::to_string(options.events)},
      {"${NEXMARK_FIRST_EVENT_RATE}", std::to_string(options.rate)},
      {"${NEXMARK_SIDE_INPUT}",
       text.find("${NEXMARK_SIDE_INPUT}") == std::string::npos ? "" : sideInputPath()},
      {"${NEXMARK_OUTPUT_DIR}", outputDirectory()},
  };
  for (const auto& [name, value] : values) {
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at)) {
      text.replace(at, name.size(), value);
      at += value.size();
    }
  }
  // Placeholders in comments are fine: only statements are checked.
  for (const std::string& statement : splitStatements(text)) {
    size_t at = statement.find("${");
    if (at != std::string::npos) {
      throw std::runtime_error("unknown placeholder " +
                               statement.substr(at, statement.find('}', at) - at + 1));
    }
  }
  return text;
}

// One job: its statements (the last one is timed) or the reason it is not run.
struct QueryFile {
  std::string name;
  std::string notRunReason;  // empty when the query runs
  std::vector<std::string> statements;
};

// The reason of a `-- not run: <reason>` header: the marker's line and the comment lines that
// continue it, up to an empty comment line or the first line that is not a comment.
std::string notRunReason(const std::string& text) {
  if (text.rfind(kNotRunMarker, 0) != 0) return "";
  std::istringstream lines(text);
  std::string line;
  std::string reason;
  bool first = true;
  while (std::getline(lines, line)) {
    if (line.rfind("--", 0) != 0) break;
    std::string content = line.substr(first ? std::strlen(kNotRunMarker) : 2);
    first = false;
    size_t start = content.find_first_not_of(' ');
    if (start == std::string::npos) break;
    if (!reason.empty()) reason += ' ';
    reason += content.substr(start);
  }
  return reason;
}

QueryFile loadQuery(const Options& options, const std::string& name) {
  std::string path = options.sqlDirectory + "/" + name + ".sql";
  std::optional<std::string> text = readFile(path);
  if (!text) throw std::runtime_error("cannot read " + path);
  QueryFile query{name, notRunReason(*text), {}};
  query.statements = splitStatements(substitutePlaceholders(*text, options));
  if (query.statements.empty()) throw std::runtime_error(path + " holds no statement");
  return query;
}

// ---------------------------------------------------------------------------------------------
// Running one job

double processCpuSeconds() {
  timespec time;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time);
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_nsec) / 1e9;
}

long peakRssKibibytes() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

struct Measurement {
  bool ok = false;
  std::string error;  // when !ok
  double wallSeconds = 0;
  double cpuSeconds = 0;
  long peakRssKibibytes = 0;
  int64_t lateRecordsDropped = 0;
  // With --count-rows: the rows of each RowKind (+I, -U, +U, -D) of the query's result.
  int64_t rowsOfKind[4] = {0, 0, 0, 0};
  // With checkpoints (JobClient::getCheckpointStatistics at the job's end).
  int64_t checkpointsCompleted = 0;
  int64_t checkpointsFailed = 0;
  int64_t checkpointMeanMillis = 0;
  int64_t checkpointMaxMillis = 0;
  int64_t checkpointMeanBytes = 0;
  int64_t longestSyncMicros = 0;
};

// The query of an `INSERT INTO <table> <query>` statement.
std::string selectOfInsert(const std::string& insert) {
  std::istringstream words(insert);
  std::string insertWord, intoWord, table;
  words >> insertWord >> intoWord >> table;
  auto upper = [](std::string word) {
    for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return word;
  };
  if (upper(insertWord) != "INSERT" || upper(intoWord) != "INTO" || table.empty()) {
    throw std::runtime_error("the last statement is not INSERT INTO <table> <query>");
  }
  std::string rest;
  std::getline(words, rest, '\0');
  return rest;
}

// Nexmark q14's user-defined function: how often `c` occurs in `text`.
int64_t countChar(const std::string& text, const std::string& c) {
  if (c.empty()) return 0;
  int64_t count = 0;
  for (size_t at = text.find(c); at != std::string::npos; at = text.find(c, at + c.size())) ++count;
  return count;
}

// Runs the DDL and the query's statements in a fresh STREAMING TableEnvironment and times the
// last one (an INSERT, awaited to its end). Never throws: an error is the measurement's.
Measurement runJob(const std::vector<std::string>& ddl, const QueryFile& query, int parallelism,
                   bool countRows, int64_t checkpointIntervalMillis) {
  Measurement measurement;
  try {
    auto tableEnv = eddy::TableEnvironment::create(eddy::EnvironmentSettings::inStreamingMode());
    tableEnv->executeSql("SET 'parallelism.default' = '" + std::to_string(parallelism) + "'");
    if (checkpointIntervalMillis > 0) {
      tableEnv->executeSql("SET 'execution.checkpointing.interval' = '" +
                           std::to_string(checkpointIntervalMillis) + " ms'");
      tableEnv->executeSql("SET 'state.checkpoints.dir' = 'file://" + checkpointDirectory() + "'");
    }
    tableEnv->createTemporarySystemFunction("count_char", eddy::scalarFunction(countChar));
    for (const std::string& statement : ddl) tableEnv->executeSql(statement);
    for (size_t i = 0; i + 1 < query.statements.size(); ++i) {
      tableEnv->executeSql(query.statements[i]);
    }
    double cpuStart = processCpuSeconds();
    auto start = std::chrono::steady_clock::now();
    eddy::TableResult result = tableEnv->executeSql(
        countRows ? selectOfInsert(query.statements.back()) : query.statements.back());
    if (countRows) {
      while (std::optional<eddy::Row> row = result.next()) {
        ++measurement.rowsOfKind[static_cast<int>(row->getKind())];
      }
    } else {
      result.await();
    }
    measurement.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    measurement.cpuSeconds = processCpuSeconds() - cpuStart;
    measurement.lateRecordsDropped = result.getNumLateRecordsDropped();
    if (const eddy::JobClient* client = result.getJobClient()) {
      const eddy::runtime::CheckpointStatistics statistics = client->getCheckpointStatistics();
      measurement.checkpointsCompleted = statistics.numCompleted;
      measurement.checkpointsFailed = statistics.numFailed;
      measurement.checkpointMeanMillis = statistics.endToEndDurationMillis.average();
      measurement.checkpointMaxMillis = statistics.endToEndDurationMillis.max;
      measurement.checkpointMeanBytes = statistics.stateSizeBytes.average();
      measurement.longestSyncMicros = statistics.longestSyncDurationMicros;
    }
    measurement.ok = true;
  } catch (const std::exception& error) {
    measurement.error = error.what();
  }
  measurement.peakRssKibibytes = peakRssKibibytes();
  return measurement;
}

// The child's report on its pipe: "ok <wall> <cpu> <late> <+I> <-U> <+U> <-D> <checkpoints
// completed> <failed> <mean ms> <max ms> <mean bytes> <longest sync us>" or "error <message>".
std::string encode(const Measurement& measurement) {
  if (!measurement.ok) return "error " + measurement.error;
  char line[512];
  std::snprintf(line, sizeof line, "ok %.9f %.9f %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld",
                measurement.wallSeconds, measurement.cpuSeconds,
                static_cast<long long>(measurement.lateRecordsDropped),
                static_cast<long long>(measurement.rowsOfKind[0]),
                static_cast<long long>(measurement.rowsOfKind[1]),
                static_cast<long long>(measurement.rowsOfKind[2]),
                static_cast<long long>(measurement.rowsOfKind[3]),
                static_cast<long long>(measurement.checkpointsCompleted),
                static_cast<long long>(measurement.checkpointsFailed),
                static_cast<long long>(measurement.checkpointMeanMillis),
                static_cast<long long>(measurement.checkpointMaxMillis),
                static_cast<long long>(measurement.checkpointMeanBytes),
                static_cast<long long>(measurement.longestSyncMicros));
  return line;
}

Measurement decode(const std::string& report) {
  Measurement measurement;
  if (report.rfind("ok ", 0) == 0) {
    long long late = 0;
    long long kinds[4] = {0, 0, 0, 0};
    long long checkpoints[6] = {0, 0, 0, 0, 0, 0};
    measurement.ok =
        std::sscanf(report.c_str() + 3, "%lf %lf %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld",
                    &measurement.wallSeconds, &measurement.cpuSeconds, &late, &kinds[0], &kinds[1],
                    &kinds[2], &kinds[3], &checkpoints[0], &checkpoints[1], &checkpoints[2],
                    &checkpoints[3], &checkpoints[4], &checkpoints[5]) == 13;
    measurement.lateRecordsDropped = late;
    for (int kind = 0; kind < 4; ++kind) measurement.rowsOfKind[kind] = kinds[kind];
    measurement.checkpointsCompleted = checkpoints[0];
    measurement.checkpointsFailed = checkpoints[1];
    measurement.checkpointMeanMillis = checkpoints[2];
    measurement.checkpointMaxMillis = checkpoints[3];
    measurement.checkpointMeanBytes = checkpoints[4];
    measurement.longestSyncMicros = checkpoints[5];
    if (!measurement.ok) measurement.error = "unreadable report from the job: " + report;
  } else if (report.rfind("error ", 0) == 0) {
    measurement.error = report.substr(6);
  } else {
    measurement.error = "the job reported nothing";
  }
  return measurement;
}

void writeAll(int fd, const std::string& data) {
  size_t written = 0;
  while (written < data.size()) {
    ssize_t n = write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    written += static_cast<size_t>(n);
  }
}

// Runs the job in a child process and waits for it (at most timeoutSeconds, when positive).
// The peak memory is the child's own, from wait4.
Measurement runJobInChild(const std::vector<std::string>& ddl, const QueryFile& query,
                          int parallelism, bool countRows, int64_t checkpointIntervalMillis,
                          int timeoutSeconds) {
  int fds[2];
  if (pipe(fds) != 0) return Measurement{false, std::string("pipe: ") + std::strerror(errno)};
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return Measurement{false, std::string("fork: ") + std::strerror(errno)};
  }
  if (child == 0) {
    close(fds[0]);
    writeAll(fds[1],
             encode(runJob(ddl, query, parallelism, countRows, checkpointIntervalMillis)));
    close(fds[1]);
    // _exit: no static destructors or atexit handlers racing the job's threads, if any are left.
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(0);
  }
  close(fds[1]);
  std::string report;
  bool timedOut = false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  char buffer[4096];
  while (true) {
    int waitMillis = -1;
    if (timeoutSeconds > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
      if (left <= 0) {
        timedOut = true;
        break;
      }
      waitMillis = static_cast<int>(std::min<int64_t>(left, 60'000));
    }
    pollfd readable{fds[0], POLLIN, 0};
    int ready = poll(&readable, 1, waitMillis);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // re-check the deadline
    ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: the child wrote its report (or died)
    report.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timedOut) kill(child, SIGKILL);
  int status = 0;
  rusage usage{};
  while (wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  Measurement measurement = decode(report);
  measurement.peakRssKibibytes = usage.ru_maxrss;
  if (timedOut) {
    measurement = Measurement{false, "timed out after " + std::to_string(timeoutSeconds) + " s", 0,
                              0, usage.ru_maxrss};
  } else if (WIFSIGNALED(status)) {
    measurement.ok = false;
    measurement.error = std::string("crashed: signal ") + std::to_string(WTERMSIG(status)) + " (" +
                        strsignal(WTERMSIG(status)) + ")" +
                        (report.empty() ? "" : "; reported: " + report);
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    measurement.ok = false;
    measurement.error = "exited with status " + std::to_string(WEXITSTATUS(status));
  }
  return measurement;
}

// ---------------------------------------------------------------------------------------------
// Reporting

struct ResultRow {
  std::string query;
  int parallelism;
  int64_t checkpointIntervalMillis;
  Measurement measurement;
};

// Errors are printed on one line: newlines inside them become spaces.
std::string oneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

void printHeader(bool checkpoints) {
  std::printf("%-14s %3s %11s %9s %12s %9s %12s %9s %6s", "query", "par", "events", "wall s",
              "K events/s", "CPU s", "K ev/CPU-s", "peak MiB", "late");
  if (checkpoints) {
    std::printf(" %7s %4s %9s %9s %9s %9s", "ckpt ms", "cps", "cp avg ms", "cp max ms", "cp KiB",
                "pause ms");
  }
  std::printf("\n");
}

// The checkpoint columns of a run (blank without checkpoints).
void printCheckpointColumns(const ResultRow& row) {
  const Measurement& m = row.measurement;
  if (row.checkpointIntervalMillis <= 0) {
    std::printf(" %7s", "none");
    return;
  }
  std::printf(" %7lld %4lld %9lld %9lld %9.1f %9.3f", static_cast<long long>(row.checkpointIntervalMillis),
              static_cast<long long>(m.checkpointsCompleted),
              static_cast<long long>(m.checkpointMeanMillis),
              static_cast<long long>(m.checkpointMaxMillis),
              static_cast<double>(m.checkpointMeanBytes) / 1024.0,
              static_cast<double>(m.longestSyncMicros) / 1000.0);
  if (m.checkpointsFailed > 0) {
    std::printf(" (%lld failed)", static_cast<long long>(m.checkpointsFailed));
  }
}

void printRow(const ResultRow& row, int64_t events, bool countRows, bool checkpoints) {
  const Measurement& m = row.measurement;
  if (!m.ok) {
    std::printf("%-14s %3d %11lld FAILED: %s\n", row.query.c_str(), row.parallelism,
                static_cast<long long>(events), oneLine(m.error).c_str());
  } else if (countRows) {
    std::printf("%-14s %3d %11lld rows: +I %lld, -U %lld, +U %lld, -D %lld; late %lld\n",
                row.query.c_str(), row.parallelism, static_cast<long long>(events),
                static_cast<long long>(m.rowsOfKind[0]), static_cast<long long>(m.rowsOfKind[1]),
                static_cast<long long>(m.rowsOfKind[2]), static_cast<long long>(m.rowsOfKind[3]),
                static_cast<long long>(m.lateRecordsDropped));
  } else {
    std::printf("%-14s %3d %11lld %9.3f %12.1f %9.3f %12.1f %9.1f %6lld", row.query.c_str(),
                row.parallelism, static_cast<long long>(events), m.wallSeconds,
                static_cast<double>(events) / m.wallSeconds / 1e3, m.cpuSeconds,
                static_cast<double>(events) / m.cpuSeconds / 1e3,
                static_cast<double>(m.peakRssKibibytes) / 1024.0,
                static_cast<long long>(m.lateRecordsDropped));
    if (checkpoints) printCheckpointColumns(row);
    std::printf("\n");
  }
  std::fflush(stdout);
}

// Per query and parallelism, the mean throughput of the runs of each checkpoint interval and
// its ratio to the runs without checkpoints; the checkpoints' figures over the runs.
void printCheckpointMarkdown(const std::vector<ResultRow>& rows, int64_t events) {
  std::printf(
      "\n| query | p | checkpoints | runs | mean K events/s | vs none | completed | mean / max "
      "duration ms | mean size KiB | longest pause ms |\n"
      "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
  struct Key {
    std::string query;
    int parallelism;
    int64_t interval;
    bool operator==(const Key&) const = default;
  };
  std::vector<Key> keys;
  for (const ResultRow& row : rows) {
    Key key{row.query, row.parallelism, row.checkpointIntervalMillis};
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  auto meanThroughput = [&](const Key& key, int& runs) {
    double sum = 0;
    runs = 0;
    for (const ResultRow& row : rows) {
      if (Key{row.query, row.parallelism, row.checkpointIntervalMillis} == key &&
          row.measurement.ok) {
        sum += static_cast<double>(events) / row.measurement.wallSeconds;
        ++runs;
      }
    }
    return runs == 0 ? 0.0 : sum / runs;
  };
  for (const Key& key : keys) {
    int runs = 0;
    const double throughput = meanThroughput(key, runs);
    int baselineRuns = 0;
    const double baseline = meanThroughput(Key{key.query, key.parallelism, 0}, baselineRuns);
    int64_t completed = 0, maxMillis = 0, longestPause = 0;
    double meanMillis = 0, meanBytes = 0;
    for (const ResultRow& row : rows) {
      if (!(Key{row.query, row.parallelism, row.checkpointIntervalMillis} == key) ||
          !row.measurement.ok) {
        continue;
      }
      const Measurement& m = row.measurement;
      completed += m.checkpointsCompleted;
      meanMillis += static_cast<double>(m.checkpointMeanMillis * m.checkpointsCompleted);
      meanBytes += static_cast<double>(m.checkpointMeanBytes * m.checkpointsCompleted);
      maxMillis = std::max(maxMillis, m.checkpointMaxMillis);
      longestPause = std::max(longestPause, m.longestSyncMicros);
    }
    if (runs == 0) {
      std::printf("| %s | %d | %s | 0 | failed | | | | | |\n", key.query.c_str(), key.parallelism,
                  key.interval > 0 ? (std::to_string(key.interval) + " ms").c_str() : "none");
      continue;
    }
    char ratio[32] = "";
    if (baselineRuns > 0) std::snprintf(ratio, sizeof ratio, "%.3f", throughput / baseline);
    if (key.interval <= 0) {
      std::printf("| %s | %d | none | %d | %.0f | | | | | |\n", key.query.c_str(), key.parallelism,
                  runs, throughput / 1e3);
      continue;
    }
    std::printf("| %s | %d | every %lld ms | %d | %.0f | %s | %lld | %.0f / %lld | %.0f | %.1f |\n",
                key.query.c_str(), key.parallelism, static_cast<long long>(key.interval), runs,
                throughput / 1e3, ratio, static_cast<long long>(completed),
                completed > 0 ? meanMillis / static_cast<double>(completed) : 0.0,
                static_cast<long long>(maxMillis),
                completed > 0 ? meanBytes / static_cast<double>(completed) / 1024.0 : 0.0,
                static_cast<double>(longestPause) / 1000.0);
  }
}

void printMarkdown(const std::vector<ResultRow>& rows, int64_t events) {
  std::printf(
      "\n| query | p | wall s | K events/s | CPU s | K events/CPU-s | peak RSS MiB |\n"
      "|---|---:|---:|---:|---:|---:|---:|\n");
  for (const ResultRow& row : rows) {
    const Measurement& m = row.measurement;
    if (!m.ok) {
      std::printf("| %s | %d | failed | | | | |\n", row.query.c_str(), row.parallelism);
      continue;
    }
    std::printf("| %s | %d | %.2f | %.0f | %.2f | %.0f | %.0f |\n", row.query.c_str(),
                row.parallelism, m.wallSeconds, static_cast<double>(events) / m.wallSeconds / 1e3,
                m.cpuSeconds, static_cast<double>(events) / m.cpuSeconds / 1e3,
                static_cast<double>(m.peakRssKibibytes) / 1024.0);
  }
}

// ---------------------------------------------------------------------------------------------
// Arguments

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

int usage(const char* program) {
  std::fprintf(stderr,
               "usage: %s [--queries q0,q1,..|all] [--events N] [--rate R] "
               "[--parallelism 1,2] [--timeout S] [--no-generator] [--in-process] "
               "[--markdown] [--count-rows] [--sql-dir DIR] [--set KEY=VALUE ...] "
               "[--checkpoint-interval 0,1000] [--repeat N]\n",
               program);
  return 2;
}

std::vector<std::string> allQueries() {
  std::vector<std::string> names;
  for (int i = 0; i <= kLastQuery; ++i) names.push_back("q" + std::to_string(i));
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  options.queries = allQueries();
  for (int i = 1; i < argc; ++i) {
    std::string argument = argv[i];
    bool hasValue = i + 1 < argc;
    if (argument == "--queries" && hasValue) {
      std::string value = argv[++i];
      options.queries = value == "all" ? allQueries() : splitList(value);
    } else if (argument == "--events" && hasValue) {
      options.events = std::atoll(argv[++i]);
    } else if (argument == "--rate" && hasValue) {
      options.rate = std::atoll(argv[++i]);
    } else if (argument == "--parallelism" && hasValue) {
      options.parallelisms.clear();
      for (const std::string& item : splitList(argv[++i])) {
        options.parallelisms.push_back(std::atoi(item.c_str()));
      }
    } else if (argument == "--checkpoint-interval" && hasValue) {
      options.checkpointIntervals.clear();
      for (const std::string& item : splitList(argv[++i])) {
        options.checkpointIntervals.push_back(std::atoll(item.c_str()));
      }
    } else if (argument == "--repeat" && hasValue) {
      options.repeat = std::atoi(argv[++i]);
    } else if (argument == "--timeout" && hasValue) {
      options.timeoutSeconds = std::atoi(argv[++i]);
    } else if (argument == "--no-generator") {
      options.generator = false;
    } else if (argument == "--in-process") {
      options.inProcess = true;
    } else if (argument == "--count-rows") {
      options.countRows = true;
    } else if (argument == "--markdown") {
      options.markdown = true;
    } else if (argument == "--sql-dir" && hasValue) {
      options.sqlDirectory = argv[++i];
    } else if (argument == "--set" && hasValue) {
      std::string setting = argv[++i];
      size_t equals = setting.find('=');
      if (equals == std::string::npos || equals == 0) return usage(argv[0]);
      options.settings.emplace_back(setting.substr(0, equals), setting.substr(equals + 1));
    } else {
      return usage(argv[0]);
    }
  }
  if (options.events < 1 || options.rate < 1 || options.parallelisms.empty() ||
      options.queries.empty() || options.timeoutSeconds < 0 || options.repeat < 1 ||
      options.checkpointIntervals.empty()) {
    return usage(argv[0]);
  }
  bool checkpoints = false;
  for (int64_t interval : options.checkpointIntervals) {
    if (interval < 0) return usage(argv[0]);
    checkpoints = checkpoints || interval > 0;
  }
  for (int parallelism : options.parallelisms) {
    if (parallelism < 1) return usage(argv[0]);
  }

  // Read every file first, so that a missing or malformed one stops the driver before it
  // spends minutes on the others.
  std::vector<std::string> ddl;
  std::vector<QueryFile> jobs;
  try {
    std::string ddlPath = options.sqlDirectory + "/ddl.sql";
    std::optional<std::string> ddlText = readFile(ddlPath);
    if (!ddlText) throw std::runtime_error("cannot read " + ddlPath);
    for (const auto& [key, value] : options.settings) {
      ddl.push_back("SET '" + key + "' = '" + value + "'");
    }
    for (std::string& statement : splitStatements(substitutePlaceholders(*ddlText, options))) {
      ddl.push_back(std::move(statement));
    }
    if (options.generator) {
      for (const char* name : kGeneratorJobs) jobs.push_back(loadQuery(options, name));
    }
    for (const std::string& name : options.queries) jobs.push_back(loadQuery(options, name));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "nexmark: %s\n", error.what());
    return 2;
  }

  std::printf(
      "nexmark: %lld events, first-event.rate %lld (%.3f s of event time), STREAMING, "
      "into blackhole sinks\n",
      static_cast<long long>(options.events), static_cast<long long>(options.rate),
      static_cast<double>(options.events) / static_cast<double>(options.rate));
  std::printf(
      "CPU s: the process's CPU time (all threads) during the INSERT; K ev/CPU-s: events per "
      "CPU-second (per core);\npeak MiB: %s; late: rows dropped behind the watermark\n\n",
      options.inProcess ? "the driver process's peak RSS so far (only grows)"
                        : "the peak RSS of the child process that ran the job");
  for (const auto& [key, value] : options.settings) {
    std::printf("SET '%s' = '%s'\n", key.c_str(), value.c_str());
  }
  if (!options.settings.empty()) std::printf("\n");
  if (!options.countRows) printHeader(checkpoints);

  std::vector<ResultRow> results;
  std::vector<std::string> notRun;
  bool anyFailed = false;
  for (const QueryFile& job : jobs) {
    if (!job.notRunReason.empty()) {
      std::printf("%-14s not run: %s\n", job.name.c_str(), job.notRunReason.c_str());
      std::fflush(stdout);
      notRun.push_back(job.name + ": " + job.notRunReason);
      continue;
    }
    for (int parallelism : options.parallelisms) {
      for (int run = 0; run < options.repeat; ++run) {
        for (int64_t interval : options.checkpointIntervals) {
          ResultRow row{job.name, parallelism, interval, {}};
          row.measurement =
              options.inProcess
                  ? runJob(ddl, job, parallelism, options.countRows, interval)
                  : runJobInChild(ddl, job, parallelism, options.countRows, interval,
                                  options.timeoutSeconds);
          std::error_code ignored;
          std::filesystem::remove_all(outputDirectory(), ignored);
          std::filesystem::remove_all(checkpointDirectory(), ignored);
          anyFailed = anyFailed || !row.measurement.ok;
          printRow(row, options.events, options.countRows, checkpoints);
          results.push_back(std::move(row));
        }
      }
    }
  }

  if (options.markdown && !options.countRows) {
    printMarkdown(results, options.events);
    if (checkpoints) printCheckpointMarkdown(results, options.events);
    if (!notRun.empty()) {
      std::printf("\nNot run:\n");
      for (const std::string& line : notRun) std::printf("- %s\n", line.c_str());
    }
    bool headed = false;
    for (const ResultRow& row : results) {
      if (row.measurement.ok) continue;
      if (!headed) std::printf("\nFailed:\n");
      headed = true;
      std::printf("- %s (p%d): %s\n", row.query.c_str(), row.parallelism,
                  oneLine(row.measurement.error).c_str());
    }
  }
  return anyFailed ? 1 : 0;
}
