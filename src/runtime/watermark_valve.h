// WatermarkValve: combines the watermarks of a subtask's input channels into the subtask's
// watermark, as Flink's StatusWatermarkValve. The combined watermark is the minimum over the
// active channels; idle channels and ended channels do not hold it back. When every channel
// that has not ended is idle, the subtask itself becomes idle, after flushing the maximum
// watermark of its channels. Used by one task thread.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eddy/runtime/stream_element.h"

namespace eddy::runtime {

class WatermarkValve {
 public:
  explicit WatermarkValve(int channelCount);

  /// What the subtask must forward after an input event, in this order, each only when
  /// present: a flushed watermark, a status change, a watermark.
  struct Forward {
    /// When the last active channel goes idle, no channel will advance the watermark any
    /// more: as Flink's StatusWatermarkValve, the maximum watermark over the channels is
    /// "flushed" before the subtask becomes idle (otherwise a source whose subtasks all go
    /// idle before they all passed a watermark would hold event time back for ever).
    std::optional<Watermark> flushedWatermark;
    std::optional<WatermarkStatus> status;
    std::optional<Watermark> watermark;
  };

  Forward onWatermark(int channel, Watermark watermark);
  Forward onWatermarkStatus(int channel, WatermarkStatus status);
  /// An ended channel no longer holds the watermark back; when all ended, it is the end of time.
  Forward onEndOfInput(int channel);

  bool allEnded() const { return endedCount_ == static_cast<int>(channels_.size()); }
  bool idle() const { return idle_; }
  int64_t currentWatermark() const { return lastEmitted_; }

 private:
  struct Channel {
    int64_t watermark = Watermark::kMin;
    bool idle = false;
    bool ended = false;
  };
  std::optional<Watermark> advance();

  std::vector<Channel> channels_;
  int endedCount_ = 0;
  int64_t lastEmitted_ = Watermark::kMin;
  bool idle_ = false;
};

}  // namespace eddy::runtime
