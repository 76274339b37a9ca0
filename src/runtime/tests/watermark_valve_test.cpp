// The combination of channel watermarks into a subtask's watermark: minimum over active
// channels, idle channels excluded, ended channels released.
#include "runtime/watermark_valve.h"

#include <gtest/gtest.h>

namespace eddy::runtime {
namespace {

std::optional<int64_t> watermarkOf(const WatermarkValve::Forward& forward) {
  if (!forward.watermark) return std::nullopt;
  return forward.watermark->timestamp;
}

TEST(WatermarkValveTest, IsTheMinimumOverChannels) {
  WatermarkValve valve(3);
  EXPECT_EQ(watermarkOf(valve.onWatermark(0, Watermark{10})), std::nullopt);
  EXPECT_EQ(watermarkOf(valve.onWatermark(1, Watermark{5})), std::nullopt);
  EXPECT_EQ(watermarkOf(valve.onWatermark(2, Watermark{7})), 5);
  EXPECT_EQ(watermarkOf(valve.onWatermark(1, Watermark{20})), 7);
  EXPECT_EQ(watermarkOf(valve.onWatermark(2, Watermark{30})), 10);
  EXPECT_EQ(valve.currentWatermark(), 10);
}

TEST(WatermarkValveTest, NeverGoesBackwards) {
  WatermarkValve valve(1);
  EXPECT_EQ(watermarkOf(valve.onWatermark(0, Watermark{10})), 10);
  EXPECT_EQ(watermarkOf(valve.onWatermark(0, Watermark{8})), std::nullopt);
  EXPECT_EQ(valve.currentWatermark(), 10);
}

TEST(WatermarkValveTest, IdleChannelDoesNotHoldBackTheWatermark) {
  WatermarkValve valve(2);
  EXPECT_EQ(watermarkOf(valve.onWatermark(0, Watermark{100})), std::nullopt);
  // Channel 1 never produced anything; once idle, channel 0 alone decides.
  auto forward = valve.onWatermarkStatus(1, WatermarkStatus{true});
  EXPECT_FALSE(forward.status.has_value());  // channel 0 is still active
  EXPECT_EQ(watermarkOf(forward), 100);
  EXPECT_EQ(watermarkOf(valve.onWatermark(0, Watermark{150})), 150);
  // An idle channel's own watermark does not count while it is idle...
  EXPECT_EQ(watermarkOf(valve.onWatermark(1, Watermark{50})), std::nullopt);
  // ...and a resumed channel behind the current watermark cannot move it back.
  EXPECT_EQ(watermarkOf(valve.onWatermarkStatus(1, WatermarkStatus{false})), std::nullopt);
  EXPECT_EQ(watermarkOf(valve.onWatermark(0, Watermark{200})), std::nullopt);
  EXPECT_EQ(watermarkOf(valve.onWatermark(1, Watermark{180})), 180);
}

TEST(WatermarkValveTest, AllChannelsIdleMakesTheSubtaskIdle) {
  WatermarkValve valve(2);
  EXPECT_FALSE(valve.onWatermarkStatus(0, WatermarkStatus{true}).status.has_value());
  auto forward = valve.onWatermarkStatus(1, WatermarkStatus{true});
  ASSERT_TRUE(forward.status.has_value());
  EXPECT_TRUE(forward.status->idle);
  EXPECT_TRUE(valve.idle());
  auto resumed = valve.onWatermarkStatus(0, WatermarkStatus{false});
  ASSERT_TRUE(resumed.status.has_value());
  EXPECT_FALSE(resumed.status->idle);
}

TEST(WatermarkValveTest, LastChannelGoingIdleFlushesTheMaximumWatermark) {
  // Channel 0 passed 99 while channel 1 (still active, at MIN) held it back; then both go
  // idle. As in Flink, the maximum is flushed before the subtask turns idle — otherwise
  // event time would stay at MIN for ever.
  WatermarkValve valve(2);
  EXPECT_EQ(watermarkOf(valve.onWatermark(0, Watermark{99})), std::nullopt);
  auto first = valve.onWatermarkStatus(0, WatermarkStatus{true});
  EXPECT_FALSE(first.flushedWatermark.has_value());
  EXPECT_EQ(watermarkOf(first), std::nullopt);
  auto last = valve.onWatermarkStatus(1, WatermarkStatus{true});
  ASSERT_TRUE(last.flushedWatermark.has_value());
  EXPECT_EQ(last.flushedWatermark->timestamp, 99);
  ASSERT_TRUE(last.status.has_value());
  EXPECT_TRUE(last.status->idle);
  EXPECT_EQ(valve.currentWatermark(), 99);
  // Nothing more to flush when they go idle again.
  valve.onWatermarkStatus(1, WatermarkStatus{false});
  EXPECT_FALSE(valve.onWatermarkStatus(1, WatermarkStatus{true}).flushedWatermark.has_value());
}

TEST(WatermarkValveTest, EndedChannelsReleaseTheWatermark) {
  WatermarkValve valve(2);
  EXPECT_EQ(watermarkOf(valve.onWatermark(0, Watermark{40})), std::nullopt);
  EXPECT_EQ(watermarkOf(valve.onEndOfInput(1)), 40);
  EXPECT_FALSE(valve.allEnded());
  EXPECT_EQ(watermarkOf(valve.onEndOfInput(0)), Watermark::kMax);
  EXPECT_TRUE(valve.allEnded());
}

}  // namespace
}  // namespace eddy::runtime
