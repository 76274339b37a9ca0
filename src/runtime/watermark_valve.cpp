#include "runtime/watermark_valve.h"

#include <algorithm>

namespace eddy::runtime {

WatermarkValve::WatermarkValve(int channelCount) : channels_(channelCount) {}

std::optional<Watermark> WatermarkValve::advance() {
  int64_t minimum = Watermark::kMax;
  bool anyActive = false;
  for (const Channel& channel : channels_) {
    if (channel.ended || channel.idle) continue;
    anyActive = true;
    minimum = std::min(minimum, channel.watermark);
  }
  if (!anyActive) {
    // Every channel is idle or ended: only ended channels (at the end of time) may still
    // move the watermark, which happens when all of them ended.
    if (!allEnded()) return std::nullopt;
    minimum = Watermark::kMax;
  }
  if (minimum > lastEmitted_) {
    lastEmitted_ = minimum;
    return Watermark{minimum};
  }
  return std::nullopt;
}

WatermarkValve::Forward WatermarkValve::onWatermark(int channel, Watermark watermark) {
  Channel& state = channels_[channel];
  if (watermark.timestamp <= state.watermark) return {};
  state.watermark = watermark.timestamp;
  if (state.idle) return {};  // an idle channel's watermark counts once it resumes
  return Forward{std::nullopt, std::nullopt, advance()};
}

WatermarkValve::Forward WatermarkValve::onWatermarkStatus(int channel, WatermarkStatus status) {
  Channel& state = channels_[channel];
  if (state.idle == status.idle || state.ended) return {};
  state.idle = status.idle;
  Forward forward;
  bool allIdle = std::all_of(channels_.begin(), channels_.end(),
                             [](const Channel& c) { return c.idle || c.ended; });
  if (allIdle && status.idle && !allEnded()) {
    int64_t maximum = Watermark::kMin;
    for (const Channel& c : channels_) {
      if (!c.ended) maximum = std::max(maximum, c.watermark);
    }
    if (maximum > lastEmitted_) {
      lastEmitted_ = maximum;
      forward.flushedWatermark = Watermark{maximum};
    }
  }
  if (allIdle != idle_) {
    idle_ = allIdle;
    forward.status = WatermarkStatus{allIdle};
  }
  // A channel going idle may release the watermark held back by it.
  if (status.idle) forward.watermark = advance();
  return forward;
}

WatermarkValve::Forward WatermarkValve::onEndOfInput(int channel) {
  Channel& state = channels_[channel];
  if (state.ended) return {};
  state.ended = true;
  ++endedCount_;
  return Forward{std::nullopt, std::nullopt, advance()};
}

}  // namespace eddy::runtime
