// BATCH sort and join throughput: rows/s of ORDER BY, ORDER BY .. LIMIT and equi joins over
// generated rows, run through the public Table API (datagen sources, a blackhole sink) in BATCH
// mode, beside hand-written single-threaded C++ loops doing the same work in the same run. Each
// join runs three times: with the hash join ('table.exec.disabled-operators' =
// 'SortMergeJoin'), with the sort-merge join (= 'HashJoin') and as eddy picks by default (by
// the inputs' sizes), so the algorithms are compared in one sitting. The machine is noisy:
// compare the ratios of one run, not figures across runs.
//
// Tables: t(k BIGINT random in [0, rows), v BIGINT sequence 1..rows) of `rows` rows, and for
// the joins r(k BIGINT sequence 0..n-1, w BIGINT random) of n = rows / 2 rows (big) or 1000
// rows (small, keys 0..999, the probe side's keys then drawn from [0, 1000)).
//
//   sort:         INSERT INTO sink2 SELECT k, v FROM t ORDER BY k
//   top 100:      INSERT INTO sink2 SELECT k, v FROM t ORDER BY k DESC LIMIT 100
//   top 3 per k:  INSERT INTO sink2 SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER
//                   (PARTITION BY k ORDER BY v DESC) AS rn FROM t) WHERE rn <= 3
//                 (k drawn from [0, rows / 20): about 20 rows per key)
//   join big:     INSERT INTO sink3 SELECT t.k, v, w FROM t JOIN r ON t.k = r.k
//   join small:   the same with the 1000-row r
//
// (eddy picks sort-merge for the big join, hash for the small one: JoinSpec's AUTO.)
//
// Loops: std::sort / std::partial_sort of (k, v) pairs (by k, v DESC for the top 3, then a
// walk keeping each key's first three); a hash join through an
// absl::flat_hash_map from r's keys to w. They draw k with std::mt19937_64, as datagen does.
//
// Usage: batch_sort_join [--rows N] [--parallelism P] [--repeat R]
//   --rows N         rows of t (default 4,000,000)
//   --parallelism P  eddy's parallelism (default 1)
//   --repeat R       run each measurement R times and keep the fastest (default 3)
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
#include <utility>
#include <vector>

#include "timing.h"

