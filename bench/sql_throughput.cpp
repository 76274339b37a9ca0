// SQL throughput: rows/s of filter + project + GROUP BY over generated rows, run through the
// public Table API (TableEnvironment::executeSql, a datagen source, a blackhole sink) in BATCH
// and STREAMING mode, beside a hand-written single-threaded C++ loop doing the same work in
// the same run. The machine is noisy, so the ratios to the loop are what to compare.
//
// The query, over t(k INT random in [0, 999], v BIGINT sequence 1..rows):
//
//   INSERT INTO sink SELECT k, COUNT(*), SUM(v) [, MAX(v)] FROM t WHERE v % 10 <> 0 GROUP BY k
//
// and, to show what the source alone costs, `INSERT INTO raw_sink SELECT k, v FROM t`. The loop
// draws k with the same generator as datagen (std::mt19937_64 and a uniform distribution),
// filters and aggregates into an absl::flat_hash_map keyed by k.
//
// With --window, also an event-time window aggregation over the same rows as table tw, whose
// rowtime is `ts AS TO_TIMESTAMP_LTZ(v, 3)` (one row per millisecond, so a 10-second TUMBLE holds 10,000
// rows, about 10 per key) with `WATERMARK FOR ts AS ts`:
//
//   INSERT INTO window_sink SELECT k, window_start, COUNT(*), SUM(v)
//     FROM TABLE(TUMBLE(TABLE tw, DESCRIPTOR(ts), INTERVAL '10' SECOND))
//     WHERE v % 10 <> 0 GROUP BY k, window_start, window_end
//
// beside a loop that keeps the open window's groups in a flat_hash_map and emits them when the
// window ends (rows arrive in time order, as here).
//
// MAX(v) is left out unless --with-max is given: eddy's MIN/MAX accumulator copies a sorted
// map of every distinct value of the group for each row (aggregate_call.cpp), so the query
// with MAX is quadratic in the group size and takes many minutes per run at 10 M rows instead
// of seconds (docs/benchmarks.md).
//
// Usage: sql_throughput [--rows N] [--max-parallelism P] [--repeat R] [--mode M] [--with-max]
//                       [--check]
//   --rows N             rows generated per run (default 10,000,000)
//   --max-parallelism P  run eddy at parallelism 1..P (default 2)
//   --repeat R           run each measurement R times and keep the fastest (default 3)
//   --mode M             batch, streaming or both (default); one mode is handy under perf
//   --with-max           add MAX(v) to the query (and the loop)
//   --mini-batch         enable table.exec.mini-batch (1 s, 10 000 rows) in every environment
//   --window             also measure the TUMBLE window aggregation (and its loop)
//   --check              also run the queries as SELECTs in both modes and compare their totals
//                        (sum of counts, sum of sums, maximum) with the loop's; exits 1 when
//                        they differ. For smoke tests: it costs one more run per mode.
#include <absl/container/flat_hash_map.h>
#include <eddy/eddy.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "timing.h"

namespace {

constexpr int64_t kKeys = 1000;
constexpr int64_t kDefaultRows = 10'000'000;

using eddy::bench::fastestOf;
using eddy::bench::measure;
using eddy::bench::Measurement;

// What the query computes, folded over all groups: the checks compare these, and the loops
// return them so that the compiler cannot drop their work.
struct Totals {
  int64_t rows = 0;  // sum of COUNT(*)
  int64_t sum = 0;   // sum of SUM(v)
  int64_t max = 0;   // maximum of MAX(v)

