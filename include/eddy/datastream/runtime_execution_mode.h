// RuntimeExecutionMode: how a job runs, as Flink's `execution.runtime-mode`.
#pragma once

#include <ostream>
#include <string_view>

namespace eddy {

enum class RuntimeExecutionMode {
  /// Incremental processing of possibly unbounded input; results are a changelog.
  STREAMING,
  /// Bounded input only; keyed operators see their input grouped by key, watermarks do not
  /// progress (one final watermark at the end), rolling aggregations emit final results.
  BATCH,
  /// BATCH when every source is bounded, STREAMING otherwise.
  AUTOMATIC,
};

inline std::string_view toString(RuntimeExecutionMode mode) {
  switch (mode) {
    case RuntimeExecutionMode::STREAMING:
      return "STREAMING";
    case RuntimeExecutionMode::BATCH:
      return "BATCH";
    case RuntimeExecutionMode::AUTOMATIC:
      return "AUTOMATIC";
  }
  return "UNKNOWN";
}

inline std::ostream& operator<<(std::ostream& out, RuntimeExecutionMode mode) {
  return out << toString(mode);
}

}  // namespace eddy
