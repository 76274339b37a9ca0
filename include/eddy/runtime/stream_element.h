// StreamElement: what travels through a channel between two subtasks. Data and control
// share one ordered channel (never flags inside rows): a batch of records, a watermark, a
// change of watermark status (idle/active), a checkpoint barrier, or the end of input.
#pragma once

#include <cstdint>
#include <limits>
#include <variant>

#include "eddy/runtime/checkpoint_barrier.h"
#include "eddy/runtime/record_batch.h"

namespace eddy::runtime {

/// Event time has reached `timestamp`: no record with a smaller or equal timestamp follows.
struct Watermark {
  int64_t timestamp;
  static constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  static constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
};

/// The sender stopped (idle) or resumed (active) producing records and watermarks; an idle
/// channel does not hold back the receiver's watermark.
struct WatermarkStatus {
  bool idle;
};

/// The sender will send nothing more on this channel.
struct EndOfInput {};

using StreamElement =
    std::variant<BatchPtr, Watermark, WatermarkStatus, CheckpointBarrier, EndOfInput>;

}  // namespace eddy::runtime