namespace {

using eddy::bench::fastestOf;
using eddy::bench::measure;
using eddy::bench::Measurement;

int64_t gChecksum = 0;  // the loops' results, printed at the end so no work is dropped

std::vector<std::pair<int64_t, int64_t>> generatedRows(int64_t rows, int64_t keys) {
  std::mt19937_64 random{std::random_device{}()};
  std::uniform_int_distribution<int64_t> key(0, keys - 1);
  std::vector<std::pair<int64_t, int64_t>> generated;
  generated.reserve(static_cast<size_t>(rows));
  for (int64_t v = 1; v <= rows; ++v) generated.emplace_back(key(random), v);
  return generated;
}

void sortLoop(int64_t rows, int64_t limit) {
  auto generated = generatedRows(rows, rows);
  if (limit < 0) {
    std::stable_sort(generated.begin(), generated.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
  } else {
    std::partial_sort(generated.begin(), generated.begin() + limit, generated.end(),
                      [](const auto& a, const auto& b) { return a.first > b.first; });
  }
  gChecksum += generated.front().first;
}

void topPerKeyLoop(int64_t rows) {
  auto generated = generatedRows(rows, rows / 20);
  std::sort(generated.begin(), generated.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  });
  int64_t kept = 0;
  for (size_t i = 0, run = 0; i < generated.size(); ++i) {
    run = i > 0 && generated[i].first == generated[i - 1].first ? run + 1 : 0;
    if (run < 3) kept += generated[i].second;
  }
  gChecksum += kept;
}

void joinLoop(int64_t rows, int64_t rightRows) {
  std::mt19937_64 random{std::random_device{}()};
  absl::flat_hash_map<int64_t, int64_t> build;
  for (int64_t k = 0; k < rightRows; ++k) build[k] = static_cast<int64_t>(random() >> 1);
  int64_t matched = 0;
  for (const auto& [k, v] : generatedRows(rows, rightRows)) {
    auto found = build.find(k);
    if (found != build.end()) matched += found->second ^ v;
  }
  gChecksum += matched;
}

// `disabled`: the value of table.exec.disabled-operators ("" for eddy's default).
std::unique_ptr<eddy::TableEnvironment> createEnvironment(int64_t rows, int64_t rightRows,
                                                          int parallelism,
                                                          const std::string& disabled) {
  auto tableEnv = eddy::TableEnvironment::create(eddy::EnvironmentSettings::inBatchMode());
  tableEnv->executeSql("SET 'parallelism.default' = '" + std::to_string(parallelism) + "'");
  if (!disabled.empty()) {
    tableEnv->executeSql("SET 'table.exec.disabled-operators' = '" + disabled + "'");
  }
  const std::string count = std::to_string(rows);
  // t's keys: r's keys for a join, rows / 20 of them for the top 3 (rightRows -1), else rows.
  const int64_t keys = rightRows > 0 ? rightRows : (rightRows < 0 ? rows / 20 : rows);
  const std::string keyMax = std::to_string(keys - 1);
  tableEnv->executeSql(
      "CREATE TABLE t (k BIGINT, v BIGINT) WITH ('connector' = 'datagen', "
      "'rows-per-second' = '1000000000000', 'number-of-rows' = '" + count + "', "
      "'fields.k.min' = '0', 'fields.k.max' = '" + keyMax + "', "
      "'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '" + count + "')");
  if (rightRows > 0) {
    tableEnv->executeSql(
        "CREATE TABLE r (k BIGINT, w BIGINT) WITH ('connector' = 'datagen', "
        "'rows-per-second' = '1000000000000', 'number-of-rows' = '" + std::to_string(rightRows) +
        "', 'fields.k.kind' = 'sequence', 'fields.k.start' = '0', 'fields.k.end' = '" + keyMax +
        "')");
  }
  tableEnv->executeSql("CREATE TABLE sink2 (k BIGINT, v BIGINT) WITH ('connector' = 'blackhole')");
  tableEnv->executeSql(
      "CREATE TABLE sink3 (k BIGINT, v BIGINT, w BIGINT) WITH ('connector' = 'blackhole')");
  return tableEnv;
}

Measurement runInsert(int64_t rows, int64_t rightRows, int parallelism,
                      const std::string& disabled, const std::string& insert) {
  auto tableEnv = createEnvironment(rows, rightRows, parallelism, disabled);
  return measure([&] { tableEnv->executeSql(insert).await(); });
}

// One line per run: input rows (both sides of a join) per wall-clock second and per
// CPU-second, in millions, and the ratio of the baseline's time to this run's.
void report(const std::string& name, int64_t rows, const Measurement& m,
            const Measurement& baseline) {
  std::printf("%-34s %8.2f %8.2f %9.3f %9.3f\n", name.c_str(),
              static_cast<double>(rows) / m.seconds / 1e6,
              static_cast<double>(rows) / m.cpuSeconds / 1e6, baseline.seconds / m.seconds,
              baseline.cpuSeconds / m.cpuSeconds);
  std::fflush(stdout);
}

int usage(const char* program) {
  std::fprintf(stderr, "usage: %s [--rows N] [--parallelism P] [--repeat R]\n", program);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t rows = 4'000'000;
  int parallelism = 1;
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rows") == 0 && i + 1 < argc) {
      rows = std::atoll(argv[++i]);
    } else if (std::strcmp(argv[i], "--parallelism") == 0 && i + 1 < argc) {
      parallelism = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
    } else {
      return usage(argv[0]);
    }
  }
  if (rows < 2000 || parallelism < 1 || repeat < 1) return usage(argv[0]);
  std::printf("BATCH sort and join, %lld rows, parallelism %d, fastest of %d\n",
              static_cast<long long>(rows), parallelism, repeat);
  std::printf("%-34s %8s %8s %9s %9s\n", "run", "M rows/s", "M/CPU-s", "vs base", "CPU vs");

  Measurement sortBase = fastestOf(repeat, [&] { return measure([&] { sortLoop(rows, -1); }); });
  report("loop: sort (baseline)", rows, sortBase, sortBase);
  report("ORDER BY k", rows,
         fastestOf(repeat, [&] {
           return runInsert(rows, 0, parallelism, "", "INSERT INTO sink2 SELECT k, v FROM t ORDER BY k");
         }),
         sortBase);
  Measurement topBase = fastestOf(repeat, [&] { return measure([&] { sortLoop(rows, 100); }); });
  report("loop: top 100 (baseline)", rows, topBase, topBase);
  report("ORDER BY k DESC LIMIT 100", rows,
         fastestOf(repeat, [&] {
           return runInsert(rows, 0, parallelism, "",
                            "INSERT INTO sink2 SELECT k, v FROM t ORDER BY k DESC LIMIT 100");
         }),
         topBase);

  Measurement topBase3 = fastestOf(repeat, [&] { return measure([&] { topPerKeyLoop(rows); }); });
  report("loop: top 3 per key (baseline)", rows, topBase3, topBase3);
  report("ROW_NUMBER .. rn <= 3 per key", rows,
         fastestOf(repeat, [&] {
           return runInsert(rows, -1, parallelism, "",
                            "INSERT INTO sink2 SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER "
                            "(PARTITION BY k ORDER BY v DESC) AS rn FROM t) WHERE rn <= 3");
         }),
         topBase3);

  const std::string join = "INSERT INTO sink3 SELECT t.k, v, w FROM t JOIN r ON t.k = r.k";
  for (int64_t rightRows : {rows / 2, int64_t{1000}}) {
    const std::string size = rightRows == 1000 ? "small" : "big";
    const int64_t input = rows + rightRows;
    Measurement base = fastestOf(repeat, [&] { return measure([&] { joinLoop(rows, rightRows); }); });
    report("loop: hash join " + size + " (baseline)", input, base, base);
    auto run = [&](const std::string& disabled) {
      return fastestOf(repeat, [&] { return runInsert(rows, rightRows, parallelism, disabled, join); });
    };
    Measurement hash = run("SortMergeJoin");
    report("JOIN " + size + ": hash", input, hash, base);
    Measurement merge = run("HashJoin");
    report("JOIN " + size + ": sort-merge", input, merge, base);
    report("JOIN " + size + ": eddy's choice", input, run(""), base);
    std::printf("%-34s %8s %8s %9.3f %9.3f\n", ("  sort-merge vs hash, " + size).c_str(), "", "",
                hash.seconds / merge.seconds, hash.cpuSeconds / merge.cpuSeconds);
  }
  std::printf("(checksum %lld)\n", static_cast<long long>(gChecksum));
  return 0;
}
