// DataStream throughput: records/s through source → map → keyBy → reduce → sink at
// parallelism 1 and 2, beside a hand-written single-threaded loop doing the same work
// (the same key function and a hash map of running sums), all measured in the same run so
// the ratios hold on a noisy machine.
//
// Usage: datastream_throughput [records] (default 5,000,000)
#include <eddy/eddy.h>

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace {

using KeyCount = std::pair<int64_t, int64_t>;
constexpr int64_t kKeys = 1000;

double cpuSeconds() {
  timespec time;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time);
  return static_cast<double>(time.tv_sec) + time.tv_nsec / 1e9;
}

struct Measurement {
  double seconds;
  double cpuSeconds;
  int64_t checksum;
};

template <typename F>
Measurement measure(F&& work) {
  double cpuStart = cpuSeconds();
  auto start = std::chrono::steady_clock::now();
  int64_t checksum = work();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Measurement{seconds, cpuSeconds() - cpuStart, checksum};
}

int64_t handWrittenLoop(int64_t records) {
  absl::flat_hash_map<int64_t, int64_t> sums;
  int64_t checksum = 0;
  for (int64_t value = 1; value <= records; ++value) {
    KeyCount mapped{value % kKeys, 1};
    int64_t& sum = sums[mapped.first];
    sum += mapped.second;
    checksum += sum;  // what the sink would see
  }
  return checksum;
}

int64_t eddyPipeline(int64_t records, int parallelism) {
  auto env = eddy::StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(parallelism);
  auto checksum = std::make_shared<std::atomic<int64_t>>(0);
  env->fromSequence(1, records)
      .map([](int64_t value) { return KeyCount{value % kKeys, 1}; })
      .keyBy([](const KeyCount& record) { return record.first; })
      .reduce([](const KeyCount& a, const KeyCount& b) {
        return KeyCount{a.first, a.second + b.second};
      })
      .addSink([checksum, local = int64_t{0}, seen = int64_t{0}](const KeyCount& record) mutable {
        local += record.second;
        if (++seen % 4096 == 0) {
          *checksum += local;
          local = 0;
        }
        // The remainder below 4096 records is dropped from the checksum; it only needs to
        // keep the compiler from removing the work.
      });
  env->execute("throughput");
  return checksum->load();
}

void report(const char* name, int64_t records, const Measurement& m, double baselineRate) {
  double rate = records / m.seconds;
  std::printf("%-34s %12.0f records/s %12.0f records/s per CPU-second   %.3f x baseline\n", name,
              rate, records / m.cpuSeconds, rate / baselineRate);
}

}  // namespace

int main(int argc, char** argv) {
  int64_t records = argc > 1 ? std::atoll(argv[1]) : 5'000'000;
  std::printf("source -> map -> keyBy -> reduce -> sink, %lld records, %lld keys\n",
              static_cast<long long>(records), static_cast<long long>(kKeys));
  Measurement baseline = measure([&] { return handWrittenLoop(records); });
  double baselineRate = records / baseline.seconds;
  report("hand-written loop (1 thread)", records, baseline, baselineRate);
  for (int parallelism : {1, 2}) {
    Measurement m = measure([&] { return eddyPipeline(records, parallelism); });
    char name[64];
    std::snprintf(name, sizeof(name), "eddy DataStream, parallelism %d", parallelism);
    report(name, records, m, baselineRate);
  }
  return 0;
}
