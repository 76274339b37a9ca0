#include "runtime/operators/window/window_spec.h"

#include <fmt/format.h>

#include "eddy/exceptions.h"

namespace eddy::runtime::operators {

using relational::WindowKind;
using relational::WindowSpec;
using relational::windowKindName;

int64_t windowStartWithOffset(int64_t timestamp, int64_t offset, int64_t size) {
  int64_t remainder = (timestamp - offset) % size;
  // C++ truncates toward zero: a negative remainder means the window starts one size earlier.
  return remainder < 0 ? timestamp - (remainder + size) : timestamp - remainder;
}

WindowAssigner::WindowAssigner(const WindowSpec& spec, const LogicalType& inputRowType)
    : spec_(spec) {
  std::string name = windowKindName(spec.kind);
  if (spec.size <= 0) {
    throw ValidationException(fmt::format("{} window {} must be positive, but got {} ms.", name,
                                          spec.kind == WindowKind::SESSION ? "gap" : "size",
                                          spec.size));
  }
  if (spec.kind == WindowKind::HOP || spec.kind == WindowKind::CUMULATE) {
    const char* slideName = spec.kind == WindowKind::HOP ? "slide" : "step";
    if (spec.slide <= 0) {
      throw ValidationException(fmt::format("{} window {} must be positive, but got {} ms.", name,
                                            slideName, spec.slide));
    }
    if (spec.kind == WindowKind::CUMULATE && spec.size % spec.slide != 0) {
      throw ValidationException(fmt::format(
          "CUMULATE window requires size must be an integral multiple of step, but got size {} "
          "ms and step {} ms.",
          spec.size, spec.slide));
    }
  }
  if (!spec.processingTime) {
    if (spec.timeColumn < 0 || spec.timeColumn >= inputRowType.getFieldCount()) {
      throw ValidationException(fmt::format("{} window time column {} is not a column of {}.", name,
                                            spec.timeColumn, inputRowType.toString()));
    }
    const LogicalType& timeType = *inputRowType.getFields()[spec.timeColumn].type;
    LogicalTypeRoot root = timeType.getTypeRoot();
    if (root != LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE &&
        root != LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
      throw ValidationException(fmt::format(
          "The window function {}'s time attribute must be of type TIMESTAMP or TIMESTAMP_LTZ, "
          "but got {}.",
          name, timeType.toString()));
    }
  }
}

int64_t WindowAssigner::rowTime(const vector::Vector& timeColumn, int64_t row) {
  if (timeColumn.isNull(row)) throw TableException(kNullRowTimeMessage);
  return timeColumn.data<int64_t>()[row];
}

void WindowAssigner::assignWindows(int64_t time, std::vector<TimeWindow>& windows) const {
  windows.clear();
  switch (spec_.kind) {
    case WindowKind::TUMBLE: {
      int64_t start = windowStartWithOffset(time, spec_.offset, spec_.size);
      windows.push_back(TimeWindow{start, start + spec_.size});
      return;
    }
    case WindowKind::HOP: {
      int64_t lastStart = windowStartWithOffset(time, spec_.offset, spec_.slide);
      for (int64_t start = lastStart; start > time - spec_.size; start -= spec_.slide) {
        windows.push_back(TimeWindow{start, start + spec_.size});
      }
      return;
    }
    case WindowKind::CUMULATE: {
      int64_t start = windowStartWithOffset(time, spec_.offset, spec_.size);
      int64_t lastEnd = start + spec_.size;
      int64_t firstEnd = windowStartWithOffset(time, spec_.offset, spec_.slide) + spec_.slide;
      for (int64_t end = firstEnd; end <= lastEnd; end += spec_.slide) {
        windows.push_back(TimeWindow{start, end});
      }
      return;
    }
    case WindowKind::SESSION:
      windows.push_back(TimeWindow{time, time + spec_.size});
      return;
  }
}

}  // namespace eddy::runtime::operators