  bool operator==(const Totals& other) const = default;
};

struct GroupState {
  int64_t count = 0;
  int64_t sum = 0;
  int64_t max = INT64_MIN;
};

// The generator of datagen's random INT field k in [0, kKeys - 1].
struct KeyGenerator {
  std::mt19937_64 random{std::random_device{}()};
  std::uniform_int_distribution<uint64_t> distribution{0, kKeys - 1};
  int32_t next() { return static_cast<int32_t>(distribution(random)); }
};

// The source alone: generate (k, v) and fold them into a checksum.
int64_t handWrittenSource(int64_t rows) {
  KeyGenerator keys;
  int64_t checksum = 0;
  for (int64_t v = 1; v <= rows; ++v) checksum += keys.next() ^ v;
  return checksum;
}

// The whole query: generate, filter, group and aggregate, then fold the groups. The maximum
// is computed with or without --with-max (it costs the loop next to nothing) but compared
// only with it.
Totals handWrittenQuery(int64_t rows) {
  KeyGenerator keys;
  absl::flat_hash_map<int32_t, GroupState> groups;
  for (int64_t v = 1; v <= rows; ++v) {
    int32_t k = keys.next();
    if (v % 10 == 0) continue;
    GroupState& group = groups[k];
    ++group.count;
    group.sum += v;
    group.max = std::max(group.max, v);
  }
  Totals totals;
  for (const auto& [k, group] : groups) {
    totals.rows += group.count;
    totals.sum += group.sum;
    totals.max = std::max(totals.max, group.max);
  }
  return totals;
}

// The window query's loop: rows come in time order (v milliseconds), so only the current
// 10-second window is open; each closing window emits (folds) its groups.
constexpr int64_t kWindowMillis = 10'000;
Totals handWrittenWindowQuery(int64_t rows) {
  KeyGenerator keys;
  absl::flat_hash_map<int32_t, GroupState> groups;
  Totals totals;
  int64_t windowStart = 0;
  auto emit = [&] {
    for (const auto& [k, group] : groups) {
      totals.rows += group.count;
      totals.sum += group.sum;
    }
    groups.clear();
  };
  for (int64_t v = 1; v <= rows; ++v) {
    int32_t k = keys.next();
    int64_t start = v - v % kWindowMillis;
    if (start != windowStart) {
      emit();
      windowStart = start;
    }
    if (v % 10 == 0) continue;
    GroupState& group = groups[k];
    ++group.count;
    group.sum += v;
  }
  emit();
  return totals;
}

constexpr const char* kWindowQuery =
    "SELECT k, window_start, COUNT(*) AS cnt, SUM(v) AS total "
    "FROM TABLE(TUMBLE(TABLE tw, DESCRIPTOR(ts), INTERVAL '10' SECOND)) "
    "WHERE v % 10 <> 0 GROUP BY k, window_start, window_end";

const char* modeName(bool streaming) { return streaming ? "STREAMING" : "BATCH"; }

// The grouped query, with or without MAX(v).
std::string groupQuery(bool withMax) {
  return std::string("SELECT k, COUNT(*) AS cnt, SUM(v) AS total") +
         (withMax ? ", MAX(v) AS biggest" : "") + " FROM t WHERE v % 10 <> 0 GROUP BY k";
}
constexpr const char* kSourceQuery = "SELECT k, v FROM t";

// --mini-batch: table.exec.mini-batch.* for every environment (STREAMING GroupAggregate folds
// each bundle of up to 10 000 rows per key).
bool gMiniBatch = false;

// A TableEnvironment with the generated table `t` and the blackhole sinks `sink` (grouped
// rows) and `raw_sink` (source rows).
std::unique_ptr<eddy::TableEnvironment> createEnvironment(bool streaming, int64_t rows,
                                                          int parallelism, bool withMax) {
  auto tableEnv =
      eddy::TableEnvironment::create(streaming ? eddy::EnvironmentSettings::inStreamingMode()
                                               : eddy::EnvironmentSettings::inBatchMode());
  tableEnv->executeSql("SET 'parallelism.default' = '" + std::to_string(parallelism) + "'");
  if (gMiniBatch) {
    tableEnv->executeSql("SET 'table.exec.mini-batch.enabled' = 'true'");
    tableEnv->executeSql("SET 'table.exec.mini-batch.allow-latency' = '1 s'");
    tableEnv->executeSql("SET 'table.exec.mini-batch.size' = '10000'");
  }
  std::string count = std::to_string(rows);
  std::string maxKey = std::to_string(kKeys - 1);
  // rows-per-second is datagen's throttle (default 10,000); set far above what can be reached,
  // so that the source emits full chunks of 1024 rows as fast as it can.
  std::string createSource = "CREATE TABLE t (k INT, v BIGINT) WITH ('connector' = 'datagen', ";
  createSource += "'rows-per-second' = '1000000000000', 'number-of-rows' = '" + count + "', ";
  createSource += "'fields.k.min' = '0', 'fields.k.max' = '" + maxKey + "', ";
  createSource += "'fields.v.kind' = 'sequence', 'fields.v.start' = '1', ";
  createSource += "'fields.v.end' = '" + count + "')";
  tableEnv->executeSql(createSource);
  // The same rows with an event time, for the window query (a table of its own, so that the
  // other queries do not compute it).
  std::string withTime = createSource;
  withTime.replace(withTime.find("t (k INT, v BIGINT)"), std::string("t (k INT, v BIGINT)").size(),
                   "tw (k INT, v BIGINT, ts AS TO_TIMESTAMP_LTZ(v, 3), WATERMARK FOR ts AS ts)");
  tableEnv->executeSql(withTime);
  tableEnv->executeSql(std::string("CREATE TABLE sink (k INT, cnt BIGINT, total BIGINT") +
                       (withMax ? ", biggest BIGINT" : "") + ") WITH ('connector' = 'blackhole')");
  tableEnv->executeSql("CREATE TABLE raw_sink (k INT, v BIGINT) WITH ('connector' = 'blackhole')");
  tableEnv->executeSql(
      "CREATE TABLE window_sink (k INT, window_start TIMESTAMP(3), cnt BIGINT, total BIGINT) "
      "WITH ('connector' = 'blackhole')");
  return tableEnv;
}

Measurement runInsert(bool streaming, int64_t rows, int parallelism, bool withMax, const char* sink,
                      const std::string& query) {
  auto tableEnv = createEnvironment(streaming, rows, parallelism, withMax);
  std::string insert = std::string("INSERT INTO ") + sink + " " + query;
  return measure([&] { tableEnv->executeSql(insert).await(); });
}

// Runs the grouped query as a SELECT, materializes its result (a changelog in STREAMING) per
// key, and folds the groups.
Totals runCheckedQuery(bool streaming, int64_t rows, int parallelism, bool withMax) {
  auto tableEnv = createEnvironment(streaming, rows, parallelism, withMax);
  absl::flat_hash_map<int32_t, GroupState> groups;
  for (const eddy::Row& row : tableEnv->executeSql(groupQuery(withMax)).collectAll()) {
    int32_t k = row.getFieldAs<int32_t>(0);
    switch (row.getKind()) {
      case eddy::RowKind::INSERT:
      case eddy::RowKind::UPDATE_AFTER:
        groups[k] = GroupState{row.getFieldAs<int64_t>(1), row.getFieldAs<int64_t>(2),
                               withMax ? row.getFieldAs<int64_t>(3) : 0};
        break;
      case eddy::RowKind::UPDATE_BEFORE:
      case eddy::RowKind::DELETE:
        groups.erase(k);
        break;
    }
  }
  Totals totals;
  for (const auto& [k, group] : groups) {
    totals.rows += group.count;
    totals.sum += group.sum;
    totals.max = std::max(totals.max, group.max);
  }
  return totals;
}

// One line per run: wall-clock rate, rate per CPU-second (all threads of the process: the
// "per core" figure, and the steadier one on a shared machine), and both as ratios to the loop.
void report(const std::string& name, int64_t rows, const Measurement& m,
            const Measurement& baseline) {
  double rate = static_cast<double>(rows) / m.seconds;
  double cpuRate = static_cast<double>(rows) / m.cpuSeconds;
  std::printf("%-36s %8.2f %8.2f %9.3f %9.3f\n", name.c_str(), rate / 1e6, cpuRate / 1e6,
              baseline.seconds / m.seconds, baseline.cpuSeconds / m.cpuSeconds);
  std::fflush(stdout);
}

int usage(const char* program) {
  std::fprintf(stderr,
               "usage: %s [--rows N] [--max-parallelism P] [--repeat R] "
               "[--mode batch|streaming|both] [--with-max] [--window] [--check] [--mini-batch]\n",
               program);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t rows = kDefaultRows;
  int maxParallelism = 2;
  int repeat = 3;
  std::vector<bool> modes = {false, true};  // streaming?
  bool withMax = false;
  bool window = false;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rows") == 0 && i + 1 < argc) {
      rows = std::atoll(argv[++i]);
    } else if (std::strcmp(argv[i], "--max-parallelism") == 0 && i + 1 < argc) {
      maxParallelism = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--mode") == 0 && i + 1 < argc) {
      std::string mode = argv[++i];
      if (mode == "batch") {
        modes = {false};
      } else if (mode == "streaming") {
        modes = {true};
      } else if (mode != "both") {
        return usage(argv[0]);
      }
    } else if (std::strcmp(argv[i], "--with-max") == 0) {
      withMax = true;
    } else if (std::strcmp(argv[i], "--window") == 0) {
      window = true;
    } else if (std::strcmp(argv[i], "--check") == 0) {
      check = true;
    } else if (std::strcmp(argv[i], "--mini-batch") == 0) {
      gMiniBatch = true;
    } else {
      return usage(argv[0]);
    }
  }
  if (rows < 1 || maxParallelism < 1 || repeat < 1) return usage(argv[0]);

  std::printf("%lld rows, %lld keys, 1 in 10 rows filtered out, fastest of %d runs each\n",
              static_cast<long long>(rows), static_cast<long long>(kKeys), repeat);
  std::string query = groupQuery(withMax);
  std::printf("query: %s\n\n", query.c_str());

  int64_t sourceChecksum = 0;
  Totals expected;
  Measurement sourceLoop =
      fastestOf(repeat, [&] { return measure([&] { sourceChecksum = handWrittenSource(rows); }); });
  Measurement queryLoop =
      fastestOf(repeat, [&] { return measure([&] { expected = handWrittenQuery(rows); }); });
  std::printf("%-36s %8s %8s %9s %9s\n", "run", "M rows/s", "M rows/", "x loop", "x loop");
  std::printf("%-36s %8s %8s %9s %9s\n", "", "", "CPU-s", "", "per CPU-s");
  report("loop: source only", rows, sourceLoop, sourceLoop);
  report("loop: filter + group", rows, queryLoop, queryLoop);
  std::printf("(loop checksums %lld, %lld)\n", static_cast<long long>(sourceChecksum),
              static_cast<long long>(expected.sum));
  Totals windowExpected;
  Measurement windowLoop{1, 1};
  if (window) {
    windowLoop = fastestOf(
        repeat, [&] { return measure([&] { windowExpected = handWrittenWindowQuery(rows); }); });
    report("loop: filter + 10 s TUMBLE", rows, windowLoop, windowLoop);
    std::printf("(window loop checksum %lld)\n", static_cast<long long>(windowExpected.sum));
  }

  for (bool streaming : modes) {
    for (int parallelism = 1; parallelism <= maxParallelism; ++parallelism) {
      std::string suffix =
          std::string(" ") + modeName(streaming) + " p" + std::to_string(parallelism);
      Measurement source = fastestOf(repeat, [&] {
        return runInsert(streaming, rows, parallelism, withMax, "raw_sink", kSourceQuery);
      });
      report("eddy: source only" + suffix, rows, source, sourceLoop);
      Measurement group = fastestOf(
          repeat, [&] { return runInsert(streaming, rows, parallelism, withMax, "sink", query); });
      report("eddy: filter + group" + suffix, rows, group, queryLoop);
      if (window) {
        Measurement windowed = fastestOf(repeat, [&] {
          return runInsert(streaming, rows, parallelism, withMax, "window_sink", kWindowQuery);
        });
        report("eddy: filter + TUMBLE" + suffix, rows, windowed, windowLoop);
      }
    }
  }

  if (check) {
    bool ok = true;
    for (bool streaming : modes) {
      Totals actual = runCheckedQuery(streaming, rows, maxParallelism, withMax);
      if (!withMax) actual.max = expected.max;  // not computed by the query
      std::printf("check %s: rows %lld, sum %lld, max %lld (loop: %lld, %lld, %lld)\n",
                  modeName(streaming), static_cast<long long>(actual.rows),
                  static_cast<long long>(actual.sum), static_cast<long long>(actual.max),
                  static_cast<long long>(expected.rows), static_cast<long long>(expected.sum),
                  static_cast<long long>(expected.max));
      ok = ok && actual == expected;
      if (window) {
        // Insert-only: every row is one window's group, emitted once.
        auto tableEnv = createEnvironment(streaming, rows, maxParallelism, withMax);
        Totals windowed;
        for (const eddy::Row& row : tableEnv->executeSql(kWindowQuery).collectAll()) {
          ok = ok && row.getKind() == eddy::RowKind::INSERT;
          windowed.rows += row.getFieldAs<int64_t>(2);
          windowed.sum += row.getFieldAs<int64_t>(3);
        }
        std::printf("check %s window: rows %lld, sum %lld (loop: %lld, %lld)\n",
                    modeName(streaming), static_cast<long long>(windowed.rows),
                    static_cast<long long>(windowed.sum),
                    static_cast<long long>(windowExpected.rows),
                    static_cast<long long>(windowExpected.sum));
        ok = ok && windowed == windowExpected;
      }
    }
    if (!ok) {
      std::printf("check FAILED: eddy's totals differ from the loop's\n");
      return 1;
    }
  }
  return 0;
}
