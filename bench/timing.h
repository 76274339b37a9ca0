// Timing shared by the SQL throughput drivers: wall-clock and process CPU time of a piece of
// work (all threads: the "per core" figure, and the steadier one on a shared machine), and the
// fastest of several runs.
#pragma once

#include <chrono>
#include <ctime>
#include <functional>

namespace eddy::bench {

/// CPU time of the whole process (every thread), in seconds.
inline double cpuSeconds() {
  timespec time;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time);
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_nsec) / 1e9;
}

struct Measurement {
  double seconds;
  double cpuSeconds;
};

inline Measurement measure(const std::function<void()>& work) {
  const double cpuStart = cpuSeconds();
  const auto start = std::chrono::steady_clock::now();
  work();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Measurement{seconds, cpuSeconds() - cpuStart};
}

/// The run of `repeat` with the least wall-clock time.
inline Measurement fastestOf(int repeat, const std::function<Measurement()>& run) {
  Measurement best = run();
  for (int i = 1; i < repeat; ++i) {
    const Measurement m = run();
    if (m.seconds < best.seconds) best = m;
  }
  return best;
}

}  // namespace eddy::bench
